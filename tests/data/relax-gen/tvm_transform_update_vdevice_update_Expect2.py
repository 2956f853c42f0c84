# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    I.module_attrs({"attr": 10})
    I.module_global_infos({"vdevice": [I.vdevice({"keys": ["cpu"], "kind": "llvm", "mtriple": "x86_64-unknown-linux-gnu", "tag": ""}, 0, "global"), I.vdevice({"keys": ["cpu"], "kind": "llvm", "mtriple": "x86_64-unknown-linux-gnu", "tag": ""}, 1, "global")]})
    @R.function
    def main(a: R.Tensor((128, 128), dtype="float32", vdevice="llvm:1:global"), c: R.Tensor((128, 128), dtype="float32", vdevice="llvm:1:global")) -> R.Tensor((128, 128), dtype="float32", vdevice="llvm:1:global"):
        s: R.Tensor((128, 128), dtype="float32", vdevice="llvm:1:global") = R.add(a, c)
        return s