"""Converting the gateway's messages between JSON (or Candid text) and Candid, and where that runs.

A message up to ``INLINE_BYTES`` is converted on the event loop (about a millisecond). A larger one is
converted in one of the gateway's codec processes: its cost grows with the message (an 8 MiB reply of
variants takes seconds of pure Python), and on a thread it would hold the GIL, so every other
client would wait on it a little at each turn of the loop. A process holds no lock of ours; it runs at a
lower priority (``CODEC_NICENESS``) so that, when the cores are busy, the daemon's own threads go first,
and within ``CODEC_MEMORY_BYTES`` of address space, so a conversion cannot take the daemon's memory: one
that would need more fails, and with it (most likely) its process. A ``vec variant`` reply takes about
390 bytes a variant: an 8 MiB one, the largest, fits.

The conversions are plain functions of bytes (picklable arguments, picklable errors), so the same
code runs inline and in a process.
"""

from __future__ import annotations

import asyncio
import json
import multiprocessing
import os
import resource
import select
import sys
import threading
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from multiprocessing import resource_tracker
from typing import Any, TypeVar

from moxzi_core.candid import (
    CandidError,
    args_from_json,
    decode_args,
    encode_args,
    parse_args,
    print_values,
    results_to_json,
)
from moxzi_core.errors import MoxziError

# Messages up to this size are converted on the event loop; larger ones in a codec process.
INLINE_BYTES = 64 * 1024
CODEC_PROCESSES = 2
# Added to a codec process's niceness: the event loop and the actors' threads come first.
CODEC_NICENESS = 10
# A codec process's address space: converting an 8 MiB `vec variant` reply, the costliest, takes 2 GiB.
CODEC_MEMORY_BYTES = 3 << 30
# The resource tracker's warnings, as a -W option (a message that starts with this; -W splits at colons).
TRACKER_WARNINGS = "ignore:resource_tracker:UserWarning"
T = TypeVar("T")


class BadBody(MoxziError):
    """The request body cannot be read as what the route takes."""


class BrokenReply(MoxziError):
    """An actor replied with data that does not match its own interface."""

    status = 500


class CodecDied(MoxziError):
    """The codec process converting this message was killed or ran out of memory; the next message gets
    a new one where it died."""

    status = 500


class Codec:
    """Runs conversions for the gateway: small ones at once, large ones in a codec process (started on
    the first large message, at most ``CODEC_PROCESSES``). ``close()`` ends the processes."""

    def __init__(self) -> None:
        self._pool: ProcessPoolExecutor | None = None

    async def run(self, size: int, work: Callable[..., T], *args: Any) -> T:
        """``work(*args)``, whose cost grows with ``size`` bytes; raises what ``work`` raises, or
        CodecDied."""
        if size <= INLINE_BYTES:
            return work(*args)
        pool = self._pool = self._pool or _new_pool()
        try:
            # Submitting may start a process (the first time, the fork server, which imports this
            # module): not on the event loop.
            submitted = await asyncio.to_thread(pool.submit, work, *args)
            return await asyncio.wrap_future(submitted)
        except (BrokenProcessPool, MemoryError) as error:
            if isinstance(error, BrokenProcessPool) and self._pool is pool:
                self._pool = None
            raise CodecDied(
                f"converting this message ({size} bytes) failed: its codec process was killed or ran past "
                f"its {CODEC_MEMORY_BYTES >> 20} MiB"
            ) from None

    def close(self) -> None:
        """End the codec processes, those converting a message too (their callers are gone)."""
        if self._pool is None:
            return
        pool, self._pool = self._pool, None
        # The executor's own shutdown would wait for a conversion under way (seconds), and has no
        # public way to end its processes before Python 3.14 (terminate_workers).
        processes = list((getattr(pool, "_processes", None) or {}).values())
        pool.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            process.terminate()


def _new_pool() -> ProcessPoolExecutor:
    # moxzid runs threads (actors, wasmtime), which a fork would copy mid-flight: the processes are
    # started from a fork server, a clean process that imports this module once.
    _start_quiet_resource_tracker()
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload([__name__])
    return ProcessPoolExecutor(
        CODEC_PROCESSES,
        mp_context=context,
        initializer=_bounded,
        initargs=(CODEC_NICENESS, CODEC_MEMORY_BYTES, os.getpid()),
    )


