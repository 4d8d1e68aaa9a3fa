"""Run a Motoko test written for `drun` (the IC's test runner the Motoko compiler's own suite uses)
through ``Host``, and print what drun prints, so its output can be compared with an expected file
line for line.

A drun test is one actor whose source names the calls to make in comments:

    //CALL ingress METHOD ARG      an update call; ARG is ``0x`` and hex, or a string ("DIDL\\x00\\x00")
    //CALL query METHOD ARG        a query
    //CALL upgrade                 reinstall the same module in upgrade mode (with no argument)

and the compiler flags it needs in others (``//MOC-FLAG --force-gc``): ``moc_flags`` reads them as
``moxzi_core.build.build``'s arguments.

The canister is set up as drun (the Motoko suite's test-runner, on PocketIC) sets it up: created
through the management canister by the ingress sender (the anonymous principal), controlled by that
sender and by itself, with 10^15 cycles, the module installed by the same
sender, and a data certificate for queries (signed with a fresh root key of the ic plugin). moxzid does
not charge in this setup: cycles move between canisters and the provisional methods may mint them, as
on a local replica.

What drun prints, and so ``run`` returns:

    ingress Completed: Reply: 0x<hex>        an update call's reply (creation and install too)
    ingress Err: IC05nn: <message>           an update call's reject (the IC's error text for traps)
    Ok: Reply: 0x<hex> / Err: ...            a query's
    debug.print: <text>                      every ic0.debug_print, in the order they ran

Each call's prints come before its own line, and a call's line is printed only once nothing is left
to run (no message in any inbox, no system call pending; ``settle_seconds`` at most), as drun finishes
a round before it reports.

With ``clock="manual"`` the host's clock moves as drun's (the Motoko suite's test-runner on PocketIC)
does: while an update call is unanswered, each round (``ROUND_SECONDS`` of real time here, as moxzid has
no rounds) is followed by a second of the clock, which runs the timers and heartbeats due
(`moxzi_core.runtime.clock`); the suite's timer tests need it.
Canister ids differ from drun's: the harness writes the canisters it saw created, in creation order,
as drun's (`drun_id`), in text and in Candid bytes alike.
"""

from __future__ import annotations

import asyncio
import logging
import re
import time
from dataclasses import dataclass
from pathlib import Path

from moxzi_gateway_ic.certificates import Identity, Keys

from moxzi_core.billing import DefaultPrices, Ledger
from moxzi_core.build import COLLECTORS
from moxzi_core.candid import Principal, Some, decode_args, encode_args
from moxzi_core.candid.types import resolve
from moxzi_core.runtime.engine import Limits
from moxzi_core.runtime.host import Host, HostConfig
from moxzi_core.runtime.management.ids import FIRST_CANISTER_NUMBER
from moxzi_core.runtime.management.interface import MANAGEMENT_NAME, SERVICE
from moxzi_core.runtime.messages import ANONYMOUS, Outcome, Reject
from moxzi_core.store import MemoryStore

CYCLES = 10**15  # what drun's canister holds
CALL_SECONDS = 60.0  # how long one call may take before the run gives up on it
# The custom section a module built with enhanced orthogonal persistence has.
ENHANCED_PERSISTENCE = b"icp:private enhanced-orthogonal-persistence"
# How long the run waits, after a call's answer, for what it set off to finish: a test may leave work
# running for good (a loop of self-calls whose caller stopped waiting), which drun runs beside the next
# calls.
SETTLE_SECONDS = 2.0
ROUND_SECONDS = 0.002  # the real time a round takes with the manual clock, before the clock moves a second
_CALL = re.compile(r"^//CALL (ingress|query) (\S+) (.*)$|^//CALL upgrade\b")
# moxzid's words for a trap, anywhere in a line (a caller that caught the reject may print it): a
# message's, or an install's (canister_init, canister_pre_upgrade, or the new code's start function or
# canister_post_upgrade in an upgrade) as install_code reports it
_TRAP = re.compile(
    r"(?:actor (\S+) trapped|install_code \(\w+\) of (\S+): "
    r"(?:canister_(?:init|pre_upgrade) trapped|the new code trapped while taking over the state)): (.*)",
    re.S,
)
# wasm traps (drun's IC0502), as wasmtime words them (after "wasm trap: ") and as the IC does
_WASM_TRAPS = {
    "integer divide by zero": "integer division by 0",
    "call stack exhausted": "stack overflow",
    "out of bounds memory access": "heap out of bounds",
    "wasm `unreachable` instruction executed": "unreachable",
}
_REMEDY = (
    "Consider gracefully handling failures from this canister or altering the canister to handle exceptions. "
    "See documentation: https://internetcomputer.org/docs/current/references/execution-errors#"
)


