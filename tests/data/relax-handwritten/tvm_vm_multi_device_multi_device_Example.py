@I.ir_module
class Example:
    I.module_attrs({"attr": 10})
    I.module_global_infos(
        {
            "vdevice": [
                I.vdevice({"kind": "cuda", "arch": "sm_50"}, 0),
                I.vdevice({"kind": "llvm", "mtriple": "x86_64-unknown-linux-gnu"}),
            ]
        }
    )

    @R.function
    def foo(
        x: R.Tensor((2, 3), "float32"),
        y: R.Tensor((3, 4), "float32"),
        z: R.Tensor((4, 5), "float32"),
    ) -> R.Tensor((2, 5), "float32"):
        with R.dataflow():
            lv0: R.Tensor((2, 4), "float32", "llvm") = R.matmul(x, y)
            lv1: R.Tensor((2, 4), "float32", "cuda") = R.to_vdevice(lv0, "cuda")
            gv: R.Tensor((2, 5), "float32", "cuda") = R.matmul(lv1, z)
            R.output(gv)
        return gv