@I.ir_module
class Module:
    I.module_global_infos({"vdevice": [I.vdevice({"kind": "llvm", "mtriple": "x86_64-unknown-linux-gnu"})]})

    @R.function
    def foo(
        x: R.Tensor((2, 3), "float32"),
        y: R.Tensor((2, 3), "float32"),
        z: R.Tensor((2, 3), "float32"),
    ) -> R.Tensor((2, 3), "float32"):
        x1 = x
        y1 = y
        x2 = x1
        y2 = y1
        s: R.Tensor((2, 3), "float32", "llvm") = R.add(x2, y2)
        m = R.multiply(s, z)
        return m