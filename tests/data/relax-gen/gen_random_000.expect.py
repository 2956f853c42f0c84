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
    def foo(p0: R.Tensor((2, 3), dtype="float32", vdevice="llvm:0:global"), p1: R.Tensor((3, 2), dtype="float32"), p2: R.Tensor((3, 2), dtype="float32", vdevice="llvm:1:global"), p3: R.Tensor((2, 3), dtype="float32")) -> R.Tensor((3, 2), dtype="float32", vdevice="llvm:1:global"):
        cls = Module
        with R.dataflow():
            v1: R.Tensor((3, 2), dtype="float32", vdevice="llvm:1:global") = R.add(p2, p2)
            h2: R.Tensor((3, 2), dtype="float32", vdevice="llvm:1:global") = v1
            k3: R.Tensor((3, 2), dtype="float32") = R.match_cast(v1, R.Tensor((3, 2), dtype="float32"))
            h4: R.Tensor((3, 2), dtype="float32", vdevice="llvm:0:global") = R.to_vdevice(k3, dst_vdevice="llvm:0:global")
            v5: R.Tensor((3, 2), dtype="float32", vdevice="llvm:0:global") = R.maximum(h4, h4)
            g6: R.Tensor(dtype="float32", ndim=2) = cls.helper(v5)
            v7: R.Tensor((3, 2), dtype="float32") = R.nn.relu(k3)
            c8: R.Tensor((3, 2), dtype="float32", vdevice="llvm:0:global") = R.to_vdevice(v5, dst_vdevice="llvm:0:global")
            v9: R.Tensor((3, 2), dtype="float32", vdevice="llvm:1:global") = R.sigmoid(h2)
            R.output(v9)
        return v9

    @R.function
    def helper(a: R.Tensor(dtype="float32", ndim=2)) -> R.Tensor(dtype="float32", ndim=2):
        b: R.Tensor(dtype="float32", ndim=2) = R.exp(a)
        return b