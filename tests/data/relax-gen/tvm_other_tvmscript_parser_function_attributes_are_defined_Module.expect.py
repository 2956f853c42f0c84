# from typing import TypeVar
# from tvm.script import ir as I
# from tvm.script import relax as R

m = TypeVar("m")
n = TypeVar("n")
@I.ir_module
class Module:
    @R.function
    def subroutine(x: R.Tensor, _: R.Shape([m, n])) -> R.Tensor((m, n)):
        q: R.Tensor = x
        z: R.Tensor((m, n)) = R.match_cast(q, R.Tensor((m, n)))
        w: R.Tensor((m, n)) = z
        return w

    @R.function
    def main(x: R.Tensor, shape: R.Shape([m, n])) -> R.Tensor((m, n)):
        cls = Module
        output: R.Tensor((m, n)) = cls.subroutine(x, shape)
        return output