@I.ir_module
class Expect2:
    I.module_attrs({"attr": 10})
    I.module_global_infos(
        {
            "vdevice": [
                I.vdevice({"kind": "llvm", "mtriple": "x86_64-unknown-linux-gnu"}),
                I.vdevice({"kind": "llvm", "mtriple": "x86_64-unknown-linux-gnu"}, 1),
            ]
        }
    )

    @R.function
    def main(
        a: R.Tensor((128, 128), "float32", "llvm:1"),
        c: R.Tensor((128, 128), "float32", "llvm:1"),
    ) -> R.Tensor((128, 128), "float32", "llvm:1"):
        s: R.Tensor((128, 128), "float32", "llvm:1") = R.add(a, c)
        return s