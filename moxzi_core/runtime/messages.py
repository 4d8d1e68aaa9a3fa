"""What travels between callers and actors: the reject codes, the principals every caller knows, the
answer to a call (`Outcome`) and the messages an actor's inbox holds.

Everything that answers a call (the host, the actors, the system methods plugins provide, the gateways)
speaks in these, and none of it needs the rest of the runtime to do so. This module is public: plugins
build and read outcomes with it.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import IntEnum

from ..candid import Principal

ANONYMOUS = b"\x04"  # the anonymous principal: a caller outside who signs nothing
MANAGEMENT = b""  # the management canister aaaaa-aa (its principal is empty)


class Reject(IntEnum):
    """The IC's reject codes (an `Outcome`'s ``reject_code`` is one, as a plain int)."""

    SYS_FATAL = 1
    SYS_TRANSIENT = 2  # nothing ran: a retry may succeed
    DESTINATION_INVALID = 3
    CANISTER_REJECT = 4  # the canister rejected the call (ic0.msg_reject, or a system method's refusal)
    CANISTER_ERROR = 5  # the canister trapped, or did not answer
    SYS_UNKNOWN = 6  # a bounded-wait call's deadline passed first: the callee may or may not have run it

    @property
    def error_code(self) -> str:
        """The IC's error code clients print beside a reject of this code (the IC has one per cause; these
        are the causes moxzid rejects with most: a system failure, a full queue, no such canister, an
        explicit reject, a trap)."""
        return _ERROR_CODES[self]

    @classmethod
    def error_code_of(cls, code: int) -> str:
        """The error code for an outcome's ``reject_code``; IC0500 (a canister's error) for a code the
        IC does not define."""
        return cls(code).error_code if code in _ERROR_CODES else "IC0500"


_ERROR_CODES = {
    Reject.SYS_FATAL: "IC0101",
    Reject.SYS_TRANSIENT: "IC0201",
    Reject.DESTINATION_INVALID: "IC0301",
    Reject.CANISTER_REJECT: "IC0406",
    Reject.CANISTER_ERROR: "IC0503",
    Reject.SYS_UNKNOWN: "IC0212",
}


@dataclass(frozen=True)
class Outcome:
    """The answer to a call: ``reply`` (Candid bytes), or None with a reject code and message."""

    reply: bytes | None
    reject_code: int = 0
    reject_message: str = ""
    # Set by a system method whose call changed the system's state (the device's): the host records
    # such calls and re-runs them, in order, at start-up, before any actor runs.
    changed: bool = False
    seconds: float = 0.0  # the system time the call took (what device time is billed by)
    refund: int = 0  # cycles the answer gives back to a calling actor (what the callee did not accept)

    @classmethod
    def reject(cls, code: Reject, message: str, refund: int = 0) -> Outcome:
        return cls(None, int(code), message, refund=refund)

    @classmethod
    def no_route(cls, callee: bytes, refund: int = 0) -> Outcome:
        """The reject of a call to a principal that is no canister here, in the IC's words."""
        return cls.reject(Reject.DESTINATION_INVALID, f"No route to canister {Principal(callee)}", refund)

    @classmethod
    def answering(cls, response: tuple[str, bytes] | None) -> Outcome | None:
        """The outcome an entry point's answer (``Execution.response``) gives its caller; None if it
        gave none."""
        if response is None:
            return None
        kind, data = response
        if kind == "reply":
            return cls(data)
        return cls.reject(Reject.CANISTER_REJECT, data.decode("utf-8", "replace"))


@dataclass(frozen=True)
class FromOutside:
    """A client's call over HTTP: its answer goes to the request waiting under ``request``. A keyed call
    (`replays`) also names its ``key`` and its argument's ``fingerprint``: its outcome is kept for
    retries."""

    request: str
    key: bytes | None = None
    fingerprint: bytes = b""


@dataclass(frozen=True)
class FromActor:
    """An actor's call: its answer goes to ``actor``'s ``callback``. A call to the management canister may
    carry ``cycles``: they go back with the answer (`response_to`) unless the method took them
    (create_canister, deposit_cycles)."""

    actor: str
    callback: int
    cycles: int = 0


