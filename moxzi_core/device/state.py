"""What the device holds and what every method reads of it: ``DeviceState``, the base of ``Device``.

The methods (``methods/``) read and change a ``DeviceState``: the callers' spaces and publications,
the backend with its chosen kernels, the limits and byte budget, and the running counts the console
reads. Before a method changes anything it calls ``admit`` once (the byte budget and the caller's
purse); ``Device.call`` checks that no method changed the device without it. What the backend keeps
between a caller's runs (``kept.py``) counts in the budget and gives way to any call it would refuse.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..billing import CannotPay, Purse
from ..candid import Decoder, Encoder, FuncType, Principal, Record
from ..candid.types import resolve
from ..events import Events
from .backend import Backend
from .budget import (
    TENSOR_BYTES,
    DeviceBudget,
    Holdings,
    OverBudget,
    counted_bytes,
    entries,
    held_bytes,
    publication_bytes,
    tensor_bytes,
)
from .interface import METHOD_PREFIX, method_types
from .kernels import choose_kernels
from .limits import WORK_PER_MS, DeviceLimits
from .ops import DeviceError, Kernel, Meta, Op, Source
from .program import PlanCache
from .schedule import Schedule
from .space import Publication, Space
from .transfer import Exports, InFlight, Transport


@dataclass
class Admission:
    """One call's passage through ``DeviceState.admit``."""

    purse: Purse | None  # what it may spend; None: admitted before (see Device.call)
    admitted: bool = False
    bytes: int = 0  # what the byte budget admitted it to add (Holdings.admit)
    recount: bool = True  # whether what its caller holds is counted afresh as it ends (held_as_before)


