@I.ir_module
class Input:
    I.module_attrs({"attr": 10})
    I.module_global_infos(
        {
            "vdevice": [
                I.vdevice({"kind": "llvm", "mtriple": "x86_64-unknown-linux-gnu"}),
                I.vdevice({"kind": "cuda", "arch": "sm_50"}, 0),
                I.vdevice({"kind": "metal"}, 0, "global"),
                I.vdevice({"kind": "cuda", "arch": "sm_80"}, 0),
            ]
        }
    )

    @R.function
    def foo(
        x: R.Tensor((2, 3), "float32"),
        y: R.Tensor((2, 3), "float32"),
        z: R.Tensor((2, 3), "float32"),
    ) -> R.Tensor((2, 3), "float32", "cuda"):
        with R.dataflow():
            lv0 = R.add(x, y)
            lv0 = R.hint_on_device(lv0, tvm.cpu())
            lv1 = R.to_vdevice(lv0, "cuda")
            lv2 = R.add(z, z)
            gv = R.multiply(lv1, lv2)
            R.output(gv)
        return gv