@dataclass(frozen=True)
class Step:
    kind: str  # "ingress", "query" or "upgrade"
    method: str = ""
    arg: bytes = b""


def steps(source: str) -> list[Step]:
    """The calls a drun test's ``//CALL`` lines name, in order."""
    found = []
    for line in source.splitlines():
        match = _CALL.match(line.strip())
        if match:
            kind, method, arg = match.groups()  # an upgrade's own argument is ignored, as drun ignores it
            found.append(Step(kind, method, argument(arg)) if kind else Step("upgrade"))
    return found


# moc's flags that moxzi build takes, by the argument of build() each sets
_COLLECTOR_FLAGS = {f"--{name}-gc": name for name in COLLECTORS}


@dataclass(frozen=True)
class MocFlags:
    options: dict  # build()'s keyword arguments: gc, force_gc, actor_idl, actor_aliases (a tuple of pairs)
    unasked: list[str]  # what moxzi build cannot do (each flag with its value, each //MOC-ENV)
    enhanced: bool  # --enhanced-orthogonal-persistence


def moc_flags(source: str, directory: Path) -> MocFlags:
    """What a drun test's ``//MOC-FLAG`` and ``//MOC-ENV`` lines ask; ``--actor-idl DIR`` is relative to
    ``directory`` (the suite runs moc in the tests' directory). ``-A CODES`` (warnings) is left out."""
    options: dict = {}
    aliases: list[tuple[str, str]] = []
    unasked, enhanced = [], False
    for line in source.splitlines():
        if line.startswith("//MOC-ENV"):
            unasked.append(line.removeprefix("//MOC-ENV").strip())
        if not line.startswith("//MOC-FLAG"):
            continue
        words = line.removeprefix("//MOC-FLAG").split()
        while words:
            flag = words.pop(0)
            if flag in _COLLECTOR_FLAGS:
                options["gc"] = _COLLECTOR_FLAGS[flag]
            elif flag == "--force-gc":
                options["force_gc"] = True
            elif flag == "--enhanced-orthogonal-persistence":
                enhanced = True
            elif flag == "--actor-idl" and words:
                options["actor_idl"] = directory / words.pop(0)
            elif flag == "--actor-alias" and len(words) >= 2:
                aliases.append((words.pop(0), words.pop(0)))
            elif flag == "-A" and words:
                words.pop(0)
            else:  # a flag with its value: the words up to the next flag
                while words and not re.match(r"-[A-Za-z-]", words[0]):
                    flag += " " + words.pop(0)
                unasked.append(flag)
    if aliases:
        options["actor_aliases"] = tuple(aliases)
    return MocFlags(options, unasked, enhanced)


def argument(text: str) -> bytes:
    """A drun call's argument: ``0x`` and hex, or a double-quoted string with ``\\xNN`` escapes."""
    text = text.strip()
    if text.startswith("0x"):
        return bytes.fromhex(text[2:])
    if not (text.startswith('"') and text.endswith('"')):
        raise ValueError(f"a drun argument is 0x<hex> or a quoted string, got {text!r}")
    out = bytearray()
    body, i = text[1:-1], 0
    while i < len(body):
        if body[i] == "\\" and body[i + 1 : i + 2] == "x":
            out.append(int(body[i + 2 : i + 4], 16))
            i += 4
        elif body[i] == "\\":
            out += {"n": b"\n", "t": b"\t", "\\": b"\\", '"': b'"'}[body[i + 1]]
            i += 2
        else:
            out += body[i].encode()
            i += 1
    return bytes(out)


