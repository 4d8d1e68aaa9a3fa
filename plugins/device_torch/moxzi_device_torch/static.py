"""A cached plan's static form (``--cuda-graphs``, ``graphs.py``): the plan run the way a CUDA graph can
hold it, so that on torch:cuda it is captured once and replayed. A plan gets it on its second run (the
first takes the plain path), so a plan that never repeats costs nothing more.

A graph replays the kernels it recorded on the memory they used, so the static form keeps every tensor a
run reads at one address from call to call: the run's inputs, stored tensors and publications are copied
into buffers it keeps; its parameters and AdamW's moments are the ones it read before (a plan whose
parameters were replaced gets a new static form, a part given other moments is captured again); its
results and gradients are where the graph wrote them. Nothing in it reads a value back to the host or
chooses by one, and what changes from step to step (each parameter's learning rate, weight decay and
bias corrections) it reads from a tensor on the device, which the host writes before each step. It runs
in two parts, ``compute`` (forward, backward, the results copied out) and ``update`` (clip, AdamW),
because the loss is read between them: a loss that is not finite updates nothing, as on the plain path.

It gives the plain path's numbers (bit for bit on torch:cpu, where ``--cuda-graphs uncaptured`` runs it
without graphs, as the tests do). A plan it cannot hold runs on the plain path, with one log line: one
that splits its batch across ranks (collectives inside it), steps an optimizer other than this plugin's
AdamW, has an op whose kernel is not declared ``capturable`` (``kernels.py``), or has one that reads a
value back to the host or makes a shape from values (found by running it once on torch's "meta" device,
which has shapes and no values). Unlike the plain path it takes no checkpoint between ops (a replay is
one launch): other actors' calls and the time limit wait for the whole forward and backward pass; nor
does it count its ops in ``op_seconds``.

A static form is kept with what its caller holds (``moxzi_core.device.Keeping``), its bytes
(``form_bytes``) counted against the caller's byte budget: a form the budget has no room for is not
made (the plan runs on the plain path, and the log says so once), and a form dropped (the caller's
least recently used past ``MAX_FORMS``, its parameters or optimizer replaced or deleted, or to make
room for a call) gives its bytes back.
"""

from __future__ import annotations

import contextlib
import logging
import math
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, Protocol, cast

import torch

from moxzi_core.device import DeviceError, Keeping, Plan, TrainStep, checkpoint

from .kernels import call, is_capturable
from .optimizers import AdamW, clip_grads

log = logging.getLogger("moxzi.torch")

MAX_FORMS = 8  # static forms kept per caller, least recently used dropped
MAX_REMEMBERED = 64  # plans remembered as seen once, as refused and as past the budget (each logged once)


class Part(Protocol):
    """How a static plan's part runs: ``Eager`` (as it is, each call) or ``graphs.Graphed``."""

    failed: str | None

    def run(self, fn: Callable, *args): ...


class Eager:
    """A part run as it is on every call (``--cuda-graphs uncaptured``)."""

    failed: str | None = None

    def run(self, fn: Callable, *args):
        return fn(*args)


class Uncapturable(Exception):
    """Why a plan has no static form."""


class StaticPlans:
    """The static forms of the plans a backend runs: each caller's kept with what it holds (``Keeping``),
    by plan, results wanted, training step and the parameters read."""

    def __init__(self, device: torch.device, part: Callable[[], Part], pools: bool):
        """``pools``: a part, once captured, keeps the memory its run allocated (a CUDA graph's pool),
        which its form's bytes count."""
        self.device, self.part, self.pools = device, part, pools
        # Runs seen once (a plan that does not repeat, such as generation's while its context grows,
        # never pays for a static form), by their form's key.
        self._seen: OrderedDict[tuple, Plan] = OrderedDict()
        # By plan and kinds of optimizer. Both keep the plan, so that its id is no other plan's.
        self._refused: OrderedDict[tuple, Plan] = OrderedDict()
        self._unfit: OrderedDict[tuple, Plan] = OrderedDict()  # forms the budget had no room for, logged

    def execute(
        self, plan: Plan, sources: list, wanted: list[int], train: TrainStep | None, keeping: Keeping
    ) -> list | None:
        """The run's results from the plan's static form, or None where it has none (the plain path
        runs it then): on its first run, for a plan it cannot hold (the first time, a line in the log
        says why), and while the caller's byte budget has no room for the form (logged once)."""
        key = _key(plan, sources, wanted, train)
        if key[0] in self._refused:
            self._refused.move_to_end(key[0])
            return None
        form = keeping.get(key)
        if form is None:
            if self._seen.pop(key, None) is None:
                _remember(self._seen, key, plan)
                return None
            size = form_bytes(plan, sources, train, self.pools)
            try:
                form = keeping.keep(
                    key,
                    size,
                    lambda: StaticPlan(plan, sources, wanted, train, self.device, self.part, size),
                    MAX_FORMS,
                )
            except Uncapturable as why:
                self._refuse(key, plan, str(why))
                return None
            if form is None:  # tried again on its next run: the caller may have made room
                _remember(self._seen, key, plan)
                if key not in self._unfit:
                    log.warning(
                        "--cuda-graphs: a cached plan of %d ops runs uncaptured: its static form's %d bytes "
                        "do not fit in the actor's device budget (--device-actor-mb) or the device's "
                        "(--device-total-mb) beside what they hold",
                        len(plan.steps),
                        size,
                    )
                    _remember(self._unfit, key, plan)
                return None
        try:
            return form.run(sources, train)
        finally:
            failed = form.failed()
            if failed is not None:
                keeping.drop(key)
                self._refuse(key, plan, failed)

    def _refuse(self, key: tuple, plan: Plan, why: str) -> None:
        log.warning("--cuda-graphs: a cached plan of %d ops runs uncaptured: %s", len(plan.steps), why)
        _remember(self._refused, key[0], plan)


