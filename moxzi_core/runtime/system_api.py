"""The ``ic0`` System API that compiled Motoko actors import, and where each call may be made from.

``WHERE`` is the IC interface spec's availability table for the calls moxzi provides: a call made from
an entry point not listed for it traps, as it would on the IC. The functions themselves read and write
the running `Execution` (what this message may see and what it has produced so far); they never touch
host state directly, so a trapped message leaves nothing behind.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .instance import Instance

# Entry-point kinds, as the spec names them.
CONTEXT_NAMES = {
    "s": "the start function",
    "I": "canister_init / canister_post_upgrade",
    "G": "canister_pre_upgrade",
    "U": "an update method",
    "Q": "a query method",
    "Ry": "a reply callback",
    "Rt": "a reject callback",
    "C": "a cleanup callback",
    "T": "a system task (canister_global_timer)",
    "F": "canister_inspect_message",
}
_ANY = "I G U Q Ry Rt C T F"  # the spec's '*': everywhere except the start function

WHERE = {name: frozenset(where.replace("*", _ANY).split()) for name, where in {
    "msg_arg_data_size": "I U Q Ry F",
    "msg_arg_data_copy": "I U Q Ry F",
    "msg_caller_size": "*",
    "msg_caller_copy": "*",
    "msg_reject_code": "Ry Rt C",
    "msg_reject_msg_size": "Rt",
    "msg_reject_msg_copy": "Rt",
    "msg_reply_data_append": "U Q Ry Rt",
    "msg_reply": "U Q Ry Rt",
    "msg_reject": "U Q Ry Rt",
    "msg_cycles_refunded128": "Ry Rt",
    "msg_method_name_size": "F",
    "msg_method_name_copy": "F",
    "accept_message": "F",
    "call_new": "U Ry Rt T",
    "call_on_cleanup": "U Ry Rt T",
    "call_data_append": "U Ry Rt T",
    "call_with_best_effort_response": "U Ry Rt T",
    "call_cycles_add128": "U Ry Rt T",
    "call_perform": "U Ry Rt T",
    "canister_self_size": "*",
    "canister_self_copy": "*",
    "canister_status": "*",
    "is_controller": "* s",
    "stable64_size": "* s",
    "stable64_grow": "* s",
    "stable64_read": "* s",
    "stable64_write": "* s",
    "time": "*",
    "global_timer_set": "I G U Ry Rt C T",
    "performance_counter": "* s",
    "debug_print": "* s",
    "trap": "* s",
}.items()}

STABLE_PAGE = 64 * 1024
RUNNING = 1  # canister_status: the actor is always running while it executes


class ActorTrap(Exception):
    """The actor trapped: the message's effects are discarded and its caller gets this text."""


@dataclass
class OutgoingCall:
    """A call an actor assembles with call_new ... call_perform."""

    callee: bytes
    method: str
    reply: tuple[int, int]  # (table index, env)
    reject: tuple[int, int]
    cleanup: tuple[int, int] | None = None
    data: bytearray = field(default_factory=bytearray)


@dataclass
class Execution:
    """One entry-point invocation: what it may read, and what it produced.

    The host builds one per message, runs it, and applies ``response``, ``calls`` and ``timer`` only if
    the message did not trap."""

    context: str
    arg: bytes = b""
    caller: bytes = b""
    may_respond: bool = False  # the call context is open and this entry point may answer it
    reject_code: int = 0  # for callbacks: 0 = reply
    reject_message: str = ""
    method_name: str = ""  # for canister_inspect_message
    response: tuple[str, bytes] | None = None  # ("reply", data) or ("reject", utf-8 message)
    reply_data: bytearray = field(default_factory=bytearray)
    building: OutgoingCall | None = None
    calls: list[OutgoingCall] = field(default_factory=list)
    accepted: bool = False


