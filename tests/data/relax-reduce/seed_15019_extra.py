# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    I.module_global_infos({"vdevice": [I.vdevice({"keys": ["cpu"], "kind": "llvm", "mtriple": "x86_64-unknown-linux-gnu", "tag": ""}, 0, "global"), I.vdevice({"arch": "sm_80", "keys": ["cuda", "gpu"], "kind": "cuda", "max_num_threads": 1024, "tag": "", "thread_warp_size": 32}, 0, "global")]})
    @R.function
    def helper(p: R.Tensor((2, 2), dtype="float32")) -> R.Tensor((2, 2), dtype="float32"):
        q: R.Tensor((2, 2), dtype="float32") = R.nn.relu(p)
        return q

    @R.function
    def main(a: R.Tensor((2, 2), dtype="float32"), b: R.Tensor((2, 2), dtype="float32"), c: R.Tensor((2, 2), dtype="float32"), d: R.Tensor((2, 2), dtype="float32"), e: R.Tensor((2, 2), dtype="float32")) -> R.Tuple(R.Tensor((2, 2), dtype="float32"), R.Tensor((2, 2), dtype="float32"), R.Tensor((2, 2), dtype="float32")):
        with R.dataflow():
            d1: R.Tensor((2, 2), dtype="float32") = R.multiply(d, e)
            d2: R.Tensor((2, 2), dtype="float32") = R.nn.relu(d1)
            d3: R.Tensor((2, 2), dtype="float32") = R.exp(d2)
            R.output(d3)
        x: R.Tensor((2, 2), dtype="float32") = R.add(a, b)
        x_1: R.Tensor((2, 2), dtype="float32") = R.hint_on_device(x, R.device(device_type=1, index=0), "global")
        w: R.Tensor((2, 2), dtype="float32") = R.sigmoid(d3)
        y: R.Tensor((2, 2), dtype="float32") = R.add(b, c)
        y_1: R.Tensor((2, 2), dtype="float32") = R.hint_on_device(y, R.device(device_type=2, index=0), "global")
        w1: R.Tensor((2, 2), dtype="float32") = R.multiply(w, e)
        w2: R.Tensor((2, 2), dtype="float32") = R.tanh(w1)
        z: R.Tensor((2, 2), dtype="float32") = R.subtract(x_1, y_1)
        z1: R.Tensor((2, 2), dtype="float32") = R.negative(z)
        z2: R.Tensor((2, 2), dtype="float32") = R.add(z1, w2)
        return (z2, w2, d3)
