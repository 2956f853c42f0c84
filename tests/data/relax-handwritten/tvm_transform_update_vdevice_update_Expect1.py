@I.ir_module
class Expect1:
    I.module_attrs({"attr": 10})
    I.module_global_infos(
        {
            "vdevice": [
                I.vdevice({"kind": "llvm", "mtriple": "x86_64-unknown-linux-gnu"}),
                I.vdevice({"kind": "cuda", "arch": "sm_50"}, 0),
                I.vdevice({"kind": "metal"}, 0, "global"),
                I.vdevice({"kind": "metal"}, 1, "global"),
            ]
        }
    )

    @R.function
    def main(
        a: R.Tensor((128, 128), dtype="float32", vdevice="metal:1"),
        c: R.Tensor((128, 128), dtype="float32", vdevice="metal:1"),
    ) -> R.Tensor((128, 128), dtype="float32", vdevice="metal:1"):
        s: R.Tensor((128, 128), dtype="float32", vdevice="metal:1") = R.add(a, c)
        return s