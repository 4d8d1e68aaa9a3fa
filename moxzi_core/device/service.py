"""The device service: every actor's space, publications, and the ``moxzi_device_*`` system methods.

Device work runs on the device's threads, one call at a time, each caller's calls in order; callers
take turns a slice at a time, and a call past its time limit is stopped (``schedule.py``). The device's
state is a pure function of the sequence of calls (caller, method, argument) in the order they ended,
which is what makes it deterministic, recordable and replayable, and a publication is always read
whole. Each call's outcome says whether it changed the device and how long it took: the host records
the changing calls (and bills the time).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hashlib
import logging
import math
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, BinaryIO, Protocol

import cbor2

from ..billing import FREE, CannotPay, Purse
from ..candid import DEFAULT_BUDGET, CandidError, Principal, Some, decode_args, encode_args
from ..events import Events
from ..runtime.journal import Attachment, Spool, TemporarySpool
from ..runtime.messages import Outcome, Reject
from ..runtime.system_calls import Staged, SystemMethod
from . import rows, transfer
from .budget import DeviceBudget, Holdings, counted_bytes, optimizer_bytes, tensor_bytes
from .interface import method_types
from .ops import ELEM_SIZES, FLOAT, DeviceError, Kernel, Meta, Op, Source
from .program import Plan, PlanCache, check
from .schedule import Schedule, checkpoint, device_clock, keep_device

log = logging.getLogger("moxzid.device")

METHOD_PREFIX = "moxzi_device_"
FETCH = METHOD_PREFIX + "fetch"
# What a fetch runs (and is recorded) as, once it downloaded: its argument is an Attachment holding the
# fetch's prefix and the export's bytes (not Candid; not in interface.did), so re-running the record
# stores the same tensors without the network.
FETCHED = METHOD_PREFIX + "fetched"
SNAPSHOT_FORMAT = 3  # a CBOR sequence: an item per entry, and per parameter of an optimizer's state
OPTIMIZER_KINDS = ("adamw", "sgd")  # the `kind` variant of interface.did
# What a backend does per millisecond at least, in element operations (Op.cost): a call's device time
# is expected to be at most its work over this, and that time's price is what it reserves of its
# actor's cycles before it runs.
WORK_PER_MS = 2_000_000


@dataclass(frozen=True)
class DeviceLimits:
    max_dims: int = 8
    max_elements: int = 1 << 28  # per tensor: 1 GiB of float32
    max_input_bytes: int = 256 << 20  # all inputs of one run together
    max_ops: int = 20_000  # per program
    max_name_bytes: int = 256
    max_entries: int = 100_000  # params + stored + publications of one actor
    max_exports: int = 256  # live exports of one actor
    max_fetch_bytes: int = 4 << 30  # one fetch's download
    fetch_seconds: float = 600.0  # one fetch's download, start to end
    call_seconds: float | None = 60.0  # one call's device time (schedule.py); None: no limit


class Optimizer(Protocol):
    def step(self, params: list[tuple[str, Any]], lr: float, clip: float | None = None) -> None:
        """Update the named parameters that have gradients; with ``clip``, first scale their gradients
        together to global L2 norm at most ``clip``."""

    def forget(self, name: str) -> None:
        """Drop the state kept for parameter ``name`` (it was replaced or deleted)."""

    def export(self) -> Iterator[tuple[str, Any]]:
        """Its state for a snapshot, a parameter at a time: (parameter name, plain values: ints, floats,
        bytes, lists), made as they are asked for, so a snapshot holds one parameter's at once."""

    def restore(self, state: Iterable[tuple[str, Any]]) -> None:
        """Replace its state with what ``export`` gave, reading ``state`` to its end (it is read from the
        snapshot as it is consumed)."""

    def held_bytes(self) -> int:
        """The bytes its state holds (moments, momentum buffers). Optional: ``Device.usage`` counts 0
        for an optimizer without it."""


class Backend(Protocol):
    """What a backend plugin provides (``register_backends``). Tensors are opaque to the core."""

    name: str  # e.g. "torch:cpu"
    family: str  # e.g. "torch": which ops' kernels it runs

    def tensor(self, data: bytes | bytearray, elem: str, shape: tuple[int, ...]) -> Any:
        """An input or a stored tensor from little-endian bytes; it may keep a bytearray's memory (the
        caller hands it over)."""

    def param(self, shape: tuple[int, ...], init: dict, seed: int) -> Any: ...
    def copy(self, t: Any) -> Any: ...
    def weighted_sum(self, terms: list[tuple[float, Any]]) -> Any: ...
    def to_bytes(self, t: Any) -> bytes: ...  # little-endian float32
    def save(self, t: Any) -> bytes: ...  # little-endian, float32 or (integer tensors) int64: see tensor()
    def to_scalar(self, t: Any) -> float: ...
    def optimizer(self, kind: str, hyper: dict) -> Optimizer:
        """A new optimizer of ``kind`` (``OPTIMIZER_KINDS``); ``hyper``: beta1, beta2, eps, weight_decay."""

    def execute(self, plan: Plan, sources: list[Any], wanted: list[int], train: TrainStep | None) -> list[Any]:
        """Run ``plan`` on ``sources``; with ``train``, backpropagate, clip and step. Returns the values
        of the registers in ``wanted`` (computed before any step), detached. Call ``checkpoint()``
        (``moxzi_core.device``) between ops, up to the step: other actors' calls run there, and a run
        past its time limit stops there (it raises); without it a run holds the device to its end."""


@dataclass
class TrainGroup:
    optimizer: Optimizer
    lr: float
    params: list[tuple[str, int]]  # (name, source slot) of its parameters the program reads


@dataclass
class TrainStep:
    loss: int  # register
    groups: list[TrainGroup]
    clip: float | None


