"""Compile one Motoko actor to NAME.wasm + NAME.did with the Motoko compiler moxzi ships.

The compiler is the npm package `motoko` (pinned in compiler/package.json, installed with
SETUP_COMMAND) driven by compiler/compile.js in a fresh node process per build: repeated compiles in
one process drift by a few bytes, and a fresh process gives byte-identical output.
"""

import base64
import hashlib
import json
import os
import re
import secrets
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from . import mops
from .candid import CandidError, Principal

COMPILER_DIR = Path(__file__).parent / "compiler"
SETUP_COMMAND = f"npm ci --prefix {COMPILER_DIR}"

_COMPILE_JS = COMPILER_DIR / "compile.js"
_STABLE_COMPATIBLE_JS = COMPILER_DIR / "stable_compatible.js"
_MOTOKO_DIR = COMPILER_DIR / "node_modules" / "motoko"
_MOC_JS = _MOTOKO_DIR / "versions" / "latest" / "moc.min.js"
_CORE_LIBRARY = _MOTOKO_DIR / "packages" / "latest" / "core.json"
# mo:moxzi, moxzi's Motoko library for the device: compile.js hands these files to the compiler.
MOXZI_LIBRARY = COMPILER_DIR / "moxzi"


def _compiler_inputs() -> tuple[Path, ...]:
    """Together these decide what a build produces from a given source."""
    library = tuple(sorted(MOXZI_LIBRARY.glob("*.mo")))
    return (_COMPILE_JS, _MOTOKO_DIR / "package.json", _MOC_JS, _CORE_LIBRARY, *library)


class BuildError(Exception):
    """The actor could not be built; the message says why, one compiler error per line."""

    def __init__(self, message: str, diagnostics: tuple["Diagnostic", ...] = ()):
        super().__init__(message)
        self.diagnostics = diagnostics


@dataclass(frozen=True)
class Diagnostic:
    file: str  # a local file's path as seen from where `source` was given, or mo:core/NAME.mo, mo:moxzi/NAME.mo
    line: int  # 1-based
    column: int  # 1-based
    severity: str  # "error", "warning", "info" or "hint"
    code: str  # e.g. "M0050"
    message: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}: {self.severity} [{self.code}] {self.message}"

    def brief(self) -> str:
        """Like ``str``, but a syntax error's list of what the parser expected (up to about twenty
        alternatives) becomes a count when it is longer than a few lines."""
        first, *alternatives = self.message.splitlines()
        if self.code != SYNTAX_ERROR or len(alternatives) <= _ALTERNATIVES_SHOWN:
            return str(self)
        unexpected = first.split(", expected one of", 1)[0]
        return (
            f"{self.file}:{self.line}:{self.column}: {self.severity} [{self.code}] {unexpected} "
            f"(the parser expected one of {len(alternatives)} alternatives; -v lists them)"
        )

    @property
    def hint(self) -> str | None:
        """What to write instead, where the compiler's message only says what is wrong."""
        if self.code == UNKNOWN_PACKAGE:
            return _BASE_IS_CORE if '"base"' in self.message else _PACKAGES
        if self.code == MISSING_FILE and '.did"' in self.message:
            return _ACTOR_IDL
        return _HINTS.get(self.code)


SYNTAX_ERROR = "M0001"
_ALTERNATIVES_SHOWN = 3
_PERSISTENT_ACTOR = (
    "write `persistent actor { ... }` (or `persistent actor class`): its `let` and `var` "
    "declarations keep their values across upgrades; declare one `transient` to have it start "
    "over at each upgrade"
)
UNKNOWN_PACKAGE = "M0010"
MISSING_FILE = "M0009"
_ACTOR_IDL = (
    'an actor imported as "ic:ID" (or "canister:NAME", with --actor-alias NAME ID) is typed by its '
    "Candid interface, ID.did in the directory --actor-idl DIR names"
)
_PACKAGES = (
    "moxzi build serves the core library it bundles (`mo:core/...`), its own library for the device "
    "(`mo:moxzi/...`) and the local packages of a "
    'mops.toml beside the source or above it (`name = "./path"`)'
)
_BASE_IS_CORE = (
    "moxzi ships `mo:core`, the successor of `mo:base`: most modules keep their names "
    f"(`mo:base/Debug` is `mo:core/Debug`); the migration notes: {mops.MIGRATION_NOTES}"
)
_HINTS = {
    "M0219": _PERSISTENT_ACTOR,  # a declaration in a plain `actor` that is not `stable`
    "M0220": _PERSISTENT_ACTOR,  # a plain `actor` whose declarations are all `stable`
}


