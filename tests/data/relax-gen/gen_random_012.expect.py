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
    def foo(p0: R.Tensor((2, 3), dtype="float32", vdevice="llvm:0:global"), p1: R.Tensor((3, 2), dtype="float32", vdevice="llvm:0:global"), p2: R.Tensor((3, 2), dtype="float32", vdevice="llvm:1:global"), p3: R.Tensor((3, 2), dtype="float32", vdevice="llvm:0:global")) -> R.Tensor((3, 3), dtype="float32", vdevice="llvm:0:global"):
        with R.dataflow():
            v1: R.Tensor((3, 2), dtype="float32", vdevice="llvm:0:global") = R.subtract(p1, p3)
            h2: R.Tensor((3, 2), dtype="float32", vdevice="llvm:0:global") = v1
            v3: R.Tensor((3, 2), dtype="float32", vdevice="llvm:0:global") = R.negative(v1)
            t4: R.Tuple(R.Tensor((3, 2), dtype="float32", vdevice="llvm:0:global"), R.Tensor((3, 2), dtype="float32", vdevice="llvm:0:global"), R.Tensor((3, 2), dtype="float32", vdevice="llvm:0:global")) = p1, v1, p3
            v5: R.Tensor((3, 2), dtype="float32", vdevice="llvm:0:global") = t4[0]
            v6: R.Tensor((3, 3), dtype="float32", vdevice="llvm:0:global") = R.matmul(v3, p0, out_dtype=None)
            R.output(v6)
        return v6

    @R.function
    def helper(a: R.Tensor(dtype="float32", ndim=2)) -> R.Tensor(dtype="float32", ndim=2):
        b: R.Tensor(dtype="float32", ndim=2) = R.exp(a)
        return b