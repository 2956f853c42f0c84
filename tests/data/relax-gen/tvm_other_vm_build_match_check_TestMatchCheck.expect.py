# from typing import TypeVar
# from tvm.script import ir as I
# from tvm.script import relax as R

m = TypeVar("m")
n = TypeVar("n")
@I.ir_module
class Module:
    @R.function
    def foo(x: R.Tensor((n, m), dtype="int32"), y: R.Any) -> R.Tensor((m, n)):
        return y