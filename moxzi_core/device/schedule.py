"""Sharing the device between callers: whose call runs next, when a long call steps aside, and the
per-call time limit.

The policy:

- Each caller's calls run one at a time, in the order they came (``Schedule.submit``). A call whose
  caller's last call took under ``SHORT_SECONDS`` runs on the thread that makes it (an actor's, as
  its message settles: ``Schedule.run_here``), if the device is free, the caller has no call waiting
  and the machine has a core to spare (``Spare``): two thread hand-offs fewer (to a device thread and
  back), and no future. The caller's thread is taken for that long, no longer than a slice or two of other calls.
- One call holds the device at a time (``Schedule.turn``); calls of different callers wait for it in
  line, first come first served.
- A backend calls ``checkpoint()`` between ops. There a call that has held the device for a slice
  (``SLICE_SECONDS``) while another call waits steps aside to the back of the line and goes on when
  its turn comes again. So callers take turns a slice at a time (round robin), and a short call waits
  for about a slice of each call ahead of it, however long those calls are.
- A call's device time counts only its own turns. Past its limit, its next checkpoint raises
  ``TimeLimit``; the device changes nothing until a run's last checkpoint, so a stopped call changed
  nothing.

Nothing a call reads changes while it stands aside (``methods/run.py`` keeps the device for a run that
reads another caller's publication), and what it changes only the caller's later calls read; so the
state is the same as if every call had run whole, in the order they ended, which is the order the host
records them in.
"""

from __future__ import annotations

import os
import threading
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

from .ops import DeviceError

SLICE_SECONDS = 0.002  # a yield costs ~0.1 ms of thread switching: at most ~5% of a long call's time
SHORT_SECONDS = 0.005  # a call of a caller whose last call took less may run on the submitting thread
LOAD_SECONDS = 0.1  # how often Spare counts the machine's runnable threads
THREADS = 32  # callers whose calls are under way at once; beyond that a caller waits for a thread

NOT_HERE = object()  # ``Schedule.run_here``: the call was not run on this thread
_current = threading.local()  # .turn: the Turn this thread holds the device for, if any; .call: its Submitted


class Submitted(Future):
    """A submitted call's future, which also tells when the call is under way (``underway`` is set):
    its backend took its first step, or it waits in line behind another caller's call, or it ended.
    What is left of a run then is mostly the backend's work, much of it outside the GIL, so a thread
    that submitted it early (``DeviceCalls.start_early``) may go on with its own Python then without
    slowing the call's Python before it."""

    def __init__(self) -> None:
        super().__init__()
        self.underway = threading.Event()


class TimeLimit(DeviceError):
    """A call ran past its device time limit and was stopped at a checkpoint."""


class Turn:
    """One call's hold on the device (``Schedule.turn``): a context manager, entered once."""

    def __init__(self, schedule: Schedule, limit: float | None, may_yield: bool):
        self.schedule, self.limit, self.may_yield = schedule, limit, may_yield
        self.began = self.slice_began = 0.0  # time.perf_counter(): first got the device, and last
        self.aside = 0.0  # seconds it has stood aside for others since it began
        self.call: Submitted | None = getattr(_current, "call", None)  # the call it is for, until underway

    def seconds(self) -> float:
        """The call's device time so far: since it got the device, less the time it stood aside."""
        return time.perf_counter() - self.began - self.aside

    # (a class, not a @contextmanager generator: entered around every device call, and a cached
    # plan's call is short enough that the generator's frames and its wrapper show)
    def __enter__(self) -> Turn:
        schedule = self.schedule
        with schedule._cond:
            if self.call is not None and (schedule._holder is not None or schedule._line):
                self.call.underway.set()  # it waits for another's call: nothing to keep from it meanwhile
            schedule._wait(self)
        self.began = self.slice_began
        _current.turn = self
        return self

    def __exit__(self, *exc: object) -> None:
        _current.turn = None
        schedule = self.schedule
        with schedule._cond:
            schedule._holder = None
            if schedule._line:  # (who waits for the device is in line: `_wait`)
                schedule._cond.notify_all()


