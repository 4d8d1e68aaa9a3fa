"""How the host's state lies in a store: modules, actor snapshots, inboxes and pending system calls.

Every key starts with what it belongs to, so one actor's data is one prefix:

    meta/layout                      the layout version below
    module/<sha256>                  a module's wasm, as installed or uploaded
    actor/<name>/state               the actor's small state (CBOR): module, sizes, globals, timer,
                                     time, call contexts and callbacks
    actor/<name>/memory/<chunk>      64 KiB of main memory (a wasm page), compressed (`memory_image`):
                                     absent where it holds what the module's initial image does (zeros
                                     past that image's end)
    actor/<name>/memory/<chunk><page>  a 4 KiB page of that chunk written since, compressed, over it
    actor/<name>/stable-memory/...   the same of stable memory (a chunk absent where it is zero)
    actor/<name>/log                 the canister's log (fetch_canister_logs: `canister_log`), CBOR
                                     [next index, records], written with the message that changed it
    actor/<name>/inbox/<seq>         a message recorded and not yet completed, in arrival order
    actor/<name>/pending/<callback>  a call to a system method whose answer has not arrived: CBOR
                                     [method, argument, cycles attached]
    actor/<name>/chunk/<sha256>      a chunk of the actor's chunk store (upload_chunk), written with
                                     the state record that lists it
    actor/<name>/snapshot/<id hex>/meta, .../memory/<chunk>, .../stable-memory/<chunk>
                                     a canister snapshot (take_canister_snapshot): CBOR {module, state,
                                     certified_data} and both memories' chunks over zeros, written with
                                     the state record that lists it
    system/log/<seq>                 a system-method call that changed the system (the device), in
                                     the order they ran: re-run at start-up to rebuild that state
    system/identity                  what else decides the state the record rebuilds (the device's seed)
    system/copy                      the last full copy of the system's state (an attachment) and
                                     the place in the record it was taken at (the record before it goes)
    system/attached/<id>             an ``Attachment`` (``attachments.py``: a copy, or a recorded call's argument too large
    system/parts/<id>/<n>            for one value): its size, sha256 and head, and its bytes in parts;
                                     start-up drops those neither a record nor the copy names
    created/<name>                   an actor made by create_canister (its name is its principal's
                                     text), which start-up restores beside the manifest's
    created-by/<name>                the principal that created it (`creations`; absent for one an
                                     earlier moxzid created: it counts in the total alone)
    meta/raw_rand, meta/canisters    how many raw_rand answers a seeded host gave; the last canister
                                     id create_canister gave (runtime/management/ids.py)
    replay/<sha256>                  a keyed call's outcome, for its retries (runtime/replays.py), written
                                     with the batch that completes the call
    cycles/<name>                    the actor's cycle balance and what it spent, CBOR [balance,
                                     spent] (written by moxzi_core.billing.Ledger)
    ic/received/<request id>         a management call received over the IC interface, kept until
                                     its ingress_expiry (written by the ic plugin: moxzi_core.received);
    ic/received-by-canister/<id>     one a controller made to its canister, counted against that
                                     canister (plugins/gateway_ic/moxzi_gateway_ic/routes.py: RECEIVED)
    http/signed/<request id>         a signed weights request the http gateway let through, kept
                                     until its expiry (controllers.py: moxzi_core.received)

Layout 4 (4 KiB pages, each a value of its own, under ``mem/`` and ``stable/``) is converted when the
journal is opened (``_upgrade_layout``), an actor per batch; layout 5 (patches inside their chunk's
value) is read as it is.

A message's completion is one batch: its inbox entry goes, its snapshot delta and the messages it
sends are written. So after a crash each actor is exactly as its last completed message left it, and
its inbox holds what it still has to run.
"""

from __future__ import annotations

import hashlib
import io
import secrets
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

import cbor2

