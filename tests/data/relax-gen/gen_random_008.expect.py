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
    def foo(p0: R.Tensor((2, 3), dtype="float32", vdevice="llvm:0:global"), p1: R.Tensor((3, 2), dtype="float32", vdevice="llvm:0:global"), p2: R.Tensor((2, 3), dtype="float32", vdevice="llvm:0:global")) -> R.Tensor((3, 3), dtype="float32", vdevice="llvm:0:global"):
        with R.dataflow():
            v1: R.Tensor((6, 2), dtype="float32", vdevice="llvm:0:global") = R.concat((p1, p1), axis=0)
            h2: R.Tensor((6, 2), dtype="float32", vdevice="llvm:0:global") = v1
            v3: R.Tensor((6, 2), dtype="float32", vdevice="llvm:0:global") = R.concat((p1, p1), axis=0)
            h4: R.Tensor((6, 2), dtype="float32", vdevice="llvm:1:global") = R.to_vdevice(v3, dst_vdevice="llvm:1:global")
            c5: R.Tensor((6, 2), dtype="float32", vdevice="llvm:0:global") = R.to_vdevice(h4, dst_vdevice="llvm:0:global")
            v6: R.Tensor((2, 2), dtype="float32", vdevice="llvm:0:global") = R.matmul(p2, p1, out_dtype=None)
            h7: R.Tensor((2, 3), dtype="float32", vdevice="llvm:0:global") = p0
            v8: R.Tensor((2, 3), dtype="float32", vdevice="llvm:0:global") = R.multiply(h7, p0)
            h9: R.Tensor((2, 3), dtype="float32", vdevice="llvm:0:global") = v8
            v10: R.Tensor((2, 3), dtype="float32", vdevice="llvm:0:global") = R.maximum(p2, h9)
            h11: R.Tensor((2, 3), dtype="float32", vdevice="llvm:0:global") = h9
            v12: R.Tensor((2, 2), dtype="float32", vdevice="llvm:0:global") = R.add(v6, v6)
            v13: R.Tensor((3, 3), dtype="float32", vdevice="llvm:0:global") = R.matmul(p1, h11, out_dtype=None)
            R.output(v13)
        return v13

    @R.function
    def helper(a: R.Tensor(dtype="float32", ndim=2)) -> R.Tensor(dtype="float32", ndim=2):
        b: R.Tensor(dtype="float32", ndim=2) = R.exp(a)
        return b