class SystemApi:
    """The ``ic0`` functions for one actor instance; bound to the instance's memory and state."""

    def __init__(self, instance: Instance, log: Callable[[str], None]):
        self._instance = instance
        self._log = log
        self.execution: Execution | None = None  # None while the start function runs

    def function(self, name: str) -> Callable:
        """The host function for ``ic0.name``, trapping where the spec forbids the call."""
        impl = getattr(self, "_" + name, None)
        if impl is None or name not in WHERE:
            raise LookupError(name)
        allowed = WHERE[name]

        def guarded(*args):
            context = self.execution.context if self.execution else "s"
            if context not in allowed:
                raise ActorTrap(f"ic0.{name} cannot be called from {CONTEXT_NAMES[context]}")
            return impl(*args)

        return guarded

    # --- helpers ---------------------------------------------------------------------------
    @property
    def _ex(self) -> Execution:
        return self.execution

    def _copy_out(self, blob: bytes, dst: int, offset: int, size: int, what: str) -> None:
        if offset + size > len(blob):
            raise ActorTrap(f"{what}: reading bytes {offset}..{offset + size} of {len(blob)}")
        self._instance.write(dst, blob[offset:offset + size])

    def _respond(self, kind: str, data: bytes) -> None:
        if not self._ex.may_respond or self._ex.response is not None:
            raise ActorTrap("this call has already been answered, or cannot be answered here")
        self._ex.response = (kind, data)

    # --- message data ----------------------------------------------------------------------
    def _msg_arg_data_size(self):
        return len(self._ex.arg)

    def _msg_arg_data_copy(self, dst, offset, size):
        self._copy_out(self._ex.arg, dst, offset, size, "msg_arg_data_copy")

    def _msg_caller_size(self):
        return len(self._ex.caller)

    def _msg_caller_copy(self, dst, offset, size):
        self._copy_out(self._ex.caller, dst, offset, size, "msg_caller_copy")

    def _msg_reject_code(self):
        return self._ex.reject_code

    def _msg_reject_msg_size(self):
        return len(self._ex.reject_message.encode())

    def _msg_reject_msg_copy(self, dst, offset, size):
        self._copy_out(self._ex.reject_message.encode(), dst, offset, size, "msg_reject_msg_copy")

    def _msg_method_name_size(self):
        return len(self._ex.method_name.encode())

    def _msg_method_name_copy(self, dst, offset, size):
        self._copy_out(self._ex.method_name.encode(), dst, offset, size, "msg_method_name_copy")

    def _accept_message(self):
        if self._ex.accepted:
            raise ActorTrap("accept_message called twice")
        self._ex.accepted = True

    # --- responding ------------------------------------------------------------------------
    def _msg_reply_data_append(self, src, size):
        if not self._ex.may_respond or self._ex.response is not None:
            raise ActorTrap("msg_reply_data_append: this call cannot be answered here")
        self._ex.reply_data += self._instance.read(src, size)
        if len(self._ex.reply_data) > self._instance.limits.max_message_bytes:
            raise ActorTrap(f"reply larger than {self._instance.limits.max_message_bytes} bytes")

    def _msg_reply(self):
        self._respond("reply", bytes(self._ex.reply_data))

    def _msg_reject(self, src, size):
        self._respond("reject", self._instance.read(src, size))

    def _msg_cycles_refunded128(self, dst):
        self._instance.write(dst, bytes(16))  # cycles are not attached to calls

    # --- outgoing calls --------------------------------------------------------------------
    def _call_new(self, callee_src, callee_size, name_src, name_size,
                  reply_fun, reply_env, reject_fun, reject_env):
        if callee_size > 29:
            raise ActorTrap("call_new: a principal is at most 29 bytes")
        method = self._instance.read(name_src, name_size)
        try:
            method_name = method.decode()
        except UnicodeDecodeError:
            raise ActorTrap("call_new: the method name is not UTF-8") from None
        self._ex.building = OutgoingCall(self._instance.read(callee_src, callee_size), method_name,
                                         (reply_fun, reply_env), (reject_fun, reject_env))

    def _pending(self, what: str) -> OutgoingCall:
        if self._ex.building is None:
            raise ActorTrap(f"{what} without call_new")
        return self._ex.building

    def _call_on_cleanup(self, fun, env):
        call = self._pending("call_on_cleanup")
        if call.cleanup is not None:
            raise ActorTrap("call_on_cleanup called twice for one call")
        call.cleanup = (fun, env)

    def _call_data_append(self, src, size):
        call = self._pending("call_data_append")
        call.data += self._instance.read(src, size)
        if len(call.data) > self._instance.limits.max_message_bytes:
            raise ActorTrap(f"call argument larger than {self._instance.limits.max_message_bytes} bytes")

    def _call_with_best_effort_response(self, timeout_seconds):
        self._pending("call_with_best_effort_response")  # accepted; moxzid never drops responses

    def _call_cycles_add128(self, high, low):
        self._pending("call_cycles_add128")  # calls carry no cycles

    def _call_perform(self):
        self._ex.calls.append(self._pending("call_perform"))
        self._ex.building = None
        return 0

    # --- the actor itself ------------------------------------------------------------------
    def _canister_self_size(self):
        return len(self._instance.principal)

    def _canister_self_copy(self, dst, offset, size):
        self._copy_out(self._instance.principal, dst, offset, size, "canister_self_copy")

    def _canister_status(self):
        return RUNNING

    def _is_controller(self, src, size):
        self._instance.read(src, size)
        return 0  # moxzid's actors have no controllers: upgrades come from the operator

    # --- stable memory ---------------------------------------------------------------------
    def _stable64_size(self):
        return self._instance.stable.pages

    def _stable64_grow(self, new_pages):
        return self._instance.stable.grow(new_pages)

    def _stable64_read(self, dst, offset, size):
        self._instance.write(dst, self._instance.stable.read(offset, size))

    def _stable64_write(self, offset, src, size):
        self._instance.stable.write(offset, self._instance.read(src, size))

    # --- time, timers, counters, output ----------------------------------------------------
    def _time(self):
        return self._instance.now

    def _global_timer_set(self, timestamp):
        previous, self._instance.timer = self._instance.timer, timestamp
        return previous

    def _performance_counter(self, counter_type):
        return self._instance.instructions_used()

    def _debug_print(self, src, size):
        self._log(self._instance.read(src, size).decode("utf-8", "replace"))

    def _trap(self, src, size):
        raise ActorTrap(self._instance.read(src, size).decode("utf-8", "replace"))