from ..store import Batch, Store, StoreError, StoreView
from .attachments import BATCH, SYSTEM_ATTACHED, Attachment, AttachmentWriter, StoredParts, put_parts
from .attachments import drop as drop_attachment
from .engine import PAGE, memory_image, motoko_heap

LAYOUT = b"6"  # 2: the system's copy is an attachment; 3: messages, call contexts and callbacks carry
# cycles; 4: an attachment's head is in its index (a recorded fetch's parts are the export's body alone);
# 5: memories in compressed 64 KiB chunks; 6: a chunk's patches are values of their own
_PAGED_LAYOUT = b"4"  # 4 KiB pages, a value each: converted on opening
_INLINE_PATCHES_LAYOUT = b"5"  # a layout 6 store without patch values: only its layout is rewritten
_MEMORY, _STABLE = b"memory", b"stable-memory"
REPACK_BATCH = 256  # memory values ``repack_memories`` rewrites per batch: 16 MiB of chunks at most, raw
# The images of a snapshot, by the name read_canister_snapshot_data and upload_canister_snapshot_data give
# them, as they lie in the store: its memories, and an uploaded snapshot's own module.
SNAPSHOT_IMAGES = {"wasm_memory": _MEMORY, "stable_memory": _STABLE, "wasm_module": b"module"}
_SYSTEM_LOG = b"system/log/"
_SYSTEM_COPY = b"system/copy"
_SYSTEM_IDENTITY = b"system/identity"


def _u64(n: int) -> bytes:
    return n.to_bytes(8, "big")


def _actor(name: str, *parts: bytes) -> bytes:
    return b"/".join([b"actor", name.encode(), *parts])


def _put_snapshot(batch: Batch, prefix: bytes, snapshot: Snapshot) -> None:
    meta = {"module": snapshot.module, "state": snapshot.state, "certified_data": snapshot.certified_data}
    batch.put(prefix + b"/meta", cbor2.dumps(meta))
    for digest, chunk in snapshot.chunks.items():
        batch.put(prefix + b"/chunk/" + digest, chunk)
    for kind, image in ((_MEMORY, snapshot.memory), (_STABLE, snapshot.stable), (b"module", snapshot.wasm)):
        for value_name, packed in memory_image.Packer().whole(image).items():
            if packed is not None:
                batch.put(prefix + b"/" + kind + b"/" + value_name, packed)


@dataclass
class Delta:
    """What one completed message changed in an actor, ready to be written."""

    state: dict | None  # None: not written (no host reads the store back: ``Store.read_back``)
    # The values of both memories the message wrote, by name (`memory_image.Packer`; None: delete it)
    memory_values: dict[bytes, bytes | None] = field(default_factory=dict)
    stable_values: dict[bytes, bytes | None] = field(default_factory=dict)
    full: bool = False  # the chunks are the whole memory (install, upgrade): earlier chunks go
    chunks: dict[bytes, bytes] = field(default_factory=dict)  # chunks uploaded, by sha256
    chunks_cleared: bool = False  # clear_chunk_store: the chunks stored before go
    snapshots: dict[bytes, Snapshot | None] = field(default_factory=dict)  # taken, or deleted (None), by id
    # Chunks written into uploaded snapshots: by id, their values by image and name (`memory_image`)
    snapshot_parts: dict[bytes, dict[bytes, bytes | None]] = field(default_factory=dict)
    modules: list[bytes] = field(default_factory=list)  # modules to keep (an uploaded snapshot's, loaded)
    log: list | None = None  # the canister's log, where the message changed it (`CanisterLog.record`)


