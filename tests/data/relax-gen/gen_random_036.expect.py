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
    def foo(p0: R.Tensor((2, 3), dtype="float32", vdevice="llvm:0:global"), p1: R.Tensor((2, 3), dtype="float32", vdevice="llvm:1:global"), p2: R.Tensor((3, 2), dtype="float32", vdevice="llvm:0:global"), p3: R.Tensor((3, 2), dtype="float32")) -> R.Tensor((3, 2), dtype="float32"):
        cls = Module
        t1: R.Tuple(R.Tensor((3, 2), dtype="float32", vdevice="llvm:0:global"), R.Tensor((3, 2), dtype="float32", vdevice="llvm:0:global"), R.Tensor((2, 3), dtype="float32", vdevice="llvm:0:global")) = p2, p2, p0
        v2: R.Tensor((3, 2), dtype="float32", vdevice="llvm:0:global") = t1[0]
        h3: R.Tensor((2, 3), dtype="float32", vdevice="llvm:1:global") = p1
        v4: R.Tensor((3, 2), dtype="float32") = R.add(p3, p3)
        c5: R.Tensor((3, 2), dtype="float32") = R.to_vdevice(p3, dst_vdevice="llvm:1:global")
        v6: R.Tensor((2, 3), dtype="float32", vdevice="llvm:1:global") = R.subtract(p1, p1)
        v7: R.Tensor((3, 2), dtype="float32") = R.multiply(p3, p3)
        g8: R.Tensor(dtype="float32", ndim=2) = cls.helper(h3)
        h9: R.Tensor(dtype="float32", ndim=2, vdevice="llvm:0:global") = R.to_vdevice(g8, dst_vdevice="llvm:0:global")
        g10: R.Tensor(dtype="float32", ndim=2) = cls.helper(g8)
        h11: R.Tensor((2, 3), dtype="float32", vdevice="llvm:0:global") = R.to_vdevice(v6, dst_vdevice="llvm:0:global")
        v12: R.Tensor((3, 2), dtype="float32", vdevice="llvm:0:global") = R.subtract(p2, v2)
        h13: R.Tensor((3, 2), dtype="float32", vdevice="llvm:1:global") = R.to_vdevice(v12, dst_vdevice="llvm:1:global")
        t14: R.Tuple(R.Tensor((2, 3), dtype="float32", vdevice="llvm:0:global"), R.Tensor(dtype="float32", ndim=2, vdevice="llvm:0:global"), R.Tensor((2, 3), dtype="float32", vdevice="llvm:0:global")) = p0, h9, p0
        v15: R.Tensor((2, 3), dtype="float32", vdevice="llvm:0:global") = t14[2]
        v16: R.Tensor((2, 3), dtype="float32", vdevice="llvm:1:global") = R.nn.relu(h3)
        v17: R.Tensor((3, 2), dtype="float32") = R.sigmoid(v7)
        return v17

    @R.function
    def helper(a: R.Tensor(dtype="float32", ndim=2)) -> R.Tensor(dtype="float32", ndim=2):
        b: R.Tensor(dtype="float32", ndim=2) = R.exp(a)
        return b