# moc's collectors, as its flags name them (--copying-gc, ...), and as the npm compiler does (compile.js).
COLLECTORS = {
    "copying": "copying",
    "compacting": "marking",
    "generational": "generational",
    "incremental": "incremental",
}
# Enhanced orthogonal persistence has only the incremental collector: moc refuses the others with it.
_ENHANCED_COLLECTOR = "incremental"


@dataclass(frozen=True)
class CompilerIdentity:
    motoko_version: str  # the npm package's version
    moc_build: str  # the compiler's own build hash (mo.version)
    moc_sha256: str  # of the compiler's JavaScript

    def __str__(self) -> str:
        return f"motoko {self.motoko_version} (moc {self.moc_build}, sha256 {self.moc_sha256})"


@dataclass(frozen=True)
class BuildResult:
    wasm_path: Path
    did_path: Path
    wasm_size: int
    sources: tuple[str, ...]  # every Motoko file compiled, named as in Diagnostic.file
    seconds: float
    compiler: CompilerIdentity
    diagnostics: tuple[Diagnostic, ...]  # warnings and notes; errors raise BuildError
    notes: tuple[str, ...]  # where the build differs from what the project's mops.toml asks

    @property
    def file_count(self) -> int:
        return len(self.sources)


def compiler_fingerprint() -> str:
    """A sha256 over everything besides the source that decides a build's output (for caches)."""
    _require_compiler()
    digest = hashlib.sha256()
    for path in _compiler_inputs():
        digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()


def build(
    source: Path,
    *,
    classic: bool = False,
    out_dir: Path | None = None,
    gc: str | None = None,
    force_gc: bool = False,
    actor_idl: Path | None = None,
    actor_aliases: Iterable[tuple[str, str]] = (),
) -> BuildResult:
    """Compile `source` and write NAME.wasm and NAME.did beside it, or in `out_dir`.

    `classic` selects classic persistence (32-bit memory, upgrades through stable memory) instead
    of enhanced orthogonal persistence (64-bit memory kept across upgrades). The rest are moc's flags
    of the same names: `gc` the collector (a key of COLLECTORS, moc's --NAME-gc; None: the compiler's
    default, the only one enhanced persistence has being incremental), `force_gc` to collect after
    every update message rather than on the collector's schedule, `actor_idl` the directory where an
    ``import "ic:ID"`` finds ID.did, `actor_aliases` (NAME, ID) pairs: ``import "canister:NAME"`` is ID.
    """
    source = Path(source)
    if source.suffix != ".mo":
        raise BuildError(f"{source}: not a Motoko source file (expected NAME.mo)")
    if not source.is_file():
        raise BuildError(f"{source}: no such file")
    options = _compiler_options(classic, gc, force_gc, actor_idl, actor_aliases)
    node = _require_compiler()
    started = time.perf_counter()
    mode = "classicOP" if classic else "enhancedOP"
    try:
        packages = mops.packages(source.parent, bundled_core_version())
    except mops.MopsError as error:
        raise BuildError(str(error)) from None
    local = [f"{name}={directory}" for name, directory in packages.local.items()]
    run = subprocess.run([node, _COMPILE_JS, source, mode, *options, *local], capture_output=True, text=True)
    if run.returncode != 0:
        raise BuildError(
            f"the Motoko compiler failed on {source} (exit {run.returncode}):\n{_crash_summary(run.stderr)}"
        )
    output = json.loads(run.stdout)

    diagnostics = tuple(_diagnostic(item, source.parent) for item in output["diagnostics"])
    errors = [d for d in diagnostics if d.severity == "error"]
    if errors:
        raise BuildError("\n".join(map(str, errors)), diagnostics)

    out_dir = source.parent if out_dir is None else Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    wasm = base64.b64decode(output["wasm"], validate=True)
    wasm_path, did_path = out_dir / f"{source.stem}.wasm", out_dir / f"{source.stem}.did"
    write_atomically(wasm_path, wasm)
    write_atomically(did_path, output["candid"].encode())
    return BuildResult(
        wasm_path=wasm_path,
        did_path=did_path,
        wasm_size=len(wasm),
        sources=tuple(_source_path(file, source.parent) for file in output["files"]),
        seconds=time.perf_counter() - started,
        compiler=CompilerIdentity(
            motoko_version=json.loads((_MOTOKO_DIR / "package.json").read_text())["version"],
            moc_build=output["moc"],
            moc_sha256=hashlib.sha256(_MOC_JS.read_bytes()).hexdigest(),
        ),
        diagnostics=diagnostics,
        notes=packages.notes,
    )


