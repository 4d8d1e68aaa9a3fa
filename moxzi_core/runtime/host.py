"""The host: every actor of a manifest, the routes between them, and the API gateways call.

Calls between actors travel as messages on the callee's queue; the answer comes back as a message on
the caller's. Calls to the management canister (``aaaaa-aa``) go to the system methods plugins provide
(the tensor device's ``moxzi_device_*``), which run on the host's event loop, off every actor's thread.

Every message is recorded in the store before it runs, and everything a completed message did (its
snapshot delta, the messages it sent, its inbox entry consumed) is written in one batch (`settle`).
Answers to the outside wait until that batch is flushed to disk. At start-up each actor comes back as
its last completed message left it, and what its inbox still holds runs again.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import os
import secrets
import threading
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from types import MappingProxyType
from typing import Protocol

import wasmtime

from .. import errors
from ..billing import MAX_BALANCE
from ..build import BuildError, stable_incompatibilities
from ..candid import Principal, Service, Some, parse_did, service_from_sections
from ..events import Events
from ..store import Batch, MemoryStore, Store, StoreError
from .actor import MAX_CALL_DEPTH, Actor, CallGraphBudget
from .canister import DEFAULT_SETTINGS, MAX_CHUNK_BYTES, MAX_CHUNKS, Canister
from .inbox_bounds import MAX_QUEUED_CALLS, MAX_QUEUED_MB, TOTAL_QUEUED_MB, InboxBounds, MiB
from .instance import Instance, Interrupted, Limits, UnsupportedModule, new_engine
from .journal import Attachment, Delta, Journal, Spool
from .management import (
    CREATING,
    MANAGEMENT_NAME,
    METHODS,
    TAKING_CYCLES,
    BadArgument,
    CanisterIds,
    Randomness,
    arguments,
    reply,
    settings_change,
)
from .memory_budget import MemoryBudget, default_total_mb
from .messages import (
    ANONYMOUS,
    MANAGEMENT,
    Call,
    Manage,
    Origin,
    Outcome,
    Reject,
    Response,
    Upgrade,
    from_outside,
    from_record,
    response_to,
    to_record,
)
from .replays import Replays
from .system_api import OutgoingCall
from .system_calls import CheckpointPolicy, SystemCalls, SystemMethod, SystemState
from .wasm_rewrite import PreparedModule, prepare

log = logging.getLogger("moxzid")
# Seconds a composite query's call waits for a free replica of its callee: every one the callee's memory
# budget allows may be held by other queries, some of them waiting on replicas this call graph holds.
COMPOSITE_WAIT = 30.0

# Queries from outside run on threads of their own, beside the actors' threads; each actor keeps a
# replica of its state per query running at once (`replicas.py`), so this (times MAX_CALL_DEPTH, as a
# composite query's calls may come back at an actor) also bounds their number.
QUERY_THREADS = max(2, min(4, os.cpu_count() or 1))
# How many actors create_canister may make (those not deleted), by default: each may grow its memory to
# its budget, so their number bounds what clients who create actors can make moxzid hold.
MAX_CREATED_ACTORS = 100


class CreationRefused(ValueError):
    """create_canister is refused: moxzid holds as many created actors as it may (a retry may succeed
    once one is deleted)."""


@dataclass(frozen=True)
class ActorSpec:
    name: str
    wasm: bytes
    did: str | None = None  # the .did beside the wasm, if any
    controllers: tuple[bytes, ...] = ()  # its controllers when first installed (principals' bytes)


@dataclass(frozen=True)
class ActorInfo:
    name: str
    principal: Principal
    interface: Service
    mode: str  # "enhanced" or "classic" persistence, or "empty" (a created actor without code yet)
    module_hash: bytes | None  # sha256 of the wasm the actor runs, as the IC's module_hash (None: empty)
    metadata: Mapping[str, bytes]  # the module's `icp:public NAME` and `icp:private NAME` sections by NAME
    controllers: tuple[bytes, ...] = ()  # its controllers now (principals' bytes)
    private_metadata: frozenset[str] = frozenset()  # the NAMEs of `icp:private` sections: controllers' only


def actor_principal(name: str) -> bytes:
    """The stable principal of the actor named ``name``: same name, same principal, every start.

    Shaped like an IC canister id (8 bytes and the opaque-id suffix 0x01)."""
    return hashlib.sha256(b"moxzi actor\0" + name.encode()).digest()[:8] + b"\x01\x01"


class Certifier(Protocol):
    """What signs actors' data certificates (the ic plugin's identity, with moxzid's root key)."""

    def certify_data(self, canister_id: bytes, certified_data: bytes) -> bytes:
        """CBOR of a certificate whose tree holds ``canister/<canister_id>/certified_data`` and ``time``,
        as the IC gives ``ic0.data_certificate_copy`` in a query. Called on query threads."""
        ...


