"""What start-up (`restore`) has still to bring back, for the answers gateways give meanwhile."""

from __future__ import annotations

import threading

from .. import errors

RETRY_AFTER_SECONDS = 1  # what a 503 during start-up asks a client to wait: about one actor's share


class Restoration:
    """What start-up has still to bring back: the actors by name and principal, and the device's state.
    Updated from the restoring threads, read by the gateways' requests on the event loop."""

    def __init__(self, actors: dict[str, bytes], device: bool):
        self._lock = threading.Lock()
        self._pending = dict(actors)  # name -> principal: not restored yet
        self._total = len(actors)
        self._device = device  # the device's state is not rebuilt yet
        self.done = False  # every actor is back and started, and the device too

    def restored(self, name: str) -> None:
        with self._lock:
            self._pending.pop(name, None)

    def device_restored(self) -> None:
        self._device = False

    def pending(self, name: str) -> bool:
        return not self.done and name in self._pending

    def pending_principal(self, principal: bytes) -> bool:
        with self._lock:
            return not self.done and principal in self._pending.values()

    def describe(self) -> str:
        """What start-up restores now: ``restoring 3 of 6 actors and the device's state``."""
        with self._lock:
            left = len(self._pending)
        what = [f"{left} of {self._total} actors"] if left else []
        what += ["the device's state"] if self._device else []
        return f"restoring {' and '.join(what)}" if what else "starting the actors"

    def refusal(self, what: str | None = None) -> errors.Restoring:
        """The error for a request that must wait for start-up; ``what`` names what it asked for."""
        waits = "" if what is None else f"; {what} answers once it is back"
        progress = self.describe()
        return errors.Restoring(
            f"moxzid is starting: {progress}{waits}; retry in {RETRY_AFTER_SECONDS} s", RETRY_AFTER_SECONDS, progress
        )
