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
            lv0: R.Tensor((2, 3), "float32", "llvm") = y
            lv1: R.Tensor((2, 3), "float32", "llvm") = R.add(x, lv0)
            lv2: R.Tensor((2, 3), "float32", "cuda") = R.to_vdevice(lv1, "cuda")
            lv3: R.Tensor((2, 3), "float32", "cuda") = R.add(lv2, lv2)
            lv4: R.Tensor((2, 3), "float32", "cuda") = z
            gv: R.Tensor((2, 3), "float32", "cuda") = R.multiply(lv3, lv4)
            R.output(gv)
        return gv