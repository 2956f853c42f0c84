# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    I.module_global_infos({"vdevice": [I.vdevice({"keys": ["cpu"], "kind": "llvm", "mtriple": "x86_64-unknown-linux-gnu", "tag": ""}, 0, "global"), I.vdevice({"arch": "sm_80", "keys": ["cuda", "gpu"], "kind": "cuda", "max_num_threads": 1024, "tag": "", "thread_warp_size": 32}, 0, "global")]})
    @R.function
    def main(x: R.Tensor((1, 8, 32), dtype="float32"), wq: R.Tensor((32, 32), dtype="float32"), wk: R.Tensor((32, 32), dtype="float32"), wv: R.Tensor((32, 32), dtype="float32"), wo: R.Tensor((32, 32), dtype="float32"), bo: R.Tensor((32,), dtype="float32"), g1: R.Tensor((32,), dtype="float32"), be1: R.Tensor((32,), dtype="float32"), w1: R.Tensor((32, 64), dtype="float32"), b1: R.Tensor((64,), dtype="float32"), w2: R.Tensor((64, 32), dtype="float32"), b2: R.Tensor((32,), dtype="float32"), g2: R.Tensor((32,), dtype="float32"), be2: R.Tensor((32,), dtype="float32")) -> R.Tensor((1, 8, 32), dtype="float32"):
        R.func_attr({"num_input": 1})
        with R.dataflow():
            lv: R.Tensor((1, 8, 32), dtype="float32") = R.matmul(x, wq, out_dtype=None)
            lv_1: R.Tensor((1, 8, 32), dtype="float32") = R.hint_on_device(lv, R.device(device_type=2, index=0), "global")
            lv1: R.Tensor((1, 8, 4, 8), dtype="float32") = R.reshape(lv_1, R.shape([1, 8, 4, 8]))
            lv1_1: R.Tensor((1, 8, 32), dtype="float32") = R.matmul(x, wk, out_dtype=None)
            lv2: R.Tensor((1, 8, 32), dtype="float32") = R.hint_on_device(lv1_1, R.device(device_type=2, index=0), "global")
            lv3: R.Tensor((1, 8, 4, 8), dtype="float32") = R.reshape(lv2, R.shape([1, 8, 4, 8]))
            lv2_1: R.Tensor((1, 8, 32), dtype="float32") = R.matmul(x, wv, out_dtype=None)
            lv4: R.Tensor((1, 8, 32), dtype="float32") = R.hint_on_device(lv2_1, R.device(device_type=2, index=0), "global")
            lv5: R.Tensor((1, 8, 4, 8), dtype="float32") = R.reshape(lv4, R.shape([1, 8, 4, 8]))
            lv6: R.Tensor((1, 4, 8, 8), dtype="float32") = R.permute_dims(lv1, axes=[0, 2, 1, 3])
            lv7: R.Tensor((1, 4, 8, 8), dtype="float32") = R.permute_dims(lv3, axes=[0, 2, 3, 1])
            lv3_1: R.Tensor((1, 4, 8, 8), dtype="float32") = R.matmul(lv6, lv7, out_dtype=None)
            lv8: R.Tensor((1, 4, 8, 8), dtype="float32") = R.hint_on_device(lv3_1, R.device(device_type=2, index=0), "global")
            lv9: R.Tensor((1, 4, 8, 8), dtype="float32") = R.multiply(lv8, R.const(0.35355338454246521, "float32"))
            lv10: R.Tensor((1, 4, 8, 8), dtype="float32") = R.nn.softmax(lv9, axis=-1)
            lv11: R.Tensor((1, 4, 8, 8), dtype="float32") = R.permute_dims(lv5, axes=[0, 2, 1, 3])
            lv4_1: R.Tensor((1, 4, 8, 8), dtype="float32") = R.matmul(lv10, lv11, out_dtype=None)
            lv12: R.Tensor((1, 4, 8, 8), dtype="float32") = R.hint_on_device(lv4_1, R.device(device_type=2, index=0), "global")
            lv13: R.Tensor((1, 8, 4, 8), dtype="float32") = R.permute_dims(lv12, axes=[0, 2, 1, 3])
            lv14: R.Tensor((1, 8, 32), dtype="float32") = R.reshape(lv13, R.shape([1, 8, 32]))
            lv5_1: R.Tensor((1, 8, 32), dtype="float32") = R.matmul(lv14, wo, out_dtype=None)
            lv15: R.Tensor((1, 8, 32), dtype="float32") = R.hint_on_device(lv5_1, R.device(device_type=2, index=0), "global")
            lv16: R.Tensor((1, 8, 32), dtype="float32") = R.add(lv15, bo)
            lv17: R.Tensor((1, 8, 32), dtype="float32") = R.add(lv16, x)
            lv18: R.Tensor((1, 8, 32), dtype="float32") = R.nn.layer_norm(lv17, g1, be1, axes=[-1], epsilon=1.0000000000000001e-05, center=True, scale=True)
            lv6_1: R.Tensor((1, 8, 64), dtype="float32") = R.matmul(lv18, w1, out_dtype=None)
            lv19: R.Tensor((1, 8, 64), dtype="float32") = R.hint_on_device(lv6_1, R.device(device_type=2, index=0), "global")
            lv20: R.Tensor((1, 8, 64), dtype="float32") = R.add(lv19, b1)
            lv21: R.Tensor((1, 8, 64), dtype="float32") = R.divide(lv20, R.const(1.4142135381698608, "float32"))
            lv22: R.Tensor((1, 8, 64), dtype="float32") = R.erf(lv21)
            lv23: R.Tensor((1, 8, 64), dtype="float32") = R.add(lv22, R.const(1.0, "float32"))
            lv24: R.Tensor((1, 8, 64), dtype="float32") = R.multiply(lv20, lv23)
            lv25: R.Tensor((1, 8, 64), dtype="float32") = R.multiply(lv24, R.const(0.5, "float32"))
            lv7_1: R.Tensor((1, 8, 32), dtype="float32") = R.matmul(lv25, w2, out_dtype=None)
            lv26: R.Tensor((1, 8, 32), dtype="float32") = R.hint_on_device(lv7_1, R.device(device_type=2, index=0), "global")
            lv27: R.Tensor((1, 8, 32), dtype="float32") = R.add(lv26, b2)
            lv28: R.Tensor((1, 8, 32), dtype="float32") = R.add(lv27, lv18)
            lv29: R.Tensor((1, 8, 32), dtype="float32") = R.nn.layer_norm(lv28, g2, be2, axes=[-1], epsilon=1.0000000000000001e-05, center=True, scale=True)
            gv: R.Tensor((1, 8, 32), dtype="float32") = lv29
            R.output(gv)
        return gv