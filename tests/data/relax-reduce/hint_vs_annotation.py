# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    I.module_global_infos({"vdevice": [I.vdevice({"keys": ["cpu"], "kind": "llvm", "mtriple": "x86_64-unknown-linux-gnu", "tag": ""}, 0, "global"), I.vdevice({"arch": "sm_80", "keys": ["cuda", "gpu"], "kind": "cuda", "max_num_threads": 1024, "tag": "", "thread_warp_size": 32}, 0, "global")]})
    @R.function
    def main(a: R.Tensor((2, 2), dtype="float32"), b: R.Tensor((2, 2), dtype="float32")) -> R.Tensor((2, 2), dtype="float32"):
        x_1: R.Tensor((2, 2), dtype="float32", vdevice="llvm:0:global") = R.hint_on_device(a, R.device(device_type=1, index=0), "global")
        y: R.Tensor((2, 2), dtype="float32", vdevice="cuda:0:global") = R.multiply(b, b)
        z: R.Tensor((2, 2), dtype="float32") = R.add(x_1, y)
        return z
