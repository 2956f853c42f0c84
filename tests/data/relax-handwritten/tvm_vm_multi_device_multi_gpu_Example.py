@I.ir_module
class Example:
    I.module_attrs({"attr": 10})
    I.module_global_infos(
        {
            "vdevice": [
                I.vdevice({"kind": "cuda", "arch": "sm_50"}, 1),
                I.vdevice({"kind": "cuda", "arch": "sm_50"}, 0),
                I.vdevice({"kind": "cuda", "arch": "sm_50"}, 2),
            ]
        }
    )

    @R.function
    def foo(
        a: R.Tensor((2, 3), "float32"),
        b: R.Tensor((3, 4), "float32"),
        c: R.Tensor((4, 5), "float32"),
        d: R.Tensor((5, 6), "float32"),
    ) -> R.Tensor((2, 6), "float32"):
        with R.dataflow():
            lv0: R.Tensor((2, 4), "float32", "cuda:0") = R.matmul(a, b)
            lv1: R.Tensor((2, 4), "float32", "cuda:1") = R.to_vdevice(
                lv0,
                "cuda:1",
            )
            lv2: R.Tensor((2, 5), "float32", "cuda:1") = R.matmul(lv1, c)
            lv3: R.Tensor((2, 5), "float32", "cuda:2") = R.to_vdevice(
                lv2,
                "cuda:2",
            )
            gv: R.Tensor((2, 6), "float32", "cuda:2") = R.matmul(lv3, d)
            R.output(gv)
        return gv