# A Relax module whose operator devplan has no kernel for (relax_run_dims.dp).
@I.ir_module
class Module:
    I.module_global_infos({"vdevice": [I.vdevice("llvm"), I.vdevice("cuda", 0)]})
    @R.function
    def main(x: R.Tensor((3, 3), dtype="float32", vdevice="llvm:0")) -> R.Tensor((3, 3), dtype="float32", vdevice="llvm:0"):
        r: R.Tensor((3, 3), dtype="float32", vdevice="llvm:0") = R.einsum((x,), subscripts="ij->ji")
        return r
