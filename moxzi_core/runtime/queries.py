"""Queries and composite queries: how they run, on which instance, and what their call graphs may spend.

A query from outside never waits for its actor's turn: it runs on a query thread, on a replica of the
actor's last committed state (`query_replicas`), beside the message the actor's own thread runs. A
composite query's calls run at once, on the same thread, each on a replica of its callee, and their
callbacks in the composite query's own rolled-back transaction; the whole graph spends one instruction
allowance (`CallGraph`) and goes at most MAX_CALL_DEPTH deep. A query method called as an update (or by
another actor's update) runs on the actor's own instance in its turn, as the IC's replicated query
(`Queries.run` with no certified data). A query leaves no trace.
"""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Protocol

from ..billing import Ledger
from ..events import Events
from .engine import Instance, Interrupted, Limits
from .ic0 import Execution, OutgoingCall
from .messages import Call, Outcome, Reject
from .query_replicas import NoReplica, Replicas

MAX_CALL_DEPTH = 6  # how deep a composite query's calls may go, its own method at depth 1: the IC's limit
# Seconds a composite query's call waits for a free replica of its callee: every one the callee's memory
# limit allows may be held by other queries, some of them waiting on replicas this call graph holds.
COMPOSITE_WAIT = 30.0
# Queries from outside run on threads of their own, beside the actors' threads; each actor keeps a
# replica of its state per query running at once (`query_replicas.py`), so this (times MAX_CALL_DEPTH,
# as a composite query's calls may come back at an actor) also bounds their number.
QUERY_THREADS = max(2, min(4, os.cpu_count() or 1))


class Certifier(Protocol):
    """What signs actors' data certificates (the ic plugin's identity, with moxzid's root key)."""

    def certify_data(self, canister_id: bytes, certified_data: bytes) -> bytes:
        """CBOR of a certificate whose tree holds ``canister/<canister_id>/certified_data`` and ``time``,
        as the IC gives ``ic0.data_certificate_copy`` in a query. Called on query threads."""
        ...


class Queried(Protocol):
    """What a query needs of the actor it runs on (`actor.Actor`)."""

    name: str
    principal: bytes
    replicas: Replicas

    def refusal(self) -> Outcome | None:
        """Why the actor takes no calls now (no code, stopping, stopped), if so."""
        ...

    def method_kind(self, method: str) -> str | None: ...


