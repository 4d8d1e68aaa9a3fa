"""What canister snapshots may hold: each counts against its actor's bound (what one copy of its memories
may be) and moxzid's total for all actors' memory, a restart counting them again; one past either is
refused, naming the budget, and takes nothing; a snapshot taken with ``uninstall_code`` empties the canister;
a snapshot downloaded (read_canister_snapshot_metadata, _data) and uploaded to another canister loads its state
there, and bad slices, strangers and writes into a taken snapshot are refused."""

import hashlib

import cbor2
from kit.actorbuild import build_actor

from moxzi_core.candid import Principal, Some, decode_args, encode_args, resolve
from moxzi_core.runtime.engine import Limits
from moxzi_core.runtime.host import ActorSpec, Host, HostConfig, actor_principal
from moxzi_core.runtime.management.interface import MANAGEMENT_NAME, SERVICE
from moxzi_core.runtime.messages import ANONYMOUS, Reject
from moxzi_core.store import Batch, MemoryStore

CANISTER = Principal(actor_principal("c"))
TAKE = {"canister_id": CANISTER, "replace_snapshot": None, "uninstall_code": None, "sender_canister_version": None}
LOAD = {"canister_id": CANISTER, "sender_canister_version": None}


async def manage(host: Host, method: str, argument: dict):
    arg = encode_args(list(SERVICE.methods[method].args), [argument])
    outcome = await host.call(MANAGEMENT_NAME, method, arg, query=False, caller=ANONYMOUS)
    return outcome, outcome.reply and decode_args(outcome.reply, list(SERVICE.methods[method].rets))


async def snapshots(host: Host) -> list:
    return (await manage(host, "list_canister_snapshots", {"canister_id": CANISTER}))[1][0]


