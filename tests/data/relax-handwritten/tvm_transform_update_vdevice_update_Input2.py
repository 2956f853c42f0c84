@I.ir_module
class Input2:
    I.module_attrs({"attr": 10})
    I.module_global_infos(
        {
            "vdevice": [
                I.vdevice({"kind": "llvm", "mtriple": "x86_64-unknown-linux-gnu"}),
                I.vdevice({"kind": "cuda", "arch": "sm_50"}, 0),
            ]
        }
    )

    @R.function
    def main(
        a: R.Tensor((128, 128), "float32", "cuda:0"),
        c: R.Tensor((128, 128), "float32", "cuda:0"),
    ) -> R.Tensor((128, 128), "float32"):
        s = R.add(a, c)
        return s