def drun_id(number: int) -> Principal:
    """The id drun gives the ``number``-th canister (from 0): the test's own canister is
    rwlgt-iiaaa-aaaaa-aaaaa-cai; those canisters create count from 0xffffffffffe00000 (drun's second
    range: lxzze-o7777-77777-aaaaa-cai, ...)."""
    first = 0 if number == 0 else 0xFFFFFFFFFFE00000 + number - 1
    return Principal(first.to_bytes(8, "big") + b"\x01\x01")


class _Prints(logging.Handler):
    """Collects the actors' debug prints (the host logs each with the actor's name)."""

    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        if getattr(record, "actor", None) is not None and record.msg == "[%s] %s":
            self.lines.append(f"debug.print: {record.args[1]}")  # type: ignore[index]


class DrunRun:
    """One drun test's canister in a fresh Host; ``await run(wasm, steps)`` gives drun's output."""

    def __init__(
        self,
        limits: Limits | None = None,
        call_seconds: float = CALL_SECONDS,
        settle_seconds: float = SETTLE_SECONDS,
        clock: str = "system",
    ):
        self.call_seconds, self.settle_seconds = call_seconds, settle_seconds
        # As moxzid's without -s: the programs' snapshots, chunks and upgrades must not need what such a
        # store leaves out (test_persistence.py has the store a restart reads).
        store = MemoryStore(read_back=False)
        self.host = Host(
            [],
            HostConfig(limits or Limits(), seed=0, clock=clock),
            store=store,
            ledger=Ledger(store, DefaultPrices(), 0),
        )
        self.host.certifier = Identity(Keys.load_or_create(None))
        self._prints = _Prints()
        self._known: set[bytes] = set()
        self._ids: dict[bytes, Principal] = {}  # our canister ids -> drun's, in creation order

    async def run(self, wasm: bytes, calls: list[Step]) -> list[str]:
        moxzid = logging.getLogger("moxzid")
        moxzid.addHandler(self._prints)
        level = moxzid.level
        moxzid.setLevel(logging.INFO)
        await self.host.start()
        try:
            lines: list[str] = []
            # drun's canister controls itself too: the host's first new canister id is known beforehand.
            first = Principal(FIRST_CANISTER_NUMBER.to_bytes(8, "big") + b"\x01\x01")
            created = await self._manage(
                "provisional_create_canister_with_cycles",
                {
                    "amount": Some(CYCLES),
                    "settings": Some(_settings(controllers=Some([Principal(ANONYMOUS), first]))),
                    "specified_id": None,
                    "sender_canister_version": None,
                },
                lines,
            )
            if created.reply is None:
                return lines
            ((canister,),) = [decode_args(created.reply, list(SERVICE.methods["create_canister"].rets))]
            self.canister = canister["canister_id"]
            assert self.canister == first, f"the host made {self.canister}, not its first id {first}"
            await self._install(wasm, "install", lines)
            for step in calls:
                if step.kind == "upgrade":
                    await self._install(wasm, "upgrade", lines)
                else:
                    await self._call(step, lines)
            return lines
        finally:
            await self.host.stop()
            moxzid.removeHandler(self._prints)
            moxzid.setLevel(level)

    async def _install(self, wasm: bytes, mode: str, lines: list[str]) -> None:
        options = None
        if mode == "upgrade" and ENHANCED_PERSISTENCE in wasm:  # its heap is kept, as drun upgrades it
            options = Some({"skip_pre_upgrade": None, "wasm_memory_persistence": Some({"keep": None})})
        await self._manage(
            "install_code",
            {
                "mode": {mode: options},
                "canister_id": self.canister,
                "wasm_module": wasm,
                "arg": b"",  # as drun installs and upgrades: no argument at all
                "sender_canister_version": None,
            },
            lines,
        )

    async def _manage(self, method: str, argument: dict, lines: list[str]) -> Outcome:
        arg = encode_args(list(SERVICE.methods[method].args), [argument])
        outcome = await self._settled(self.host.call(MANAGEMENT_NAME, method, arg, query=False, caller=ANONYMOUS))
        lines += self._take_prints()
        lines += self._drun_words("ingress " + self._status(outcome, ingress=True))
        return outcome

    async def _call(self, step: Step, lines: list[str]) -> None:
        name = self.canister.to_text()
        query = step.kind == "query"
        call = self.host.call(name, step.method, step.arg, query=query, caller=ANONYMOUS)
        try:
            outcome = await self._settled(call)
        except Exception as error:  # the host refused the call outright (no such method ...)
            outcome = Outcome.reject(Reject.CANISTER_REJECT, str(error))
        lines += self._take_prints()
        lines += self._drun_words(self._status(outcome, False) if query else "ingress " + self._status(outcome, True))

    async def _settled(self, call) -> Outcome:
        """The call's outcome (a reject after ``call_seconds``), once nothing is left to run anywhere or
        ``settle_seconds`` passed."""
        task = asyncio.ensure_future(call)
        if self.host.clock.manual:
            await self._tick_until(task)
        try:
            outcome = await asyncio.wait_for(task, self.call_seconds)
        except TimeoutError:
            return Outcome.reject(0, f"no answer within {self.call_seconds:.0f} s")
        deadline = time.monotonic() + self.settle_seconds
        while not self.host.quiet() and time.monotonic() < deadline:
            await asyncio.sleep(0.005)
        return outcome

    async def _tick_until(self, task: asyncio.Future) -> None:
        """As drun's test-runner: until the call is answered (``call_seconds`` at most), a round, then
        the clock a second on (its due timers and heartbeats run before the next round)."""
        give_up = time.monotonic() + self.call_seconds
        while not task.done() and time.monotonic() < give_up:
            await asyncio.wait([task], timeout=ROUND_SECONDS)
            if not task.done():
                await self.host.clock.advance(10**9, settle=False)

    def _take_prints(self) -> list[str]:
        taken, self._prints.lines = self._prints.lines, []
        return [line for text in taken for line in self._drun_words(text, printed=True)]

    def _status(self, outcome: Outcome, ingress: bool) -> str:
        if outcome.reply is not None:
            return f"{'Completed' if ingress else 'Ok'}: Reply: 0x{outcome.reply.hex()}"
        if outcome.reject_code == Reject.CANISTER_REJECT:
            return f"Err: IC0406: {outcome.reject_message}"
        if _TRAP.match(outcome.reject_message):
            return f"Err: {outcome.reject_message}"  # written as the IC's words by _drun_words
        return f"Err: {Reject.error_code_of(outcome.reject_code)}: {outcome.reject_message}"

    def _drun_words(self, text: str, printed: bool = False) -> list[str]:
        """``text`` as drun prints it: every canister id the host made written as drun's, a trap in the
        IC's words (IC0503 for an explicit trap, IC0502 for a wasm trap), split into lines."""
        self._learn_ids()
        for ours, theirs in self._ids.items():
            text = text.replace(Principal(ours).to_text(), theirs.to_text()).replace(ours.hex(), theirs.bytes.hex())
        return _ic_trap(text, printed).split("\n")

    def _learn_ids(self) -> None:
        for name in self.host.actor_names():
            principal = self.host.info(name).principal.bytes
            if principal not in self._ids:
                self._ids[principal] = drun_id(len(self._ids))


