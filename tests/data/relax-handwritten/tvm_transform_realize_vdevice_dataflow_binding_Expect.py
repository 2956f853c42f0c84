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
        z: R.Tensor((2, 3), "float32", "llvm"),
    ) -> R.Tensor((2, 3), "float32", "llvm"):
        with R.dataflow():
            x1: R.Tensor((2, 3), "float32", "llvm") = x
            y1: R.Tensor((2, 3), "float32", "llvm") = y
            x2: R.Tensor((2, 3), "float32", "llvm") = x1
            y2: R.Tensor((2, 3), "float32", "llvm") = y1
            x2: R.Tensor((2, 3), "float32", "llvm") = x2
            lv0: R.Tensor((2, 3), "float32", "llvm") = R.add(x2, y2)
            gv: R.Tensor((2, 3), "float32", "llvm") = R.multiply(lv0, z)
            R.output(gv)
        return gv