# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def foo(x: R.Tensor((32, 16), dtype="float32")) -> R.Tensor((32, 16), dtype="float32"):
        with R.dataflow():
            y = R.call_dps_packed("test.vm.identity", (x,), out_ty=R.Tensor((32, 16), dtype="float32"))
            R.output(y)
        return y