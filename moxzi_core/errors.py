"""Errors the host raises to its callers (gateways, the CLI). Each names what was wrong."""


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


class Restoring(MoxziError):
    """moxzid is starting and what the request needs is not back yet (`runtime.restore`): retry after
    ``retry_after`` seconds (a gateway sends it as ``Retry-After``)."""

    status = 503

    def __init__(self, message: str, retry_after: int):
        super().__init__(message)
        self.retry_after = retry_after
