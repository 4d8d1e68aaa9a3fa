"""An instance's mutable globals, read and written in one go.

Every message reads them (commit) and every query writes them back (rollback, or a replica catching
up); Motoko modules have dozens. wasmtime-py's ``Global.value`` / ``set_value`` look up the global's
type and convert through ``Val`` each time (about 20 µs a global), so numeric globals (all Motoko uses)
go straight through wasmtime's C API instead (about 1 µs); any other kind takes wasmtime-py's way.
This leans on wasmtime-py's ``_ffi`` module, which is why wasmtime is pinned.
"""

from __future__ import annotations

import ctypes
from typing import Any

import wasmtime
from wasmtime import _ffi as ffi

# wasmtime_val_t's kind -> the field of its union that holds the value
_FIELDS = {
    ffi.WASMTIME_I32.value: "i32",
    ffi.WASMTIME_I64.value: "i64",
    ffi.WASMTIME_F32.value: "f32",
    ffi.WASMTIME_F64.value: "f64",
}
_KINDS = {
    "i32": ffi.WASMTIME_I32.value,
    "i64": ffi.WASMTIME_I64.value,
    "f32": ffi.WASMTIME_F32.value,
    "f64": ffi.WASMTIME_F64.value,
}


class Globals:
    """The given globals of one store; values are Python ints and floats, in the given order."""

    def __init__(self, store: wasmtime.Store, globals_: list[wasmtime.Global]):
        self._store = store
        self._globals = globals_
        # (global, its C handle, a value buffer, the union field) for numeric globals; None otherwise
        self._raw: list[tuple[Any, Any, Any, str] | None] = []
        for g in globals_:
            field = str(g.type(store).content)
            if field in _KINDS:
                value = ffi.wasmtime_val_t(kind=_KINDS[field])
                self._raw.append((ctypes.byref(g._global), value, ctypes.byref(value), field))
            else:
                self._raw.append(None)

    def read(self) -> list:
        context = self._store._context()
        values = []
        for g, raw in zip(self._globals, self._raw):
            if raw is None:
                values.append(g.value(self._store))
                continue
            handle, value, ref, field = raw
            ffi.wasmtime_global_get(context, handle, ref)
            values.append(getattr(value.of, field))
        return values

    def write(self, values: list) -> None:
        context = self._store._context()
        for g, raw, v in zip(self._globals, self._raw, values, strict=True):
            if raw is None:
                g.set_value(self._store, v)
                continue
            handle, value, ref, field = raw
            setattr(value.of, field, v)
            error = ffi.wasmtime_global_set(context, handle, ref)
            if error:
                raise wasmtime.WasmtimeError._from_ptr(error)
