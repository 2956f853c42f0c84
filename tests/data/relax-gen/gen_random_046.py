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
    def foo(p0: R.Tensor((2, 3), dtype="float32"), p1: R.Tensor((2, 3), dtype="float32")) -> R.Tensor((2, 3), dtype="float32"):
        v1: R.Tensor((2, 3), dtype="float32") = R.subtract(p1, p0)
        h2: R.Tensor((2, 3), dtype="float32") = R.hint_on_device(v1, R.device(device_type=1, index=0), "global")
        v3: R.Tensor((2, 3), dtype="float32") = R.subtract(h2, p0)
        h4: R.Tensor((2, 3), dtype="float32") = R.hint_on_device(v3, R.device(device_type=1, index=1), "global")
        v5: R.Tensor((2, 3), dtype="float32") = R.tanh(p1)
        h6: R.Tensor((2, 3), dtype="float32") = R.hint_on_device(v5, R.device(device_type=1, index=1), "global")
        v7: R.Tensor((2, 3), dtype="float32") = R.abs(h6)
        h8: R.Tensor((2, 3), dtype="float32") = R.hint_on_device(h4, R.device(device_type=1, index=0), "global")
        v9: R.Tensor((2, 3), dtype="float32") = R.add(h2, v7)
        h10: R.Tensor((2, 3), dtype="float32") = R.hint_on_device(h8, R.device(device_type=1, index=1), "global")
        v11: R.Tensor((4, 3), dtype="float32") = R.concat((p1, p1), axis=0)
        v12: R.Tensor((2, 3), dtype="float32") = R.tanh(v5)
        h13: R.Tensor((2, 3), dtype="float32") = R.hint_on_device(h2, R.device(device_type=1, index=1), "global")
        t14: R.Tuple(R.Tensor((2, 3), dtype="float32"), R.Tensor((2, 3), dtype="float32")) = v3, v7
        v15: R.Tensor((2, 3), dtype="float32") = t14[0]
        h16: R.Tensor((2, 3), dtype="float32") = R.hint_on_device(v15, R.device(device_type=1, index=1), "global")
        t17: R.Tuple(R.Tensor((2, 3), dtype="float32"), R.Tensor((2, 3), dtype="float32")) = p1, v3
        v18: R.Tensor((2, 3), dtype="float32") = t17[1]
        h19: R.Tensor((2, 3), dtype="float32") = R.hint_on_device(v7, R.device(device_type=1, index=1), "global")
        h20: R.Tensor((2, 3), dtype="float32") = R.hint_on_device(h19, R.device(device_type=1, index=1), "global")
        return h20

    @R.function
    def helper(a: R.Tensor(dtype="float32", ndim=2)) -> R.Tensor(dtype="float32", ndim=2):
        b: R.Tensor(dtype="float32", ndim=2) = R.exp(a)
        return b