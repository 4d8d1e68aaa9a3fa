"""An actor: its instance, its call contexts and callbacks, and the thread that runs its messages.

Each actor processes one message at a time on its own thread, so a long message holds up only its own
actor. Messages arrive on a queue: calls (from HTTP or other actors), responses to the actor's own
calls, upgrades, and the actor's global timer when it comes due. What a message produces (a response,
outgoing calls, a new timer) takes effect only if it did not trap.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from dataclasses import dataclass, field
from typing import Callable

import wasmtime

from .instance import EMPTY_ARGS, Instance, Limits
from .system_api import Execution, OutgoingCall
from .wasm_rewrite import PreparedModule

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

    @classmethod
    def reject(cls, code: int, message: str) -> "Outcome":
        return cls(None, code, message)


@dataclass
class Call:
    """An incoming call. ``answer`` is called once, from the actor's thread, with the outcome."""

    method: str
    arg: bytes
    caller: bytes
    answer: Callable[[Outcome], None]
    ingress: bool = False  # from outside (HTTP): canister_inspect_message applies
    query: bool = False  # asked for as a query: runs only a query method


@dataclass
class Response:
    """The outcome of a call this actor made, for the callback it registered."""

    callback: int
    outcome: Outcome


@dataclass
class Upgrade:
    prepared: PreparedModule
    module: wasmtime.Module
    done: Callable[[str | None], None]  # None, or why the upgrade was refused


@dataclass
class _Context:
    """A call being answered: by this actor's method and whatever callbacks it leads to."""

    caller: bytes
    answer: Callable[[Outcome], None] | None  # None for system tasks: nobody waits
    outstanding: int = 0
    responded: bool = False
    last_trap: str | None = None


_STOP = object()