@dataclass
class OptimizerEntry:
    kind: str
    params: list[str]
    lr: float
    hyper: dict  # beta1, beta2, eps, weight_decay
    state: Optimizer


@dataclass
class _Admission:
    """One call's passage through ``Device._admit``."""

    purse: Purse | None  # what it may spend; None: admitted before (see Device.call)
    admitted: bool = False
    bytes: int = 0  # what the byte budget admitted it to add (Holdings.admit)


@dataclass
class Space:
    """One actor's part of the device."""

    params: dict[str, tuple[Any, Meta]] = field(default_factory=dict)
    optimizers: dict[str, OptimizerEntry] = field(default_factory=dict)
    stored: dict[str, tuple[Any, Meta]] = field(default_factory=dict)


@dataclass
class Publication:
    tensor: Any
    meta: Meta
    readers: None | str | frozenset  # None: the owner alone; "anyone"; or principals' bytes

    def readable_by(self, owner: bytes, caller: bytes) -> bool:
        return (
            caller == owner
            or self.readers == "anyone"
            or (isinstance(self.readers, frozenset) and caller in self.readers)
        )


def _opt(v):
    return v.value if isinstance(v, Some) else v


def _principal(b: bytes) -> str:
    return Principal(b).to_text()


class Device:
    """The tensor device on one backend, with the ops it can run."""

    # A call may step aside for another caller's and be stopped at its time limit. A device whose
    # every rank must run the same calls whole, in the same order (replicas.py), says False.
    interruptible = True

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
        self._calls = threading.local()  # .admission: the _Admission of the call on this thread
        chosen = _choose_kernels(backend, ops, kernels)
        self.kernels = {name: fn for name, (fn, _) in chosen.items()}
        self.providers = {name: provider for name, (_, provider) in chosen.items()}  # for `moxzid plugins`
        self.ops = {n: o for n, o in ops.items() if n in self.kernels}
        self.types = method_types({n: o.payload for n, o in self.ops.items()})
        self.spaces: dict[bytes, Space] = {}
        self.publications: dict[tuple[bytes, str], Publication] = {}
        self.plans = PlanCache(256)  # generation alone uses one plan per context length
        self.world = 1  # ranks the device's runs are split across (replicas.py)
        self.schedule = Schedule()
        self._replaying = False  # see replay()
        self._steps: dict[tuple[bytes, str], int] = {}  # training steps by (caller, optimizer)
        self.events: Events | None = None  # see watch()
        self._names: dict[bytes, str] = {}
        self.exports = transfer.Exports(backend.save, limits.max_exports)  # served by a transport
        self.transports: dict[str, transfer.Transport] = {}  # by URL scheme: add_transport
        self._fetches: dict[int, tuple[bytes, transfer.InFlight, float]] = {}  # downloading: see transfers()
        self._handlers: dict[str, Callable[..., tuple[Any, bool]]] = {
            "params": self._params,
            "optimizer": self._optimizer,
            "run": self._run,
            "publish": self._publish,
            "mix": self._mix,
            "list": self._list,
            "delete": self._delete,
            "export": self._export,
            "fetched": self._fetched,
        }

    def watch(self, events: Events, names: dict[bytes, str]) -> None:
        """Publish a ``train`` event (moxzi_core.events) for every training step and a ``fetch`` event
        as each fetch's download starts and ends from now on, naming callers by ``names`` (principal ->
        actor name; others by their principal's text)."""
        self.events, self._names = events, dict(names)

    def name_of(self, caller: bytes) -> str:
        return self._names.get(caller) or _principal(caller)

    def usage(self) -> dict[str, dict]:
        """What each caller holds, by actor name: counts of ``params``, ``optimizers``, ``stored`` and
        ``publications``, who may read those publications (``readers``: ``"anyone"`` and the names of the
        actors or principals they name, sorted), the ``bytes`` they hold together (optimizers' state
        included: ``optimizer_bytes`` of them), ``counted``, the bytes counted against its budget (its
        optimizers' state at the most it can hold, see ``budget.py``), and ``steps`` by optimizer. Read
        without waiting for a running call (a call in progress may or may not be counted)."""

        held: dict[str, dict] = {}

        def entry(caller: bytes) -> dict:
            return held.setdefault(
                self.name_of(caller),
                {
                    "params": 0,
                    "optimizers": [],
                    "stored": 0,
                    "publications": 0,
                    "readers": [],
                    "bytes": 0,
                    "counted": self.holdings.by_caller.get(caller, 0),
                    "steps": {},
                },
            )

        for caller, space in list(self.spaces.items()):
            params, stored = list(space.params.values()), list(space.stored.values())
            optimizer_bytes = sum(getattr(e.state, "held_bytes", lambda: 0)() for e in list(space.optimizers.values()))
            entry(caller).update(
                params=len(params),
                optimizers=sorted(space.optimizers),
                stored=len(stored),
                bytes=sum(tensor_bytes(m) for _, m in params + stored) + optimizer_bytes,
                optimizer_bytes=optimizer_bytes,
            )
        readers: dict[bytes, set[str]] = {}
        for (owner, _), publication in list(self.publications.items()):
            entry(owner)["publications"] += 1
            entry(owner)["bytes"] += tensor_bytes(publication.meta)
            named = readers.setdefault(owner, set())
            if publication.readers == "anyone":
                named.add("anyone")
            elif isinstance(publication.readers, frozenset):
                named.update(self.name_of(reader) for reader in publication.readers)
        for owner, named in readers.items():
            entry(owner)["readers"] = sorted(named)
        for (caller, optimizer), steps in list(self._steps.items()):
            entry(caller)["steps"][optimizer] = steps
        return held

    def transfers(self) -> dict[str, list[dict]]:
        """What is moving between machines now, read-only: ``exports``, the live ones (``actor``,
        ``url`` with its token redacted, ``tensors``, ``bytes`` of their data, ``uses_left``,
        ``expires_in`` seconds), and ``fetches``, the downloads in flight (``actor``, redacted ``url``,
        ``size`` of the body once announced, else None, ``received`` bytes so far, ``seconds`` since it
        started). Neither is recorded: both are gone after a restart."""
        now = time.monotonic()
        exports = [
            {
                "actor": self.name_of(e.owner),
                "url": url,
                "tensors": len(e.tensors),
                "bytes": sum(ELEM_SIZES.get(m.dtype, 4) * math.prod(m.shape) for _, m, _ in e.tensors),
                "uses_left": e.uses_left,
                "expires_in": max(0.0, e.expires - now),
            }
            for url, e in self.exports.live()
        ]
        fetches = [
            {
                "actor": self.name_of(caller),
                "url": flight.url,
                "size": flight.size,
                "received": flight.received,
                "seconds": now - started,
            }
            for caller, flight, started in list(self._fetches.values())
        ]
        return {"exports": exports, "fetches": fetches}

    def op_seconds(self) -> dict[str, tuple[int, float]]:
        """By op: (kernel calls, seconds in them) over every run's forward pass since the device opened,
        as the backend counts them (its optional ``op_seconds``; none without it). Backward passes and
        optimizer steps are not split by op. Read without waiting for a running call."""
        counted = dict(getattr(self.backend, "op_seconds", {}))
        return {op: (calls, seconds) for op, (calls, seconds) in sorted(counted.items())}

    # --- calls ------------------------------------------------------------------------------------
    def system_methods(self) -> dict[str, SystemMethod]:
        """``{"moxzi_device_run": async (caller, arg, purse) -> Outcome, ...}`` for ``Host(system_methods=)``
        (``purse``: see ``call``)."""

        def method(name):
            async def call(caller: bytes, arg: bytes, purse: Purse | None = FREE) -> Outcome:
                return await asyncio.wrap_future(
                    self.schedule.submit(caller, functools.partial(self.call, name, caller, arg, purse))
                )

            return call

        methods: dict[str, SystemMethod] = {METHOD_PREFIX + n: method(METHOD_PREFIX + n) for n in self._handlers}
        methods[FETCH] = Staged(self._download)
        return methods

    @contextlib.contextmanager
    def replay(self) -> Iterator[None]:
        """Calls made inside re-run the recorded ones: no time limit stops them (each did not stop the
        first time, and must change what it changed then)."""
        self._replaying = True
        try:
            yield
        finally:
            self._replaying = False

    def call(self, method: str, caller: bytes, arg, purse: Purse | None = FREE) -> Outcome:
        """Run one device call to completion on the calling thread, once it has the device (``schedule``:
        it may step aside for other callers' calls, and is stopped past ``DeviceLimits.call_seconds``).
        Before it changes anything it must fit the device's byte budget and ``purse`` must hold what
        it may cost (``_admit``); ``purse`` None: the call was admitted before (a recorded call re-run,
        a rank following rank 0), so neither applies."""
        handler = self._handlers.get(method.removeprefix(METHOD_PREFIX))
        # FETCHED is a fetch's second half: the host runs it with the download, an actor never does.
        if (
            handler is None
            or not method.startswith(METHOD_PREFIX)
            or (method == FETCHED and not isinstance(arg, Attachment))
        ):
            return Outcome.reject(Reject.CANISTER_REJECT, f"the device has no method {method!r}")
        label = FETCH if method == FETCHED else method  # the actor called fetch
        ftype = self.types.get(method)  # None for FETCHED, whose argument is not Candid
        try:  # decoding and encoding need not hold the device
            args = [arg] if ftype is None else decode_args(arg, ftype.args, budget=DEFAULT_BUDGET + len(arg))
        except CandidError as error:
            return Outcome.reject(
                Reject.CANISTER_REJECT, f"{label}: the argument does not match interface.did: {error}"
            )
        limit = None if self._replaying or not self.interruptible else self.limits.call_seconds
        with self.schedule.turn(limit, self.interruptible) as turn:
            space = self.spaces.setdefault(caller, Space())
            admission = self._calls.admission = _Admission(purse)
            try:
                result, changed = handler(caller, space, *args)
                assert admission.admitted or not changed, f"{method} changed the device without _admit"
            except DeviceError as error:
                return _rejected(f"{label}: {error}", admission, turn.seconds())
            except Exception as error:  # a backend failure rejects the call, the device keeps serving
                log.exception("%s from %s failed", label, _principal(caller))
                return _rejected(f"{label}: the device failed: {error}", admission, turn.seconds())
            finally:
                if admission.admitted:  # counted afresh from the space, never adjusted: nothing can drift
                    self.holdings.done(caller, admission.bytes, self._counted(caller))
            seconds = turn.seconds()
        reply = encode_args([] if ftype is None else ftype.rets, [] if result is None else [result])
        return Outcome(reply, changed=changed, seconds=seconds)

    def request(self, method: str, caller: bytes, *args) -> Any:
        """Call with Python values (``moxzi_core.candid``'s value model) instead of Candid bytes: the
        decoded result (None for a method without one), or ``DeviceError`` with the reject message."""
        name = method if method.startswith(METHOD_PREFIX) else METHOD_PREFIX + method
        ftype = self.types[name]
        outcome = self.call(name, caller, encode_args(ftype.args, list(args)))
        if outcome.reply is None:
            raise DeviceError(outcome.reject_message)
        results = decode_args(outcome.reply, ftype.rets)
        return results[0] if results else None

    # --- snapshots ------------------------------------------------------------------------------
    @property
    def identity(self) -> str:
        """Besides its calls, what decides the device's contents: its seed (parameters' initial values)."""
        return f"seed {self.seed}"

    def snapshot(self, out: BinaryIO) -> None:
        """Write everything the device holds (every space's parameters, optimizers with their state,
        stored tensors, and the publications) to ``out`` as a sequence of CBOR items, one per entry, so
        memory holds one entry's bytes at a time. ``restore`` on a device with the same seed and ops
        continues exactly where this one was: the same later calls give the same bytes."""

        def tensor(value, meta: Meta):
            return [meta.dtype, list(meta.shape), self.backend.save(value)]

        def optimizer(caller: bytes, name: str, e: OptimizerEntry) -> None:
            if not hasattr(e.state, "export"):
                raise DeviceError(
                    f"the {e.kind} optimizer {self.providers[f'optimizer:{e.kind}']!r} provides "
                    f"cannot be snapshotted: it has no export()"
                )
            cbor2.dump(["optimizer", caller, name, [e.kind, e.params, e.lr, e.hyper]], out)
            for param, state in e.state.export():
                cbor2.dump(["moments", param, state], out)
            cbor2.dump(["moments end"], out)

        with self.schedule.turn():
            cbor2.dump({"format": SNAPSHOT_FORMAT, "seed": self.seed}, out)
            for caller, space in self.spaces.items():
                cbor2.dump(["space", caller], out)
                for name, pm in space.params.items():
                    cbor2.dump(["param", caller, name, tensor(*pm)], out)
                for name, e in space.optimizers.items():
                    optimizer(caller, name, e)
                for name, sm in space.stored.items():
                    cbor2.dump(["stored", caller, name, tensor(*sm)], out)
            for (owner, name), p in self.publications.items():
                cbor2.dump(["publication", owner, name, [tensor(p.tensor, p.meta), _readers_state(p.readers)]], out)
            cbor2.dump(["end"], out)

    def restore(self, snapshot: BinaryIO) -> None:
        """Replace everything the device holds with a ``snapshot``, read an entry at a time."""
        items = cbor2.CBORDecoder(snapshot)
        head = items.decode()
        if head.get("format") != SNAPSHOT_FORMAT or head.get("seed") != self.seed:
            raise DeviceError(
                f"a snapshot of format {head.get('format')} and device seed {head.get('seed')} "
                f"cannot be restored on format {SNAPSHOT_FORMAT} with seed {self.seed}"
            )

        def tensor(dtype, shape, raw):
            return self.backend.tensor(raw, FLOAT if dtype == FLOAT else "i64", tuple(shape)), Meta(tuple(shape), dtype)

        def optimizer(kind, params, lr, hyper):
            entry = OptimizerEntry(kind, list(params), lr, dict(hyper), self.kernels[f"optimizer:{kind}"](dict(hyper)))
            entry.state.restore(moments())
            return entry

        def moments():  # the items after an optimizer's, up to "moments end", read as restore asks
            while (item := items.decode())[0] == "moments":
                yield item[1], item[2]
            if item != ["moments end"]:
                raise ValueError(f"an optimizer's state ends with {item[0]!r}")

        spaces, publications = {}, {}
        try:
            while (item := items.decode()) != ["end"]:
                kind, owner, *rest = item
                if kind == "space":
                    spaces[owner] = Space()
                elif kind == "param":
                    name, (_, shape, raw) = rest
                    spaces[owner].params[name] = (
                        self.backend.param(tuple(shape), {"values": raw}, 0),
                        Meta(tuple(shape)),
                    )
                elif kind == "optimizer":
                    spaces[owner].optimizers[rest[0]] = optimizer(*rest[1])
                elif kind == "stored":
                    spaces[owner].stored[rest[0]] = tensor(*rest[1])
                elif kind == "publication":
                    name, (t, readers) = rest
                    value, meta = tensor(*t)
                    publications[(owner, name)] = Publication(value, meta, _readers_from_state(readers))
                else:
                    raise ValueError(f"an entry of kind {kind!r}")
        except (cbor2.CBORDecodeError, ValueError, TypeError, KeyError) as error:
            raise DeviceError(f"the snapshot is damaged: {error}") from None
        if snapshot.read(1):
            raise DeviceError("the snapshot is damaged: it goes on after its end")
        with self.schedule.turn():
            self.spaces, self.publications = spaces, publications
            self.holdings.clear()
            for caller in {*spaces, *(owner for owner, _ in publications)}:
                self.holdings.set(caller, self._counted(caller))

    def close(self) -> None:
        self.schedule.close()

    # --- checks -------------------------------------------------------------------------------
    def _name(self, what: str, name: str) -> str:
        if not name or len(name.encode()) > self.limits.max_name_bytes:
            raise DeviceError(f"{what} {name!r}: expected 1 to {self.limits.max_name_bytes} bytes")
        return name

    def _shape(self, what: str, shape) -> tuple[int, ...]:
        shape = tuple(shape)
        if len(shape) > self.limits.max_dims:
            raise DeviceError(f"{what}: {len(shape)} dims; the limit is {self.limits.max_dims}")
        if math.prod(shape) > self.limits.max_elements:
            raise DeviceError(f"{what}: {math.prod(shape)} elements; the limit is {self.limits.max_elements}")
        return shape

    def _room(self, space: Space, adding: int) -> None:
        held = len(space.params) + len(space.stored) + adding
        if held > self.limits.max_entries:
            raise DeviceError(f"the space would hold {held} tensors; the limit is {self.limits.max_entries}")

    def _counted(self, caller: bytes) -> int:
        """The bytes ``caller`` holds, counted from its space and publications (budget.py)."""
        space = self.spaces.get(caller, Space())
        return counted_bytes(space, (p for (owner, _), p in self.publications.items() if owner == caller))

    def _publication_bytes(self, caller: bytes, name: str) -> int:
        """The bytes of ``caller``'s publication ``name`` (0 when it has none)."""
        found = self.publications.get((caller, name))
        return 0 if found is None else tensor_bytes(found.meta)

    def _admit(self, caller: bytes, *, during: int = 0, after: int = 0, work: int = 0) -> None:
        """Every handler calls this once it has checked everything, before it changes anything: the
        call holds ``during`` more bytes while it runs and ``after`` more once done, and does ``work``
        element operations. Raises DeviceError when that passes the byte budget or the caller cannot
        pay for that much device time (its purse reserves the price)."""
        admission: _Admission = self._calls.admission
        if admission.purse is not None:
            admitted = self.holdings.admit(self.budget, caller, during, after)
            try:
                admission.purse.reserve(work / WORK_PER_MS)
            except CannotPay as error:
                self.holdings.done(caller, admitted, self.holdings.by_caller.get(caller, 0))
                raise DeviceError(str(error)) from None
            admission.bytes = admitted
        admission.admitted = True

    # --- moxzi_device_params ------------------------------------------------------------------
    def _params(self, caller: bytes, space: Space, specs: list[dict]):
        made = {}
        for spec in specs:  # check everything before changing anything
            name = self._name("parameter", spec["name"])
            shape = self._shape(f"parameter {name!r}", spec["shape"])
            ((kind, value),) = spec["init"].items()
            if kind == "values" and len(value) != 4 * math.prod(shape):
                raise DeviceError(
                    f"parameter {name!r}: init values has {len(value)} bytes; "
                    f"{list(shape)} float32 needs {4 * math.prod(shape)}"
                )
            if kind == "normal" and not (math.isfinite(value) and value >= 0):
                raise DeviceError(f"parameter {name!r}: normal std is {value}; expected a finite number >= 0")
            if kind == "uniform" and not (
                math.isfinite(value["low"]) and math.isfinite(value["high"]) and value["low"] <= value["high"]
            ):
                raise DeviceError(f"parameter {name!r}: uniform needs finite low <= high, got {value}")
            made[name] = (shape, spec["init"])
        self._room(space, sum(n not in space.params for n in made))
        replaced = Space(
            {**space.params, **{n: (None, Meta(shape)) for n, (shape, _) in made.items()}}, space.optimizers
        )
        self._admit(
            caller,
            after=counted_bytes(replaced, ()) - counted_bytes(Space(space.params, space.optimizers), ()),
            work=sum(math.prod(shape) for shape, _ in made.values()),
        )
        for name, (shape, init) in made.items():
            seed = int.from_bytes(
                hashlib.sha256(b"moxzi init\0%d\0%s\0%s" % (self.seed, caller, name.encode())).digest()[:8], "little"
            )
            space.params[name] = (self.backend.param(shape, init, seed), Meta(shape))
            for entry in space.optimizers.values():
                entry.state.forget(name)
        return None, True

    # --- moxzi_device_optimizer ---------------------------------------------------------------
    def _optimizer(self, caller: bytes, space: Space, spec: dict):
        name = self._name("optimizer", spec["name"])
        missing = [p for p in spec["params"] if p not in space.params]
        if missing:
            raise DeviceError(f"optimizer {name!r}: no parameter named {', '.join(map(repr, missing))}")
        kind = next(iter(_opt(spec["kind"]) or {"adamw": None}))
        hyper = {k: spec[k] for k in ("beta1", "beta2", "eps", "weight_decay")}
        for k, v in (("lr", spec["lr"]), *hyper.items()):
            if not math.isfinite(v) or v < 0:
                raise DeviceError(f"optimizer {name!r}: {k} is {v}; expected a finite number >= 0")
        params = list(dict.fromkeys(spec["params"]))
        old = space.optimizers.get(name)
        self._admit(
            caller,
            after=optimizer_bytes(kind, hyper, (space.params[p][1] for p in params))
            - (0 if old is None else optimizer_bytes(old.kind, old.hyper, (space.params[p][1] for p in old.params))),
        )
        space.optimizers[name] = OptimizerEntry(
            kind, params, spec["lr"], hyper, self.kernels[f"optimizer:{kind}"](hyper)
        )
        return None, True

    # --- moxzi_device_run ---------------------------------------------------------------------
    def _run(self, caller: bytes, space: Space, run: dict):
        inputs = self._inputs(run["inputs"])
        program = run["program"]
        if not program or len(program) > self.limits.max_ops:
            raise DeviceError(f"the program has {len(program)} ops; expected 1 to {self.limits.max_ops}")
        train = _opt(run["train"])
        loss = None if train is None else train["loss"]
        scalars, tensors = run["scalars"], run["tensors"]

        def resolve(src: Source) -> Meta:
            return self._source(caller, space, inputs, src)[1]

        split = self._split(_opt(run.get("split")), len(inputs))
        key = PlanCache.key(program, [m for _, m in inputs], scalars, tensors, loss, split)
        plan = self.plans.get(key)
        values = None if plan is None else self._sources(caller, space, inputs, plan)
        if plan is None or values is None:  # new, or a source changed shape or went away: check it all again
            plan = check(
                program,
                self.ops,
                self.kernels,
                resolve,
                scalars,
                tensors,
                loss,
                self.limits.max_elements,
            )
            if split:
                plan = rows.analyse(plan, split, {n: o.rows for n, o in self.ops.items()})
                if loss is not None:
                    rows.check_loss(plan, loss)
            self.plans.put(key, plan)
            values = self._sources(caller, space, inputs, plan)
            assert values is not None, "a plan just checked finds its sources"
        if plan.batch % self.world:
            raise DeviceError(
                f"split: the batch has {plan.batch} rows, which this device's {self.world} ranks cannot share evenly"
            )
        step = None if train is None else self._train_step(space, plan, train)
        self._room(space, len({name for _, name in plan.stores} - set(space.stored)))
        last_store = {name: r for r, name in plan.stores}  # a name stored twice keeps the later value
        self._admit(
            caller,
            during=plan.peak_bytes,
            after=sum(
                tensor_bytes(plan.metas[r]) - (tensor_bytes(space.stored[n][1]) if n in space.stored else 0)
                for n, r in last_store.items()
            ),
            work=plan.work,
        )
        watched = [] if step is None else [step.loss]  # for the `train` event
        wanted = [*scalars, *tensors, *(r for r, _ in plan.stores), *watched]
        if any(src.kind == "shared" and src.key[0] != caller for src in plan.sources):
            # Another caller's call could replace that publication while this run stood aside, and the
            # record (in the order calls end) would then have this run read the new one.
            keep_device()
        started = device_clock()
        try:
            local = rows.local(plan, self.world) if plan.rows and self.world > 1 else plan
            out = self.backend.execute(local, values, wanted, step)
        except DeviceError:
            raise
        except Exception as error:  # e.g. an id out of range: the backend names the op when it can
            raise DeviceError(str(error)) from None
        if step is not None:
            self._trained(caller, train["optimizer"], out.pop(), device_clock() - started)
        stores = out[len(scalars) + len(tensors) :]
        for (r, name), value in zip(plan.stores, stores):
            space.stored[name] = (value, plan.metas[r])
        result = {
            "scalars": [float(self.backend.to_scalar(v)) for v in out[: len(scalars)]],
            "tensors": [self.backend.to_bytes(v) for v in out[len(scalars) : len(scalars) + len(tensors)]],
            "shapes": [list(plan.metas[r].shape) for r in tensors],
        }
        return result, step is not None or bool(plan.stores)

    @staticmethod
    def _split(split: list[int] | None, n: int) -> list[int]:
        for i in split or []:
            if i >= n:
                raise DeviceError(f"split: input {i} does not exist; the run has {n} input(s)")
        if split and len(set(split)) != len(split):
            raise DeviceError("split: an input is named twice")
        return sorted(split or [])

    def _trained(self, caller: bytes, optimizer: str, loss, seconds: float) -> None:
        key = (caller, optimizer)
        self._steps[key] = step = self._steps.get(key, 0) + 1
        if self.events is not None:
            self.events.publish(
                "train",
                actor=self.name_of(caller),
                optimizer=optimizer,
                step=step,
                loss=float(self.backend.to_scalar(loss)),
                seconds=seconds,
            )

    def _inputs(self, inputs: list[dict]) -> list[tuple[Any, Meta]]:
        total = sum(len(i["data"]) for i in inputs)
        if total > self.limits.max_input_bytes:
            raise DeviceError(f"inputs: {total} bytes; the limit is {self.limits.max_input_bytes}")
        out = []
        for n, i in enumerate(inputs):
            ((elem, _),) = i["elem"].items()
            shape = self._shape(f"inputs[{n}]", i["shape"])
            need = ELEM_SIZES[elem] * math.prod(shape)
            if len(i["data"]) != need:
                raise DeviceError(f"inputs[{n}]: {len(i['data'])} bytes of data, but {elem} {list(shape)} needs {need}")
            out.append((i["data"], Meta(shape, elem)))
        return out

    def _source(self, caller: bytes, space: Space, inputs, src: Source) -> tuple[Any, Meta]:
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
            raise DeviceError(f"publication {name!r} of {_principal(owner)}: there is none this actor may read")
        return pub.tensor, pub.meta

    def _sources(self, caller: bytes, space: Space, inputs, plan: Plan) -> list[Any] | None:
        """The plan's sources now, or None when one is missing or changed type since it was checked."""
        values = []
        for src, meta in zip(plan.sources, plan.source_metas):
            try:
                value, now = self._source(caller, space, inputs, src)
            except DeviceError:
                return None
            if now != meta:
                return None
            values.append(self.backend.tensor(value, meta.dtype, meta.shape) if src.kind == "input" else value)
        return values

    def _train_step(self, space: Space, plan: Plan, train: dict) -> TrainStep:
        names = [train["optimizer"], *(_opt(train["also"]) or [])]
        slots = {src.key: i for i, src in enumerate(plan.sources) if src.kind == "param"}
        groups, owner = [], dict[str, str]()
        for i, name in enumerate(names):
            entry = space.optimizers.get(name)
            if entry is None:
                raise DeviceError(f"train: this actor has no optimizer named {name!r}")
            if name in names[:i]:
                raise DeviceError(f"train: optimizer {name!r} is named twice")
            for p in entry.params:
                if p in owner:
                    raise DeviceError(
                        f"train: parameter {p!r} is in optimizers {owner[p]!r} and {name!r}; a step may update it once"
                    )
                owner[p] = name
            lr = _opt(train["lr"]) if i == 0 and train["lr"] is not None else entry.lr
            if not math.isfinite(lr) or lr < 0:
                raise DeviceError(f"train: lr is {lr}; expected a finite number >= 0")
            groups.append(TrainGroup(entry.state, lr, [(p, slots[p]) for p in entry.params if p in slots]))
        if not any(g.params for g in groups):
            raise DeviceError(f"train: the program reads none of the parameters of {', '.join(map(repr, names))}")
        clip = _opt(train["clip"])
        if clip is not None and not (math.isfinite(clip) and clip > 0):
            raise DeviceError(f"train: clip is {clip}; expected a finite number > 0")
        return TrainStep(train["loss"], groups, clip)

    # --- moxzi_device_publish -----------------------------------------------------------------
    def _publish(self, caller: bytes, space: Space, spec: dict):
        missing = [n for n in spec["names"] if n not in space.params]
        if missing:
            raise DeviceError(f"no parameter named {', '.join(map(repr, missing))}")
        readers = _readers(_opt(spec["readers"]))
        for n in spec["names"]:
            self._name("publication", spec["prefix"] + n)
        fresh = sum((caller, spec["prefix"] + n) not in self.publications for n in spec["names"])
        self._room(space, fresh + sum(1 for owner, _ in self.publications if owner == caller))
        copies = {spec["prefix"] + n: space.params[n][1] for n in spec["names"]}
        self._admit(
            caller,
            after=sum(tensor_bytes(m) - self._publication_bytes(caller, full) for full, m in copies.items()),
            work=sum(m.numel for m in copies.values()),
        )
        for n in spec["names"]:
            tensor, meta = space.params[n]
            self.publications[(caller, spec["prefix"] + n)] = Publication(self.backend.copy(tensor), meta, readers)
        return None, True

    # --- moxzi_device_mix ---------------------------------------------------------------------
    def _mix(self, caller: bytes, space: Space, mixes: list[dict]):
        planned = []
        for m in mixes:  # compute every sum from the values before the call, then assign
            into = self._name("into", m["into"])
            if not m["terms"]:
                raise DeviceError(f"mix into {into!r}: no terms")
            terms, shape = [], None
            for t in m["terms"]:
                owner = _opt(t["owner"])
                if owner is None:
                    found = space.params.get(t["name"])
                    if found is None:
                        raise DeviceError(f"mix into {into!r}: this actor has no parameter {t['name']!r}")
                else:
                    found = self._source(caller, space, [], Source("shared", (owner.bytes, t["name"])))
                tensor, meta = found
                if shape is not None and meta != shape:
                    raise DeviceError(f"mix into {into!r}: {t['name']!r} is {meta} but the first term is {shape}")
                shape = meta
                terms.append((t["weight"], tensor))
            if into in space.params and space.params[into][1] != shape:
                raise DeviceError(f"mix into {into!r}: it is {space.params[into][1]} but the terms are {shape}")
            assert shape is not None  # there are terms
            planned.append((into, terms, shape))
        self._room(space, len({i for i, _, _ in planned} - set(space.params)))
        created = {into: shape for into, _, shape in planned if into not in space.params}
        self._admit(
            caller,
            during=sum(tensor_bytes(shape) for _, _, shape in planned),
            after=sum(tensor_bytes(shape) for shape in created.values()),
            work=sum(shape.numel * len(terms) for _, terms, shape in planned),
        )
        sums = [(into, self.backend.weighted_sum(terms), shape) for into, terms, shape in planned]
        for into, value, shape in sums:
            space.params[into] = (value, shape)
        return None, True

    # --- moxzi_device_export / moxzi_device_fetch (transfer.py) ---------------------------------
    def add_transport(self, transport: transfer.Transport) -> None:
        """Fetch URLs of ``transport.schemes`` through it. Raises DeviceError when another transport
        already claims one of them."""
        taken = [s for s in transport.schemes if s in self.transports]
        if taken:
            raise DeviceError(f"two loaded transports download {', '.join(taken)}:// URLs; choose one with --plugins")
        self.transports.update(dict.fromkeys(transport.schemes, transport))

    def _export(self, caller: bytes, space: Space, spec: dict):
        """Offer publications at a URL. It changes nothing a restart must rebuild: not recorded."""
        names, prefix = spec["names"], spec["prefix"]
        if not names:
            raise DeviceError("names is empty; expected the publications to export")
        if len(set(names)) != len(names):
            raise DeviceError("names lists a publication twice")
        missing = [prefix + n for n in names if (caller, prefix + n) not in self.publications]
        if missing:
            raise DeviceError(f"this actor has no publication named {', '.join(map(repr, missing))}")
        uses = _opt(spec["uses"])
        uses = 1 if uses is None else uses
        if uses < 1:
            raise DeviceError(f"uses is {uses}; expected at least 1")
        seconds = _opt(spec["seconds"])
        seconds = transfer.LIFETIME_SECONDS if seconds is None else seconds
        if not 1 <= seconds <= transfer.LIFETIME_SECONDS:
            raise DeviceError(
                f"seconds is {seconds}; expected 1 to {transfer.LIFETIME_SECONDS} (an export "
                f"serves ten minutes at most)"
            )
        published = [(n, self.publications[(caller, prefix + n)]) for n in names]
        return self.exports.offer(caller, [(n, p.meta, p.tensor) for n, p in published], uses, seconds), False

    async def _download(self, caller: bytes, arg: bytes, spool: Callable[[], Spool] = TemporarySpool):
        """moxzi_device_fetch's first half, on the event loop (no device call waits for the network):
        the FETCHED call to run, with the export downloaded, or a reject."""
        try:
            (spec,) = decode_args(arg, self.types[FETCH].args, budget=DEFAULT_BUDGET + len(arg))
            url = spec["url"]
            scheme, colon, _ = url.partition("://")
            transport = self.transports.get(scheme) if colon else None
            if transport is None:
                known = ", ".join(f"{s}://" for s in self.transports) or "none: no transport plugin is loaded"
                raise DeviceError(f"{transfer.redact(url)}: expected a URL this moxzid can download ({known})")
        except CandidError as error:
            return Outcome.reject(
                Reject.CANISTER_REJECT, f"{FETCH}: the argument does not match interface.did: {error}"
            )
        except DeviceError as error:
            return Outcome.reject(Reject.CANISTER_REJECT, f"{FETCH}: {error}")
        flight, started = transfer.InFlight(transfer.redact(url)), time.monotonic()
        self._fetches[id(flight)] = (caller, flight, started)
        self._publish_fetch(caller, flight, "start", started)
        failure: str | None = "the download was interrupted"  # unless it ends either way below
        try:
            fetched = await transfer.download(
                transport, url, spec["prefix"], self.limits.max_fetch_bytes, self.limits.fetch_seconds, spool, flight
            )
            failure = None
            return FETCHED, fetched
        except DeviceError as failed:
            failure = str(failed)
            return Outcome.reject(Reject.CANISTER_REJECT, f"{FETCH}: {failure}")
        finally:
            del self._fetches[id(flight)]
            self._publish_fetch(caller, flight, "end", started, failure)

    def _publish_fetch(
        self, caller: bytes, flight: transfer.InFlight, phase: str, started: float, error: str | None = None
    ) -> None:
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

    def _fetched(self, caller: bytes, space: Space, fetched: Attachment):
        """Store an export's tensors, once its layout, digest, names and shapes check out, as publications
        of the caller that only it may read, named prefix + name (replacing any of those names). Holds
        one tensor's bytes at a time beyond the tensors it makes."""
        export = transfer.Fetched(fetched.open(), fetched.head)
        names = []
        for name, meta in export.described:
            full = self._name("publication", export.prefix + name)
            self._shape(f"publication {full!r}", meta.shape)
            names.append(full)
        fresh = sum((caller, full) not in self.publications for full in names)
        self._room(space, fresh + sum(1 for owner, _ in self.publications if owner == caller))
        incoming = {full: meta for full, (_, meta) in zip(names, export.described)}
        self._admit(
            caller,
            during=sum(tensor_bytes(m) for m in incoming.values()),
            after=sum(tensor_bytes(m) - self._publication_bytes(caller, full) for full, m in incoming.items()),
            work=sum(m.numel for m in incoming.values()),
        )

        def make(data: bytearray, meta: Meta) -> Any:
            checkpoint()  # nothing is stored before every tensor is made
            return self.backend.tensor(data, FLOAT, meta.shape)

        made = export.tensors(make)
        for full, (_, meta), tensor in zip(names, export.described, made):
            self.publications[(caller, full)] = Publication(tensor, meta, None)
        return None, True

    # --- moxzi_device_list / moxzi_device_delete ------------------------------------------------
    def _list(self, caller: bytes, space: Space):
        entries: list[dict[str, Any]] = [
            {"kind": {"param": None}, "name": n, "shape": list(m.shape), "readers": None}
            for n, (_, m) in sorted(space.params.items())
        ]
        entries += [
            {"kind": {"optimizer": None}, "name": n, "shape": [], "readers": None} for n in sorted(space.optimizers)
        ]
        entries += [
            {"kind": {"stored": None}, "name": n, "shape": list(m.shape), "readers": None}
            for n, (_, m) in sorted(space.stored.items())
        ]
        entries += [
            {
                "kind": {"publication": None},
                "name": n,
                "shape": list(p.meta.shape),
                "readers": Some(_readers_value(p.readers)),
            }
            for (owner, n), p in sorted(self.publications.items())
            if owner == caller
        ]
        return entries, False

    def _delete(self, caller: bytes, space: Space, items: list[dict]):
        tables: dict[str, dict[str, Any]] = {
            "param": space.params,
            "optimizer": space.optimizers,
            "stored": space.stored,
        }
        for item in items:
            ((kind, _),) = item["kind"].items()
            exists = (
                (caller, item["name"]) in self.publications if kind == "publication" else item["name"] in tables[kind]
            )
            if not exists:
                raise DeviceError(f"delete: this actor holds no {kind} named {item['name']!r}")
        self._admit(caller)  # it only gives bytes back
        for item in items:
            ((kind, _),) = item["kind"].items()
            if kind == "publication":
                self.publications.pop((caller, item["name"]), None)
            else:
                tables[kind].pop(item["name"], None)
            if kind == "param":
                for entry in space.optimizers.values():
                    if item["name"] in entry.params:
                        entry.params.remove(item["name"])
                    entry.state.forget(item["name"])
        return None, True