class Host:
    def __init__(
        self,
        specs: list[ActorSpec],
        limits: Limits = Limits(),
        system_methods: dict[str, SystemMethod] | None = None,
        store: Store | None = None,
        *,
        system_state: SystemState | None = None,
        checkpoint: CheckpointPolicy | None = CheckpointPolicy(),
        ledger=None,
        seed: int | None = None,
        events: Events | None = None,
        max_created_actors: int = MAX_CREATED_ACTORS,
        total_memory_bytes: int | None = None,
        max_queued_calls: int = MAX_QUEUED_CALLS,
        max_queued_bytes: int = MAX_QUEUED_MB * MiB,
        total_queued_bytes: int = TOTAL_QUEUED_MB * MiB,
    ):
        """``system_methods`` are the management canister's methods plugins provide (the device's);
        ``system_state`` is what they change, copied per ``checkpoint`` (None: calls to them are not
        recorded, for a store that does not outlive the process); ``ledger`` (moxzi_core.billing)
        charges actors for device time and instructions, if given; ``seed`` makes raw_rand's bytes
        the same on every run. ``events`` (moxzi_core.events, a new stream if not given) gets what
        happens: handled messages, device calls, copies. ``max_created_actors``: how many actors
        create_canister may make that delete_canister has not deleted (the manifest's do not count);
        ``total_memory_bytes``: the wasm memory all actors may hold together (`memory_budget`; None: a
        quarter of the machine's RAM); ``max_queued_calls`` and ``max_queued_bytes``: the calls from
        outside each actor's inbox may hold, queued or running, and their bytes; ``total_queued_bytes``:
        their bytes in all actors' inboxes (one more past any is rejected SYS_TRANSIENT: `inbox_bounds`)."""
        self.limits = limits
        self.max_created_actors = max_created_actors
        self.inboxes = InboxBounds(max_queued_calls, max_queued_bytes, total_queued_bytes)
        self.memory_budget = MemoryBudget(
            default_total_mb() << 20 if total_memory_bytes is None else total_memory_bytes
        )
        self.events = events or Events()
        self.system_state = system_state  # the device, for plugins that show it
        self.store = store or MemoryStore()
        if ledger is not None and ledger.store is not self.store:
            raise ValueError("the ledger must keep its accounts in the host's store (one batch holds both)")
        self.ledger = ledger
        self._journal = Journal(self.store)
        self._system = SystemCalls(
            self._journal, dict(system_methods or {}), system_state, checkpoint, ledger, self.events
        )
        self._specs = specs
        self._engine = new_engine()
        self._modules: dict[bytes, tuple[PreparedModule, wasmtime.Module]] = {}
        self._actors: dict[str, Actor] = {}
        self._by_principal: dict[bytes, Actor] = {}
        self._interfaces: dict[str, tuple[bytes | None, Service]] = {}  # name -> (module, its interface)
        self._next_seq: dict[str, int] = {}
        self._waiting: dict[str, asyncio.Future] = {}  # ingress request id -> its caller's future
        self._replays: Replays | None = None  # from start()
        self._upgrading: dict[str, asyncio.Lock] = {}
        self._lock = threading.Lock()  # orders inbox appends: a message's place = its delivery order
        self._queries = ThreadPoolExecutor(QUERY_THREADS, thread_name_prefix="moxzi-query")
        self._loop: asyncio.AbstractEventLoop | None = None
        self._random = Randomness(self.store, seed)
        self._canister_ids = CanisterIds(self.store)
        # Set by the plugin that holds moxzid's root key (the ic plugin, when it builds its routes):
        # then non-replicated queries get a data certificate; until then, and without one, none do.
        self.certifier: Certifier | None = None

    @property
    def _running_loop(self) -> asyncio.AbstractEventLoop:
        """The event loop the host runs on, from ``start`` on."""
        assert self._loop is not None, "the host is not started"
        return self._loop

    # --- life cycle --------------------------------------------------------------------------
    async def start(self) -> None:
        """Install new actors and restore saved ones (in parallel threads), then start their loops,
        re-running what their inboxes hold and re-issuing pending system calls."""
        self._loop = asyncio.get_running_loop()
        self._replays = Replays(self.store, self._loop)
        await self._system.rebuild()
        restored = await asyncio.gather(
            *(asyncio.to_thread(self._add, spec) for spec in self._specs),
            *(
                asyncio.to_thread(self._restore, name, principal, self._journal.load(name))
                for name, principal in self._journal.created_actors()
            ),
        )
        for actor in self._actors.values():
            actor.start()
        for saved in filter(None, restored):
            actor, inbox, pending = saved
            messages = [(seq, from_record(record)) for seq, record in inbox]
            for origin in actor.open_origins() + [m.origin for _, m in messages if isinstance(m, Call)]:
                if origin[0] == "ingress" and len(origin) == 4:  # a keyed call, to run or answer again
                    self._replays.resume(origin[2], origin[3])
            for seq, message in messages:
                self._post(actor, seq, message)
            for callback, (method, data, cycles) in pending:
                self._loop.call_soon(self._call_system, actor, callback, method, data, cycles)

    def _add(self, spec: ActorSpec):
        principal = actor_principal(spec.name)
        saved = self._journal.load(spec.name)
        if saved is not None:
            restored = self._restore(spec.name, principal, saved)
            if hashlib.sha256(spec.wasm).digest() == saved.state["module"]:
                self._interfaces[spec.name] = (
                    saved.state["module"],
                    _interface(self._modules[saved.state["module"]][0], spec.did, spec.name),
                )
            return restored
        batch = Batch()
        module = Journal.add_module(batch, spec.wasm)
        self._remember(module, spec.wasm, spec.name)
        self._interfaces[spec.name] = (module, _interface(self._modules[module][0], spec.did, spec.name))
        actor = Actor(
            spec.name,
            principal,
            self,
            self.instantiate(module, spec.name, principal=principal),
            module,
            Canister(list(spec.controllers)),
        )
        Journal.snapshot(batch, spec.name, actor.install())
        self.store.commit(batch)
        self._register(actor)
        return None

    def _restore(self, name: str, principal: bytes, saved):
        """Bring back an actor as the store holds it; (actor, its inbox, its pending system calls)."""
        module = saved.state["module"]
        instance = None
        if module is not None:
            instance = self.instantiate(module, name, saved.stable, principal)
            instance.restore(saved.state, saved.memory.over(instance.memory_packer.initial))
        actor = Actor(name, principal, self, instance, module, Canister())
        actor.restore(saved.state)
        self._register(actor, saved.inbox[-1][0] + 1 if saved.inbox else 0)
        log.info(
            "actor %s restored: %d message(s) to run, %d system call(s) pending",
            name,
            len(saved.inbox),
            len(saved.pending),
        )
        return actor, saved.inbox, saved.pending

    def _register(self, actor: Actor, next_seq: int = 0) -> None:
        self._next_seq[actor.name] = next_seq
        self._actors[actor.name] = actor
        self._by_principal[actor.principal] = actor

    def _remember(self, digest: bytes, wasm: bytes, name: str, prepared: PreparedModule | None = None) -> None:
        """Prepare (unless ``prepared`` is given) and compile a module once, keyed by the sha256 of its
        original wasm."""
        if digest in self._modules:
            return
        if prepared is None:
            prepared = _prepare(wasm, name, self.limits)
        try:
            module = wasmtime.Module(self._engine, prepared.wasm)
        except wasmtime.WasmtimeError as error:
            raise UnsupportedModule(f"actor {name}: the module does not compile: {error}") from None
        self._modules[digest] = (prepared, module)

    def instantiate(
        self,
        module: bytes,
        name: str,
        stable: bytes = b"",
        principal: bytes | None = None,
        *,
        replica: bool = False,
    ) -> Instance:
        """A fresh instance of a module in the store for actor ``name`` (its start function not yet run),
        or a query replica of it."""
        if module not in self._modules:  # compiled again after a restart or a refusal (an upgrade's, an install's)
            self._remember(module, self._journal.module(module), name)
        prepared, compiled = self._modules[module]
        principal = principal or self._actors[name].principal
        return Instance(
            self._engine,
            compiled,
            prepared,
            principal,
            self.limits,
            lambda text: log.info("[%s] %s", name, text, extra={"actor": name}),
            stable,
            replica=replica,
        )

    async def stop(self) -> None:
        """Stop every actor, cutting short the messages running now: what is not settled stays in the
        inboxes and runs after a restart, as after a crash."""
        for actor in self._actors.values():
            actor.stop()
        self._engine.increment_epoch()  # after the actors stopped taking messages: none starts anew
        await asyncio.gather(*(asyncio.to_thread(a.join) for a in self._actors.values()))
        await asyncio.to_thread(self._queries.shutdown, cancel_futures=True)
        await self._system.stop()

    # --- what gateways see -------------------------------------------------------------------
    def actor_names(self) -> list[str]:
        """The manifest's actors in its order (``start`` adds them in parallel), then those created
        since, oldest first."""
        manifest = [spec.name for spec in self._specs if spec.name in self._actors]
        return manifest + [name for name in self._actors if name not in manifest]

    def _actor(self, name: str) -> Actor:
        try:
            return self._actors[name]
        except KeyError:
            raise errors.UnknownActor(f"no actor named {name!r}") from None

    def footprint(self, name: str) -> tuple[int, int]:
        """Actor ``name``'s memory and stable memory in bytes, as its last handled message left them."""
        return self._actor(name).footprint

    def queued_calls(self, name: str) -> int:
        """How many calls from outside actor ``name``'s inbox holds, queued or running: at most
        ``max_queued_calls`` (more only where a restart with a lower bound restored more)."""
        self._actor(name)
        return self.inboxes.calls(name)

    def queued_bytes(self, name: str) -> int:
        """The bytes of the calls from outside actor ``name``'s inbox holds: within ``max_queued_bytes``
        but for one call (`inbox_bounds`), or as a restart with a lower bound restored them."""
        self._actor(name)
        return self.inboxes.bytes(name)

    def info(self, name: str) -> ActorInfo:
        actor = self._actor(name)
        sections = actor.prepared.custom_sections if actor.instance else {}
        metadata = {
            key.split(" ", 1)[1]: value
            for key, value in sections.items()
            if key.startswith(("icp:public ", "icp:private "))
        }
        return ActorInfo(
            name,
            Principal(actor.principal),
            self._interface(actor),
            actor.prepared.persistence if actor.instance else "empty",
            actor.module,
            MappingProxyType(metadata),
            tuple(actor.canister.controllers),
            frozenset(key.split(" ", 1)[1] for key in sections if key.startswith("icp:private ")),
        )

    def name_of(self, principal: bytes) -> str | None:
        """The name of the actor with this principal (a created actor's is its principal's text)."""
        actor = self._by_principal.get(principal)
        return actor.name if actor else None

    def _interface(self, actor: Actor) -> Service:
        cached = self._interfaces.get(actor.name)
        if cached is None or cached[0] != actor.module:  # installed or upgraded since
            service = actor.instance and service_from_sections(actor.prepared.custom_sections)
            cached = self._interfaces[actor.name] = (actor.module, service or Service({}))
        return cached[1]

    async def call(
        self, name: str, method: str, arg: bytes, *, query: bool, caller: bytes = ANONYMOUS, key: bytes | None = None
    ) -> Outcome:
        """Call ``method`` of actor ``name`` from outside, as ``caller`` (a principal's bytes).
        ``query=True`` runs only query methods, plain or composite, on the actor's last committed state,
        without waiting for the message it runs now (nor, for the queries a composite one calls, for
        their actors'); a query method called as an update runs as a query in the actor's turn and
        leaves no trace, as on the IC. ``name`` MANAGEMENT_NAME ("aaaaa-aa") calls the management
        canister's methods (``management.METHODS``), with the IC's rules on who may call them.
        ``key`` (an update call to an actor; ignored for queries): the call runs once for ``caller`` and
        that key, and a retry gets the first run's outcome, also after a crash (``replays.py``); a key
        used for another call raises errors.KeyReused."""
        if len(arg) > self.limits.max_message_bytes:
            raise errors.MessageTooLarge(
                f"the argument is {len(arg)} bytes; the limit is {self.limits.max_message_bytes}"
            )
        if name == MANAGEMENT_NAME:
            return await self._call_management(method, arg, query, caller)
        actor = self._actor(name)
        kind = actor.method_kind(method)
        if kind is None:
            raise errors.UnknownMethod(
                f"actor {name} has no method {method!r}"
                if actor.instance
                else f"actor {name} is empty: it has no code installed"
            )
        if query and kind == "update":
            raise errors.WrongMethodKind(f"{name}.{method} is an update method: call it on the call route")
        if query:
            try:
                return await self._running_loop.run_in_executor(self._queries, actor.query, method, arg, caller)
            except Interrupted:
                return Outcome.reject(Reject.SYS_TRANSIENT, "moxzid is stopping; call again when it is back")
        if key is None:
            full = self._queue_full(actor, len(arg))
            return full or await self._ingress(actor, lambda origin: Call(method, arg, caller, origin))
        assert self._replays is not None, "the host is started"
        keyed, fingerprint = Replays.key(caller, key), Replays.fingerprint(name, method, arg)
        first = self._replays.claim(keyed, fingerprint)
        if isinstance(first, Outcome):
            return first
        if first is not None:
            return await first
        full = self._queue_full(actor, len(arg))
        if full is not None:  # it did not run: a retry with the key runs it
            self._replays.release(keyed)
            return full
        return await self._ingress(actor, lambda origin: Call(method, arg, caller, [*origin, keyed, fingerprint]))

    def _queue_full(self, actor: Actor, size: int) -> Outcome | None:
        """None if ``actor``'s inbox has room for one more call from outside of ``size`` bytes, else the
        IC's reject for a full queue (SYS_TRANSIENT: nothing ran, a retry may succeed), naming the flag."""
        refusal = self.inboxes.refusal(actor.name, size)
        return None if refusal is None else Outcome.reject(Reject.SYS_TRANSIENT, refusal)

    def composite_call(self, caller: Actor, call: OutgoingCall, budget: CallGraphBudget) -> Outcome:
        """The answer to a call a composite query of ``caller`` made: an actor's query (or composite
        query) run now, on this thread and a replica of that actor's last committed state, spending the
        composite query's ``budget``. A call to the caller's own actor runs on another of its replicas,
        so it sees the committed state, not what the caller changed so far, as on the IC. It waits at
        most COMPOSITE_WAIT seconds for a free replica (two actors whose composite queries call each
        other may each hold the other's last one), and the calls go at most MAX_CALL_DEPTH deep."""
        target = self._by_principal.get(call.callee)
        if target is None:
            return Outcome.reject(Reject.DESTINATION_INVALID, f"no actor with principal {Principal(call.callee)}")
        if target.method_kind(call.method) not in ("query", "composite_query"):
            return Outcome.reject(
                Reject.CANISTER_ERROR,
                f"a composite query may call only query methods, and {target.name}.{call.method} is not one",
            )
        if budget.depth >= MAX_CALL_DEPTH:
            return Outcome.reject(
                Reject.CANISTER_ERROR, f"composite query calls exceeded the maximum call depth ({MAX_CALL_DEPTH})"
            )
        budget.depth += 1
        try:
            return target.query(call.method, bytes(call.data), caller.principal, budget, COMPOSITE_WAIT)
        finally:
            budget.depth -= 1

    async def _ingress(self, actor: Actor, message: Callable[[Origin], object], batch: Batch | None = None) -> Outcome:
        """Record a message from outside in ``actor``'s inbox, and wait for its answer."""
        request = secrets.token_hex(8)
        answer = self._waiting[request] = self._running_loop.create_future()
        try:
            self._deliver(batch or Batch(), [(actor, message(["ingress", request]))])
            return await answer
        finally:
            del self._waiting[request]

    async def upgrade(self, name: str, wasm: bytes) -> None:
        """Replace actor ``name``'s code keeping its state, or raise UpgradeRefused and change nothing."""
        actor = self._actor(name)
        async with self._upgrading.setdefault(name, asyncio.Lock()):
            digest = hashlib.sha256(wasm).digest()
            try:
                prepared, interface = await asyncio.to_thread(_prepare_with_interface, wasm, name, self.limits)
                await asyncio.to_thread(_check_stable_variables, actor.prepared, prepared, name)
                # Compiled only once the checks passed: a refused upload leaves nothing behind.
                await asyncio.to_thread(self._remember, digest, wasm, name, prepared)
            except (UnsupportedModule, ValueError) as error:
                raise errors.UpgradeRefused(str(error)) from None
            batch = Batch()
            Journal.add_module(batch, wasm)
            outcome = await self._ingress(actor, lambda origin: Upgrade(digest, origin), batch)
            if outcome.reply is None:
                self._drop_compiled(digest)
                log.warning("upgrade of %s refused: %s", name, outcome.reject_message)
                raise errors.UpgradeRefused(f"upgrade of {name} refused: {outcome.reject_message}")
            self._interfaces[name] = (digest, interface)
            log.info("upgraded %s (%d bytes, %s persistence)", name, len(wasm), prepared.persistence)

    def _drop_compiled(self, digest: bytes) -> None:
        """Forget the compiled module of a refused upload unless an actor runs it: compiled modules are
        large, and `instantiate` compiles one again from the store should it be needed."""
        if all(actor.module != digest for actor in self._actors.values()):
            self._modules.pop(digest, None)

    def _resolver(self, future: asyncio.Future) -> Callable:
        """A thread-safe callback that settles ``future`` on the event loop (once)."""

        def settle(value):
            if not future.done():
                future.set_result(value)

        return lambda value: self._running_loop.call_soon_threadsafe(settle, value)

    # --- durable delivery --------------------------------------------------------------------
    def _deliver(self, batch: Batch, messages: list[tuple[Actor, object]]) -> None:
        """Commit ``batch`` with ``messages`` appended to their actors' inboxes, then queue them."""
        with self._lock:
            queued = []
            for actor, message in messages:
                seq = self._next_seq[actor.name]
                self._next_seq[actor.name] = seq + 1
                Journal.record(batch, actor.name, seq, to_record(message))
                queued.append((actor, seq, message))
            self._commit(batch)
            for actor, seq, message in queued:
                self._post(actor, seq, message)

    def _post(self, actor: Actor, seq: int, message) -> None:
        """Queue a recorded (or restored) message for ``actor``, counting a call from outside."""
        size = from_outside(message)
        if size is not None:
            self.inboxes.hold(actor.name, seq, size)
        actor.post(seq, message)

    def _commit(self, batch: Batch) -> None:
        try:
            if self.ledger is not None:  # the batch's cycle changes are written as it commits
                self.ledger.commit(batch)
            else:
                self.store.commit(batch)
        except StoreError as error:
            # Going on would run messages whose effects are not recorded: stop, losing nothing.
            log.critical("cannot write state: %s; moxzid stops", error)
            self._running_loop.call_soon_threadsafe(self._running_loop.stop)
            raise

    def settle(
        self,
        actor: Actor,
        consumed: int | None,
        answers: list[tuple[Origin, Outcome]],
        calls: list[tuple[int, OutgoingCall]],
        delta: Delta | None,
        instructions: int = 0,
        *,
        cycles: int = 0,
        burned: int = 0,
        deleted: bool = False,
    ) -> None:
        """Make one handled message final: consume it, write the actor's delta, what it sent, what it
        cost and what it did to its cycle balance (``cycles``, of which ``burned`` were burned) in one
        batch, deliver the sent messages (with the cycles on them), start system calls, then (after a
        flush) answer outsiders. ``deleted``: the message deleted the actor (delete_canister), whose
        state goes."""
        if consumed is None and delta is None and not answers and not calls:
            return
        batch = Batch()
        if self.ledger is not None:
            if instructions:
                self.ledger.charge(batch, actor.name, "instructions", instructions)
            self.ledger.transfer(batch, actor.name, cycles, burned)
        if consumed is not None:
            Journal.consume(batch, actor.name, consumed)
            self.inboxes.release(actor.name, consumed)
        if deleted:
            Journal.forget(batch, actor.name)
            self._forget(actor)
        elif delta is not None:
            Journal.snapshot(batch, actor.name, delta)
        messages: list[tuple[Actor, object]] = []
        outside, system, keyed = [], [], []
        for origin, outcome in answers:
            if origin[0] == "ingress":
                outside.append((origin[1], outcome))
                if len(origin) == 4:  # its outcome is kept for retries, with the call's completion
                    assert self._replays is not None, "the host is started"
                    self._replays.record(batch, origin[2], outcome)
                    keyed.append((origin[2], outcome))
            elif origin[0] == "actor":
                messages.append((self._actors[origin[1]], response_to(origin, outcome)))
        for callback, call in calls:
            if call.callee == MANAGEMENT:
                Journal.pending(batch, actor.name, callback, [call.method, bytes(call.data), call.cycles])
                system.append((callback, call.method, bytes(call.data), call.cycles))
                continue
            target = self._by_principal.get(call.callee)
            if target is None:
                messages.append(
                    (
                        actor,
                        Response(
                            callback,
                            Outcome.reject(
                                Reject.DESTINATION_INVALID,
                                f"no actor with principal {Principal(call.callee)}",
                                call.cycles,
                            ),
                        ),
                    )
                )
            else:
                deadline = 0
                if call.timeout is not None:
                    assert actor.instance is not None, "an actor that made a call has code"
                    deadline = actor.instance.now + call.timeout * 10**9
                messages.append(
                    (
                        target,
                        Call(
                            call.method,
                            bytes(call.data),
                            actor.principal,
                            ["actor", actor.name, callback],
                            deadline,
                            call.cycles,
                        ),
                    )
                )
        self._deliver(batch, messages)
        for callback, call in calls:
            if call.timeout is not None and call.callee != MANAGEMENT and call.callee in self._by_principal:
                self._running_loop.call_soon_threadsafe(self._expire_later, actor, callback, call.timeout)
        if deleted:
            log.info("actor %s deleted", actor.name)
        for callback, method, data, attached in system:
            self._running_loop.call_soon_threadsafe(self._call_system, actor, callback, method, data, attached)
        # Answers to callers still waiting (not those of a caller gone, or from before a restart) go
        # out once what they report is on disk.
        futures = [(self._waiting.get(request), outcome) for request, outcome in outside]
        waiting = [(future, outcome) for future, outcome in futures if future is not None]
        if waiting or keyed:
            self.store.flush()
            for future, outcome in waiting:
                self._resolver(future)(outcome)
            for key, outcome in keyed:
                assert self._replays is not None, "the host is started"
                self._replays.settled(key, outcome)

    def _expire_later(self, actor: Actor, callback: int, timeout: int) -> None:
        """In ``timeout`` seconds, answer ``actor``'s bounded-wait call ``callback`` SYS_UNKNOWN, as the IC
        answers one whose deadline passes first; the actor drops whichever of that and the callee's
        answer comes second. No cycles come back with it: the callee may have taken them."""

        def expire() -> None:
            if self._actors.get(actor.name) is actor and actor.awaits(callback):
                expired = Outcome.reject(Reject.SYS_UNKNOWN, "Call deadline has expired.")
                self._deliver(Batch(), [(actor, Response(callback, expired))])

        self._running_loop.call_later(timeout, expire)

    # --- the management canister -------------------------------------------------------------
    async def call_system_for(self, name: str, method: str, data: bytes | Attachment) -> Outcome:
        """Run system method ``method`` as a call of actor ``name``'s own (its principal the caller, its
        balance paying), made from outside on its behalf (a weights import): recorded as the actor's
        calls are, and answered once the record is on disk. ``data``: Candid, or an Attachment written
        through ``system_spool``."""
        actor = self._actor(name)
        batch = Batch()
        try:
            outcome = await self._system.call(actor.name, actor.principal, method, data, batch)
            self.store.commit(batch)
            self.store.flush()
        finally:
            self._system.done()
            if isinstance(data, Attachment):
                data.close()  # the call closed it if it ran; not if it was refused first
        return outcome

    def system_spool(self) -> Spool:
        """Where to write an argument of ``call_system_for`` too large for memory, as it comes."""
        return self._system.spool()

    # --- the management canister -------------------------------------------------------------
    def _call_system(self, actor: Actor, callback: int, method_name: str, data: bytes, cycles: int) -> None:
        """Run an actor's call to the management canister, with the ``cycles`` it attached."""
        origin = ["actor", actor.name, callback] + ([cycles] if cycles else [])
        if method_name in METHODS:
            batch = Batch()
            Journal.answered(batch, actor.name, callback)
            self._running_loop.create_task(self._manage(actor.principal, origin, method_name, data, batch))
            return

        async def run() -> None:
            batch = Batch()
            outcome = await self._system.call(actor.name, actor.principal, method_name, data, batch)
            Journal.answered(batch, actor.name, callback)
            try:
                self._deliver(batch, [(actor, response_to(origin, outcome))])
            finally:
                self._system.done()

        self._running_loop.create_task(run())

    async def _call_management(self, method: str, arg: bytes, query: bool, caller: bytes) -> Outcome:
        if method not in METHODS:
            raise errors.UnknownMethod(f"the management canister has no method {method!r} on this host")
        if query:
            raise errors.WrongMethodKind(f"{MANAGEMENT_NAME}.{method} is an update method: call it on the call route")
        request = secrets.token_hex(8)
        answer = self._waiting[request] = self._running_loop.create_future()
        try:
            await self._manage(caller, ["ingress", request], method, arg, Batch())
            return await answer
        finally:
            del self._waiting[request]

    async def _manage(self, caller: bytes, origin: Origin, method: str, arg: bytes, batch: Batch) -> None:
        """Run a management call from ``caller``; its answer goes to ``origin``, in ``batch`` or (for a
        method acting on one canister) from that canister's actor, to which it is delivered in ``batch``.
        The cycles an actor's ``origin`` carries go back with the answer unless the method took them."""
        cycles = origin[3] if origin[0] == "actor" and len(origin) > 3 else 0
        try:
            result = await self._management_step(caller, origin, method, arg, batch, cycles)
        except BadArgument as error:
            result = Outcome.reject(Reject.CANISTER_ERROR, str(error))
        except CreationRefused as error:
            result = Outcome.reject(Reject.SYS_TRANSIENT, str(error))
        if isinstance(result, Outcome):
            if cycles and method in TAKING_CYCLES and result.reply is not None:
                origin = origin[:3]  # taken: nothing goes back
            self._answer(batch, origin, result)
            return
        target, message = result
        # Checked again as it is recorded: other calls may have come in while its module compiled.
        full = self._queue_full(target, message.size) if origin[0] == "ingress" else None
        if full is not None:  # refused before it is recorded: nothing of it (a module added) is kept
            if "module" in message.detail:
                self._drop_compiled(message.detail["module"])
            self._answer(Batch(), origin, full)
        else:
            self._deliver(batch, [result])

    async def _management_step(
        self, caller: bytes, origin: Origin, method: str, arg: bytes, batch: Batch, cycles: int
    ) -> Outcome | tuple[Actor, Manage]:
        values = arguments(method, arg)
        if method == "raw_rand":
            return Outcome(reply(method, self._random.draw(batch)))
        (argument,) = values
        if method in CREATING:
            settings = argument["settings"]
            opening = self._opening_balance(method, argument, origin, cycles)
            principal = self._create(batch, caller, settings.value if settings is not None else {}, opening)
            return Outcome(reply(method, {"canister_id": Principal(principal)}))
        canister_id = argument["target_canister" if method == "install_chunked_code" else "canister_id"]
        target = self._by_principal.get(canister_id.bytes)
        if target is None:
            return Outcome.reject(Reject.DESTINATION_INVALID, f"canister {canister_id} not found")
        if method == "deposit_cycles":  # anyone may give a canister cycles
            if self.ledger is not None:
                self.ledger.transfer(batch, target.name, cycles)
            return Outcome(reply(method))
        detail: dict = {}
        size = len(arg)  # what it holds from outside: its argument, and a module put together for it
        installing = method in ("install_code", "install_chunked_code")
        if installing:
            # The cheap checks before compiling, so that a refused upload costs nothing: the caller's
            # right here, the inbox's room below (its actor's thread checks the right again, as it may
            # change meanwhile, and `_manage` the room as the call is recorded).
            if not target.canister.is_controller(caller):
                return Outcome.reject(
                    Reject.CANISTER_ERROR, f"only the controllers of canister {target.name} may call {method}"
                )
            if method == "install_code":
                wasm = argument["wasm_module"]  # within its argument, counted already
            else:
                chunked = await asyncio.to_thread(self._chunked_module, target, argument, caller)
                if isinstance(chunked, Outcome):
                    return chunked
                wasm = chunked
                size += len(wasm)
        full = self._queue_full(target, size) if origin[0] == "ingress" else None
        if full is not None:
            return full
        if installing:
            module = hashlib.sha256(wasm).digest()
            try:
                await asyncio.to_thread(self._remember, module, wasm, target.name)
            except UnsupportedModule as error:
                return Outcome.reject(Reject.CANISTER_ERROR, f"{method}: {error}")
            Journal.add_module(batch, wasm)
            ((mode, options),) = argument["mode"].items()
            persistence = None
            if options is not None and options.value["wasm_memory_persistence"] is not None:
                ((persistence, _),) = options.value["wasm_memory_persistence"].value.items()
            detail = {"mode": mode, "module": module, "arg": argument["arg"], "persistence": persistence}
        elif method == "upload_chunk":
            if len(argument["chunk"]) > MAX_CHUNK_BYTES:
                raise BadArgument(
                    f"upload_chunk: a chunk is at most {MAX_CHUNK_BYTES} bytes, got {len(argument['chunk'])}"
                )
            detail = {"chunk": argument["chunk"]}
        elif method == "update_settings":
            detail = {"settings": settings_change(argument["settings"])}
        return target, Manage(method, detail, caller, origin, size)

    def _chunked_module(self, target: Actor, argument: dict, caller: bytes) -> bytes | Outcome:
        """The module install_chunked_code names: its chunks, in order, from the store canister's chunk
        store (the target's when not given), whose sha256 must be ``wasm_module_hash``; or the reject.
        Called for the target's controllers only (`_management_step`), so only they learn anything of
        the chunks; a store canister that is another actor must be controlled by the caller too (or be
        the caller), as on the IC."""
        hashes = [entry["hash"] for entry in argument["chunk_hashes_list"]]
        if not hashes or len(hashes) > MAX_CHUNKS:
            raise BadArgument(
                f"install_chunked_code: chunk_hashes_list names 1 to {MAX_CHUNKS} chunks, got {len(hashes)}"
            )
        holder_id = argument["store_canister"].value if argument["store_canister"] else argument["target_canister"]
        holder = self._by_principal.get(holder_id.bytes)
        if holder is None:
            return Outcome.reject(
                Reject.DESTINATION_INVALID, f"install_chunked_code: store canister {holder_id} not found"
            )
        if holder_id.bytes != argument["target_canister"].bytes and not (
            caller == holder.principal or holder.canister.is_controller(caller)
        ):
            return Outcome.reject(
                Reject.CANISTER_ERROR,
                f"install_chunked_code: only the controllers of store canister {holder.name} may use its chunks",
            )
        chunks = []
        for digest in hashes:
            chunk = self._journal.chunk(holder.name, digest)
            if chunk is None:
                return Outcome.reject(
                    Reject.CANISTER_ERROR,
                    f"install_chunked_code: chunk {digest.hex()} is not in the chunk store of {holder.name}",
                )
            chunks.append(chunk)
        wasm = b"".join(chunks)
        if hashlib.sha256(wasm).digest() != argument["wasm_module_hash"]:
            return Outcome.reject(
                Reject.CANISTER_ERROR,
                f"install_chunked_code: the chunks put together have sha256 {hashlib.sha256(wasm).hexdigest()}, "
                f"not wasm_module_hash {argument['wasm_module_hash'].hex()}",
            )
        return wasm

    def _opening_balance(self, method: str, argument: dict, origin: Origin, cycles: int) -> int | None:
        """The cycles a created canister starts with: what the creating actor attached (taken from its
        balance), as on the IC. For a caller outside, who has no balance: when moxzid charges cycles,
        none (creation never mints: the admin gives cycles, ``POST /cycles/ACTOR``), and
        provisional_create_canister_with_cycles naming an amount is refused; when it does not charge,
        the amount named, else None (what every actor starts with, ``--cycles``)."""
        if origin[0] == "actor":
            return cycles
        amount = argument.get("amount") if method == "provisional_create_canister_with_cycles" else None
        amount = amount.value if isinstance(amount, Some) else amount
        if self.ledger is not None and self.ledger.charging:
            if amount:
                raise BadArgument(
                    f"{method}: moxzid charges cycles (--cycles), so creating a canister does not make "
                    f"them: amount {amount} is refused (create it without one; the admin adds cycles with "
                    "POST /cycles/ACTOR)"
                )
            return 0
        if amount is not None and amount > MAX_BALANCE:
            raise BadArgument(f"{method}: amount {amount} is more than a canister may hold ({MAX_BALANCE})")
        return amount

    def create_canister(self, caller: bytes, settings: Mapping[str, object], cycles: int | None = None) -> Principal:
        """What the management canister's create_canister does for ``caller``, for a gateway that
        answers as another canister (the IC interface's cycles ledger): a new actor without code,
        written to the store, controlled by ``settings``' controllers or else by ``caller``.
        ``settings`` are canister_settings fields by name, decoded Candid values (those absent or
        null keep their defaults). It starts with ``cycles`` (None: what every actor starts with,
        ``--cycles``). Raises ValueError for settings the IC refuses, CreationRefused (a ValueError)
        when moxzid holds ``max_created_actors`` created actors already."""
        batch = Batch()
        principal = self._create(batch, caller, settings, cycles)
        self._commit(batch)
        self.store.flush()
        return Principal(principal)

    def _create(self, batch: Batch, caller: bytes, settings: Mapping[str, object], cycles: int | None) -> bytes:
        """A new actor without code (create_canister) starting with ``cycles`` (None: as every actor),
        written into ``batch``, running from now on; its principal. Raises CreationRefused past
        ``max_created_actors``."""
        # Counted from the store: what creations and deletions committed (each commits before the
        # event loop, where every creation runs, takes another step), so the count cannot drift.
        created = len(self._journal.created_actors())
        if created >= self.max_created_actors:
            raise CreationRefused(
                f"moxzid holds {created} created canisters, as many as it may (moxzid --max-created-actors "
                f"{self.max_created_actors}): delete one, or ask the operator for more"
            )
        change = settings_change(dict(settings))
        canister = Canister(change.pop("controllers", [caller]), settings={**DEFAULT_SETTINGS, **change}, created=True)
        principal = self._canister_ids.next(batch, self._by_principal)
        name = Principal(principal).to_text()
        actor = Actor(name, principal, self, None, None, canister)
        if self.ledger is not None and cycles is not None:
            self.ledger.create(batch, name, cycles)
        Journal.created(batch, name, principal)
        Journal.snapshot(batch, name, actor.install())
        self._register(actor)
        actor.start()
        log.info(
            "actor %s created, controlled by %s",
            name,
            ", ".join(Principal(p).to_text() for p in canister.controllers) or "nobody",
        )
        return principal

    def _forget(self, actor: Actor) -> None:
        """Remove a deleted actor (called on its own thread, which then ends)."""
        del self._actors[actor.name], self._by_principal[actor.principal]
        self.memory_budget.release(actor.name)
        self.inboxes.forget(actor.name)
        self._interfaces.pop(actor.name, None)
        actor.stop()

    def _answer(self, batch: Batch, origin: Origin, outcome: Outcome) -> None:
        """Commit ``batch`` with ``outcome`` for ``origin``: a response in the calling actor's inbox,
        or (after a flush) the answer to a caller outside."""
        if origin[0] == "actor":
            self._deliver(batch, [(self._actors[origin[1]], response_to(origin, outcome))])
            return
        self._commit(batch)
        future = self._waiting.get(origin[1])
        if future is not None:
            self.store.flush()
            future.set_result(outcome)


