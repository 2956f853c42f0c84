# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def foo(x: R.Tensor(dtype="float32")) -> R.Shape(ndim=2):
        n = T.int64()
        m = T.int64()
        _: R.Tensor((n, m), dtype="float32") = R.match_cast(x, R.Tensor((n, m), dtype="float32"))
        return R.shape([n * 2, m * 3])