def _rejected(message: str, admission: _Admission, seconds: float) -> Outcome:
    """A reject. One that came after the call was admitted (stopped at its time limit, a loss that is
    not finite, a backend failure) used the device for ``seconds``, and is billed for them as any call."""
    return Outcome(None, Reject.CANISTER_REJECT, message, seconds=seconds if admission.admitted else 0.0)


def _readers(value) -> None | str | frozenset:
    if value is None:
        return None
    ((kind, principals),) = value.items()
    return "anyone" if kind == "anyone" else frozenset(p.bytes for p in principals)


def _readers_state(readers) -> None | str | list:
    return sorted(readers) if isinstance(readers, frozenset) else readers


def _readers_from_state(state) -> None | str | frozenset:
    return frozenset(state) if isinstance(state, list) else state


def _readers_value(readers) -> dict:
    if readers is None:
        return {"principals": []}
    if readers == "anyone":
        return {"anyone": None}
    return {"principals": [Principal(b) for b in sorted(readers)]}


def _guarded(kernel: Kernel, replaced: Callable) -> Callable:
    """``kernel.fn`` where ``kernel.applies``, else the kernel it replaces."""

    def run(p, *operands):
        return kernel.fn(p, *operands) if kernel.applies(p, *operands) else replaced(p, *operands)

    return run


def _choose_kernels(backend: Backend, ops: dict[str, Op], kernels: Sequence[Kernel]) -> dict[str, tuple[Callable, str]]:
    """Each op's kernel on ``backend``, and each optimizer kind's factory (``optimizer:adamw``), with
    who provides it: an override for this exact backend beats one for its family, which beats the op's
    own kernel for the family (or the backend's optimizer). Ops without a kernel here are left out."""
    chosen: dict[str, tuple[int, Callable, str]] = {
        f"optimizer:{kind}": (0, functools.partial(backend.optimizer, kind), backend.name) for kind in OPTIMIZER_KINDS
    }
    for name, op in ops.items():
        if backend.family in op.kernels:
            chosen[name] = (0, op.kernels[backend.family], backend.family)
    for k in kernels:
        if k.backend in (backend.family, backend.name):
            rank = 2 if k.backend == backend.name else 1
            if k.op in chosen and rank >= chosen[k.op][0]:
                chosen[k.op] = (rank, k.fn if k.applies is None else _guarded(k, chosen[k.op][1]), k.provider)
    return {name: (fn, provider) for name, (_, fn, provider) in chosen.items()}
