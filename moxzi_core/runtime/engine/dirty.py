"""Make a function body record what it writes: every write to memory 0 marks its 4 KiB pages.

The marks go to a dirty-page map, a second linear memory the rewriter adds (`rewrite.prepare`):
one byte per 4 KiB page of memory 0, nonzero = written since the host last cleared it. The map grows
with memory 0, so the page number of any address memory 0 has is an index into the map. It is a
32-bit memory even beside a memory64 heap (4 GiB of marks cover 16 TiB), which lets wasmtime check
its bounds with guard pages instead of code. The host reads and clears the map after each message
(`memory.TrackedMemory`).

What is instrumented, always *before* the write runs (a write that traps may have marked its pages;
the host only ever sees a superset of what changed, never less):

- `*.store*`: the pages of the first and the last byte written (a store can span two pages);
- `memory.fill`, `memory.copy` (destination), `memory.init` (destination): every page of the range;
- `memory.grow`: afterwards, the map grows to cover the new pages. The host counts grown pages as
  written by itself, from the memory's size.

One more check, not a mark: before `memory.grow`, a growth that would take memory 0 past the pages
in the growth cap (a mutable i64 global the rewriter adds, which the host sets before each message:
`memory_budget`) is made to fail as a growth past the memory's maximum does (it answers -1).

The decoder knows the MVP, bulk memory, sign extension, saturating truncation, multi-value block
types, reference types, tail calls and memory64 immediates. Anything else (SIMD, atomics,
exceptions, GC) raises ValueError: an opcode this module does not understand could be a write it
would miss. Instructions that name a memory other than 0 are refused for the same reason.
"""

from typing import Protocol

from ... import leb128

PAGE_BITS = 12  # 4 KiB: the host's page of change tracking
# A 64 KiB page of the map holds 65536 marks of 4 KiB each: it covers 4096 pages of memory 0.
_MEMORY_PAGES_PER_MAP_PAGE_BITS = 12

_I32, _I64, _F32, _F64 = 0x7F, 0x7E, 0x7D, 0x7C
_EMPTY_BLOCK = 0x40

# Store opcodes: (type of the stored value, bytes written).
_STORES = {
    0x36: (_I32, 4),
    0x37: (_I64, 8),
    0x38: (_F32, 4),
    0x39: (_F64, 8),
    0x3A: (_I32, 1),
    0x3B: (_I32, 2),
    0x3C: (_I64, 1),
    0x3D: (_I64, 2),
    0x3E: (_I64, 4),
}
_MEMORY_SIZE, _MEMORY_GROW, _BULK = 0x3F, 0x40, 0xFC
_MEMORY_INIT, _MEMORY_COPY, _MEMORY_FILL = 8, 10, 11

# Immediates of single-byte opcodes.
(
    _NONE,
    _BLOCK,
    _INDEX,
    _TWO_INDICES,
    _BR_TABLE,
    _SELECT_TYPES,
    _MEMARG,
    _MEMORY_INDEX,
    _S32,
    _S64,
    _F32_BITS,
    _F64_BITS,
    _HEAP_TYPE,
    _PREFIXED,
) = range(14)
_IMMEDIATES: dict[int, int] = {
    0x00: _NONE,
    0x01: _NONE,  # unreachable, nop
    0x02: _BLOCK,
    0x03: _BLOCK,
    0x04: _BLOCK,
    0x05: _NONE,
    0x0B: _NONE,  # block loop if else end
    0x0C: _INDEX,
    0x0D: _INDEX,
    0x0E: _BR_TABLE,
    0x0F: _NONE,  # br br_if br_table return
    0x10: _INDEX,
    0x11: _TWO_INDICES,  # call, call_indirect (type, table)
    0x12: _INDEX,
    0x13: _TWO_INDICES,  # return_call, return_call_indirect
    0x1A: _NONE,
    0x1B: _NONE,
    0x1C: _SELECT_TYPES,  # drop, select, select t*
    0x20: _INDEX,
    0x21: _INDEX,
    0x22: _INDEX,
    0x23: _INDEX,
    0x24: _INDEX,  # local.*, global.*
    0x25: _INDEX,
    0x26: _INDEX,  # table.get, table.set
    **{op: _MEMARG for op in range(0x28, 0x3F)},  # loads and stores
    _MEMORY_SIZE: _MEMORY_INDEX,
    _MEMORY_GROW: _MEMORY_INDEX,
    0x41: _S32,
    0x42: _S64,
    0x43: _F32_BITS,
    0x44: _F64_BITS,
    **{op: _NONE for op in range(0x45, 0xC5)},  # numeric operators, sign extension
    0xD0: _HEAP_TYPE,
    0xD1: _NONE,
    0xD2: _INDEX,  # ref.null, ref.is_null, ref.func
    _BULK: _PREFIXED,
}
# 0xFC-prefixed writes to memory, and how many memory indices each names (memory.init: after its
# data segment).
_BULK_WRITES = {_MEMORY_INIT: 1, _MEMORY_COPY: 2, _MEMORY_FILL: 1}
# The other 0xFC-prefixed opcodes, and how many u32 indices each takes.
_BULK_INDICES = {
    **{sub: 0 for sub in range(8)},  # saturating truncation
    9: 1,  # data.drop
    12: 2,
    13: 1,
    14: 2,
    15: 1,
    16: 1,
    17: 1,  # table.init elem.drop table.copy grow size fill
}


