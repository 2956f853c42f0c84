# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((1,), dtype="float32"), y: R.Tensor((1,), dtype="float32")) -> R.Tensor(dtype="float32", ndim=1):
        gv: R.Tensor(dtype="float32", ndim=1) = R.call_pure_packed("test.vm.add", x, y, ty_args=(R.Tensor(dtype="float32", ndim=1),))
        return gv