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
    def foo(p0: R.Tensor((2, 3), dtype="float32", vdevice="llvm:1:global"), p1: R.Tensor((2, 3), dtype="float32", vdevice="llvm:1:global")) -> R.Tensor((2, 3), dtype="float32", vdevice="llvm:1:global"):
        k1: R.Tensor((2, 3), dtype="float32") = R.match_cast(p1, R.Tensor((2, 3), dtype="float32"))
        h2: R.Tensor((2, 3), dtype="float32", vdevice="llvm:1:global") = R.to_vdevice(k1, dst_vdevice="llvm:1:global")
        c3: R.Tensor((2, 3), dtype="float32", vdevice="llvm:1:global") = R.to_vdevice(h2, dst_vdevice="llvm:1:global")
        t4: R.Tuple(R.Tensor((2, 3), dtype="float32", vdevice="llvm:1:global"), R.Tensor((2, 3), dtype="float32", vdevice="llvm:1:global")) = h2, h2
        v5: R.Tensor((2, 3), dtype="float32", vdevice="llvm:1:global") = t4[1]
        h6: R.Tensor((2, 3), dtype="float32", vdevice="llvm:1:global") = v5
        c7: R.Tensor((2, 3), dtype="float32", vdevice="llvm:1:global") = R.to_vdevice(p0, dst_vdevice="llvm:1:global")
        t8: R.Tuple(R.Tensor((2, 3), dtype="float32", vdevice="llvm:1:global"), R.Tensor((2, 3), dtype="float32", vdevice="llvm:1:global"), R.Tensor((2, 3), dtype="float32", vdevice="llvm:1:global")) = c3, p0, h2
        v9: R.Tensor((2, 3), dtype="float32", vdevice="llvm:1:global") = t8[2]
        return v9

    @R.function
    def helper(a: R.Tensor(dtype="float32", ndim=2)) -> R.Tensor(dtype="float32", ndim=2):
        b: R.Tensor(dtype="float32", ndim=2) = R.exp(a)
        return b