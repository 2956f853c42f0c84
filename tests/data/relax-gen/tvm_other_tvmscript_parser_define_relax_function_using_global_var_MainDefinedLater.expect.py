# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function(private=True)
    def subroutine(A: R.Tensor, B: R.Tensor) -> R.Tensor:
        gv: R.Tensor = R.matmul(A, B, out_dtype=None)
        return gv