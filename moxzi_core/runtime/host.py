"""The host: every actor of a manifest, the routes between them, and the API gateways call.

Calls between actors travel as messages on the callee's queue; the answer comes back as a message on
the caller's. Calls to the management canister (``aaaaa-aa``) go to the system methods plugins provide
(the tensor device's ``moxzi_device_*``), which run on the host's event loop, off every actor's thread.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
from dataclasses import dataclass
from typing import Awaitable, Callable

import wasmtime

from .. import errors
from ..build import BuildError, stable_incompatibilities
from ..candid import Principal, Service, parse_did, service_from_wasm
from .actor import (ANONYMOUS, DESTINATION_INVALID, MANAGEMENT, SYS_TRANSIENT, Actor, Call, Outcome,
                    Response, Upgrade)
from .instance import Limits, UnsupportedModule, new_engine
from .system_api import OutgoingCall
from .wasm_rewrite import PreparedModule, prepare

log = logging.getLogger("moxzid")

# A system method: (caller principal, Candid argument) -> outcome.
SystemMethod = Callable[[bytes, bytes], Awaitable[Outcome]]


@dataclass(frozen=True)
class ActorSpec:
    name: str
    wasm: bytes
    did: str | None = None  # the .did beside the wasm, if any


@dataclass(frozen=True)
class ActorInfo:
    name: str
    principal: Principal
    interface: Service
    mode: str  # "enhanced" or "classic" persistence


def actor_principal(name: str) -> bytes:
    """The stable principal of the actor named ``name``: same name, same principal, every start.

    Shaped like an IC canister id (8 bytes and the opaque-id suffix 0x01)."""
    return hashlib.sha256(b"moxzi actor\0" + name.encode()).digest()[:8] + b"\x01\x01"


class Host:
    def __init__(self, specs: list[ActorSpec], limits: Limits = Limits(),
                 system_methods: dict[str, SystemMethod] | None = None):
        self.limits = limits
        self.system_methods = dict(system_methods or {})
        self._specs = specs
        self._engine = new_engine()
        self._modules: dict[bytes, wasmtime.Module] = {}
        self._actors: dict[str, Actor] = {}
        self._by_principal: dict[bytes, Actor] = {}
        self._interfaces: dict[str, Service] = {}
        self._upgrading: dict[str, asyncio.Lock] = {}
        self._loop: asyncio.AbstractEventLoop | None = None

    # --- life cycle --------------------------------------------------------------------------
    async def start(self) -> None:
        """Instantiate and install every actor (in parallel threads), then start their loops."""
        self._loop = asyncio.get_running_loop()
        await asyncio.gather(*(asyncio.to_thread(self._add, spec) for spec in self._specs))
        for actor in self._actors.values():
            actor.start()

    def _add(self, spec: ActorSpec) -> None:
        prepared, module = self._compile(spec.wasm, spec.name)
        actor = Actor(spec.name, actor_principal(spec.name), self._engine, prepared, module,
                      self.limits, self._send)
        actor.install()
        self._interfaces[spec.name] = _interface(prepared, spec.did, spec.name)
        self._actors[spec.name] = actor
        self._by_principal[actor.principal] = actor

    def _compile(self, wasm: bytes, name: str) -> tuple[PreparedModule, wasmtime.Module]:
        try:
            prepared = prepare(wasm)
        except ValueError as error:
            raise UnsupportedModule(f"actor {name}: {error}") from None
        key = hashlib.sha256(prepared.wasm).digest()
        if key not in self._modules:
            try:
                self._modules[key] = wasmtime.Module(self._engine, prepared.wasm)
            except wasmtime.WasmtimeError as error:
                raise UnsupportedModule(f"actor {name}: the module does not compile: {error}") from None
        return prepared, self._modules[key]

    async def stop(self) -> None:
        await asyncio.gather(*(asyncio.to_thread(a.stop) for a in self._actors.values()))

    # --- what gateways see -------------------------------------------------------------------
    def actor_names(self) -> list[str]:
        return list(self._actors)

    def _actor(self, name: str) -> Actor:
        try:
            return self._actors[name]
        except KeyError:
            raise errors.UnknownActor(f"no actor named {name!r}") from None

    def info(self, name: str) -> ActorInfo:
        actor = self._actor(name)
        return ActorInfo(name, Principal(actor.principal), self._interfaces[name],
                         actor.prepared.persistence)

    async def call(self, name: str, method: str, arg: bytes, *, query: bool,
                   caller: bytes = ANONYMOUS) -> Outcome:
        """Call ``method`` of actor ``name`` from outside. ``query=True`` runs only query methods;
        a query method called as an update runs as a query and leaves no trace, as on the IC."""
        actor = self._actor(name)
        kind = actor.method_kind(method)
        if kind is None:
            raise errors.UnknownMethod(f"actor {name} has no method {method!r}")
        if query and kind != "query":
            raise errors.WrongMethodKind(f"{name}.{method} is an update method: call it on the call route")
        if len(arg) > self.limits.max_message_bytes:
            raise errors.MessageTooLarge(f"the argument is {len(arg)} bytes; the limit is "
                                         f"{self.limits.max_message_bytes}")
        answer = self._loop.create_future()
        actor.post(Call(method, arg, caller, self._resolver(answer), ingress=True, query=query))
        return await answer

    async def upgrade(self, name: str, wasm: bytes) -> None:
        """Replace actor ``name``'s code keeping its state, or raise UpgradeRefused and change nothing."""
        actor = self._actor(name)
        async with self._upgrading.setdefault(name, asyncio.Lock()):
            try:
                prepared, module = await asyncio.to_thread(self._compile, wasm, name)
                interface = _interface(prepared, None, name)
            except (UnsupportedModule, ValueError) as error:
                raise errors.UpgradeRefused(str(error)) from None
            await asyncio.to_thread(_check_stable_variables, actor.prepared, prepared, name)
            done = self._loop.create_future()
            actor.post(Upgrade(prepared, module, self._resolver(done)))
            refusal = await done
            if refusal is not None:
                log.warning("upgrade of %s refused: %s", name, refusal)
                raise errors.UpgradeRefused(f"upgrade of {name} refused: {refusal}")
            self._interfaces[name] = interface
        log.info("upgraded %s (%d bytes, %s persistence)", name, len(wasm), prepared.persistence)

    def _resolver(self, future: asyncio.Future) -> Callable:
        """A thread-safe callback that settles ``future`` on the event loop (once)."""
        def settle(value):
            if not future.done():
                future.set_result(value)
        return lambda value: self._loop.call_soon_threadsafe(settle, value)

    # --- between actors ----------------------------------------------------------------------
    def _send(self, sender: Actor, call: OutgoingCall, callback: int) -> None:
        """Deliver ``sender``'s call; its answer comes back to ``sender`` as a Response."""
        def answer(outcome: Outcome) -> None:
            sender.post(Response(callback, outcome))

        if call.callee == MANAGEMENT:
            self._loop.call_soon_threadsafe(self._call_system, sender.principal, call, answer)
            return
        target = self._by_principal.get(call.callee)
        if target is None:
            answer(Outcome.reject(DESTINATION_INVALID, f"no actor with principal {Principal(call.callee)}"))
            return
        target.post(Call(call.method, bytes(call.data), sender.principal, answer))

    def _call_system(self, caller: bytes, call: OutgoingCall, answer: Callable[[Outcome], None]) -> None:
        method = self.system_methods.get(call.method)
        if method is None:
            answer(Outcome.reject(DESTINATION_INVALID, f"the management canister has no method "
                                                       f"{call.method!r} on this host"))
            return

        async def run() -> None:
            try:
                outcome = await method(caller, bytes(call.data))
            except Exception as error:  # a failing system method rejects the call, never the host
                log.exception("system method %s failed", call.method)
                outcome = Outcome.reject(SYS_TRANSIENT, f"{call.method} failed: {error}")
            answer(outcome)

        self._loop.create_task(run())


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
        raise errors.UpgradeRefused(f"upgrade of {name} refused: cannot check its stable variables: "
                                    f"{error}") from None
    if problems:
        raise errors.UpgradeRefused(f"upgrade of {name} refused: the new code is incompatible with the "
                                    f"actor's stable variables:\n" + "\n".join(problems))


def _interface(prepared: PreparedModule, did: str | None, name: str) -> Service:
    """The actor's Candid interface: the .did beside its wasm, else the one embedded in the module."""
    if did is not None:
        return parse_did(did)
    service = service_from_wasm(prepared.wasm)
    if service is None:
        raise UnsupportedModule(f"actor {name}: no .did beside the wasm and no candid:service in it")
    return service
