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
    ) -> R.Tensor((2, 3), "float32"):
        with R.dataflow():
            x1 = x
            y1 = y
            x2 = x1
            y2 = y1
            x2 = R.hint_on_device(x2, tvm.cpu())
            lv0 = R.add(x2, y2)
            gv = R.multiply(lv0, z)
            R.output(gv)
        return gv