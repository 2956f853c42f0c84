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
    def foo(p0: R.Tensor((2, 3), dtype="float32"), p1: R.Tensor((3, 2), dtype="float32"), p2: R.Tensor((2, 3), dtype="float32")) -> R.Tensor((3, 2), dtype="float32", vdevice="llvm:0:global"):
        with R.dataflow():
            v1: R.Tensor((2, 3), dtype="float32") = R.exp(p2)
            h2: R.Tensor((2, 3), dtype="float32") = R.hint_on_device(v1, R.device(device_type=1, index=0), "global")
            v3: R.Tensor((3, 2), dtype="float32") = R.multiply(p1, p1)
            h4: R.Tensor((3, 2), dtype="float32") = R.hint_on_device(v3, R.device(device_type=1, index=1), "global")
            v5: R.Tensor((2, 3), dtype="float32") = R.maximum(v1, p0)
            v6: R.Tensor((2, 2), dtype="float32") = R.matmul(v5, h4, out_dtype=None)
            h7: R.Tensor((2, 2), dtype="float32") = R.hint_on_device(v6, R.device(device_type=1, index=1), "global")
            v8: R.Tensor((2, 2), dtype="float32") = R.sigmoid(v6)
            h9: R.Tensor((2, 2), dtype="float32") = R.hint_on_device(v8, R.device(device_type=1, index=0), "global")
            v10: R.Tensor((2, 2), dtype="float32") = R.subtract(v6, v8)
            v11: R.Tensor((2, 3), dtype="float32") = R.add(v1, v1)
            v12: R.Tensor((3, 2), dtype="float32") = R.subtract(p1, h4)
            R.output(v12)
        return v12

    @R.function
    def helper(a: R.Tensor(dtype="float32", ndim=2)) -> R.Tensor(dtype="float32", ndim=2):
        b: R.Tensor(dtype="float32", ndim=2) = R.exp(a)
        return b