@dataclass(frozen=True)
class FromSystem:
    """The actor's own timer, heartbeat or hook: nobody waits for its answer."""


# Who waits for a call's answer.
Origin = FromOutside | FromActor | FromSystem


def origin_record(origin: Origin) -> list:
    """``origin`` as the journal keeps it: ["ingress", request(, key, fingerprint)], ["actor", name,
    callback(, cycles)] or ["system"]."""
    if isinstance(origin, FromOutside):
        return ["ingress", origin.request] + ([origin.key, origin.fingerprint] if origin.key is not None else [])
    if isinstance(origin, FromActor):
        return ["actor", origin.actor, origin.callback] + ([origin.cycles] if origin.cycles else [])
    return ["system"]


def origin_of(record: list) -> Origin:
    """What ``origin_record`` wrote, as an origin again."""
    kind, *fields = record
    if kind == "ingress":
        return FromOutside(*fields)
    if kind == "actor":
        return FromActor(*fields)
    if kind == "system":
        return FromSystem()
    raise ValueError(f"unknown origin kind {kind!r}")


@dataclass
class Call:
    """An incoming update call (recorded in the actor's inbox before it runs)."""

    method: str
    arg: bytes
    caller: bytes
    origin: Origin
    deadline: int = 0  # ns: when a bounded-wait caller may stop waiting (ic0.msg_deadline); 0: unbounded
    cycles: int = 0  # attached by the calling actor (ic0.call_cycles_add128), taken from its balance


@dataclass
class Response:
    """The outcome of a call this actor made, for the callback it registered."""

    callback: int
    outcome: Outcome


@dataclass
class Upgrade:
    module: bytes  # sha256 of the new wasm, kept in the store
    origin: Origin


@dataclass
class Manage:
    """A management-canister call that acts on this actor (a row of ``management.METHODS`` that runs on
    the target), from ``caller``. ``detail`` is what the host decoded of its argument: for install_code
    the mode, the module's sha256 (kept in the store), the init argument and the wasm-memory persistence
    option; for update_settings the settings it changes."""

    op: str
    detail: dict
    caller: bytes
    origin: Origin
    size: int = 0  # the bytes it brought from outside (`from_outside`); 0 in inboxes written before it


def from_outside(message) -> int | None:
    """The bytes a call from outside (a client's update call, or its management call acting on the
    actor) holds in the inbox, counted against ``--max-queued-mb`` (`inbox_bounds`): an update call's
    argument; a management call's argument and any module put together for it (``Manage.size``).
    None for any other message (from an actor, a response, an operator's upgrade)."""
    if isinstance(message, Call) and isinstance(message.origin, FromOutside):
        return len(message.arg)
    if isinstance(message, Manage) and isinstance(message.origin, FromOutside):
        return message.size
    return None


def to_record(message) -> list:
    """A message as plain data for the journal."""
    if isinstance(message, Call):
        m = message
        return ["call", m.method, m.arg, m.caller, origin_record(m.origin), m.deadline, m.cycles]
    if isinstance(message, Response):
        o = message.outcome
        return ["response", message.callback, o.reply, o.reject_code, o.reject_message, o.refund]
    if isinstance(message, Manage):
        return ["manage", message.op, message.detail, message.caller, origin_record(message.origin), message.size]
    return ["upgrade", message.module, origin_record(message.origin)]


def from_record(record: list):
    kind, *fields = record
    if kind == "call":
        method, arg, caller, origin, *rest = fields
        return Call(method, arg, caller, origin_of(origin), *rest)
    if kind == "response":
        callback, reply, code, text, refund = fields
        return Response(callback, Outcome(reply, code, text, refund=refund))
    if kind == "upgrade":
        module, origin = fields
        return Upgrade(module, origin_of(origin))
    if kind == "manage":
        op, detail, caller, origin, *rest = fields
        return Manage(op, detail, caller, origin_of(origin), *rest)
    raise ValueError(f"unknown message kind {kind!r}")


def response_to(origin: FromActor, outcome: Outcome) -> Response:
    """The Response that answers an actor's ``origin``: the cycles the origin carries come back with it."""
    refund = outcome.refund + origin.cycles
    return Response(origin.callback, replace(outcome, refund=refund) if refund != outcome.refund else outcome)