class Actor:
    """A hosted actor. ``post`` is thread-safe; everything else runs on the actor's own thread."""

    def __init__(self, name: str, principal: bytes, engine: wasmtime.Engine, prepared: PreparedModule,
                 module: wasmtime.Module, limits: Limits, send: Callable[["Actor", OutgoingCall, int], None]):
        self.name = name
        self.principal = principal
        self.prepared = prepared
        self._engine = engine
        self._limits = limits
        self._send = send
        self._queue: queue.Queue = queue.Queue()
        self._contexts: dict[int, _Context] = {}
        self._callbacks: dict[int, tuple[int, OutgoingCall]] = {}
        self._ids = 0
        self._deferred: list = []  # calls and upgrades waiting for outstanding callbacks to finish
        self._thread: threading.Thread | None = None
        self.instance = self._instantiate(prepared, module)

    # --- life cycle --------------------------------------------------------------------------
    def _instantiate(self, prepared: PreparedModule, module: wasmtime.Module, stable=None) -> Instance:
        return Instance(self._engine, module, prepared, self.principal, self._limits,
                        lambda text: log.info("[%s] %s", self.name, text), stable)

    def install(self) -> None:
        """Run the start function and canister_init; raises RuntimeError if either traps."""
        trap = self.instance.run_start()
        if trap is None:
            trap = self._run_system(self.instance, "canister_init")
        if trap is not None:
            raise RuntimeError(f"actor {self.name}: installation trapped: {trap}")

    def _run_system(self, instance: Instance, export: str) -> str | None:
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

    def start(self) -> None:
        self._thread = threading.Thread(target=self._loop, name=f"actor-{self.name}", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._queue.put(_STOP)
        if self._thread:
            self._thread.join()

    def post(self, message) -> None:
        self._queue.put(message)

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
                message = None  # the timer is due: it goes before queued messages, never starved
            else:
                try:
                    message = self._queue.get(timeout=wait)
                except queue.Empty:
                    continue
            if message is _STOP:
                return
            try:
                self._dispatch(message)
            except Exception as error:  # a bug here must not kill the actor's thread, nor hang a caller
                log.exception("actor %s: internal error handling %r", self.name, type(message).__name__)
                if isinstance(message, Call):
                    message.answer(Outcome.reject(SYS_FATAL, f"moxzid internal error in {self.name}: {error}"))

    def _timer_wait(self) -> float | None:
        if self.instance.timer == 0 or self._stopping:
            return None
        return max(0.0, (self.instance.timer - time.time_ns()) / 1e9)

    @property
    def _stopping(self) -> bool:
        """An upgrade waits for outstanding callbacks; meanwhile only responses run."""
        return any(isinstance(m, Upgrade) for m in self._deferred)

    def _dispatch(self, message) -> None:
        if isinstance(message, Response):
            self._on_response(message)
        elif self._stopping:
            self._deferred.append(message)
        elif message is None:
            self._on_timer()
        elif isinstance(message, Call):
            self._on_call(message)
        elif isinstance(message, Upgrade):
            self._deferred.append(message)
        if self._stopping and not self._callbacks:
            self._drain_deferred()

    def _drain_deferred(self) -> None:
        waiting, self._deferred = self._deferred, []
        upgrade = waiting.pop(next(i for i, m in enumerate(waiting) if isinstance(m, Upgrade)))
        upgrade.done(self._upgrade(upgrade))
        for message in waiting:
            self._dispatch(message)

    # --- calls -------------------------------------------------------------------------------
    def _new_id(self) -> int:
        self._ids += 1
        return self._ids

    def _on_call(self, call: Call) -> None:
        kind = self.method_kind(call.method)
        if kind is None or (call.query and kind != "query"):
            what = "query method" if call.query else "method"
            call.answer(Outcome.reject(DESTINATION_INVALID, f"actor {self.name} has no {what} {call.method!r}"))
            return
        if kind == "query":
            call.answer(self._run_query(call))
            return
        if call.ingress and not self._inspect(call):
            call.answer(Outcome.reject(CANISTER_REJECT,
                                       f"actor {self.name} did not accept the message ({call.method})"))
            return
        context_id = self._new_id()
        self._contexts[context_id] = _Context(call.caller, call.answer)
        execution = Execution("U", arg=call.arg, caller=call.caller, may_respond=True)
        self._execute(context_id, execution, export=f"canister_update {call.method}")

    def _run_query(self, call: Call) -> Outcome:
        execution = Execution("Q", arg=call.arg, caller=call.caller, may_respond=True)
        self.instance.begin()
        trap = self.instance.invoke(execution, f"canister_query {call.method}",
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
        self._contexts[context_id] = _Context(MANAGEMENT, None)
        self._execute(context_id, Execution("T", caller=MANAGEMENT), export="canister_global_timer")

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
        trap = self._execute(context_id, execution, callback=call.reply if replied else call.reject,
                             close=False)
        if trap is not None and call.cleanup is not None:
            cleanup = Execution("C", caller=context.caller, reject_code=outcome.reject_code)
            self._execute(context_id, cleanup, callback=call.cleanup, close=False)
        self._close_if_done(context_id)

    def _execute(self, context_id: int, execution: Execution, *, export: str | None = None,
                 callback: tuple[int, int] | None = None, close: bool = True) -> str | None:
        """Run one entry point for a call context and apply its effects if it did not trap."""
        instance = self.instance
        instance.begin()
        trap = instance.invoke(execution, export, callback, fuel=self._limits.instructions_per_message)
        context = self._contexts[context_id]
        if trap is not None:
            instance.rollback()
            context.last_trap = trap
        else:
            instance.commit()
            if execution.response is not None:
                context.responded = True
                if context.answer is not None:
                    context.answer(_outcome(execution))
            for call in execution.calls:
                callback_id = self._new_id()
                self._callbacks[callback_id] = (context_id, call)
                context.outstanding += 1
                self._send(self, call, callback_id)
        if close:
            self._close_if_done(context_id)
        return trap

    def _close_if_done(self, context_id: int) -> None:
        context = self._contexts[context_id]
        if context.outstanding:
            return
        del self._contexts[context_id]
        if context.responded or context.answer is None:
            if context.last_trap and context.answer is None:
                log.warning("actor %s: system task trapped: %s", self.name, context.last_trap)
            return
        if context.last_trap is not None:
            context.answer(Outcome.reject(CANISTER_ERROR, f"actor {self.name} trapped: {context.last_trap}"))
        else:
            context.answer(Outcome.reject(CANISTER_ERROR, f"actor {self.name} did not reply to the call"))

    # --- upgrades ----------------------------------------------------------------------------
    def _upgrade(self, upgrade: Upgrade) -> str | None:
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
            new = self._instantiate(upgrade.prepared, upgrade.module, stable=old.stable)
        except Exception as error:
            old.rollback()
            return str(error)
        if upgrade.prepared.memory64 != old.prepared.memory64:
            old.rollback()
            return (f"the new module uses {upgrade.prepared.persistence} persistence, "
                    f"the running one {old.prepared.persistence}")
        if upgrade.prepared.memory64:  # enhanced persistence: the heap itself is kept
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
        self.instance, self.prepared = new, upgrade.prepared
        return None


def _outcome(execution: Execution) -> Outcome | None:
    if execution.response is None:
        return None
    kind, data = execution.response
    if kind == "reply":
        return Outcome(data)
    return Outcome.reject(CANISTER_REJECT, data.decode("utf-8", "replace"))
