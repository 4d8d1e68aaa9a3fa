"""``GET /metrics``: what moxzid did, in the Prometheus text format (version 0.0.4).

Counters since moxzid started, from the event stream: ``moxzi_messages_total{actor,method,type}``
(type ``update`` or ``query``), ``moxzi_message_seconds`` (a histogram per actor: how long handling a
message took), ``moxzi_traps_total{actor}``, ``moxzi_instructions_total{actor}``,
``moxzi_device_calls_total{actor,method}``, ``moxzi_device_seconds_total{actor,method}`` (device time per
device method: ``moxzi_device_run``...), ``moxzi_device_rejects_total{actor,method}``,
``moxzi_device_op_calls_total{op}`` and ``moxzi_device_op_seconds_total{op}`` (the runs' forward passes
by op, ``Device.op_seconds``),
``moxzi_training_steps_total{actor,optimizer}``, ``moxzi_checkpoint_seconds`` (a histogram of device
copies), ``moxzi_checkpoint_bytes_total``, ``moxzi_events_dropped_total``. Gauges read when asked:
``moxzi_training_loss{actor,optimizer}`` (the latest step's), ``moxzi_actor_memory_bytes{actor,kind}``
(``heap``, ``stable``), ``moxzi_actor_queued_calls{actor}`` (calls from outside its inbox holds),
``moxzi_actor_queued_bytes{actor}`` (their bytes),
``moxzi_cycles_balance{actor}``, ``moxzi_cycles_spent{actor}``,
``moxzi_device_bytes{actor}`` (what its parameters, optimizers' state, stored tensors and publications
hold), ``moxzi_device_memory_bytes`` (all actors' together), ``moxzi_device_counted_bytes{actor}`` (what
counts against its device budget: optimizers' state at the most it can hold),
``moxzi_device_budget_bytes{scope}`` (``--device-actor-mb`` as ``actor``, ``--device-total-mb`` as ``total``), ``moxzi_device_exports{actor}`` (live
exports), ``moxzi_device_fetches{actor}`` (downloads in flight), ``moxzi_device_fetch_bytes{actor}``
(what those received so far), ``moxzi_store_bytes``.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from .watch import BUCKETS, Histogram, Watch

if TYPE_CHECKING:
    from moxzi_core.host_api import GatewayHost


def render(watch: Watch, host: GatewayHost) -> str:
    out: list[str] = []

    def family(name: str, kind: str, help_text: str, samples) -> None:
        out.append(f"# HELP {name} {help_text}")
        out.append(f"# TYPE {name} {kind}")
        for labels, value in samples:
            out.append(f"{name}{_labels(labels)} {_number(value)}")

    def histogram(name: str, help_text: str, by_labels: dict[tuple, Histogram], label_names: tuple) -> None:
        out.append(f"# HELP {name} {help_text}")
        out.append(f"# TYPE {name} histogram")
        for key, h in by_labels.items():
            labels = dict(zip(label_names, key))
            running = 0
            for bound, count in zip((*BUCKETS, float("inf")), h.counts):
                running += count
                le = "+Inf" if bound == float("inf") else repr(bound)
                out.append(f"{name}_bucket{_labels({**labels, 'le': le})} {running}")
            out.append(f"{name}_sum{_labels(labels)} {_number(h.total)}")
            out.append(f"{name}_count{_labels(labels)} {running}")

    actors = host.actor_names()
    family(
        "moxzi_messages_total",
        "counter",
        "Messages handled, by actor, method and type.",
        [
            ({"actor": a, "method": m, "type": "query" if q else "update"}, n)
            for (a, m, q), n in sorted(watch.messages.items())
        ],
    )
    histogram(
        "moxzi_message_seconds",
        "Time to handle one message.",
        {(a,): h for a, h in sorted(watch.latency.items())},
        ("actor",),
    )
    family(
        "moxzi_traps_total",
        "counter",
        "Messages whose code trapped.",
        [({"actor": a}, watch.traps.get(a, 0)) for a in actors],
    )
    family(
        "moxzi_instructions_total",
        "counter",
        "Wasm instructions run.",
        [({"actor": a}, watch.instructions.get(a, 0)) for a in actors],
    )
    device = sorted(watch.device.items())
    family(
        "moxzi_device_calls_total",
        "counter",
        "Device calls, by actor and method.",
        [({"actor": a, "method": m}, t[0]) for (a, m), t in device],
    )
    family(
        "moxzi_device_seconds_total",
        "counter",
        "Device time, by actor and method.",
        [({"actor": a, "method": m}, t[1]) for (a, m), t in device],
    )
    family(
        "moxzi_device_rejects_total",
        "counter",
        "Device calls rejected, by actor and method.",
        [({"actor": a, "method": m}, t[2]) for (a, m), t in device],
    )
    if host.system_state is not None:
        by_op = host.system_state.op_seconds()
        family(
            "moxzi_device_op_calls_total",
            "counter",
            "Op kernel calls in the runs' forward passes, by op.",
            [({"op": op}, calls) for op, (calls, _) in by_op.items()],
        )
        family(
            "moxzi_device_op_seconds_total",
            "counter",
            "Time in op kernel calls of the runs' forward passes.",
            [({"op": op}, seconds) for op, (_, seconds) in by_op.items()],
        )
    curves = sorted(watch.curves.items())
    family(
        "moxzi_training_steps_total",
        "counter",
        "Training steps, by actor and optimizer.",
        [({"actor": a, "optimizer": o}, c.steps) for (a, o), c in curves],
    )
    family(
        "moxzi_training_loss",
        "gauge",
        "The loss of the latest kept training step.",
        [({"actor": a, "optimizer": o}, c.points[-1][1]) for (a, o), c in curves if c.points],
    )
    histogram(
        "moxzi_checkpoint_seconds", "Time to copy the device's state into the store.", {(): watch.checkpoints}, ()
    )
    family("moxzi_checkpoint_bytes_total", "counter", "Bytes of device copies written.", [({}, watch.checkpoint_bytes)])
    family(
        "moxzi_actor_memory_bytes",
        "gauge",
        "Actor memory after its last message.",
        [
            ({"actor": a, "kind": kind}, size)
            for a in actors
            for kind, size in zip(("heap", "stable"), host.footprint(a))
        ],
    )
    family(
        "moxzi_actor_queued_calls",
        "gauge",
        "Calls from outside an actor's inbox holds, queued or running (at most --max-queued-calls).",
        [({"actor": a}, host.queued_calls(a)) for a in actors],
    )
    family(
        "moxzi_actor_queued_bytes",
        "gauge",
        "Bytes of the calls from outside an actor's inbox holds (bounded by --max-queued-mb).",
        [({"actor": a}, host.queued_bytes(a)) for a in actors],
    )
    if host.ledger is not None:
        family(
            "moxzi_cycles_balance",
            "gauge",
            "Cycles an actor holds.",
            [({"actor": a}, host.ledger.balance(a)) for a in actors],
        )
        family(
            "moxzi_cycles_spent",
            "gauge",
            "Cycles an actor has spent.",
            [({"actor": a}, host.ledger.spent(a)) for a in actors],
        )
    usage = device_usage(host)
    if usage is not None:
        family(
            "moxzi_device_bytes",
            "gauge",
            "Bytes an actor's device space holds.",
            [({"actor": a}, u["bytes"]) for a, u in sorted(usage.items())],
        )
        family(
            "moxzi_device_memory_bytes",
            "gauge",
            "Bytes the device holds for all actors.",
            [({}, sum(u["bytes"] for u in usage.values()))],
        )
        family(
            "moxzi_device_counted_bytes",
            "gauge",
            "Bytes counted against an actor's device budget.",
            [({"actor": a}, u["counted"]) for a, u in sorted(usage.items())],
        )
    if host.system_state is not None:
        budget = host.system_state.budget
        family(
            "moxzi_device_budget_bytes",
            "gauge",
            "Bytes the device's actors may hold: each one, and all together.",
            [({"scope": "actor"}, budget.actor_bytes), ({"scope": "total"}, budget.total_bytes)],
        )
    moving = device_transfers(host)
    if moving is not None:
        exports: Counter[str] = Counter()
        fetches: Counter[str] = Counter()
        received: Counter[str] = Counter()
        for e in moving["exports"]:
            exports[e["actor"]] += 1
        for f in moving["fetches"]:
            fetches[f["actor"]] += 1
            received[f["actor"]] += f["received"]
        for name, help_text, counts in (
            ("moxzi_device_exports", "Live exports, by actor.", exports),
            ("moxzi_device_fetches", "Fetches downloading, by actor.", fetches),
            ("moxzi_device_fetch_bytes", "Bytes the fetches in flight received so far, by actor.", received),
        ):
            family(name, "gauge", help_text, [({"actor": a}, n) for a, n in sorted(counts.items())])
    size = host.store.size_bytes()
    if size is not None:
        family("moxzi_store_bytes", "gauge", "Bytes the state store takes.", [({}, size)])
    family(
        "moxzi_events_dropped_total", "counter", "Events the console missed by falling behind.", [({}, watch.dropped)]
    )
    return "\n".join(out) + "\n"


def device_usage(host: GatewayHost) -> dict | None:
    """What each actor holds on the device (``Device.usage``), or None without a device."""
    return None if host.system_state is None else host.system_state.usage()


def device_transfers(host: GatewayHost) -> dict | None:
    """The device's live exports and fetches in flight (``Device.transfers``), or None without a device."""
    return None if host.system_state is None else host.system_state.transfers()


def _labels(labels: dict) -> str:
    if not labels:
        return ""
    escaped = (str(v).replace("\\", r"\\").replace("\n", r"\n").replace('"', r"\"") for v in labels.values())
    return "{" + ",".join(f'{k}="{v}"' for k, v in zip(labels, escaped)) + "}"


def _number(value) -> str:
    return repr(float(value)) if isinstance(value, float) else str(value)
