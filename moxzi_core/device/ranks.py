"""One device on several ranks: replicas that run every call in the same order.

Rank 0 is the device moxzid's actors call. Once it has checked a call and admitted it (within the byte
budget, its cycles reserved: ``DeviceState.admit``), before the call changes anything, it shares the call
with the other ranks (``Group.share``), each of which runs it on its own copy of the device (``follow``,
admitting it as rank 0 did), and after it every rank's outcome must agree (``Group.agree``); a call
refused before that changed nothing anywhere, and the other ranks never see it: parameters, optimizer state, stored tensors and
publications stay identical because the device is a deterministic function of its calls. A run that
splits its batch (``rows.py``) gives each rank a slice and the backend averages the gradients.

The group comes from the backend (``factory(spec, ranks=Ranks(...))``, e.g. torch.distributed). A rank
that dies, stalls past ``Ranks.timeout`` or disagrees breaks the group: from then on every call is
rejected at once, saying why, and copies of the device are refused (rank 0 may hold a change its
record lacks); the actors keep serving everything else. Restarting moxzid re-forms the group and
rebuilds every rank from rank 0's copy and record.
"""

from __future__ import annotations

import ctypes
import hashlib
import logging
import os
import signal
import subprocess
import sys
import tempfile
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import BinaryIO, Protocol

import cbor2

from ..billing import FREE, Purse
from ..runtime.attachments import Attachment
from ..runtime.messages import Outcome, Reject
from .ops import DeviceError
from .service import Device

log = logging.getLogger("moxzid.device")

PART_BYTES = 4 << 20  # a file (a fetched export, a copy being restored) goes to the ranks in parts


@dataclass(frozen=True)
class Ranks:
    """Where this process's device sits in its group."""

    world: int
    rank: int
    host: str  # the rendezvous: rank 0 listens there (torch.distributed's TCP store), the others connect
    port: int  # 0 on rank 0: any free port, which ``listening`` then learns
    timeout: float  # seconds a rank may take to answer before the group counts as broken
    listening: Callable[[str, int], None] | None = None  # rank 0: called once the rendezvous is up


class GroupError(DeviceError):
    """A rank died, stalled or disagreed: the group is broken until it is formed again."""


class Group(Protocol):
    """What a backend provides to run a device on several ranks."""

    rank: int
    world: int
    members: list[str]  # one line per rank: its host, process and device
    broken: str | None  # why the group broke, or None

    def share(self, message: bytes | None) -> bytes:
        """Rank 0 passes ``message`` to every rank; any other rank passes None and gets the next one."""

    def agree(self, digest: bytes) -> None:
        """Returns once every rank passed the same ``digest``; else raises ``GroupError`` (within the
        timeout) and the group stays broken."""

    def close(self) -> None: ...


