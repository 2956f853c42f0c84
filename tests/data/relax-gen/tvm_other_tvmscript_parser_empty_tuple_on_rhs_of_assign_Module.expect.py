# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(input: R.Tensor((5, 5))) -> R.Tuple:
        R.tuple()
        return R.tuple()