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
    def foo(p0: R.Tensor((2, 3), dtype="float32", vdevice="llvm:1:global"), p1: R.Tensor((2, 3), dtype="float32"), p2: R.Tensor((2, 3), dtype="float32", vdevice="llvm:0:global")) -> R.Tensor((2, 3), dtype="float32", vdevice="llvm:0:global"):
        cls = Module
        with R.dataflow():
            g1: R.Tensor(dtype="float32", ndim=2) = cls.helper(p2)
            h2: R.Tensor(dtype="float32", ndim=2, vdevice="llvm:0:global") = R.to_vdevice(g1, dst_vdevice="llvm:0:global")
            v3: R.Tensor(dtype="float32", ndim=2, vdevice="llvm:0:global") = R.subtract(p2, g1)
            h4: R.Tensor(dtype="float32", ndim=2, vdevice="llvm:1:global") = R.to_vdevice(h2, dst_vdevice="llvm:1:global")
            v5: R.Tensor(dtype="float32", ndim=2, vdevice="llvm:1:global") = R.add(p0, h4)
            h6: R.Tensor(dtype="float32", ndim=2, vdevice="llvm:0:global") = R.to_vdevice(v5, dst_vdevice="llvm:0:global")
            R.output(h6)
        return h6

    @R.function
    def helper(a: R.Tensor(dtype="float32", ndim=2)) -> R.Tensor(dtype="float32", ndim=2):
        b: R.Tensor(dtype="float32", ndim=2) = R.exp(a)
        return b