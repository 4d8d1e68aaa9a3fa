"""An actor: its instance, its call contexts and callbacks, and the thread that runs its messages.

Each actor processes one message at a time on its own thread, so a long message holds up only its own
actor. Messages arrive on a queue: calls (from HTTP or other actors), responses to the actor's own
calls, upgrades, and the actor's global timer when it comes due. Queries from outside, composite ones
and the queries those call included, do not wait for the actor's turn: they run on query replicas of its
last committed state (`Actor.query`, `replicas.py`). What a message produces (a
response, outgoing calls, a new timer) takes effect only if it did not trap; it leaves the actor as
data (answers to origins, calls to callees, a snapshot delta) handed to the host's `settle`, which
writes it durably and delivers it.
"""

from __future__ import annotations

import hashlib
import logging
import queue
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from .canister import MAX_CHUNKS, RUNNING, STOPPED, STOPPING, Canister
from .instance import EMPTY_ARGS, Instance, Interrupted
from .journal import Delta
from .management import reply, status_record
from .messages import ANONYMOUS, MANAGEMENT, Call, Manage, Origin, Outcome, Reject, Response, Upgrade
from .replicas import NoReplica, Replicas
from .system_api import Execution, OutgoingCall

if TYPE_CHECKING:
    from .host import Host

log = logging.getLogger("moxzid")


MAX_CALL_DEPTH = 6  # how deep a composite query's calls may go, its own method at depth 1: the IC's limit


class CallGraphBudget:
    """The instructions a composite query's whole call graph may still run: its method, the queries it
    calls (composite ones with their own calls) and every callback, together, as the IC's limit on a
    query call graph (its per-query limit, 5 billion instructions, bounds each of them besides).
    The graph runs depth first on one thread (each call on a replica of its callee, while the caller
    waits), so ``depth``, how many queries of the graph are running now, is one number too."""

    def __init__(self, instructions: int):
        self.limit = instructions
        self.left = instructions
        self.depth = 1

    def fuel(self, per_query: int) -> int:
        return max(min(per_query, self.left), 0)

    def spend(self, instance: Instance) -> None:
        self.left -= instance.instructions_used()

    def exceeded(self) -> Outcome:
        return Outcome.reject(
            Reject.CANISTER_ERROR,
            f"composite query calls exceeded the instruction limit: {self.limit:,} instructions for the "
            "composite query, the queries it calls and their callbacks together",
        )


@dataclass
class _Context:
    """A call being answered: by this actor's method and whatever callbacks it leads to."""

    caller: bytes
    origin: Origin
    outstanding: int = 0
    responded: bool = False
    last_trap: str | None = None
    deadline: int = 0  # the call's (Call.deadline), for its method and callbacks
    cycles: int = 0  # what the caller attached and no entry point accepted yet (0 once answered)


@dataclass
class _Step:
    """What handling one message produced, for the host to settle."""

    answers: list[tuple[Origin, Outcome]] = field(default_factory=list)
    calls: list[tuple[int, OutgoingCall]] = field(default_factory=list)
    memory_pages: set[int] = field(default_factory=set)
    stable_pages: set[int] = field(default_factory=set)
    full: bool = False
    executed: bool = False  # an entry point completed (the canister's version moved)
    deleted: bool = False  # delete_canister: the actor and its state go
    instructions: int = 0  # wasm instructions its entry points ran (billed, trapped or not)
    trapped: bool = False  # one of its entry points trapped
    chunks: dict[bytes, bytes] = field(default_factory=dict)  # chunks uploaded to the chunk store
    chunks_cleared: bool = False  # clear_chunk_store
    cycles: int = 0  # what it did to the balance: accepted and refunds in, attached to calls and burned out
    burned: int = 0  # cycles it burned (ic0.cycles_burn128), counted as spent


_STOP = object()
_HEARTBEAT = object()  # the message that runs canister_heartbeat (None: the global timer)
HEARTBEAT_SECONDS = 1.0  # how often canister_heartbeat runs: the IC runs it about once a round


