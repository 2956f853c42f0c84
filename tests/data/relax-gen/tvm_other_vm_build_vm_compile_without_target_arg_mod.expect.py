# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def foo(x: R.Tensor((3, 4), dtype="float32"), y: R.Tensor((3, 4), dtype="float32")) -> R.Tensor((3, 4), dtype="float32"):
        z: R.Tensor(dtype="float32", ndim=2) = R.call_pure_packed("test.vm.identity", x, y, ty_args=(R.Tensor(dtype="float32", ndim=2),))
        return y