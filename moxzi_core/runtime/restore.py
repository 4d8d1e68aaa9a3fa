"""Start-up: the host installs the manifest's new actors and brings back the saved ones and the device's
state, all at once, while the gateways already serve.

Everything is read back in parallel threads (`Restorer.run`): the device's last copy and the calls
recorded after it (`DeviceCalls.rebuild`, which runs on the device's threads), and the actors' states,
as many at a time as the machine has cores, in the manifest's order (LMDB reads, zstd decompression
and wasmtime's compiler release the GIL; preparing a module does not, and is done once for the
actors that share it: `Modules.remember`).

Until all of it is back, the host answers ``errors.Restoring`` (a 503 with ``Retry-After`` on every
gateway) and says what it restores (`Restoration.describe`). What a gateway may have earlier is the
minimal safe part: an actor restored answers its plain queries at once (they read its committed state
and call nobody); its update calls, composite queries, upgrades and device calls, and every call to
the management canister, wait until every actor and the device are back. Those can call other actors
(which must be registered to receive a message: a call to one not yet back would be answered "no such
canister"), touch the device (whose state is not rebuilt yet) or queue behind the messages the actor's
inbox still holds (which run first, as they arrived first).
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import os
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

from ..store import Batch, Store
from .actor import Actor
from .canister import Canister
from .clock import Clock
from .delivery import Delivery
from .device_calls import DeviceCalls
from .engine import Instance
from .journal import Journal, Saved
from .modules import Interfaces, Modules, interface
from .restoration import Restoration
from .roster import Roster
from .services import Services

log = logging.getLogger("moxzid")


class Restorer:
    """Installs new actors and restores saved ones (`Host.start` runs it once)."""

    def __init__(
        self,
        store: Store,
        journal: Journal,
        modules: Modules,
        interfaces: Interfaces,
        services: Services,
        instantiate: Callable[..., Instance],
        register: Callable[[Actor, int], None],
        restoration: Restoration,
    ):
        self._store, self._journal, self._modules, self._interfaces = store, journal, modules, interfaces
        self._services, self._instantiate, self._register = services, instantiate, register
        self.restoration = restoration
        self._clock_lock = threading.Lock()

    async def run(self, specs, system: DeviceCalls, delivery: Delivery, clock: Clock, actors: Roster) -> None:
        """Rebuild the device's state beside restoring every actor (a thread per core), then start the
        actors' loops, re-running what their inboxes hold and re-issuing pending system calls.
        ``specs``: the manifest's (`host.ActorSpec`) with their principals; ``actors``: the host's."""

        async def rebuild() -> None:
            await system.rebuild()
            self.restoration.device_restored()

        loop = asyncio.get_running_loop()
        # As many actors at a time as there are cores, in the manifest's order: each is back as soon
        # as the machine allows (all at once, each would take about as long as all of them).
        threads = ThreadPoolExecutor(os.cpu_count() or 1, "restore")
        try:
            restored = await asyncio.gather(
                rebuild(),
                *(loop.run_in_executor(threads, self._add, spec, principal, clock) for spec, principal in specs),
                *(
                    loop.run_in_executor(threads, self._restored, name, principal, clock)
                    for name, principal in self._journal.created_actors()
                ),
            )
        finally:  # (one failed: moxzid stops, and the actors not begun are not restored)
            threads.shutdown(wait=False, cancel_futures=True)
        saved = [found for found in restored if found is not None]
        for actor, _, _ in saved:  # (read before the actor's thread runs)
            for callback, deadline in actor.bounded_waits():
                delivery.expire_at(actor, callback, deadline)
        for actor in actors:
            actor.start()
        for found in saved:
            delivery.resume(*found)
        self.restoration.done = True

    def _add(self, spec, principal: bytes, clock: Clock):
        """Restore the manifest's actor ``spec`` as the store holds it, or install it when it holds none."""
        saved = self._journal.load(spec.name)
        if saved is not None:
            restored = self._restored(spec.name, principal, clock, saved)
            module = saved.state["module"]
            if hashlib.sha256(spec.wasm).digest() == module:
                self._interfaces.set(spec.name, module, interface(self._modules.prepared(module), spec.did, spec.name))
            return restored
        batch = Batch()
        module = Journal.add_module(batch, spec.wasm)
        self._modules.remember(module, spec.wasm, spec.name)
        self._interfaces.set(spec.name, module, interface(self._modules.prepared(module), spec.did, spec.name))
        actor = Actor(
            spec.name,
            principal,
            self._services,
            self._instantiate(module, spec.name, principal=principal),
            module,
            Canister(list(spec.controllers)),
        )
        Journal.put_delta(batch, spec.name, actor.install())
        self._store.commit(batch)
        self._register(actor, 0)
        self.restoration.restored(spec.name)
        return None

    def _restored(self, name: str, principal: bytes, clock: Clock, saved: Saved | None = None):
        """Bring back an actor as the store holds it (``saved``, read here when not given); (actor, its
        inbox, its pending system calls)."""
        saved = saved or self._journal.load(name)
        assert saved is not None, f"{name} is saved"  # (a created actor's state is written as it is made)
        module = saved.state["module"]
        instance = None
        if module is not None:
            instance = self._instantiate(module, name, bytes(saved.stable.over(b"")), principal)
            instance.restore(saved.state, saved.memory)
            instance.memory_packer.adopt(saved.memory)
            instance.stable_packer.adopt(saved.stable)
            with self._clock_lock:  # time never moves backward for it, not even for an early query
                clock.catch_up([instance.now])
        actor = Actor(name, principal, self._services, instance, module, Canister())
        actor.restore(saved.state, saved.log)
        self._register(actor, saved.inbox[-1][0] + 1 if saved.inbox else 0)
        self.restoration.restored(name)
        log.info(
            "actor %s restored: %d message(s) to run, %d system call(s) pending",
            name,
            len(saved.inbox),
            len(saved.pending),
        )
        return actor, saved.inbox, saved.pending
