"""A device's group of ranks over torch.distributed: gloo on torch:cpu, NCCL on torch:cuda.

Rank 0 runs the rendezvous, torch.distributed's TCP store, on ``Ranks.host:port``; the others connect
to it. Calls travel through the store (``share``): a rank waiting for the next call waits there, with no
collective open, so an idle group never times out, and a rank whose rank 0 died sees the store go away
and stops. Collectives (``agree``, and a split run's gradients) run in a process group with
``Ranks.timeout``: a rank that died or stalls makes them fail within it, which breaks the group.
"""

from __future__ import annotations

import os
import re
import socket
from datetime import timedelta

import torch
import torch.distributed as dist

from moxzi_core.device import GroupError, Ranks

FORM_SECONDS = 600  # how long ranks may take to join (another machine's worker is started by hand)
IDLE_WAIT = timedelta(hours=1)  # a rank waiting for the next call re-waits after this


class TorchGroup:
    """One process's membership of the group (``moxzi_core.device.ranks.Group``)."""

    def __init__(self, ranks: Ranks, device: torch.device):
        self.rank, self.world, self.device = ranks.rank, ranks.world, device
        self.broken: str | None = None
        self._timeout = ranks.timeout
        self._next = 0  # the next shared message's number
        self._unread: list[str] = []  # rank 0: messages some rank may not have read yet
        try:
            self._store = dist.TCPStore(
                ranks.host,
                ranks.port,
                ranks.world,
                is_master=ranks.rank == 0,
                timeout=timedelta(seconds=FORM_SECONDS),
                wait_for_workers=False,
            )
            if ranks.rank == 0 and ranks.listening is not None:
                ranks.listening(ranks.host, self._store.port)
            dist.init_process_group(
                "nccl" if device.type == "cuda" else "gloo",
                rank=ranks.rank,
                world_size=ranks.world,
                store=dist.PrefixStore("group", self._store),
                timeout=timedelta(seconds=FORM_SECONDS),
            )
            self._work = dist.new_group(timeout=timedelta(seconds=ranks.timeout))
            self._store.set(f"member/{self.rank}", f"{socket.gethostname()} pid {os.getpid()} {device}")
            self.members = [self._store.get(f"member/{r}").decode() for r in range(self.world)]
        except (RuntimeError, dist.DistError) as error:
            raise GroupError(
                f"the device's {ranks.world} ranks did not form a group at {ranks.host}:{ranks.port}: {error}"
            ) from None

    # --- calls, through the store ----------------------------------------------------------------
    def share(self, message: bytes | None) -> bytes:
        key = f"call/{self._next}"
        self._next += 1
        try:
            if self.rank == 0:
                assert message is not None, "rank 0 says what the others run"
                self._store.set(key, message)  # type: ignore[arg-type]  # torch's stub says str; it takes bytes
                self._unread.append(key)
                return message
            while True:
                try:
                    self._store.wait([key], IDLE_WAIT)
                    return self._store.get(key)
                except dist.DistNetworkError:
                    raise
                except dist.DistStoreError as error:
                    if "timeout" not in str(error).lower():
                        raise
        except (RuntimeError, dist.DistError) as error:
            raise self.fail(f"the rendezvous at rank 0 is gone: {_first_line(error)}") from None

    def agree(self, digest: bytes) -> None:
        mine = torch.frombuffer(bytearray(digest), dtype=torch.uint8).to(self.device)
        every = [torch.empty_like(mine) for _ in range(self.world)]
        self.collective(dist.all_gather, every, mine)
        differ = [r for r, d in enumerate(every) if not torch.equal(d, every[0])]
        if differ:
            raise self.fail(
                f"rank(s) {', '.join(map(str, differ))} got another result than rank 0: the replicas diverged"
            )
        if self.rank == 0:  # every rank has read every message so far
            for key in self._unread:
                self._store.delete_key(key)
            self._unread.clear()

    # --- collectives -------------------------------------------------------------------------------
    def collective(self, fn, *args) -> None:
        """``fn(*args, group=...)`` in the work group; a failure (a rank died, or stalled past the
        timeout) breaks the group."""
        try:
            fn(*args, group=self._work)
        except (RuntimeError, dist.DistError) as error:
            raise self.fail(
                f"a rank did not answer within {self._timeout:g} s (it died or stalled): {_first_line(error)}"
            ) from None

    def fail(self, why: str) -> GroupError:
        if self.broken is None:
            self.broken = why
        return GroupError(why)

    def close(self) -> None:
        if dist.is_initialized():
            dist.destroy_process_group()


def _first_line(error: Exception) -> str:
    """The gist of a torch.distributed error: its first sentence, without the source location."""
    text = re.sub(r"^\[[^\]]*\]\s*", "", str(error).strip())
    return text.splitlines()[0].split(". ")[0][:300] if text else type(error).__name__
