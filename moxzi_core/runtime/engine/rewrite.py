"""Prepare a WebAssembly module for hosting: expose its globals, defer its start function, and make
it record which pages of its memory it writes.

wasmtime can only read and write globals that a module exports, and it runs the start function
during instantiation. The host needs both under its control: it snapshots every global around
messages, and for an enhanced-persistence upgrade it must copy the old heap into memory *before*
the start function runs (copy heap -> call ``__moxzi_start`` -> ``canister_post_upgrade``).
To snapshot at the cost of what a message wrote rather than of the whole heap, the module gets a
second memory, the dirty-page map exported as ``__moxzi_dirty_pages``, and every function body
marks in it the pages it writes (`dirty`). So that the host can bound what a message grows,
the module gets a global, the growth cap exported as ``__moxzi_grow_cap``: the pages of memory 0
past which its memory.grow answers -1 (`dirty`). A module without memory, which the IC installs
(the empty module is one), gets memory 0 of no pages, exported as ``__moxzi_empty_memory``.

`prepare` rewrites the memory, global, export, start and code sections (in the code, only the function
bodies that write memory) and copies every other section byte for byte; wasmtime validates the
result when it compiles it. Anything this module has to parse is checked strictly: a malformed or
unsupported module raises ValueError naming the byte offset.
"""

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import NoReturn

from ... import leb128
from .dirty import instrument_body, map_pages

GLOBAL_EXPORT_PREFIX = "__moxzi_global_"
START_EXPORT = "__moxzi_start"
DIRTY_PAGES_EXPORT = "__moxzi_dirty_pages"  # the dirty-page map (memory 1), see dirty.py
GROW_CAP_EXPORT = "__moxzi_grow_cap"  # the growth cap (a mutable i64 global), see dirty.py
# The memory a module without one is given (no pages, none to grow: its code cannot touch memory, but
# the System API reads and writes an actor's memory, so every actor has one).
EMPTY_MEMORY_EXPORT = "__moxzi_empty_memory"
# The growth cap's definition: mutable i64, initially all ones (as u64: no cap).
_GROW_CAP_GLOBAL = b"\x7e\x01\x42\x7f\x0b"

_HEADER = b"\0asm\x01\0\0\0"

_CUSTOM, _TYPE, _IMPORT, _FUNCTION, _MEMORY, _GLOBAL, _EXPORT, _START, _CODE = 0, 1, 2, 3, 5, 6, 7, 8, 10
# Non-custom sections must appear in this order, each at most once (tag = 13 and
# data count = 12 are out of numeric order).
_SECTION_ORDER = (1, 2, 3, 4, 5, 13, 6, 7, 8, 9, 12, 10, 11)

# External kinds of import and export entries.
_FUNC, _TABLE, _MEM, _GLOBAL_KIND, _TAG = 0, 1, 2, 3, 4

_FUNC_TYPE = 0x60
_LIMITS_64 = 4  # limits flag: 64-bit (memory64)

_NUMBER_TYPES = range(0x7B, 0x80)  # v128, f64, f32, i64, i32
_ABSTRACT_HEAP_TYPES = range(0x69, 0x75)  # exn .. noexn, including func and extern
_REF_TYPE_PREFIXES = (0x63, 0x64)  # (ref null ht), (ref ht)

# A defined global takes at least a value type, a mutability byte and an `end` opcode.
_MIN_GLOBAL_SIZE = 3


@dataclass(frozen=True)
class PreparedModule:
    """A rewritten module and what the host needs to know about it."""

    wasm: bytes
    memory64: bool  # memory 0 is 64-bit; False also when the module has no memory
    global_exports: tuple[str, ...]  # added export names, one per global the module defines, in index order
    has_start: bool  # the start function was removed and exported as START_EXPORT
    custom_sections: Mapping[str, bytes]  # e.g. "icp:public candid:service" -> .did text
    size: int  # bytes of the module as given (the canister's wasm binary)

    @property
    def persistence(self) -> str:
        """Motoko's persistence mode: 64-bit memory means enhanced orthogonal persistence."""
        return "enhanced" if self.memory64 else "classic"


