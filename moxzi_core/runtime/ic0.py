"""The ``ic0`` System API that compiled Motoko actors import, and where each call may be made from.

``WHERE`` is the IC interface spec's availability table (for 64-bit and 32-bit memories alike: moc
imports the 128-bit cycle calls and ``stable64_*`` in both modes): a call made from an entry point not
listed for it traps, as it would on the IC. Every function moc can import is here, so a module is never
refused for importing one it does not call; the stable memory's (callable everywhere) run in wasm
instead (`engine.stable`). The functions themselves read and write the running
`Execution` (what this message may see and what it has produced so far); they never touch host state
directly, so a trapped message leaves nothing behind but its lines in the canister's log (``debug_print``,
as on the IC: `canister_log`). The cycle calls too: an Execution starts with the
actor's balance in the ledger and what the call offers, and what it accepts, attaches to calls and
burns reaches the ledger only when the actor settles the completed message.

A non-replicated query has a data certificate (``data_certificate_*``) when a plugin certifies
(``Host.certifier``: the ic plugin signs it with moxzid's root key); elsewhere, or without one, there
is none, as on the IC in update calls. What moxzid has no counterpart for answers as the IC does when the
thing is absent: no environment variables, no caller info, no threshold
keys (the ``cost_sign_*`` calls answer 2, "unknown key"); the ``cost_*`` calls give what moxzid charges
for the work, which is nothing (it charges device time and, if priced, instructions).
"""

from __future__ import annotations

import hashlib
import time
import weakref
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Protocol

from ..billing import MAX_BALANCE
from .canister import STATUS_CODES, Canister
from .canister_log import NOT_LOGGED, TRAP_PREFIX
from .messages import Reject
from .traps import ActorTrap

# Entry-point kinds, as the spec names them.
CONTEXT_NAMES = {
    "s": "the start function",
    "I": "canister_init / canister_post_upgrade",
    "G": "canister_pre_upgrade",
    "U": "an update method",
    "RQ": "a query method run as an update (replicated)",
    "NRQ": "a query method",
    "CQ": "a composite query method",
    "Ry": "a reply callback",
    "Rt": "a reject callback",
    "CRy": "a reply callback in a composite query",
    "CRt": "a reject callback in a composite query",
    "C": "a cleanup callback",
    "CC": "a cleanup callback in a composite query",
    "T": "a system task (canister_heartbeat, canister_global_timer)",
    "F": "canister_inspect_message",
}
_ANY = "I G U RQ NRQ CQ Ry Rt CRy CRt C CC F T"  # the spec's '*': everywhere except the start function

WHERE = {
    name: frozenset(where.replace("*", _ANY).split())
    for name, where in {
        "msg_arg_data_size": "I U RQ NRQ CQ Ry CRy F",
        "msg_arg_data_copy": "I U RQ NRQ CQ Ry CRy F",
        "msg_caller_size": "*",
        "msg_caller_copy": "*",
        "msg_caller_info_data_size": "U RQ NRQ CQ Ry Rt CRy CRt C CC F",
        "msg_caller_info_data_copy": "U RQ NRQ CQ Ry Rt CRy CRt C CC F",
        "msg_caller_info_signer_size": "U RQ NRQ CQ Ry Rt CRy CRt C CC F",
        "msg_caller_info_signer_copy": "U RQ NRQ CQ Ry Rt CRy CRt C CC F",
        "msg_reject_code": "Ry Rt CRy CRt C",
        "msg_reject_msg_size": "Rt CRt",
        "msg_reject_msg_copy": "Rt CRt",
        "msg_deadline": "U RQ NRQ CQ Ry Rt CRy CRt",
        "msg_reply_data_append": "U RQ NRQ CQ Ry Rt CRy CRt",
        "msg_reply": "U RQ NRQ CQ Ry Rt CRy CRt",
        "msg_reject": "U RQ NRQ CQ Ry Rt CRy CRt",
        "msg_cycles_available128": "U RQ Rt Ry",
        "msg_cycles_refunded128": "Rt Ry",
        "msg_cycles_accept128": "U RQ Rt Ry",
        "cycles_burn128": "I G U RQ Ry Rt C T",
        "canister_self_size": "*",
        "canister_self_copy": "*",
        "canister_cycle_balance128": "*",
        "canister_liquid_cycle_balance128": "*",
        "canister_status": "*",
        "canister_version": "*",
        "subnet_self_size": "*",
        "subnet_self_copy": "*",
        "msg_method_name_size": "F",
        "msg_method_name_copy": "F",
        "accept_message": "F",
        "call_new": "U CQ Ry Rt CRy CRt T",
        "call_on_cleanup": "U CQ Ry Rt CRy CRt T",
        "call_data_append": "U CQ Ry Rt CRy CRt T",
        "call_with_best_effort_response": "U CQ Ry Rt CRy CRt T",
        "call_cycles_add128": "U Ry Rt T",
        "call_perform": "U CQ Ry Rt CRy CRt T",
        "stable64_size": "* s",
        "stable64_grow": "* s",
        "stable64_write": "* s",
        "stable64_read": "* s",
        "root_key_size": "I G U RQ Ry Rt C T",
        "root_key_copy": "I G U RQ Ry Rt C T",
        "certified_data_set": "I G U Ry Rt T",
        "data_certificate_present": "*",
        "data_certificate_size": "NRQ CQ",
        "data_certificate_copy": "NRQ CQ",
        "time": "*",
        "global_timer_set": "I G U Ry Rt C T",
        "performance_counter": "* s",
        "is_controller": "* s",
        "in_replicated_execution": "* s",
        "cost_call": "* s",
        "cost_create_canister": "* s",
        "cost_http_request": "* s",
        "cost_sign_with_ecdsa": "* s",
        "cost_sign_with_schnorr": "* s",
        "cost_vetkd_derive_key": "* s",
        "env_var_count": "*",
        "env_var_name_size": "*",
        "env_var_name_copy": "*",
        "env_var_name_exists": "*",
        "env_var_value_size": "*",
        "env_var_value_copy": "*",
        "debug_print": "* s",
        "trap": "* s",
    }.items()
}

