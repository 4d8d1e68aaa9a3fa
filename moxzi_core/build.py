"""Compile one Motoko actor to NAME.wasm + NAME.did with the Motoko compiler moxzi ships (motoko.py: in
this process, no Node.js), or answer an unchanged build from the cache (build_cache.py).

The compiler reads an in-memory file system: the entry and the local files it imports, at paths
relative to the entry's directory (they reach trap messages, so they must not depend on where the
project lies), the core library, mo:moxzi and a mops.toml's local packages (whole), and the Candid
files of --actor-idl. build finds the files the entry imports itself, transitively, from each file's
import paths (read by the compiler's parser once per file content, remembered in the cache; the core
library's come with it): they key the cache, and they are the files a result lists.
"""

import hashlib
import json
import os
import posixpath
import re
import secrets
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from . import build_cache, mops, motoko
from .candid import CandidError, Principal

MOXZI_LIBRARY = motoko.MOXZI_LIBRARY
# Where the compiler's file system holds the libraries: as the npm package's own loader puts the core
# library, so that builds match the npm compiler's byte for byte.
_CORE_ROOT = ".node-motoko/core"
_PACKAGES_ROOT = ".local-packages"
_SCHEME = re.compile(r"^[a-z]+:", re.IGNORECASE)
_CACHE_FORMAT = 1


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
    cached: bool = False  # answered from the build cache: the same sources, options and compiler

    @property
    def file_count(self) -> int:
        return len(self.sources)


