"""What the calls from outside held in actors' inboxes (queued or running) may come to: how many per
actor (``--max-queued-calls``), their bytes per actor (``--max-queued-mb``) and their bytes in all
actors together (``--total-queued-mb``).

A call from outside is an update call from a client or a management call from one acting on an actor
(``messages.from_outside``); its bytes are its argument and, for install_chunked_code, the module put
together from the chunk store. Each is recorded in its actor's inbox (the store) and held in memory
until it is consumed, so without these bounds clients could make moxzid hold 500 calls of
``--max-message-bytes`` per actor, in every actor. The IC bounds the same things: a canister's input
queue holds 500 messages (ic-replicated-state, DEFAULT_QUEUE_CAPACITY), a replica's ingress pool a
number of bytes per peer (ic-artifact-pool, ``ingress_pool_max_bytes``; past it its HTTP endpoint
answers 503, "Service is overloaded, try again later"), and a subnet's messages 25 GiB together
(ic-config, SUBNET_MESSAGE_MEMORY_CAPACITY).

A call past a bound is refused before it is recorded; its caller may retry once calls were answered.
A call larger than a byte bound by itself is taken when the inboxes it counts in hold no call from
outside (its actor's for ``--max-queued-mb``, all for ``--total-queued-mb``): no call is refused for
ever, and what is held passes a byte bound by at most that one call (or as a restart with lower bounds
restored it).

Before a call reaches an inbox, a gateway holds each of its clients to a number of calls in flight
(``CallsPerClient``), by whatever names a client there: a remote address, a sender principal."""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Hashable

from .messages import FromOutside, Origin, Outcome, Reject

MiB = 1 << 20
# How many calls from outside an actor's inbox may hold, queued or running, by default. The IC bounds a
# canister's input queues the same way: its DEFAULT_QUEUE_CAPACITY is 500, and a message for a full
# queue fails with StateError::QueueFull, "Maximum queue capacity 500 reached", which a caller sees as
# ErrorCode::CanisterQueueFull (IC0201), reject code SYS_TRANSIENT (ic-replicated-state,
# ic-error-types). A caller refused so may retry.
MAX_QUEUED_CALLS = 500
# Their bytes per actor, by default: 16 arguments of the largest size (--max-message-bytes, 8 MiB), and
# more than the largest module install_chunked_code puts together (100 chunks of 1 MiB) with its argument.
MAX_QUEUED_MB = 128
# Their bytes in all actors together, by default: eight actors' full inboxes. Held in RAM until
# consumed (and in the store), beside the actors' wasm memory (--total-memory-mb).
TOTAL_QUEUED_MB = 1024


class InboxBounds:
    """The calls from outside each actor's inbox holds, by inbox place, with their bytes; and the
    refusal of one more past a bound. Thread-safe: the event loop holds calls as they are recorded,
    actors' threads release them as they are consumed."""

    def __init__(self, max_calls: int, max_bytes: int, max_total_bytes: int):
        self.max_calls = max_calls
        self.max_bytes = max_bytes
        self.max_total_bytes = max_total_bytes
        self._held: dict[str, dict[int, int]] = {}  # actor -> inbox place -> bytes
        self._bytes: dict[str, int] = {}
        self._total = 0
        self._lock = threading.Lock()

    def calls(self, name: str) -> int:
        """How many calls from outside actor ``name``'s inbox holds, queued or running."""
        return len(self._held.get(name, ()))

    def bytes(self, name: str) -> int:
        """The bytes of the calls from outside actor ``name``'s inbox holds."""
        return self._bytes.get(name, 0)

    @property
    def total_bytes(self) -> int:
        """The bytes of the calls from outside all actors' inboxes hold."""
        return self._total

    def room_for(self, name: str, size: int) -> Outcome | None:
        """None if actor ``name``'s inbox may take one more call from outside of ``size`` bytes, else the
        IC's reject for a full queue (SYS_TRANSIENT: nothing ran, a retry may succeed), naming the bound's
        flag. Called on the event loop, in the step that records the call (``hold``), so no other call is
        taken between."""
        refusal = self._refusal(name, size)
        return None if refusal is None else Outcome.reject(Reject.SYS_TRANSIENT, refusal)

    def room_for_call(self, origin: Origin, name: str, size: int) -> Outcome | None:
        """``room_for`` a call from outside (``origin``); a call from an actor or the system is not
        bounded so: None."""
        return self.room_for(name, size) if isinstance(origin, FromOutside) else None

    def _refusal(self, name: str, size: int) -> str | None:
        calls, held, total = self.calls(name), self.bytes(name), self._total
        if calls >= self.max_calls:
            return (
                f"Maximum queue capacity {self.max_calls} reached: actor {name} holds {calls} calls from "
                f"outside, queued or running (moxzid --max-queued-calls {self.max_calls}); retry once it has "
                "answered some"
            )
        if calls and held + size > self.max_bytes:
            return (
                f"actor {name}'s inbox holds {held} bytes of calls from outside, queued or running; with this "
                f"call's {size} it would pass {self.max_bytes} (moxzid --max-queued-mb {self.max_bytes // MiB}); "
                "retry once it has answered some"
            )
        if total and total + size > self.max_total_bytes:
            return (
                f"the actors' inboxes hold {total} bytes of calls from outside, queued or running; with this "
                f"call's {size} they would pass {self.max_total_bytes} (moxzid --total-queued-mb "
                f"{self.max_total_bytes // MiB}); retry once some are answered"
            )
        return None

    def hold(self, name: str, seq: int, size: int) -> None:
        """The call from outside at inbox place ``seq`` of actor ``name``, of ``size`` bytes, is recorded
        (or restored at start-up, counted even past the bounds)."""
        with self._lock:
            self._held.setdefault(name, {})[seq] = size
            self._bytes[name] = self._bytes.get(name, 0) + size
            self._total += size

    def release(self, name: str, seq: int) -> None:
        """The message at inbox place ``seq`` of actor ``name`` is consumed (a no-op unless it is a call
        from outside)."""
        with self._lock:
            size = self._held.get(name, {}).pop(seq, None)
            if size is not None:
                self._bytes[name] -= size
                self._total -= size

    def forget(self, name: str) -> None:
        """Actor ``name`` is deleted: what its inbox held is gone with it."""
        with self._lock:
            self._held.pop(name, None)
            self._total -= self._bytes.pop(name, 0)


class CallsPerClient:
    """The calls each client of a gateway has in flight, by the key the gateway names clients with: at
    most ``limit`` each. Used on the event loop only."""

    def __init__(self, limit: int):
        self.limit = limit
        self._by_client: Counter[Hashable] = Counter()  # only clients with calls in flight

    def take(self, client: Hashable) -> bool:
        """Count one more call of ``client``; False, counting nothing, when it has ``limit`` already."""
        if self._by_client[client] >= self.limit:
            return False
        self._by_client[client] += 1
        return True

    def release(self, client: Hashable) -> None:
        """A call ``take`` counted for ``client`` has ended."""
        self._by_client[client] -= 1
        if not self._by_client[client]:
            del self._by_client[client]