class DeviceState:
    """The tensor device's contents on one backend, with the ops it can run (see ``Device``)."""

    def __init__(
        self,
        backend: Backend,
        ops: dict[str, Op],
        kernels: Sequence[Kernel] = (),
        *,
        seed: int = 0,
        limits: DeviceLimits = DeviceLimits(),
        budget: DeviceBudget = DeviceBudget(),
    ):
        if not 0 <= seed < 2**64:
            raise DeviceError(f"device seed {seed}: must be from 0 to 2**64 - 1")
        self.backend, self.seed, self.limits, self.budget = backend, seed, limits, budget
        self.holdings = Holdings()  # what each caller holds, counted from its space
        self._calls = threading.local()  # .admission: the Admission of the call on this thread
        chosen = choose_kernels(backend, ops, kernels)
        self.kernels = {name: fn for name, (fn, _) in chosen.items()}
        self.providers = {name: provider for name, (_, provider) in chosen.items()}  # for `moxzid plugins`
        self.ops = {n: o for n, o in ops.items() if n in self.kernels}
        self.types = method_types({n: o.payload for n, o in self.ops.items()})
        self.decoders = {name: _decoder(name, ftype) for name, ftype in self.types.items()}
        self.encoders = {name: Encoder(ftype.rets) for name, ftype in self.types.items()}  # their results
        self.spaces: dict[bytes, Space] = {}
        self.publications: dict[tuple[bytes, str], Publication] = {}
        self.plans = PlanCache(256)  # generation alone uses one plan per context length
        self.world = 1  # ranks the device's runs are split across (ranks.py)
        self.schedule = Schedule()
        self.events: Events | None = None  # see Device.watch
        self.names: dict[bytes, str] = {}  # principal -> actor name, for events and usage
        self.exports = Exports(backend.save, limits.max_exports)  # served by a transport
        self.transports: dict[str, Transport] = {}  # by URL scheme: Device.add_transport
        self.fetches: dict[int, tuple[bytes, InFlight, float]] = {}  # downloading: see Device.transfers

    def name_of(self, caller: bytes) -> str:
        return self.names.get(caller) or Principal(caller).to_text()

    def begin(self, purse: Purse | None) -> Admission:
        """The admission of the call this thread starts now (``admit`` fills it in)."""
        admission = self._calls.admission = Admission(purse)
        return admission

    def admit(self, caller: bytes, *, during: int = 0, after: int = 0, work: int = 0) -> None:
        """Every method calls this once it has checked everything, before it changes anything: the
        call holds ``during`` more bytes while it runs and ``after`` more once done, and does ``work``
        element operations. Raises DeviceError when that passes the byte budget or the caller cannot
        pay for that much device time (its purse reserves the price)."""
        admission: Admission = self._calls.admission
        if admission.purse is not None:
            for owner in self.exports.retired():  # their exports that stopped serving hold nothing now
                self.holdings.set(owner, self.counted(owner))
            admitted = self._admit_bytes(caller, during, after)
            try:
                admission.purse.reserve(work / WORK_PER_MS)
            except CannotPay as error:
                self.holdings.done(caller, admitted, self.holdings.by_caller.get(caller, 0))
                raise DeviceError(str(error)) from None
            admission.bytes = admitted
        admission.admitted = True

    def _admit_bytes(self, caller: bytes, during: int, after: int) -> int:
        """``Holdings.admit``, where what the backend keeps (``Space.kept``) gives way: a call it would
        keep out drops the caller's kept first and, past the device's total, every caller's, and is
        admitted if it fits then."""
        try:
            return self.holdings.admit(self.budget, caller, during, after)
        except OverBudget as over:
            if not (self._drop_kept([caller]) or (over.total and self._drop_kept(list(self.spaces)))):
                held = held_bytes(self.spaces.get(caller) or Space(), self._owned(caller), self.exports.of(caller))
                holds = ", ".join(f"{what} {n}" for what, n in held.items() if n) or "nothing"
                raise OverBudget(f"{over} (it holds, in bytes: {holds})", over.total) from None
        return self._admit_bytes(caller, during, after)

    def _drop_kept(self, callers: list[bytes]) -> bool:
        """Drop what the backend keeps for ``callers`` (their bytes given back); False if it kept nothing."""
        holding = [c for c in callers if c in self.spaces and self.spaces[c].kept]
        for caller in holding:
            self.spaces[caller].kept.clear()
            self.holdings.set(caller, self.counted(caller))
        return bool(holding)

    def held_as_before(self) -> None:
        """The call under way on this thread changed nothing its caller's bytes are counted from
        (``budget.counted_bytes``: no parameter, optimizer, stored tensor, publication or kept thing
        came, went or changed shape), so its end need not count them afresh: what ``holdings`` has
        for the caller was counted afresh at the end of the call that last changed them."""
        self._calls.admission.recount = False

    def room_for(self, caller: bytes, nbytes: int) -> bool:
        """Whether the call under way on this thread may keep ``nbytes`` more for ``caller`` past its
        end (``Keeping.keep``): admitted as a call's bytes are (the call gives them back as it ends,
        when what the caller holds, these among it, is counted afresh). False: no room."""
        admission: Admission = self._calls.admission
        try:
            admission.bytes += self.holdings.admit(self.budget, caller, 0, nbytes)
        except OverBudget:
            return False
        return True

    def counted(self, caller: bytes) -> int:
        """The bytes ``caller`` holds, counted from its space, publications and exports (budget.py)."""
        return counted_bytes(self.spaces.get(caller) or Space(), self._owned(caller), self.exports.of(caller))

    def _owned(self, caller: bytes) -> list[tuple[str, Publication]]:
        return [(name, p) for (owner, name), p in self.publications.items() if owner == caller]

    def publication_bytes(self, caller: bytes, name: str) -> int:
        """The bytes replacing ``caller``'s publication ``name`` gives back (0 when it has none): all it
        counts, less its tensor while a live export holds it (which then counts as the export's)."""
        found = self.publications.get((caller, name))
        if found is None:
            return 0
        exported = any(t is found.tensor for e in self.exports.of(caller) for _, _, t in e.tensors)
        held = publication_bytes(name, found.meta, found.readers)
        return held - (TENSOR_BYTES + tensor_bytes(found.meta) if exported else 0)

    def room(self, caller: bytes, space: Space, adding: int) -> None:
        """Raises unless ``caller`` (whose space is ``space``) can hold ``adding`` more entries
        (``budget.entries``, ``DeviceLimits.max_entries``)."""
        self.limits.room(entries(space, (p for _, p in self._owned(caller))), adding)

    def source(self, caller: bytes, space: Space, inputs: list[tuple[Any, Meta]], src: Source) -> tuple[Any, Meta]:
        """A source's value (a backend tensor, or input bytes) and type; raises if there is none."""
        if src.kind == "input":
            if src.key >= len(inputs):
                raise DeviceError(f"input {src.key}: the run has {len(inputs)} input(s)")
            return inputs[src.key]
        if src.kind == "param":
            found = space.params.get(src.key)
            if found is None:
                raise DeviceError(f"parameter {src.key!r}: this actor has no parameter by that name")
            return found
        if src.kind == "load":
            found = space.stored.get(src.key)
            if found is None:
                raise DeviceError(f"load {src.key!r}: this actor has stored nothing by that name")
            return found
        owner, name = src.key
        pub = self.publications.get((owner, name))
        if pub is None or not pub.readable_by(owner, caller):
            raise DeviceError(
                f"publication {name!r} of {Principal(owner).to_text()}: there is none this actor may read"
            )
        return pub.tensor, pub.meta

    def trained(self, caller: bytes, optimizer: str, loss: Any, seconds: float) -> None:
        """Count a training step of ``caller``'s ``optimizer`` and publish its ``train`` event."""
        entry = self.spaces[caller].optimizers[optimizer]
        entry.steps = step = entry.steps + 1
        if self.events is not None:
            self.events.publish(
                "train",
                actor=self.name_of(caller),
                optimizer=optimizer,
                step=step,
                loss=float(self.backend.to_scalar(loss)),
                seconds=seconds,
            )

    def fetching(self, caller: bytes, flight: InFlight, phase: str, started: float, error: str | None = None) -> None:
        """Publish a ``fetch`` event as a download starts or ends."""
        if self.events is not None:
            self.events.publish(
                "fetch",
                actor=self.name_of(caller),
                url=flight.url,
                phase=phase,
                bytes=flight.received,
                seconds=time.monotonic() - started,
                error=error,
            )


def _decoder(method: str, ftype: FuncType) -> Decoder:
    """The decoder of a method's arguments. A run's program is remembered: the same every step of a
    training loop, it is decoded once while it repeats (and its plan's key computed once). The rest of
    a run that repeats but for its inputs' bytes and its numbers (a step's batch, its learning rate)
    is read from the decoder's template of the last one (``candid/template.py``)."""
    run = resolve(ftype.args[0]) if method == METHOD_PREFIX + "run" else None
    return Decoder(ftype.args, remember=[run.by_key["program"].type] if isinstance(run, Record) else [])
