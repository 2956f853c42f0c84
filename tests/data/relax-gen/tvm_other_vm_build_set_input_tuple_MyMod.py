# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tuple(R.Tensor((32,), dtype="float32"), R.Tensor((32,), dtype="float32"))) -> R.Tensor((32,), dtype="float32"):
        y: R.Tensor((32,), dtype="float32") = x[0]
        return y