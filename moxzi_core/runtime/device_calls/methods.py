"""What a system method is, for the host that runs it (``device_calls.DeviceCalls``) and the plugins
that provide one (the tensor device): one that gathers first (``Staged``), one that runs on threads of
its own (``Threaded``), and the gate that holds back the answer of a call started before the message
that made it was committed (``Gate``)."""

from __future__ import annotations

import asyncio
import concurrent.futures
import threading
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from ...billing import FREE, Purse
from ...store import Batch
from ..attachments import Attachment, Spool
from ..messages import Outcome


@dataclass(frozen=True)
class Staged:
    """A system method that gathers first: ``gather(caller, Candid argument, spool)`` changes nothing
    and gives either a reject or the call ``(method, argument)`` to run in its place (and to record).
    An argument too large for memory it writes through ``spool()`` (``journal.Spool``: into the store
    as it comes, where the host keeps one; else a temporary file)."""

    gather: Callable[[bytes, bytes, Callable[[], Spool]], Awaitable[Outcome | tuple[str, bytes | Attachment]]]


class Threaded:
    """A system method that runs on threads of its own: ``submit(caller, argument, purse)`` starts it
    from any thread and gives a future of its Outcome, which it sets on its thread. ``run_here(caller,
    argument, purse)`` instead runs a short call on the calling thread and gives its Outcome, or
    ``None`` where it would not (the caller then submits it), which ``runs_here(caller)`` tells
    beforehand. The future may have an ``underway`` threading.Event, set once what is left of the
    call runs mostly outside the GIL (``device.schedule.Submitted``). Awaiting the method (``await
    method(caller, argument, purse)``) starts it from the event loop, never on it."""

    def __init__(
        self,
        submit: Callable[[bytes, Any, Any], concurrent.futures.Future],
        runs_here: Callable[[bytes], bool] = lambda caller: False,
        run_here: Callable[[bytes, Any, Any], Outcome | None] = lambda caller, data, purse: None,
    ):
        self.submit = submit
        self.runs_here = runs_here
        self.run_here = run_here

    async def __call__(self, caller: bytes, data: Any, purse: Purse | None = FREE) -> Outcome:
        return await asyncio.wrap_future(self.submit(caller, data, purse))


class Gate:
    """Holds back the answer of a call started before the message that made it is committed
    (``DeviceCalls.start_early``): ``open(answer)`` once the call's record as pending is committed,
    ``cancel()`` when the message is not settled after all (the host stopped it mid-way, an internal
    error); the call then stays unanswered, as one that ends after the host stopped."""

    def __init__(self) -> None:
        self._set = threading.Event()
        self._answer: Callable[[Batch, Outcome], None] | None = None
        self.underway: threading.Event | None = None  # the call's (``Threaded``), once started

    def let_run(self, seconds: float) -> None:
        """Wait, at most ``seconds``, until the call is under way: the thread that started it would
        otherwise take turns at the GIL with the call's own Python before its backend's work, slowing
        both (a hand-off's wake-up and the call's decoding and checks), and goes on once the backend
        works mostly outside it."""
        if self.underway is not None:
            self.underway.wait(seconds)

    def open(self, answer: Callable[[Batch, Outcome], None]) -> None:
        self._answer = answer
        self._set.set()

    def cancel(self) -> None:
        self._set.set()  # (after open: the answer stays)

    def wait(self) -> Callable[[Batch, Outcome], None] | None:
        """The answer to give, once the gate opened; None once it was cancelled."""
        self._set.wait()
        return self._answer


# A system method: (caller principal, argument, purse) -> outcome (a Threaded one too), or a Staged one. The argument is
# Candid, or whatever a Staged method gathered for the method it names (bytes, or an Attachment). The
# purse (billing.Purse) is what the call may spend, reserved before it changes anything; None for a
# recorded call re-run at start-up: it was admitted once, so no budget applies to it again.
SystemMethod = Callable[[bytes, Any, Purse | None], Awaitable[Outcome]] | Staged