def form_bytes(plan: Plan, sources: list, train: TrainStep | None, pools: bool) -> int:
    """The most a static form of ``plan`` holds between calls: its buffers (the sources but the
    parameters, as torch holds them: integer inputs as int64), the step's factors, and with ``pools``
    what its captured parts keep: the run's peak (``Plan.peak_bytes``: results, gradients, inputs) for
    ``compute``, twice the trained parameters for ``update`` (AdamW's temporaries)."""
    buffers = sum(_bytes(t) for src, t in zip(plan.sources, sources) if src.kind != "param")
    trained = [] if train is None else [sources[slot] for g in train.groups for _, slot in g.params]
    factors = 3 * 4 * len(trained)
    pooled = plan.peak_bytes + 2 * sum(_bytes(t) for t in trained) if pools else 0
    return buffers + factors + pooled


def _bytes(t: torch.Tensor) -> int:
    return t.numel() * t.element_size()


def _remember(plans: OrderedDict[tuple, Plan], key: tuple, plan: Plan) -> None:
    plans[key] = plan
    while len(plans) > MAX_REMEMBERED:
        plans.popitem(last=False)


def _key(plan: Plan, sources: list, wanted: list[int], train: TrainStep | None) -> tuple:
    """(the plan's, the step's kinds of optimizer), what a refusal is by; then the rest of a static form's
    key: the results wanted, the step's optimizers, parameters, clip and loss, the parameters read."""
    kinds = None if train is None else tuple(type(g.optimizer).__name__ for g in train.groups)
    steps = None
    if train is not None:
        steps = (train.loss, train.clip, tuple((id(g.optimizer), tuple(g.params)) for g in train.groups))
    params = tuple(id(t) for src, t in zip(plan.sources, sources) if src.kind == "param")
    return (id(plan), kinds), tuple(wanted), steps, params


