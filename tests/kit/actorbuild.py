"""Test actors from tests/actors (or another directory of tests: tests/drun; or an example's actor),
compiled once and reused across test runs.

A compile takes about five seconds, so outputs are cached under $MOXZI_TEST_CACHE (default
~/.cache/moxzi-test-actors). An entry is keyed by the compiler, the persistence mode and other build
options, the actor's name and the content of every local file its last build read (Candid files of
its ``ic:`` imports too); a small "deps" file per actor and
mode remembers that file list, so editing an actor or anything it imports rebuilds it and nothing
else. Entries are written to a temporary directory and renamed into place, so parallel test
processes never see half an entry (at worst both compile the same actor). Storing an entry removes
the older entries of the same actor and mode, so the cache holds one build of each.
"""

import functools
import hashlib
import json
import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

from moxzi_core.build import build, compiler_fingerprint, write_atomically

ACTORS_DIR = Path(__file__).parent.parent / "actors"
EXAMPLES_DIR = Path(__file__).parents[2] / "examples"


@dataclass(frozen=True)
class BuiltActor:
    name: str
    wasm_path: Path
    did_path: Path

    @property
    def wasm(self) -> bytes:
        return self.wasm_path.read_bytes()

    @property
    def did(self) -> str:
        return self.did_path.read_text()


@functools.cache
def build_actor(
    name: str,
    *,
    classic: bool = False,
    directory: Path = ACTORS_DIR,
    gc: str | None = None,
    force_gc: bool = False,
    actor_idl: Path | None = None,
    actor_aliases: tuple[tuple[str, str], ...] = (),
) -> BuiltActor:
    """Build NAME.mo of ``directory`` (tests/actors unless given; enhanced persistence unless
    `classic`; the rest as ``build`` takes them), or reuse a cached build."""
    cache = Path(os.environ.get("MOXZI_TEST_CACHE", Path.home() / ".cache" / "moxzi-test-actors"))
    cache.mkdir(parents=True, exist_ok=True)
    mode = "classic" if classic else "enhanced"
    idl = None if actor_idl is None else os.path.relpath(actor_idl, directory)  # (the same in every checkout)
    options = (gc, force_gc, idl, actor_aliases)
    if options != (None, False, None, ()):  # (an actor built without them keeps its key)
        mode += f"\0{options!r}"
    place = "" if directory == ACTORS_DIR else f"\0{directory.name}"  # tests/actors' keys as before
    recipe = hashlib.sha256(f"{compiler_fingerprint()}\0{mode}\0{name}{place}".encode()).hexdigest()
    deps_file = cache / f"{recipe}.deps.json"

    if deps_file.exists():
        entry = cache / _entry_key(recipe, json.loads(deps_file.read_text()), directory)
        if entry.is_dir():
            return _built(name, entry)

    staging = Path(tempfile.mkdtemp(dir=cache, prefix=".building-"))
    try:
        result = build(
            directory / f"{name}.mo",
            classic=classic,
            out_dir=staging / "out",
            gc=gc,
            force_gc=force_gc,
            actor_idl=actor_idl,
            actor_aliases=actor_aliases,
        )
        local_sources = sorted(
            os.path.relpath(source, directory) for source in result.sources if not source.startswith("mo:")
        )
        entry = cache / _entry_key(recipe, local_sources, directory)
        try:
            (staging / "out").rename(entry)
        except OSError:
            pass  # another process stored this entry first; its outputs are the same bytes
        write_atomically(deps_file, json.dumps(local_sources).encode())
        for older in cache.glob(f"{recipe}-*"):
            if older != entry:
                shutil.rmtree(older, ignore_errors=True)
    finally:
        shutil.rmtree(staging)
    return _built(name, entry)


def example_actor(path: str) -> BuiltActor:
    """examples/PATH.mo (``"letters/letters"``) built as a test actor is, and cached the same way."""
    folder, _, name = path.rpartition("/")
    return build_actor(name, directory=EXAMPLES_DIR / folder)


def _entry_key(recipe: str, local_sources: list[str], directory: Path) -> str:
    """``RECIPE-DIGEST``: the recipe names the actor and mode, the digest its sources' contents."""
    digest = hashlib.sha256(recipe.encode())
    for source in local_sources:
        path = directory / source
        # A file that is gone can match no stored entry; the rebuild then says what is missing.
        content = path.read_bytes() if path.is_file() else b"\0missing"
        digest.update(f"\0{source}\0".encode() + hashlib.sha256(content).digest())
    return f"{recipe}-{digest.hexdigest()}"


def _built(name: str, entry: Path) -> BuiltActor:
    return BuiltActor(name, entry / f"{name}.wasm", entry / f"{name}.did")
