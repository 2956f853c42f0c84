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
    def foo(p0: R.Tensor((2, 3), dtype="float32", vdevice="llvm:1:global"), p1: R.Tensor((3, 2), dtype="float32"), p2: R.Tensor((3, 2), dtype="float32")) -> R.Tensor((2, 3), dtype="float32", vdevice="llvm:0:global"):
        v1: R.Tensor((2, 3), dtype="float32", vdevice="llvm:1:global") = R.tanh(p0)
        v2: R.Tensor((2, 3), dtype="float32", vdevice="llvm:1:global") = R.negative(p0)
        h3: R.Tensor((2, 3), dtype="float32", vdevice="llvm:1:global") = v2
        v4: R.Tensor((2, 3), dtype="float32", vdevice="llvm:1:global") = R.nn.relu(p0)
        h5: R.Tensor((2, 3), dtype="float32", vdevice="llvm:1:global") = v4
        v6: R.Tensor((2, 3), dtype="float32", vdevice="llvm:1:global") = R.subtract(h5, h5)
        c7: R.Tensor((3, 2), dtype="float32") = R.to_vdevice(p1, dst_vdevice="llvm:1:global")
        v8: R.Tensor((2, 3), dtype="float32", vdevice="llvm:1:global") = R.multiply(p0, v6)
        h9: R.Tensor((2, 3), dtype="float32", vdevice="llvm:0:global") = R.to_vdevice(v8, dst_vdevice="llvm:0:global")
        v10: R.Tensor((2, 3), dtype="float32", vdevice="llvm:1:global") = R.maximum(v2, v6)
        t11: R.Tuple(R.Tensor((2, 3), dtype="float32", vdevice="llvm:1:global"), R.Tensor((2, 3), dtype="float32", vdevice="llvm:1:global"), R.Tensor((2, 3), dtype="float32", vdevice="llvm:1:global")) = v8, h5, h3
        v12: R.Tensor((2, 3), dtype="float32", vdevice="llvm:1:global") = t11[2]
        v13: R.Tensor((2, 3), dtype="float32", vdevice="llvm:1:global") = R.multiply(v8, h3)
        h14: R.Tensor((2, 3), dtype="float32", vdevice="llvm:0:global") = R.to_vdevice(v13, dst_vdevice="llvm:0:global")
        return h14

    @R.function
    def helper(a: R.Tensor(dtype="float32", ndim=2)) -> R.Tensor(dtype="float32", ndim=2):
        b: R.Tensor(dtype="float32", ndim=2) = R.exp(a)
        return b