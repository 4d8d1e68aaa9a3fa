#!/usr/bin/env python3
"""Run the Motoko compiler's own drun tests (a dfinity/motoko checkout's test/run-drun) through moxzi's
``Host`` and say, per test, whether moxzid prints what drun printed (the test's ok/NAME.drun-run.ok).

    scripts/drun_sweep.py /path/to/motoko [NAME ...] [--out DIR] [--call-seconds S]

Each test is built with ``moxzi_core.build`` (moxzi build: the npm ``motoko`` package) with the flags it
asks for that moxzi build takes (its ``//MOC-FLAG`` lines: the collector, ``--force-gc``, ``--actor-idl``,
``--actor-alias``), and those the suite's run.sh adds (``--force-gc`` unless ``//MOC-NO-FORCE-GC``,
``--incremental-gc`` for ``//INCREMENTAL-GC-ONLY``), and run with tests/kit/drun.py, which sets the canister up as drun does
and moves a manual clock as drun does (a second after each round while a call is unanswered). Prints one line a test,
``NAME STATUS DETAIL``, then the counts:

    match     drun's output, line for line
    differ    something else (what moxzid printed is in DIR/NAME.got, beside the expected file)
    nobuild   the npm compiler did not build it (its first errors)
    error     the harness itself failed

A test whose ``//MOC-FLAG`` or ``//MOC-ENV`` lines ask for what moxzi build cannot do (the npm
compiler takes no other code-generation flags) is built without them and its status is followed by ``unasked:`` and those
flags: its result does not count as the test as written. The checkout's tests are older than the npm
compiler, so their copies (in DIR/src) are changed as the newer compiler needs before they are built:
a plain ``actor`` becomes ``persistent actor`` and the declarations it kept implicitly transient are
marked ``transient``, ``//OR-CALL`` lines are calls, as the suite's run.sh makes them, and drun's id for the test's canister
(``ic:rwlgt-iiaaa-aaaaa-aaaaa-cai``) is the host's. Built
modules are kept in DIR (default ~/.cache/moxzi/drun-sweep) and reused; delete DIR after changing the
compiler.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import shutil
import sys
import time
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING

from moxzi_core.build import BuildError, Diagnostic, build
from moxzi_core.candid import Principal

if TYPE_CHECKING:
    from kit.drun import MocFlags

REPO = Path(__file__).resolve().parent.parent
_ACTOR = re.compile(
    r"(?m)^((?:let\s+\w+\s*=\s*)?(?:shared\b(?:\s*(?:query\s*)?\([^)]*\))?\s*)?)actor"
    r"(?=\s+class\b|\s+[A-Za-z_]\w*\s*[{(:=]|\s*\{|\s+[A-Za-z_]\w*\s*$)"
)
# The errors of a plain actor's declarations that the newer compiler wants marked transient (a
# persistent actor's declarations are stable, and only some may be).
_TRANSIENT_ERRORS = ("M0219", "M0131", "M0133")


def persistent(source: str) -> str:
    """``source`` with each plain actor made a persistent one that keeps only what the plain one kept:
    its ``stable`` declarations. Its other fields, stable by default in a persistent actor, are marked
    ``transient`` (``flexible`` is transient's old name), so that an upgrade runs their initialisers
    again, as it did."""
    out = []
    depth: int | None = None  # brace depth in the actor being changed (None: outside one)
    opened, previous = False, ""
    for line in source.split("\n"):
        match = _ACTOR.match(line) if depth is None else None
        if match:
            line, depth, opened = line[: match.end(1)] + "persistent " + line[match.end(1) :], 0, False
        elif depth == 1 and previous.strip() != "stable":  # (`stable` may be a line of its own)
            stripped = line.lstrip()
            indent = line[: len(line) - len(stripped)]
            if stripped.startswith(("let ", "var ")):
                line = f"{indent}transient {stripped}"
            elif stripped.startswith("flexible "):
                line = f"{indent}transient {stripped.removeprefix('flexible ')}"
        out.append(line)
        previous = line if line.strip() else previous
        if depth is not None:
            code = re.sub(r'"(?:[^"\\]|\\.)*"|//.*', "", line)  # braces in strings and comments do not count
            depth += code.count("{") - code.count("}")
            opened = opened or depth > 0
            if opened and depth <= 0:
                depth = None
    return "\n".join(out)


def build_options(source: str, directory: Path) -> MocFlags:
    """The build a test asks: its //MOC-FLAG lines, and what the suite's run.sh adds: ``--force-gc``
    unless it says //MOC-NO-FORCE-GC, ``--incremental-gc`` where it is //INCREMENTAL-GC-ONLY (run.sh runs
    such a test only when the incremental collector is chosen)."""
    from kit.drun import moc_flags  # (tests/kit: on the path from main(), and in the tests)

    flags = moc_flags(source, directory)
    if "//MOC-NO-FORCE-GC" not in source:
        flags.options["force_gc"] = True
    if "//INCREMENTAL-GC-ONLY" in source:
        flags.options["gc"] = "incremental"
    return flags


def enhanced(source: str) -> bool:
    return "--enhanced-orthogonal-persistence" in source or "ENHANCED-ORTHOGONAL-PERSISTENCE-ONLY" in source


class Sweep:
    def __init__(self, checkout: Path, out: Path, call_seconds: float):
        self.tests = checkout / "test" / "run-drun"
        if not (self.tests / "ok").is_dir():
            raise SystemExit(f"{checkout} is not a dfinity/motoko checkout (no test/run-drun/ok)")
        self.out, self.call_seconds = out, call_seconds
        self.work = out / "src"

    def names(self) -> list[str]:
        suffix = ".drun-run.ok"
        found = (p.name[: -len(suffix)] for p in (self.tests / "ok").glob("*" + suffix))
        return sorted(name for name in found if (self.tests / f"{name}.mo").exists())

    def _prepare(self) -> None:
        """The tests' copies as the newer compiler takes them (once per DIR). A test that names its own
        canister by drun's id for it (``ic:rwlgt-...``, an alias, a Candid file named so) names the
        host's instead: the harness prints the host's ids as drun's."""
        if self.work.exists():
            return
        from kit.drun import drun_id

        from moxzi_core.runtime.management.ids import FIRST_CANISTER_NUMBER

        shutil.copytree(self.tests, self.work)
        drun_self = drun_id(0).to_text()
        host_self = Principal(FIRST_CANISTER_NUMBER.to_bytes(8, "big") + b"\x01\x01").to_text()
        for did in self.work.rglob(f"{drun_self}.did"):
            did.rename(did.with_name(f"{host_self}.did"))
        for mo in self.work.rglob("*.mo"):
            text = mo.read_text().replace(drun_self, host_self)
            if mo.parent == self.work:  # run.sh's mangling: a test's //OR-CALL lines are its calls
                text = re.sub(r"(?m)^.*//OR-CALL", "//CALL", text)
            mo.write_text(persistent(text))

    def build(self, name: str) -> tuple[bytes | None, str, list[str]]:
        """The test's module (None if it did not build, and why), and the flags it asks that moxzi build
        cannot pass."""
        self._prepare()
        source = self.work / f"{name}.mo"
        flags = build_options(source.read_text(), self.work)
        wasm = self.out / f"{name}.wasm"
        if wasm.exists():
            return wasm.read_bytes(), "", flags.unasked
        classic = not enhanced((self.tests / f"{name}.mo").read_text())
        while True:
            try:
                build(source, classic=classic, out_dir=self.out, **flags.options)
                return wasm.read_bytes(), "", flags.unasked
            except BuildError as error:
                errors = [d for d in error.diagnostics if d.severity == "error"]
                if not errors or not all(d.code in _TRANSIENT_ERRORS for d in errors):
                    why = "; ".join(
                        f"{os.path.relpath(d.file, self.work)}:{d.line}:{d.code} {d.message[:80]}" for d in errors[:3]
                    )
                    return None, why or str(error)[-300:], flags.unasked
                self._mark_transient(errors)

    def _mark_transient(self, errors: list[Diagnostic]) -> None:
        """Each declaration an error points at gets ``transient`` before its let or var."""
        by_file: dict[str, list[tuple[int, int]]] = {}
        for d in errors:
            by_file.setdefault(d.file, []).append((d.line, d.column))
        for file, spots in by_file.items():
            path = Path(file)
            lines = path.read_text().split("\n")
            for line, column in sorted(spots, reverse=True):
                text = lines[line - 1]
                found = [m.start() for m in re.finditer(r"\b(let|var)\b", text[: column - 1])]
                at = found[-1] if found else column - 1
                lines[line - 1] = text[:at] + "transient " + text[at:]
            path.write_text("\n".join(lines))

    async def one(self, name: str) -> tuple[str, str]:
        from kit.drun import DrunRun, steps  # (tests/kit: on the path from main())

        wasm, why, unasked = self.build(name)
        if wasm is None:
            return "nobuild", why + (f" unasked: {', '.join(unasked)}" if unasked else "")
        expected = (self.tests / "ok" / f"{name}.drun-run.ok").read_text().splitlines()
        began = time.monotonic()
        run = DrunRun(call_seconds=self.call_seconds, clock="manual")  # time moves as drun's (tests/kit/drun.py)
        got = await run.run(wasm, steps((self.work / f"{name}.mo").read_text()))
        # drun's own "Ignore Diff" lines say what the suite does not compare
        got = [re.sub(r"(?i)Ignore Diff:.*", "Ignore Diff: (ignored)", line) for line in got]
        (self.out / f"{name}.got").write_text("\n".join(got) + "\n")
        detail = f"{time.monotonic() - began:.1f}s" + (f" unasked: {', '.join(unasked)}" if unasked else "")
        return ("match" if got == expected else "differ"), detail


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("checkout", type=Path, help="a dfinity/motoko checkout")
    parser.add_argument("names", nargs="*", help="tests to run (default: every test with a drun-run.ok)")
    parser.add_argument("--out", type=Path, default=Path.home() / ".cache" / "moxzi" / "drun-sweep")
    parser.add_argument("--call-seconds", type=float, default=10.0, help="how long one call may take")
    args = parser.parse_args()
    sys.path.insert(0, str(REPO / "tests"))
    args.out.mkdir(parents=True, exist_ok=True)
    sweep = Sweep(args.checkout, args.out, args.call_seconds)
    counts: Counter[str] = Counter()
    for name in args.names or sweep.names():
        try:
            status, detail = await sweep.one(name)
        except Exception as error:  # one test's failure is reported, the sweep goes on
            status, detail = "error", repr(error)[:300]
        counts[status] += 1
        print(name, status, detail, flush=True)
    print(" ".join(f"{status} {counts[status]}" for status in ("match", "differ", "nobuild", "error")))


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    asyncio.run(main())
