# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def mul_add(x: R.Tensor) -> R.Tensor:
        gv: R.Tensor = R.add(x, x)
        gv1: R.Tensor = R.add(x, x)
        gv2: R.Tensor = R.multiply(gv, gv1)
        return gv2