class CallGraph:
    """A composite query's call graph as it runs: the instructions its method, the queries it calls
    (composite ones with their own calls) and every callback may still run together, as the IC's limit
    on a query call graph (its per-query limit, 5 billion instructions, bounds each of them besides).
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


class Queries:
    """Every actor's queries, for one host. ``ask`` runs on the event loop; the rest on any thread."""

    def __init__(
        self,
        limits: Limits,
        events: Events,
        ledger: Ledger | None,
        certifier: Callable[[], Certifier | None],
        actor_with: Callable[[bytes], Queried | None],
    ):
        """``certifier()``: what signs data certificates now (None: queries get none); ``actor_with``:
        the actor with a principal, for a composite query's calls."""
        self._limits = limits
        self._events = events
        self._ledger = ledger
        self._certifier = certifier
        self._actor_with = actor_with
        self._threads = ThreadPoolExecutor(QUERY_THREADS, thread_name_prefix="moxzi-query")

    async def ask(self, actor: Queried, method: str, arg: bytes, caller: bytes) -> Outcome:
        """A query (or composite query) from outside, answered on a query thread."""
        try:
            return await asyncio.get_running_loop().run_in_executor(
                self._threads, self.query, actor, method, arg, caller
            )
        except Interrupted:
            return Outcome.reject(Reject.SYS_TRANSIENT, "moxzid is stopping; call again when it is back")

    async def stop(self) -> None:
        await asyncio.to_thread(self._threads.shutdown, cancel_futures=True)

    def query(
        self,
        actor: Queried,
        method: str,
        arg: bytes,
        caller: bytes,
        graph: CallGraph | None = None,
        wait: float | None = None,
    ) -> Outcome:
        """Answer a query or composite query on the calling thread, from ``actor``'s last committed
        state: beside the message the actor's thread runs, never seeing it. ``graph``: the composite
        query calling it, whose instructions it spends; ``wait``: how long it may wait for a free
        replica (None: as long as it takes), after which it is rejected. Raises Interrupted if the host
        stops."""
        refusal = actor.refusal()
        if refusal is not None:
            return refusal
        started = time.perf_counter()

        def run(instance: Instance, certified_data: bytes) -> tuple[Outcome, int]:
            outcome = self.run(actor, instance, method, arg, caller, certified_data, graph)
            return outcome, instance.instructions_used()

        try:
            outcome, instructions = actor.replicas.run(run, wait)
        except NoReplica as why:
            return Outcome.reject(
                Reject.SYS_TRANSIENT, f"actor {actor.name} has no query replica free for {method}: {why}"
            )
        self._events.publish(
            "message",
            actor=actor.name,
            method=method,
            query=True,
            seconds=time.perf_counter() - started,
            instructions=instructions,
            trapped=outcome.reject_code == Reject.CANISTER_ERROR,
        )
        return outcome

    def run(
        self,
        actor: Queried,
        instance: Instance,
        method: str,
        arg: bytes,
        caller: bytes,
        certified_data: bytes | None,
        graph: CallGraph | None = None,
    ) -> Outcome:
        """A query method on ``instance``: replicated (a query method called as an update) when
        ``certified_data`` is None, else non-replicated, with a data certificate of ``certified_data``
        (the data the state ``instance`` holds set) if the host has a certifier. ``graph``: the
        composite query that called it, whose instructions it spends."""
        refusal = actor.refusal()
        if refusal is not None:
            return refusal
        replicated = certified_data is None
        if certified_data is not None and instance.has_export(f"canister_composite_query {method}"):
            return self._composite(actor, instance, method, arg, caller, certified_data, graph)
        if not instance.has_export(f"canister_query {method}"):
            return Outcome.reject(Reject.DESTINATION_INVALID, f"actor {actor.name} has no query method {method!r}")
        execution = Execution(
            "RQ" if replicated else "NRQ", arg=arg, caller=caller, may_respond=True, balance=self._balance(actor)
        )
        execution.data_certificate = self._data_certificate(actor, certified_data)
        per_query = self._limits.instructions_per_query
        instance.begin()
        trap = instance.invoke(
            execution, f"canister_query {method}", fuel=graph.fuel(per_query) if graph else per_query
        )
        instance.rollback()  # a query leaves no trace
        if graph is not None:
            graph.spend(instance)
            if trap is not None and graph.left <= 0:
                return graph.exceeded()
        if trap is not None:
            return Outcome.reject(Reject.CANISTER_ERROR, f"actor {actor.name} trapped: {trap}")
        return Outcome.answering(execution.response) or Outcome.reject(
            Reject.CANISTER_ERROR, f"actor {actor.name}: query did not reply"
        )

    def accepts(self, instance: Instance, call: Call) -> bool:
        """Whether the actor's canister_inspect_message (if it exports one) accepts a call from outside:
        run as a query is, within the query limit, leaving no trace."""
        if not instance.has_export("canister_inspect_message"):
            return True
        execution = Execution("F", arg=call.arg, caller=call.caller, method_name=call.method)
        instance.begin()
        trap = instance.invoke(execution, "canister_inspect_message", fuel=self._limits.instructions_per_query)
        instance.rollback()
        return trap is None and execution.accepted

    def _balance(self, actor: Queried) -> int:
        return self._ledger.balance(actor.name) if self._ledger is not None else 0

    def _data_certificate(self, actor: Queried, certified_data: bytes | None) -> Callable[[], bytes] | None:
        """What makes a non-replicated query's data certificate of ``certified_data`` (None: it has none)."""
        certifier, principal = self._certifier(), actor.principal
        if certifier is None or certified_data is None:
            return None
        return lambda: certifier.certify_data(principal, certified_data)

    def _composite(
        self,
        actor: Queried,
        instance: Instance,
        method: str,
        arg: bytes,
        caller: bytes,
        certified_data: bytes,
        graph: CallGraph | None,
    ) -> Outcome:
        """A composite query on ``instance`` (a replica): its calls go to other actors' queries, run at
        once on this thread (``_call``), and their callbacks run in the same rolled-back transaction,
        until one of them answers. The method itself (not its callbacks) has a data certificate, as on
        the IC. All of it spends one ``graph`` (a new one, unless another composite query called this
        one)."""
        per_query = self._limits.instructions_per_query
        graph = graph or CallGraph(per_query)
        execution = Execution("CQ", arg=arg, caller=caller, may_respond=True, balance=self._balance(actor))
        execution.data_certificate = self._data_certificate(actor, certified_data)
        instance.begin()
        trap = instance.invoke(execution, f"canister_composite_query {method}", fuel=graph.fuel(per_query))
        graph.spend(instance)
        response, calls = execution.response, list(execution.calls)
        # Once it has answered, the calls it has not made yet and the callbacks of those it made are
        # dropped, as the IC's query call graph does ("if a response is produced, then the DFS traversal
        # takes a shortcut and discards the sub-graph of that node": they cannot change the answer, and
        # a query leaves no trace) -- rs/execution_environment/src/query_handler/query_call_graph.rs.
        while trap is None and response is None and calls and graph.left > 0:
            call = calls.pop(0)
            outcome = self._call(actor, call, graph)
            if graph.left <= 0:
                break  # the query it called ran the graph's instructions out: the whole composite query fails
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
                callback, callback=call.reply if replied else call.reject, fuel=graph.fuel(per_query)
            )
            graph.spend(instance)
            if trap is not None and call.cleanup is not None and graph.left > 0:
                cleanup = Execution("CC", caller=caller, reject_code=outcome.reject_code)
                instance.invoke(cleanup, callback=call.cleanup, fuel=graph.fuel(per_query))
                graph.spend(instance)
            response = callback.response
            calls += callback.calls
        instance.rollback()  # a query leaves no trace
        if graph.left <= 0:
            return graph.exceeded()
        if trap is not None:
            return Outcome.reject(Reject.CANISTER_ERROR, f"actor {actor.name} trapped: {trap}")
        return Outcome.answering(response) or Outcome.reject(
            Reject.CANISTER_ERROR, f"actor {actor.name}: composite query did not reply"
        )

    def _call(self, caller: Queried, call: OutgoingCall, graph: CallGraph) -> Outcome:
        """The answer to a call a composite query of ``caller`` made: an actor's query (or composite
        query) run now, on this thread and a replica of that actor's last committed state, spending the
        composite query's ``graph``. A call to the caller's own actor runs on another of its replicas,
        so it sees the committed state, not what the caller changed so far, as on the IC. It waits at
        most COMPOSITE_WAIT seconds for a free replica (two actors whose composite queries call each
        other may each hold the other's last one), and the calls go at most MAX_CALL_DEPTH deep."""
        target = self._actor_with(call.callee)
        if target is None:
            return Outcome.no_route(call.callee)
        if target.method_kind(call.method) not in ("query", "composite_query"):
            return Outcome.reject(
                Reject.CANISTER_ERROR,
                f"a composite query may call only query methods, and {target.name}.{call.method} is not one",
            )
        if graph.depth >= MAX_CALL_DEPTH:
            return Outcome.reject(
                Reject.CANISTER_ERROR, f"composite query calls exceeded the maximum call depth ({MAX_CALL_DEPTH})"
            )
        graph.depth += 1
        try:
            return self.query(target, call.method, bytes(call.data), caller.principal, graph, COMPOSITE_WAIT)
        finally:
            graph.depth -= 1