def _ic_trap(text: str, printed: bool) -> str:
    """moxzid's words for a trap as the IC words it. The management canister's reject of an install whose
    entry point trapped, as a caller that caught it prints it, has no error code before it."""
    match = _TRAP.search(text)
    if match is None:
        return text
    in_message, in_init, trap = match.groups()
    head = f"Error from Canister {in_message or in_init}"
    if "wasm trap: " in trap:  # wasmtime's message: a backtrace, then what trapped
        cause = trap.rsplit("wasm trap: ", 1)[1].strip()
        code, words = "IC0502", f"{head}: Canister trapped: {_WASM_TRAPS.get(cause, cause)}.\n{_REMEDY}trapped"
    else:
        code, words = (
            "IC0503",
            f"{head}: Canister called `ic0.trap` with message: '{trap}'.\n{_REMEDY}trapped-explicitly",
        )
    if not (printed and in_init is not None):
        words = f"{code}: {words}"
    return text[: match.start()] + words


def _settings(**given) -> dict:
    """A canister_settings record setting ``given`` (the other fields null)."""
    fields = resolve(SERVICE.methods["update_settings"].args[0]).fields
    settings_type = resolve(next(f.type for f in fields if f.name == "settings"))
    return {f.name: given.get(f.name) for f in settings_type.fields}