@dataclass
class Snapshot:
    """A canister snapshot: what loading it gives the canister back (`management.snapshots`). One taken
    names its module by sha256 (the store keeps each module once); one uploaded
    (`management.snapshot_data`) holds its module's bytes itself, as they came."""

    module: bytes | None  # sha256 of its module; None: an uploaded snapshot's, ``wasm``
    # Its instance's state besides the memories (`Instance.state`), with its globals' types
    # (``global_types``; a snapshot taken before they were kept lacks them) and an uploaded one's
    # module's size (``module_size``).
    state: dict
    certified_data: bytes
    memory: bytes
    stable: bytes
    wasm: bytes = b""  # an uploaded snapshot's module (``module_size`` bytes, zeros where none came)
    chunks: dict[bytes, bytes] = field(default_factory=dict)  # its chunk store, by sha256


@dataclass
class Saved:
    """An actor as the store holds it."""

    state: dict
    memory: memory_image.Stored  # over the module's initial image (``Stored.over``)
    stable: memory_image.Stored  # over zeros
    inbox: list[tuple[int, object]]
    pending: list[tuple[int, object]]
    log: list | None  # the canister's log (`CanisterLog.record`), None until it logged something


def system_calls_run(view: StoreView) -> int:
    """How many system-method calls (the device's) the state in ``view`` has run: where its record
    ends, or the place of its last copy when nothing was recorded after it."""
    last = None
    for key, _ in view.scan(_SYSTEM_LOG):
        last = key
    if last is not None:
        return int.from_bytes(last[len(_SYSTEM_LOG) :], "big") + 1
    copy = view.get(_SYSTEM_COPY)
    return 0 if copy is None else cbor2.loads(copy)[0]


