"""The host's time: what ``ic0.time`` reads, when the global timer, ``canister_heartbeat`` and a
bounded-wait call's deadline come due.

``Clock("system")`` (``moxzid --clock system``, the default) is the machine's wall clock: timers come
due as it passes them, a heartbeat about once a second. ``Clock("manual", store)`` (``--clock manual``)
stands still at a fixed instant (``MANUAL_START_NS``, or the time a store kept) and moves only when
told: ``advance(ns)`` or ``set(ns)``, which then run what is due by the new time (``run_due``): every
actor's global timer due by then, one heartbeat of every actor that has one, every deadline passed,
and what those set off, until nothing is left to run (``SETTLE_SECONDS`` at most). Time never moves
backward (``ClockError``), and the manual clock's time is kept in the store, so a restart carries on
from it. HTTP's ``POST /clock`` is a thin layer over this object, and an in-process harness (a test
that holds a ``Host``) drives ``host.clock`` the same way.

Within a message ``ic0.time`` is one value (the instance takes it at ``begin``), and from message to
message it never decreases (``message_time``)."""

from __future__ import annotations

import asyncio
import heapq
import itertools
import time
from collections.abc import Callable, Iterable
from typing import Protocol

from ..errors import ClockError
from ..store import Batch, Store

SYSTEM, MANUAL = "system", "manual"
MODES = (SYSTEM, MANUAL)
# Where a manual clock starts on a store that kept no time: 2021-05-10 00:00 UTC, the IC's genesis.
MANUAL_START_NS = 1_620_604_800 * 10**9
# How long run_due waits for what the due tasks set off (self-calls, their answers) to finish: an actor
# that keeps calling for good is left running, and the move answers anyway.
SETTLE_SECONDS = 10.0
MAX_NS = 2**64 - 1  # ic0.time's most
_POLL_SECONDS = 0.002  # how often run_due looks whether everything due has run
_KEY = b"meta/clock"  # the manual clock's time, ns


WAKE = object()  # the message run_due posts each actor: look again what is due


class Ticking(Protocol):
    """An actor as the clock sees it (`actor.Actor`)."""

    def post(self, seq: int | None, message) -> None: ...  # (from any thread)

    def idle(self) -> bool: ...  # runs no system task, and none is due


class Cancellable(Protocol):
    def cancel(self) -> None: ...


class _Deadline:
    """A callback the manual clock runs once it reaches ``at`` (``call_at``)."""

    def __init__(self, at: int, order: int, callback: Callable[[], None]):
        self.at, self.order, self.callback, self.cancelled = at, order, callback, False

    def __lt__(self, other: _Deadline) -> bool:
        return (self.at, self.order) < (other.at, other.order)

    def cancel(self) -> None:
        self.cancelled = True


