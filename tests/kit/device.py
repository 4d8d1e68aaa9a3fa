"""Looking into a tensor device from tests."""

import io

import numpy as np

from moxzi_core import device
from moxzi_core.candid import Some, encode_args
from moxzi_core.device.interface import builtin_payloads

PROBED = np.ones(2, "<f4").tobytes()  # what probe_run puts through the probe


def read(dev, caller, *sources):
    """The float32 values of sources (ops such as {"param": "w"}), as numpy arrays."""
    r = dev.request(
        "run",
        caller,
        {
            "inputs": [],
            "program": list(sources),
            "train": None,
            "scalars": [],
            "split": None,
            "tensors": list(range(len(sources))),
        },
    )
    return [np.frombuffer(b, "<f4").reshape(s) for b, s in zip(r["tensors"], r["shapes"])]


def snapshot(d) -> bytes:
    """The device's full copy, as bytes."""
    out = io.BytesIO()
    d.snapshot(out)
    return out.getvalue()


def probe(kernel) -> device.Op:
    """An op ``probe`` that passes its float input through ``kernel(payload, x)`` on torch, so a test
    sees where and how the device runs an op's kernel."""
    return device.Op("probe", builtin_payloads()["relu"], lambda p, c: c.float("x", c.reg(p)), {"torch": kernel})


def probe_run(d) -> bytes:
    """The Candid argument of a moxzi_device_run of ``probe`` on PROBED, returning its result."""
    program = [{"input": 0}, {"probe": 0}]
    inputs = [{"data": PROBED, "elem": {"f32": None}, "shape": [2]}]
    run = {"inputs": inputs, "program": program, "train": None, "scalars": [], "split": None, "tensors": [1]}
    return encode_args(d.types["moxzi_device_run"].args, [run])


def plain_sgd(params: list[str], lr: float) -> dict:
    """The optimizer argument of plain SGD named "sgd" over ``params``: no momentum, no weight decay."""
    return {
        "name": "sgd",
        "params": params,
        "lr": lr,
        "beta1": 0.0,
        "beta2": 0.0,
        "eps": 0.0,
        "weight_decay": 0.0,
        "kind": Some({"sgd": None}),
    }
