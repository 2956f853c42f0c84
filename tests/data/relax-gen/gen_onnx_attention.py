# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    I.module_global_infos({"vdevice": [I.vdevice({"keys": ["cpu"], "kind": "llvm", "mtriple": "x86_64-unknown-linux-gnu", "tag": ""}, 0, "global"), I.vdevice({"arch": "sm_80", "keys": ["cuda", "gpu"], "kind": "cuda", "max_num_threads": 1024, "tag": "", "thread_warp_size": 32}, 0, "global")]})
    @R.function
    def main(x: R.Tensor((4, 8), dtype="float32"), wq: R.Tensor((8, 8), dtype="float32"), wk: R.Tensor((8, 8), dtype="float32"), wv: R.Tensor((8, 8), dtype="float32"), g: R.Tensor((8,), dtype="float32"), b: R.Tensor((8,), dtype="float32")) -> R.Tensor((4, 8), dtype="float32"):
        R.func_attr({"num_input": 1})
        with R.dataflow():
            lv: R.Tensor((4, 8), dtype="float32") = R.matmul(x, wk, out_dtype=None)
            lv_1: R.Tensor((4, 8), dtype="float32") = R.hint_on_device(lv, R.device(device_type=2, index=0), "global")
            lv1: R.Tensor((4, 8), dtype="float32") = R.matmul(x, wq, out_dtype=None)
            lv1_1: R.Tensor((4, 8), dtype="float32") = R.hint_on_device(lv1, R.device(device_type=2, index=0), "global")
            lv2: R.Tensor((8, 4), dtype="float32") = R.permute_dims(lv_1, axes=[1, 0])
            lv2_1: R.Tensor((4, 4), dtype="float32") = R.matmul(lv1_1, lv2, out_dtype=None)
            lv3: R.Tensor((4, 4), dtype="float32") = R.hint_on_device(lv2_1, R.device(device_type=2, index=0), "global")
            lv4: R.Tensor((4, 4), dtype="float32") = R.nn.softmax(lv3, axis=-1)
            lv3_1: R.Tensor((4, 8), dtype="float32") = R.matmul(x, wv, out_dtype=None)
            lv5: R.Tensor((4, 8), dtype="float32") = R.hint_on_device(lv3_1, R.device(device_type=2, index=0), "global")
            lv4_1: R.Tensor((4, 8), dtype="float32") = R.matmul(lv4, lv5, out_dtype=None)
            lv6: R.Tensor((4, 8), dtype="float32") = R.hint_on_device(lv4_1, R.device(device_type=2, index=0), "global")
            lv7: R.Tensor((4, 8), dtype="float32") = R.add(lv6, x)
            lv8: R.Tensor((4, 8), dtype="float32") = R.nn.layer_norm(lv7, g, b, axes=[-1], epsilon=1.0000000000000001e-05, center=True, scale=True)
            gv: R.Tensor((4, 8), dtype="float32") = lv8
            R.output(gv)
        return gv