"""What the IC keeps about a canister besides its code and memories: controllers, run status, version
and settings. Every actor has one; it is part of the actor's state record, so it survives restarts and
crashes exactly as the actor's memory does, and only the actor's own thread changes it (management
calls reach an actor as messages in its inbox)."""

from __future__ import annotations

from dataclasses import dataclass, field

from .canister_log import MAX_LOG_BYTES, CanisterLog
from .messages import Origin, origin_of, origin_record

MAX_CONTROLLERS = 10  # as on the IC (also the most allowed viewers of a visibility setting)
MAX_CHUNKS = 100  # a chunk store holds at most this many chunks: the IC's 100 MiB of 1 MiB chunks
MAX_CHUNK_BYTES = 1024 * 1024  # one chunk, as on the IC

# The settings canister_status reports, with the IC's defaults. A visibility is "controllers",
# "public", or the list of the principals (bytes) allowed to see; environment variables are
# [name, value] pairs.
DEFAULT_SETTINGS = {
    "compute_allocation": 0,
    "memory_allocation": 0,
    "freezing_threshold": 2_592_000,  # 30 days, in seconds
    "reserved_cycles_limit": 5_000_000_000_000,
    "minimum_incoming_canister_call_cycles": 0,
    "log_visibility": "controllers",
    "log_memory_limit": MAX_LOG_BYTES,
    "snapshot_visibility": "controllers",
    "status_visibility": "controllers",
    "wasm_memory_limit": 3 * 1024**3,
    "wasm_memory_threshold": 0,
    "environment_variables": [],
}

MAX_HISTORY = 20  # the changes a canister's history keeps (canister_info), the most recent: as on the IC

RUNNING, STOPPING, STOPPED = "running", "stopping", "stopped"
STATUS_CODES = {RUNNING: 1, STOPPING: 2, STOPPED: 3}  # ic0.canister_status


@dataclass
class Canister:
    controllers: list[bytes] = field(default_factory=list)
    status: str = RUNNING
    version: int = 0  # ic0.canister_version: counts completed updates, installs and settings changes
    settings: dict = field(default_factory=lambda: dict(DEFAULT_SETTINGS))
    created: bool = False  # made by create_canister (else: named in the manifest)
    stop_waiters: list[Origin] = field(default_factory=list)  # of stop_canister calls not yet answered
    certified_data: bytes = b""  # ic0.certified_data_set's last completed value
    # The chunk store (upload_chunk): each chunk's sha256 and size; the bytes lie in the journal,
    # written in the same batch as this record.
    chunks: dict[bytes, int] = field(default_factory=dict)
    # The canister history canister_info reads: its last MAX_HISTORY changes, oldest first, each
    # [timestamp ns, canister version after it, origin, details] (`change`), and how many it had in all.
    history: list[list] = field(default_factory=list)
    changes: int = 0
    low_memory_hook: str = "condition_not_satisfied"  # the low wasm memory hook's status (`tasks`)
    # Its canister snapshots (take_canister_snapshot): id -> [taken at ns, total size, canister version]; their contents lie
    # in the journal, written in the same batch as this record. And how many it has taken in all.
    snapshots: dict[bytes, list] = field(default_factory=dict)
    snapshots_taken: int = 0
    # Its log (fetch_canister_logs): kept in the store as a value of its own, not in this record.
    log: CanisterLog = field(default_factory=CanisterLog, compare=False, repr=False)

    def change(self, timestamp: int, origin: list, details: list) -> None:
        """Record a change made by the management canister: ``origin`` is ["user", principal] or
        ["canister", principal, its canister version or None]; ``details`` ["creation", controllers],
        ["code_deployment", mode, module sha256] or ["controllers_change", controllers]. It gets the
        canister's version now (the change's own message counted)."""
        self.history = [*self.history, [timestamp, self.version, origin, details]][-MAX_HISTORY:]
        self.changes += 1

    def snapshot_bytes(self, leaving: bytes | None = None) -> int:
        """What its snapshots hold (their total sizes), less the one ``leaving`` names: their share of
        moxzid's memory budget (`memory_budget`)."""
        return sum(about[1] for snapshot_id, about in self.snapshots.items() if snapshot_id != leaving)

    def is_controller(self, principal: bytes) -> bool:
        return principal in self.controllers

    def may_see_status(self, principal: bytes) -> bool:
        """Whether ``principal`` may call canister_status: a controller, or one its status_visibility
        lets see it."""
        return self._visible("status_visibility", principal)

    def may_see_snapshots(self, principal: bytes) -> bool:
        """Whether ``principal`` may list the canister's snapshots: a controller, or one its
        snapshot_visibility lets see them."""
        return self._visible("snapshot_visibility", principal)

    def may_see_logs(self, principal: bytes) -> bool:
        """Whether ``principal`` may fetch the canister's log: a controller, or one its log_visibility
        lets see it."""
        return self._visible("log_visibility", principal)

    def _visible(self, setting: str, principal: bytes) -> bool:
        visibility = self.settings[setting]
        return (
            self.is_controller(principal)
            or visibility == "public"
            or (isinstance(visibility, list) and principal in visibility)
        )

    def record(self) -> list:
        """The canister as its actor's state record holds it; it shares nothing the actor's thread
        changes in place (the settings are copied), so a record taken now stays as taken (`turn.Held`)."""
        return [
            self.controllers,
            self.status,
            self.version,
            dict(self.settings),
            self.created,
            [origin_record(origin) for origin in self.stop_waiters],
            self.certified_data,
            [[digest, size] for digest, size in self.chunks.items()],
            self.history,
            self.changes,
            self.low_memory_hook,
            [[snapshot_id, *about] for snapshot_id, about in self.snapshots.items()],
            self.snapshots_taken,
        ]

    @classmethod
    def from_record(cls, record: list) -> Canister:
        controllers, status, version, settings, created, waiters, certified, chunks, *later = record
        # (a record written before canisters kept a history, the low memory hook's status or snapshots lacks them)
        defaults: list = [[], 0, "condition_not_satisfied", [], 0]
        history, changes, low_memory_hook, snapshots, taken = [*later, *defaults[len(later) :]]
        return cls(
            list(controllers),
            status,
            version,
            {**DEFAULT_SETTINGS, **settings},
            created,
            [origin_of(origin) for origin in waiters],
            certified,
            {digest: size for digest, size in chunks},
            [list(entry) for entry in history],
            changes,
            low_memory_hook,
            {snapshot_id: list(about) for snapshot_id, *about in snapshots},
            taken,
        )