class Reader(Protocol):
    """What this module needs of `rewrite`'s reader, bounded to one function body."""

    data: bytes
    pos: int

    def at_end(self) -> bool: ...
    def byte(self) -> int: ...
    def uleb(self, bits: int) -> int: ...
    def sleb(self, bits: int) -> int: ...
    def skip(self, size: int, what: str) -> None: ...
    def value_type(self) -> None: ...


def instrument_body(reader: Reader, param_count: int, memory64: bool, dirty_map: int, grow_cap: int) -> bytes:
    """The function body under `reader`, with its writes to memory 0 marking memory `dirty_map`, and
    its growths of memory 0 refused past the pages in global `grow_cap`.

    Instructions are copied byte for byte; marking code is inserted around the writes and uses new
    locals appended to the function's own. A body without writes comes back unchanged."""
    data = reader.data
    body_start = reader.pos
    local_groups = reader.uleb(32)
    groups_end = reader.pos
    local_count = param_count
    for _ in range(local_groups):
        local_count += reader.uleb(32)
        reader.value_type()
    code_start = reader.pos
    marker = _Marker(memory64, dirty_map, grow_cap, first_local=local_count)
    pieces: list[bytes] = []
    copied_to = code_start
    while not reader.at_end():
        at = reader.pos
        opcode = reader.byte()
        kind = _IMMEDIATES.get(opcode)
        if kind == _NONE:
            continue
        if kind == _INDEX:
            reader.uleb(32)
        elif kind == _MEMARG:
            if reader.uleb(32) & 0x40:  # alignment flags: bit 6 says a memory index follows
                raise ValueError(f"unsupported instruction at byte {at}: it names a memory (only memory 0 is tracked)")
            offset = reader.uleb(64 if memory64 else 32)
            if opcode in _STORES:
                pieces += (data[copied_to:at], marker.before_store(*_STORES[opcode], offset))
                copied_to = at
        elif kind == _S32:
            reader.sleb(32)
        elif kind == _S64:
            reader.sleb(64)
        elif kind == _BLOCK:
            _block_type(reader)
        elif kind == _PREFIXED:
            sub = reader.uleb(32)
            if sub in _BULK_WRITES:
                if sub == _MEMORY_INIT:
                    reader.uleb(32)  # data segment
                _expect_memory_zero(reader, at, memories=_BULK_WRITES[sub])
                pieces += (data[copied_to:at], marker.before_bulk(sub))
                copied_to = at
            else:
                for _ in range(_bulk_indices(sub, at)):
                    reader.uleb(32)
        elif kind == _MEMORY_INDEX:
            _expect_memory_zero(reader, at, memories=1)
            if opcode == _MEMORY_GROW:
                pieces += (data[copied_to:at], marker.before_grow(), data[at : reader.pos], marker.after_grow())
                copied_to = reader.pos
        elif kind == _TWO_INDICES:
            reader.uleb(32)
            reader.uleb(32)
        elif kind == _BR_TABLE:
            for _ in range(reader.uleb(32) + 1):
                reader.uleb(32)
        elif kind == _F32_BITS:
            reader.skip(4, "f32 constant")
        elif kind == _F64_BITS:
            reader.skip(8, "f64 constant")
        elif kind == _SELECT_TYPES:
            for _ in range(reader.uleb(32)):
                reader.value_type()
        elif kind == _HEAP_TYPE:
            reader.sleb(33)
        else:
            raise ValueError(f"unsupported instruction at byte {at}: opcode {opcode:#04x}")
    if not pieces:
        return data[body_start : reader.pos]
    return b"".join(
        (
            leb128.unsigned(local_groups + len(marker.LOCALS)),
            data[groups_end:code_start],
            marker.local_declarations(),
            *pieces,
            data[copied_to : reader.pos],
        )
    )