def _start_quiet_resource_tracker() -> None:
    """Start multiprocessing's resource tracker (if it is not running yet) without its leak warnings.
    The pool's queues hold named semaphores, which the tracker, a process of its own, removes once
    moxzid has ended. After a moxzid killed with SIGKILL (which closes no pool) it warns "There appear to
    be 5 leaked semaphore objects to clean up at shutdown" on the stderr it shares with moxzid, so into
    the log of the moxzid started next: the expected end of a kill, which reads like a fault. The tracker
    takes this process's -W options (``sys.warnoptions``) when it starts."""
    sys.warnoptions.append(TRACKER_WARNINGS)
    try:
        resource_tracker.ensure_running()
    finally:
        sys.warnoptions.remove(TRACKER_WARNINGS)


def _bounded(niceness: int, memory_bytes: int, daemon: int) -> None:
    """(In a new codec process) Run at a lower priority, within ``memory_bytes`` of address space, and
    only as long as process ``daemon`` (the moxzid that started it) runs."""
    os.nice(niceness)
    resource.setrlimit(resource.RLIMIT_AS, (memory_bytes, memory_bytes))
    threading.Thread(target=_exit_after, args=(daemon,), name="moxzi-codec-watch", daemon=True).start()


def _exit_after(daemon: int) -> None:
    """Exit once process ``daemon`` has ended. A moxzid killed with SIGKILL never ends its codec
    processes, and one would wait for work for ever: it holds the writing end of its own work queue, so
    it never sees that queue end (and, holding the fork server's liveness pipe, keeps that alive too)."""
    try:
        ended = os.pidfd_open(daemon)
    except ProcessLookupError:
        os._exit(0)
    except OSError:
        return  # no pidfds here (Linux before 5.3): the process then outlives a moxzid killed with SIGKILL
    select.select([ended], [], [])  # readable once the process has ended
    os._exit(0)


def parse_json(body: bytes, what: str) -> Any:
    """``body`` as JSON; raises BadBody naming ``what`` for a body that is not JSON or nests too
    deeply to parse."""
    try:
        return json.loads(body)
    except ValueError as exc:
        raise BadBody(f"{what}: the body is not JSON: {exc}") from None
    except RecursionError:
        raise BadBody(f"{what}: the body is JSON nested too deeply") from None


def json_arguments(func, body: bytes, what: str) -> bytes:
    """The Candid argument of ``func`` that the JSON ``body`` gives; raises BadBody."""
    value = parse_json(body, what)
    if not isinstance(value, list):
        raise BadBody(f"{what}: the body must be a JSON array of the arguments, got {show(value)}")
    try:
        return args_from_json(func.args, value)
    except CandidError as exc:
        raise BadBody(f"{what}: arguments do not match its type: {exc}") from None


def json_results(func, reply: bytes, what: str) -> bytes:
    """The JSON text (UTF-8) of ``func``'s results in ``reply``; raises BrokenReply."""
    try:
        return json_text(results_to_json(func.rets, reply)).encode()
    except CandidError as exc:  # the actor broke its own interface: our side, not the client's
        raise BrokenReply(f"{what} replied with data that does not match its type: {exc}") from None


def text_arguments(func, body: bytes, what: str) -> bytes:
    """The Candid argument of ``func`` that ``body`` gives in Candid's textual syntax (empty: none);
    raises BadBody, with the line and column of the offending token when it is the syntax or a type."""
    try:
        text = body.decode()
    except UnicodeDecodeError as exc:
        raise BadBody(f"{what}: the body is not UTF-8 text: {exc}") from None
    try:
        return encode_args(func.args, parse_args(text if text.strip() else "()", func.args))
    except CandidError as exc:
        raise BadBody(f"{what}: arguments do not match its type: {exc}") from None


def text_results(func, reply: bytes, what: str) -> bytes:
    """``func``'s results in ``reply`` as Candid text (UTF-8, a line), as ``dfx canister call`` prints
    them; raises BrokenReply."""
    try:
        return (print_values(decode_args(reply, func.rets), func.rets) + "\n").encode()
    except CandidError as exc:
        raise BrokenReply(f"{what} replied with data that does not match its type: {exc}") from None


def json_text(value) -> str:
    # Compact like the seeds' answers: [{"first":5.5,"last":0.87}]
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def show(value: Any) -> str:
    """``value`` as JSON, cut short: a message quotes at most this much of a client's body."""
    shown = json.dumps(value)
    return shown if len(shown) <= 80 else shown[:77] + "..."