class Spare:
    """Whether the machine has a core to spare: the threads runnable besides the one asking (Linux's
    count in /proc/loadavg, taken once a ``LOAD_SECONDS`` and averaged over about half a second;
    elsewhere the load average) fewer than its cores less a half.

    Only then does a short call run on its caller's thread. On an idle machine that saves the two
    wake-ups a call, each on a core that had gone idle. On a busy one it loses, though it takes less
    CPU: the one thread that runs the callback, its settle and the device call back to back (~1.5 ms
    for letters) is preempted in the middle of them (0.6 to 0.9 times a call, then waits runnable 0.5
    to 5 times as long as it ran), where each of the hand-offs' two threads runs a shorter burst after
    a wake-up and waits mostly for the other (schedstat of both, side by side, at load 3 to 7 on 2
    cores). The count is taken as a call is submitted, when the caller's device thread is idle: the
    minute's load average, and Linux's CPU pressure, count what the hand-offs themselves cause (their
    two threads keep the pressure at ~33% on an otherwise idle machine). Not locked: two threads
    updating the average at once lose a sample."""

    def __init__(self, cores: int | None = None) -> None:
        """``cores``: the machine's; by default those this process may run on."""
        if cores is None:
            cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
        self.cores = cores
        self._read_at = -LOAD_SECONDS
        self._others = float(self.cores)  # runnable threads besides the caller's, averaged

    def __call__(self) -> bool:
        now = time.monotonic()
        if now - self._read_at >= LOAD_SECONDS:
            self._read_at = now
            self._others += 0.2 * (_runnable_others() - self._others)
        return self._others < self.cores - 0.5


def _runnable_others() -> float:
    try:
        with open("/proc/loadavg") as loadavg:  # 0.84 1.93 1.76 1/85 23095: runnable/all, this one included
            return int(loadavg.read().split()[3].split("/")[0]) - 1
    except (OSError, IndexError, ValueError):
        return os.getloadavg()[0]


