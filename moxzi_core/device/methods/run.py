"""``moxzi_device_run``: check a program against the caller's sources (or reuse the plan checked
before), run it on the backend and, with ``train``, take an optimizer step from its loss."""

from __future__ import annotations

import functools
import math
from typing import Any

from ..backend import TrainGroup, TrainStep
from ..budget import entry_bytes
from ..kept import Keeping
from ..ops import ELEM_SIZES, DeviceError, Meta, unwrap
from ..program import Plan, check
from ..rows import analyse, check_loss, local
from ..schedule import device_clock, keep_device
from ..space import Space
from ..state import DeviceState


def run(device: DeviceState, caller: bytes, space: Space, spec: dict):
    inputs = _inputs(device, spec["inputs"])
    program = spec["program"]
    if not program or len(program) > device.limits.max_ops:
        raise DeviceError(f"the program has {len(program)} ops; expected 1 to {device.limits.max_ops}")
    train = unwrap(spec["train"])
    loss = None if train is None else train["loss"]
    scalars, tensors = spec["scalars"], spec["tensors"]
    split = _split(unwrap(spec.get("split")), len(inputs))
    key = device.plans.key(program, tuple(m for _, m in inputs), tuple(scalars), tuple(tensors), loss, tuple(split))
    plan = device.plans.get(key)
    values = None if plan is None else _sources(device, caller, space, inputs, plan)
    if plan is None or values is None:  # new, or a source changed shape or went away: check it all again
        plan = check(
            program,
            device.ops,
            device.kernels,
            lambda src: device.source(caller, space, inputs, src)[1],
            scalars,
            tensors,
            loss,
            device.limits.max_elements,
        )
        if split:
            plan = analyse(plan, split, {n: o.rows for n, o in device.ops.items()})
            if loss is not None:
                check_loss(plan, loss)
        device.plans.put(key, plan)
        values = _sources(device, caller, space, inputs, plan)
        assert values is not None, "a plan just checked finds its sources"
    if plan.batch % device.world:
        raise DeviceError(
            f"split: the batch has {plan.batch} rows, which this device's {device.world} ranks cannot share evenly"
        )
    step = None if train is None else _train_step(space, plan, train)
    after = 0  # what its stores add once it is done
    if plan.stores:
        device.room(caller, space, len({name for _, name in plan.stores} - set(space.stored)))
        last_store = {name: r for r, name in plan.stores}  # a name stored twice keeps the later value
        after = sum(
            entry_bytes(n, plan.metas[r]) - (entry_bytes(n, space.stored[n][1]) if n in space.stored else 0)
            for n, r in last_store.items()
        )
    device.admit(caller, during=plan.peak_bytes, after=after, work=plan.work)
    watched = [] if step is None else [step.loss]  # for the `train` event
    wanted = [*scalars, *tensors, *(r for r, _ in plan.stores), *watched]
    if plan.shared_owners and not plan.shared_owners <= {caller}:
        # Another caller's call could replace that publication while this run stood aside, and the
        # record (in the order calls end) would then have this run read the new one.
        keep_device()
    keeping = Keeping(space.kept, functools.partial(device.room_for, caller))
    started = device_clock()
    try:
        on_rank = local(plan, device.world) if plan.rows and device.world > 1 else plan
        out = device.backend.execute(on_rank, values, wanted, step, keeping)
    except DeviceError:
        raise
    except Exception as error:  # e.g. an id out of range: the backend names the op when it can
        raise DeviceError(str(error)) from None
    if step is not None:
        device.trained(caller, train["optimizer"], out.pop(), device_clock() - started)
    stores = out[len(scalars) + len(tensors) :]
    for (r, name), value in zip(plan.stores, stores):
        space.stored[name] = (value, plan.metas[r])
    if not plan.stores and not keeping.changed:  # a step changes its parameters' values, not their bytes
        device.held_as_before()
    to_scalar = device.backend.to_scalar
    result = {
        "scalars": [float(to_scalar(v)) for v in out[: len(scalars)]],
        "tensors": [device.backend.to_bytes(v) for v in out[len(scalars) : len(scalars) + len(tensors)]],
        "shapes": [list(plan.metas[r].shape) for r in tensors],
    }
    return result, step is not None or bool(plan.stores)


def _split(split: list[int] | None, n: int) -> list[int]:
    for i in split or []:
        if i >= n:
            raise DeviceError(f"split: input {i} does not exist; the run has {n} input(s)")
    if split and len(set(split)) != len(split):
        raise DeviceError("split: an input is named twice")
    return sorted(split or [])


def _inputs(device: DeviceState, inputs: list[dict]) -> list[tuple[Any, Meta]]:
    total = sum(len(i["data"]) for i in inputs)
    if total > device.limits.max_input_bytes:
        raise DeviceError(f"inputs: {total} bytes; the limit is {device.limits.max_input_bytes}")
    out = []
    for n, i in enumerate(inputs):
        ((elem, _),) = i["elem"].items()
        shape = device.limits.shape(f"inputs[{n}]", i["shape"])
        need = ELEM_SIZES[elem] * math.prod(shape)
        if len(i["data"]) != need:
            raise DeviceError(f"inputs[{n}]: {len(i['data'])} bytes of data, but {elem} {list(shape)} needs {need}")
        out.append((i["data"], Meta(shape, elem)))
    return out


def _sources(
    device: DeviceState, caller: bytes, space: Space, inputs: list[tuple[Any, Meta]], plan: Plan
) -> list[Any] | None:
    """The plan's sources now, or None when one is missing or changed type since it was checked."""
    values = []
    params = space.params
    for src, meta in zip(plan.sources, plan.source_metas):
        kind = src.kind
        if kind == "param":  # most sources of a training step: looked up here, a call fewer each
            found = params.get(src.key)
        else:
            try:
                found = device.source(caller, space, inputs, src)
            except DeviceError:
                return None
        # (a parameter's type is the very Meta the plan was checked with, until it is replaced)
        if found is None or (found[1] is not meta and found[1] != meta):
            return None
        values.append(device.backend.tensor(found[0], meta.dtype, meta.shape) if kind == "input" else found[0])
    return values


def _train_step(space: Space, plan: Plan, train: dict) -> TrainStep:
    names = [train["optimizer"], *(unwrap(train["also"]) or [])]
    slots = plan.param_slots
    groups, owner = [], dict[str, str]()
    for i, name in enumerate(names):
        entry = space.optimizers.get(name)
        if entry is None:
            raise DeviceError(f"train: this actor has no optimizer named {name!r}")
        if name in names[:i]:
            raise DeviceError(f"train: optimizer {name!r} is named twice")
        for p in entry.params if len(names) > 1 else ():  # (one optimizer holds each parameter once)
            if p in owner:
                raise DeviceError(
                    f"train: parameter {p!r} is in optimizers {owner[p]!r} and {name!r}; a step may update it once"
                )
            owner[p] = name
        lr = unwrap(train["lr"]) if i == 0 and train["lr"] is not None else entry.lr
        if not math.isfinite(lr) or lr < 0:
            raise DeviceError(f"train: lr is {lr}; expected a finite number >= 0")
        groups.append(TrainGroup(entry.state, lr, [(p, slots[p]) for p in entry.params if p in slots]))
    if not any(g.params for g in groups):
        raise DeviceError(f"train: the program reads none of the parameters of {', '.join(map(repr, names))}")
    clip = unwrap(train["clip"])
    if clip is not None and not (math.isfinite(clip) and clip > 0):
        raise DeviceError(f"train: clip is {clip}; expected a finite number > 0")
    return TrainStep(train["loss"], groups, clip)
