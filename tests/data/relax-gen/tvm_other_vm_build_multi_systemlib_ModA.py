# from typing import TypeVar
# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis
# from tvm.script import relax as R

N = TypeVar("N")
m = TypeVar("m")
@I.ir_module
class Module:
    I.module_attrs({"system_lib_prefix": "libA_"})
    @T.prim_func(s_tir=True)
    def tir_init(x: T.Buffer((N,), "float32")):
        for i in range(N):
            x[i] = T.float32(0.0)

    @R.function
    def main(s: R.Shape([m])) -> R.Tensor(("m + 1",), dtype="float32"):
        cls = Module
        gv0 = R.call_tir(cls.tir_init, R.tuple(), out_ty=R.Tensor((m + 1,), dtype="float32"))
        return gv0