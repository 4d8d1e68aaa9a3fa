"""What the console remembers from moxzid's event stream: the log's tail, every actor's loss curve per
optimizer, and the counters ``/metrics`` reports. Everything it keeps is bounded: by the live actors
(a deleted actor's counters and curves are dropped, ``prune``), and for each actor by the label values
its code may make up (at most METHODS_PER_ACTOR methods and OPTIMIZERS_PER_ACTOR optimizers, the rest
counted together under OTHER); log lines are cut at LOG_LINE_CHARS."""

from __future__ import annotations

import asyncio
import bisect
import time
from collections import defaultdict, deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from moxzi_core.events import Events

LOG_LINES = 500
LOG_LINE_CHARS = 2000  # a line's message past this is cut (an actor may print a megabyte at once)
CURVE_POINTS = 4000  # per (actor, optimizer); past it, every other point is dropped and the stride doubles
HISTORY_POINTS = 500  # per curve in curves_json (the page's first view): every stride-th point past it
# Label values one actor's code makes up (its methods, its optimizers' names): past these, OTHER.
METHODS_PER_ACTOR = 64
OPTIMIZERS_PER_ACTOR = 8
OTHER = "(other)"
PRUNE_SECONDS = 10.0  # how often the watch drops the counters of actors deleted meanwhile
# How often the watch takes in the events published meanwhile (and every time a route reads it). Not
# at each event: waking the event loop for each would add two or three wake-ups to every device call.
FOLLOW_SECONDS = 0.2
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
    """Follows ``events`` from its recent past on, between ``start()`` and ``stop()``, keeping what
    concerns the actors ``live()`` names (all, without it). Read by the routes on the same event loop."""

    def __init__(self, events: Events, live: Callable[[], Iterable[str]] | None = None):
        self.events = events
        self._live = live
        self._pruned = time.monotonic()
        self._labels: dict[tuple[str, str], set[str]] = defaultdict(set)  # (actor, kind) -> values kept
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
                await asyncio.sleep(FOLLOW_SECONDS)
                self.catch_up()
                if self._live is not None and time.monotonic() - self._pruned > PRUNE_SECONDS:
                    self.prune(self._live())
        finally:
            self._subscription.close()

    def catch_up(self) -> None:
        """Take in the events published so far (the routes call it before they read the watch)."""
        for event in self._subscription.take():
            self.feed(event)

    def prune(self, actors: Iterable[str]) -> None:
        """Drop what concerns actors not in ``actors`` (deleted ones)."""
        live = set(actors)
        self._pruned = time.monotonic()
        tables: tuple[dict, ...] = (self.messages, self.device, self.curves, self._labels)
        for table in tables:  # keyed by (actor, ...)
            for key in [k for k in table if k[0] not in live]:
                del table[key]
        by_actor: tuple[dict, ...] = (self.latency, self.traps, self.instructions)
        for table in by_actor:
            for actor in [a for a in table if a not in live]:
                del table[actor]

    def _label(self, actor: str, kind: str, value: str, most: int) -> str:
        """``value`` as a label of ``actor``'s, or OTHER once it has ``most`` others of this kind."""
        kept = self._labels[(actor, kind)]
        if value in kept:
            return value
        if len(kept) >= most:
            return OTHER
        kept.add(value)
        return value

    def feed(self, event: dict) -> None:
        kind = event["kind"]
        if kind == "log":
            message = event.get("message")
            if isinstance(message, str) and len(message) > LOG_LINE_CHARS:
                event = {**event, "message": message[:LOG_LINE_CHARS] + f"… ({len(message)} characters)"}
            self.log.append(event)
        elif kind == "message":
            method = self._label(event["actor"], "method", event["method"], METHODS_PER_ACTOR)
            self.messages[(event["actor"], method, event["query"])] += 1
            self.latency[event["actor"]].observe(event["seconds"])
            self.instructions[event["actor"]] += event["instructions"]
            self.traps[event["actor"]] += event["trapped"]
        elif kind == "device":
            totals = self.device[
                (event["actor"], self._label(event["actor"], "method", event["method"], METHODS_PER_ACTOR))
            ]
            totals[0] += 1
            totals[1] += event["seconds"]
            totals[2] += not event["ok"]
        elif kind == "train":
            optimizer = self._label(event["actor"], "optimizer", event["optimizer"], OPTIMIZERS_PER_ACTOR)
            curve = self.curves.setdefault((event["actor"], optimizer), Curve())
            curve.add(event["step"], event["loss"], event["seconds"])
        elif kind == "checkpoint":
            self.checkpoints.observe(event["seconds"])
            self.checkpoint_bytes += event["bytes"]
            self.last_checkpoint = {"seconds": event["seconds"], "bytes": event["bytes"]}

    def curves_json(self) -> list[dict]:
        """Each curve with at most HISTORY_POINTS points (every ``stride``-th step's)."""
        out = []
        for (actor, optimizer), c in sorted(self.curves.items()):
            stride, points = c.stride, c.points
            while len(points) > HISTORY_POINTS:
                stride *= 2
                points = [p for p in points if p[0] % stride == 0]
            out.append({"actor": actor, "optimizer": optimizer, "steps": c.steps, "stride": stride, "points": points})
        return out