def compiler_fingerprint() -> str:
    """A sha256 over everything besides the source that decides a build's output (for caches)."""
    _require_compiler()
    return motoko.fingerprint()


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
    A build of the same files with the same options and compiler is answered from the build cache.
    """
    source = Path(source)
    if source.suffix != ".mo":
        raise BuildError(f"{source}: not a Motoko source file (expected NAME.mo)")
    if not source.is_file():
        raise BuildError(f"{source}: no such file")
    started = time.perf_counter()
    aliases = _checked_aliases(actor_aliases)
    flags = ["classicOP" if classic else "enhancedOP", *_collector_flags(classic, gc, force_gc)]
    if actor_idl is not None and not Path(actor_idl).is_dir():
        raise BuildError(f"--actor-idl {actor_idl}: no such directory")
    _require_compiler()
    try:
        packages = mops.packages(source.parent, bundled_core_version())
    except mops.MopsError as error:
        raise BuildError(str(error)) from None
    files = _FileSystem(source.parent, packages.local, actor_idl, dict(aliases))
    request = [_CACHE_FORMAT, motoko.fingerprint(), source.name, flags, files.candid, aliases]

    found = _sources(files, source.name, _remembered_imports)
    stored = None if found is None else build_cache.load(_key(request, files, found))
    if stored is not None:
        wasm, candid, meta = stored
        diagnostics = tuple(_diagnostic(item, files) for item in meta["diagnostics"])
    else:
        with motoko.Session() as session:
            found = _sources(files, source.name, _parsing_imports(session))
            assert found is not None  # parsing finds every file's imports
            session.write(files.contents(found))
            for name, directory in files.packages.items():
                session.write(files.library_contents(name))
                session.use_package(name, directory)
            if files.candid is not None:
                session.write(files.candid_contents())
            try:
                output, compiled = session.compile(source.name, flags, files.candid, aliases)
                moc_build = session.version()
            except motoko.CompilerError as error:
                raise BuildError(f"{source}: {error}") from None
        diagnostics = tuple(_diagnostic(item, files) for item in output["diagnostics"])
        errors = [d for d in diagnostics if d.severity == "error"]
        if errors:
            raise BuildError("\n".join(map(str, errors)), diagnostics)
        if compiled is None:
            raise BuildError(f"{source}: the Motoko compiler gave no module and no error")
        wasm, candid = compiled, output["candid"]
        meta = {"moc": moc_build, "diagnostics": output["diagnostics"], "files": sorted(found)}
        build_cache.store(_key(request, files, found), wasm, candid, meta)

    out_dir = source.parent if out_dir is None else Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    wasm_path, did_path = out_dir / f"{source.stem}.wasm", out_dir / f"{source.stem}.did"
    write_atomically(wasm_path, wasm)
    write_atomically(did_path, candid.encode())
    return BuildResult(
        wasm_path=wasm_path,
        did_path=did_path,
        wasm_size=len(wasm),
        sources=tuple(sorted(_source_path(files.shown(path), source.parent) for path in meta["files"])),
        seconds=time.perf_counter() - started,
        compiler=_identity(meta["moc"]),
        diagnostics=diagnostics,
        notes=packages.notes,
        cached=stored is not None,
    )


@dataclass
class _FileSystem:
    """The compiler's file system as a build fills it: local files at their paths relative to `root`
    (the entry's directory), each package's files under its directory there, Candid files at their
    own paths."""

    root: Path
    local_packages: dict[str, Path]
    actor_idl: Path | None
    aliases: dict[str, str]
    packages: dict[str, str] = field(init=False)  # name -> its directory in the file system
    library: dict[str, Path] = field(init=False)  # a package file's path in the file system -> on disk

    def __post_init__(self) -> None:
        core = f"{_CORE_ROOT}/{motoko.vendored()['core']}"
        self.packages = {"core": core}
        self.library = {f"{core}/{path}": file for path, file in motoko.core_files().items()}
        for name, directory in {"moxzi": MOXZI_LIBRARY, **self.local_packages}.items():
            self.packages[name] = f"{_PACKAGES_ROOT}/{name}"
            for file in sorted(Path(directory).rglob("*.mo")):
                if file.is_file():
                    self.library[f"{_PACKAGES_ROOT}/{name}/{file.relative_to(directory).as_posix()}"] = file

    @property
    def candid(self) -> str | None:
        return None if self.actor_idl is None else str(Path(self.actor_idl).resolve())

    def on_disk(self, path: str) -> Path | None:
        """The file at PATH of the file system, if there is one."""
        if path in self.library:
            return self.library[path]
        if path.startswith(("/", f"{_CORE_ROOT}/", f"{_PACKAGES_ROOT}/")):
            candid = self.candid
            return Path(path) if candid is not None and path.startswith(f"{candid}/") else None
        file = self.root / path
        return file if file.is_file() else None

    def resolve(self, importer: str, spec: str) -> str | None:
        """The file an import path of IMPORTER names, as the compiler resolves it, if it is there (if not,
        the compiler says so)."""
        if spec.startswith("canister:"):
            principal = self.aliases.get(spec.removeprefix("canister:"))
            return None if principal is None else self.resolve(importer, f"ic:{principal}")
        if spec.startswith("ic:"):
            candid = self.candid
            did = None if candid is None else f"{candid}/{spec.removeprefix('ic:')}.did"
            return did if did is not None and self.on_disk(did) else None
        if spec.startswith("mo:"):
            name, _, inside = spec.removeprefix("mo:").partition("/")
            if name not in self.packages:
                return None  # the compiler's primitives (mo:prim), or a package it reports unknown
            base = posixpath.join(self.packages[name], inside) if inside else self.packages[name]
        elif _SCHEME.match(spec):
            return None
        else:
            base = posixpath.normpath(posixpath.join(posixpath.dirname(importer), spec))
        # Motoko reads `import X "lib/Foo"` as lib/Foo.mo, else lib/Foo/lib.mo.
        return next((path for path in (f"{base}.mo", f"{base}/lib.mo") if self.on_disk(path)), None)

    def shown(self, path: str) -> str:
        """How diagnostics and results name PATH: `mo:core/Nat.mo` rather than its place in the file system."""
        for name, directory in self.packages.items():
            if path.startswith(f"{directory}/"):
                return f"mo:{name}/{path.removeprefix(directory + '/')}"
        return path

    def contents(self, paths: dict[str, str]) -> dict[str, str]:
        """The local files of PATHS (those not in a package: the packages are written whole)."""
        return {path: content for path, content in paths.items() if path not in self.library}

    def library_contents(self, name: str) -> dict[str, str]:
        prefix = f"{self.packages[name]}/"
        return {path: _read(file) for path, file in self.library.items() if path.startswith(prefix)}

    def candid_contents(self) -> dict[str, str]:
        """The Candid files of --actor-idl (its subdirectories too: one may import another)."""
        assert self.actor_idl is not None
        directory = Path(self.actor_idl).resolve()
        return {str(file): _read(file) for file in sorted(directory.rglob("*.did")) if file.is_file()}


def _read(file: Path) -> str:
    return file.read_bytes().decode("utf-8", errors="replace")


# The import paths of the Motoko file at PATH with CONTENT, or None where they are not known yet.
ImportsOf = Callable[[str, str], list[str] | None]


def _sources(files: _FileSystem, entry: str, imports_of: ImportsOf) -> dict[str, str] | None:
    """Every file ENTRY imports, transitively, itself included: {path in the file system: content}; None
    where the imports of one of them are not known (IMPORTS_OF gave None)."""
    found: dict[str, str] = {}
    pending = [entry]
    while pending:
        path = pending.pop()
        if path in found:
            continue
        file = files.on_disk(path)
        if file is None:
            continue  # a missing entry or import: the compiler reports it
        found[path] = _read(file)
        if path.endswith(".did"):
            continue  # read as Candid, not as Motoko
        imports = imports_of(path, found[path])
        if imports is None:
            return None
        pending += [resolved for spec in imports if (resolved := files.resolve(path, spec)) is not None]
    return found


def _remembered_imports(path: str, content: str) -> list[str] | None:
    core = _core_imports(path)
    return core if core is not None else build_cache.imports(_digest(content))


def _parsing_imports(session: motoko.Session) -> ImportsOf:
    def imports_of(path: str, content: str) -> list[str]:
        remembered = _remembered_imports(path, content)
        if remembered is not None:
            return remembered
        imports = session.imports(content)
        build_cache.remember_imports(_digest(content), imports)
        return imports

    return imports_of


def _core_imports(path: str) -> list[str] | None:
    """A core library file's imports, from the index vendored with it; None for any other file."""
    if not path.startswith(f"{_CORE_ROOT}/"):
        return None
    inside = path.split("/", 3)[3]
    return _core_index().get(inside)


_core_index_cache: dict[str, list[str]] = {}


def _core_index() -> dict[str, list[str]]:
    if not _core_index_cache:
        _core_index_cache.update(json.loads(motoko.CORE_IMPORTS.read_text(encoding="utf-8")))
    return _core_index_cache


def _key(request: list, files: _FileSystem, found: dict[str, str]) -> str:
    """The build cache's key of a build: its request and the path and content of every file it reads."""
    read = sorted((path, _digest(content)) for path, content in found.items())
    candid = sorted(
        (path, _digest(content)) for path, content in (files.candid_contents() if files.candid else {}).items()
    )
    return _digest(json.dumps([request, read, candid]))


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def _identity(moc_build: str) -> CompilerIdentity:
    return CompilerIdentity(
        motoko_version=motoko.vendored()["motoko"],
        moc_build=moc_build,
        moc_sha256=hashlib.sha256(motoko.MOC_JS.read_bytes()).hexdigest(),
    )


def _collector_flags(classic: bool, gc: str | None, force_gc: bool) -> list[str]:
    """The compiler's gcFlags for build's collector arguments, once they are known to be good."""
    flags = []
    if gc is not None:
        if gc not in COLLECTORS:
            raise BuildError(f"no collector {gc!r}: moc's are {', '.join(COLLECTORS)} (--NAME-gc)")
        if not classic and gc != _ENHANCED_COLLECTOR:
            raise BuildError(
                f"--{gc}-gc needs --classic: enhanced orthogonal persistence has only the incremental collector"
            )
        flags.append(COLLECTORS[gc])
    if force_gc:
        flags.append("force")
    return flags


def _checked_aliases(actor_aliases: Iterable[tuple[str, str]]) -> list[tuple[str, str]]:
    """The (NAME, ID) pairs of --actor-alias, once they are known to be good."""
    aliases: list[tuple[str, str]] = []
    for name, principal in actor_aliases:
        if name in dict(aliases):
            raise BuildError(f"--actor-alias {name}: given twice")
        if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_-]*", name):
            raise BuildError(f"--actor-alias {name} {principal}: an alias is a name (letters, digits, _ and -)")
        try:
            Principal.from_text(principal)
        except CandidError as error:
            raise BuildError(f"--actor-alias {name} {principal}: not a principal ({error})") from None
        aliases.append((name, principal))
    return aliases


