"""What became of each update call received over the IC interface, for ``request_status`` reads and so
a request is never run twice (a resent request id finds its first run's status; after a restart, the
host's keyed calls, keyed by the request id, give the first run's outcome: moxzi_core.runtime.replays).

Bounded: at most MAX_REQUESTS ids are remembered, each until it expires (its ``ingress_expiry``; after
that the request would be refused anyway), and at most MAX_REPLY_BYTES of replies; past that the oldest
answered requests keep only the status ``done``, as the IC does once it prunes a reply. Past
MAX_REQUESTS the oldest answered request is forgotten to make room, so one sender making calls fast
cannot fill the table and have every sender's calls refused: a read of it then finds nothing, and a
resend of a call to an actor still does not run again (the host's keyed calls answer it; one to the
management canister would, as after a restart). Only when every remembered request is still
processing is a new one refused.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from dataclasses import dataclass

from .requests import leb128

MAX_REQUESTS = 100_000
MAX_REPLY_BYTES = 64 * 1024 * 1024


@dataclass
class Status:
    sender: bytes
    expiry_ns: int
    canister: bytes  # the request's effective canister id: a delegation's targets must name it to read this
    status: str = "processing"  # then replied, rejected, or done once its reply was dropped
    reply: bytes | None = None
    reject_code: int = 0
    reject_message: str = ""
    error_code: str = ""

    def tree(self) -> dict:
        """The ``request_status/<id>`` subtree: its labels and leaves."""
        tree = {b"status": self.status.encode()}
        if self.status == "replied":
            assert self.reply is not None, "a replied status holds its reply (until it is done)"
            tree[b"reply"] = self.reply
        elif self.status == "rejected":
            tree.update(
                {
                    b"reject_code": leb128(self.reject_code),
                    b"reject_message": self.reject_message.encode(),
                    b"error_code": self.error_code.encode(),
                }
            )
        return tree


class Statuses:
    def __init__(self, capacity: int = MAX_REQUESTS) -> None:
        self.capacity = capacity
        self._by_id: OrderedDict[bytes, Status] = OrderedDict()
        self._reply_bytes = 0

    def get(self, request_id: bytes) -> Status | None:
        return self._by_id.get(request_id)

    def add(self, request_id: bytes, sender: bytes, expiry_ns: int, canister: bytes) -> Status | None:
        """A new status for a request, forgetting the oldest answered one when ``capacity`` are
        remembered; None when all those are still processing."""
        self._forget_expired()
        if len(self._by_id) >= self.capacity and not self._forget_oldest_answered():
            return None
        status = self._by_id[request_id] = Status(sender, expiry_ns, canister)
        return status

    def forget(self, request_id: bytes) -> None:
        """Forget a request just added that is not to run after all."""
        self._forget(request_id)

    def _forget_oldest_answered(self) -> bool:
        """Forget the oldest request no longer processing; False when there is none. The scan passes
        only requests in flight, which the bounds per sender and per actor's inbox limit."""
        for request_id, status in self._by_id.items():
            if status.status != "processing":
                self._forget(request_id)
                return True
        return False

    def _forget(self, request_id: bytes) -> None:
        status = self._by_id.pop(request_id)
        if status.reply is not None:
            self._reply_bytes -= len(status.reply)

    def replied(self, status: Status, reply: bytes) -> None:
        status.status, status.reply = "replied", reply
        self._reply_bytes += len(reply)
        for old in self._by_id.values():
            if self._reply_bytes <= MAX_REPLY_BYTES:
                break
            if old.status == "replied" and old.reply is not None:  # (a replied one has its reply)
                self._reply_bytes -= len(old.reply)
                old.status, old.reply = "done", None

    def _forget_expired(self) -> None:
        # Requests arrive in roughly expiry order (agents ask for now + 5 minutes): drop from the front.
        now = time.time_ns()
        while self._by_id:
            request_id, first = next(iter(self._by_id.items()))
            if first.expiry_ns >= now or first.status == "processing":
                return
            self._forget(request_id)
