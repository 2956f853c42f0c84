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
    def foo(p0: R.Tensor((2, 3), dtype="float32", vdevice="llvm:0:global"), p1: R.Tensor((2, 3), dtype="float32", vdevice="llvm:0:global")) -> R.Tensor((2, 3), dtype="float32"):
        cls = Module
        v1: R.Tensor((2, 3), dtype="float32", vdevice="llvm:0:global") = R.subtract(p1, p1)
        h2: R.Tensor((2, 3), dtype="float32", vdevice="llvm:0:global") = v1
        t3: R.Tuple(R.Tensor((2, 3), dtype="float32", vdevice="llvm:0:global"), R.Tensor((2, 3), dtype="float32", vdevice="llvm:0:global"), R.Tensor((2, 3), dtype="float32", vdevice="llvm:0:global")) = p1, h2, v1
        v4: R.Tensor((2, 3), dtype="float32", vdevice="llvm:0:global") = t3[0]
        h5: R.Tensor((2, 3), dtype="float32", vdevice="llvm:0:global") = v4
        v6: R.Tensor((2, 3), dtype="float32", vdevice="llvm:0:global") = R.exp(p0)
        v7: R.Tensor((4, 3), dtype="float32", vdevice="llvm:0:global") = R.concat((v4, v6), axis=0)
        h8: R.Tensor((4, 3), dtype="float32", vdevice="llvm:1:global") = R.to_vdevice(v7, dst_vdevice="llvm:1:global")
        v9: R.Tensor((2, 3), dtype="float32", vdevice="llvm:0:global") = R.abs(p0)
        v10: R.Tensor((4, 3), dtype="float32", vdevice="llvm:1:global") = R.add(h8, h8)
        h11: R.Tensor((4, 3), dtype="float32", vdevice="llvm:1:global") = v10
        v12: R.Tensor((4, 3), dtype="float32", vdevice="llvm:1:global") = R.abs(h11)
        v13: R.Tensor((2, 3), dtype="float32", vdevice="llvm:0:global") = R.nn.relu(v4)
        s14 = R.call_tir(cls.copy_2x3, (h5,), out_ty=R.Tensor((2, 3), dtype="float32"))
        return s14

    @R.function
    def helper(a: R.Tensor(dtype="float32", ndim=2)) -> R.Tensor(dtype="float32", ndim=2):
        b: R.Tensor(dtype="float32", ndim=2) = R.exp(a)
        return b