def prepare(wasm: bytes, max_memory_pages: int | None = None) -> PreparedModule:
    """Export every defined global, the start function, the dirty-page map and the growth cap; drop the
    start section; make every write to memory 0 mark the map and every growth of it respect the cap
    (`dirty`). With ``max_memory_pages``, memory 0 (if
    the module defines it) may grow to that many 64 KiB pages at most: its memory.grow answers -1
    beyond, as for the module's own maximum."""
    wasm = bytes(wasm)
    sections = _split_sections(wasm)

    imported_globals, memories = 0, list[_Memory]()
    type_params: list[int] = []
    function_types: list[int] = []
    defined_globals, global_entries, export_entries, start_function = 0, b"", None, None
    memory_section, code_section = None, None
    custom_sections: dict[str, bytes] = {}
    for section_id, body in sections:
        reader = _Reader(wasm, body.start, body.stop)
        if section_id == _CUSTOM:
            name = reader.name()
            if name in custom_sections:
                raise ValueError(f"malformed wasm: duplicate custom section {name!r}")
            custom_sections[name] = wasm[reader.pos : body.stop]
        elif section_id == _TYPE:
            type_params = _read_type_params(reader)
        elif section_id == _IMPORT:
            imported_globals, memories = _read_imports(reader)
        elif section_id == _FUNCTION:
            function_types = _read_function_types(reader, len(type_params))
        elif section_id == _MEMORY:
            memory_section = _read_memories(reader, memories)
        elif section_id == _GLOBAL:
            defined_globals = _read_global_count(reader)
            global_entries = wasm[reader.pos : body.stop]
        elif section_id == _EXPORT:
            export_entries = _read_exports(reader)
        elif section_id == _START:
            start_function = reader.uleb(32)
            reader.expect_end("start section")
        elif section_id == _CODE:
            code_section = body
    if len(memories) > 1:
        raise ValueError(f"the module has {len(memories)} memories; moxzid hosts modules with one")
    memory64 = bool(memories) and memories[0].is_64

    added: list[tuple[str, int, int]] = [
        (f"{GLOBAL_EXPORT_PREFIX}{index}", _GLOBAL_KIND, index)
        for index in range(imported_globals, imported_globals + defined_globals)
    ]
    if not memories:  # the IC installs a module without memory (an empty one is one)
        memories, memory_section = [_Memory(False, 0, 0)], (1, b"\x01\x00\x00")
        added.append((EMPTY_MEMORY_EXPORT, _MEM, 0))
    if start_function is not None:
        added.append((START_EXPORT, _FUNC, start_function))
    replaced: dict[int, bytes | None] = {_START: None}
    # the dirty-page map becomes memory 1, the growth cap the last global
    grow_cap = imported_globals + defined_globals
    replaced[_GLOBAL] = leb128.unsigned(defined_globals + 1) + global_entries + _GROW_CAP_GLOBAL
    map_limits = b"\x00" + leb128.unsigned(map_pages(memories[0].minimum))  # 32-bit, no maximum
    count, entries = memory_section or (0, b"")
    if count and max_memory_pages is not None:  # memory 0 is this one entry (one memory at most)
        entries = memories[0].capped(max_memory_pages)
    replaced[_MEMORY] = leb128.unsigned(count + 1) + entries + map_limits
    if code_section is not None:
        replaced[_CODE] = _instrument_code(
            wasm, code_section, type_params, function_types, memory64, map_index=1, grow_cap=grow_cap
        )
    added += ((DIRTY_PAGES_EXPORT, _MEM, 1), (GROW_CAP_EXPORT, _GLOBAL_KIND, grow_cap))
    existing_names, existing_entries = export_entries or ((), b"")
    for name, _, _ in added:
        if name in existing_names:
            raise ValueError(f"module already exports {name!r}, a name reserved for the host")
    replaced[_EXPORT] = (
        leb128.unsigned(len(existing_names) + len(added))
        + existing_entries
        + b"".join(_name(name) + bytes([kind]) + leb128.unsigned(index) for name, kind, index in added)
    )

    return PreparedModule(
        wasm=_assemble(wasm, sections, replaced),
        memory64=memory64,
        global_exports=tuple(name for name, _, _ in added if name.startswith(GLOBAL_EXPORT_PREFIX)),
        has_start=start_function is not None,
        custom_sections=MappingProxyType(custom_sections),
        size=len(wasm),
    )