def map_pages(memory_pages: int) -> int:
    """Pages (64 KiB) of dirty map that cover `memory_pages` pages (64 KiB) of memory 0.

    A map page holds 65536 marks of 4 KiB each, which cover 4096 pages of memory."""
    return -(-memory_pages >> _MEMORY_PAGES_PER_MAP_PAGE_BITS)


def _block_type(reader: Reader) -> None:
    if reader.at_end():
        reader.byte()  # raises: unexpected end of data
    code = reader.data[reader.pos]
    if code == _EMPTY_BLOCK:
        reader.pos += 1
    elif _EMPTY_BLOCK < code < 0x80:  # a value type (one byte, or a reference type's prefix)
        reader.value_type()
    else:
        at = reader.pos
        if reader.sleb(33) < 0:
            raise ValueError(f"malformed wasm at byte {at}: bad block type")


def _bulk_indices(sub: int, at: int) -> int:
    """How many u32 indices follow 0xFC `sub` (one that does not write memory 0)."""
    count = _BULK_INDICES.get(sub)
    if count is None:
        raise ValueError(f"unsupported instruction at byte {at}: opcode 0xfc {sub}")
    return count


def _expect_memory_zero(reader: Reader, at: int, memories: int) -> None:
    """Read the instruction's remaining indices; the last `memories` of them name memories."""
    indices = [reader.uleb(32) for _ in range(memories)]
    if any(indices):
        raise ValueError(
            f"unsupported instruction at byte {at}: it names memory {max(indices)} (only memory 0 is tracked)"
        )