class Actor:
    """A hosted actor. ``post`` and ``query`` are thread-safe; everything else runs on the actor's own
    thread.

    An actor made by create_canister has no code (``instance`` and ``module`` None) until install_code
    gives it some."""

    def __init__(
        self,
        name: str,
        principal: bytes,
        host: Host,
        instance: Instance | None,
        module: bytes | None,
        canister: Canister,
    ):
        self.name = name
        self.principal = principal
        self.canister = canister
        self.instance: Instance | None = None
        self.module: bytes | None = None  # sha256 of the running wasm
        self._replicas = Replicas(self._new_replica, lambda: self.canister.certified_data, host.limits.memory_bytes)
        if instance is not None:
            assert module is not None, "an actor with an instance has its module's hash"
            self._adopt(instance, module)
        self._host = host
        self._limits = host.limits
        self._queue: queue.Queue = queue.Queue()
        self._contexts: dict[int, _Context] = {}
        self._callbacks: dict[int, tuple[int, OutgoingCall]] = {}
        self._in_flight: Counter[bytes] = Counter()  # callbacks by callee: for the output queue's limit
        self._ids = 0
        self._deferred: list[tuple[int | None, object]] = []  # waiting for outstanding callbacks (an upgrade)
        self._thread: threading.Thread | None = None
        self._stopping = False
        self._step = _Step()
        self._next_heartbeat = 0.0  # time.monotonic() when canister_heartbeat is due
        self.footprint = (0, 0)  # (memory, stable memory) bytes after the last message: read by any thread

    @property
    def prepared(self):
        return self.instance.prepared

    @property
    def _code(self) -> Instance:
        """The instance, where the caller knows there is one: a call or query past ``_refusal``, a task
        or upgrade (only an actor with code has them)."""
        assert self.instance is not None, f"actor {self.name} has no code"
        return self.instance

    def _adopt(self, instance: Instance, module: bytes, certified_data: bytes | None = None) -> None:
        """Run ``instance`` from now on, with ``certified_data`` (None: the certified data is kept)."""
        instance.canister = self.canister  # what ic0.is_controller, canister_status ... read
        with self._replicas.committing:
            self.instance, self.module = instance, module
            self._replicas.replace(instance)
            if certified_data is not None:
                self.canister.certified_data = certified_data

    def _new_replica(self) -> Instance:
        assert self.module is not None, "only an actor with code has replicas"
        return self._instantiate(self.module, replica=True)

    def _instantiate(self, module: bytes, stable: bytes = b"", *, replica: bool = False) -> Instance:
        """A new instance of ``module`` for this actor, reading this actor's canister record (controllers,
        status, version) from its first entry point on: canister_init already asks ic0.is_controller."""
        instance = self._host.instantiate(module, self.name, stable, replica=replica)
        instance.canister = self.canister
        return instance

    # --- life cycle --------------------------------------------------------------------------
    def install(self) -> Delta:
        """Run the start function and canister_init; raises RuntimeError if either traps. Returns the
        whole state, for the first snapshot. An actor without code just gives its state."""
        trap = None
        if self.instance is not None:
            trap = self.instance.run_start()
            if trap is None:
                trap, self.canister.certified_data = self._run_init(self.instance, EMPTY_ARGS, ANONYMOUS)
        if trap is not None:
            raise RuntimeError(f"actor {self.name}: installation trapped: {trap}")
        return self._delta(_Step(full=True))

    def _run_init(self, instance: Instance, arg: bytes, caller: bytes) -> tuple[str | None, bytes]:
        """Run canister_init in its own transaction, keeping it unless it traps: (the trap or None, the
        certified data it set: a fresh install's, empty unless set)."""
        if not instance.has_export("canister_init"):
            return None, b""
        self._begin(instance)
        execution = Execution("I", arg=arg, caller=caller, balance=self._balance())
        trap = instance.invoke(execution, "canister_init", fuel=self._limits.instructions_per_message)
        if trap is None:
            trap = self._past_total(instance)
        if trap is None:
            instance.commit()
            self._burn(execution.cycles_burned)
        else:
            instance.rollback()
        return trap, execution.certified_data or b""

    def restore(self, state: dict) -> None:
        """Take back the call contexts and callbacks of a saved state (the instance restores itself)."""
        self._ids = state["ids"]
        if "canister" in state:  # (state records written before controllers have none: the defaults)
            self.canister = Canister.from_record(state["canister"])
            if self.instance is not None:
                self.instance.canister = self.canister
        self._contexts = {cid: _Context(*fields) for cid, fields in state["contexts"].items()}
        self._callbacks = {
            cb: (
                cid,
                OutgoingCall(
                    callee, method, tuple(reply), tuple(reject), tuple(cleanup) if cleanup else None, cycles=cycles
                ),
            )
            for cb, (cid, callee, method, reply, reject, cleanup, cycles) in state["callbacks"].items()
        }
        self._in_flight = Counter(call.callee for _, call in self._callbacks.values())

    def open_origins(self) -> list[Origin]:
        """Who waits for the calls it is still answering (its open call contexts)."""
        return [context.origin for context in self._contexts.values()]

    def _state(self) -> dict:
        return {
            **(self.instance.state() if self.instance else {}),
            "module": self.module,
            "canister": self.canister.record(),
            "ids": self._ids,
            "contexts": {
                cid: [c.caller, c.origin, c.outstanding, c.responded, c.last_trap, c.deadline, c.cycles]
                for cid, c in self._contexts.items()
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
                ]
                for cb, (cid, call) in self._callbacks.items()
            },
        }

    def _delta(self, step: _Step) -> Delta:
        if self.instance is None:
            delta = Delta(self._state(), full=True)
        elif step.full:
            instance = self.instance
            delta = Delta(
                self._state(),
                instance.memory_packer.whole(instance.memory.image()),
                instance.stable_packer.whole(instance.stable.image()),
                full=True,
            )
        else:
            instance = self.instance
            delta = Delta(
                self._state(),
                instance.memory_packer.changed(step.memory_pages, instance.memory.runs),
                instance.stable_packer.changed(step.stable_pages, instance.stable.runs),
            )
        delta.chunks, delta.chunks_cleared = step.chunks, step.chunks_cleared
        return delta

    def _footprint(self) -> tuple[int, int]:
        if self.instance is None:  # not installed (yet, or any more)
            return 0, 0
        return self.instance.memory.size, self.instance.stable.size

    def _begin(self, instance: Instance) -> None:
        """Begin a message that may commit on ``instance``: it may grow the memories only into what
        moxzid's total for all actors' wasm memory has left (`memory_budget`)."""
        instance.begin(self._host.memory_budget.room(self.name, instance.reach()))

    def _past_total(self, instance: Instance) -> str | None:
        """None if the memories ``instance`` has now fit moxzid's total for all actors' wasm memory (they
        become this actor's share: `memory_budget`), else why the message that grew them must be rolled
        back."""
        size = instance.extent(committing=True)
        budget = self._host.memory_budget
        if budget.admit(self.name, size):
            return None
        return (
            f"moxzid's wasm memory for all actors is spent: actor {self.name} would hold {size >> 20} MiB "
            f"(heap and stable memory written), and all actors more than {budget.total_bytes >> 20} MiB "
            "(moxzid --total-memory-mb); the message's growth was given back"
        )

    def start(self) -> None:
        self.footprint = self._footprint()
        self._host.memory_budget.hold(self.name, 0 if self.instance is None else self.instance.extent())
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

    def post(self, seq: int, message) -> None:
        """Queue a message: ``seq`` is its place in the actor's inbox."""
        self._queue.put((seq, message))

    def query(
        self,
        method: str,
        arg: bytes,
        caller: bytes,
        budget: CallGraphBudget | None = None,
        wait: float | None = None,
    ) -> Outcome:
        """Answer a query or composite query on the calling thread, from the last committed state:
        beside the message the actor's thread runs, never seeing it. ``budget``: the instructions left
        to the composite query calling it, which it spends; ``wait``: how long it may wait for a free
        replica (None: as long as it takes), after which it is rejected. Raises Interrupted if the host
        stops."""
        refusal = self._refusal()
        if refusal is not None:
            return refusal
        started = time.perf_counter()

        def run(instance: Instance, certified_data: bytes) -> tuple[Outcome, int]:
            outcome = self._run_query(instance, method, arg, caller, certified_data, budget)
            return outcome, instance.instructions_used()

        try:
            outcome, instructions = self._replicas.run(run, wait)
        except NoReplica as why:
            return Outcome.reject(
                Reject.SYS_TRANSIENT, f"actor {self.name} has no query replica free for {method}: {why}"
            )
        self._host.events.publish(
            "message",
            actor=self.name,
            method=method,
            query=True,
            seconds=time.perf_counter() - started,
            instructions=instructions,
            trapped=outcome.reject_code == Reject.CANISTER_ERROR,
        )
        return outcome

    def awaits(self, callback: int) -> bool:
        """Whether the call ``callback`` names is still unanswered (any thread: a glance, which the
        actor's own thread settles)."""
        return callback in self._callbacks

    def method_kind(self, method: str) -> str | None:
        """'update', 'query', 'composite_query', or None when the actor exports no such method."""
        if self.instance is None:
            return None
        for kind in ("update", "query", "composite_query"):
            if self.instance.has_export(f"canister_{kind} {method}"):
                return kind
        return None

    # --- the message loop --------------------------------------------------------------------
    def _loop(self) -> None:
        while True:
            wait, task = self._task_wait()
            if wait == 0:
                seq, message = None, task  # a system task is due: it goes before queued messages
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
        outcome = Outcome.reject(Reject.SYS_FATAL, f"moxzid internal error in {self.name}: {error}")
        if isinstance(message, Call):
            self._host.settle(self, seq, [(message.origin, replace(outcome, refund=message.cycles))], [], None)
        elif isinstance(message, (Upgrade, Manage)):
            self._host.settle(self, seq, [(message.origin, outcome)], [], None)

    def _task_wait(self) -> tuple[float | None, object]:
        """Seconds until the next system task is due (None: none is), and which: the global timer
        (None) or the heartbeat."""
        if self.instance is None or self._deferred or self.canister.status != RUNNING:
            return None, None
        waits: list[tuple[float, object]] = []
        if self.instance.timer:
            waits.append((max(0.0, (self.instance.timer - time.time_ns()) / 1e9), None))
        if self.instance.has_export("canister_heartbeat"):
            waits.append((max(0.0, self._next_heartbeat - time.monotonic()), _HEARTBEAT))
        return min(waits, key=lambda wait: wait[0], default=(None, None))

    def _dispatch(self, seq: int | None, message) -> None:
        started = time.perf_counter()
        if self._deferred and self._held_for_upgrade(seq, message):
            return
        self._step = _Step()
        if message is None:
            self._on_timer()
        elif message is _HEARTBEAT:
            self._next_heartbeat = time.monotonic() + HEARTBEAT_SECONDS
            self._run_task("canister_heartbeat")
        elif isinstance(message, Call):
            self._on_call(message)
        elif isinstance(message, Response):
            self._on_response(message)
        elif isinstance(message, (Upgrade, Manage)):
            if self._callbacks and _replaces_code(message):
                self._deferred.append((seq, message))
                return
            if isinstance(message, Upgrade):
                self._on_upgrade(message)
            else:
                self._on_manage(message)
        self._stop_if_idle()
        self._settle(seq)
        self._host.events.publish(
            "message",
            actor=self.name,
            method=_method_label(message),
            query=False,
            seconds=time.perf_counter() - started,
            instructions=self._step.instructions,
            trapped=self._step.trapped,
        )
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
            self._answer(
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

    def _settle(self, seq: int | None) -> None:
        step = self._step
        self.footprint = self._footprint()
        changed = seq is not None or step.memory_pages or step.stable_pages or step.full or step.calls or step.executed
        self._host.settle(
            self,
            seq,
            step.answers,
            step.calls,
            self._delta(step) if changed else None,
            step.instructions,
            cycles=step.cycles,
            burned=step.burned,
            deleted=step.deleted,
        )

    # --- calls -------------------------------------------------------------------------------
    def _new_id(self) -> int:
        self._ids += 1
        return self._ids

    def _answer(self, origin: Origin, outcome: Outcome) -> None:
        self._step.answers.append((origin, outcome))

    def _balance(self) -> int:
        """The actor's cycle balance as the running message sees it: the ledger's, with what the
        message did to it so far (settled with the message). Only on the actor's thread."""
        return self._ledger_balance() + self._step.cycles

    def _burn(self, cycles: int) -> None:
        """Cycles a completed canister_init or upgrade hook burned (ic0.cycles_burn128), settled with the
        message that ran it (install_code, an upgrade). A manifest actor's first canister_init runs
        before any message, and what it burns is not taken."""
        self._step.cycles -= cycles
        self._step.burned += cycles

    def _ledger_balance(self) -> int:
        """The actor's cycle balance in the ledger (any thread: what queries and installs see)."""
        ledger = self._host.ledger
        return ledger.balance(self.name) if ledger is not None else 0

    def _refusal(self) -> Outcome | None:
        """Why this actor takes no calls now (it has no code, or is stopping or stopped), if so."""
        if self.canister.status != RUNNING:
            return Outcome.reject(Reject.CANISTER_ERROR, f"canister {self.name} is {self.canister.status}")
        if self.instance is None:
            return Outcome.reject(Reject.CANISTER_ERROR, f"canister {self.name} is empty: it has no code installed")
        return None

    def _on_call(self, call: Call) -> None:
        refusal = self._call_refusal(call)
        if refusal is not None:  # no update ran (a query keeps nothing, as the IC's replicated query): all go back
            self._answer(call.origin, replace(refusal, refund=call.cycles))
            return
        context_id = self._new_id()
        self._contexts[context_id] = _Context(call.caller, call.origin, deadline=call.deadline, cycles=call.cycles)
        execution = Execution(
            "U",
            arg=call.arg,
            caller=call.caller,
            may_respond=True,
            deadline=call.deadline,
            cycles_available=call.cycles,
            balance=self._balance(),
        )
        self._execute(context_id, execution, export=f"canister_update {call.method}")
        self._close_if_done(context_id)

    def _call_refusal(self, call: Call) -> Outcome | None:
        """The answer to a call that does not run an update method here (a query method called as an
        update runs now, as a query), or None."""
        refusal = self._refusal()
        if refusal is not None:
            return refusal
        kind = self.method_kind(call.method)
        if kind is None:
            return Outcome.reject(Reject.DESTINATION_INVALID, f"actor {self.name} has no method {call.method!r}")
        if kind == "query":  # a query method called as an update runs as a query: no trace
            return self._run_query(self._code, call.method, call.arg, call.caller, None)
        if kind == "composite_query":  # as on the IC: never in replicated mode
            return Outcome.reject(
                Reject.CANISTER_ERROR,
                f"{self.name}.{call.method} is a composite query: it cannot be called as an update or from an update",
            )
        if call.origin[0] == "ingress" and not self._inspect(call):
            return Outcome.reject(
                Reject.CANISTER_REJECT, f"actor {self.name} did not accept the message ({call.method})"
            )
        return None

    def _run_query(
        self,
        instance: Instance,
        method: str,
        arg: bytes,
        caller: bytes,
        certified_data: bytes | None,
        budget: CallGraphBudget | None = None,
    ) -> Outcome:
        """A query method on ``instance``: replicated (a query method called as an update) when
        ``certified_data`` is None, else non-replicated, with a data certificate of ``certified_data``
        (the data the state ``instance`` holds set) if the host has a certifier. ``budget``: the
        instructions left to the composite query that called it, which it spends."""
        refusal = self._refusal()
        if refusal is not None:
            return refusal
        replicated = certified_data is None
        if certified_data is not None and instance.has_export(f"canister_composite_query {method}"):
            return self._run_composite(instance, method, arg, caller, certified_data, budget)
        if not instance.has_export(f"canister_query {method}"):
            return Outcome.reject(Reject.DESTINATION_INVALID, f"actor {self.name} has no query method {method!r}")
        execution = Execution(
            "RQ" if replicated else "NRQ", arg=arg, caller=caller, may_respond=True, balance=self._ledger_balance()
        )
        execution.data_certificate = self._data_certificate(certified_data)
        per_query = self._limits.instructions_per_query
        instance.begin()
        trap = instance.invoke(
            execution, f"canister_query {method}", fuel=budget.fuel(per_query) if budget else per_query
        )
        instance.rollback()  # a query leaves no trace
        if budget is not None:
            budget.spend(instance)
            if trap is not None and budget.left <= 0:
                return budget.exceeded()
        if trap is not None:
            return Outcome.reject(Reject.CANISTER_ERROR, f"actor {self.name} trapped: {trap}")
        return _outcome(execution) or Outcome.reject(Reject.CANISTER_ERROR, f"actor {self.name}: query did not reply")

    def _data_certificate(self, certified_data: bytes | None) -> Callable[[], bytes] | None:
        """What makes a non-replicated query's data certificate of ``certified_data`` (None: it has none)."""
        certifier, principal = self._host.certifier, self.principal
        if certifier is None or certified_data is None:
            return None
        return lambda: certifier.certify_data(principal, certified_data)

    def _run_composite(
        self,
        instance: Instance,
        method: str,
        arg: bytes,
        caller: bytes,
        certified_data: bytes,
        budget: CallGraphBudget | None,
    ) -> Outcome:
        """A composite query on ``instance`` (a replica): its calls go to other actors' queries, run at
        once on this thread (``Host.composite_call``), and their callbacks run in the same rolled-back
        transaction, until one of them answers. The method itself (not its callbacks) has a data
        certificate, as on the IC. All of it spends one ``budget`` (a new one, unless another composite
        query called this one)."""
        per_query = self._limits.instructions_per_query
        budget = budget or CallGraphBudget(per_query)
        execution = Execution("CQ", arg=arg, caller=caller, may_respond=True, balance=self._ledger_balance())
        execution.data_certificate = self._data_certificate(certified_data)
        instance.begin()
        trap = instance.invoke(execution, f"canister_composite_query {method}", fuel=budget.fuel(per_query))
        budget.spend(instance)
        response, calls = execution.response, list(execution.calls)
        # Once it has answered, the calls it has not made yet and the callbacks of those it made are
        # dropped, as the IC's query call graph does ("if a response is produced, then the DFS traversal
        # takes a shortcut and discards the sub-graph of that node": they cannot change the answer, and
        # a query leaves no trace) -- rs/execution_environment/src/query_handler/query_call_graph.rs.
        while trap is None and response is None and calls and budget.left > 0:
            call = calls.pop(0)
            outcome = self._host.composite_call(self, call, budget)
            if budget.left <= 0:
                break  # the query it called ran the graph's budget out: the whole composite query fails
            replied = outcome.reply is not None
            callback = Execution(
                "CRy" if replied else "CRt",
                arg=outcome.reply or b"",
                caller=caller,
                may_respond=True,
                reject_code=outcome.reject_code,
                reject_message=outcome.reject_message,
            )
            trap = instance.invoke(
                callback, callback=call.reply if replied else call.reject, fuel=budget.fuel(per_query)
            )
            budget.spend(instance)
            if trap is not None and call.cleanup is not None and budget.left > 0:
                cleanup = Execution("CC", caller=caller, reject_code=outcome.reject_code)
                instance.invoke(cleanup, callback=call.cleanup, fuel=budget.fuel(per_query))
                budget.spend(instance)
            response = callback.response
            calls += callback.calls
        instance.rollback()  # a query leaves no trace
        if budget.left <= 0:
            return budget.exceeded()
        if trap is not None:
            return Outcome.reject(Reject.CANISTER_ERROR, f"actor {self.name} trapped: {trap}")
        return _response_outcome(response) or Outcome.reject(
            Reject.CANISTER_ERROR, f"actor {self.name}: composite query did not reply"
        )

    def _inspect(self, call: Call) -> bool:
        instance = self._code
        if not instance.has_export("canister_inspect_message"):
            return True
        execution = Execution("F", arg=call.arg, caller=call.caller, method_name=call.method)
        instance.begin()
        trap = instance.invoke(execution, "canister_inspect_message", fuel=self._limits.instructions_per_query)
        instance.rollback()
        return trap is None and execution.accepted

    def _on_timer(self) -> None:
        self._code.timer = 0  # the IC deactivates the timer before it runs the task
        if self._code.has_export("canister_global_timer"):
            self._run_task("canister_global_timer")

    def _run_task(self, export: str) -> None:
        """Run a system task: no caller waits for it; what it calls answers to its own callbacks."""
        context_id = self._new_id()
        self._contexts[context_id] = _Context(MANAGEMENT, ["system"])
        self._execute(context_id, Execution("T", caller=MANAGEMENT, balance=self._balance()), export=export)
        self._close_if_done(context_id)

    def _on_response(self, response: Response) -> None:
        entry = self._callbacks.pop(response.callback, None)
        if entry is None:  # the second answer to a bounded-wait call: the callee's, or its deadline's
            log.debug("actor %s: second answer for callback %d dropped", self.name, response.callback)
            return
        context_id, call = entry
        self._in_flight[call.callee] -= 1
        context = self._contexts[context_id]
        context.outstanding -= 1
        outcome = response.outcome
        self._step.cycles += outcome.refund  # as on the IC: in the balance before the callback runs, whatever it does
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
            balance=self._balance(),
        )
        trap = self._execute(context_id, execution, callback=call.reply if replied else call.reject)
        if trap is not None and call.cleanup is not None:
            cleanup = Execution("C", caller=context.caller, reject_code=outcome.reject_code, balance=self._balance())
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
        instance = self._code
        self._begin(instance)
        execution.in_flight = self._in_flight
        trap = instance.invoke(execution, export, callback, fuel=self._limits.instructions_per_message)
        self._step.instructions += instance.instructions_used()
        context = self._contexts[context_id]
        if trap is None:
            trap = self._past_total(instance)
        if trap is not None:
            instance.rollback()
            context.last_trap = trap
            self._step.trapped = True
            return trap
        with self._replicas.committing:
            memory_pages, stable_pages = instance.commit()
            self._replicas.committed(memory_pages, stable_pages)
            if execution.certified_data is not None:  # with the commit: queries see both or neither
                self.canister.certified_data = execution.certified_data
        self._step.executed = True
        self.canister.version += 1
        self._step.memory_pages.update(memory_pages)
        self._step.stable_pages.update(stable_pages)
        self._step.cycles += execution.balance_change
        self._step.burned += execution.cycles_burned
        context.cycles = execution.cycles_available
        outcome = _outcome(execution)
        if outcome is not None:  # what is still on offer as the entry point that answered ends goes back
            context.responded, context.cycles = True, 0
            self._answer(context.origin, replace(outcome, refund=execution.cycles_available))
        for call in execution.calls:
            callback_id = self._new_id()
            self._callbacks[callback_id] = (context_id, call)
            self._in_flight[call.callee] += 1
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
                log.warning("actor %s: system task trapped: %s", self.name, context.last_trap)
            return
        if context.last_trap is not None:
            outcome = Outcome.reject(
                Reject.CANISTER_ERROR, f"actor {self.name} trapped: {context.last_trap}", context.cycles
            )
        else:
            outcome = Outcome.reject(
                Reject.CANISTER_ERROR, f"actor {self.name} did not reply to the call", context.cycles
            )
        self._answer(context.origin, outcome)

    # --- code and the management canister's calls ------------------------------------------
    def _on_upgrade(self, upgrade: Upgrade) -> None:
        """The operator's upgrade (``Host.upgrade``): the heap of enhanced persistence is kept."""
        refusal = self._upgrade(upgrade.module, EMPTY_ARGS, ANONYMOUS, "keep")
        if refusal is None:
            self._installed()
            self._answer(upgrade.origin, Outcome(b""))
        else:
            self._answer(upgrade.origin, Outcome.reject(Reject.CANISTER_REJECT, refusal))

    def _installed(self) -> None:
        self._step.full = True
        self.canister.version += 1

    def _on_manage(self, call: Manage) -> None:
        allowed = self.canister.may_see_status if call.op == "canister_status" else self.canister.is_controller
        if not allowed(call.caller):
            self._answer(
                call.origin,
                Outcome.reject(
                    Reject.CANISTER_ERROR, f"only the controllers of canister {self.name} may call {call.op}"
                ),
            )
            return
        outcome = getattr(self, "_" + call.op)(call)
        if outcome is not None:
            self._answer(call.origin, outcome)

    def _install_code(self, call: Manage) -> Outcome:
        mode, module, arg = call.detail["mode"], call.detail["module"], call.detail["arg"]
        refusal: str | None
        if mode == "install" and self.instance is not None:
            refusal = f"canister {self.name} already has code: install with mode reinstall or upgrade"
        elif mode != "install" and self.instance is None:
            refusal = f"canister {self.name} has no code to {mode}"
        elif mode == "upgrade":
            refusal = self._upgrade(module, arg, call.caller, call.detail["persistence"])
        else:
            refusal = self._fresh(module, arg, call.caller)
        if refusal is not None:
            return Outcome.reject(Reject.CANISTER_ERROR, f"install_code ({mode}) of {self.name}: {refusal}")
        self._installed()
        return Outcome(reply("install_code"))

    def _install_chunked_code(self, call: Manage) -> Outcome:
        """install_code of the module the host put together from a chunk store (``Host``)."""
        return self._install_code(call)

    def _upload_chunk(self, call: Manage) -> Outcome:
        chunk = call.detail["chunk"]
        digest = hashlib.sha256(chunk).digest()
        if digest not in self.canister.chunks:
            if len(self.canister.chunks) >= MAX_CHUNKS:
                return Outcome.reject(
                    Reject.CANISTER_ERROR,
                    f"the chunk store of canister {self.name} is full ({MAX_CHUNKS} chunks): "
                    "call clear_chunk_store first",
                )
            self.canister.chunks[digest] = len(chunk)
            self._step.chunks[digest] = chunk
        return Outcome(reply("upload_chunk", {"hash": digest}))

    def _clear_chunk_store(self, call: Manage) -> Outcome:
        self.canister.chunks = {}
        self._step.chunks, self._step.chunks_cleared = {}, True
        return Outcome(reply("clear_chunk_store"))

    def _stored_chunks(self, call: Manage) -> Outcome:
        return Outcome(reply("stored_chunks", [{"hash": digest} for digest in self.canister.chunks]))

    def _fresh(self, module: bytes, arg: bytes, caller: bytes) -> str | None:
        """Install (or reinstall) ``module`` with empty memories, running start and canister_init."""
        try:
            new = self._instantiate(module)
        except Exception as error:
            return str(error)
        if self.instance is not None:
            new.now = self.instance.now
        trap, certified_data = new.run_start(), b""
        if trap is None:
            trap, certified_data = self._run_init(new, arg, caller)
        if trap is None:
            trap = self._past_total(new)  # (the start function's memory, where there is no canister_init)
        if trap is not None:
            return f"canister_init trapped: {trap}"
        self._adopt(new, module, certified_data)
        return None

    def _upgrade(self, module: bytes, arg: bytes, caller: bytes, persistence: str | None) -> str | None:
        """Replace the code, keeping the state; on any trap keep the old code and state untouched.
        ``persistence`` is install_code's wasm_memory_persistence: "keep" the heap of enhanced
        persistence, "replace" it, or None (refused for enhanced persistence, as on the IC)."""
        old = self._code
        self._begin(old)
        pre = Execution("G", caller=caller, balance=self._balance())
        if old.has_export("canister_pre_upgrade"):
            trap = old.invoke(pre, "canister_pre_upgrade", fuel=self._limits.instructions_per_message)
            if trap is not None:
                old.rollback()
                return f"canister_pre_upgrade trapped: {trap}"
        try:
            # The stable memory as pre_upgrade left it, copied: the old one stays for a rollback.
            new = self._instantiate(module, old.stable.read(0, old.stable.size))
        except Exception as error:
            old.rollback()
            return str(error)
        if new.prepared.memory64 != old.prepared.memory64:
            old.rollback()
            return (
                f"the new module uses {new.prepared.persistence} persistence, "
                f"the running one {old.prepared.persistence}"
            )
        if new.prepared.memory64 and persistence is None:
            old.rollback()
            return (
                "enhanced orthogonal persistence requires the wasm_memory_persistence upgrade option "
                "(keep, or replace to drop the heap)"
            )
        if new.prepared.memory64 and persistence == "keep":  # enhanced persistence: the heap is kept
            new.memory.load(old.memory.read(0, old.memory.size))
        new.now = old.now
        trap = new.run_start()
        post = Execution("I", arg=arg, caller=caller, balance=pre.cycle_balance)
        if trap is None:
            self._begin(new)
            trap = (
                new.invoke(post, "canister_post_upgrade", fuel=self._limits.instructions_per_message)
                if new.has_export("canister_post_upgrade")
                else None
            )
        if trap is None:
            trap = self._past_total(new)
        if trap is not None:
            old.rollback()  # undoes pre_upgrade's stable-memory writes; post_upgrade's were on the copy
            return f"the new code trapped while taking over the state: {trap}"
        self._burn(pre.cycles_burned + post.cycles_burned)
        with self._replicas.committing:
            new.commit()
            # The certified data an upgrade's hooks set (post_upgrade's last), else the old one, as on the IC.
            self._adopt(new, module, post.certified_data if post.certified_data is not None else pre.certified_data)
        return None

    def _canister_status(self, call: Manage) -> Outcome:
        ledger = self._host.ledger
        memory, stable = self._footprint()
        cycles = ledger.balance(self.name) if ledger is not None else 0
        return Outcome(reply("canister_status", status_record(self.canister, self.module, memory, stable, cycles)))

    def _update_settings(self, call: Manage) -> Outcome:
        settings = dict(call.detail["settings"])
        if "controllers" in settings:
            self.canister.controllers = settings.pop("controllers")
        self.canister.settings.update(settings)
        self.canister.version += 1
        self._step.executed = True
        return Outcome(reply("update_settings"))

    def _stop_canister(self, call: Manage) -> Outcome | None:
        """Stopping: calls are refused from now on; the canister is stopped (and this call answered)
        once its open calls are done (``_stop_if_idle``)."""
        if self.canister.status == STOPPED:
            return Outcome(reply("stop_canister"))
        self.canister.status = STOPPING
        self.canister.stop_waiters.append(call.origin)
        return None

    def _stop_if_idle(self) -> None:
        if self.canister.status == STOPPING and not self._contexts:
            self.canister.status = STOPPED
            for origin in self.canister.stop_waiters:
                self._answer(origin, Outcome(reply("stop_canister")))
            self.canister.stop_waiters = []

    def _start_canister(self, call: Manage) -> Outcome:
        for origin in self.canister.stop_waiters:  # as on the IC: a start cancels the stops waiting
            self._answer(
                origin,
                Outcome.reject(Reject.CANISTER_ERROR, f"canister {self.name} was started again before it stopped"),
            )
        self.canister.status, self.canister.stop_waiters = RUNNING, []
        self._step.executed = True
        return Outcome(reply("start_canister"))

    def _delete_canister(self, call: Manage) -> Outcome:
        if self.canister.status != STOPPED:
            return Outcome.reject(Reject.CANISTER_ERROR, f"canister {self.name} must be stopped before it is deleted")
        if not self.canister.created:
            return Outcome.reject(
                Reject.CANISTER_ERROR, f"actor {self.name} is named in the manifest: remove it there instead"
            )
        self._step.deleted = True
        return Outcome(reply("delete_canister"))


def _replaces_code(message) -> bool:
    """Whether the message swaps the actor's code, so must wait until no call of the old code is open."""
    return isinstance(message, Upgrade) or (
        message.op in ("install_code", "install_chunked_code") and message.detail["mode"] != "install"
    )


def _outcome(execution: Execution) -> Outcome | None:
    return _response_outcome(execution.response)


def _response_outcome(response: tuple[str, bytes] | None) -> Outcome | None:
    if response is None:
        return None
    kind, data = response
    if kind == "reply":
        return Outcome(data)
    return Outcome.reject(Reject.CANISTER_REJECT, data.decode("utf-8", "replace"))


def _method_label(message) -> str:
    """The name a handled message goes by in events: its method, or what kind of message it was."""
    if message is None:
        return "(timer)"
    if message is _HEARTBEAT:
        return "(heartbeat)"
    if isinstance(message, Call):
        return message.method
    return f"({type(message).__name__.lower()})"  # (response), (upgrade), (manage)
