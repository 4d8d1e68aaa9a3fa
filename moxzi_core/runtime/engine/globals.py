"""An instance's mutable globals, read and written in one go.

Every message reads them (commit) and every query writes them back (rollback, or a replica catching
up); Motoko modules have dozens. wasmtime-py's ``Global.value`` / ``set_value`` look up the global's
type and convert through ``Val`` each time (about 20 µs a global), so numeric globals (all Motoko uses)
go straight through wasmtime's C API instead: each into its slot of one array of ``wasmtime_val_t``,
which one ``struct`` unpacks (or packs) whole, the C functions called with plain addresses, so ctypes
converts no argument (about 1 µs a global, a third of going through wasmtime-py's typed bindings). Any
other kind takes wasmtime-py's way. This leans on wasmtime-py's ``_ffi`` and ``_bindings`` modules,
which is why wasmtime is pinned.
"""

from __future__ import annotations

import ctypes
import struct

import wasmtime
from wasmtime import _bindings
from wasmtime import _ffi as ffi

# wasmtime_val_t's kind and the struct code of the union field that holds the value, by value type
_KINDS = {
    "i32": (ffi.WASMTIME_I32.value, "i"),
    "i64": (ffi.WASMTIME_I64.value, "q"),
    "f32": (ffi.WASMTIME_F32.value, "f"),
    "f64": (ffi.WASMTIME_F64.value, "d"),
}
_SIZE = ctypes.sizeof(ffi.wasmtime_val_t)
_OF = ffi.wasmtime_val_t.of.offset  # the union's place after the kind byte
_ADDRESSES = ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p  # (context, global, value)
# Called holding the GIL (PYFUNCTYPE): each returns in well under a microsecond, and one that let go of
# it would let a thread running Python beside take it for up to the switch interval (a commit's 36
# reads with a busy thread beside: 37 µs letting go, 22 holding on).
_get = ctypes.cast(_bindings._wasmtime_global_get, ctypes.PYFUNCTYPE(None, *_ADDRESSES))
_set = ctypes.cast(_bindings._wasmtime_global_set, ctypes.PYFUNCTYPE(ctypes.c_void_p, *_ADDRESSES))


class Globals:
    """The given globals of one store; values are Python ints and floats, in the given order."""

    def __init__(self, store: wasmtime.Store, globals_: list[wasmtime.Global]):
        self._store = store
        self._globals = globals_
        self.types = [str(g.type(store).content) for g in globals_]  # their wasm value types ("i32", ...)
        self._slots = (ffi.wasmtime_val_t * len(globals_))()
        # (index, the global's address, its slot's address) of the numeric ones; the others by index
        self._numeric: list[tuple[int, int, int]] = []
        self._other: list[int] = []
        layout, kinds = "<", []
        for i, g in enumerate(globals_):
            kind = _KINDS.get(str(g.type(store).content))
            address = ctypes.addressof(self._slots) + i * _SIZE
            if kind is None:
                self._other.append(i)
                layout += f"{_SIZE}x"
                continue
            self._numeric.append((i, ctypes.addressof(g._global), address))
            code = kind[1]
            layout += f"B{_OF - 1}x{code}{_SIZE - _OF - struct.calcsize('<' + code)}x"
            kinds.append(kind[0])
        self._layout = struct.Struct(layout)  # (kind, value) of each numeric slot
        self._kinds = kinds

    def _context(self) -> int:
        return ctypes.cast(self._store._context(), ctypes.c_void_p).value or 0

    def read(self) -> list:
        context = self._context()
        for _, handle, slot in self._numeric:
            _get(context, handle, slot)
        numeric = self._layout.unpack_from(self._slots)[1::2]
        if not self._other:
            return list(numeric)
        values: list = [None] * len(self._globals)
        for (i, _, _), value in zip(self._numeric, numeric, strict=True):
            values[i] = value
        for i in self._other:
            values[i] = self._globals[i].value(self._store)
        return values

    def write(self, values: list) -> None:
        if len(values) != len(self._globals):
            raise ValueError(f"{len(values)} values for {len(self._globals)} globals")
        numeric = [values[i] for i, _, _ in self._numeric]
        self._layout.pack_into(self._slots, 0, *(x for pair in zip(self._kinds, numeric) for x in pair))
        context = self._context()
        for _, handle, slot in self._numeric:
            error = _set(context, handle, slot)
            if error:
                raise wasmtime.WasmtimeError._from_ptr(ctypes.cast(error, ctypes.POINTER(ffi.wasmtime_error_t)))
        for i in self._other:
            self._globals[i].set_value(self._store, values[i])