STABLE_TYPES = "icp:private motoko:stable-types"


def _check_stable_variables(old: PreparedModule, new: PreparedModule, name: str) -> None:
    """Refuse an upgrade whose stable variables cannot take over the old ones, by the Motoko compiler's
    rule. Enhanced persistence also has the runtime's own check; classic persistence has none and would
    silently reset incompatible variables, so there the check is required."""
    before = old.custom_sections.get(STABLE_TYPES)
    after = new.custom_sections.get(STABLE_TYPES)
    if before is None or after is None:
        return  # not Motoko, or built without the signature: the runtime decides
    try:
        problems = stable_incompatibilities(before.decode(), after.decode())
    except BuildError as error:
        if new.memory64:
            log.warning("upgrade of %s: stable variables not checked (%s); the runtime will", name, error)
            return
        raise errors.UpgradeRefused(f"upgrade of {name} refused: cannot check its stable variables: {error}") from None
    if problems:
        raise errors.UpgradeRefused(
            f"upgrade of {name} refused: the new code is incompatible with the "
            f"actor's stable variables:\n" + "\n".join(problems)
        )


def _prepare(wasm: bytes, name: str, limits: Limits) -> PreparedModule:
    """``wasm`` prepared for hosting, its memory growing to the actor's budget at most."""
    try:
        return prepare(wasm, limits.memory_pages)
    except ValueError as error:
        raise UnsupportedModule(f"actor {name}: {error}") from None


def _prepare_with_interface(wasm: bytes, name: str, limits: Limits) -> tuple[PreparedModule, Service]:
    """An uploaded module prepared, and the interface embedded in it."""
    prepared = _prepare(wasm, name, limits)
    return prepared, _interface(prepared, None, name)


def _interface(prepared: PreparedModule, did: str | None, name: str) -> Service:
    """The actor's Candid interface: the .did beside its wasm, else the one embedded in the module."""
    if did is not None:
        return parse_did(did)
    service = service_from_sections(prepared.custom_sections)
    if service is None:
        raise UnsupportedModule(f"actor {name}: no .did beside the wasm and no candid:service in it")
    return service
