"""Reads the manifest that names the actors moxzid hosts.

A manifest is JSON: ``{"actors": [{"name": "gpt", "wasm": "gpt.wasm"}, ...]}``. Wasm paths are relative
to the manifest's folder; the ``.did`` beside a wasm (``gpt.did`` for ``gpt.wasm``) is read when present.
Several actors may share one wasm; each is its own actor with its own state. An entry may list its
``"controllers"`` as principals' text (who may manage it through the management canister, and for whom
``ic0.is_controller`` is true); they are set when the actor is first installed, and from then on kept
with its state (``update_settings`` changes them).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from .candid import CandidError, Principal
from .runtime.canister import MAX_CONTROLLERS
from .runtime.host import ActorSpec

# Actor names appear in URLs (/call-json/<name>/<method>): keep them to characters that need no escaping.
ACTOR_NAME = re.compile(r"[A-Za-z0-9_-]+")


class ManifestError(ValueError):
    """The manifest cannot be used; the message names the file, the entry and what is wrong."""


def load_manifest(path: str | Path) -> list[ActorSpec]:
    """The actors a manifest names, in the manifest's order, with their wasm bytes and ``.did`` text
    read. Raises ManifestError for an unreadable or malformed manifest, a missing wasm, a duplicate or
    malformed name."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ManifestError(f"cannot read manifest {path}: {exc.strerror}") from exc
    try:
        document = json.loads(text)
    except ValueError as exc:
        raise ManifestError(f"manifest {path} is not JSON: {exc}") from exc
    entries = document.get("actors") if isinstance(document, dict) else None
    if not isinstance(entries, list):
        raise ManifestError(f'manifest {path} must be an object with a list "actors"')
    specs: list[ActorSpec] = []
    for index, entry in enumerate(entries):
        spec = _actor_spec(path, index, entry)
        if any(seen.name == spec.name for seen in specs):
            raise ManifestError(f"manifest {path}: actor name {spec.name!r} appears more than once")
        specs.append(spec)
    return specs


def _actor_spec(manifest: Path, index: int, entry) -> ActorSpec:
    where = f"manifest {manifest}, actors[{index}]"
    if not isinstance(entry, dict):
        raise ManifestError(f'{where}: expected an object {{"name": ..., "wasm": ...}}, got {json.dumps(entry)}')
    missing = [key for key in ("name", "wasm") if key not in entry]
    if missing:
        raise ManifestError(f"{where}: missing {' and '.join(repr(k) for k in missing)}")
    unknown = sorted(set(entry) - {"name", "wasm", "controllers"})
    if unknown:
        raise ManifestError(
            f"{where}: unknown key(s) {', '.join(map(repr, unknown))}; known: 'name', 'wasm', 'controllers'"
        )
    name, wasm = entry["name"], entry["wasm"]
    if not isinstance(name, str) or not ACTOR_NAME.fullmatch(name):
        raise ManifestError(f"{where}: name {json.dumps(name)} must be letters, digits, '_' or '-'")
    if not isinstance(wasm, str) or not wasm:
        raise ManifestError(f"{where} ({name}): wasm must be a path, got {json.dumps(wasm)}")
    wasm_path = manifest.parent / wasm
    try:
        wasm_bytes = wasm_path.read_bytes()
    except OSError as exc:
        raise ManifestError(f"{where} ({name}): cannot read {wasm_path}: {exc.strerror}") from exc
    did_path = wasm_path.with_suffix(".did")
    did = did_path.read_text(encoding="utf-8") if did_path.is_file() else None
    return ActorSpec(name=name, wasm=wasm_bytes, did=did, controllers=_controllers(where, name, entry))


def _controllers(where: str, name: str, entry: dict) -> tuple[bytes, ...]:
    texts = entry.get("controllers", [])
    if not isinstance(texts, list) or len(texts) > MAX_CONTROLLERS:
        raise ManifestError(
            f"{where} ({name}): controllers must be a list of at most {MAX_CONTROLLERS} "
            f"principals, got {json.dumps(texts)}"
        )
    controllers = []
    for text in texts:
        try:
            controllers.append(Principal.from_text(text).bytes)
        except CandidError:
            raise ManifestError(
                f"{where} ({name}): controller {json.dumps(text)} is not a principal's text (like 2vxsx-fae)"
            ) from None
    return tuple(controllers)
