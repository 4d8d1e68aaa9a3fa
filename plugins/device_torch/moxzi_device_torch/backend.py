"""The torch backend: tensors, parameter initialisation, program execution (and, with ``--cuda-graphs``,
its static form: ``static.py``), the optimizers of ``optimizers.py``.

On ``torch:cpu`` every result is a deterministic function of the calls: torch runs with the fixed number
of intra-op threads ``--device-threads`` gives (``threads.py``) and random initialisation draws from a
generator seeded by the device.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import math
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar, cast

import numpy as np
import torch
import torch.distributed as dist

from moxzi_core.device import MEAN, DeviceError, Keeping, Plan, Ranks, Rows, TrainStep, checkpoint

from . import graphs, threads
from . import settings as declared
from .group import TorchGroup
from .kernels import call
from .optimizers import SGD, AdamW, clip_grads, grads_of
from .static import Eager, StaticPlans
from .threads import intra_op_threads

if TYPE_CHECKING:
    from moxzi_core.settings import Settings

log = logging.getLogger("moxzi.torch")

_DTYPES: dict[str, np.dtype] = {
    "u8": np.dtype(np.uint8),
    "i32": np.dtype("<i4"),
    "i64": np.dtype("<i8"),
    "f32": np.dtype("<f4"),
}

Method = TypeVar("Method", bound=Callable[..., Any])


def _on_this_thread(method: Method) -> Method:
    """A method that computes: on torch:cpu, the thread calling it (a device thread, a rank's worker, a
    snapshot's or an export's thread) is first given the backend's thread count (``threads.py``)."""

    @functools.wraps(method)
    def given_threads(self: TorchBackend, *args: Any) -> Any:
        if self.threads:
            threads.compute_with(self.threads)
        return method(self, *args)

    return cast(Method, given_threads)


