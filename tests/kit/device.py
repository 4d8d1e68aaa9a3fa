"""Tensor devices in tests: the learner actor on one, runs' arguments, and looking into a device."""

import contextlib
import io
import math

import numpy as np

from kit.host import spec
from moxzi_core import device
from moxzi_core.candid import Some, encode_args
from moxzi_core.device import DeviceBudget, open_device
from moxzi_core.device.interface import builtin_payloads
from moxzi_core.runtime.device_calls import CheckpointPolicy
from moxzi_core.runtime.host import ActorSpec, Host, HostConfig

PROBED = np.ones(2, "<f4").tobytes()  # what probe_run puts through the probe


# The seed's letters.mo program (001): registers are positions; the loss is register 9.
LETTERS = [
    {"input": 0},
    {"narrow": {"x": 0, "dim": 1, "start": 0, "len": 64}},
    {"narrow": {"x": 0, "dim": 1, "start": 1, "len": 64}},
    {"reshape": {"x": 2, "shape": [64]}},
    {"param": "embed"},
    {"embedding": {"table": 4, "ids": 1}},
    {"param": "head"},
    {"linear": {"x": 5, "w": 6, "b": None}},
    {"reshape": {"x": 7, "shape": [64, 256]}},
    {"cross_entropy": {"logits": 8, "targets": 3}},
]


def run_arg(program, *, inputs=(), train=None, scalars=(), tensors=()) -> dict:
    """The argument of a device ``run`` (a moxzi_device_run record, not split over ranks): ``program``'s
    ops on ``inputs``; a training step if ``train`` (see ``training``); the registers ``scalars`` and
    ``tensors`` read back."""
    return {
        "inputs": list(inputs),
        "program": list(program),
        "train": train,
        "scalars": list(scalars),
        "split": None,
        "tensors": list(tensors),
    }


def training(loss: int, optimizer: str, *, clip=None, lr=None, also=None) -> Some:
    """A run's ``train`` value: a step of the optimizer named ``optimizer`` on register ``loss``, clipping
    gradients to the global norm ``clip`` and at the learning rate ``lr`` if given, and of the optimizers
    named in ``also`` too."""
    given = {
        name: None if value is None else Some(value) for name, value in (("clip", clip), ("lr", lr), ("also", also))
    }
    return Some({"loss": loss, "optimizer": optimizer, **given})


def read(dev, caller, *sources):
    """The float32 values of sources (ops such as {"param": "w"}), as numpy arrays."""
    r = dev.request("run", caller, run_arg(sources, tensors=range(len(sources))))
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
    return encode_args(d.types["moxzi_device_run"].args, [run_arg(program, inputs=inputs, tensors=[1])])


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


def adamw(params: list[str], *, lr: float, weight_decay: float) -> dict:
    """The optimizer argument of AdamW named "adam" over ``params``: betas 0.9 and 0.99, eps 1e-8."""
    return {
        "name": "adam",
        "params": params,
        "lr": lr,
        "beta1": 0.9,
        "beta2": 0.99,
        "eps": 1e-8,
        "weight_decay": weight_decay,
        "kind": Some({"adamw": None}),
    }


def letters_params(dev, caller, optimizer: dict, init=None) -> None:
    """The parameters of LETTERS (embed and head, [256, 16], drawn from ``init``: normal 0.1 by default)
    made on ``dev`` for ``caller``, then ``optimizer``."""
    init = init or {"normal": 0.1}
    shapes = [{"name": name, "shape": [256, 16], "init": init} for name in ("embed", "head")]
    dev.request("params", caller, shapes)
    dev.request("optimizer", caller, optimizer)


@contextlib.asynccontextmanager
async def learner_host(
    registry,
    store,
    *,
    actor: str | ActorSpec = "learner",
    checkpoint: CheckpointPolicy | None = CheckpointPolicy(at_stop=math.inf),  # (a stop leaves the record)
    ledger=None,
    budget: DeviceBudget = DeviceBudget(),
    seed: int = 0,
):
    """(host, device): the learner actor (tests/actors/learner.mo; ``actor``: tests/actors/ACTOR.mo,
    named ACTOR, or an ActorSpec) in a started ``Host`` on ``store``, on a new torch:cpu device (``registry``'s, with
    ``budget`` and ``seed``) whose calls the host records and copies per ``checkpoint`` and charges to
    ``ledger``'s accounts if given. Both are stopped at the end; a start-up that fails closes the device
    and raises."""
    dev = open_device(registry, "torch:cpu", budget=budget, seed=seed)
    host = Host(
        [spec(actor, actor) if isinstance(actor, str) else actor],
        HostConfig(checkpoint=checkpoint),
        system_methods=dev.system_methods(),
        store=store,
        system_state=dev,
        ledger=ledger,
    )
    try:
        await host.start()
        try:
            yield host, dev
        finally:
            await host.stop()
    finally:
        dev.close()
