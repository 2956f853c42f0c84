# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def recursion(n: R.Tensor((1,), dtype="float32")) -> R.Tensor(dtype="float32"):
        cls = Module
        cond: R.Tensor(dtype="float32", ndim=1) = R.call_pure_packed("test.vm.equal_zero", n, ty_args=(R.Tensor(dtype="float32", ndim=1),))
        if cond:
            res: R.Tensor(dtype="float32") = R.const(1.0, "float32")
        else:
            gv0: R.Tensor(dtype="float32", ndim=1) = R.call_pure_packed("test.vm.subtract_one", n, ty_args=(R.Tensor(dtype="float32", ndim=1),))
            tmp: R.Tensor = cls.recursion(gv0)
            res_else: R.Tensor(dtype="float32", ndim=1) = R.call_pure_packed("test.vm.add", tmp, tmp, ty_args=(R.Tensor(dtype="float32", ndim=1),))
            res: R.Tensor(dtype="float32") = res_else
        return res