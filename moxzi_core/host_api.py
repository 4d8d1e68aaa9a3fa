"""What a gateway may use of the host: `GatewayHost`, the face of moxzid's runtime every gateway is handed
(``register_gateways``' factories take one, and so do the HTTP apps other plugins mount); what it reads of
the device is `readouts.Readouts`. `runtime.host.Host` is the one implementation; mypy checks that it is
one where moxzid hands it to the gateways (`daemon`). Everything else of the runtime may change without a plugin noticing."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Protocol

from .readouts import Readouts

if TYPE_CHECKING:  # types named in signatures only: importing them here would load the runtime
    from .billing import Ledger
    from .candid import Principal
    from .errors import Restoring
    from .events import Events
    from .ledger_accounts import LedgerAccounts
    from .runtime.attachments import Attachment, Spool
    from .runtime.host import ActorInfo
    from .runtime.messages import Outcome
    from .runtime.queries import Certifier
    from .store import Batch, Store


class HostClock(Protocol):
    """The host's time: the system clock's (``mode`` "system"), or a manual one's that moves only when
    told (``moxzid --clock manual``); moving the system clock raises ``errors.ClockError``."""

    mode: str

    def now_ns(self) -> int:
        """The time now, in ns since 1970."""

    async def advance(self, ns: int) -> int:
        """Move a manual clock ``ns`` on, run every timer and heartbeat due by then; the time now."""

    async def set(self, at_ns: int) -> int:
        """Move a manual clock to ``at_ns`` (not before now), run what is due by then; the time now."""


class GatewayHost(Protocol):
    """The running host, as a gateway sees it."""

    events: Events  # what happens in moxzid, for subscribers (the console's /events)
    store: Store  # where moxzid keeps its state (its size and description, for the console)
    ledger: Ledger | None  # the actors' cycles, when moxzid charges them
    ledger_accounts: LedgerAccounts  # the cycles ledger's accounts (the IC interface's cycles ledger)
    # Signs actors' certified data for query answers; the IC interface sets it to its root key's.
    certifier: Certifier | None

    @property
    def clock(self) -> HostClock:
        """What time it is for the actors, and the manual clock's moves."""

    @property
    def system_state(self) -> Readouts | None:
        """The device, if moxzid has one (a gateway that needs more of it checks for
        ``moxzi_core.device.Device``)."""

    def starting(self) -> Restoring | None:
        """While moxzid starts, what it restores (the error a request that must wait for it gets, a 503
        with ``Retry-After``; its ``progress``: ``restoring 3 of 6 actors``); None once every actor runs. Meanwhile a
        request for an actor not back yet raises ``errors.Restoring``, and so does one that needs every
        actor back (an update call, a composite query); a restored actor answers its plain queries."""

    def actor_names(self) -> list[str]:
        """The manifest's actors in its order, then those created since, oldest first (while moxzid
        starts, those restored so far)."""

    def info(self, name: str) -> ActorInfo:
        """Actor ``name``'s principal, interface, mode, module hash, metadata and controllers; raises
        ``moxzi_core.errors.UnknownActor``."""

    def canister_log(self, name: str, viewer: bytes | None) -> list[tuple[int, int, bytes]]:
        """Actor ``name``'s log records (index, time in ns, content) ``viewer`` may see, as its
        log_visibility says (None: moxzid's admin, who sees all); raises ``errors.NotAllowed`` otherwise."""

    def name_of(self, principal: bytes) -> str | None:
        """The name of the actor with this principal."""

    def footprint(self, name: str) -> tuple[int, int]:
        """Actor ``name``'s memory and stable memory in bytes."""

    def queued_calls(self, name: str) -> int:
        """How many calls from outside actor ``name``'s inbox holds."""

    def queued_bytes(self, name: str) -> int:
        """The bytes of the calls from outside actor ``name``'s inbox holds."""

    async def call(
        self, name: str, method: str, arg: bytes, *, query: bool, caller: bytes = ..., key: bytes | None = None
    ) -> Outcome:
        """Call ``method`` of actor ``name`` (or of the management canister, ``aaaaa-aa``) from outside,
        as ``caller`` (anonymous by default); ``key`` makes an update call run at most once."""

    async def upgrade(self, name: str, wasm: bytes) -> None:
        """Replace actor ``name``'s code keeping its state, or raise ``UpgradeRefused``."""

    async def call_system_for(self, name: str, method: str, data: bytes | Attachment) -> Outcome:
        """Run system method ``method`` as a call of actor ``name``'s own, made from outside on its
        behalf (a weights import)."""

    def system_spool(self) -> Spool:
        """Where to write an argument of ``call_system_for`` too large for memory, as it comes."""

    def create_canister(
        self, caller: bytes, settings: Mapping[str, object], cycles: int | None = None, batch: Batch | None = None
    ) -> Principal:
        """A new actor without code for ``caller`` (the cycles ledger's create_canister)."""
