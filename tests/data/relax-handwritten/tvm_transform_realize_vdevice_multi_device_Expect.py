@I.ir_module
class Expect:
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
        x: R.Tensor((2, 3), "float32", "llvm"),
        y: R.Tensor((2, 3), "float32", "llvm"),
        z: R.Tensor((2, 3), "float32", "cuda"),
    ) -> R.Tensor((2, 3), "float32", "cuda"):
        with R.dataflow():
            lv0: R.Tensor((2, 3), "float32", "llvm") = R.add(x, y)
            lv0: R.Tensor((2, 3), "float32", "llvm") = lv0
            lv1: R.Tensor((2, 3), "float32", "cuda") = R.to_vdevice(lv0, "cuda")
            lv2: R.Tensor((2, 3), "float32", "cuda") = R.add(z, z)
            gv: R.Tensor((2, 3), "float32", "cuda") = R.multiply(lv1, lv2)
            R.output(gv)
        return gv