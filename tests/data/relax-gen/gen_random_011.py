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
    def foo(p0: R.Tensor((2, 3), dtype="float32"), p1: R.Tensor((3, 2), dtype="float32", vdevice="llvm:1:global")) -> R.Tensor((3, 2), dtype="float32"):
        v1: R.Tensor((3, 2), dtype="float32") = R.add(p1, p1)
        h2: R.Tensor((3, 2), dtype="float32") = R.hint_on_device(v1, R.device(device_type=1, index=1), "global")
        v3: R.Tensor((3, 3), dtype="float32") = R.matmul(h2, p0, out_dtype=None)
        v4: R.Tensor((3, 2), dtype="float32") = R.abs(h2)
        v5: R.Tensor((3, 2), dtype="float32") = R.negative(v4)
        h6: R.Tensor((3, 2), dtype="float32") = R.hint_on_device(v5, R.device(device_type=1, index=1), "global")
        t7: R.Tuple(R.Tensor((3, 2), dtype="float32"), R.Tensor((3, 2), dtype="float32")) = h2, v4
        v8: R.Tensor((3, 2), dtype="float32") = t7[1]
        h9: R.Tensor((3, 2), dtype="float32") = R.hint_on_device(v8, R.device(device_type=1, index=1), "global")
        v10: R.Tensor((3, 2), dtype="float32") = R.add(v8, p1)
        h11: R.Tensor((3, 2), dtype="float32") = R.hint_on_device(v10, R.device(device_type=1, index=0), "global")
        v12: R.Tensor((3, 2), dtype="float32") = R.maximum(v4, h11)
        v13: R.Tensor((3, 2), dtype="float32") = R.tanh(h2)
        v14: R.Tensor((3, 2), dtype="float32") = R.add(h11, h9)
        return v14

    @R.function
    def helper(a: R.Tensor(dtype="float32", ndim=2)) -> R.Tensor(dtype="float32", ndim=2):
        b: R.Tensor(dtype="float32", ndim=2) = R.exp(a)
        return b