class _Marker:
    """The marking code inserted into one function, and the scratch locals it uses.

    Every instrumented function gets the same scratch locals, appended after its own: three of the
    address type (A), three i32, one each of i64, f32 and f64."""

    LOCALS = ("address", _I32, _I64, _F32, _F64)  # local groups, in declaration order
    _GROUP_SIZES = (3, 3, 1, 1, 1)

    def __init__(self, memory64: bool, dirty_map: int, grow_cap: int, first_local: int):
        self._bits = 64 if memory64 else 32
        self._address_type = _I64 if memory64 else _I32
        self._map = leb128.unsigned(dirty_map)
        self._grow_cap = leb128.unsigned(grow_cap)
        self._first = {}
        index = first_local
        for group, size in zip(self.LOCALS, self._GROUP_SIZES):
            self._first[group] = index
            index += size

    def local_declarations(self) -> bytes:
        types = (self._address_type, _I32, _I64, _F32, _F64)
        return b"".join(leb128.unsigned(size) + bytes([type_]) for size, type_ in zip(self._GROUP_SIZES, types))

    # --- pieces of code --------------------------------------------------------------------------
    def _get(self, group, slot: int = 0) -> bytes:
        return b"\x20" + leb128.unsigned(self._first[group] + slot)

    def _set(self, group, slot: int = 0) -> bytes:
        return b"\x21" + leb128.unsigned(self._first[group] + slot)

    def _tee(self, group, slot: int = 0) -> bytes:
        return b"\x22" + leb128.unsigned(self._first[group] + slot)

    def _const(self, value: int) -> bytes:
        """An address-typed constant: `value` modulo 2**bits, as the signed LEB128 wasm wants."""
        value &= (1 << self._bits) - 1
        if value >= 1 << (self._bits - 1):
            value -= 1 << self._bits
        return (b"\x42" if self._bits == 64 else b"\x41") + leb128.signed(value)

    def _op(self, name: str) -> bytes:
        """An address-typed arithmetic or comparison operator."""
        return bytes([_ADDRESS_OPS[name][self._bits == 64]])

    def _plus(self, value: bytes, constant: int) -> bytes:
        return value + self._const(constant) + self._op("add") if constant else value

    def _to_i32(self, value: bytes) -> bytes:
        """An address-typed value as an i32 (wrapped: only a page number that could not exist, one
        of a memory over 16 TiB, changes, and such a store traps anyway)."""
        return value + b"\xa7" if self._bits == 64 else value  # i32.wrap_i64

    def _page(self, address: bytes) -> bytes:
        """The address-typed page number of an address."""
        return address + self._const(PAGE_BITS) + self._op("shr_u")

    def _mark_page(self, page: bytes) -> bytes:
        # i32.store8 into the map: alignment flags 0x40 (a memory index follows), map, offset 0.
        return self._to_i32(page) + b"\x41\x01" + b"\x3a\x40" + self._map + b"\x00"

    def _mark_range(self, start: bytes, length: bytes) -> bytes:
        """Mark every page of [start, start + length), unless length is 0."""
        last_page = self._page(start + length + self._op("add") + self._const(1) + self._op("sub"))
        page_count = last_page + self._page(start) + self._op("sub") + self._const(1) + self._op("add")
        fill = b"\xfc" + leb128.unsigned(_MEMORY_FILL) + self._map
        return (
            length
            + self._const(0)
            + self._op("ne")
            + _IF
            + self._to_i32(self._page(start))
            + b"\x41\x01"
            + self._to_i32(page_count)
            + fill
            + _END
        )

    # --- what the instrumented function runs -------------------------------------------------------
    def before_store(self, value_type: int, width: int, offset: int) -> bytes:
        """Stack [address, value] -> the same, after marking the pages of the first and last byte."""
        code = self._set(value_type) + self._set("address")
        code += self._mark_page(self._page(self._plus(self._get("address"), offset)))
        if width > 1:
            code += self._mark_page(self._page(self._plus(self._get("address"), offset + width - 1)))
        return code + self._get("address") + self._get(value_type)

    def before_bulk(self, sub: int) -> bytes:
        """Stack [destination, source or value, length] -> the same, after marking the destination."""
        middle: tuple[int | str, int]  # a local: (its group, the slot in it)
        length: tuple[int | str, int]
        if sub == _MEMORY_INIT:  # [address, i32 offset in the segment, i32 length]
            middle, length = (_I32, 0), (_I32, 1)
            length_code = self._get(*length) + (b"\xad" if self._bits == 64 else b"")  # extend_i32_u
        elif sub == _MEMORY_FILL:  # [address, i32 byte value, address-typed length]
            middle, length = (_I32, 0), ("address", 2)
            length_code = self._get(*length)
        else:  # memory.copy: [address, address, address-typed length]
            middle, length = ("address", 1), ("address", 2)
            length_code = self._get(*length)
        code = self._set(*length) + self._set(*middle) + self._set("address")
        code += self._mark_range(self._get("address"), length_code)
        return code + self._get("address") + self._get(*middle) + self._get(*length)

    def before_grow(self) -> bytes:
        """Stack [pages to grow by] -> the same, or a growth no memory can take (all ones: memory.grow
        answers -1) if memory 0 would pass the growth cap's pages (compared as u64: an i32 memory's
        sizes extended, so nothing overflows; a memory64 growth so large that the sum wraps fails in
        memory.grow anyway)."""

        def as_u64(value: bytes) -> bytes:
            return value if self._bits == 64 else value + b"\xad"  # i64.extend_i32_u

        past_cap = (
            as_u64(b"\x3f\x00")  # memory.size 0
            + as_u64(self._get("address"))
            + b"\x7c"  # i64.add
            + b"\x23"  # global.get
            + self._grow_cap
            + b"\x56"  # i64.gt_u
        )
        return self._set("address") + self._const(-1) + self._get("address") + past_cap + b"\x1b"  # select

    def after_grow(self) -> bytes:
        """Stack [old size or -1] -> the same, after growing the map to cover memory 0."""
        map_size = b"\x3f" + self._map + (b"\xad" if self._bits == 64 else b"")  # i64.extend_i32_u
        missing = (
            b"\x3f\x00"
            + self._const((1 << _MEMORY_PAGES_PER_MAP_PAGE_BITS) - 1)
            + self._op("add")
            + self._const(_MEMORY_PAGES_PER_MAP_PAGE_BITS)
            + self._op("shr_u")
            + map_size
            + self._op("sub")
        )
        # The map cannot grow (it is a 32-bit memory: at most 4 GiB of marks): trap.
        refused = self._to_i32(self._get("address", 1)) + b"\x40" + self._map + b"\x41\x7f\x46"  # == -1
        if self._bits == 64:
            refused += self._get("address", 1) + self._const(0xFFFFFFFF) + b"\x56\x72"  # i64.gt_u, i32.or
        return (
            self._tee("address")
            + self._const(-1)
            + self._op("ne")
            + _IF
            + missing
            + self._tee("address", 1)
            + self._const(0)
            + self._op("gt_s")
            + _IF
            + refused
            + _IF
            + b"\x00"
            + _END
            + _END
            + _END
            + self._get("address")
        )


_IF, _END = b"\x04\x40", b"\x0b"
# Address-typed operators: name -> (i32 opcode, i64 opcode).
_ADDRESS_OPS = {
    "add": (0x6A, 0x7C),
    "sub": (0x6B, 0x7D),
    "shr_u": (0x76, 0x88),
    "eq": (0x46, 0x51),
    "ne": (0x47, 0x52),
    "gt_s": (0x4A, 0x55),
}