async def test_snapshots_count_against_the_actor_and_the_total_memory_budgets():
    store, built = MemoryStore(), build_actor("counter")
    spec = ActorSpec("c", built.wasm, built.did, controllers=(ANONYMOUS,))
    # An actor whose memories may be 7 MiB (6 of heap, 1 of stable): one snapshot of its ~5 MiB fits.
    host = Host([spec], HostConfig(Limits(memory_bytes=6 << 20, stable_memory_pages=16)), store=store)
    await host.start()
    try:
        before = host.memory_budget.held_bytes
        _, (first,) = await manage(host, "take_canister_snapshot", TAKE)
        size = first["total_size"]
        assert host.memory_budget.held_bytes == before + size
        refused, _ = await manage(host, "take_canister_snapshot", TAKE)
        assert refused.reject_code == Reject.CANISTER_ERROR
        assert f"its snapshots would hold {2 * size >> 20} MiB" in refused.reject_message
        assert "(7 MiB: moxzid --actor-memory-mb and --actor-stable-mb)" in refused.reject_message
        assert await snapshots(host) == [first] and host.memory_budget.held_bytes == before + size
        held = host.memory_budget.held_bytes
    finally:
        await host.stop()
    # Restarted with a total that leaves half a snapshot: the one kept is counted again, no second fits.
    host = Host([spec], HostConfig(total_memory_bytes=held + size // 2), store=store)
    await host.start()
    try:
        restored = host.memory_budget.held_bytes
        assert restored >= held  # (a restored memory counts whole up to its size)
        refused, _ = await manage(host, "take_canister_snapshot", TAKE)
        assert refused.reject_code == Reject.SYS_TRANSIENT
        assert "moxzid's memory for all actors is spent" in refused.reject_message
        assert "(moxzid --total-memory-mb); nothing was taken" in refused.reject_message
        assert await snapshots(host) == [first]
        _, (second,) = await manage(host, "take_canister_snapshot", {**TAKE, "replace_snapshot": Some(first["id"])})
        assert await snapshots(host) == [second]  # replacing one fits: the budget counts it once
        assert host.memory_budget.held_bytes == restored
        deleted, _ = await manage(
            host, "delete_canister_snapshot", {"canister_id": CANISTER, "snapshot_id": second["id"]}
        )
        assert deleted.reply is not None and host.memory_budget.held_bytes == restored - size
        taken, _ = await manage(host, "take_canister_snapshot", TAKE)
        assert taken.reply is not None, taken.reject_message
    finally:
        await host.stop()


async def test_a_snapshot_taken_with_uninstall_code_empties_the_canister_and_loads_back():
    built = build_actor("counter")
    host = Host([ActorSpec("c", built.wasm, built.did, controllers=(ANONYMOUS,))], store=MemoryStore())
    await host.start()
    try:
        await host.call("c", "inc", encode_args([], []), query=False)
        taken, (snapshot,) = await manage(host, "take_canister_snapshot", {**TAKE, "uninstall_code": Some(True)})
        assert taken.reply is not None, taken.reject_message
        assert host.info("c").mode == "empty"
        loaded, _ = await manage(host, "load_canister_snapshot", {**LOAD, "snapshot_id": snapshot["id"]})
        assert loaded.reply is not None, loaded.reject_message
        assert host.info("c").mode != "empty"
        assert decode_args((await host.call("c", "get", encode_args([], []), query=True)).reply) == [1]
    finally:
        await host.stop()


OTHER = Principal(actor_principal("d"))
(SETTINGS,) = [f.type for f in resolve(SERVICE.methods["update_settings"].args[0]).fields if f.name == "settings"]
SETTINGS_FIELDS = [field.name for field in resolve(SETTINGS).fields]  # (canister_settings)


async def download(host: Host, canister: Principal, snapshot_id: bytes) -> tuple[dict, dict[str, bytes], list]:
    """A snapshot's metadata, images and chunk store, read as icp-cli reads them: a slice at a time (of an
    odd size, so that slices end inside the store's chunks), then each chunk by its hash."""
    (metadata,) = (
        await manage(host, "read_canister_snapshot_metadata", {"canister_id": canister, "snapshot_id": snapshot_id})
    )[1]
    images = {}
    for kind, size in (
        ("wasm_module", "wasm_module_size"),
        ("wasm_memory", "wasm_memory_size"),
        ("stable_memory", "stable_memory_size"),
    ):
        image = b""
        while len(image) < metadata[size]:
            where = {"offset": len(image), "size": min(1_000_003, metadata[size] - len(image))}
            read, answer = await manage(
                host,
                "read_canister_snapshot_data",
                {"canister_id": canister, "snapshot_id": snapshot_id, "kind": {kind: where}},
            )
            assert read.reply is not None, read.reject_message
            image += answer[0]["chunk"]
        images[kind] = image
    chunks = []
    for entry in metadata["wasm_chunk_store"]:
        where = {"canister_id": canister, "snapshot_id": snapshot_id, "kind": {"wasm_chunk": entry}}
        chunks.append((await manage(host, "read_canister_snapshot_data", where))[1][0]["chunk"])
    return metadata, images, chunks


async def upload(host: Host, canister: Principal, metadata: dict, images: dict[str, bytes], chunks: list) -> bytes:
    """A new snapshot of ``canister`` holding what ``download`` read, uploaded as icp-cli uploads it."""
    argument = {
        "canister_id": canister,
        "replace_snapshot": None,
        "globals": [entry.value for entry in metadata["globals"]],
        **{
            name: metadata[name]
            for name in (
                "wasm_module_size",
                "wasm_memory_size",
                "stable_memory_size",
                "certified_data",
                "global_timer",
                "on_low_wasm_memory_hook_status",
            )
        },
    }
    made, answer = await manage(host, "upload_canister_snapshot_metadata", argument)
    assert made.reply is not None, made.reject_message
    snapshot_id = answer[0]["snapshot_id"]
    for kind, image in images.items():
        for offset in range(0, len(image), 700_001):
            data = {
                "canister_id": canister,
                "snapshot_id": snapshot_id,
                "kind": {kind: {"offset": offset}},
                "chunk": image[offset : offset + 700_001],
            }
            sent, _ = await manage(host, "upload_canister_snapshot_data", data)
            assert sent.reply is not None, sent.reject_message
    for chunk in chunks:
        data = {"canister_id": canister, "snapshot_id": snapshot_id, "kind": {"wasm_chunk": None}, "chunk": chunk}
        sent, _ = await manage(host, "upload_canister_snapshot_data", data)
        assert sent.reply is not None, sent.reject_message
    return snapshot_id


async def test_a_snapshot_downloaded_and_uploaded_to_another_canister_loads_its_state_there():
    store, built = MemoryStore(), build_actor("counter")
    specs = [ActorSpec(name, built.wasm, built.did, controllers=(ANONYMOUS,)) for name in ("c", "d")]
    host = Host(specs, store=store)
    await host.start()
    try:
        for _ in range(2):
            await host.call("c", "inc", encode_args([], []), query=False)
        chunk = b"a chunk of c's chunk store"
        await manage(host, "upload_chunk", {"canister_id": CANISTER, "chunk": chunk})
        _, (taken,) = await manage(host, "take_canister_snapshot", TAKE)
        metadata, images, chunks = await download(host, CANISTER, taken["id"])
        assert metadata["wasm_chunk_store"] == [{"hash": hashlib.sha256(chunk).digest()}] and chunks == [chunk]
        assert metadata["source"] == Some({"taken_from_canister": None})
        assert metadata["wasm_module_size"] == len(built.wasm) and images["wasm_module"] == built.wasm
        assert metadata["wasm_memory_size"] == len(images["wasm_memory"]) > 0
        assert metadata["globals"] and all(entry.value for entry in metadata["globals"])
        assert metadata["on_low_wasm_memory_hook_status"] == Some({"condition_not_satisfied": None})
        executed = {**metadata, "on_low_wasm_memory_hook_status": Some({"executed": None})}
        # d's memory is low by its settings (its hook, which it does not export, comes due):
        low = {name: None for name in SETTINGS_FIELDS} | {"wasm_memory_threshold": Some(1 << 40)}
        await manage(host, "update_settings", {"canister_id": OTHER, "settings": low, "sender_canister_version": None})
        uploaded = await upload(host, OTHER, executed, images, chunks)
        (again,) = (
            await manage(host, "read_canister_snapshot_metadata", {"canister_id": OTHER, "snapshot_id": uploaded})
        )[1]
        assert again["source"] == Some({"metadata_upload": None}) and again["globals"] == metadata["globals"]
        assert again["on_low_wasm_memory_hook_status"] == Some({"executed": None})
        assert (await download(host, OTHER, uploaded))[1:] == (images, chunks)  # read back as it went up
        loaded, _ = await manage(
            host,
            "load_canister_snapshot",
            {"canister_id": OTHER, "snapshot_id": uploaded, "sender_canister_version": None},
        )
        assert loaded.reply is not None, loaded.reject_message
        assert decode_args((await host.call("d", "get", encode_args([], []), query=True)).reply) == [2]
        stored = (await manage(host, "stored_chunks", {"canister_id": OTHER}))[1][0]
        assert stored == metadata["wasm_chunk_store"]  # its chunk store is the snapshot's, its hook's status too:
        _, (of_d,) = await manage(host, "take_canister_snapshot", {**TAKE, "canister_id": OTHER})
        read = {"canister_id": OTHER, "snapshot_id": of_d["id"]}
        hook = (await manage(host, "read_canister_snapshot_metadata", read))[1][0]["on_low_wasm_memory_hook_status"]
        assert hook == Some({"executed": None})
        await host.call("d", "inc", encode_args([], []), query=False)
        # The same canister, changed since, gets its snapshot back through an upload as well.
        await host.call("c", "inc", encode_args([], []), query=False)
        await manage(host, "clear_chunk_store", {"canister_id": CANISTER})
        own = await upload(host, CANISTER, metadata, images, chunks)
        loaded, _ = await manage(host, "load_canister_snapshot", {**LOAD, "snapshot_id": own})
        assert loaded.reply is not None, loaded.reject_message
        assert decode_args((await host.call("c", "get", encode_args([], []), query=True)).reply) == [2]
        assert (await manage(host, "stored_chunks", {"canister_id": CANISTER}))[1][0] == metadata["wasm_chunk_store"]
    finally:
        await host.stop()
    host = Host(specs, store=store)  # the loaded module and state are kept
    await host.start()
    try:
        assert decode_args((await host.call("d", "get", encode_args([], []), query=True)).reply) == [3]
    finally:
        await host.stop()


async def test_snapshot_reads_and_uploads_refuse_bad_slices_strangers_and_taken_snapshots():
    built = build_actor("counter")
    host = Host([ActorSpec("c", built.wasm, built.did, controllers=(ANONYMOUS,))], store=MemoryStore())
    await host.start()
    try:
        _, (taken,) = await manage(host, "take_canister_snapshot", TAKE)
        snapshot = {"canister_id": CANISTER, "snapshot_id": taken["id"]}

        async def refused(method: str, argument: dict, caller: bytes = ANONYMOUS) -> str:
            arg = encode_args(list(SERVICE.methods[method].args), [argument])
            outcome = await host.call(MANAGEMENT_NAME, method, arg, query=False, caller=caller)
            assert outcome.reject_code == Reject.CANISTER_ERROR, outcome
            return outcome.reject_message

        size = len(built.wasm)
        past = await refused(
            "read_canister_snapshot_data", {**snapshot, "kind": {"wasm_module": {"offset": size - 1, "size": 2}}}
        )
        assert past == f"Invalid subslice into wasm module / main memory / stable memory: offset: {size - 1}, size: 2"
        large = await refused(
            "read_canister_snapshot_data", {**snapshot, "kind": {"wasm_memory": {"offset": 0, "size": 2_000_001}}}
        )
        assert large == "Requested slice too large: 2000001 > 2000000"
        missing = await refused(
            "read_canister_snapshot_data", {**snapshot, "kind": {"wasm_chunk": {"hash": b"\0" * 32}}}
        )
        assert missing == f"Error from Wasm chunk store: the snapshot holds no chunk {'00' * 32}."
        unknown = await refused("read_canister_snapshot_metadata", {**snapshot, "snapshot_id": b"\x01" * 18})
        assert "has no snapshot 0101" in unknown
        stranger = await refused("read_canister_snapshot_metadata", snapshot, caller=actor_principal("x"))
        assert "only the controllers of canister c may call read_canister_snapshot_metadata" in stranger
        upload = {**snapshot, "kind": {"wasm_memory": {"offset": 0}}, "chunk": b"\x01"}
        assert "created by metadata upload can be mutated" in await refused("upload_canister_snapshot_data", upload)
        metadata = {
            "canister_id": CANISTER,
            "replace_snapshot": Some(taken["id"]),
            "wasm_module_size": 10,
            "globals": [],
            "wasm_memory_size": 1000,
            "stable_memory_size": 0,
            "certified_data": b"",
            "global_timer": None,
            "on_low_wasm_memory_hook_status": None,
        }
        pages = await refused("upload_canister_snapshot_metadata", metadata)
        assert "memory_size 1000 is not whole 64 KiB pages" in pages
        (made,) = (await manage(host, "upload_canister_snapshot_metadata", {**metadata, "wasm_memory_size": 1 << 16}))[
            1
        ]
        assert await snapshots(host) == [
            {
                "id": made["snapshot_id"],
                "taken_at_timestamp": (await snapshots(host))[0]["taken_at_timestamp"],
                "total_size": 10 + (1 << 16),
            }
        ]
        beyond = {
            **upload,
            "snapshot_id": made["snapshot_id"],
            "kind": {"wasm_module": {"offset": 5}},
            "chunk": b"123456",
        }
        assert "offset: 5, size: 6" in await refused("upload_canister_snapshot_data", beyond)
        for _ in range(2):  # a chunk of its chunk store counts once, as it comes
            chunk = {**beyond, "kind": {"wasm_chunk": None}, "chunk": b"xyz"}
            assert (await manage(host, "upload_canister_snapshot_data", chunk))[0].reply is not None
            assert (await snapshots(host))[0]["total_size"] == 10 + (1 << 16) + 3
        unloadable = await refused("load_canister_snapshot", {**LOAD, "snapshot_id": made["snapshot_id"]})
        assert unloadable.startswith("load_canister_snapshot of c:")  # ten zero bytes are no module
        assert decode_args((await host.call("c", "get", encode_args([], []), query=True)).reply) == [0]
    finally:
        await host.stop()


async def test_a_snapshot_stored_without_its_globals_types_reads_them_from_its_module():
    """A snapshot taken before snapshots kept their globals' types: its metadata types them as its
    module defines them."""
    store, built = MemoryStore(), build_actor("counter")
    spec = ActorSpec("c", built.wasm, built.did, controllers=(ANONYMOUS,))
    host = Host([spec], store=store)
    await host.start()
    try:
        _, (taken,) = await manage(host, "take_canister_snapshot", TAKE)
        read = {"canister_id": CANISTER, "snapshot_id": taken["id"]}
        (typed,) = (await manage(host, "read_canister_snapshot_metadata", read))[1]
    finally:
        await host.stop()
    key = b"actor/c/snapshot/" + taken["id"].hex().encode() + b"/meta"
    meta = cbor2.loads(store.get(key))
    del meta["state"]["global_types"]
    batch = Batch()
    batch.put(key, cbor2.dumps(meta))
    store.commit(batch)
    host = Host([spec], store=store)
    await host.start()
    try:
        (untyped,) = (await manage(host, "read_canister_snapshot_metadata", read))[1]
        assert untyped == typed and {next(iter(g.value)) for g in typed["globals"]} <= {"i32", "i64"}
    finally:
        await host.stop()
