"""An actor: its instance, its call contexts and callbacks, and the thread that runs its messages.

Each actor processes one message at a time on its own thread, so a long message holds up only its own
actor. Messages arrive on a queue: calls (from HTTP or other actors), responses to the actor's own
calls, upgrades, management calls acting on it, and the actor's global timer when it comes due. Queries
from outside, composite ones and the queries those call included, do not wait for the actor's turn:
they run on query replicas of its last committed state (`queries.py`, `query_replicas.py`). What a
message produces (a response, outgoing calls, a new timer) takes effect only if it did not trap; it
leaves the actor as data (answers to origins, calls to callees, a snapshot delta) handed to the host's
`settle` (`delivery.py`), which writes it durably and delivers it. The actor reaches its host only
through `Services`.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from dataclasses import replace

from . import clock, installs, tasks
from .canister import RUNNING, STOPPED, STOPPING, Canister
from .canister_log import CanisterLog
from .contexts import CallContexts
from .engine import EMPTY_ARGS, Instance, Interrupted
from .ic0 import Execution
from .journal import Delta
from .messages import (
    ANONYMOUS,
    MANAGEMENT,
    Call,
    FromActor,
    FromOutside,
    FromSystem,
    Manage,
    Origin,
    Outcome,
    Reject,
    Response,
    Upgrade,
)
from .query_replicas import Replicas
from .services import Services
from .turn import Effects, Held, Turn

log = logging.getLogger("moxzid")

_STOP = object()


class Actor:
    """A hosted actor. ``post`` is thread-safe, and so are what queries use (`queries.Queried`);
    everything else runs on the actor's own thread.

    An actor made by create_canister has no code (``instance`` and ``module`` None) until install_code
    gives it some."""

    def __init__(
        self,
        name: str,
        principal: bytes,
        services: Services,
        instance: Instance | None,
        module: bytes | None,
        canister: Canister,
    ):
        self.name = name
        self.principal = principal
        self.canister = canister
        self.instance: Instance | None = None
        self.module: bytes | None = None  # sha256 of the running wasm
        self.services = services
        self.replicas = Replicas(self._new_replica, lambda: self.canister.certified_data, services.limits.memory_bytes)
        if instance is not None:
            assert module is not None, "an actor with an instance has its module's hash"
            self.adopt(instance, module)
        # (SimpleQueue: its put and the wake-up of a waiting get are C, no Condition: a device call's answer
        # reaches the actor's thread ~10 µs sooner than through queue.Queue)
        self._queue: queue.SimpleQueue = queue.SimpleQueue()
        self._calls = CallContexts()
        self._held = Held(services.settle_together)  # messages settled, to be written with the next
        self._deferred: list[tuple[int | None, object]] = []  # waiting for outstanding callbacks (an upgrade)
        self._thread: threading.Thread | None = None
        self._stopping = False
        self.turn = self._new_turn()  # the message being handled (management's methods add to it)
        # What the last canister_heartbeat left (`tasks.heartbeat_ran`); whether a system task runs (`idle`)
        self._heartbeat, self._in_task = 0.0, False
        self.footprint = (0, 0)  # (memory, stable memory) bytes after the last message: read by any thread

    @property
    def _code(self) -> Instance:
        """The instance, where the caller knows there is one: a call or query past ``refusal``, a task
        or upgrade (only an actor with code has them)."""
        assert self.instance is not None, f"actor {self.name} has no code"
        return self.instance

    def _new_turn(self) -> Turn:
        return Turn(self.name, self.principal, self.services)

    def adopt(self, instance: Instance, module: bytes, certified_data: bytes | None = None) -> None:
        """Run ``instance`` from now on, with ``certified_data`` (None: the certified data is kept)."""
        instance.canister = self.canister  # what ic0.is_controller, canister_status ... read
        with self.replicas.committing:
            self.instance, self.module = instance, module
            self.replicas.replace(instance)
            if certified_data is not None:
                self.canister.certified_data = certified_data

    def _new_replica(self) -> Instance:
        assert self.module is not None, "only an actor with code has replicas"
        return self.services.instantiate(self.module, self.name, replica=True)

    # --- life cycle --------------------------------------------------------------------------
    def install(self) -> Delta:
        """Run the start function and canister_init; raises RuntimeError if either traps. Returns the
        whole state, for the first snapshot. An actor without code just gives its state."""
        trap = None
        if self.instance is not None:
            trap = self.instance.run_start()
            if trap is None:
                trap, self.canister.certified_data = installs.run_init(
                    self.services, self._new_turn(), self.instance, EMPTY_ARGS, ANONYMOUS
                )
        if trap is not None:
            raise RuntimeError(f"actor {self.name}: installation trapped: {trap}")
        return Effects(full=True).delta(self.instance, self._state(), self.canister.log)

    def restore(self, state: dict, log: list | None) -> None:
        """Take back the call contexts and callbacks of a saved state (the instance restores itself),
        and the canister's ``log`` as saved (None: it logged nothing)."""
        if "canister" in state:  # (state records written before controllers have none: the defaults)
            self.canister = Canister.from_record(state["canister"])
            if self.instance is not None:
                self.instance.canister = self.canister
        if log is not None:
            self.canister.log = CanisterLog.from_record(log)
        self._calls.restore(state)

    def open_origins(self) -> list[Origin]:
        """Who waits for the calls it is still answering (its open call contexts)."""
        return self._calls.origins()

    def _state(self) -> dict | None:
        """The actor's state record for the store; None where no host reads the store back
        (``Services.store_read_back``): then neither it nor the memories' pages are written."""
        if not self.services.store_read_back:
            return None
        return {
            **(self.instance.state() if self.instance else {}),
            "module": self.module,
            "canister": self.canister.record(),
            **self._calls.record(),
        }

    def drop_calls(self) -> list[tuple[Origin, int]]:
        """Forget its call contexts and callbacks (uninstall_code): `CallContexts.drop_all`."""
        return self._calls.drop_all()

    def memory_sizes(self) -> tuple[int, int]:
        """(memory, stable memory) bytes now (between messages): none without code (yet, or any more)."""
        return (0, 0) if self.instance is None else (self.instance.memory.size, self.instance.stable.kept_size)

    def start(self) -> None:
        self.footprint = self.memory_sizes()
        extent = 0 if self.instance is None else self.instance.extent()
        self.services.memory_budget.hold(self.name, extent, self.canister.snapshot_bytes())
        self._thread = threading.Thread(target=self._loop, name=f"actor-{self.name}", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Run no more messages: those queued stay in the inbox for the next start. A message running
        now ends when the host interrupts it (``Host.stop``) or when it finishes; ``join`` waits."""
        self._stopping = True
        self._queue.put((None, _STOP))

    def idle(self) -> bool:  # (`clock.Ticking`; due first: a task clears its due only once _in_task is set)
        return self._task_wait()[0] != 0 and not self._in_task

    def join(self) -> None:
        if self._thread:
            self._thread.join()

    def post(self, seq: int | None, message) -> None:
        """Queue a message: ``seq`` is its place in the actor's inbox (None: the clock's `clock.WAKE`)."""
        self._queue.put((seq, message))

    def bounded_waits(self) -> list[tuple[int, int]]:
        """(callback, deadline ns) of its bounded-wait calls unanswered (at a restart, before it starts)."""
        return self._calls.deadlines()

    def awaits(self, callback: int) -> bool:
        """Whether the call ``callback`` names is still unanswered (any thread: a glance, which the
        actor's own thread settles)."""
        return callback in self._calls.callbacks

    def method_kind(self, method: str) -> str | None:
        """What kind of method of its code ``method`` is (`Instance.method_kind`); None without code."""
        return self.instance.method_kind(method) if self.instance else None

    def refusal(self) -> Outcome | None:
        """Why this actor takes no calls now (it has no code, or is stopping or stopped), if so."""
        if self.canister.status != RUNNING:
            return Outcome.reject(Reject.CANISTER_ERROR, f"canister {self.name} is {self.canister.status}")
        if self.instance is None:
            return Outcome.reject(Reject.CANISTER_ERROR, f"canister {self.name} is empty: it has no code installed")
        return None

    # --- the message loop --------------------------------------------------------------------
    def _loop(self) -> None:
        while True:
            if self._held.count and self._queue.empty():  # (no next message is there to write them)
                self._settle(None, Effects())
            wait, task = self._task_wait()
            if wait == 0:  # a system task is due: it goes before queued messages
                seq, message, self._in_task = None, task, True
            else:
                try:
                    seq, message = self._queue.get(timeout=wait)
                except queue.Empty:
                    continue
            if message is _STOP or self._stopping:
                return
            if message is clock.WAKE:
                continue
            try:
                self._dispatch(seq, message)
            except Interrupted:
                return  # the host is stopping: the message is not settled, so it stays in the inbox
            except Exception as error:  # a bug here must not kill the actor's thread, nor hang a caller
                log.exception("actor %s: internal error handling %r", self.name, type(message).__name__)
                self._fail(seq, message, error)
            finally:
                self.turn.end()
                self._in_task = False

    def _fail(self, seq: int | None, message, error: Exception) -> None:
        self._settle(None, Effects())  # (what was held, before the failed message)
        outcome = Outcome.reject(Reject.SYS_FATAL, f"moxzid internal error in {self.name}: {error}")
        if isinstance(message, (Call, Upgrade, Manage)):  # (a call's cycles go back with the reject)
            refund = message.cycles if isinstance(message, Call) else 0
            self.services.settle(self, seq, Effects(answers=[(message.origin, replace(outcome, refund=refund))]), None)

    def _task_wait(self) -> tuple[float | None, object]:
        """Seconds until the next system task is due (None: none is), and which (`tasks`)."""
        if self.instance is None or self._deferred or self.canister.status != RUNNING:
            return None, None
        return tasks.next_due(self.instance, self.canister, self.services.clock, self._heartbeat)

    def _dispatch(self, seq: int | None, message) -> None:
        started = time.perf_counter()
        if self._deferred and self._held_for_upgrade(seq, message):
            return
        self.turn = self._new_turn()
        if message is tasks.TIMER:
            self._on_timer()
        elif message is tasks.HEARTBEAT:
            self._heartbeat = tasks.heartbeat_ran(self.services.clock)
            self._run_task("canister_heartbeat")
        elif message is tasks.LOW_MEMORY:
            self.canister.low_memory_hook = tasks.EXECUTED
            self._run_task(tasks.LOW_MEMORY_EXPORT)
        elif isinstance(message, Call):
            self._on_call(message)
        elif isinstance(message, Response):
            self._on_response(message)
        elif isinstance(message, (Upgrade, Manage)):
            if self._calls.callbacks and _replaces_code(message):
                self._deferred.append((seq, message))
                return
            if isinstance(message, Upgrade):
                self._on_upgrade(message)
            else:
                self._on_manage(message)
        self._stop_if_idle()
        self._settle(seq)
        self.services.events.publish(
            "message",
            actor=self.name,
            method=_method_label(message),
            query=False,
            seconds=time.perf_counter() - started,
            instructions=self.turn.effects.instructions,
            trapped=self.turn.effects.trapped,
        )
        if self._deferred and not self._calls.callbacks:
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
        if isinstance(message, Call) and isinstance(message.origin, FromActor):
            self.turn = self._new_turn()
            self.turn.answer(
                message.origin,
                Outcome.reject(
                    Reject.SYS_TRANSIENT,
                    f"actor {self.name} is being upgraded; call again when it is done",
                    message.cycles,
                ),
            )
            self._settle(seq)
        else:
            self._deferred.append((seq, message))
        return True

    def _settle(self, seq: int | None, effects: Effects | None = None) -> None:
        """Settle the message handled now; given ``effects`` (of nothing), write the messages held."""
        effects = effects or self.turn.effects
        self.footprint = self.memory_sizes()
        tasks.check_low_memory(self.canister, self.footprint[0])
        held = effects is self.turn.effects and self._held.hold(effects, self._queue.qsize())
        with_held = self._held.writing(effects, held)  # (the log: a trapped task's prints and trap)
        changed = not held and (with_held or seq is not None or effects.wrote or self.canister.log.changed)
        delta = effects.delta(self.instance, self._state(), self.canister.log) if changed else None
        self.services.settle(self, seq, effects, delta, hold=held)
        if with_held:
            self._held.written()

    # --- calls -------------------------------------------------------------------------------
    def _on_call(self, call: Call) -> None:
        refusal = self._call_refusal(call)
        if refusal is not None:  # no update ran (a query keeps nothing, as the IC's replicated query): all go back
            self.turn.answer(call.origin, replace(refusal, refund=call.cycles))
            return
        context_id = self._calls.begin(call.caller, call.origin, call.deadline, call.cycles)
        execution = Execution(
            "U",
            arg=call.arg,
            caller=call.caller,
            may_respond=True,
            deadline=call.deadline,
            cycles_available=call.cycles,
            balance=self.turn.balance(),
        )
        self._execute(context_id, execution, export=f"canister_update {call.method}")
        self._close_if_done(context_id)

    def _call_refusal(self, call: Call) -> Outcome | None:
        """The answer to a call that does not run an update method here (a query method called as an
        update runs now, as a query), or None."""
        refusal = self.refusal()
        if refusal is not None:
            return refusal
        kind = self.method_kind(call.method)
        if kind is None:
            return Outcome.reject(Reject.DESTINATION_INVALID, f"actor {self.name} has no method {call.method!r}")
        if kind == "query":  # a query method called as an update runs as a query: no trace
            return self.services.queries.run(self, self._code, call.method, call.arg, call.caller, None)
        if kind == "composite_query":  # as on the IC: never in replicated mode
            return Outcome.reject(
                Reject.CANISTER_ERROR,
                f"{self.name}.{call.method} is a composite query: it cannot be called as an update or from an update",
            )
        if isinstance(call.origin, FromOutside) and not self.services.queries.accepts(self._code, call):
            return Outcome.reject(
                Reject.CANISTER_REJECT, f"actor {self.name} did not accept the message ({call.method})"
            )
        return None

    def _on_timer(self) -> None:
        self._code.timer = 0  # the IC deactivates the timer before it runs the task
        if self._code.has_export("canister_global_timer"):
            self._run_task("canister_global_timer")

    def _run_task(self, export: str) -> None:
        """Run a system task: no caller waits for it; what it calls answers to its own callbacks."""
        context_id = self._calls.begin(MANAGEMENT, FromSystem())
        self._execute(context_id, Execution("T", caller=MANAGEMENT, balance=self.turn.balance()), export=export)
        self._close_if_done(context_id)

    def _on_response(self, response: Response) -> None:
        answered = self._calls.answered(response.callback)
        if answered is None:  # the second answer to a bounded-wait call: the callee's, or its deadline's
            log.debug("actor %s: second answer for callback %d dropped", self.name, response.callback)
            return
        context, context_id, call = answered
        outcome = response.outcome
        # As on the IC: the refund is in the balance before the callback runs, whatever it does.
        self.turn.effects.cycles += outcome.refund
        replied = outcome.reply is not None
        execution = Execution(
            "Ry" if replied else "Rt",
            arg=outcome.reply or b"",
            caller=context.caller,
            may_respond=not context.responded,
            reject_code=outcome.reject_code,
            reject_message=outcome.reject_message,
            deadline=context.deadline,
            cycles_available=context.cycles,
            cycles_refunded=outcome.refund,
            balance=self.turn.balance(),
        )
        trap = self._execute(context_id, execution, callback=call.reply if replied else call.reject)
        if trap is not None and call.cleanup is not None:
            cleanup = Execution(
                "C", caller=context.caller, reject_code=outcome.reject_code, balance=self.turn.balance()
            )
            self._execute(context_id, cleanup, callback=call.cleanup)
        self._close_if_done(context_id)

    def _execute(
        self,
        context_id: int,
        execution: Execution,
        *,
        export: str | None = None,
        callback: tuple[int, int] | None = None,
    ) -> str | None:
        """Run one entry point for a call context and keep its effects if it did not trap."""
        instance, effects = self._code, self.turn.effects
        self.turn.begin(instance)
        execution.in_flight = self._calls.in_flight
        trap = instance.invoke(execution, export, callback, fuel=self.services.limits.instructions_per_message)
        effects.instructions += instance.instructions_used()
        context = self._calls.open[context_id]
        if trap is None:
            trap = self.turn.past_total(instance)
        if trap is not None:
            instance.rollback()
            context.last_trap = trap
            effects.trapped = True
            return trap
        for call in execution.calls:  # (before the commit: a device call may start now)
            self.turn.call(self._calls.called(context_id, call), call)
        with self.replicas.committing:
            memory_pages, stable_pages = instance.commit()
            self.replicas.committed(memory_pages, stable_pages)
            if execution.certified_data is not None:  # with the commit: queries see both or neither
                self.canister.certified_data = execution.certified_data
        effects.executed = True
        self.canister.version += 1
        effects.memory_pages.update(memory_pages)
        effects.stable_pages.update(stable_pages)
        effects.cycles += execution.balance_change
        effects.burned += execution.cycles_burned
        context.cycles = execution.cycles_available
        outcome = Outcome.answering(execution.response)
        if outcome is not None:  # what is still on offer as the entry point that answered ends goes back
            context.responded, context.cycles = True, 0
            self.turn.answer(context.origin, replace(outcome, refund=execution.cycles_available))
        return None

    def _close_if_done(self, context_id: int) -> None:
        unanswered = self._calls.close_if_done(context_id, self.name)
        if unanswered is not None:
            self.turn.answer(*unanswered)

    # --- code, and the management canister's calls -------------------------------------------
    def _on_upgrade(self, upgrade: Upgrade) -> None:
        """The operator's upgrade (``Host.upgrade``): the heap of enhanced persistence is kept."""
        try:
            self.replace_code(upgrade.module, EMPTY_ARGS, ANONYMOUS, keep_state=True, persistence="keep")
        except installs.CodeRefused as refusal:
            self.turn.answer(upgrade.origin, Outcome.reject(Reject.CANISTER_REJECT, str(refusal)))
        else:
            self.turn.answer(upgrade.origin, Outcome(b""))

    def replace_code(
        self, module: bytes, arg: bytes, caller: bytes, *, keep_state: bool, persistence: str | None = None
    ) -> None:
        """Run ``module`` from now on: upgraded (``keep_state``, with install_code's ``persistence``
        option), else installed afresh; raises `installs.CodeRefused`, the old code and state untouched."""
        if keep_state:
            new, certified_data = installs.upgrade(
                self.services, self.turn, self.name, self._code, module, arg, caller, persistence
            )
            with self.replicas.committing:
                new.commit()
                self.adopt(new, module, certified_data)
        else:
            logged_before = self.canister.log.next_idx
            new, certified_data = installs.fresh(
                self.services, self.turn, self.name, module, arg, caller, self.instance
            )
            self.adopt(new, module, certified_data)
            self.canister.log.drop_before(logged_before)  # as on the IC, a reinstall empties the log
        self.turn.effects.full = True
        self.canister.version += 1

    def _on_manage(self, call: Manage) -> None:
        outcome = self.services.manage(self, call)
        if outcome is not None:
            self.turn.answer(call.origin, outcome)

    def _stop_if_idle(self) -> None:
        if self.canister.status == STOPPING and not self._calls.open:
            self.canister.status = STOPPED
            for origin in self.canister.stop_waiters:
                self.turn.answer(origin, Outcome(EMPTY_ARGS))  # stop_canister's reply, ()
            self.canister.stop_waiters = []


def _replaces_code(message) -> bool:
    """Whether the message swaps the actor's code, so must wait until no call of the old code is open."""
    if isinstance(message, Upgrade) or message.op == "load_canister_snapshot":
        return True
    return message.detail.get("mode", "install") != "install"


def _method_label(message) -> str:
    """The name a handled message goes by in events: its method, or what kind of message it was."""
    if message is tasks.TIMER:
        return "(timer)"
    if message is tasks.HEARTBEAT:
        return "(heartbeat)"
    if message is tasks.LOW_MEMORY:
        return "(low memory)"
    if isinstance(message, Call):
        return message.method
    return f"({type(message).__name__.lower()})"  # (response), (upgrade), (manage)