class Journal:
    def __init__(self, store: Store):
        self.store = store
        layout = store.get(b"meta/layout")
        if layout is None:
            if next(store.scan(b""), None) is not None:
                raise StoreError(f"{store.description}: holds data but no moxzi layout version")
            batch = Batch()
            batch.put(b"meta/layout", LAYOUT)
            store.commit(batch)
        elif layout == _PAGED_LAYOUT:
            self._upgrade_layout()
        elif layout == _INLINE_PATCHES_LAYOUT:
            self._set_layout()
        elif layout != LAYOUT:
            raise StoreError(
                f"{store.description}: written by a moxzid with state layout "
                f"{layout.decode(errors='replace')}, this one reads layout {LAYOUT.decode()}"
            )

    # --- writing -----------------------------------------------------------------------------
    @staticmethod
    def add_module(batch: Batch, wasm: bytes) -> bytes:
        digest = hashlib.sha256(wasm).digest()
        batch.put(b"module/" + digest, wasm)
        return digest

    @staticmethod
    def record(batch: Batch, name: str, seq: int, message) -> None:
        batch.put(_actor(name, b"inbox", _u64(seq)), cbor2.dumps(message))

    @staticmethod
    def created(batch: Batch, name: str, principal: bytes, creator: bytes) -> None:
        batch.put(b"created/" + name.encode(), principal)
        batch.put(b"created-by/" + name.encode(), creator)

    def created_actors(self) -> list[tuple[str, bytes]]:
        """The actors create_canister made and delete_canister did not delete: (name, principal)."""
        return [(key[len(b"created/") :].decode(), value) for key, value in self.store.scan(b"created/")]

    def created_by(self, creator: bytes) -> int:
        """How many of those actors ``creator`` created."""
        return sum(value == creator for _, value in self.store.scan(b"created-by/"))

    @staticmethod
    def forget(batch: Batch, name: str) -> None:
        """Drop everything of a deleted actor."""
        batch.delete(b"created/" + name.encode())
        batch.delete(b"created-by/" + name.encode())
        batch.clear_prefix(_actor(name, b""))

    @staticmethod
    def consume(batch: Batch, name: str, seq: int) -> None:
        batch.delete(_actor(name, b"inbox", _u64(seq)))

    @staticmethod
    def pending(batch: Batch, name: str, callback: int, call) -> None:
        batch.put(_actor(name, b"pending", _u64(callback)), cbor2.dumps(call))

    @staticmethod
    def answered(batch: Batch, name: str, callback: int) -> None:
        batch.delete(_actor(name, b"pending", _u64(callback)))

    @staticmethod
    def system_call(batch: Batch, seq: int, caller: bytes, method: str, arg: bytes | Attachment) -> None:
        """Record a call; an Attachment argument must be in the store already (``put_attachment``)."""
        record = (
            [caller, method, arg] if not isinstance(arg, Attachment) else [caller, method, None, arg.ident, arg.size]
        )
        batch.put(_SYSTEM_LOG + _u64(seq), cbor2.dumps(record))

    def system_calls(self, start: int = 0) -> list[tuple[int, list]]:
        """The recorded system-method calls from ``start`` on, in the order they ran:
        [(seq, [caller, method, arg])], an attachment's arg read from the store as it is read."""
        calls = []
        for key, value in self.store.scan(_SYSTEM_LOG):
            seq = int.from_bytes(key[len(_SYSTEM_LOG) :], "big")
            if seq >= start:
                caller, method, arg, *attached = _plain(cbor2.loads(value))
                if attached:
                    arg = self._attachment(*attached)
                calls.append((seq, [caller, method, arg]))
        return calls

    def _attachment(self, ident: bytes, size: int) -> Attachment:
        index = self.store.get(SYSTEM_ATTACHED + ident)
        head = cbor2.loads(index)[2] if index is not None else b""  # no index: reading says it is damaged
        return Attachment(size, lambda: io.BufferedReader(StoredParts(self.store, ident)), ident=ident, head=head)

    def attachment_writer(self) -> AttachmentWriter:
        """A new attachment, written into the store part by part as its bytes come."""
        return AttachmentWriter(self.store)

    def put_attachment(self, attachment: Attachment) -> None:
        """Copy ``attachment`` into the store, 4 MiB of it per batch, and set its ``ident``. Until a record or
        the copy names it, start-up drops it (``attachments`` lists them)."""
        ident, digest = secrets.token_bytes(8), hashlib.sha256()
        batch = Batch()
        batch.put(SYSTEM_ATTACHED + ident, cbor2.dumps([attachment.size, None, b""]))  # found, if we stop here
        reader, n = attachment.open(), 0
        while data := reader.read(BATCH):
            if attachment.sha256 is None:
                digest.update(data)
            n = put_parts(batch, ident, n, data)
            self.store.commit(batch)
            batch = Batch()
        kept = attachment.sha256 or digest.digest()  # reading it back checks the parts against it
        batch.put(SYSTEM_ATTACHED + ident, cbor2.dumps([attachment.size, kept, attachment.head]))
        self.store.commit(batch)
        attachment.ident = ident

    def attachments(self) -> list[bytes]:
        """The idents of every attachment in the store."""
        return [key[len(SYSTEM_ATTACHED) :] for key, _ in self.store.scan(SYSTEM_ATTACHED)]

    def put_system_checkpoint(self, batch: Batch, seq: int, copy: Attachment) -> None:
        """A full copy of the system's state after the recorded calls before ``seq`` (in the store
        already: ``put_attachment``), which replaces that record and the previous copy."""
        previous = self.system_checkpoint()
        if previous is not None and previous[1].ident is not None:  # a copy read from the store has one
            drop_attachment(batch, previous[1].ident)
        batch.clear_prefix(_SYSTEM_LOG)
        batch.put(_SYSTEM_COPY, cbor2.dumps([seq, copy.ident, copy.size]))

    def system_identity(self) -> str | None:
        """The identity of the system whose calls are recorded here (``SystemState.identity``), if set."""
        identity = self.store.get(_SYSTEM_IDENTITY)
        return None if identity is None else identity.decode()

    def set_system_identity(self, identity: str) -> None:
        batch = Batch()
        batch.put(_SYSTEM_IDENTITY, identity.encode())
        self.store.commit(batch)

    def system_checkpoint(self) -> tuple[int, Attachment] | None:
        """The place in the record of the last copy of the system's state, and the copy; or None."""
        meta = self.store.get(_SYSTEM_COPY)
        if meta is None:
            return None
        seq, ident, size = cbor2.loads(meta)
        return seq, self._attachment(ident, size)

    @staticmethod
    def put_delta(batch: Batch, name: str, delta: Delta) -> None:
        """Write into ``batch`` what one message changed of actor ``name`` (`turn.Effects.delta`)."""
        if delta.chunks_cleared:
            batch.clear_prefix(_actor(name, b"chunk", b""))
        for digest, chunk in delta.chunks.items():
            batch.put(_actor(name, b"chunk", digest), chunk)
        for snapshot_id, taken in delta.snapshots.items():
            batch.clear_prefix(_actor(name, b"snapshot", snapshot_id.hex().encode(), b""))
            if taken is not None:
                _put_snapshot(batch, _actor(name, b"snapshot", snapshot_id.hex().encode()), taken)
        for snapshot_id, values in delta.snapshot_parts.items():
            prefix = _actor(name, b"snapshot", snapshot_id.hex().encode(), b"")
            batch.writes.update({prefix + value_name: value for value_name, value in values.items()})
        for wasm in delta.modules:
            Journal.add_module(batch, wasm)
        if delta.full:
            batch.clear_prefix(_actor(name, _MEMORY, b""))
            batch.clear_prefix(_actor(name, _STABLE, b""))
        for kind, values in ((_MEMORY, delta.memory_values), (_STABLE, delta.stable_values)):
            if values:  # (a value None deletes its key, as Batch.delete does)
                prefix = _actor(name, kind, b"")
                batch.writes.update({prefix + value_name: value for value_name, value in values.items()})
        if delta.state is not None:
            batch.put(_actor(name, b"state"), cbor2.dumps(delta.state))
        if delta.log is not None:
            batch.put(_actor(name, b"log"), cbor2.dumps(delta.log))

    # --- reading -----------------------------------------------------------------------------
    def module(self, digest: bytes) -> bytes:
        wasm = self.store.get(b"module/" + digest)
        if wasm is None:
            raise StoreError(f"{self.store.description}: module {digest.hex()} is missing")
        return wasm

    def chunk(self, name: str, digest: bytes) -> bytes | None:
        """The chunk with sha256 ``digest`` in actor ``name``'s chunk store, if it holds one."""
        return self.store.get(_actor(name, b"chunk", digest))

    def snapshot_of(self, name: str, snapshot_id: bytes) -> Snapshot:
        """Actor ``name``'s snapshot ``snapshot_id`` (its canister record lists it)."""
        prefix = _actor(name, b"snapshot", snapshot_id.hex().encode())
        fields = self.snapshot_meta(name, snapshot_id)
        what = f"{self.store.description}: snapshot {snapshot_id.hex()} of actor {name}"
        state, images = fields["state"], []
        sizes = [(_MEMORY, state["memory_size"]), (_STABLE, state["stable_size"])]
        for kind, size in sizes + [(b"module", state.get("module_size", 0))] * (fields["module"] is None):
            part = prefix + b"/" + kind + b"/"
            values = ((key[len(part) :], value) for key, value in self.store.scan(part))
            whole = -(-size // memory_image.CHUNK) * memory_image.CHUNK  # (a module's last chunk is cut short)
            images.append(bytes(memory_image.Stored(whole, values, what).over(b""))[:size])
        memory, stable, *wasm = images
        chunks = self.snapshot_wasm_chunks(name, snapshot_id)
        return Snapshot(fields["module"], state, fields["certified_data"], memory, stable, b"".join(wasm), chunks)

    def snapshot_wasm_chunks(self, name: str, snapshot_id: bytes) -> dict[bytes, bytes]:
        """The chunk store actor ``name``'s snapshot ``snapshot_id`` holds: its chunks by sha256."""
        prefix = _actor(name, b"snapshot", snapshot_id.hex().encode(), b"chunk", b"")
        return {key[len(prefix) :]: chunk for key, chunk in self.store.scan(prefix)}

    def snapshot_wasm_chunk(self, name: str, snapshot_id: bytes, digest: bytes) -> bytes | None:
        """The chunk with sha256 ``digest`` in the chunk store of actor ``name``'s snapshot, if it holds one."""
        return self.store.get(_actor(name, b"snapshot", snapshot_id.hex().encode(), b"chunk", digest))

    def snapshot_meta(self, name: str, snapshot_id: bytes) -> dict:
        """Actor ``name``'s snapshot ``snapshot_id`` but its images: its module, state and certified data."""
        meta = self.store.get(_actor(name, b"snapshot", snapshot_id.hex().encode(), b"meta"))
        if meta is None:
            raise StoreError(f"{self.store.description}: snapshot {snapshot_id.hex()} of {name} is missing")
        return _plain(cbor2.loads(meta))

    def snapshot_chunk(self, name: str, snapshot_id: bytes, kind: bytes, number: int) -> bytes:
        """Chunk ``number`` (`memory_image.CHUNK` bytes) of image ``kind`` (`SNAPSHOT_IMAGES`) of actor
        ``name``'s snapshot ``snapshot_id``: zeros where none is stored."""
        value_name = memory_image.chunk_name(number)
        value = self.store.get(_actor(name, b"snapshot", snapshot_id.hex().encode(), kind, value_name))
        try:
            return memory_image.chunk_of(value)
        except ValueError as error:
            raise StoreError(f"{self.store.description}: snapshot {snapshot_id.hex()} of {name}: {error}") from None

    def load(self, name: str) -> Saved | None:
        """The actor's saved state, or None if it was never installed."""
        raw = self.store.get(_actor(name, b"state"))
        if raw is None:
            return None
        try:
            state = _plain(cbor2.loads(raw))
            return Saved(
                state=state,
                memory=self._image(name, _MEMORY, state.get("memory_size", 0)),  # none: no code yet
                stable=self._image(name, _STABLE, state.get("stable_size", 0)),
                inbox=self._entries(name, b"inbox"),
                pending=self._entries(name, b"pending"),
                log=self._log(name),
            )
        except (cbor2.CBORDecodeError, KeyError, ValueError, TypeError) as error:
            raise StoreError(f"{self.store.description}: the saved state of actor {name} is corrupt: {error}") from None

    def _log(self, name: str) -> list | None:
        raw = self.store.get(_actor(name, b"log"))
        return None if raw is None else cbor2.loads(raw)

    def _image(self, name: str, kind: bytes, size: int) -> memory_image.Stored:
        return _stored_image(self.store, name, kind, size, self.store.scan(_actor(name, kind, b"")))

    def _upgrade_layout(self) -> None:
        """Convert a layout 4 store: each actor's 4 KiB pages become compressed chunks, an actor per
        batch (a conversion stopped half-way goes on from the next actor that still has pages), then the
        layout. Chunks that hold the initial image are stored too (the journal does not know it here):
        the actor's next full snapshot leaves them out."""
        for name in self.actor_names():
            batch = Batch()
            for old, kind in ((b"mem", _MEMORY), (b"stable", _STABLE)):
                prefix = _actor(name, old, b"")
                pages = {int.from_bytes(key[len(prefix) :], "big"): page for key, page in self.store.scan(prefix)}
                for number, content in memory_image.chunks_of_pages(pages, PAGE).items():
                    packed = memory_image.pack(content, number, b"")
                    if packed is not None:
                        batch.put(_actor(name, kind, memory_image.chunk_name(number)), packed)
                batch.clear_prefix(prefix)
            if batch.writes or batch.cleared_prefixes:
                self.store.commit(batch)
        self._set_layout()

    def _set_layout(self) -> None:
        batch = Batch()
        batch.put(b"meta/layout", LAYOUT)
        self.store.commit(batch)

    def _entries(self, name: str, kind: bytes) -> list[tuple[int, object]]:
        prefix = _actor(name, kind, b"")
        return [
            (int.from_bytes(key[len(prefix) :], "big"), _plain(cbor2.loads(value)))
            for key, value in self.store.scan(prefix)
        ]

    def actor_names(self) -> list[str]:
        return _actor_names(self.store)


def _stored_image(
    store: Store, name: str, kind: bytes, size: int, entries: Iterable[tuple[bytes, bytes]]
) -> memory_image.Stored:
    """Actor ``name``'s memory ``kind`` (`_MEMORY`, `_STABLE`) of ``size`` bytes, from its values by
    key (``entries``: what the store holds under its prefix)."""
    prefix = _actor(name, kind, b"")
    return memory_image.Stored(
        size,
        ((key[len(prefix) :], value) for key, value in entries),
        f"{store.description}: the saved state of actor {name}",
    )


def _actor_names(store: Store) -> list[str]:
    return sorted({key.split(b"/")[1].decode() for key, _ in store.scan(b"actor/")})


def repack_memories(store: Store) -> tuple[int, int]:
    """Compress every actor's memory chunks and patches again at the cold level (`memory_image.repack`),
    off the write path (``moxzid compact``, which holds the store alone): the values' bytes before and
    after. First the chunks of a Motoko heap's free space (`motoko_heap.free_space`: what its collector
    freed and will write before it reads) are stored as zeros, an actor per batch. Then a batch of at
    most REPACK_BATCH values at a time, each value replaced by one that holds the same bytes. A stop at
    any point leaves every memory as it was, or with more of its free space zeros; a store with no
    layout (no actors) has nothing to repack."""
    before = after = 0
    for name in _actor_names(store):
        memory = dict(store.scan(_actor(name, _MEMORY, b"")))
        cleared = _clear_free_space(store, name, memory)
        before += sum(len(memory[key]) for key in cleared if key in memory)
        after += sum(len(value) for value in cleared.values() if value is not None)
        kept = [(key, value) for key, value in memory.items() if key not in cleared]  # (as they still are)
        for entries in (kept, store.scan(_actor(name, _STABLE, b""))):
            entries = list(entries)
            for at in range(0, len(entries), REPACK_BATCH):
                keys, values = zip(*entries[at : at + REPACK_BATCH])
                batch = Batch()
                for key, value, repacked in zip(keys, values, memory_image.repack(values)):
                    before += len(value)
                    after += len(value if repacked is None else repacked)
                    if repacked is not None:
                        batch.put(key, repacked)
                if batch.writes:
                    store.commit(batch)
    return before, after


def _clear_free_space(store: Store, name: str, memory_values: dict[bytes, bytes]) -> dict[bytes, bytes | None]:
    """Store zeros in actor ``name``'s main memory, whose values by key are ``memory_values``, where its
    Motoko heap is free (`repack_memories`): the values written by key (None: deleted)."""
    raw = store.get(_actor(name, b"state"))
    if raw is None:
        return {}
    try:
        size = cbor2.loads(raw).get("memory_size", 0)
        memory = _stored_image(store, name, _MEMORY, size, memory_values.items())
        values = memory.cleared(motoko_heap.free_space(memory.read, size))
    except (cbor2.CBORDecodeError, AttributeError, ValueError, StoreError):
        return {}  # (a state or chunk that does not read: left for the restore that reads it to report)
    batch = Batch()
    for value_name, value in values.items():
        key = _actor(name, _MEMORY, value_name)
        if value is None:
            batch.delete(key)
        else:
            batch.put(key, value)
    if batch.writes:
        store.commit(batch)
    return {_actor(name, _MEMORY, value_name): value for value_name, value in values.items()}


def _plain(value):
    """cbor2 returns frozendicts and tuples in places: give back plain dicts and lists."""
    if isinstance(value, Mapping):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value