class Schedule:
    """The device's line (the policy above): ``submit`` runs a caller's calls in order on the device's
    threads, ``turn`` holds the device around one call's work."""

    def __init__(self) -> None:
        self.slice_seconds = SLICE_SECONDS  # (a test sets 0: a call steps aside at every checkpoint)
        self._cond = threading.Condition()
        self._line: deque[Turn] = deque()  # calls waiting for the device, in the order they get it
        self._holder: Turn | None = None
        # Per caller: its calls not yet over, in order (a call ``run_here`` runs: no future)
        self._queues: dict[bytes, deque[tuple[Callable[[], Any], Submitted | None]]] = {}
        self._short: set[bytes] = set()  # callers whose last call took under SHORT_SECONDS
        self.spare = Spare()  # (a test replaces it)
        self._pool = ThreadPoolExecutor(THREADS, thread_name_prefix="moxzi-device")

    def submit(self, caller: bytes, call: Callable[[], Any]) -> Submitted:
        """Run ``call()`` on a device thread after every call ``caller`` submitted before; its result."""
        future = Submitted()
        with self._cond:
            queue = self._queues.setdefault(caller, deque())
            queue.append((call, future))
            if len(queue) == 1:
                self._pool.submit(self._serve, caller)
        return future

    def run_here(self, caller: bytes, call: Callable[[], Any]) -> Any:
        """``call()``'s result (or what it raises), run on this thread now, if the device is free,
        ``caller`` has no call waiting or running, its last call was short (``SHORT_SECONDS``) and the
        machine has a core to spare (``Spare``); else ``NOT_HERE``, nothing run. No future, no thread:
        the caller's thread goes on with the result (a device call's answer: `DeviceCalls.start`)."""
        if not self.would_run_here(caller):  # (read without the lock first, and again with it)
            return NOT_HERE
        with self._cond:
            if caller in self._queues or self._holder is not None or self._line:
                return NOT_HERE
            self._queues[caller] = deque([(call, None)])  # running: what ``caller`` submits meanwhile waits
        started = time.perf_counter()
        try:
            return call()
        finally:
            if self._leave(caller, started):  # calls came in behind it meanwhile: a device thread runs them
                self._pool.submit(self._serve, caller)

    def would_run_here(self, caller: bytes) -> bool:
        """Whether ``run_here(caller, ...)`` may run the call on this thread: its caller's calls are
        short and a core is spare. (Not whether the device is free now: the caller's last call, just
        answered, may still be leaving it, and ``run_here`` looks again.)"""
        return caller in self._short and self.spare()

    def _serve(self, caller: bytes) -> None:
        """Run ``caller``'s calls in order until none is left (one thread per caller meanwhile)."""
        while self._run_first(caller):
            pass

    def _run_first(self, caller: bytes) -> bool:
        """Run the first of ``caller``'s calls; whether more are waiting."""
        with self._cond:
            call, future = self._queues[caller][0]
        assert future is not None, "a call run_here runs is never a device thread's"
        if future.set_running_or_notify_cancel():
            started = time.perf_counter()
            _current.call = future
            try:
                result = call()
            except BaseException as error:  # the future carries it to the awaiting caller
                with self._cond:
                    self._timed(caller, started)
                future.set_exception(error)
            else:
                with self._cond:
                    self._timed(caller, started)
                future.set_result(result)
            finally:
                _current.call = None
                future.underway.set()
        return self._leave(caller)

    def _leave(self, caller: bytes, started: float | None = None) -> bool:
        """``caller``'s first call is over (begun at ``started``, if not timed yet) and leaves its line;
        whether more of its calls wait."""
        with self._cond:
            if started is not None:
                self._timed(caller, started)
            queue = self._queues[caller]
            queue.popleft()
            if queue:
                return True
            del self._queues[caller]
            return False

    def _timed(self, caller: bytes, started: float) -> None:
        """(Under the lock) whether ``caller``'s next call counts as short, by its call begun at ``started``."""
        if time.perf_counter() - started < SHORT_SECONDS:
            self._short.add(caller)
        else:
            self._short.discard(caller)

    def turn(self, limit: float | None = None, may_yield: bool = True) -> Turn:
        """``with schedule.turn(...) as turn:`` holds the device for one call on this thread: waits in
        line for it, keeps it (less the times the call steps aside at checkpoints, when ``may_yield``),
        gives it up at the end. ``limit``: seconds of device time, after which a checkpoint raises
        ``TimeLimit``; None: none."""
        return Turn(self, limit, may_yield)

    def _wait(self, turn: Turn) -> None:
        """Under the lock: join the line and return holding the device."""
        self._line.append(turn)
        while self._holder is not None or self._line[0] is not turn:
            self._cond.wait()
        self._line.popleft()
        self._holder = turn
        turn.slice_began = time.perf_counter()

    def _step_aside(self, turn: Turn, now: float) -> None:
        with self._cond:
            self._holder = None
            self._cond.notify_all()
            self._wait(turn)
        turn.aside += turn.slice_began - now

    def close(self) -> None:
        self._pool.shutdown(wait=True)


def checkpoint() -> None:
    """Between two pieces of a call's device work (a backend calls it before each op): the call may
    step aside here for another caller's call, and raises ``TimeLimit`` once past its time limit. Call
    it only where stopping changes nothing and where nothing the call holds would block another call.
    Outside a call (no ``Schedule.turn`` on this thread) it does nothing."""
    turn: Turn | None = getattr(_current, "turn", None)
    if turn is None:
        return
    if turn.call is not None:
        turn.call.underway.set()
        turn.call = None
    now = time.perf_counter()
    if turn.limit is not None and now - turn.began - turn.aside > turn.limit:
        raise TimeLimit(
            f"stopped after {now - turn.began - turn.aside:.2f} s of device time; a call may take "
            f"{turn.limit:g} s (--device-call-secs), and nothing was changed"
        )
    schedule = turn.schedule
    if turn.may_yield and schedule._line and now - turn.slice_began >= schedule.slice_seconds:
        schedule._step_aside(turn, now)


def device_clock() -> float:
    """Seconds on a clock that stands still while the current call stands aside (``time.perf_counter``
    outside a call): the difference of two readings is the call's device time between them."""
    turn: Turn | None = getattr(_current, "turn", None)
    return time.perf_counter() if turn is None else turn.seconds()


def keep_device() -> None:
    """The current call keeps the device to its end: it never steps aside (it reads something another
    caller's call could change meanwhile). Its time limit still holds."""
    turn: Turn | None = getattr(_current, "turn", None)
    if turn is not None:
        turn.may_yield = False