NON_REPLICATED = frozenset({"NRQ", "CQ", "CRy", "CRt", "CC"})  # in_replicated_execution answers 0
STABLE_PAGE = 64 * 1024
MAX_PRINCIPAL = 29  # bytes
MAX_CERTIFIED_DATA = 32  # bytes
# The subnet every actor of this host is on (ic0.subnet_self): shaped as an IC subnet id (a
# self-authenticating principal, suffix 0x02).
SUBNET = hashlib.sha256(b"moxzi subnet").digest()[:28] + b"\x02"
UNKNOWN_KEY = 2  # cost_sign_with_*: "the key name is not known"
# The IC's queue between two canisters holds this many requests: a call to a callee with that many
# answers outstanding fails at call_perform with SYS_TRANSIENT (Motoko throws; nothing is sent).
QUEUE_CAPACITY = 500


def _u128(high: int, low: int) -> int:
    return ((high & 0xFFFFFFFFFFFFFFFF) << 64) | (low & 0xFFFFFFFFFFFFFFFF)


@dataclass
class OutgoingCall:
    """A call an actor assembles with call_new ... call_perform."""

    callee: bytes
    method: str
    reply: tuple[int, int]  # (table index, env)
    reject: tuple[int, int]
    cleanup: tuple[int, int] | None = None
    data: bytearray = field(default_factory=bytearray)
    cycles: int = 0  # attached with call_cycles_add128 (taken from the caller's balance)
    # For a bounded-wait call (call_with_best_effort_response): when it expires, ns as ic0.time counts
    deadline: int | None = None


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
    deadline: int = 0  # msg_deadline: ns, for a bounded-wait call; 0 otherwise
    # Cycles: what the call context still offers (0 once an earlier entry point answered it), what the
    # response being handled refunded, the actor's balance as the entry point began, what it accepted
    # and burned so far.
    cycles_available: int = 0
    cycles_refunded: int = 0
    balance: int = 0
    cycles_accepted: int = 0
    cycles_burned: int = 0
    certified_data: bytes | None = None  # set by certified_data_set (None: unchanged)
    # Makes the certificate of the actor's certified data, where ic0.data_certificate_* has one (a
    # non-replicated query on a host with a certifier); called at most once, on first use.
    data_certificate: Callable[[], bytes] | None = None
    # Calls in flight from this actor before the message, by callee (its callbacks), for the queue limit.
    in_flight: Mapping[bytes, int] = field(default_factory=dict)

    @property
    def cycles_sent(self) -> int:
        """Cycles on the calls this entry point made (they leave the balance when it completes)."""
        return sum(call.cycles for call in self.calls)

    @property
    def cycle_balance(self) -> int:
        """The balance as the entry point sees it now: a call being built holds its cycles already."""
        held = self.building.cycles if self.building is not None else 0
        return self.balance + self.cycles_accepted - self.cycles_burned - self.cycles_sent - held

    @property
    def balance_change(self) -> int:
        """What the entry point, if it completes, does to the actor's balance (a call built but not
        performed gives its cycles back)."""
        return self.cycles_accepted - self.cycles_burned - self.cycles_sent


