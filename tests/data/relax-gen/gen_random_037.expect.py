# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis
# from tvm.script import relax as R

@I.ir_module
class Module:
    I.module_global_infos({"vdevice": [I.vdevice({"keys": ["cpu"], "kind": "llvm", "mtriple": "x86_64-unknown-linux-gnu", "tag": ""}, 0, "global"), I.vdevice({"keys": ["cpu"], "kind": "llvm", "mtriple": "x86_64-unknown-linux-gnu", "tag": ""}, 1, "global")]})
    @T.prim_func
    def copy_2x2(A: T.Buffer((2, 2), "float32"), B: T.Buffer((2, 2), "float32")):
        for i, j in T.grid(2, 2):
            B[i, j] = A[i, j]

    @T.prim_func
    def copy_2x3(A: T.Buffer((2, 3), "float32"), B: T.Buffer((2, 3), "float32")):
        for i, j in T.grid(2, 3):
            B[i, j] = A[i, j]

    @T.prim_func
    def copy_3x2(A: T.Buffer((3, 2), "float32"), B: T.Buffer((3, 2), "float32")):
        for i, j in T.grid(3, 2):
            B[i, j] = A[i, j]

    @T.prim_func
    def copy_3x3(A: T.Buffer((3, 3), "float32"), B: T.Buffer((3, 3), "float32")):
        for i, j in T.grid(3, 3):
            B[i, j] = A[i, j]

    @R.function
    def foo(p0: R.Tensor((2, 3), dtype="float32", vdevice="llvm:1:global"), p1: R.Tensor((2, 3), dtype="float32", vdevice="llvm:1:global"), p2: R.Tensor((3, 2), dtype="float32", vdevice="llvm:1:global"), p3: R.Tensor((2, 3), dtype="float32", vdevice="llvm:1:global")) -> R.Tensor((2, 2), dtype="float32"):
        cls = Module
        with R.dataflow():
            v1: R.Tensor((2, 3), dtype="float32", vdevice="llvm:1:global") = R.exp(p0)
            h2: R.Tensor((2, 3), dtype="float32", vdevice="llvm:1:global") = v1
            v3: R.Tensor((2, 3), dtype="float32", vdevice="llvm:1:global") = R.subtract(v1, h2)
            v4: R.Tensor((2, 2), dtype="float32", vdevice="llvm:1:global") = R.matmul(p1, p2, out_dtype=None)
            v5: R.Tensor((2, 3), dtype="float32", vdevice="llvm:1:global") = R.negative(p1)
            v6: R.Tensor((2, 3), dtype="float32", vdevice="llvm:1:global") = R.multiply(p3, p1)
            t7: R.Tuple(R.Tensor((2, 3), dtype="float32", vdevice="llvm:1:global"), R.Tensor((2, 3), dtype="float32", vdevice="llvm:1:global")) = p3, v3
            v8: R.Tensor((2, 3), dtype="float32", vdevice="llvm:1:global") = t7[0]
            g9: R.Tensor(dtype="float32", ndim=2) = cls.helper(v4)
            v10: R.Tensor((2, 3), dtype="float32", vdevice="llvm:1:global") = R.abs(p1)
            k11: R.Tensor((2, 2), dtype="float32") = R.match_cast(g9, R.Tensor((2, 2), dtype="float32"))
            v12: R.Tensor((2, 3), dtype="float32", vdevice="llvm:1:global") = R.add(v3, v5)
            h13: R.Tensor((2, 3), dtype="float32", vdevice="llvm:0:global") = R.to_vdevice(v12, dst_vdevice="llvm:0:global")
            v14: R.Tensor((2, 2), dtype="float32") = R.nn.relu(k11)
            R.output(v14)
        return v14

    @R.function
    def helper(a: R.Tensor(dtype="float32", ndim=2)) -> R.Tensor(dtype="float32", ndim=2):
        b: R.Tensor(dtype="float32", ndim=2) = R.exp(a)
        return b