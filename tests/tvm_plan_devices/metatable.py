#!/usr/bin/env python3
"""Writes the #[metadata] section that stands for a TVM test's Python metatable.

Usage: metatable.py DEVICES [CONSTANT...]
  DEVICES   the metatable's VirtualDevice list, comma-separated: cpu,cuda
            (TVM's CPU or HOST, then GPU), cuda (test_dynamic_input's [GPU]),
            KIND/SCOPE for a memory scope (cpu/scopeA, TVM's CPU_SCOPE_A) and
            any/SCOPE for a VirtualDevice of a memory scope alone
            (test_primitive's VirtualDevice(memory_scope="global"))
  CONSTANT  one relay.Constant each, DTYPE:SHAPE:VALUES, e.g.
            int64:2:3,2   float32:5x7:iota/10 (0, 0.1, 0.2, ... in C order)

TVM's tests hand tvm.relay.parse a metatable; a text file carries it as the
#[metadata] section astext(show_meta_data=True) prints. The VirtualDevice
entries are written as devplan writes a fresh section (its `save`), targets
llvm and cuda with host llvm, which TVM reloads; each constant as a
relay.Constant node whose data is an NDArray in TVM's binary format (magic,
device, dtype, shape, bytes), base64, in "b64ndarrays". The section is
printed on standard output, to be appended to the module's text.
"""
import base64
import json
import struct
import sys

DTYPES = {"float32": (2, 32, "f"), "int64": (0, 64, "q"), "int32": (0, 32, "i")}


def ndarray(dtype, shape, values):
    code, bits, fmt = DTYPES[dtype]
    data = struct.pack("<%d%s" % (len(values), fmt), *values)
    head = struct.pack("<QQiiiBBH", 0xDD5E40F096B4A13F, 0, 1, 0, len(shape), code, bits, 1)
    head += struct.pack("<%dq" % len(shape), *shape) + struct.pack("<q", len(data))
    return base64.b64encode(head + data).decode()


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    nodes = [{"type_key": ""}, None, None, None, {"type_key": "runtime.String"},
             {"type_key": "Map"}, {"type_key": "Array"}]
    unconstrained = len(nodes)
    nodes.append({"type_key": "VirtualDevice", "attrs": {
        "device_type_int": "-1", "memory_scope": "4", "target": "0",
        "virtual_device_id": "-1"}})

    def target(kind, device_type, host):
        nodes.append({"type_key": "runtime.String", "repr_str": kind})
        nodes.append({"type_key": "TargetKind", "attrs": {
            "default_device_type": str(device_type), "default_keys": "6",
            "name": str(len(nodes) - 1)}})
        nodes.append({"type_key": "Target", "attrs": {
            "attrs": "5", "features": "5", "host": str(host), "keys": "6",
            "kind": str(len(nodes) - 1), "tag": "4"}})
        return len(nodes) - 1

    devices = []
    for entry in sys.argv[1].split(","):
        kind, _, scope = entry.partition("/")
        scope_node = 4
        if scope:
            nodes.append({"type_key": "runtime.String", "repr_str": scope})
            scope_node = len(nodes) - 1
        if kind == "cpu":
            t, device_type, device_id = target("llvm", 1, 0), 1, 0
        elif kind == "cuda":
            t, device_type, device_id = target("cuda", 2, target("llvm", 1, 0)), 2, 0
        elif kind == "any":
            t, device_type, device_id = 0, -1, -1
        else:
            raise SystemExit("unknown device %r" % kind)
        nodes.append({"type_key": "VirtualDevice", "attrs": {
            "device_type_int": str(device_type), "memory_scope": str(scope_node),
            "target": str(t), "virtual_device_id": str(device_id)}})
        devices.append(len(nodes) - 1)
    constants, arrays = [], []
    for spec in sys.argv[2:]:
        dtype, shape, values = spec.split(":")
        shape = [int(d) for d in shape.split("x")]
        count = 1
        for d in shape:
            count *= d
        if values.startswith("iota/"):
            values = [i / float(values[5:]) for i in range(count)]
        else:
            values = [int(v) for v in values.split(",")]
        arrays.append(ndarray(dtype, shape, values))
        nodes.append({"type_key": "relay.Constant", "attrs": {
            "data": str(len(arrays) - 1), "span": "0",
            "virtual_device_": str(unconstrained)}})
        constants.append(len(nodes) - 1)
    nodes[1] = {"type_key": "Map", "keys": ["VirtualDevice", "relay.Constant"],
                "data": [2, 3]}
    nodes[2] = {"type_key": "Array", "data": devices}
    nodes[3] = {"type_key": "Array", "data": constants}
    section = {"root": 1, "nodes": nodes, "b64ndarrays": arrays,
               "attrs": {"tvm_version": "0.14.0"}}
    print("#[metadata]")
    print(json.dumps(section, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