class ReplicatedDevice(Device):
    """A device whose calls every rank of ``backend.group`` runs (rank 0 calls, the others follow)."""

    interruptible = False  # every rank runs the same calls whole, in the same order: no time limit

    def __init__(self, backend, ops, kernels=(), *, local: LocalRanks | None = None, **options):
        super().__init__(backend, ops, kernels, **options)
        self._lock = threading.RLock()  # held from sharing a call (or a copy) to the ranks' agreeing
        self.group: Group = backend.group
        self.world = self.group.world
        self._local = local
        self._unshared: tuple | None = None  # rank 0's call until admit shares it

    def call(self, method: str, caller: bytes, arg, purse: Purse | None = FREE) -> Outcome:
        with self._lock:
            if self.group.broken is None:
                try:
                    attached = isinstance(arg, Attachment)
                    if attached:  # its parts go first (the handler reads the file too); the call once admitted
                        self._share_file(arg.open())
                    # an attachment's head (a fetch's prefix and source, an import's prefix) goes with the call
                    self._unshared = (method, caller, None, arg.head) if attached else (method, caller, arg)
                    outcome = super().call(method, caller, arg, purse)
                    shared, self._unshared = self._unshared is None, None
                    if attached and not shared:
                        self.group.share(cbor2.dumps(["discard"]))
                    if self.group.broken is None:
                        if shared:
                            self.group.agree(_digest(outcome))
                        return outcome
                except GroupError:
                    pass
            return Outcome.reject(Reject.CANISTER_REJECT, f"{method}: {self.down()}")

    def admit(self, caller: bytes, *, during: int = 0, after: int = 0, work: int = 0) -> None:
        super().admit(caller, during=during, after=after, work=work)
        if self._unshared is not None:  # rank 0, admitted: now the other ranks run it too
            call, self._unshared = self._unshared, None
            self.group.share(cbor2.dumps(["call", *call]))  # an argument None: the parts shared before

    def down(self) -> str:
        return (
            f"the device's group of {self.world} ranks is broken ({self.group.broken}); restart moxzid to form it again"
        )

    def _share_file(self, reader: BinaryIO, spool: BinaryIO | None = None) -> None:
        while chunk := reader.read(PART_BYTES):
            self.group.share(cbor2.dumps(["part", chunk]))
            if spool is not None:
                spool.write(chunk)

    def snapshot(self, out: BinaryIO) -> None:
        if self.group.broken is not None:
            raise DeviceError(f"no copy: {self.down()}")
        super().snapshot(out)

    def restore(self, snapshot: BinaryIO) -> None:
        """Put the copy back on every rank."""
        with self._lock, tempfile.TemporaryFile() as spool:
            if self.group.broken is not None:
                raise DeviceError(self.down())
            self._share_file(snapshot, spool)
            self.group.share(cbor2.dumps(["restore"]))
            spool.seek(0)
            error = _restored(super().restore, spool)
            self.group.agree(hashlib.blake2b(error.encode()).digest()[:16])
            if error:
                raise DeviceError(error)

    def follow(self) -> None:
        """Ranks other than 0: run what rank 0 shares, in order, until it stops (or the group breaks:
        then ``GroupError``)."""
        spool = None
        while True:
            kind, *rest = cbor2.loads(self.group.share(None))
            if kind == "stop":
                return
            if kind == "part":
                spool = spool or tempfile.TemporaryFile()
                spool.write(rest[0])
                continue
            if kind == "discard":  # rank 0 refused the call those parts were for
                if spool is not None:
                    spool.close()
                spool = None
                continue
            if kind == "restore":
                received, spool = spool or tempfile.TemporaryFile(), None  # no parts: an empty file
                received.seek(0)
                error = _restored(super().restore, received)
                received.close()
                self.group.agree(hashlib.blake2b(error.encode()).digest()[:16])
                continue
            method, caller, arg, *head = rest
            if arg is None:  # no parts: empty
                arg, spool = Attachment.of_file(spool or tempfile.TemporaryFile(), head=head[0] if head else b""), None
            outcome = super().call(method, caller, arg, None)  # rank 0 admitted it
            if isinstance(arg, Attachment):
                arg.close()
            self.group.agree(_digest(outcome))

    def close(self) -> None:
        super().close()
        if self.group.rank == 0 and self.group.broken is None:
            try:
                self.group.share(cbor2.dumps(["stop"]))
            except GroupError:
                pass
        if self._local is not None:
            self._local.stop(self.group.broken is None)
        self.group.close()


def _digest(outcome: Outcome) -> bytes:
    """What every rank's outcome of a call must agree on: its reply (or reject) and whether it changed."""
    what = outcome.reply if outcome.reply is not None else f"reject {outcome.reject_message}".encode()
    return hashlib.blake2b(what + bytes([outcome.changed]), digest_size=16).digest()


def _restored(restore: Callable[[BinaryIO], None], spool: BinaryIO) -> str:
    try:
        restore(spool)
        return ""
    except DeviceError as error:
        return str(error)


def _die_with_parent() -> None:
    """In a local rank, before it runs: the kernel kills it when moxzid dies, even mid-rendezvous (where
    it would otherwise wait for a rank 0 that is gone)."""
    if sys.platform == "linux":
        ctypes.CDLL(None).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


class LocalRanks:
    """Ranks 1..world-1 as child processes on this machine: ``moxzid FLAGS --device-rendezvous HOST:PORT
    device-worker RANK``, started once rank 0's rendezvous listens."""

    def __init__(self, flags: list[str], world: int):
        self.flags, self.world = flags, world
        self.processes: list[subprocess.Popen] = []

    def start(self, host: str, port: int) -> None:
        # torch's C++ warnings (a stack trace when rank 0 goes away) would drown the log: errors only
        env = {"TORCH_CPP_LOG_LEVEL": "ERROR", **os.environ}
        for rank in range(1, self.world):
            self.processes.append(
                subprocess.Popen(
                    [
                        sys.executable,
                        "-m",
                        "moxzi_core.daemon",
                        *self.flags,
                        "--device-rendezvous",
                        f"{host}:{port}",
                        "device-worker",
                        str(rank),
                    ],
                    env=env,
                    preexec_fn=_die_with_parent,
                )
            )

    def stop(self, stopping: bool) -> None:
        """Wait for the workers to finish (``stopping``: they were told to), else end them."""
        for process in self.processes:
            try:
                process.wait(10 if stopping else 0.1)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
