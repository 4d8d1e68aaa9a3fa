"""An actor: its instance, its call contexts and callbacks, and the thread that runs its messages.

Each actor processes one message at a time on its own thread, so a long message holds up only its own
actor. Messages arrive on a queue: calls (from HTTP or other actors), responses to the actor's own
calls, upgrades, queries, and the actor's global timer when it comes due. What a message produces (a
response, outgoing calls, a new timer) takes effect only if it did not trap; it leaves the actor as
data (answers to origins, calls to callees, a snapshot delta) handed to the host's `settle`, which
writes it durably and delivers it.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .instance import EMPTY_ARGS, Instance, Interrupted
from .journal import Delta
from .memory import PAGE
from .system_api import Execution, OutgoingCall

if TYPE_CHECKING:
    from .host import Host

# Reject codes, as on the IC.
SYS_FATAL, SYS_TRANSIENT, DESTINATION_INVALID, CANISTER_REJECT, CANISTER_ERROR = 1, 2, 3, 4, 5
ANONYMOUS = b"\x04"
MANAGEMENT = b""

log = logging.getLogger("moxzid")


@dataclass(frozen=True)
class Outcome:
    """The answer to a call: ``reply`` (Candid bytes), or None with a reject code and message."""

    reply: bytes | None
    reject_code: int = 0
    reject_message: str = ""
    # Set by a system method whose call changed the system's state (the device's): the host records
    # such calls and re-runs them, in order, at start-up, before any actor runs.
    changed: bool = False
    seconds: float = 0.0  # the system time the call took (what device time is billed by)

    @classmethod
    def reject(cls, code: int, message: str) -> Outcome:
        return cls(None, code, message)


# Who waits for a call's answer: ["ingress", request id] (outside: HTTP), ["actor", name, callback id],
# or ["system"] (the actor's own timer: nobody).
Origin = list


@dataclass
class Call:
    """An incoming update call (recorded in the actor's inbox before it runs)."""

    method: str
    arg: bytes
    caller: bytes
    origin: Origin


@dataclass
class Response:
    """The outcome of a call this actor made, for the callback it registered."""

    callback: int
    outcome: Outcome


@dataclass
class Upgrade:
    module: bytes  # sha256 of the new wasm, kept in the store
    origin: Origin


@dataclass
class Query:
    """A query from outside: never recorded, answered through ``answer`` (from the actor's thread)."""

    method: str
    arg: bytes
    caller: bytes
    answer: Callable[[Outcome], None]


def to_record(message) -> list:
    """A message as plain data for the journal."""
    if isinstance(message, Call):
        return ["call", message.method, message.arg, message.caller, message.origin]
    if isinstance(message, Response):
        o = message.outcome
        return ["response", message.callback, o.reply, o.reject_code, o.reject_message]
    return ["upgrade", message.module, message.origin]


def from_record(record: list):
    kind, *fields = record
    if kind == "call":
        return Call(*fields)
    if kind == "response":
        callback, reply, code, text = fields
        return Response(callback, Outcome(reply, code, text))
    if kind == "upgrade":
        return Upgrade(*fields)
    raise ValueError(f"unknown message kind {kind!r}")


@dataclass
class _Context:
    """A call being answered: by this actor's method and whatever callbacks it leads to."""

    caller: bytes
    origin: Origin
    outstanding: int = 0
    responded: bool = False
    last_trap: str | None = None


@dataclass
class _Step:
    """What handling one message produced, for the host to settle."""

    answers: list[tuple[Origin, Outcome]] = field(default_factory=list)
    calls: list[tuple[int, OutgoingCall]] = field(default_factory=list)
    memory_pages: set[int] = field(default_factory=set)
    stable_pages: set[int] = field(default_factory=set)
    full: bool = False
    instructions: int = 0  # wasm instructions its entry points ran (billed, trapped or not)


_STOP = object()


class Actor:
    """A hosted actor. ``post`` is thread-safe; everything else runs on the actor's own thread."""

    def __init__(self, name: str, principal: bytes, host: Host, instance: Instance, module: bytes):
        self.name = name
        self.principal = principal
        self.instance = instance
        self.module = module  # sha256 of the running wasm
        self._host = host
        self._limits = host.limits
        self._queue: queue.Queue = queue.Queue()
        self._contexts: dict[int, _Context] = {}
        self._callbacks: dict[int, tuple[int, OutgoingCall]] = {}
        self._ids = 0
        self._deferred: list[tuple[int, object]] = []  # waiting for outstanding callbacks (an upgrade)
        self._thread: threading.Thread | None = None
        self._stopping = False
        self._step = _Step()

    @property
    def prepared(self):
        return self.instance.prepared

    # --- life cycle --------------------------------------------------------------------------
    def install(self) -> Delta:
        """Run the start function and canister_init; raises RuntimeError if either traps. Returns the
        whole state, for the first snapshot."""
        trap = self.instance.run_start()
        if trap is None:
            trap = self._run_init(self.instance, "canister_init")
        if trap is not None:
            raise RuntimeError(f"actor {self.name}: installation trapped: {trap}")
        return self._delta(_Step(full=True))

    def _run_init(self, instance: Instance, export: str) -> str | None:
        """Run init / post_upgrade in its own transaction, keeping it unless it traps."""
        if not instance.has_export(export):
            return None
        instance.begin()
        trap = instance.invoke(Execution("I", arg=EMPTY_ARGS, caller=ANONYMOUS), export,
                               fuel=self._limits.instructions_per_message)
        if trap is None:
            instance.commit()
        else:
            instance.rollback()
        return trap

    def restore(self, state: dict) -> None:
        """Take back the call contexts and callbacks of a saved state (the instance restores itself)."""
        self._ids = state["ids"]
        self._contexts = {cid: _Context(*fields) for cid, fields in state["contexts"].items()}
        self._callbacks = {cb: (cid, OutgoingCall(callee, method, tuple(reply), tuple(reject),
                                                  tuple(cleanup) if cleanup else None))
                           for cb, (cid, callee, method, reply, reject, cleanup) in state["callbacks"].items()}

    def _state(self) -> dict:
        return {
            **self.instance.state(),
            "module": self.module,
            "ids": self._ids,
            "contexts": {cid: [c.caller, c.origin, c.outstanding, c.responded, c.last_trap]
                         for cid, c in self._contexts.items()},
            "callbacks": {cb: [cid, call.callee, call.method, list(call.reply), list(call.reject),
                               list(call.cleanup) if call.cleanup else None]
                          for cb, (cid, call) in self._callbacks.items()},
        }

    def _delta(self, step: _Step) -> Delta:
        memory, stable = self.instance.memory, self.instance.stable
        if step.full:
            return Delta(self._state(), _pages(memory.image()), _pages(stable.image()), full=True)
        return Delta(self._state(),
                     dict(zip(sorted(step.memory_pages), memory.pages(sorted(step.memory_pages)))),
                     {n: stable.page(n) for n in sorted(step.stable_pages)})

    def start(self) -> None:
        self._thread = threading.Thread(target=self._loop, name=f"actor-{self.name}", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Run no more messages: those queued stay in the inbox for the next start. A message running
        now ends when the host interrupts it (``Host.stop``) or when it finishes; ``join`` waits."""
        self._stopping = True
        self._queue.put((None, _STOP))

    def join(self) -> None:
        if self._thread:
            self._thread.join()

    def post(self, seq: int | None, message) -> None:
        """Queue a message: ``seq`` is its place in the actor's inbox (None for queries)."""
        self._queue.put((seq, message))

    def method_kind(self, method: str) -> str | None:
        """'update', 'query', or None when the actor exports no such method."""
        for kind in ("update", "query"):
            if self.instance.has_export(f"canister_{kind} {method}"):
                return kind
        return None

    # --- the message loop --------------------------------------------------------------------
    def _loop(self) -> None:
        while True:
            wait = self._timer_wait()
            if wait == 0:
                seq, message = None, None  # the timer is due: it goes before queued messages
            else:
                try:
                    seq, message = self._queue.get(timeout=wait)
                except queue.Empty:
                    continue
            if message is _STOP or self._stopping:
                return
            try:
                self._dispatch(seq, message)
            except Interrupted:
                return  # the host is stopping: the message is not settled, so it stays in the inbox
            except Exception as error:  # a bug here must not kill the actor's thread, nor hang a caller
                log.exception("actor %s: internal error handling %r", self.name, type(message).__name__)
                self._fail(seq, message, error)

    def _fail(self, seq: int | None, message, error: Exception) -> None:
        outcome = Outcome.reject(SYS_FATAL, f"moxzid internal error in {self.name}: {error}")
        if isinstance(message, Query):
            message.answer(outcome)
        elif isinstance(message, (Call, Upgrade)):
            self._host.settle(self, seq, [(message.origin, outcome)], [], None)

    def _timer_wait(self) -> float | None:
        if self.instance.timer == 0 or self._deferred:
            return None
        return max(0.0, (self.instance.timer - time.time_ns()) / 1e9)

    def _dispatch(self, seq: int | None, message) -> None:
        if isinstance(message, Query):
            message.answer(self._run_query(message.method, message.arg, message.caller))
            return
        if self._deferred and self._held_for_upgrade(seq, message):
            return
        self._step = _Step()
        if message is None:
            self._on_timer()
        elif isinstance(message, Call):
            self._on_call(message)
        elif isinstance(message, Response):
            self._on_response(message)
        elif isinstance(message, Upgrade):
            if self._callbacks:
                self._deferred.append((seq, message))
                return
            self._on_upgrade(message)
        self._settle(seq)
        if self._deferred and not self._callbacks:
            waiting, self._deferred = self._deferred, []
            for entry in waiting:
                self._dispatch(*entry)

    def _held_for_upgrade(self, seq: int | None, message) -> bool:
        """While an upgrade waits for the actor's outstanding calls, the actor stops as a canister
        does: responses and its own calls (timer jobs, self-calls) run, so that work can finish; calls
        from other actors are rejected, so no two actors can wait on each other; calls and upgrades
        from outside wait in the inbox and run after the upgrade."""
        if isinstance(message, Response) or (isinstance(message, Call) and message.caller == self.principal):
            return False
        if isinstance(message, Call) and message.origin[0] == "actor":
            self._step = _Step()
            self._answer(message.origin, Outcome.reject(
                SYS_TRANSIENT, f"actor {self.name} is being upgraded; call again when it is done"))
            self._settle(seq)
        else:
            self._deferred.append((seq, message))
        return True

    def _settle(self, seq: int | None) -> None:
        step = self._step
        changed = seq is not None or step.memory_pages or step.stable_pages or step.full or step.calls
        self._host.settle(self, seq, step.answers, step.calls, self._delta(step) if changed else None,
                          step.instructions)

    # --- calls -------------------------------------------------------------------------------
    def _new_id(self) -> int:
        self._ids += 1
        return self._ids

    def _answer(self, origin: Origin, outcome: Outcome) -> None:
        self._step.answers.append((origin, outcome))

    def _on_call(self, call: Call) -> None:
        kind = self.method_kind(call.method)
        if kind is None:
            self._answer(call.origin, Outcome.reject(
                DESTINATION_INVALID, f"actor {self.name} has no method {call.method!r}"))
            return
        if kind == "query":  # a query method called as an update runs as a query: no trace
            self._answer(call.origin, self._run_query(call.method, call.arg, call.caller))
            return
        if call.origin[0] == "ingress" and not self._inspect(call):
            self._answer(call.origin, Outcome.reject(
                CANISTER_REJECT, f"actor {self.name} did not accept the message ({call.method})"))
            return
        context_id = self._new_id()
        self._contexts[context_id] = _Context(call.caller, call.origin)
        execution = Execution("U", arg=call.arg, caller=call.caller, may_respond=True)
        self._execute(context_id, execution, export=f"canister_update {call.method}")
        self._close_if_done(context_id)

    def _run_query(self, method: str, arg: bytes, caller: bytes) -> Outcome:
        if self.method_kind(method) != "query":
            return Outcome.reject(DESTINATION_INVALID, f"actor {self.name} has no query method {method!r}")
        execution = Execution("Q", arg=arg, caller=caller, may_respond=True)
        self.instance.begin()
        trap = self.instance.invoke(execution, f"canister_query {method}",
                                    fuel=self._limits.instructions_per_query)
        self.instance.rollback()  # a query leaves no trace
        if trap is not None:
            return Outcome.reject(CANISTER_ERROR, f"actor {self.name} trapped: {trap}")
        return _outcome(execution) or Outcome.reject(CANISTER_ERROR, f"actor {self.name}: query did not reply")

    def _inspect(self, call: Call) -> bool:
        if not self.instance.has_export("canister_inspect_message"):
            return True
        execution = Execution("F", arg=call.arg, caller=call.caller, method_name=call.method)
        self.instance.begin()
        trap = self.instance.invoke(execution, "canister_inspect_message",
                                    fuel=self._limits.instructions_per_query)
        self.instance.rollback()
        return trap is None and execution.accepted

    def _on_timer(self) -> None:
        self.instance.timer = 0  # the IC deactivates the timer before it runs the task
        if not self.instance.has_export("canister_global_timer"):
            return
        context_id = self._new_id()
        self._contexts[context_id] = _Context(MANAGEMENT, ["system"])
        self._execute(context_id, Execution("T", caller=MANAGEMENT), export="canister_global_timer")
        self._close_if_done(context_id)

    def _on_response(self, response: Response) -> None:
        entry = self._callbacks.pop(response.callback, None)
        if entry is None:
            log.warning("actor %s: response for unknown callback %d dropped", self.name, response.callback)
            return
        context_id, call = entry
        context = self._contexts[context_id]
        context.outstanding -= 1
        outcome = response.outcome
        replied = outcome.reply is not None
        execution = Execution("Ry" if replied else "Rt", arg=outcome.reply or b"", caller=context.caller,
                              may_respond=not context.responded, reject_code=outcome.reject_code,
                              reject_message=outcome.reject_message)
        trap = self._execute(context_id, execution, callback=call.reply if replied else call.reject)
        if trap is not None and call.cleanup is not None:
            cleanup = Execution("C", caller=context.caller, reject_code=outcome.reject_code)
            self._execute(context_id, cleanup, callback=call.cleanup)
        self._close_if_done(context_id)

    def _execute(self, context_id: int, execution: Execution, *, export: str | None = None,
                 callback: tuple[int, int] | None = None) -> str | None:
        """Run one entry point for a call context and keep its effects if it did not trap."""
        instance = self.instance
        instance.begin()
        trap = instance.invoke(execution, export, callback, fuel=self._limits.instructions_per_message)
        self._step.instructions += instance.instructions_used()
        context = self._contexts[context_id]
        if trap is not None:
            instance.rollback()
            context.last_trap = trap
            return trap
        memory_pages, stable_pages = instance.commit()
        self._step.memory_pages.update(memory_pages)
        self._step.stable_pages.update(stable_pages)
        if execution.response is not None:
            context.responded = True
            self._answer(context.origin, _outcome(execution))
        for call in execution.calls:
            callback_id = self._new_id()
            self._callbacks[callback_id] = (context_id, call)
            context.outstanding += 1
            self._step.calls.append((callback_id, call))
        return None

    def _close_if_done(self, context_id: int) -> None:
        context = self._contexts[context_id]
        if context.outstanding:
            return
        del self._contexts[context_id]
        if context.responded:
            return
        if context.origin[0] == "system":
            if context.last_trap:
                log.warning("actor %s: timer task trapped: %s", self.name, context.last_trap)
            return
        if context.last_trap is not None:
            outcome = Outcome.reject(CANISTER_ERROR, f"actor {self.name} trapped: {context.last_trap}")
        else:
            outcome = Outcome.reject(CANISTER_ERROR, f"actor {self.name} did not reply to the call")
        self._answer(context.origin, outcome)

    # --- upgrades ----------------------------------------------------------------------------
    def _on_upgrade(self, upgrade: Upgrade) -> None:
        refusal = self._upgrade(upgrade.module)
        if refusal is None:
            self._step.full = True
            self._answer(upgrade.origin, Outcome(b""))
        else:
            self._answer(upgrade.origin, Outcome.reject(CANISTER_REJECT, refusal))

    def _upgrade(self, module: bytes) -> str | None:
        """Replace the code, keeping the state; on any trap keep the old code and state untouched."""
        old = self.instance
        old.begin()
        if old.has_export("canister_pre_upgrade"):
            trap = old.invoke(Execution("G", caller=ANONYMOUS), "canister_pre_upgrade",
                              fuel=self._limits.instructions_per_message)
            if trap is not None:
                old.rollback()
                return f"canister_pre_upgrade trapped: {trap}"
        try:
            new = self._host.instantiate(module, self.name, stable=old.stable)
        except Exception as error:
            old.rollback()
            return str(error)
        if new.prepared.memory64 != old.prepared.memory64:
            old.rollback()
            return (f"the new module uses {new.prepared.persistence} persistence, "
                    f"the running one {old.prepared.persistence}")
        if new.prepared.memory64:  # enhanced persistence: the heap itself is kept
            new.memory.load(old.memory.read(0, old.memory.size))
        new.now = old.now
        trap = new.run_start()
        if trap is None:
            new.begin()
            trap = new.invoke(Execution("I", arg=EMPTY_ARGS, caller=ANONYMOUS), "canister_post_upgrade",
                              fuel=self._limits.instructions_per_message) \
                if new.has_export("canister_post_upgrade") else None
        if trap is not None:
            old.rollback()  # also undoes stable-memory writes of pre- and post-upgrade: one undo log
            return f"the new code trapped while taking over the state: {trap}"
        new.commit()
        self.instance, self.module = new, module
        return None


def _outcome(execution: Execution) -> Outcome | None:
    if execution.response is None:
        return None
    kind, data = execution.response
    if kind == "reply":
        return Outcome(data)
    return Outcome.reject(CANISTER_REJECT, data.decode("utf-8", "replace"))


def _pages(image: bytes) -> dict[int, bytes]:
    return {n: image[n * PAGE:(n + 1) * PAGE] for n in range(len(image) // PAGE)}
