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
    def foo(p0: R.Tensor((2, 3), dtype="float32"), p1: R.Tensor((2, 3), dtype="float32"), p2: R.Tensor((3, 2), dtype="float32")) -> R.Tensor((4, 3), dtype="float32"):
        cls = Module
        v1: R.Tensor((2, 3), dtype="float32") = R.subtract(p1, p1)
        v2: R.Tensor((3, 2), dtype="float32") = R.maximum(p2, p2)
        h3: R.Tensor((3, 2), dtype="float32") = R.hint_on_device(v2, R.device(device_type=1, index=1), "global")
        v4: R.Tensor((3, 2), dtype="float32") = R.add(h3, v2)
        s5 = R.call_tir(cls.copy_3x2, (v2,), out_ty=R.Tensor((3, 2), dtype="float32"))
        v6: R.Tensor((3, 2), dtype="float32") = R.tanh(p2)
        h7: R.Tensor((3, 2), dtype="float32") = R.hint_on_device(v6, R.device(device_type=1, index=1), "global")
        v8: R.Tensor((3, 2), dtype="float32") = R.subtract(h3, s5)
        h9: R.Tensor((3, 2), dtype="float32") = R.hint_on_device(s5, R.device(device_type=1, index=0), "global")
        t10: R.Tuple(R.Tensor((2, 3), dtype="float32"), R.Tensor((2, 3), dtype="float32")) = p1, p0
        v11: R.Tensor((2, 3), dtype="float32") = t10[0]
        h12: R.Tensor((2, 3), dtype="float32") = R.hint_on_device(v11, R.device(device_type=1, index=1), "global")
        v13: R.Tensor((3, 2), dtype="float32") = R.abs(p2)
        h14: R.Tensor((2, 3), dtype="float32") = R.hint_on_device(h12, R.device(device_type=1, index=0), "global")
        v15: R.Tensor((2, 3), dtype="float32") = R.add(h12, v11)
        h16: R.Tensor((2, 3), dtype="float32") = R.hint_on_device(p0, R.device(device_type=1, index=1), "global")
        v17: R.Tensor((4, 3), dtype="float32") = R.concat((h16, p1), axis=0)
        h18: R.Tensor((4, 3), dtype="float32") = R.hint_on_device(v17, R.device(device_type=1, index=2), "global")
        return h18

    @R.function
    def helper(a: R.Tensor(dtype="float32", ndim=2)) -> R.Tensor(dtype="float32", ndim=2):
        b: R.Tensor(dtype="float32", ndim=2) = R.exp(a)
        return b