def _assemble(wasm: bytes, sections: list[tuple[int, range]], replaced: dict[int, bytes | None]) -> bytes:
    """The module with the sections in `replaced` given new bodies (None: dropped); a replaced
    section the module lacks is added in its place in the section order."""
    pending = dict(replaced)
    out = bytearray(_HEADER)

    def add_pending(before_rank: int) -> None:
        for section_id in sorted(pending, key=_SECTION_ORDER.index):
            if _SECTION_ORDER.index(section_id) < before_rank:
                body = pending.pop(section_id)
                if body is not None:
                    out.extend(_section(section_id, body))

    for section_id, body in sections:
        if section_id != _CUSTOM:
            add_pending(_SECTION_ORDER.index(section_id))
            if section_id in pending:
                new_body = pending.pop(section_id)
                if new_body is not None:
                    out += _section(section_id, new_body)
                continue
        out += _section(section_id, wasm[body.start : body.stop])
    add_pending(len(_SECTION_ORDER))
    return bytes(out)


def _split_sections(wasm: bytes) -> list[tuple[int, range]]:
    """Section ids with the byte range of each body, checking framing and order."""
    if wasm[:4] != _HEADER[:4]:
        raise ValueError("not a wasm module: bad magic (expected \\0asm)")
    if wasm[4:8] != _HEADER[4:]:
        raise ValueError(f"unsupported wasm version {wasm[4:8].hex()} (expected 01000000)")
    reader = _Reader(wasm, len(_HEADER), len(wasm))
    sections = []
    last_rank = -1
    while not reader.at_end():
        offset = reader.pos
        section_id = reader.byte()
        if section_id != _CUSTOM:
            if section_id not in _SECTION_ORDER:
                raise ValueError(f"malformed wasm at byte {offset}: unknown section id {section_id}")
            rank = _SECTION_ORDER.index(section_id)
            if rank <= last_rank:
                raise ValueError(f"malformed wasm at byte {offset}: section {section_id} out of order")
            last_rank = rank
        size = reader.uleb(32)
        start = reader.pos
        reader.skip(size, f"section {section_id}")
        sections.append((section_id, range(start, reader.pos)))
    return sections


def _read_type_params(reader: "_Reader") -> list[int]:
    """The number of parameters of each function type."""
    params = []
    for _ in range(reader.uleb(32)):
        offset = reader.pos
        if reader.byte() != _FUNC_TYPE:
            raise ValueError(f"unsupported wasm at byte {offset}: a type that is not a function type")
        count = reader.uleb(32)
        for _ in range(count):
            reader.value_type()
        for _ in range(reader.uleb(32)):
            reader.value_type()
        params.append(count)
    reader.expect_end("type section")
    return params


def _read_function_types(reader: "_Reader", type_count: int) -> list[int]:
    """The type index of each function the module defines."""
    types = []
    for _ in range(reader.uleb(32)):
        offset = reader.pos
        index = reader.uleb(32)
        if index >= type_count:
            raise ValueError(f"malformed wasm at byte {offset}: type {index} of {type_count}")
        types.append(index)
    reader.expect_end("function section")
    return types


@dataclass(frozen=True)
class _Memory:
    is_64: bool
    minimum: int  # in 64 KiB pages
    maximum: int | None

    def capped(self, pages: int) -> bytes:
        """This memory's limits as a memory section entry, its maximum at most ``pages``."""
        maximum = pages if self.maximum is None else min(self.maximum, pages)
        if self.minimum > maximum:
            raise ValueError(f"the module's memory starts at {self.minimum} pages of 64 KiB, over the {pages} allowed")
        flags = 1 | (_LIMITS_64 if self.is_64 else 0)  # with a maximum
        return bytes([flags]) + leb128.unsigned(self.minimum) + leb128.unsigned(maximum)


