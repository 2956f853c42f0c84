@I.ir_module
class Expect:
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
        x: R.Tensor((2, 3), "float32", "cuda"),
        y: R.Tensor((2, 3), "float32", "cuda"),
        z: R.Tensor((2, 3), "float32", "cuda"),
    ) -> R.Tuple([R.Tensor((2, 3), "float32", "cuda"), R.Tensor((2, 3), "float32", "cuda")]):
        with R.dataflow():
            lv0: R.Tensor((2, 3), "float32", "cuda") = R.add(x, y)
            gv: R.Tensor((2, 3), "float32", "cuda") = R.multiply(lv0, z)
            R.output(gv)
        return (gv, gv)