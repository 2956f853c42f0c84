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
    def foo(p0: R.Tensor((2, 3), dtype="float32", vdevice="llvm:1:global"), p1: R.Tensor((3, 2), dtype="float32", vdevice="llvm:1:global")) -> R.Tensor((2, 3), dtype="float32", vdevice="llvm:1:global"):
        cls = Module
        v1: R.Tensor((2, 3), dtype="float32", vdevice="llvm:1:global") = R.abs(p0)
        t2: R.Tuple(R.Tensor((2, 3), dtype="float32", vdevice="llvm:1:global"), R.Tensor((2, 3), dtype="float32", vdevice="llvm:1:global"), R.Tensor((2, 3), dtype="float32", vdevice="llvm:1:global")) = v1, p0, p0
        v3: R.Tensor((2, 3), dtype="float32", vdevice="llvm:1:global") = t2[0]
        t4: R.Tuple(R.Tensor((2, 3), dtype="float32", vdevice="llvm:1:global"), R.Tensor((2, 3), dtype="float32", vdevice="llvm:1:global")) = v3, v3
        v5: R.Tensor((2, 3), dtype="float32", vdevice="llvm:1:global") = t4[1]
        h6: R.Tensor((2, 3), dtype="float32", vdevice="llvm:0:global") = R.to_vdevice(v1, dst_vdevice="llvm:0:global")
        v7: R.Tensor((2, 3), dtype="float32", vdevice="llvm:1:global") = R.exp(v3)
        v8: R.Tensor((2, 3), dtype="float32", vdevice="llvm:1:global") = R.tanh(v1)
        v9: R.Tensor((3, 2), dtype="float32", vdevice="llvm:1:global") = R.maximum(p1, p1)
        s10 = R.call_tir(cls.copy_2x3, (v7,), out_ty=R.Tensor((2, 3), dtype="float32"))
        v11: R.Tensor((2, 2), dtype="float32", vdevice="llvm:1:global") = R.matmul(v7, v9, out_dtype=None)
        h12: R.Tensor((2, 3), dtype="float32", vdevice="llvm:1:global") = R.to_vdevice(h6, dst_vdevice="llvm:1:global")
        v13: R.Tensor((4, 3), dtype="float32", vdevice="llvm:1:global") = R.concat((p0, v1), axis=0)
        h14: R.Tensor((4, 3), dtype="float32", vdevice="llvm:1:global") = v13
        v15: R.Tensor((2, 2), dtype="float32", vdevice="llvm:1:global") = R.negative(v11)
        h16: R.Tensor((3, 2), dtype="float32", vdevice="llvm:1:global") = v9
        c17: R.Tensor((4, 3), dtype="float32", vdevice="llvm:0:global") = R.to_vdevice(v13, dst_vdevice="llvm:0:global")
        v18: R.Tensor((2, 3), dtype="float32", vdevice="llvm:1:global") = R.tanh(h12)
        return v18

    @R.function
    def helper(a: R.Tensor(dtype="float32", ndim=2)) -> R.Tensor(dtype="float32", ndim=2):
        b: R.Tensor(dtype="float32", ndim=2) = R.exp(a)
        return b