# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def tuple_get_item(x: R.Tensor(dtype="float32", ndim=2), y: R.Tensor(dtype="float32", ndim=2)) -> R.Tensor(dtype="float32", ndim=2):
        t: R.Tuple(R.Tensor(dtype="float32", ndim=2), R.Tensor(dtype="float32", ndim=2)) = x, y
        a: R.Tensor(dtype="float32", ndim=2) = t[0]
        b: R.Tensor(dtype="float32", ndim=2) = t[1]
        c: R.Tensor(dtype="float32", ndim=2) = R.call_pure_packed("test.vm.add", a, b, ty_args=(R.Tensor(dtype="float32", ndim=2),))
        return c