class Clock:
    def __init__(self, mode: str = SYSTEM, store: Store | None = None):
        if mode not in MODES:
            raise ValueError(f"the clock is {' or '.join(MODES)}, not {mode!r}")
        self.mode = mode
        self._store = store
        kept = store.get(_KEY) if store is not None and mode == MANUAL else None
        self._now = int.from_bytes(kept, "big") if kept else MANUAL_START_NS
        self.moves = 0  # how many times the manual clock moved: each move is a heartbeat's round
        self._deadlines: list[_Deadline] = []
        self._order = itertools.count()  # deadlines at one time run in the order they were set
        self._actors: Callable[[], Iterable[Ticking]] = list
        self._quiet: Callable[[], bool] = lambda: True

    @property
    def manual(self) -> bool:
        return self.mode == MANUAL

    def attach(self, actors: Callable[[], Iterable[Ticking]], quiet: Callable[[], bool]) -> None:
        """The host's actors and whether nothing is left to run (`Host.quiet`), for ``run_due``."""
        self._actors, self._quiet = actors, quiet

    # --- reading -----------------------------------------------------------------------------
    def now_ns(self) -> int:
        return self._now if self.manual else time.time_ns()

    def message_time(self, previous: int) -> int:
        """``ic0.time`` for a message of an instance whose last message had ``previous``: the system
        clock's strictly increases, the manual clock's stands still between moves."""
        if self.manual:
            return max(self._now, previous)
        return max(time.time_ns(), previous + 1)

    def seconds_until(self, at_ns: int) -> float | None:
        """Real seconds until the clock reads ``at_ns`` (0: it has; None: only a move brings it)."""
        if self.manual:
            return 0.0 if at_ns <= self._now else None
        return max(0.0, (at_ns - time.time_ns()) / 1e9)

    # --- deadlines ---------------------------------------------------------------------------
    def call_at(self, loop: asyncio.AbstractEventLoop, at_ns: int, callback: Callable[[], None]) -> Cancellable:
        """Run ``callback`` on ``loop`` once the clock reads ``at_ns`` (call on ``loop``)."""
        if not self.manual:
            return loop.call_later(max(0.0, (at_ns - time.time_ns()) / 1e9), callback)
        deadline = _Deadline(at_ns, next(self._order), callback)
        if at_ns <= self._now:
            loop.call_soon(self._run, deadline)
        else:
            heapq.heappush(self._deadlines, deadline)
        return deadline

    @staticmethod
    def _run(deadline: _Deadline) -> None:
        if not deadline.cancelled:
            deadline.callback()

    # --- moving (the manual clock) -----------------------------------------------------------
    def catch_up(self, seen: Iterable[int]) -> None:
        """Start no earlier than the times instances saw (a store that ran under the system clock):
        time never moves backward for an actor. Before the host starts its actors."""
        if self.manual:
            self._now = max(self._now, *seen, 0)

    async def advance(self, ns: int, *, settle: bool = True) -> int:
        """Move the manual clock ``ns`` nanoseconds on (0: stand still, and run what is due), run what
        is due by then (``run_due``); the time now."""
        if ns < 0:
            raise ClockError(f"time never moves backward: cannot advance by {ns} ns")
        return await self.set(self._checked().now_ns() + ns, settle=settle)

    async def set(self, at_ns: int, *, settle: bool = True) -> int:
        """Move the manual clock to ``at_ns`` (ns since the epoch, not before now), run what is due by
        then (``run_due``); the time now."""
        self._checked()
        if at_ns < self._now:
            raise ClockError(f"time never moves backward: {at_ns} ns is before now, {self._now} ns")
        if at_ns > MAX_NS:
            raise ClockError(f"ic0.time is 64 bits: {at_ns} ns is past its most, {MAX_NS} ns")
        self._now = at_ns
        self.moves += 1
        if self._store is not None:
            batch = Batch()
            batch.put(_KEY, at_ns.to_bytes(16, "big"))
            self._store.commit(batch)
            self._store.flush()
        await self.run_due(settle=settle)
        return self._now

    def _checked(self) -> Clock:
        if not self.manual:
            raise ClockError("the clock is the system's (moxzid --clock system): only --clock manual moves when told")
        return self

    async def run_due(self, *, settle: bool = True) -> bool:
        """Run what is due now: deadlines passed, every actor's due global timer and heartbeat, then
        (``settle``) what they set off, until nothing is left to run; ``SETTLE_SECONDS`` at most.
        Whether all that ran."""
        while self._deadlines and self._deadlines[0].at <= self._now:
            self._run(heapq.heappop(self._deadlines))
        actors = list(self._actors())
        for actor in actors:
            actor.post(None, WAKE)
        give_up = time.monotonic() + SETTLE_SECONDS
        while True:
            await asyncio.sleep(_POLL_SECONDS)
            if all(actor.idle() for actor in actors) and (not settle or self._quiet()):
                return True
            if time.monotonic() >= give_up:
                return False


SYSTEM_CLOCK = Clock()  # the wall clock, for what runs outside a host (a test's lone instance)
