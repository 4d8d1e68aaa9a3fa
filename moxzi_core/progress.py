"""Training progress in moxzid's log: one line per actor and optimizer at most every EVERY_SECONDS while
it trains (step count, loss, ms per step), nothing while it does not. Fed by ``train`` events."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass

from .events import Events

log = logging.getLogger("moxzid.train")

EVERY_SECONDS = 5.0
# How often the logger takes in the events published meanwhile. Not woken for each: a training actor
# publishes three events per device call, and each wake-up is a thread switch on the call's path.
TAKE_SECONDS = 0.5


@dataclass
class _Since:
    """One (actor, optimizer)'s steps since its last line."""

    logged_at: float  # event time of the last line (or of the first step)
    step: int = 0
    loss: float = 0.0
    at: float = 0.0  # event time of the latest step
    steps: int = 0  # steps since the last line


class Progress:
    """Turns ``train`` events into progress lines; ``feed`` them in order, from one thread."""

    def __init__(self, every_seconds: float = EVERY_SECONDS):
        self.every_seconds = every_seconds
        self._by_optimizer: dict[tuple[str, str], _Since] = {}

    def feed(self, event: dict) -> None:
        if event["kind"] != "train":
            return
        key = (event["actor"], event["optimizer"])
        since = self._by_optimizer.get(key)
        if since is None:  # the first step: the clock starts here, its line comes after the next ones
            self._by_optimizer[key] = _Since(event["time"], event["step"], event["loss"], event["time"])
            return
        since.step, since.loss, since.at = event["step"], event["loss"], event["time"]
        since.steps += 1
        if since.at - since.logged_at >= self.every_seconds:
            log.info(
                "%s %s: step %d, loss %.4f, %.1f ms/step",
                key[0],
                key[1],
                since.step,
                since.loss,
                1000 * (since.at - since.logged_at) / since.steps,
            )
            since.logged_at, since.steps = since.at, 0


async def log_progress(events: Events, every_seconds: float = EVERY_SECONDS) -> None:
    """Log training progress until cancelled (lines lag the steps they report by up to TAKE_SECONDS;
    they report the events' times)."""
    progress = Progress(every_seconds)
    subscription = events.subscribe()
    try:
        while True:
            await asyncio.sleep(TAKE_SECONDS)
            for event in subscription.take():
                progress.feed(event)
    finally:
        subscription.close()
