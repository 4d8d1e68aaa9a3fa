"""The device service: ``Device``, the ``moxzi_device_*`` system methods the host calls.

Device work runs on the device's threads, one call at a time, each caller's calls in order; callers
take turns a slice at a time, and a call past its time limit is stopped (``schedule.py``). The device's
state is a pure function of the sequence of calls (caller, method, argument) in the order they ended,
which is what makes it deterministic, recordable and replayable, and a publication is always read
whole. Each call's outcome says whether it changed the device and how long it took: the host records
the changing calls (and bills the time). The methods themselves are in ``methods/``, what they read and
change in ``state.py``, copies of it in ``snapshot.py``.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import math
import time
from collections.abc import Iterator
from typing import Any, BinaryIO

from ..billing import FREE, Purse
from ..candid import DEFAULT_BUDGET, CandidError, Principal, decode_args, encode_args
from ..events import Events
from ..runtime.attachments import Attachment
from ..runtime.device_calls import Staged, SystemMethod, Threaded
from ..runtime.messages import Outcome, Reject
from .budget import tensor_bytes
from .interface import ATTACHED, FETCH, METHOD_PREFIX
from .methods import METHODS, download
from .ops import ELEM_SIZES, DeviceError
from .schedule import NOT_HERE
from .snapshot import read_snapshot, write_snapshot
from .space import Space
from .state import Admission, DeviceState
from .transfer import Transport

log = logging.getLogger("moxzid.device")

# ``usage`` names at most this many of an actor's optimizers (with their steps) and of its publications'
# readers, the first in sorted order, and counts them all: a read-out stays bounded whatever an actor makes.
NAMED = 8


class Device(DeviceState):
    """The tensor device on one backend, with the ops it can run: its calls, read-outs and copies."""

    # A call may step aside for another caller's and be stopped at its time limit. A device whose
    # every rank must run the same calls whole, in the same order (ranks.py), says False.
    interruptible = True
    _replaying = False  # see replay()

    def watch(self, events: Events, names: dict[bytes, str]) -> None:
        """Publish a ``train`` event (moxzi_core.events) for every training step and a ``fetch`` event
        as each fetch's download starts and ends from now on, naming callers by ``names`` (principal ->
        actor name; others by their principal's text)."""
        self.events, self.names = events, dict(names)

    @property
    def runs_on(self) -> str:
        """Its backend's name (``torch:cpu``)."""
        return self.backend.name

    def usage(self) -> dict[str, dict]:
        """What each caller holds, by actor name: counts of ``params``, ``optimizers``, ``stored`` and
        ``publications``, who may read those publications (``readers``: ``"anyone"`` and the names of the
        actors or principals they name, sorted), the ``bytes`` they hold together (optimizers' state
        included: ``optimizer_bytes`` of them, and what the backend keeps between its runs: ``kept`` things,
        ``kept_bytes``, see ``kept.py``), ``counted``, the bytes counted against its budget (its
        optimizers' state at the most it can hold, and what keeping each name costs, see ``budget.py``),
        and ``steps`` by optimizer. ``optimizers``, ``readers`` and ``steps`` name at most ``NAMED``
        each (``optimizer_count``, ``reader_count``: how many there are). Read without waiting for a
        running call (a call in progress may or may not be counted)."""

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
                    "reader_count": 0,
                    "bytes": 0,
                    "counted": self.holdings.by_caller.get(caller, 0),
                    "steps": {},
                    "optimizer_count": 0,
                },
            )

        for caller, space in list(self.spaces.items()):
            params, stored = list(space.params.values()), list(space.stored.values())
            optimizers = dict(space.optimizers)
            optimizer_bytes = sum(getattr(e.state, "held_bytes", lambda: 0)() for e in optimizers.values())
            shown = sorted(optimizers)[:NAMED]
            kept = list(space.kept.values())
            kept_bytes = sum(k.bytes for k in kept)
            entry(caller).update(
                params=len(params),
                optimizers=shown,
                optimizer_count=len(optimizers),
                steps={name: optimizers[name].steps for name in shown if optimizers[name].steps},
                stored=len(stored),
                bytes=sum(tensor_bytes(m) for _, m in params + stored) + optimizer_bytes + kept_bytes,
                optimizer_bytes=optimizer_bytes,
                kept=len(kept),
                kept_bytes=kept_bytes,
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
        for owner, names in readers.items():
            entry(owner).update(readers=sorted(names)[:NAMED], reader_count=len(names))
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
            for caller, flight, started in list(self.fetches.values())
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
        """``{"moxzi_device_run": Threaded(submit(caller, arg, purse) -> Future[Outcome]), ...}`` for
        ``Host(system_methods=)``: each call runs on the device's threads, or (``run_here``) a short one
        on the calling thread (``Schedule.run_here``, ``Schedule.would_run_here``; ``purse``: see
        ``call``)."""

        def method(name):
            def submit(caller: bytes, arg: bytes, purse: Purse | None = FREE):
                return self.schedule.submit(caller, functools.partial(self.call, name, caller, arg, purse))

            def run_here(caller: bytes, arg: bytes, purse: Purse | None = FREE) -> Outcome | None:
                ran = self.schedule.run_here(caller, functools.partial(self.call, name, caller, arg, purse))
                return None if ran is NOT_HERE else ran

            return Threaded(submit, self.schedule.would_run_here, run_here)

        methods: dict[str, SystemMethod] = {METHOD_PREFIX + n: method(METHOD_PREFIX + n) for n in METHODS}
        methods[FETCH] = Staged(functools.partial(download, self))
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
        it may cost (``admit``); ``purse`` None: the call was admitted before (a recorded call re-run,
        a rank following rank 0), so neither applies."""
        handler = METHODS.get(method.removeprefix(METHOD_PREFIX))
        # FETCHED is a fetch's second half: the host runs it with the download, an actor never does;
        # nor IMPORTED, which the host runs with a file sent to moxzid for the actor (weights.py).
        if (
            handler is None
            or not method.startswith(METHOD_PREFIX)
            or (method in ATTACHED and not isinstance(arg, Attachment))
        ):
            return Outcome.reject(Reject.CANISTER_REJECT, f"the device has no method {method!r}")
        label = ATTACHED.get(method, method)  # the actor called fetch
        ftype = self.types.get(method)  # None for the ATTACHED, whose argument is not Candid
        try:  # decoding and encoding need not hold the device
            args = [arg] if ftype is None else self.decoders[method].decode(arg, budget=DEFAULT_BUDGET + len(arg))
        except CandidError as error:
            return Outcome.reject(
                Reject.CANISTER_REJECT, f"{label}: the argument does not match interface.did: {error}"
            )
        limit = None if self._replaying or not self.interruptible else self.limits.call_seconds
        with self.schedule.turn(limit, self.interruptible) as turn:
            space = self.spaces.get(caller) or self.spaces.setdefault(caller, Space())  # (no Space made each call)
            admission = self.begin(purse)
            try:
                result, changed = handler(self, caller, space, *args)
                assert admission.admitted or not changed, f"{method} changed the device without admit"
                if changed and space.kept and space.forget_stale():  # kept for parameters it replaced or deleted
                    admission.recount = True
            except DeviceError as error:
                return _rejected(f"{label}: {error}", admission, turn.seconds())
            except Exception as error:  # a backend failure rejects the call, the device keeps serving
                log.exception("%s from %s failed", label, Principal(caller).to_text())
                return _rejected(f"{label}: the device failed: {error}", admission, turn.seconds())
            finally:
                if admission.admitted:  # counted afresh from the space, never adjusted: nothing can drift
                    held = self.counted(caller) if admission.recount else self.holdings.by_caller.get(caller, 0)
                    self.holdings.done(caller, admission.bytes, held)
            seconds = turn.seconds()
        reply = (
            encode_args([], []) if ftype is None else self.encoders[method].encode([] if result is None else [result])
        )
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

    def add_transport(self, transport: Transport) -> None:
        """Fetch URLs of ``transport.schemes`` through it. Raises DeviceError when another transport
        already claims one of them."""
        taken = [s for s in transport.schemes if s in self.transports]
        if taken:
            raise DeviceError(f"two loaded transports download {', '.join(taken)}:// URLs; choose one with --plugins")
        self.transports.update(dict.fromkeys(transport.schemes, transport))

    # --- copies (snapshot.py) -------------------------------------------------------------------
    @property
    def identity(self) -> str:
        """Besides its calls, what decides the device's contents: its seed (parameters' initial values)."""
        return f"seed {self.seed}"

    def snapshot(self, out: BinaryIO) -> None:
        """Write everything the device holds (every space's parameters, optimizers with their state,
        stored tensors, and the publications) to ``out``, an entry at a time (``snapshot.py``)."""
        write_snapshot(self, out)

    def restore(self, snapshot: BinaryIO) -> None:
        """Replace everything the device holds with a ``snapshot``, read an entry at a time."""
        read_snapshot(self, snapshot)

    def close(self) -> None:
        self.schedule.close()


def _rejected(message: str, admission: Admission, seconds: float) -> Outcome:
    """A reject. One that came after the call was admitted (stopped at its time limit, a loss that is
    not finite, a backend failure) used the device for ``seconds``, and is billed for them as any call."""
    return Outcome(None, Reject.CANISTER_REJECT, message, seconds=seconds if admission.admitted else 0.0)
