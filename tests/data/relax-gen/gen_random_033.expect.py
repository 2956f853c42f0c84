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
    def foo(p0: R.Tensor((2, 3), dtype="float32", vdevice="llvm:0:global"), p1: R.Tensor((3, 2), dtype="float32", vdevice="llvm:0:global")) -> R.Tensor((3, 2), dtype="float32"):
        cls = Module
        v1: R.Tensor((3, 2), dtype="float32", vdevice="llvm:0:global") = R.maximum(p1, p1)
        h2: R.Tensor((3, 2), dtype="float32", vdevice="llvm:1:global") = R.to_vdevice(v1, dst_vdevice="llvm:1:global")
        v3: R.Tensor((2, 3), dtype="float32", vdevice="llvm:0:global") = R.maximum(p0, p0)
        v4: R.Tensor((2, 2), dtype="float32", vdevice="llvm:0:global") = R.matmul(v3, p1, out_dtype=None)
        h5: R.Tensor((2, 2), dtype="float32", vdevice="llvm:0:global") = v4
        s6 = R.call_tir(cls.copy_2x2, (h5,), out_ty=R.Tensor((2, 2), dtype="float32"))
        v7: R.Tensor((4, 2), dtype="float32", vdevice="llvm:0:global") = R.concat((v4, h5), axis=0)
        v8: R.Tensor((2, 2), dtype="float32", vdevice="llvm:0:global") = R.add(v4, s6)
        c9: R.Tensor((2, 3), dtype="float32", vdevice="llvm:1:global") = R.to_vdevice(v3, dst_vdevice="llvm:1:global")
        h10: R.Tensor((3, 2), dtype="float32", vdevice="llvm:1:global") = R.to_vdevice(p1, dst_vdevice="llvm:1:global")
        v11: R.Tensor((3, 2), dtype="float32", vdevice="llvm:1:global") = R.multiply(h10, h2)
        h12: R.Tensor((3, 2), dtype="float32", vdevice="llvm:0:global") = R.to_vdevice(v11, dst_vdevice="llvm:0:global")
        g13: R.Tensor(dtype="float32", ndim=2) = cls.helper(v11)
        return g13

    @R.function
    def helper(a: R.Tensor(dtype="float32", ndim=2)) -> R.Tensor(dtype="float32", ndim=2):
        b: R.Tensor(dtype="float32", ndim=2) = R.exp(a)
        return b