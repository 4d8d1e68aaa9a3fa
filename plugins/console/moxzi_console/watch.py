"""What the console remembers from moxzid's event stream: the log's tail, every actor's loss curve per
optimizer, and the counters ``/metrics`` reports. Everything it keeps is bounded."""

from __future__ import annotations

import asyncio
import bisect
from collections import defaultdict, deque
from dataclasses import dataclass, field

from moxzi_core.events import Events

LOG_LINES = 500
CURVE_POINTS = 4000  # per (actor, optimizer); past it, every other point is dropped and the stride doubles
# Upper bounds (seconds) of the message and checkpoint duration histograms.
BUCKETS = (0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1.0, 5.0, 30.0, 120.0)


@dataclass
class Curve:
    """One optimizer's training steps: (step, loss) points, every ``stride``-th step once it is long."""

    points: list[tuple[int, float]] = field(default_factory=list)
    stride: int = 1
    steps: int = 0
    seconds: float = 0.0  # device time of its steps

    def add(self, step: int, loss: float, seconds: float) -> bool:
        """Count a step; whether its point was kept."""
        self.steps += 1
        self.seconds += seconds
        if step % self.stride:
            return False
        self.points.append((step, loss))
        if len(self.points) > CURVE_POINTS:
            self.stride *= 2
            self.points = [p for p in self.points if p[0] % self.stride == 0]
        return True


@dataclass
class Histogram:
    counts: list[int] = field(default_factory=lambda: [0] * (len(BUCKETS) + 1))
    total: float = 0.0

    def observe(self, seconds: float) -> None:
        self.counts[bisect.bisect_left(BUCKETS, seconds)] += 1
        self.total += seconds


class Watch:
    """Follows ``events`` from its recent past on, between ``start()`` and ``stop()``. Read by the
    routes on the same event loop."""

    def __init__(self, events: Events):
        self.events = events
        self.log: deque[dict] = deque(maxlen=LOG_LINES)
        self.curves: dict[tuple[str, str], Curve] = {}
        self.messages: dict[tuple[str, str, bool], int] = defaultdict(int)  # (actor, method, query)
        self.latency: dict[str, Histogram] = defaultdict(Histogram)  # by actor
        self.traps: dict[str, int] = defaultdict(int)
        self.instructions: dict[str, int] = defaultdict(int)
        self.device: dict[tuple[str, str], list] = defaultdict(lambda: [0, 0.0, 0])  # calls, seconds, rejects
        self.checkpoints = Histogram()
        self.checkpoint_bytes = 0
        self.last_checkpoint: dict | None = None  # the latest device copy's seconds and bytes
        self._subscription = events.subscribe(buffer=100_000, replay=True)
        self._task: asyncio.Task | None = None

    @property
    def dropped(self) -> int:
        """Events this watch missed by falling behind."""
        return self._subscription.dropped

    def start(self) -> None:
        """Follow the events on the running loop (once, however often it is called)."""
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run())

    def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()

    async def _run(self) -> None:
        try:
            while True:
                for event in await self._subscription.next():
                    self.feed(event)
        finally:
            self._subscription.close()

    def feed(self, event: dict) -> None:
        kind = event["kind"]
        if kind == "log":
            self.log.append(event)
        elif kind == "message":
            self.messages[(event["actor"], event["method"], event["query"])] += 1
            self.latency[event["actor"]].observe(event["seconds"])
            self.instructions[event["actor"]] += event["instructions"]
            self.traps[event["actor"]] += event["trapped"]
        elif kind == "device":
            totals = self.device[(event["actor"], event["method"])]
            totals[0] += 1
            totals[1] += event["seconds"]
            totals[2] += not event["ok"]
        elif kind == "train":
            curve = self.curves.setdefault((event["actor"], event["optimizer"]), Curve())
            curve.add(event["step"], event["loss"], event["seconds"])
        elif kind == "checkpoint":
            self.checkpoints.observe(event["seconds"])
            self.checkpoint_bytes += event["bytes"]
            self.last_checkpoint = {"seconds": event["seconds"], "bytes": event["bytes"]}

    def curves_json(self) -> list[dict]:
        return [
            {"actor": actor, "optimizer": optimizer, "steps": c.steps, "stride": c.stride, "points": c.points}
            for (actor, optimizer), c in sorted(self.curves.items())
        ]
