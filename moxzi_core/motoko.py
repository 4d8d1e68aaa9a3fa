"""The Motoko compiler moxzi ships, run in this process: the npm package `motoko`'s browser build
(``moc.min.js``, js_of_ocaml: an in-memory file system, no ``require``) and the ``core`` library it
bundles, vendored under compiler/motoko/ (``scripts/vendor-motoko`` refreshes them), in the V8 that
the PyPI package mini-racer embeds. No Node.js.

A ``Session`` is one fresh V8 context with the compiler loaded (about half a second): compiles in one
context drift by a few bytes (the compiler keeps counters between them), so each build gets its own.
"""

import hashlib
import json
from pathlib import Path
from types import TracebackType
from typing import Any

from py_mini_racer import JSEvalException, MiniRacer, init_mini_racer

COMPILER_DIR = Path(__file__).parent / "compiler"
VENDORED = COMPILER_DIR / "motoko"
MOC_JS = VENDORED / "moc.min.js"
VENDOR_INFO = VENDORED / "vendor.json"  # {"motoko": npm version, "core": the core library's version}
CORE_DIR = VENDORED / "core"
CORE_IMPORTS = VENDORED / "core-imports.json"  # each core file's import paths, as written
DRIVER_JS = COMPILER_DIR / "driver.js"
# mo:moxzi, moxzi's Motoko library for the device, served like a local package.
MOXZI_LIBRARY = COMPILER_DIR / "moxzi"
# Without mini-racer's default --single-threaded the garbage collector works beside the compiler, and a
# larger young generation collects less often: a compile takes about a fifth less time with both.
V8_FLAGS = ("--max-semi-space-size=64",)


class CompilerError(Exception):
    """The compiler itself failed (not a compile error in the source: those are diagnostics)."""


def vendored() -> dict[str, str]:
    """{"motoko": the npm package's version, "core": the core library's version (e.g. v2.5.0)}."""
    return json.loads(VENDOR_INFO.read_text())


def core_files() -> dict[str, Path]:
    """The core library: its files by their paths inside it (``pure/Map.mo``)."""
    return {path.relative_to(CORE_DIR).as_posix(): path for path in sorted(CORE_DIR.rglob("*.mo"))}


def compiler_inputs() -> tuple[Path, ...]:
    """Together these decide what a build produces from a given source."""
    library = sorted(MOXZI_LIBRARY.glob("*.mo"))
    return (DRIVER_JS, VENDOR_INFO, MOC_JS, CORE_IMPORTS, *core_files().values(), *library)


def fingerprint() -> str:
    """A sha256 over everything besides the source that decides a build's output (for caches)."""
    digest = hashlib.sha256()
    for path in compiler_inputs():
        digest.update(f"{path.relative_to(COMPILER_DIR)}\0".encode() + hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()


class Session:
    """One V8 context with the compiler loaded; use it as a context manager (a context left open keeps
    the interpreter from exiting)."""

    def __init__(self) -> None:
        init_mini_racer(flags=V8_FLAGS, ignore_duplicate_init=True)
        self._v8 = MiniRacer()
        try:
            self._v8.eval(DRIVER_JS.read_text())
            self._v8.eval(MOC_JS.read_text())
        except BaseException:
            self._v8.close()
            raise

    def __enter__(self) -> "Session":
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self._v8.close()

    def _call(self, function: str, *args: object) -> Any:
        try:
            return self._v8.call(f"moxzi.{function}", *args)
        except JSEvalException as error:
            raise CompilerError(f"the Motoko compiler failed ({function}): {_brief(str(error))}") from None

    def version(self) -> str:
        """The compiler's own build hash (moc's version string)."""
        return self._call("version")

    def write(self, files: dict[str, str]) -> None:
        """Put files into the compiler's file system, by their paths there."""
        self._call("write", files)

    def use_package(self, name: str, directory: str) -> None:
        """``mo:NAME/X`` is DIRECTORY/X.mo of the compiler's file system."""
        self._call("usePackage", name, directory)

    def imports(self, source: str) -> list[str]:
        """The import paths of a Motoko source as written ([] for a syntax error: compiling reports it)."""
        return self._call("imports", source)

    def compile(
        self, entry: str, flags: list[str], candid_path: str | None, aliases: list[tuple[str, str]]
    ) -> tuple[dict, bytes | None]:
        """Compile ENTRY of the file system for the IC: ({diagnostics, candid, stable}, the wasm or None)."""
        request = {
            "entry": entry,
            "flags": flags,
            "candidPath": candid_path,
            "aliases": [list(alias) for alias in aliases],
            # As dfx builds Motoko: the interface is public metadata (anyone may read it with read_state,
            # as icp-cli does to encode a call), the rest (stable types, compiler, persistence) private.
            "publicMetadata": ["candid:service", "candid:args"],
        }
        output = self._call("compile", request)
        try:
            wasm = self._v8.eval("moxzi.lastWasm")
        except JSEvalException as error:
            raise CompilerError(f"the Motoko compiler failed: {_brief(str(error))}") from None
        # a view of V8's memory, valid while the context is: copied out
        return output, bytes(wasm) if isinstance(wasm, memoryview) else None

    def stable_compatible(self, before: str, after: str) -> list[str]:
        """The compiler's reasons an actor with stable signature BEFORE cannot take code with AFTER."""
        return self._call("stableCompatible", before, after)


def _brief(message: str) -> str:
    # V8 quotes the offending source line, and the compiler is one minified line of 2.8 MB.
    lines = [line for line in message.splitlines() if line.strip() and len(line) < 500]
    return "\n".join(lines[-10:])