def _read_imports(reader: "_Reader") -> tuple[int, list[_Memory]]:
    """Number of imported globals, and the imported memories."""
    globals_count, memories = 0, []
    for _ in range(reader.uleb(32)):
        reader.name()
        reader.name()
        kind_offset = reader.pos
        kind = reader.byte()
        if kind == _FUNC:
            reader.uleb(32)
        elif kind == _TABLE:
            reader.value_type()
            reader.limits()
        elif kind == _MEM:
            memories.append(_memory(reader))
        elif kind == _GLOBAL_KIND:
            reader.value_type()
            reader.mutability()
            globals_count += 1
        elif kind == _TAG:
            reader.expect_byte(0, "tag attribute")
            reader.uleb(32)
        else:
            raise ValueError(f"malformed wasm at byte {kind_offset}: unknown import kind {kind}")
    reader.expect_end("import section")
    return globals_count, memories


def _memory(reader: "_Reader") -> _Memory:
    offset = reader.pos
    is_64, minimum, maximum, page_size = reader.limits()
    if page_size is not None:
        raise ValueError(f"unsupported wasm at byte {offset}: a memory with pages of 2**{page_size} bytes")
    return _Memory(is_64, minimum, maximum)


def _read_memories(reader: "_Reader", memories: list[_Memory]) -> tuple[int, bytes]:
    """Append the defined memories to `memories`; return their count and raw entries."""
    count = reader.uleb(32)
    entries_start = reader.pos
    for _ in range(count):
        memories.append(_memory(reader))
    reader.expect_end("memory section")
    return count, reader.data[entries_start : reader.end]


def _instrument_code(
    wasm: bytes,
    body: range,
    type_params: list[int],
    function_types: list[int],
    memory64: bool,
    map_index: int,
    grow_cap: int,
) -> bytes:
    """The code section with every function's writes to memory 0 marking memory `map_index`, and its
    growths of memory 0 capped by global `grow_cap`."""
    reader = _Reader(wasm, body.start, body.stop)
    count = reader.uleb(32)
    if count != len(function_types):
        raise ValueError(f"malformed wasm: {count} function bodies for {len(function_types)} functions")
    out = [leb128.unsigned(count)]
    for type_index in function_types:
        size = reader.uleb(32)
        start = reader.pos
        reader.skip(size, "function body")
        new_body = instrument_body(
            _Reader(wasm, start, reader.pos), type_params[type_index], memory64, map_index, grow_cap
        )
        out += (leb128.unsigned(len(new_body)), new_body)
    reader.expect_end("code section")
    return b"".join(out)


def _read_global_count(reader: "_Reader") -> int:
    # Only the count matters here (wasmtime validates the definitions), but the count sizes the
    # export section this module writes, so it must be bounded by the bytes that back it.
    offset = reader.pos
    count = reader.uleb(32)
    if count * _MIN_GLOBAL_SIZE > reader.end - reader.pos:
        raise ValueError(f"malformed wasm at byte {offset}: {count} globals cannot fit in the section")
    return count


def _read_exports(reader: "_Reader") -> tuple[frozenset[str], bytes]:
    """The export names, and the raw bytes of all entries (without the count)."""
    names = set()
    count = reader.uleb(32)
    entries_start = reader.pos
    for _ in range(count):
        offset = reader.pos
        name = reader.name()
        if name in names:
            raise ValueError(f"malformed wasm at byte {offset}: duplicate export {name!r}")
        names.add(name)
        kind_offset = reader.pos
        if reader.byte() not in (_FUNC, _TABLE, _MEM, _GLOBAL_KIND, _TAG):
            raise ValueError(f"malformed wasm at byte {kind_offset}: unknown export kind")
        reader.uleb(32)
    reader.expect_end("export section")
    return frozenset(names), reader.data[entries_start : reader.end]


