"""Reading the Candid interface a compiled actor carries in its WebAssembly custom sections (which
``runtime.engine.prepare``, the one reader of a module's sections, collects)."""

from __future__ import annotations

from collections.abc import Mapping

from .did import parse_did
from .errors import CandidError
from .types import Service

SERVICE_SECTIONS = ("icp:public candid:service", "icp:private candid:service")


def service_from_sections(sections: Mapping[str, bytes]) -> Service | None:
    """The service described by a module's ``candid:service`` custom section (public or private), given
    its custom sections by name, or ``None`` when it has none. Raises ``CandidError`` for a section that
    is not UTF-8 or whose interface doesn't parse."""
    for name in SERVICE_SECTIONS:
        if name in sections:
            try:
                return parse_did(bytes(sections[name]).decode("utf-8"))
            except UnicodeDecodeError:
                raise CandidError(f"section {name!r} is not UTF-8 text") from None
    return None
