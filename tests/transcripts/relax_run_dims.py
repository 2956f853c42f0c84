# A Relax module with a symbolic dimension
# (relax_run_dims.dp).
@I.ir_module
class Module:
    I.module_global_infos({"vdevice": [I.vdevice("llvm"), I.vdevice("cuda", 0)]})
    @R.function
    def main(x: R.Tensor(("n", 3), dtype="float32", vdevice="llvm:0"), y: R.Tensor(("n", 3), dtype="float32", vdevice="cuda:0")) -> R.Tensor(("n", 3), dtype="float32", vdevice="cuda:0"):
        n = T.int64()
        a: R.Tensor((n, 3), dtype="float32", vdevice="llvm:0") = R.exp(x)
        b: R.Tensor((n, 3), dtype="float32", vdevice="cuda:0") = R.to_vdevice(a, dst_vdevice="cuda:0")
        s: R.Tensor((n, 3), dtype="float32", vdevice="cuda:0") = R.nn.silu(b)
        c: R.Tensor((n, 3), dtype="float32", vdevice="cuda:0") = R.add(s, y)
        return c

