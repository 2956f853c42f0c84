# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function(pure=False)
    def conditional(x: R.Tensor((), dtype="int32"), condition: R.Tensor((), dtype="bool")) -> R.Tensor((), dtype="int32"):
        if condition:
            R.print(x, format=R.str("True condition: {}"))
            _: R.Tuple = R.tuple()
        else:
            R.print(x, format=R.str("False condition: {}"))
            _: R.Tuple = R.tuple()
        return x