# from typing import TypeVar
# from tvm.script import ir as I
# from tvm.script import relax as R

m = TypeVar("m")
n = TypeVar("n")
@I.ir_module
class Module:
    @R.function
    def main(shape: R.Shape([m, n])) -> R.Shape(["2 * m", "3 * n"]):
        return R.shape([2 * m, 3 * n])