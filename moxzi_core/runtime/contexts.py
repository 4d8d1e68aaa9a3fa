"""An actor's open call contexts (the calls it is still answering) and its callbacks (the calls it made
and waits for), kept with its state so that both outlive a restart."""

from __future__ import annotations

import logging
from collections import Counter
from dataclasses import dataclass

from .ic0 import OutgoingCall
from .messages import FromSystem, Origin, Outcome, Reject, origin_of, origin_record

log = logging.getLogger("moxzid")


@dataclass
class Context:
    """A call being answered: by this actor's method and whatever callbacks it leads to."""

    caller: bytes
    origin: Origin
    outstanding: int = 0
    responded: bool = False
    last_trap: str | None = None
    deadline: int = 0  # the call's (Call.deadline), for its method and callbacks
    cycles: int = 0  # what the caller attached and no entry point accepted yet (0 once answered)


class CallContexts:
    """Only the actor's own thread uses these."""

    def __init__(self) -> None:
        self.open: dict[int, Context] = {}
        self.callbacks: dict[int, tuple[int, OutgoingCall]] = {}  # callback id -> (its context, the call)
        self.in_flight: Counter[bytes] = Counter()  # callbacks by callee: for the output queue's limit
        self._ids = 0

    def new_id(self) -> int:
        self._ids += 1
        return self._ids

    def begin(self, caller: bytes, origin: Origin, deadline: int = 0, cycles: int = 0) -> int:
        """Open a call context; its id."""
        context_id = self.new_id()
        self.open[context_id] = Context(caller, origin, deadline=deadline, cycles=cycles)
        return context_id

    def called(self, context_id: int, call: OutgoingCall) -> int:
        """``call`` was made from the context: the id of the callback its answer goes to."""
        callback_id = self.new_id()
        self.callbacks[callback_id] = (context_id, call)
        self.in_flight[call.callee] += 1
        self.open[context_id].outstanding += 1
        return callback_id

    def answered(self, callback_id: int) -> tuple[Context, int, OutgoingCall] | None:
        """The context, its id and the call a response answers, the callback taken (None: unknown)."""
        entry = self.callbacks.pop(callback_id, None)
        if entry is None:
            return None
        context_id, call = entry
        self.in_flight[call.callee] -= 1
        context = self.open[context_id]
        context.outstanding -= 1
        return context, context_id, call

    def close_if_done(self, context_id: int, actor: str) -> tuple[Origin, Outcome] | None:
        """Close the context if none of its calls is outstanding any more. If it ended unanswered, the
        reject its origin still waits for (a system task's has no origin waiting: its trap is logged)."""
        context = self.open[context_id]
        if context.outstanding:
            return None
        del self.open[context_id]
        if context.responded:
            return None
        if isinstance(context.origin, FromSystem):
            if context.last_trap:
                log.warning("actor %s: system task trapped: %s", actor, context.last_trap)
            return None
        if context.last_trap is not None:
            why = f"actor {actor} trapped: {context.last_trap}"
        else:
            why = f"actor {actor} did not reply to the call"
        return context.origin, Outcome.reject(Reject.CANISTER_ERROR, why, context.cycles)

    def drop_all(self) -> list[tuple[Origin, int]]:
        """Forget every call context and callback (uninstall_code): a response to a dropped callback is
        dropped when it comes. Who still waits for an answer, with the cycles the call holds (a system
        task's context has no one waiting)."""
        owed: list[tuple[Origin, int]] = [
            (c.origin, c.cycles) for c in self.open.values() if not c.responded and not isinstance(c.origin, FromSystem)
        ]
        self.open, self.callbacks, self.in_flight = {}, {}, Counter()
        return owed

    def deadlines(self) -> list[tuple[int, int]]:
        """(callback, deadline) of each bounded-wait call still unanswered."""
        return [(cb, call.deadline) for cb, (_, call) in self.callbacks.items() if call.deadline is not None]

    def origins(self) -> list[Origin]:
        """Who waits for the calls the actor is still answering."""
        return [context.origin for context in self.open.values()]

    def record(self) -> dict:
        """The contexts and callbacks as plain data, for the actor's state record."""
        return {
            "ids": self._ids,
            "contexts": {
                cid: [c.caller, origin_record(c.origin), c.outstanding, c.responded, c.last_trap, c.deadline, c.cycles]
                for cid, c in self.open.items()
            },
            "callbacks": {
                cb: [
                    cid,
                    call.callee,
                    call.method,
                    list(call.reply),
                    list(call.reject),
                    list(call.cleanup) if call.cleanup else None,
                    call.cycles,
                    call.deadline,
                ]
                for cb, (cid, call) in self.callbacks.items()
            },
        }

    def restore(self, state: dict) -> None:
        """Take back what ``record`` wrote."""
        self._ids = state["ids"]
        self.open = {
            cid: Context(caller, origin_of(origin), *rest) for cid, (caller, origin, *rest) in state["contexts"].items()
        }
        self.callbacks = {
            cb: (
                cid,
                OutgoingCall(
                    callee,
                    method,
                    tuple(reply),
                    tuple(reject),
                    tuple(cleanup) if cleanup else None,
                    cycles=cycles,
                    deadline=deadline[0] if deadline else None,  # (a record from before deadlines were kept)
                ),
            )
            for cb, (cid, callee, method, reply, reject, cleanup, cycles, *deadline) in state["callbacks"].items()
        }
        self.in_flight = Counter(call.callee for _, call in self.callbacks.values())
