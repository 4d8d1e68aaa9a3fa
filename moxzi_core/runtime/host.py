"""The host: every actor of a manifest and those actors created, and the API gateways call.

Calls between actors travel as messages on the callee's queue; the answer comes back as a message on
the caller's. Calls to the management canister (``aaaaa-aa``) go to its methods (`management`), which run on the host's
event loop, or to the system methods plugins provide (the tensor device's ``moxzi_device_*``, which
run on the device's threads: `device_calls`), off every actor's thread.

Every message is recorded in the store before it runs, and everything a completed message did is
written in one batch (`delivery`). Answers to the outside wait until that batch is flushed to disk. At
start-up each actor comes back as its last completed message left it, and what its inbox still holds
runs again.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from types import MappingProxyType

from .. import errors
from ..candid import Principal, Service
from ..events import Events
from ..ledger_accounts import LedgerAccounts
from ..store import Batch, MemoryStore, Store
from . import management
from .actor import Actor
from .attachments import Attachment, Spool
from .clock import SYSTEM, Clock
from .creations import MAX_CREATED_ACTORS, MAX_CREATED_PER_CREATOR, CreationBounds
from .delivery import Delivery
from .device_calls import CheckpointPolicy, DeviceCalls, Gate, SystemMethod, SystemState
from .engine import Instance, Limits, UnsupportedModule
from .inbox_bounds import MAX_QUEUED_CALLS, MAX_QUEUED_MB, TOTAL_QUEUED_MB, InboxBounds, MiB
from .journal import Journal
from .management.history import change_origin
from .management.ids import CanisterIds, Randomness
from .management.interface import MANAGEMENT_NAME
from .management.request import Manager
from .management.threshold_keys import MasterKeys
from .management.web import OutcallConfig, Web
from .memory_budget import MemoryBudget, default_total_mb
from .messages import ANONYMOUS, Call, FromActor, Origin, Outcome, Upgrade, response_to
from .modules import Interfaces, Modules, check_stable_variables, metadata, prepared_with_interface
from .queries import Certifier, Queries
from .restoration import Restoration
from .restore import Restorer
from .roster import Roster
from .services import Services
from .turn import SETTLE_TOGETHER

log = logging.getLogger("moxzid")


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


@dataclass(frozen=True)
class HostConfig:
    """How a host runs its actors (`runtime.settings.host_config` makes one from moxzid's settings)."""

    limits: Limits = Limits()
    # How many actors create_canister may make that delete_canister has not deleted (the manifest's do
    # not count), and how many of them one creator may have made (`creations`).
    max_created_actors: int = MAX_CREATED_ACTORS
    max_created_per_creator: int = MAX_CREATED_PER_CREATOR
    # The wasm memory all actors may hold together (`memory_budget`; None: a quarter of the machine's RAM).
    total_memory_bytes: int | None = None
    # The calls from outside each actor's inbox may hold, queued or running, and their bytes; their bytes
    # in all actors' inboxes: one more past any is rejected SYS_TRANSIENT (`inbox_bounds`).
    max_queued_calls: int = MAX_QUEUED_CALLS
    max_queued_bytes: int = MAX_QUEUED_MB * MiB
    total_queued_bytes: int = TOTAL_QUEUED_MB * MiB
    seed: int | None = None  # makes raw_rand's bytes (and signatures' randomness) the same on every run
    key_dir: Path | None = None  # keeps the threshold keys' master secrets (None: new ones, in memory)
    # When the system methods' state is copied (None: calls to them are not recorded, for a store that
    # does not outlive the process).
    checkpoint: CheckpointPolicy | None = CheckpointPolicy()
    clock: str = SYSTEM  # the host's time: the wall clock's, or a manual clock's (`clock`)
    outcalls: OutcallConfig = OutcallConfig()  # the management canister's http_request (`management.web`)


class Host:
    def __init__(
        self,
        specs: list[ActorSpec],
        config: HostConfig = HostConfig(),
        *,
        store: Store | None = None,
        ledger=None,
        events: Events | None = None,
        system_methods: Mapping[str, SystemMethod] | None = None,
        system_state: SystemState | None = None,
    ):
        """``ledger`` (moxzi_core.billing) charges actors for device time and instructions, if given;
        ``events`` (moxzi_core.events, a new stream if not given) gets what happens: handled messages,
        device calls, copies. ``system_methods`` are the management canister's methods plugins provide
        (the device's); ``system_state`` is what they change, copied per ``config.checkpoint``."""
        limits = self.limits = config.limits
        self.creations = CreationBounds(config.max_created_actors, config.max_created_per_creator)
        self.inboxes = InboxBounds(config.max_queued_calls, config.max_queued_bytes, config.total_queued_bytes)
        total = config.total_memory_bytes
        self.memory_budget = MemoryBudget(default_total_mb() * MiB if total is None else total)
        self.events = events or Events()
        self.system_state = system_state  # the device, for plugins that show it
        self.store = store or MemoryStore()
        if ledger is not None and ledger.store is not self.store:
            raise ValueError("the ledger must keep its accounts in the host's store (one batch holds both)")
        self.ledger = ledger
        # Principals' cycles-ledger accounts, which only the admin funds (moxzi_core.ledger_accounts)
        self.ledger_accounts = LedgerAccounts(self.store, ledger is not None and ledger.charging)
        self._journal = Journal(self.store)
        self._system = DeviceCalls(
            self._journal, dict(system_methods or {}), system_state, config.checkpoint, ledger, self.events
        )
        self._specs = specs
        self.clock = Clock(config.clock, self.store)  # (a manual one reads the time the store kept)
        self._modules = Modules(limits, self._journal, self.clock)
        self._interfaces = Interfaces()
        created = dict(self._journal.created_actors())
        manifest = {spec.name: actor_principal(spec.name) for spec in specs}
        self._actors = Roster(Restoration(manifest | created, system_state is not None))
        self._delivery = Delivery(
            self.store, self._journal, ledger, self.inboxes, self._actors, self._forget, self._call_system, self.clock
        )
        self.clock.attach(lambda: self._actors, self.quiet)
        self._upgrading: dict[str, asyncio.Lock] = {}
        # Set by the plugin that holds moxzid's root key (the ic plugin, when it builds its routes):
        # then non-replicated queries get a data certificate; until then, and without one, none do.
        self.certifier: Certifier | None = None
        self.queries = Queries(limits, self.events, ledger, lambda: self.certifier, self._actors.with_principal)
        self._services = Services(
            limits,
            self.events,
            ledger,
            self.memory_budget,
            self.queries,
            self._instantiate,
            self._delivery.settle,
            self._system.start_early,
            management.on_target,
            self._journal,
            self._modules.remember,
            self.clock,
            self.store.read_back,
            1 if self.store.in_memory else SETTLE_TOGETHER,
            self._delivery.held_watch,
        )
        self._manager = Manager(
            ledger,
            Randomness(self.store, config.seed),
            self._create,
            self._actors.with_principal,
            self._journal.chunk,
            self._modules.remember,
            self.inboxes.room_for_call,
            MasterKeys.load_or_create(config.key_dir),
            Web(config.outcalls),
            self.queries.ask,
        )
        self._canister_ids = CanisterIds(self.store)
        self._restorer = Restorer(
            self.store,
            self._journal,
            self._modules,
            self._interfaces,
            self._services,
            self._instantiate,
            self._register,
            self._actors.restoration,
        )

    # --- life cycle --------------------------------------------------------------------------
    async def start(self) -> None:
        """Install new actors, restore saved ones and the device's state side by side, then start the
        actors' loops (`restore`); gateways may serve meanwhile (`restoration`)."""
        self._delivery.start(asyncio.get_running_loop())
        specs = [(spec, actor_principal(spec.name)) for spec in self._specs]
        await self._restorer.run(specs, self._system, self._delivery, self.clock, self._actors)

    def starting(self) -> errors.Restoring | None:
        """What start-up still restores (``restoring 3 of 6 actors``), or None once every actor runs."""
        return None if self._actors.restoration.done else self._actors.restoration.refusal()

    def _register(self, actor: Actor, next_seq: int = 0) -> None:
        self._delivery.register(actor, next_seq)
        self._actors.add(actor)

    def _instantiate(
        self, module: bytes, name: str, stable: bytes = b"", principal: bytes | None = None, *, replica: bool = False
    ) -> Instance:
        """A fresh instance of a module for actor ``name`` (``principal`` for one not registered yet,
        which adopts it). A registered actor's reads its canister record (controllers, status, version)
        from its first entry point on: canister_init already asks ic0.is_controller."""
        if principal is not None:
            return self._modules.instantiate(module, name, principal, stable, replica=replica)
        actor = self._actors.named(name)
        instance = self._modules.instantiate(module, name, actor.principal, stable, replica=replica)
        instance.canister = actor.canister
        return instance

    async def stop(self) -> None:
        """Stop every actor, cutting short the messages running now: what is not settled stays in the
        inboxes and runs after a restart, as after a crash."""
        self._delivery.stop()
        self._manager.web.close()
        for actor in self._actors:
            actor.stop()
        self._modules.engine.increment_epoch()  # after the actors stopped taking messages: none starts anew
        await asyncio.gather(*(asyncio.to_thread(a.join) for a in self._actors))
        await self.queries.stop()
        await self._system.stop()

    # --- what gateways see -------------------------------------------------------------------
    def actor_names(self) -> list[str]:
        """The manifest's actors in its order (``start`` adds them in parallel), then those created
        since, oldest first."""
        names = self._actors.names()
        manifest = [spec.name for spec in self._specs if spec.name in names]
        return manifest + [name for name in names if name not in manifest]

    def footprint(self, name: str) -> tuple[int, int]:
        """Actor ``name``'s memory and stable memory in bytes, as its last handled message left them."""
        return self._actors.named(name).footprint

    def queued_calls(self, name: str) -> int:
        """How many calls from outside actor ``name``'s inbox holds, queued or running: at most
        ``max_queued_calls`` (more only where a restart with a lower bound restored more)."""
        self._actors.named(name)
        return self.inboxes.calls(name)

    def queued_bytes(self, name: str) -> int:
        """The bytes of the calls from outside actor ``name``'s inbox holds: within ``max_queued_bytes``
        but for one call (`inbox_bounds`), or as a restart with a lower bound restored them."""
        self._actors.named(name)
        return self.inboxes.bytes(name)

    def quiet(self) -> bool:
        """Whether nothing is left to run (`Delivery.quiet`)."""
        return self._delivery.quiet()

    def info(self, name: str) -> ActorInfo:
        actor = self._actors.named(name)
        prepared = actor.instance.prepared if actor.instance else None
        by_name, private = metadata(prepared)
        return ActorInfo(
            name,
            Principal(actor.principal),
            self._interfaces.of(name, actor.module, prepared),
            prepared.persistence if prepared else "empty",
            actor.module,
            MappingProxyType(by_name),
            tuple(actor.canister.controllers),
            private,
        )

    def canister_log(self, name: str, viewer: bytes | None) -> list[tuple[int, int, bytes]]:
        """Actor ``name``'s log for ``viewer`` (None: moxzid's admin), as `management.logs.visible` says."""
        return management.logs.visible(self._actors.named(name), viewer)

    def name_of(self, principal: bytes) -> str | None:
        """The name of the actor with this principal (a created actor's is its principal's text)."""
        return self._actors.name_of(principal)

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
            self._actors.check_started(f"the management canister's {method}")
            return await self._call_management(method, arg, query, caller)
        actor = self._actors.named(name)
        kind = actor.method_kind(method)
        if kind is None:
            raise errors.UnknownMethod(
                errors.no_method(name, method, self.info(name).interface.methods)
                if actor.instance
                else f"actor {name} is empty: it has no code installed"
            )
        if query and kind == "update":
            raise errors.WrongMethodKind(f"{name}.{method} is an update method: call it on the call route")
        if not query or kind != "query":  # (a plain query reads the actor alone: served while others restore)
            self._actors.check_started(f"{name}.{method}")
        if query:
            return await self.queries.ask(actor, method, arg, caller)
        if key is None:
            full = self.inboxes.room_for(name, len(arg))
            return full or await self._delivery.ingress(actor, lambda origin: Call(method, arg, caller, origin))
        replays = self._delivery.replays
        assert replays is not None, "the host is started"
        keyed, fingerprint = replays.key(caller, key), replays.fingerprint(name, method, arg)
        first = replays.claim(keyed, fingerprint)
        if isinstance(first, Outcome):
            return first
        if first is not None:
            return await first
        full = self.inboxes.room_for(name, len(arg))
        if full is not None:  # it did not run: a retry with the key runs it
            replays.release(keyed)
            return full
        return await self._delivery.ingress(
            actor, lambda origin: Call(method, arg, caller, replace(origin, key=keyed, fingerprint=fingerprint))
        )

    async def upgrade(self, name: str, wasm: bytes) -> None:
        """Replace actor ``name``'s code keeping its state, or raise UpgradeRefused and change nothing."""
        actor = self._actors.started(name, f"an upgrade of {name}")
        async with self._upgrading.setdefault(name, asyncio.Lock()):
            digest = hashlib.sha256(wasm).digest()
            if actor.instance is None:  # (a created canister): its first code is install_code's
                raise errors.UpgradeRefused(f"actor {name} has no code to upgrade: install its first with install_code")
            try:
                prepared, new_interface = await asyncio.to_thread(prepared_with_interface, wasm, name, self.limits)
                await asyncio.to_thread(check_stable_variables, actor.instance.prepared, prepared, name)
                # Compiled only once the checks passed: a refused upload leaves nothing behind.
                await asyncio.to_thread(self._modules.remember, digest, wasm, name, prepared)
            except (UnsupportedModule, ValueError) as error:
                raise errors.UpgradeRefused(str(error)) from None
            batch = Batch()
            Journal.add_module(batch, wasm)
            outcome = await self._delivery.ingress(actor, lambda origin: Upgrade(digest, origin), batch)
            if outcome.reply is None:
                self._drop_compiled(digest)
                log.warning("upgrade of %s refused: %s", name, outcome.reject_message)
                raise errors.UpgradeRefused(f"upgrade of {name} refused: {outcome.reject_message}")
            self._interfaces.set(name, digest, new_interface)
            log.info("upgraded %s (%d bytes, %s persistence)", name, len(wasm), prepared.persistence)

    def _drop_compiled(self, digest: bytes) -> None:
        self._modules.drop(digest, {actor.module for actor in self._actors})

    # --- the management canister -------------------------------------------------------------
    async def call_system_for(self, name: str, method: str, data: bytes | Attachment) -> Outcome:
        """Run system method ``method`` as a call of actor ``name``'s own (its principal the caller, its
        balance paying), made from outside on its behalf (a weights import): recorded as the actor's
        calls are, and answered once the record is on disk. ``data``: Candid, or an Attachment written
        through ``system_spool``."""
        actor = self._actors.started(name, f"{name}'s {method}")

        def commit(batch: Batch, _: Outcome) -> None:
            self.store.commit(batch)  # flushed below, not while other calls' answers wait to commit

        try:
            outcome = await self._system.call(actor.name, actor.principal, method, data, commit)
            self.store.flush()
        finally:
            self._system.done()
            if isinstance(data, Attachment):
                data.close()  # the call closed it if it ran; not if it was refused first
        return outcome

    def system_spool(self) -> Spool:
        """Where to write an argument of ``call_system_for`` too large for memory, as it comes."""
        return self._system.spool()

    async def _call_management(self, method: str, arg: bytes, query: bool, caller: bytes) -> Outcome:
        if method not in management.METHODS:
            raise errors.UnknownMethod(f"the management canister has no method {method!r} on this host")
        if query and management.METHODS[method].query:
            return management.query(self._manager, caller, method, arg)
        if query:
            raise errors.WrongMethodKind(f"{MANAGEMENT_NAME}.{method} is an update method: call it on the call route")
        return await self._delivery.answered(lambda origin: self._manage(caller, origin, method, arg, Batch()))

    async def _manage(self, caller: bytes, origin: Origin, method: str, arg: bytes, batch: Batch) -> None:
        """Run a management call from ``caller``; its answer goes to ``origin``, in ``batch`` or (for a
        method acting on one canister) from that canister's actor, to which it is delivered in ``batch``."""
        result = await management.take(self._manager, caller, origin, method, arg, batch)
        if isinstance(result, Outcome):
            self._delivery.answer(batch, management.answer_to(origin, method, result), result)
            return
        target, message = result
        # Checked again as it is recorded: other calls may have come in while its module compiled.
        full = self.inboxes.room_for_call(origin, target.name, message.size)
        if full is not None:  # refused before it is recorded: nothing of it (a module added) is kept
            if "module" in message.detail:
                self._drop_compiled(message.detail["module"])
            self._delivery.answer(Batch(), origin, full)
        else:
            self._delivery.deliver(batch, [result])

    def _call_system(
        self, actor: Actor, callback: int, method_name: str, data: bytes, cycles: int, started: Gate | None = None
    ) -> None:
        """Run an actor's call to the management canister, with the ``cycles`` it attached, once its
        record as pending is committed (from any thread: the actor's, as its message settles). A
        device call goes straight to the device's thread and is answered from there (a short one runs
        and is answered on this thread: ``Schedule.submit``); the rest run on the event loop.
        ``started``: the call was started before the commit (``DeviceCalls.start_early``): only its
        answer waits."""
        origin = FromActor(actor.name, callback, cycles)

        def answer(batch: Batch, outcome: Outcome) -> None:
            self._delivery.drop_pending(batch, actor, callback)
            try:
                self._delivery.deliver(batch, [(actor, response_to(origin, outcome))])
            finally:
                self._delivery.system_answered(actor.name, callback)
                self._system.done()

        if started is not None:
            started.open(answer)
        elif method_name in management.METHODS or not self._system.start(
            actor.name, actor.principal, method_name, data, answer
        ):
            self._delivery.loop.call_soon_threadsafe(self._call_on_loop, actor, origin, method_name, data, answer)

    def _call_on_loop(self, actor: Actor, origin: FromActor, method_name: str, data: bytes, answer) -> None:
        loop = self._delivery.loop
        if method_name in management.METHODS:
            batch = Batch()
            self._delivery.drop_pending(batch, actor, origin.callback)
            managed = loop.create_task(self._manage(actor.principal, origin, method_name, data, batch))
            managed.add_done_callback(lambda _: self._delivery.system_answered(actor.name, origin.callback))
            return

        loop.create_task(self._system.call(actor.name, actor.principal, method_name, data, answer))

    def create_canister(
        self, caller: bytes, settings: Mapping[str, object], cycles: int | None = None, batch: Batch | None = None
    ) -> Principal:
        """What the management canister's create_canister does for ``caller``, for a gateway that
        answers as another canister (the IC interface's cycles ledger): a new actor without code,
        written to the store, controlled by ``settings``' controllers or else by ``caller``.
        ``settings`` are canister_settings fields by name, decoded Candid values (those absent or
        null keep their defaults). It starts with ``cycles`` (None: what every actor starts with,
        ``--cycles``). It is written in ``batch`` when given, beside what that holds (what paid for
        the cycles: ``LedgerAccounts.spend``), so both commit or neither. Raises ValueError for
        settings the IC refuses, CreationRefused (a ValueError) past ``creations``' bounds; then nothing
        is committed."""
        self._actors.check_started("create_canister")
        batch = Batch() if batch is None else batch
        principal = self._create(batch, caller, settings, cycles, change_origin(caller, False, None))
        self._delivery.commit(batch)
        self.store.flush()
        return Principal(principal)

    def _on_operators_side(self, caller: bytes) -> bool:
        """Whether ``caller`` may take the creations ``creations`` keeps in reserve: it is one of the
        manifest's actors or controls one (or the manifest has none: there is no one to keep them for)."""
        manifest = [self._actors.by_principal.get(actor_principal(spec.name)) for spec in self._specs]
        return not manifest or any(
            a is not None and (caller == a.principal or caller in a.canister.controllers) for a in manifest
        )

    def _create(
        self, batch: Batch, caller: bytes, settings: Mapping[str, object], cycles: int | None, by: list
    ) -> bytes:
        """A new actor without code (create_canister: `canisters.new_canister`) starting with ``cycles``
        (None: as every actor), written into ``batch``, running from now on; its principal. Raises
        CreationRefused past ``creations``' bounds."""
        self.creations.check(self._journal, caller, operator=self._on_operators_side(caller))
        canister = management.canisters.new_canister(caller, settings, by)
        principal = self._canister_ids.next(batch, self._actors.by_principal)
        name = Principal(principal).to_text()
        actor = Actor(name, principal, self._services, None, None, canister)
        if self.ledger is not None and cycles is not None:
            self.ledger.create(batch, name, cycles)
        Journal.created(batch, name, principal, caller)
        Journal.put_delta(batch, name, actor.install())
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
        self._actors.remove(actor)
        self.memory_budget.release(actor.name)
        self.inboxes.forget(actor.name)
        self._interfaces.forget(actor.name)
        actor.stop()
