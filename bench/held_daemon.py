"""What a moxzid process's memory (RSS) and store grow by while an actor and an anonymous IC client try
issue 37's first two findings, beside what its budgets allow: RSS minus the budgets is the constant
docs/threat-model.md documents. (bench/held.py measures the device's accounting in this process.)

    python3 bench/held_daemon.py [--rounds 3] [--canisters 3] [--snapshots 10] [--mib 64]

Each scenario runs a fresh moxzid (``--device torch:cpu``, the ``http,ic,console,torch`` plugins) hosting
bench/actors/hoarder.mo, reached as a client would: its manifest's instance over ``/call-json``, and
copies an anonymous client creates, installs and calls over ``/api`` (the management canister's
``create_canister`` and ``install_code``, anonymous CBOR envelopes, replies read from the certificate).

- ``names``: under ``--device-actor-mb 32 --device-total-mb 64 --total-memory-mb 256``, ``--actors``
  hoarders of the manifest (``names, actor``) or canisters an anonymous client created (``names, /api``)
  make 20,000 zero-element parameters with 250-byte names and SGD optimizers over them until a budget
  refuses, then delete it all; ``--rounds`` times (the hoarders' own heaps grow as they build the calls'
  arguments, until the memory budget traps the fill).
- ``snapshots``: ``--canisters`` canisters (the manifest's, the rest created over ``/api``; all
  controlled by the anonymous principal) each get pseudo-random stable memory, then the client takes
  ``--snapshots`` snapshots of each until refused: with ``--total-memory-mb 256`` (memories of a third of
  ``--mib`` each, in memory and with ``-s``, whose ``data.mdb`` growth is shown; and of ``--mib``, which
  leave no room), and with ``--actor-memory-mb 64 --actor-stable-mb 80`` (``--mib`` each).

RSS is moxzid's ``VmRSS`` (``RssAnon`` for snapshots: with ``-s`` the store's pages are a file's) at the
start (actors installed), full, and after (the device's holdings deleted). ``counted`` is what the
budgets count, as held in RAM (``in_ram``: /metrics' ``moxzi_device_counted_bytes``, the actors'
memories twice, the snapshots' ``total_size`` without ``-s``); ``budget`` what the flags allow in RAM;
``uncounted`` the growth at the full point less ``counted``: the constant. Rows of rounds and their median.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import tempfile
import time
import urllib.request
from pathlib import Path

import cbor2
from moxzi_gateway_ic.hashtree import lookup
from moxzid import build_actor, memory_mib, project, running_moxzid

from moxzi_core.candid import NAT64, Principal, decode_args, encode_args
from moxzi_core.runtime.host import actor_principal
from moxzi_core.runtime.management.interface import SERVICE as MANAGEMENT
from moxzi_core.signatures import hash_of_map

MiB = 1 << 20
ANONYMOUS = b"\x04"
HOARDER = build_actor("hoarder", directory=Path(__file__).resolve().parent / "actors")
EMPTY = encode_args([], [])
DEVICE = ("--device", "torch:cpu", "--device-actor-mb", "32", "--device-total-mb", "64")
NUMBERS = ("start", "peak", "after", "counted", "budget", "state")
MEMORY = ("--total-memory-mb", "256")  # the hoarders' own heaps grow as they build their calls' arguments
BUDGET = 64.0 + 2 * 256.0  # in RAM (in_ram)


class Anonymous:
    """An anonymous IC client of one moxzid: synchronous calls (``/api/v4/.../call``), replies read from the
    certificate."""

    def __init__(self, url: str):
        self.url = url

    def call(self, canister: bytes, method: str, arg: bytes, effective: bytes | None = None) -> bytes:
        fields = {
            "request_type": "call",
            "sender": ANONYMOUS,
            "ingress_expiry": time.time_ns() + 4 * 60 * 10**9,
            "nonce": random.randbytes(16),
            "canister_id": canister,
            "method_name": method,
            "arg": arg,
        }
        body = cbor2.dumps(cbor2.CBORTag(55799, {"content": fields}))
        target = Principal(effective or canister)
        sent = urllib.request.Request(
            f"{self.url}/api/v4/canister/{target}/call", data=body, headers={"Content-Type": "application/cbor"}
        )
        with urllib.request.urlopen(sent, timeout=600) as answer:
            certificate = cbor2.loads(answer.read())["certificate"]
        path = [b"request_status", hash_of_map(fields)]
        reply = lookup(cbor2.loads(certificate)["tree"], [*path, b"reply"])
        if reply is None:
            message = lookup(cbor2.loads(certificate)["tree"], [*path, b"reject_message"])
            raise RuntimeError(f"{method} rejected: {message.decode()[:200]}")
        return reply

    def manage(self, method: str, value: dict, effective: Principal):
        arg = encode_args(list(MANAGEMENT.methods[method].args), [value])
        reply = self.call(b"", method, arg, effective.bytes)
        return decode_args(reply, list(MANAGEMENT.methods[method].rets))

    def create_hoarder(self, near: Principal) -> Principal:
        created = self.manage("create_canister", {"settings": None, "sender_canister_version": None}, near)
        canister = created[0]["canister_id"]
        install = {
            "mode": {"install": None},
            "canister_id": canister,
            "wasm_module": HOARDER.wasm,
            "arg": EMPTY,
            "sender_canister_version": None,
        }
        self.manage("install_code", install, canister)
        return canister


def hoarders(folder: Path, actors: int) -> list[str]:
    """``actors`` hoarders in the manifest (hoarder0, ...), controlled by the anonymous principal; their names."""
    named = [f"hoarder{n}" for n in range(actors)]
    project(folder, controllers=("2vxsx-fae",), **dict.fromkeys(named, HOARDER))
    return named


def get(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=60) as answer:
        return answer.read()


def counted_mib(url: str) -> tuple[float, float]:
    """What /metrics says the device counts, and the actors' memories (heap and stable) hold, MiB."""
    lines = get(url + "/metrics").decode().splitlines()
    device, memories = ("moxzi_device_counted_bytes{", "moxzi_actor_memory_bytes{")
    return tuple(
        sum(float(line.split()[-1]) for line in lines if line.startswith(kind)) / MiB for kind in (device, memories)
    )