class StaticPlan:
    """One plan's static form, for one set of parameters and one training step's shape (its
    optimizers, clip and loss; the learning rates may change), holding ``size`` bytes (``form_bytes``)."""

    def __init__(
        self,
        plan: Plan,
        sources: list,
        wanted: list[int],
        train: TrainStep | None,
        device: torch.device,
        part: Callable[[], Part],
        size: int,
    ):
        refuse(plan, train)
        self.plan, self.wanted, self.bytes = plan, list(wanted), size
        self.loss = None if train is None else plan.slot(train.loss)
        self.clip = None if train is None else train.clip
        groups = [] if train is None else train.groups
        trained = [(gi, name, slot) for gi, g in enumerate(groups) for name, slot in g.params]
        slots = {slot for _, _, slot in trained}
        # What of its caller's it holds (Kept.holds): the parameters (the key has their ids, so they
        # must live) and the optimizers it steps.
        self.holds = tuple(t for src, t in zip(plan.sources, sources) if src.kind == "param")
        self.holds += tuple(g.optimizer for g in groups)
        # Copied in every call: all but the parameters, which are the same tensors from call to call.
        self.copied = [i for i, src in enumerate(plan.sources) if src.kind != "param"]
        self.values = [
            t.detach().clone() if src.kind != "param" else t if i in slots else t.detach()
            for i, (src, t) in enumerate(zip(plan.sources, sources))
        ]
        self.trained = [self.values[slot] for _, _, slot in trained]
        graded = trace(plan, sources, [slot for _, _, slot in trained], train)
        # The parameters a step updates: those that get a gradient (the plain path skips the others).
        self.stepped = [
            (cast(AdamW, groups[gi].optimizer), gi, name, slot) for (gi, name, slot), has in zip(trained, graded) if has
        ]
        self.factors = torch.zeros((len(self.stepped), 3), dtype=torch.float32, device=device)
        self.compute, self.update = part(), part()

    def failed(self) -> str | None:
        return self.compute.failed or self.update.failed

    def run(self, sources: list, train: TrainStep | None) -> list:
        checkpoint()  # may step aside for another actor's call, or stop past the time limit
        for i in self.copied:
            self.values[i].copy_(sources[i])
        try:
            outs, loss, grads = self.compute.run(self._compute)
            results = [t.clone() for t in outs]  # the next call overwrites outs
            if train is None:
                return results
            loss_value = loss.item()  # the host's one read, between the parts
            if not math.isfinite(loss_value):
                raise DeviceError(f"train: the loss is {loss_value}; nothing was updated")
            checkpoint()  # the last one: the update below is never cut short
            moments = [opt.moments(name, self.values[slot]) for opt, _, name, slot in self.stepped]
            rows = []
            for (opt, gi, _, _), state in zip(self.stepped, moments):
                state[0] += 1
                rows.append(opt.factors(train.groups[gi].lr, state[0]))
            self.factors.copy_(torch.tensor(rows, dtype=torch.float32), non_blocking=True)
            self.update.run(self._update, *grads, *(t for state in moments for t in state[1:]))
            return results
        finally:
            for p in self.trained:
                p.grad = None

    def _compute(self) -> tuple[list, torch.Tensor | None, list]:
        for p in self.trained:  # a capture that failed may have left gradients
            p.grad = None
        values = self.values + [None] * len(self.plan.metas)
        with torch.no_grad() if self.loss is None else contextlib.nullcontext():
            for step in self.plan.steps:
                values[step.out] = call(step, values)
        outs = [values[self.plan.slot(r)].detach().clone() for r in self.wanted]
        if self.loss is None:
            return outs, None, []
        loss = values[self.loss]
        loss.reshape(()).backward()
        grads = [values[slot].grad for _, _, _, slot in self.stepped]
        return outs, loss.detach(), grads

    @torch.no_grad()
    def _update(self, *tensors: torch.Tensor) -> None:
        n = len(self.stepped)
        grads, moments = tensors[:n], tensors[n:]
        if self.clip is not None:
            clip_grads(list(grads), self.clip)
        for row, ((opt, _, _, slot), g) in enumerate(zip(self.stepped, grads)):
            decay, bias2, size = self.factors[row]
            opt.update(self.values[slot], g, moments[2 * row], moments[2 * row + 1], decay, bias2, size)


def refuse(plan: Plan, train: TrainStep | None) -> None:
    """Raise Uncapturable if ``plan`` (stepped as ``train`` says) is one the static form cannot hold,
    by what it declares."""
    if plan.rows:
        raise Uncapturable("it splits its batch across ranks (collectives run inside it)")
    for step in plan.steps:
        if not is_capturable(step.kernel):
            raise Uncapturable(f"op {step.index} ({step.op}) has a kernel not declared capturable")
    for g in [] if train is None else train.groups:
        if g.params and type(g.optimizer) is not AdamW:
            raise Uncapturable(f"its optimizer is a {type(g.optimizer).__name__}, which has no static step")


def trace(plan: Plan, sources: list, trained: list[int], train: TrainStep | None) -> list[bool]:
    """Run ``plan`` forward and backward on torch's meta device, which has shapes and no values: an op
    that reads a value back to the host or makes a shape from values fails there. Returns which of the
    ``trained`` slots get a gradient; raises Uncapturable naming what failed."""
    meta = torch.device("meta")
    values: list[Any] = [torch.empty_like(t, device=meta).requires_grad_(i in trained) for i, t in enumerate(sources)]
    values += [None] * len(plan.metas)
    with torch.no_grad() if train is None else contextlib.nullcontext():
        for step in plan.steps:
            try:
                values[step.out] = step.kernel(step.payload, *[values[s] for s in step.slots])
            except Exception as error:
                raise Uncapturable(
                    f"op {step.index} ({step.op}) reads a value back to the host or makes a shape from one: "
                    f"{_gist(error)}"
                ) from None
    if train is None:
        return []
    loss = values[plan.slot(train.loss)]
    if not loss.requires_grad:
        raise Uncapturable(f"register {train.loss} does not depend on any trained parameter")
    try:
        loss.reshape(()).backward()
    except Exception as error:
        raise Uncapturable(f"its backward pass failed on the meta device: {_gist(error)}") from None
    return [values[slot].grad is not None for slot in trained]


def _gist(error: Exception) -> str:
    text = str(error).strip()
    return text.splitlines()[0][:200] if text else type(error).__name__
