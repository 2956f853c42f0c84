# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def mul(x: R.Tensor((3, 3), dtype="float32")) -> R.Tensor((3, 3), dtype="float32"):
        res: R.Tensor((3, 3), dtype="float32") = R.multiply(x, x)
        return res

    @R.function
    def main(x1: R.Tensor((3, 3), dtype="float32")) -> R.Tuple:
        cls = Module
        cls.mul(x1)
        return R.tuple()