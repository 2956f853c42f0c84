#!/usr/bin/env python3
"""scripts/torch-reference.py MODEL... - PyTorch's own time for the models
scripts/gpu-check runs, on the same GPU: batch 1, float32, eager mode,
random weights, the median of 30 synchronised forward passes after 5 warm
ups. Prints one line per model:

    torch resnet18: 2.07 ms (batch 1, fp32, eager, NVIDIA H200)

Models: resnet18, vgg11 (torchvision's when it is installed, else the same
architecture written out here). Exits 2 when PyTorch or a GPU is missing,
so that gpu-check can say the reference was not available.
"""
import statistics
import sys
import time

try:
    import torch
    import torch.nn as nn
except ImportError:
    print("torch: not installed")
    sys.exit(2)


def conv_bn(cin, cout, stride):
    return nn.Sequential(
        nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True)
    )


class Basic(nn.Module):
    def __init__(self, cin, cout, stride):
        super().__init__()
        self.a = conv_bn(cin, cout, stride)
        self.b = nn.Sequential(nn.Conv2d(cout, cout, 3, 1, 1, bias=False), nn.BatchNorm2d(cout))
        self.down = None
        if stride != 1 or cin != cout:
            self.down = nn.Sequential(nn.Conv2d(cin, cout, 1, stride, bias=False), nn.BatchNorm2d(cout))

    def forward(self, x):
        y = self.b(self.a(x))
        return torch.relu(y + (self.down(x) if self.down is not None else x))


def resnet18():
    try:
        import torchvision

        return torchvision.models.resnet18()
    except ImportError:
        pass
    layers = [nn.Conv2d(3, 64, 7, 2, 3, bias=False), nn.BatchNorm2d(64), nn.ReLU(), nn.MaxPool2d(3, 2, 1)]
    cin = 64
    for cout, stride in ((64, 1), (128, 2), (256, 2), (512, 2)):
        layers += [Basic(cin, cout, stride), Basic(cout, cout, 1)]
        cin = cout
    layers += [nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(512, 1000)]
    return nn.Sequential(*layers)


def vgg11():
    try:
        import torchvision

        return torchvision.models.vgg11()
    except ImportError:
        pass
    layers, cin = [], 3
    for v in (64, "M", 128, "M", 256, 256, "M", 512, 512, "M", 512, 512, "M"):
        if v == "M":
            layers.append(nn.MaxPool2d(2, 2))
        else:
            layers += [nn.Conv2d(cin, v, 3, 1, 1), nn.ReLU(inplace=True)]
            cin = v
    layers += [
        nn.Flatten(),
        nn.Linear(512 * 7 * 7, 4096),
        nn.ReLU(True),
        nn.Linear(4096, 4096),
        nn.ReLU(True),
        nn.Linear(4096, 1000),
    ]
    return nn.Sequential(*layers)


MODELS = {"resnet18": resnet18, "vgg11": vgg11}


def main(names):
    if not torch.cuda.is_available():
        print("torch: no CUDA device")
        return 2
    gpu = torch.cuda.get_device_name(0)
    for name in names:
        if name not in MODELS:
            print(f"torch {name}: no reference model")
            continue
        model = MODELS[name]().cuda().eval()
        x = torch.randn(1, 3, 224, 224, device="cuda")
        times = []
        with torch.no_grad():
            for i in range(35):
                torch.cuda.synchronize()
                t = time.perf_counter()
                model(x)
                torch.cuda.synchronize()
                if i >= 5:
                    times.append(time.perf_counter() - t)
        print(f"torch {name}: {statistics.median(times) * 1e3:.2f} ms (batch 1, fp32, eager, {gpu})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:] or list(MODELS)))
