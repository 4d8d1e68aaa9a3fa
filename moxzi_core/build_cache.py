"""``moxzi build``'s cache: a build whose sources, options and compiler are all unchanged is answered
from here instead of by the compiler.

Content-addressed, under $MOXZI_BUILD_CACHE (default ~/.cache/moxzi/builds):
- ``imports/SHA``: the import paths, as written, of a Motoko file whose content has that sha256, so that
  finding the files a build reads needs no compiler;
- ``KEY/``: one build (``wasm``, ``did``, ``meta.json``: its files and diagnostics), where KEY is a sha256
  over the compiler, the options and the path and content of every file the build read.
Entries are written to a temporary directory and renamed into place, so a reader never sees half of one;
a cache that cannot be written (a read-only home) only makes builds slower.
"""

import json
import os
import secrets
import shutil
from pathlib import Path

VARIABLE = "MOXZI_BUILD_CACHE"


def directory() -> Path:
    if os.environ.get(VARIABLE):
        return Path(os.environ[VARIABLE])
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "moxzi" / "builds"


def imports(digest: str) -> list[str] | None:
    """The import paths of the Motoko file with content sha256 DIGEST, if they were remembered."""
    try:
        return json.loads((directory() / "imports" / digest).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def remember_imports(digest: str, paths: list[str]) -> None:
    _write(directory() / "imports" / digest, json.dumps(paths, ensure_ascii=False).encode())


def load(key: str) -> tuple[bytes, str, dict] | None:
    """The build KEY names (wasm, did, meta), if it is stored."""
    entry = directory() / key
    try:
        return (
            (entry / "wasm").read_bytes(),
            (entry / "did").read_text(encoding="utf-8"),
            json.loads((entry / "meta.json").read_text(encoding="utf-8")),
        )
    except (OSError, ValueError):
        return None


def store(key: str, wasm: bytes, did: str, meta: dict) -> None:
    entry = directory() / key
    staging = directory() / f".{key}.{secrets.token_hex(8)}"
    try:
        staging.mkdir(parents=True)
        (staging / "wasm").write_bytes(wasm)
        (staging / "did").write_text(did, encoding="utf-8")
        (staging / "meta.json").write_text(json.dumps(meta, ensure_ascii=False), encoding="utf-8")
        staging.rename(entry)
    except OSError:
        pass  # another build stored the same entry first (the same bytes), or the cache is not writable
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def _write(path: Path, data: bytes) -> None:
    temporary = path.with_name(f".{path.name}.{secrets.token_hex(8)}")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary.write_bytes(data)
        os.replace(temporary, path)
    except OSError:
        temporary.unlink(missing_ok=True)
