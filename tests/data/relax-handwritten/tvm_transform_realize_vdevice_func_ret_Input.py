@I.ir_module
class Input:
    I.module_attrs({"attr": 10})
    I.module_global_infos(
        {
            "vdevice": [
                I.vdevice({"kind": "cuda", "arch": "sm_50"}),
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
            gv = R.multiply(lv0, z)
            R.output(gv)
        return gv