def in_ram(device: float, memories: float, snapshots: float = 0.0) -> float:
    """What the budgets count is held in RAM: each actor memory twice (itself and the committed copy that
    rolls a message back, runtime/engine/memory.py), the rest once."""
    return device + 2 * memories + snapshots


def names(through_api: bool, actors: int, rounds: int) -> list[dict]:
    """Rows of ``rounds`` rounds of ``actors`` hoarders (the manifest's, or canisters an anonymous client
    created and calls over /api) filling the device and deleting it all."""
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        named = hoarders(Path(folder), 1 if through_api else actors)
        flags = ("-m", "actors.json", *DEVICE, *MEMORY)
        with running_moxzid(*flags, cwd=Path(folder), plugins="http,ic,console,torch") as daemon:
            client, first = Anonymous(daemon.url), Principal(actor_principal(named[0]))

            def each(method: str) -> list:
                """What each hoarder's ``method`` answered (the reject's message if refused)."""
                if not through_api:
                    return [daemon.try_call(name, method)[1] for name in named]
                answers = []
                for canister in canisters:
                    try:
                        answers.append(decode_args(client.call(canister, method, EMPTY)))
                    except RuntimeError as error:
                        answers.append(str(error))
                return answers

            canisters = [client.create_hoarder(first).bytes for _ in range(actors if through_api else 0)]
            start, state = memory_mib(daemon), len(get(daemon.url + "/console/state"))
            for _ in range(rounds):
                made = ", ".join(f"{m[0]}+{m[1]}" if isinstance(m, list) else "refused" for m in each("fill"))
                counted, full_state = in_ram(*counted_mib(daemon.url)), len(get(daemon.url + "/console/state"))
                rss = memory_mib(daemon)
                each("clear")
                rows.append(
                    {
                        "start": start,
                        "peak": rss,
                        "after": memory_mib(daemon),
                        "counted": counted,
                        "budget": BUDGET,
                        "made": made,
                        "state": (full_state - state) / 1024,
                    }
                )
    return rows