def _compiler_options(
    classic: bool, gc: str | None, force_gc: bool, actor_idl: Path | None, actor_aliases: Iterable[tuple[str, str]]
) -> list[str]:
    """compile.js's options for build's arguments, once they are known to be good (BuildError if not)."""
    options = []
    if gc is not None:
        if gc not in COLLECTORS:
            raise BuildError(f"no collector {gc!r}: moc's are {', '.join(COLLECTORS)} (--NAME-gc)")
        if not classic and gc != _ENHANCED_COLLECTOR:
            raise BuildError(
                f"--{gc}-gc needs --classic: enhanced orthogonal persistence has only the incremental collector"
            )
        options += ["--gc", COLLECTORS[gc]]
    if force_gc:
        options.append("--force-gc")
    if actor_idl is not None:
        if not Path(actor_idl).is_dir():
            raise BuildError(f"--actor-idl {actor_idl}: no such directory")
        options += ["--actor-idl", str(Path(actor_idl).resolve())]
    named = set()
    for name, principal in actor_aliases:
        if name in named:
            raise BuildError(f"--actor-alias {name}: given twice")
        named.add(name)
        if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_-]*", name):
            raise BuildError(f"--actor-alias {name} {principal}: an alias is a name (letters, digits, _ and -)")
        try:
            Principal.from_text(principal)
        except CandidError as error:
            raise BuildError(f"--actor-alias {name} {principal}: not a principal ({error})") from None
        options += ["--actor-alias", name, principal]
    return options


def bundled_core_version() -> str:
    """The version of the ``core`` library the compiler package bundles (``mo:core``), e.g. 2.5.0."""
    return json.loads(_CORE_LIBRARY.read_text())["version"].removeprefix("v")


def write_atomically(path: Path, data: bytes) -> None:
    """Write via a temporary file in the same directory, so readers never see half a file."""
    # Not tempfile.mkstemp: its files are private (0600); outputs get the usual umask-based mode.
    temporary = path.with_name(f".{path.name}.{secrets.token_hex(8)}.tmp")
    try:
        with open(temporary, "xb") as file:
            file.write(data)
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


def _require_compiler() -> str:
    """The node executable, once node and the compiler package are known to be installed."""
    node = shutil.which("node")
    if node is None:
        raise BuildError(
            f"node is not installed: moxzi build runs the Motoko compiler on Node.js; "
            f"install Node.js 20, then run `{SETUP_COMMAND}`"
        )
    missing = [path for path in _compiler_inputs() if not path.is_file()]
    if missing:
        raise BuildError(f"the Motoko compiler is not installed ({missing[0]} is missing): run `{SETUP_COMMAND}`")
    return node


def _source_path(file: str, source_dir: Path) -> str:
    # compile.js names local files relative to the entry's directory; show them as the user would.
    return file if file.startswith("mo:") else os.path.normpath(source_dir / file)


def _diagnostic(item: dict, source_dir: Path) -> Diagnostic:
    file = _source_path(item["file"], source_dir)
    return Diagnostic(file, item["line"], item["column"], item["severity"], item["code"], item["message"])


def _crash_summary(stderr: str) -> str:
    # node prints the offending source line first, and the compiler is one minified line of 2.8 MB.
    lines = [line for line in stderr.splitlines() if line.strip() and len(line) < 500]
    return "\n".join(lines[-10:])


def stable_incompatibilities(before: str, after: str) -> list[str]:
    """Why an actor with stable signature `before` cannot be upgraded to code with `after` (the
    `motoko:stable-types` sections of the two modules), by the compiler's own rule; [] if it can."""
    if before == after:
        return []
    node = _require_compiler()
    with tempfile.TemporaryDirectory() as scratch:
        old, new = Path(scratch, "before.most"), Path(scratch, "after.most")
        old.write_text(before)
        new.write_text(after)
        run = subprocess.run([node, _STABLE_COMPATIBLE_JS, old, new], capture_output=True, text=True)
    if run.returncode != 0:
        raise BuildError(f"the Motoko compiler failed checking stable compatibility:\n{_crash_summary(run.stderr)}")
    return json.loads(run.stdout)
