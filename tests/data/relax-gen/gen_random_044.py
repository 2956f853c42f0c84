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
    def foo(p0: R.Tensor((2, 3), dtype="float32"), p1: R.Tensor((3, 2), dtype="float32")) -> R.Tensor((3, 2), dtype="float32"):
        cls = Module
        with R.dataflow():
            k1: R.Tensor((3, 2), dtype="float32") = R.match_cast(p1, R.Tensor((3, 2), dtype="float32"))
            h2: R.Tensor((3, 2), dtype="float32") = R.hint_on_device(k1, R.device(device_type=1, index=1), "global")
            v3: R.Tensor((3, 2), dtype="float32") = R.multiply(k1, k1)
            h4: R.Tensor((3, 2), dtype="float32") = R.hint_on_device(v3, R.device(device_type=1, index=0), "global")
            v5: R.Tensor((3, 2), dtype="float32") = R.multiply(h4, k1)
            h6: R.Tensor((3, 2), dtype="float32") = R.hint_on_device(v5, R.device(device_type=1, index=0), "global")
            v7: R.Tensor((3, 2), dtype="float32") = R.negative(v3)
            h8: R.Tensor((3, 2), dtype="float32") = R.hint_on_device(h4, R.device(device_type=1, index=0), "global")
            v9: R.Tensor((3, 2), dtype="float32") = R.sigmoid(h4)
            h10: R.Tensor((3, 2), dtype="float32") = R.hint_on_device(v9, R.device(device_type=1, index=0), "global")
            s11 = R.call_tir(cls.copy_3x2, (h10,), out_ty=R.Tensor((3, 2), dtype="float32"))
            R.output(s11)
        return s11

    @R.function
    def helper(a: R.Tensor(dtype="float32", ndim=2)) -> R.Tensor(dtype="float32", ndim=2):
        b: R.Tensor(dtype="float32", ndim=2) = R.exp(a)
        return b