# Relax lowered onto Relay through a call between functions, an if and an
# R.match_cast (relax_lower.dp).
@I.ir_module
class Module:
    I.module_global_infos({"vdevice": [I.vdevice("llvm"), I.vdevice("cuda", 0)]})
    @R.function
    def main(x: R.Tensor(("n", 3), dtype="float32", vdevice="llvm:0"), c: R.Tensor((), dtype="bool", vdevice="llvm:0")) -> R.Tensor((4, 3), dtype="float32", vdevice="llvm:0"):
        n = T.int64()
        cls = Module
        a: R.Tensor((n, 3), dtype="float32", vdevice="llvm:0") = cls.square(x)
        k: R.Tensor((4, 3), dtype="float32", vdevice="llvm:0") = R.match_cast(a, R.Tensor((4, 3), dtype="float32", vdevice="llvm:0"))
        if c:
            y: R.Tensor((4, 3), dtype="float32", vdevice="llvm:0") = R.exp(k)
        else:
            z: R.Tensor((4, 3), dtype="float32", vdevice="llvm:0") = cls.square(k)
            y: R.Tensor((4, 3), dtype="float32", vdevice="llvm:0") = R.negative(z)
        return y

    @R.function
    def square(a: R.Tensor(dtype="float32", ndim=2)) -> R.Tensor(dtype="float32", ndim=2):
        b: R.Tensor(dtype="float32", ndim=2) = R.multiply(a, a)
        return b

    @R.function
    def other(a: R.Tensor((2, 2), dtype="float32")) -> R.Tensor((2, 2), dtype="float32"):
        cls = Module
        b: R.Tensor((2, 2), dtype="float32") = cls.square(a)
        return b

    @R.function
    def bad(a: R.Tensor((2, 2), dtype="float32")) -> R.Tensor((2, 2), dtype="float32"):
        cls = Module
        b: R.Tensor((2, 2), dtype="float32") = cls.flip(a)
        return b

    @R.function
    def flip(a: R.Tensor((2, 2), dtype="float32")) -> R.Tensor((2, 2), dtype="float32"):
        d: R.Tensor((2, 2), dtype="float32") = R.einsum((a,), subscripts="ij->ji")
        return d
