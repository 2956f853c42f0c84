# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def foo(x: R.Tensor((10, 5), dtype="float32")) -> R.Tensor((10, 5), dtype="float32"):
        s: R.Tensor((10, 5), dtype="float32") = R.add(x, x)
        return s

    @R.function
    def main(x: R.Tensor((10, 5), dtype="float32")) -> R.Tuple(R.Callable((R.Tensor((10, 5), dtype="float32"),), R.Tensor((10, 5), dtype="float32"), True), R.Tensor((10, 5), dtype="float32"), R.Tensor((10, 5), dtype="float32")):
        cls = Module
        inner: R.Callable((R.Tensor((10, 5), dtype="float32"),), R.Tensor((10, 5), dtype="float32"), True) = cls.foo
        gv1: R.Tensor((10, 5), dtype="float32") = inner(x)
        gv2: R.Tensor((10, 5), dtype="float32") = cls.foo(x)
        return (inner, gv1, gv2)