class TorchBackend:
    family = "torch"

    def __init__(self, spec: str, ranks: Ranks | None = None, settings: Settings | None = None):
        """With ``ranks``, this process's replica in a group of them (``group.py``); on torch:cuda rank r
        uses this machine's GPU r modulo the GPUs it sees (choose them with CUDA_VISIBLE_DEVICES).
        On torch:cpu, torch computes with ``settings[declared.THREADS]`` threads (default: ``declared.DEFAULT``)
        in every thread that calls one of its methods: each is given the count as it calls (the count is
        per thread, ``threads.py``)."""
        kind = spec.partition(":")[2] or "cpu"
        if kind not in ("cpu", "cuda", "mps"):
            raise DeviceError(f"--device {spec}: the torch backend runs on torch:cpu, torch:cuda or torch:mps")
        if f"torch:{kind}" not in self.specs():
            raise DeviceError(
                f"--device {spec}: torch sees no {kind.upper()} device; here it runs on {', '.join(self.specs())}"
            )
        self.name = f"torch:{kind}"
        self.device = torch.device(kind)
        self.threads = 0  # torch:cpu's intra-op threads; 0: torch's own count (the CPU does little here)
        if kind == "cpu":
            self.threads = intra_op_threads(declared.DEFAULT if settings is None else settings[declared.THREADS])
            log.info("torch:cpu computes with %d intra-op thread(s) (--device-threads)", self.threads)
        elif ranks is not None:
            self.device = torch.device("cuda", ranks.rank % torch.cuda.device_count())
            torch.cuda.set_device(self.device)
        self.group = None if ranks is None else TorchGroup(ranks, self.device)
        # --cuda-graphs: cached plans run in their static form (static.py), captured on torch:cuda.
        chosen = graphs.mode(settings, self.device)
        self.static = None
        if chosen == declared.ON:
            stream = torch.cuda.Stream(self.device)
            self.static = StaticPlans(self.device, lambda: graphs.Graphed(stream), pools=True)
        elif chosen == declared.UNCAPTURED:
            self.static = StaticPlans(self.device, Eager, pools=False)
        # op -> [kernel calls, seconds in them] over every program's forward pass, for Device.op_seconds.
        # Timing an op costs about 0.2 µs (under 0.1% of a bench/device_step.py step); on torch:cuda it
        # is the time to launch the op's kernels, which run asynchronously.
        self.op_seconds: dict[str, list] = {}

    @staticmethod
    def specs() -> list[str]:
        """The --device values torch runs on here (torch:mps on Apple's Metal, where torch has it)."""
        return ["torch:cpu"] + [
            f"torch:{kind}"
            for kind, there in (("cuda", torch.cuda.is_available()), ("mps", torch.backends.mps.is_available()))
            if there
        ]

    # --- tensors ----------------------------------------------------------------------------------
    def tensor(self, data: bytes | bytearray | memoryview, elem: str, shape: tuple[int, ...]) -> torch.Tensor:
        """An input: integers become int64 (what embedding and cross_entropy index with). float32 in a
        writable buffer (a bytearray, a fetch's memoryview) becomes a tensor on its memory (no copy on torch:cpu). (Not ``_on_this_thread``:
        numpy converts it, torch computes nothing, and the run that reads it gives the thread its count.)"""
        array = np.frombuffer(data, dtype=_DTYPES[elem]).reshape(shape)
        t = torch.from_numpy(array.astype(np.int64 if elem != "f32" else np.float32, copy=not array.flags.writeable))
        # (on the CPU it is there already: to() would give it back, after ~20 µs of a cold dispatch each run)
        return t if self.device.type == "cpu" else t.to(self.device)

    @_on_this_thread
    def param(self, shape: tuple[int, ...], init: dict, seed: int) -> torch.Tensor:
        ((kind, value),) = init.items()
        generator = torch.Generator().manual_seed(seed & 0x7FFF_FFFF_FFFF_FFFF)
        if kind == "values":
            array = np.frombuffer(value, dtype=_DTYPES["f32"]).reshape(shape)  # kept if handed over writable
            t = torch.from_numpy(array if array.flags.writeable else array.copy())
        elif kind == "normal":
            t = torch.empty(shape).normal_(0.0, value, generator=generator)
        elif kind == "uniform":
            t = torch.empty(shape).uniform_(value["low"], value["high"], generator=generator)
        elif kind == "zeros":
            t = torch.zeros(shape)
        else:  # ones
            t = torch.ones(shape)
        return t.to(self.device).requires_grad_(True)

    @_on_this_thread
    def copy(self, t: torch.Tensor) -> torch.Tensor:
        return t.detach().clone()

    @_on_this_thread
    def weighted_sum(self, terms: list[tuple[float, torch.Tensor]]) -> torch.Tensor:
        with torch.no_grad():
            (w, first), *rest = terms
            out = first.detach() * w
            for w, t in rest:
                out.add_(t.detach(), alpha=w)
        return out.requires_grad_(True)

    @_on_this_thread
    def to_bytes(self, t: torch.Tensor) -> bytes:
        return t.detach().to(torch.float32).cpu().contiguous().numpy().astype("<f4", copy=False).tobytes()

    @_on_this_thread
    def save(self, t: torch.Tensor) -> bytes:
        dtype = "<f4" if t.is_floating_point() else "<i8"
        return t.detach().cpu().contiguous().numpy().astype(dtype, copy=False).tobytes()

    def to_scalar(self, t: torch.Tensor) -> float:
        return float(t.item())  # (a tensor of one element, of any shape; item() computes nothing)

    def optimizer(self, kind: str, hyper: dict):
        return (AdamW if kind == "adamw" else SGD)(self.device, **hyper)

    # --- programs ---------------------------------------------------------------------------------
    @_on_this_thread
    def execute(self, plan: Plan, sources: list, wanted: list[int], train: TrainStep | None, keeping: Keeping) -> list:
        if self.static is not None:
            out = self.static.execute(plan, sources, wanted, train, keeping)
            if out is not None:
                return out
        group = self.group if plan.rows else None  # a split run: this rank runs its share of the rows
        values = list(sources) + [None] * len(plan.metas)
        if group is not None:  # this rank's rows of each split input
            rows = plan.batch // group.world
            for i, kind in enumerate(plan.rows[: len(sources)]):
                if isinstance(kind, Rows):
                    values[i] = values[i].narrow(0, group.rank * rows, rows)
        if train is not None:  # only the stepped optimizers' parameters get gradients
            trained = {slot for g in train.groups for _, slot in g.params}
            for i, src in enumerate(plan.sources):
                if src.kind == "param" and i not in trained:
                    values[i] = values[i].detach()
        params = [] if train is None else [values[slot] for g in train.groups for _, slot in g.params]
        # On the CPU the thread that calls backward() runs it, so a hook on each result can take a
        # checkpoint there too; on CUDA a device thread every backward shares runs it: no pausing.
        # Only computed results get one: a hook on a source (a parameter) would outlive the run, and
        # every later run's backward pass would call it again.
        backward_checkpoints = train is not None and self.device.type == "cpu"
        failed = None
        try:
            with torch.no_grad() if train is None else contextlib.nullcontext():
                for step in plan.steps:
                    checkpoint()  # may step aside for another actor's call, or stop past the time limit
                    started = time.perf_counter()
                    value = values[step.out] = call(step, values)
                    if backward_checkpoints and value.grad_fn is not None:
                        value.register_hook(_checkpoint_hook)
                    tally = self.op_seconds.get(step.op)
                    if tally is None:
                        tally = self.op_seconds[step.op] = [0, 0.0]
                    tally[0] += 1
                    tally[1] += time.perf_counter() - started
            # Copies: a parameter read straight back must not change under the step, nor a stored one later.
            out = [values[plan.slot(r)].detach().clone() for r in wanted]
            if train is not None:
                loss = values[plan.slot(train.loss)]
                if not loss.requires_grad:
                    raise DeviceError(f"train: register {train.loss} does not depend on any trained parameter")
                loss.reshape(()).backward()
                checkpoint()  # the last one: the optimizer step below is never cut short
        except Exception as error:  # on a split run, every rank must still reach _combine to hear of it
            if group is None:
                _drop_grads(params)
                raise
            failed, out = str(error), []
        try:
            if group is not None:
                loss = None if train is None or failed else values[plan.slot(train.loss)]
                out, loss_value = self._combine(plan, wanted, out, loss, params, failed)
            elif train is not None:
                loss_value = loss.item()
            if train is not None:
                if not math.isfinite(loss_value):
                    raise DeviceError(f"train: the loss is {loss_value}; nothing was updated")
                self._step(train, values, params)
        finally:
            _drop_grads(params)
        return out

    def _combine(
        self, plan: Plan, wanted: list[int], out: list, loss: torch.Tensor | None, params: list, failed: str | None
    ) -> tuple[list, float]:
        """The whole batch's results from every rank's: one all-reduce of (failures, loss, gradients,
        means) and a gather per split result; the ranks' gradients are averaged. Raises the same error
        on every rank if a rank failed. Returns the results and the whole batch's loss."""
        group = self.group
        assert group is not None, "only a split run combines"
        world = group.world
        kinds = [plan.rows[plan.slot(r)] for r in wanted]
        means = [i for i, k in enumerate(kinds) if k == MEAN]
        sizes = [1, int(bool(params)), *(p.numel() for p in params), *(plan.metas[wanted[i]].numel for i in means)]
        if failed is None:
            flat = [
                torch.zeros(1, device=self.device),
                *([] if loss is None else [loss.detach().reshape(1)]),
                *(torch.zeros(p.numel(), device=self.device) if p.grad is None else p.grad.reshape(-1) for p in params),
                *(out[i].reshape(-1) for i in means),
            ]
            buffer = torch.cat(flat)
        else:
            buffer = torch.zeros(sum(sizes), device=self.device)
            buffer[0] = 1
        group.collective(dist.all_reduce, buffer)
        if buffer[0].item() > 0:
            errors = [None] * world
            group.collective(dist.all_gather_object, errors, failed)
            rank, error = next((r, e) for r, e in enumerate(errors) if e is not None)
            raise DeviceError(error if rank == 0 else f"on rank {rank}: {error}")
        chunks = buffer.split(sizes)
        for p, grad in zip(params, chunks[2 : 2 + len(params)]):
            if p.grad is not None:
                p.grad = (grad / world).view_as(p)
        for i, total in zip(means, chunks[2 + len(params) :]):
            out[i] = (total / world).view(plan.metas[wanted[i]].shape)
        for i, kind in enumerate(kinds):
            if isinstance(kind, Rows):
                every = [torch.empty_like(out[i]) for _ in range(world)]
                group.collective(dist.all_gather, every, out[i].contiguous())
                out[i] = torch.cat(every, kind.dim)
        return out, (chunks[1].item() / world if params else 0.0)

    @staticmethod
    def _step(train: TrainStep, values: list, params: list) -> None:
        groups = [g for g in train.groups if g.params]
        # The clip is by the norm of all the step's gradients: across several optimizers it is applied
        # here, first; one optimizer applies it itself (the Triton AdamW fuses it into its update).
        if train.clip is not None and len(groups) > 1:
            clip_grads(grads_of(params), train.clip)
        clip = train.clip if len(groups) == 1 else None
        for g in groups:
            g.optimizer.step([(name, values[slot]) for name, slot in g.params], g.lr, clip)


def _checkpoint_hook(grad: torch.Tensor) -> None:
    """A gradient hook: a checkpoint in the backward pass (it leaves the gradient as it is)."""
    checkpoint()


def _drop_grads(params: list) -> None:
    for p in params:
        p.grad = None
