"""Errors the host raises to its callers (gateways, the CLI). Each names what was wrong, and for a name
that does not exist, the one meant where a known name is close (``did_you_mean``)."""

from __future__ import annotations

import difflib
from collections.abc import Iterable


class MoxziError(Exception):
    """Base of the errors a gateway turns into a client error; ``status`` is the fitting HTTP status."""

    status = 400


class UnknownActor(MoxziError):
    status = 404


class UnknownMethod(MoxziError):
    status = 404


class WrongMethodKind(MoxziError):
    """An update method was called as a query (a query method called as an update runs, as on the IC)."""

    status = 400


class MessageTooLarge(MoxziError):
    status = 413


class UpgradeRefused(MoxziError):
    """The new module cannot take over the actor's state; the actor keeps its old code and state."""

    status = 409


class KeyReused(MoxziError):
    """A call's idempotency key came again with another call (another actor, method or argument)."""

    status = 409


class NotAllowed(MoxziError):
    """The caller may not see what it asked for (an actor's log its log_visibility hides from it)."""

    status = 403


class ClockError(MoxziError):
    """A move the host's clock refuses: backward, or on the system clock (`runtime.clock`)."""

    status = 409


def did_you_mean(name: str, known: Iterable[str]) -> str:
    """``; did you mean 'train'?`` when one of ``known`` is close to ``name`` (a typo), else ``""``."""
    close = difflib.get_close_matches(name, list(known), n=1, cutoff=0.6)
    return f"; did you mean {close[0]!r}?" if close else ""


def no_method(actor: str, method: str, known: Iterable[str]) -> str:
    """What a call of a method ``actor`` does not have says: ``actor gpt has no method 'trian'; did you
    mean 'train'?``."""
    return f"actor {actor} has no method {method!r}{did_you_mean(method, known)}"


class Restoring(MoxziError):
    """moxzid is starting and what the request needs is not back yet (`runtime.restore`): retry after
    ``retry_after`` seconds (a gateway sends it as ``Retry-After``). ``progress`` is what start-up
    restores now, the message's part that says so (``restoring 3 of 6 actors``: the console shows it)."""

    status = 503

    def __init__(self, message: str, retry_after: int, progress: str):
        super().__init__(message)
        self.retry_after = retry_after
        self.progress = progress
