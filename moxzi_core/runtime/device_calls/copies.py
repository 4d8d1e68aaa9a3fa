"""Full copies of the system's state. The state is a deterministic function of the calls that changed
it, in the order they ran; a copy saves re-running a long record: after enough recorded device time or
record size, calls pause, those in flight finish and are recorded, the copy is written into the store
in parts, and one batch makes it the copy, dropping the record before it and the previous copy."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import tempfile
import time
from collections.abc import Callable
from typing import BinaryIO, Protocol

from ...events import Events
from ...readouts import Readouts
from ...store import Batch
from ..attachments import Attachment
from .record import Record

log = logging.getLogger("moxzid")


class SystemState(Readouts, Protocol):
    """What owns the state system methods change (the device), so it can be copied and put back, and
    what it says of itself to those who show it (`readouts.Readouts`, ``Host.system_state``)."""

    def snapshot(self, out: BinaryIO) -> None:
        """Write a copy of the state to ``out``."""

    def restore(self, snapshot: BinaryIO) -> None:
        """Replace the state with a copy ``snapshot`` wrote."""

    def replay(self) -> contextlib.AbstractContextManager[None]:
        """While it is entered, calls re-run the record: each must change what it changed when it was
        recorded (the device lifts its per-call time limit)."""

    @property
    def identity(self) -> str:
        """What else decides the state the recorded calls rebuild (the device's seed), in words; a
        store's record is only re-run on a state of the same identity."""


class Copies:
    """When a copy is due, and taking one."""

    def __init__(self, record: Record, state: SystemState | None, events: Events):
        """``events`` gets a ``checkpoint`` event per copy."""
        self._record = record
        self._state = state
        self._events = events
        self._last_at = 0.0  # time.monotonic() of the last copy
        self._last_seconds = 0.0  # how long it took

    def due(self, ignore_spacing: bool = False) -> bool:
        """Whether what was recorded since the last copy calls for one (and, unless ``ignore_spacing``,
        enough time passed since it)."""
        record, policy = self._record, self._record.policy
        if self._state is None or policy is None:
            return False
        due = (
            policy.seconds > 0 and record.since_seconds >= policy.seconds
        ) or record.since_bytes >= policy.megabytes * 2**20
        spaced = time.monotonic() - self._last_at >= policy.spacing * self._last_seconds
        return due and (spaced or ignore_spacing)

    def worth_at_stop(self) -> bool:
        """Whether a copy as moxzid stops saves the next start-up more than it costs the stop: the calls
        recorded since the last copy took the policy's ``at_stop`` seconds and longer to run than that
        copy took to write (re-running them is what the next start-up would do)."""
        record, policy = self._record, self._record.policy
        if self._state is None or policy is None:
            return False
        return record.since_seconds >= policy.at_stop and record.since_seconds > self._last_seconds

    async def take(self, paused: Callable[[], contextlib.AbstractAsyncContextManager[None]]) -> None:
        """Copy the state while calls are ``paused`` (those in flight recorded), dropping the record
        before it. A copy that fails leaves the record whole: the next call that makes one due tries
        again."""
        record = self._record
        try:
            async with paused():
                started = time.monotonic()
                copy = await asyncio.to_thread(self._write)
                batch = Batch()
                record.copied(batch, copy)
                record.journal.store.commit(batch)
                self._last_at, self._last_seconds = time.monotonic(), time.monotonic() - started
                self._events.publish("checkpoint", seconds=self._last_seconds, bytes=copy.size)
                log.info(
                    "system state copied at call %d: %.1f MB in %.2fs (%.1fs of device time since the last copy)",
                    record.seq,
                    copy.size / 2**20,
                    self._last_seconds,
                    record.since_seconds,
                )
                record.restart()
        except Exception:
            log.exception("copying the system state failed")

    def _write(self) -> Attachment:
        """A copy of the state, through a temporary file into the store."""
        assert self._state is not None, "only a system with state is recorded and copied"
        with tempfile.TemporaryFile() as spool:
            self._state.snapshot(spool)
            copy = Attachment.of_file(spool)
            self._record.journal.put_attachment(copy)
        return copy