def snapshots(flags: tuple[str, ...], budget: float, canisters: int, count: int, mib: int) -> dict:
    """One row: ``canisters`` hoarders with ``mib`` MiB of random stable memory each, and ``count``
    snapshots of each taken until refused (RssAnon: the store's pages with -s are a file's)."""
    with tempfile.TemporaryDirectory() as folder:
        named = hoarders(Path(folder), 1)
        with running_moxzid("-m", "actors.json", *flags, cwd=Path(folder), plugins="http,ic,lmdb,console") as daemon:
            client, hoarder = Anonymous(daemon.url), Principal(actor_principal(named[0]))
            targets = [hoarder] + [client.create_hoarder(hoarder) for _ in range(canisters - 1)]
            start, store = memory_mib(daemon, "RssAnon"), Path(folder) / "state" / "data.mdb"
            store_start = store.stat().st_size / MiB if store.exists() else 0.0
            peak = start
            written = 0  # MiB, each canister's until the memory budgets refuse its growth
            for canister in targets:
                for at in range(0, mib, 8):
                    try:
                        client.call(canister.bytes, "noise", encode_args([NAT64, NAT64], [at, min(8, mib - at)]))
                    except RuntimeError:
                        break
                    written += min(8, mib - at)
            taken, refused = 0, ""
            for canister in targets:
                for _ in range(count):
                    take = {"canister_id": canister, "replace_snapshot": None, "uninstall_code": None}
                    try:
                        client.manage("take_canister_snapshot", {**take, "sender_canister_version": None}, canister)
                        taken += 1
                    except RuntimeError as error:
                        refused = str(error)
                        break
                    finally:
                        peak = max(peak, memory_mib(daemon, "RssAnon"))
            held = sum(
                s["total_size"]
                for canister in targets
                for s in client.manage("list_canister_snapshots", {"canister_id": canister}, canister)[0]
            )
            return {
                "start": start,
                "peak": peak,
                "after": memory_mib(daemon, "RssAnon"),
                "counted": in_ram(*counted_mib(daemon.url), 0.0 if store.exists() else held / MiB),
                "budget": budget,
                "made": f"{written} MiB written, {taken} snapshots",
                "store": (store.stat().st_size / MiB - store_start) if store.exists() else None,
                "refused": refused[:160],
            }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--actors", type=int, default=3, help="hoarders filling the device (default 3)")
    parser.add_argument("--canisters", type=int, default=3)
    parser.add_argument("--snapshots", type=int, default=10)
    parser.add_argument("--mib", type=int, default=64)
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f}; MiB")
    print(f"{'scenario':28}{'start':>7}{'peak':>7}{'after':>7}{'counted':>9}{'budget':>8}{'uncounted':>10}  made")

    def row(label: str, r: dict) -> None:
        over = r["peak"] - r["start"] - r["counted"]
        extra = f"; store +{r['store']:.0f}" if r.get("store") is not None else ""
        extra += f"; /console/state +{r['state']:.0f} KiB" if "state" in r else ""
        print(
            f"{label:28}{r['start']:7.0f}{r['peak']:7.0f}{r['after']:7.0f}{r['counted']:9.1f}{r['budget']:8.0f}"
            f"{over:10.0f}  {r['made']}{extra}"
        )

    for label, through_api in (("names, actor", False), ("names, /api", True)):
        rounds = names(through_api, args.actors, args.rounds)
        for n, r in enumerate(rounds):
            row(f"{label}, round {n}", r)
        row(f"{label}, median", {k: statistics.median(r[k] for r in rounds) for k in NUMBERS} | {"made": ""})
    # Under the total, memories of --mib MiB would leave the snapshots no room: a third of it each.
    small = args.mib // 3 + 2
    snapshot_runs = [
        ("snapshots, 256 total", ("--total-memory-mb", "256"), 2 * 256.0, small),
        ("snapshots, 256 total, -s", ("--total-memory-mb", "256", "-s", "state"), 2 * 256.0, small),
        ("snapshots, 256 total, full", ("--total-memory-mb", "256"), 2 * 256.0, args.mib),
        (
            "snapshots, 64+80 an actor",
            ("--actor-memory-mb", "64", "--actor-stable-mb", "80"),
            3.0 * args.canisters * (64 + 80),  # memories twice, snapshots once
            args.mib,
        ),
    ]
    for label, flags, budget, mib in snapshot_runs:
        r = snapshots(flags, budget, args.canisters, args.snapshots, mib)
        row(label, r)
        print(f"  refused: {r['refused']}")


if __name__ == "__main__":
    main()
