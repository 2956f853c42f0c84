@I.ir_module
class Expect:
    I.module_attrs({"attr": 10})
    I.module_global_infos(
        {
            "vdevice": [
                I.vdevice({"kind": "llvm", "mtriple": "x86_64-unknown-linux-gnu"}),
            ]
        }
    )

    @R.function
    def foo(
        x: R.Tensor((2, 3), "float32", "llvm"),
        y: R.Tensor((2, 3), "float32", "llvm"),
        z: R.Tensor((2, 3), "float32", "llvm"),
    ) -> R.Tensor((2, 3), "float32", "llvm"):
        x1: R.Tensor((2, 3), "float32", "llvm") = x
        y1: R.Tensor((2, 3), "float32", "llvm") = y
        x2: R.Tensor((2, 3), "float32", "llvm") = x1
        y2: R.Tensor((2, 3), "float32", "llvm") = y1
        x2: R.Tensor((2, 3), "float32", "llvm") = x2
        s: R.Tensor((2, 3), "float32", "llvm") = R.add(x2, y2)
        m: R.Tensor((2, 3), "float32", "llvm") = R.multiply(s, z)
        return m