# from typing import TypeVar
# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis
# from tvm.script import relax as R

n = TypeVar("n")
@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def copy(X: T.Buffer(("n * T.int64(2)",), "float32"), n: T.int64, Y: T.Buffer((n * T.int64(2),), "float32")):
        # with T.sblock("root"):
        for i in range(n * T.int64(2)):
            with T.sblock("block"):
                vi = T.axis.spatial(n * T.int64(2), i)
                T.reads(X[vi])
                T.writes(Y[vi])
                Y[vi] = X[vi]

    @R.function
    def main(dumb_param: R.Tensor((n,), dtype="float32"), x: R.Tensor(("n * 2",), dtype="float32")) -> R.Tensor(("n * 2",), dtype="float32"):
        cls = Module
        y = R.call_tir(cls.copy, (x, n), out_ty=R.Tensor((n * 2,), dtype="float32"))
        return y