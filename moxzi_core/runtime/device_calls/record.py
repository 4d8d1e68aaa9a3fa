"""The record of the device calls that changed the system since its last copy: each such call is
recorded with its answer, in the answer's batch, so a call is either recorded and answered or neither
(then it is still pending for its actor and runs again after a restart). Without a checkpoint policy
(moxzid without ``-s``: nothing outlives the process) nothing is recorded.

A gathered argument too large for memory (an ``Attachment``) is written into the store in parts as it
comes (``Spool``), before the call runs; its record names those parts. They go to disk while the call
runs (``flush_ahead``), so the flush after its answer has only the answer's batch left to write.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Callable
from dataclasses import dataclass

from ...billing import Purse
from ...events import Events
from ...store import Batch, StoreError
from .. import attachments
from ..attachments import Attachment, Spool, TemporarySpool
from ..journal import Journal
from ..messages import Outcome


@dataclass(frozen=True)
class CheckpointPolicy:
    """When to copy the system's state: once the calls recorded since the last copy took ``seconds``
    of system time (0: never by time) or their record passed ``megabytes``; never more often than
    every ``spacing`` copy-durations. And as moxzid stops, once they took ``at_stop`` seconds and longer
    than the last copy took to write (`Copies.worth_at_stop`)."""

    seconds: float = 30.0
    megabytes: float = 64.0
    spacing: float = 10.0
    at_stop: float = 1.0  # (re-running less at the next start-up costs next to nothing)


class Record:
    """The record's place and what it holds since the last copy, and the commit of each answer with its
    record, one at a time and in the record's order."""

    def __init__(self, journal: Journal, policy: CheckpointPolicy | None, lock: threading.Condition, events: Events):
        """``lock`` guards the place and counts below against calls that end on other threads (the calls'
        own, which shares it). ``events`` gets a ``device`` event per answered call."""
        self.journal = journal
        self.policy = policy
        self._lock = lock
        self._events = events
        self.seq = 0  # the next recorded call's place
        self.since_seconds = 0.0  # system time of the calls recorded since the last copy
        self.since_bytes = 0
        self.attached: set[bytes] = set()  # the attachments of the record since the last copy
        # Held from a call's place in the record being taken until its batch is committed: calls that
        # end on several threads at once are committed in the record's order, so a crash leaves no
        # gap in it and a re-run sees what each call saw (one actor's call reading another's publication).
        self._committing = threading.Lock()

    def count(self, seconds: float, arg: bytes | Attachment) -> None:
        """A recorded call took ``seconds`` with ``arg``: it counts toward the next copy."""
        self.since_seconds += seconds
        self.since_bytes += _size(arg)

    def answer(
        self,
        answer: Callable[[Batch, Outcome], None],
        actor: str,
        caller: bytes,
        method_name: str,
        data: bytes | Attachment,
        purse: Purse,
        outcome: Outcome,
    ) -> None:
        """``answer`` a call that ended with ``outcome``, its charge and (if it changed the system) its
        record in the batch; one at a time, so the record is committed in its order."""
        with self._committing:
            batch = Batch()
            purse.settle(batch, outcome.seconds)  # what it held goes back, whatever happened
            recorded = outcome.changed and self.policy is not None
            attached = data.ident if isinstance(data, Attachment) else None
            if recorded or attached is not None:  # (else nothing the lock guards changes)
                with self._lock:
                    if recorded:
                        Journal.system_call(batch, self.seq, caller, method_name, data)
                        self.seq += 1
                        self.count(outcome.seconds, data)
                    if attached is not None:
                        if recorded:
                            self.attached.add(attached)
                        else:
                            attachments.drop(batch, attached)
            self._events.publish(
                "device",
                actor=actor,
                method=method_name,
                seconds=outcome.seconds,
                ok=outcome.reply is not None,
                changed=outcome.changed,
            )
            answer(batch, outcome)

    def spool(self) -> Spool:
        """Where an argument too large for memory is written as it comes: into the store when calls are
        recorded (its record then names its parts), else a temporary file."""
        return self.journal.attachment_writer() if self.policy is not None else TemporarySpool()

    def flush_ahead(self) -> None:
        """Flush the store before a call with a gathered attachment answers (on a thread of its own while
        the call runs): its parts (a 64 MiB fetch's) go to disk meanwhile, not after the answer. A failure
        is left to the flush after the answer, which stops moxzid."""
        with contextlib.suppress(StoreError):
            self.journal.store.flush()

    async def keep(self, attachment: Attachment) -> None:
        """Put a gathered ``attachment`` into the store, if calls are recorded and it is not there yet
        (raises StoreError)."""
        if self.policy is not None and attachment.ident is None:
            await asyncio.to_thread(self.journal.put_attachment, attachment)

    def copied(self, batch: Batch, copy: Attachment) -> None:
        """Make ``copy`` the state's copy at the record's place in ``batch``, dropping the record's
        attachments (the record before it goes with them); once it is committed, ``restart``."""
        self.journal.put_system_checkpoint(batch, self.seq, copy)
        for ident in self.attached:
            attachments.drop(batch, ident)

    def restart(self) -> None:
        """The copy ``copied`` wrote is committed: nothing is recorded since it."""
        self.attached.clear()
        self.since_seconds, self.since_bytes = 0.0, 0


def _size(arg: bytes | Attachment) -> int:
    return arg.size if isinstance(arg, Attachment) else len(arg)
