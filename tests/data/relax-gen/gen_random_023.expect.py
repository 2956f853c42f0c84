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
    def foo(p0: R.Tensor((2, 3), dtype="float32", vdevice="llvm:1:global"), p1: R.Tensor((3, 2), dtype="float32", vdevice="llvm:1:global"), p2: R.Tensor((3, 2), dtype="float32", vdevice="llvm:0:global"), p3: R.Tensor((3, 2), dtype="float32", vdevice="llvm:1:global")) -> R.Tensor((3, 2), dtype="float32", vdevice="llvm:1:global"):
        cls = Module
        with R.dataflow():
            v1: R.Tensor((3, 2), dtype="float32", vdevice="llvm:1:global") = R.maximum(p1, p1)
            h2: R.Tensor((3, 2), dtype="float32", vdevice="llvm:1:global") = v1
            v3: R.Tensor((3, 3), dtype="float32", vdevice="llvm:1:global") = R.matmul(p1, p0, out_dtype=None)
            h4: R.Tensor((3, 2), dtype="float32", vdevice="llvm:0:global") = p2
            v5: R.Tensor((2, 3), dtype="float32", vdevice="llvm:1:global") = R.negative(p0)
            t6: R.Tuple(R.Tensor((2, 3), dtype="float32", vdevice="llvm:1:global"), R.Tensor((2, 3), dtype="float32", vdevice="llvm:1:global")) = p0, p0
            v7: R.Tensor((2, 3), dtype="float32", vdevice="llvm:1:global") = t6[0]
            v8: R.Tensor((3, 2), dtype="float32", vdevice="llvm:1:global") = R.sigmoid(p1)
            c9: R.Tensor((3, 2), dtype="float32", vdevice="llvm:1:global") = R.to_vdevice(v8, dst_vdevice="llvm:1:global")
            v10: R.Tensor((3, 3), dtype="float32", vdevice="llvm:1:global") = R.tanh(v3)
            h11: R.Tensor((3, 2), dtype="float32", vdevice="llvm:0:global") = R.to_vdevice(p3, dst_vdevice="llvm:0:global")
            k12: R.Tensor((3, 2), dtype="float32") = R.match_cast(v1, R.Tensor((3, 2), dtype="float32"))
            v13: R.Tensor((3, 3), dtype="float32", vdevice="llvm:1:global") = R.multiply(v3, v3)
            h14: R.Tensor((3, 3), dtype="float32", vdevice="llvm:1:global") = v13
            s15 = R.call_tir(cls.copy_3x2, (p3,), out_ty=R.Tensor((3, 2), dtype="float32"))
            t16: R.Tuple(R.Tensor((3, 2), dtype="float32", vdevice="llvm:1:global"), R.Tensor((3, 2), dtype="float32", vdevice="llvm:1:global")) = v8, h2
            v17: R.Tensor((3, 2), dtype="float32", vdevice="llvm:1:global") = t16[0]
            h18: R.Tensor((3, 2), dtype="float32", vdevice="llvm:1:global") = v17
            R.output(h18)
        return h18

    @R.function
    def helper(a: R.Tensor(dtype="float32", ndim=2)) -> R.Tensor(dtype="float32", ndim=2):
        b: R.Tensor(dtype="float32", ndim=2) = R.exp(a)
        return b