class _Reader:
    """A cursor over data[pos:end] that raises ValueError instead of reading past end."""

    def __init__(self, data: bytes, pos: int, end: int):
        self.data, self.pos, self.end = data, pos, end

    def _fail(self, message: str, offset: int | None = None) -> NoReturn:
        raise ValueError(f"malformed wasm at byte {self.pos if offset is None else offset}: {message}")

    def at_end(self) -> bool:
        return self.pos >= self.end

    def expect_end(self, what: str) -> None:
        if self.pos != self.end:
            self._fail(f"{self.end - self.pos} unexpected trailing byte(s) in {what}")

    def skip(self, size: int, what: str) -> None:
        if size > self.end - self.pos:
            self._fail(f"{what} is truncated: needs {size} bytes, {self.end - self.pos} left")
        self.pos += size

    def byte(self) -> int:
        if self.pos >= self.end:
            self._fail("unexpected end of data")
        self.pos += 1
        return self.data[self.pos - 1]

    def expect_byte(self, expected: int, what: str) -> None:
        if self.byte() != expected:
            self._fail(f"bad {what} (expected {expected:#x})", self.pos - 1)

    def uleb(self, bits: int) -> int:
        return self._leb(bits, signed=False)

    def sleb(self, bits: int) -> int:
        return self._leb(bits, signed=True)

    def _leb(self, bits: int, signed: bool) -> int:
        start = self.pos
        try:
            result, self.pos = leb128.read(self.data, self.pos, self.end, -(-bits // 7), is_signed=signed)
        except leb128.LebError as error:
            self._fail(
                "unexpected end of data" if error.truncated else f"LEB128 longer than {bits} bits",
                None if error.truncated else start,
            )
        # Bits beyond the declared width must be zero (or, when signed, copies of the sign).
        low, high = (-(1 << (bits - 1)), 1 << (bits - 1)) if signed else (0, 1 << bits)
        if not low <= result < high:
            self._fail(f"LEB128 value does not fit in {bits} bits", start)
        return result

    def name(self) -> str:
        size = self.uleb(32)
        start = self.pos
        self.skip(size, "name")
        try:
            return self.data[start : self.pos].decode("utf-8")
        except UnicodeDecodeError:
            self._fail("name is not valid UTF-8", start)

    def value_type(self) -> None:
        code = self.byte()
        if code in _REF_TYPE_PREFIXES:
            heap_type = self._leb(33, signed=True)
            if heap_type < 0 and (heap_type & 0x7F) not in _ABSTRACT_HEAP_TYPES:
                self._fail(f"unknown heap type {heap_type}", self.pos - 1)
        elif code not in _NUMBER_TYPES and code not in _ABSTRACT_HEAP_TYPES:
            self._fail(f"unknown value type {code:#x}", self.pos - 1)

    def mutability(self) -> None:
        if self.byte() not in (0, 1):
            self._fail("bad global mutability flag", self.pos - 1)

    def limits(self) -> tuple[bool, int, int | None, int | None]:
        """Read memory or table limits: whether they are 64-bit, the minimum, the maximum (None: none)
        and the log2 of a custom page size (None: none)."""
        offset = self.pos
        flags = self.byte()
        # Bits: 1 = has maximum, 2 = shared, 4 = 64-bit, 8 = custom page size.
        if flags & ~0x0F:
            self._fail(f"bad limits flags {flags:#x}", offset)
        is_64 = bool(flags & _LIMITS_64)
        minimum = self.uleb(64 if is_64 else 32)
        maximum = self.uleb(64 if is_64 else 32) if flags & 1 else None
        page_size = self.uleb(32) if flags & 8 else None
        return is_64, minimum, maximum, page_size


def _name(name: str) -> bytes:
    encoded = name.encode("utf-8")
    return leb128.unsigned(len(encoded)) + encoded


def _section(section_id: int, body: bytes) -> bytes:
    return bytes([section_id]) + leb128.unsigned(len(body)) + body
