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
    def foo(p0: R.Tensor((2, 3), dtype="float32", vdevice="llvm:1:global"), p1: R.Tensor((2, 3), dtype="float32", vdevice="llvm:0:global")) -> R.Tensor((2, 3), dtype="float32"):
        cls = Module
        with R.dataflow():
            s1 = R.call_tir(cls.copy_2x3, (p1,), out_ty=R.Tensor((2, 3), dtype="float32"))
            h2: R.Tensor((2, 3), dtype="float32") = R.hint_on_device(s1, R.device(device_type=1, index=1), "global")
            v3: R.Tensor((2, 3), dtype="float32") = R.multiply(s1, p0)
            v4: R.Tensor((2, 3), dtype="float32") = R.add(h2, p1)
            v5: R.Tensor((2, 3), dtype="float32") = R.subtract(s1, h2)
            h6: R.Tensor((2, 3), dtype="float32") = R.hint_on_device(h2, R.device(device_type=1, index=1), "global")
            g7: R.Tensor((2, 3), dtype="float32") = cls.helper(p1)
            v8: R.Tensor((2, 3), dtype="float32") = R.negative(h2)
            h9: R.Tensor((2, 3), dtype="float32") = R.hint_on_device(v8, R.device(device_type=1, index=1), "global")
            R.output(h9)
        return h9

    @R.function
    def helper(a: R.Tensor(dtype="float32", ndim=2)) -> R.Tensor(dtype="float32", ndim=2):
        b: R.Tensor(dtype="float32", ndim=2) = R.exp(a)
        return b