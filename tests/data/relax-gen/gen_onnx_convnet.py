# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    I.module_global_infos({"vdevice": [I.vdevice({"keys": ["cpu"], "kind": "llvm", "mtriple": "x86_64-unknown-linux-gnu", "tag": ""}, 0, "global"), I.vdevice({"arch": "sm_80", "keys": ["cuda", "gpu"], "kind": "cuda", "max_num_threads": 1024, "tag": "", "thread_warp_size": 32}, 0, "global")]})
    @R.function
    def main(x: R.Tensor((1, 3, 8, 8), dtype="float32"), w1: R.Tensor((4, 3, 3, 3), dtype="float32"), b1: R.Tensor((4,), dtype="float32"), s: R.Tensor((4,), dtype="float32"), bb: R.Tensor((4,), dtype="float32"), m: R.Tensor((4,), dtype="float32"), v: R.Tensor((4,), dtype="float32"), w2: R.Tensor((4, 4, 3, 3), dtype="float32"), b2: R.Tensor((4,), dtype="float32")) -> R.Tensor((1, 4, 6, 6), dtype="float32"):
        R.func_attr({"num_input": 1})
        with R.dataflow():
            lv: R.Tensor((1, 4, 8, 8), dtype="float32") = R.nn.conv2d(x, w1, strides=[1, 1], padding=[1, 1, 1, 1], dilation=[1, 1], groups=1, data_layout="NCHW", kernel_layout="OIHW", out_layout="NCHW", out_dtype=None)
            lv_1: R.Tensor((1, 4, 8, 8), dtype="float32") = R.hint_on_device(lv, R.device(device_type=2, index=0), "global")
            lv1: R.Tensor((1, 4, 1, 1), dtype="float32") = R.reshape(b1, R.shape([1, 4, 1, 1]))
            lv2: R.Tensor((1, 4, 8, 8), dtype="float32") = R.add(lv_1, lv1)
            lv3: R.Tuple(R.Tensor((1, 4, 8, 8), dtype="float32"), R.Tensor((4,), dtype="float32"), R.Tensor((4,), dtype="float32")) = R.nn.batch_norm(lv2, s, bb, m, v, axis=1, epsilon=1.0000000000000001e-05, center=True, scale=True, momentum=0.90000000000000002, training=False)
            lv4: R.Tensor((1, 4, 8, 8), dtype="float32") = lv3[0]
            lv5: R.Tensor((4,), dtype="float32") = lv3[1]
            lv6: R.Tensor((4,), dtype="float32") = lv3[2]
            lv7: R.Tensor((1, 4, 8, 8), dtype="float32") = R.nn.relu(lv4)
            lv1_1: R.Tensor((1, 4, 6, 6), dtype="float32") = R.nn.conv2d(lv7, w2, strides=[1, 1], padding=[0, 0, 0, 0], dilation=[1, 1], groups=1, data_layout="NCHW", kernel_layout="OIHW", out_layout="NCHW", out_dtype=None)
            lv8: R.Tensor((1, 4, 6, 6), dtype="float32") = R.hint_on_device(lv1_1, R.device(device_type=2, index=0), "global")
            lv9: R.Tensor((1, 4, 1, 1), dtype="float32") = R.reshape(b2, R.shape([1, 4, 1, 1]))
            lv10: R.Tensor((1, 4, 6, 6), dtype="float32") = R.add(lv8, lv9)
            gv: R.Tensor((1, 4, 6, 6), dtype="float32") = R.nn.relu(lv10)
            R.output(gv)
        return gv