class _MessageLimits(Protocol):
    @property
    def max_message_bytes(self) -> int: ...


class Running(Protocol):
    """What the ``ic0`` functions use of the instance they run in (`instance.Instance`)."""

    principal: bytes
    canister: Canister
    now: int  # this message's time, ns
    timer: int  # the global timer's deadline, ns; 0 = inactive

    @property
    def limits(self) -> _MessageLimits: ...

    def read(self, start: int, size: int) -> bytes: ...

    def write(self, start: int, data: bytes) -> None: ...

    def instructions_used(self) -> int: ...


class SystemApi:
    """The ``ic0`` functions for one actor instance; bound to the instance's memory and state."""

    def __init__(self, instance: Running, log: Callable[[str], None]):
        self._instance = instance
        self._log = log
        self.execution: Execution | None = None  # None while the start function runs
        self._made_certificate: tuple[Execution, bytes] | None = None  # the last execution's certificate

    def function(self, name: str) -> Callable:
        """The host function for ``ic0.name``, trapping where the spec forbids the call."""
        if name not in _FUNCTIONS:
            raise LookupError(name)
        allowed, impl = WHERE[name], _FUNCTIONS[name]
        # wasmtime keeps host functions (`engine.calls`: their ctypes callbacks) until their store is
        # dropped, and the store goes with its instance: a strong reference back to this API (so to the instance and
        # its store) would keep every instance ever made, a deleted actor's memories included. It
        # runs only while its instance runs code, so the API is there whenever it is called.
        owner = weakref.ref(self)

        def guarded(*args):
            api = owner()
            assert api is not None, "called while its instance runs"
            context = api.execution.context if api.execution else "s"
            if context not in allowed:
                raise ActorTrap(f"ic0.{name} cannot be called from {CONTEXT_NAMES[context]}")
            return impl(api, *args)

        return guarded

    # --- helpers ---------------------------------------------------------------------------
    @property
    def _ex(self) -> Execution:
        assert self.execution is not None, "WHERE keeps the start function from the calls that use it"
        return self.execution

    def _copy_out(self, blob: bytes, dst: int, offset: int, size: int, what: str) -> None:
        if offset + size > len(blob):
            raise ActorTrap(f"{what}: reading bytes {offset}..{offset + size} of {len(blob)}")
        self._instance.write(dst, blob[offset : offset + size])

    def _respond(self, kind: str, data: bytes) -> None:
        if not self._ex.may_respond or self._ex.response is not None:
            raise ActorTrap("this call has already been answered, or cannot be answered here")
        # What the caller offered stays on offer until the entry point ends (the IC's replicas, as drun
        # shows: Motoko replies to a one-way call first, then runs its body); what is left then goes
        # back with the answer.
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

    def _msg_deadline(self):
        return self._ex.deadline

    def _msg_caller_info_data_size(self):
        return 0  # only a caller authenticated by a canister signature has caller info: none here

    def _msg_caller_info_data_copy(self, dst, offset, size):
        self._copy_out(b"", dst, offset, size, "msg_caller_info_data_copy")

    def _msg_caller_info_signer_size(self):
        return 0

    def _msg_caller_info_signer_copy(self, dst, offset, size):
        self._copy_out(b"", dst, offset, size, "msg_caller_info_signer_copy")

    # --- cycles ----------------------------------------------------------------------------
    def _write_u128(self, dst: int, amount: int) -> None:
        self._instance.write(dst, amount.to_bytes(16, "little"))

    def _msg_cycles_available128(self, dst):
        self._write_u128(dst, self._ex.cycles_available)

    def _msg_cycles_refunded128(self, dst):
        self._write_u128(dst, self._ex.cycles_refunded)

    def _msg_cycles_accept128(self, high, low, dst):
        # At most what is on offer, and never past the most a balance may hold (as the IC).
        room = max(MAX_BALANCE - max(self._ex.cycle_balance, 0), 0)
        amount = min(_u128(high, low), self._ex.cycles_available, room)
        self._ex.cycles_available -= amount
        self._ex.cycles_accepted += amount
        self._write_u128(dst, amount)

    def _cycles_burn128(self, high, low, dst):
        amount = min(_u128(high, low), max(self._ex.cycle_balance, 0))
        self._ex.cycles_burned += amount
        self._write_u128(dst, amount)

    def _canister_cycle_balance128(self, dst):
        self._write_u128(dst, max(self._ex.cycle_balance, 0))

    def _canister_liquid_cycle_balance128(self, dst):
        self._write_u128(dst, max(self._ex.cycle_balance, 0))  # nothing is reserved or frozen here

    def _call_cycles_add128(self, high, low):
        call = self._pending("call_cycles_add128")
        amount = _u128(high, low)
        if amount > self._ex.cycle_balance:
            raise ActorTrap(
                f"call_cycles_add128: adding {amount} cycles, but the balance is {max(self._ex.cycle_balance, 0)}"
            )
        call.cycles += amount

    def _cost_call(self, method_name_size, payload_size, dst):
        self._write_u128(dst, 0)

    def _cost_create_canister(self, dst):
        self._write_u128(dst, 0)

    def _cost_http_request(self, request_size, max_res_bytes, dst):
        self._write_u128(dst, 0)

    def _cost_sign_with_ecdsa(self, src, size, curve, dst):
        self._instance.read(src, size)
        return UNKNOWN_KEY

    def _cost_sign_with_schnorr(self, src, size, algorithm, dst):
        self._instance.read(src, size)
        return UNKNOWN_KEY

    def _cost_vetkd_derive_key(self, src, size, curve, dst):
        self._instance.read(src, size)
        return UNKNOWN_KEY

    # --- outgoing calls --------------------------------------------------------------------
    def _call_new(self, callee_src, callee_size, name_src, name_size, reply_fun, reply_env, reject_fun, reject_env):
        if callee_size > MAX_PRINCIPAL:
            raise ActorTrap(f"call_new: a principal is at most {MAX_PRINCIPAL} bytes")
        method = self._instance.read(name_src, name_size)
        try:
            method_name = method.decode()
        except UnicodeDecodeError:
            raise ActorTrap("call_new: the method name is not UTF-8") from None
        self._ex.building = OutgoingCall(
            self._instance.read(callee_src, callee_size), method_name, (reply_fun, reply_env), (reject_fun, reject_env)
        )

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
        call = self._pending("call_with_best_effort_response")
        if call.deadline is not None:
            raise ActorTrap("call_with_best_effort_response called twice for one call")
        # past it the caller hears SYS_UNKNOWN (`delivery`), restarts or not
        call.deadline = self._instance.now + (timeout_seconds & 0xFFFFFFFF) * 10**9

    def _call_perform(self):
        call = self._pending("call_perform")
        self._ex.building = None
        queued = self._ex.in_flight.get(call.callee, 0) + sum(c.callee == call.callee for c in self._ex.calls)
        if queued >= QUEUE_CAPACITY:  # as the IC: the call is not made, its cycles stay, the caller hears why
            return int(Reject.SYS_TRANSIENT)
        self._ex.calls.append(call)
        return 0

    # --- the actor itself ------------------------------------------------------------------
    def _canister_self_size(self):
        return len(self._instance.principal)

    def _canister_self_copy(self, dst, offset, size):
        self._copy_out(self._instance.principal, dst, offset, size, "canister_self_copy")

    def _canister_status(self):
        return STATUS_CODES[self._instance.canister.status]

    def _canister_version(self):
        return self._instance.canister.version

    def _subnet_self_size(self):
        return len(SUBNET)

    def _subnet_self_copy(self, dst, offset, size):
        self._copy_out(SUBNET, dst, offset, size, "subnet_self_copy")

    def _in_replicated_execution(self):
        return int(self.execution is None or self._ex.context not in NON_REPLICATED)

    # --- certification, environment ---------------------------------------------------------
    def _root_key_size(self):
        return 0  # moxzid signs no certificates: there is no root key to verify them with

    def _root_key_copy(self, dst, offset, size):
        self._copy_out(b"", dst, offset, size, "root_key_copy")

    def _certified_data_set(self, src, size):
        if size > MAX_CERTIFIED_DATA:
            raise ActorTrap(f"certified_data_set: at most {MAX_CERTIFIED_DATA} bytes, got {size}")
        self._ex.certified_data = self._instance.read(src, size)

    def _data_certificate_present(self):
        return int(self.execution is not None and self._ex.data_certificate is not None)

    def _certificate(self, what: str) -> bytes:
        make = self._ex.data_certificate
        if make is None:
            raise ActorTrap(f"{what}: no data certificate is present (only non-replicated queries have one)")
        if self._made_certificate is None or self._made_certificate[0] is not self._ex:
            self._made_certificate = (self._ex, make())
        return self._made_certificate[1]

    def _data_certificate_size(self):
        return len(self._certificate("data_certificate_size"))

    def _data_certificate_copy(self, dst, offset, size):
        self._copy_out(self._certificate("data_certificate_copy"), dst, offset, size, "data_certificate_copy")

    # Environment variables: the canister's settings' (update_settings), in the order of their names, as
    # the IC keeps them.
    def _env_vars(self) -> list[tuple[bytes, bytes]]:
        pairs = self._instance.canister.settings["environment_variables"]
        return sorted((name.encode(), value.encode()) for name, value in pairs)

    def _env_var_name(self, index: int, what: str) -> bytes:
        variables = self._env_vars()
        if not 0 <= index < len(variables):
            raise ActorTrap(f"{what}: no environment variable {index} (there are {len(variables)})")
        return variables[index][0]

    def _env_var_value(self, src: int, size: int, what: str) -> bytes:
        name = self._instance.read(src, size)
        for known, value in self._env_vars():
            if known == name:
                return value
        raise ActorTrap(f"{what}: no environment variable {name.decode('utf-8', 'replace')!r}")

    def _env_var_count(self):
        return len(self._env_vars())

    def _env_var_name_size(self, index):
        return len(self._env_var_name(index, "env_var_name_size"))

    def _env_var_name_copy(self, index, dst, offset, size):
        self._copy_out(self._env_var_name(index, "env_var_name_copy"), dst, offset, size, "env_var_name_copy")

    def _env_var_name_exists(self, src, size):
        name = self._instance.read(src, size)
        return int(any(known == name for known, _ in self._env_vars()))

    def _env_var_value_size(self, src, size):
        return len(self._env_var_value(src, size, "env_var_value_size"))

    def _env_var_value_copy(self, src, size, dst, offset, copy_size):
        value = self._env_var_value(src, size, "env_var_value_copy")
        self._copy_out(value, dst, offset, copy_size, "env_var_value_copy")

    def _is_controller(self, src, size):
        if size > MAX_PRINCIPAL:
            raise ActorTrap(f"is_controller: a principal is at most {MAX_PRINCIPAL} bytes, got {size}")
        return int(self._instance.canister.is_controller(self._instance.read(src, size)))

    # --- time, timers, counters, output ----------------------------------------------------
    def _time(self):
        return self._instance.now

    def _global_timer_set(self, timestamp):
        previous, self._instance.timer = self._instance.timer, timestamp
        return previous

    def _performance_counter(self, counter_type):
        return self._instance.instructions_used()

    def _debug_print(self, src, size):
        content = self._instance.read(src, size)
        self._log(content.decode("utf-8", "replace"))
        self.keep_in_log(self.execution, content)

    def keep_in_log(self, execution: Execution | None, content: bytes) -> None:
        """Add ``content`` to the canister's log (`canister_log`) if ``execution`` (None: the start
        function) runs replicated, at its message's time."""
        if execution is not None and execution.context in NOT_LOGGED:
            return
        canister = self._instance.canister
        canister.log.add(self._instance.now or time.time_ns(), content, canister.settings["log_memory_limit"])

    def keep_trap_in_log(self, execution: Execution | None, trap: str) -> None:
        """Add the trap message ``trap`` to the canister's log, as the IC's ``[TRAP]:`` lines."""
        self.keep_in_log(execution, TRAP_PREFIX + trap.encode())

    def _trap(self, src, size):
        raise ActorTrap(self._instance.read(src, size).decode("utf-8", "replace"))


# The function of each ic0 name WHERE lists, bound once here: the SystemApi method named after it with
# a leading underscore; the stable memory's are wasm (`engine.stable`), linked before these are asked for.
_FUNCTIONS: dict[str, Callable] = {name: vars(SystemApi)["_" + name] for name in WHERE if "_" + name in vars(SystemApi)}
