@I.ir_module
class Example:
    I.module_attrs({"attr": 10})
    I.module_global_infos(
        {
            "vdevice": [
                I.vdevice({"kind": "llvm", "mtriple": "x86_64-unknown-linux-gnu"}, 0),
                I.vdevice({"kind": "llvm", "mtriple": "x86_64-unknown-linux-gnu"}, 1),
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
            lv0 = R.matmul(x, y)
            lv0 = R.hint_on_device(lv0, tvm.cpu(0))
            lv1: R.Tensor((2, 4), "float32", "llvm:1") = R.to_vdevice(lv0, "llvm:1")
            gv = R.matmul(lv1, z)
            R.output(gv)
        return gv