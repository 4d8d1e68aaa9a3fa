"""Rebuilding the system's state at start-up: put back the last copy and re-run the calls recorded
after it, before any actor runs."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time

from ...store import Batch, StoreError
from .. import attachments
from ..attachments import Attachment
from .copies import SystemState
from .methods import Staged, SystemMethod
from .record import Record

log = logging.getLogger("moxzid")


async def rebuild(record: Record, methods: dict[str, SystemMethod], state: SystemState | None) -> int:
    """Put back the last copy of ``state`` and re-run the calls ``record`` holds after it with
    ``methods``; how many were re-run. The record's place and counts are then where they were."""
    journal = record.journal
    _check_identity(record, state)
    copy = journal.system_checkpoint()
    start, kept = 0, set()
    if copy is not None:
        start, data = copy
        await asyncio.to_thread(_require(state).restore, data.open())
        kept.add(data.ident)
        log.info("system state restored from its copy at call %d (%.1f MB)", start, data.size / 2**20)
    recorded = journal.system_calls(start)
    record.seq = recorded[-1][0] + 1 if recorded else start
    record.attached = {
        arg.ident for _, (_, _, arg) in recorded if isinstance(arg, Attachment) and arg.ident is not None
    }  # read from the store: set
    unrecorded = set(journal.attachments()) - record.attached - kept  # an unanswered fetch's, a torn copy
    if unrecorded:
        batch = Batch()
        for ident in unrecorded:
            attachments.drop(batch, ident)
        journal.store.commit(batch)
    if not recorded:
        return 0
    log.info("re-running %d recorded system call(s)", len(recorded))
    started = time.perf_counter()
    with contextlib.nullcontext() if state is None else state.replay():
        await _rerun(record, methods, recorded)
    log.info("re-ran %d system call(s) in %.1fs", len(recorded), time.perf_counter() - started)
    return len(recorded)


async def _rerun(record: Record, methods: dict[str, SystemMethod], recorded: list) -> None:
    for seq, (caller, method_name, arg) in recorded:
        method = methods.get(method_name)
        if method is None:
            raise StoreError(
                f"recorded system call {seq} is to {method_name!r}, which no loaded plugin "
                "provides (start moxzid with the same --device)"
            )
        if isinstance(method, Staged):  # only what a Staged method gathered is recorded
            raise StoreError(f"recorded system call {seq} is to {method_name!r}, which gathers first")
        outcome = await method(caller, arg, None)
        if not outcome.changed:
            log.warning(
                "recorded system call %d (%s) changed nothing when re-run: %s",
                seq,
                method_name,
                outcome.reject_message or "no change",
            )
        record.count(outcome.seconds, arg)


def _check_identity(record: Record, state: SystemState | None) -> None:
    """Refuse a store recorded on a system of another identity (re-running its calls would build
    different state); a store without one takes this system's."""
    if state is None or record.policy is None:
        return
    journal = record.journal
    recorded = journal.system_identity()
    if recorded is None:
        journal.set_system_identity(state.identity)
    elif recorded != state.identity:
        raise StoreError(
            f"{journal.store.description}: its device state was recorded on a device with "
            f"{recorded}, and this moxzid's has {state.identity} (start it with the same "
            "--device-seed)"
        )


def _require(state: SystemState | None) -> SystemState:
    if state is None:
        raise StoreError(
            "the state directory holds a copy of a device, but this moxzid has none (start it with the same --device)"
        )
    return state