def bundled_core_version() -> str:
    """The version of the ``core`` library the compiler bundles (``mo:core``), e.g. 2.5.0."""
    return motoko.vendored()["core"].removeprefix("v")


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


def _require_compiler() -> None:
    """Raise BuildError unless the vendored compiler is complete."""
    missing = [path for path in motoko.compiler_inputs() if not path.is_file()]
    if missing or not motoko.CORE_DIR.is_dir():
        where = missing[0] if missing else motoko.CORE_DIR
        raise BuildError(f"the Motoko compiler is incomplete ({where} is missing): run scripts/vendor-motoko")


def _source_path(file: str, source_dir: Path) -> str:
    # Local files are named relative to the entry's directory; show them as the user would.
    return file if file.startswith("mo:") else os.path.normpath(source_dir / file)


def _diagnostic(item: dict, files: _FileSystem) -> Diagnostic:
    file = _source_path(files.shown(item["file"]), files.root)
    return Diagnostic(file, item["line"], item["column"], item["severity"], item["code"], item["message"])


def stable_incompatibilities(before: str, after: str) -> list[str]:
    """Why an actor with stable signature `before` cannot be upgraded to code with `after` (the
    `motoko:stable-types` sections of the two modules), by the compiler's own rule; [] if it can."""
    if before == after:
        return []
    _require_compiler()
    try:
        with motoko.Session() as session:
            return session.stable_compatible(before, after)
    except motoko.CompilerError as error:
        raise BuildError(f"checking stable compatibility: {error}") from None
