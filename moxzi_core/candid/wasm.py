"""Reading the Candid interface a compiled actor carries in its WebAssembly custom sections."""

from __future__ import annotations

from .did import parse_did
from .types import Service
from .wire import Reader

SERVICE_SECTIONS = ("icp:public candid:service", "icp:private candid:service")


def service_from_wasm(wasm: bytes) -> Service | None:
    """The service described by the module's ``candid:service`` custom section (public or private),
    or ``None`` when it has none. Only the section framing is read, not the code.

    Raises ``CandidError`` for a module whose section framing is broken or whose interface doesn't parse.
    """
    reader = Reader(wasm, budget=len(wasm))
    if reader.take(8) != b"\0asm\x01\0\0\0":
        raise reader.fail("not a WebAssembly module (version 1)", at=0)
    while reader.remaining:
        section_id = reader.byte()
        size = reader.length("section")
        end = reader.pos + size
        if section_id == 0:
            name = reader.text("custom section name")
            if reader.pos > end:
                raise reader.fail("custom section name runs past its section")
            if name in SERVICE_SECTIONS:
                try:
                    return parse_did(reader.take(end - reader.pos).decode("utf-8"))
                except UnicodeDecodeError:
                    raise reader.fail(f"section {name!r} is not UTF-8 text") from None
        reader.pos = end
    return None
