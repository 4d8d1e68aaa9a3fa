"""Calls into one store's wasm and back out to Python, through wasmtime's unchecked C API.

A callback message's wasm is short and calls ic0 a handful of times, so wasmtime-py's typed calls were
most of an invoke's cost: each call into wasm looks up the function's type and converts every argument
and result through ``Val``; each call out to Python builds a ``Caller`` and a ``Val`` per parameter and
result (about 10 µs an ic0 call). Here a call into wasm passes its argument in a preallocated array of
raw values, and a host function is one ctypes callback that unpacks its raw arguments with one
``struct`` and writes its result in place. The unchecked API trusts the types, so they are checked
here: a host function's when it is defined, a function called into on its first call (wasmtime keeps
a store's functions until the store goes, so one checked stays what it was). Errors read as
wasmtime-py's do: what a host function raises is raised again from the call into wasm that ran it, a
trap is a ``wasmtime.Trap``. Like ``globals``, this leans on wasmtime-py's ``_ffi`` and
``_bindings``, which is why wasmtime is pinned.
"""

from __future__ import annotations

import ctypes
import itertools
import struct
from collections.abc import Callable

import wasmtime
from wasmtime import _bindings
from wasmtime import _ffi as ffi

_Number = ctypes.c_int32 | ctypes.c_int64 | ctypes.c_float | ctypes.c_double
_RAW = ctypes.sizeof(ffi.wasmtime_val_raw_t)  # one slot of a raw argument/result array
_FUNC = ctypes.sizeof(ffi.wasmtime_func_t)  # a function's handle: its store's id, its index there
_SLOTS = 2  # the most arguments, and results, a call into wasm passes (`shadow`'s: two of each)
# The struct code and ctypes type of a raw value, by value type (ctypes wraps an int into the type's
# range, as wasmtime-py's Val does)
_KINDS: dict[str, tuple[str, type[_Number]]] = {
    "i32": ("i", ctypes.c_int32),
    "i64": ("q", ctypes.c_int64),
    "f32": ("f", ctypes.c_float),
    "f64": ("d", ctypes.c_double),
}
_P = ctypes.c_void_p
_HOST = ctypes.CFUNCTYPE(ctypes.c_size_t, _P, _P, _P, ctypes.c_size_t)  # (env, caller, raw values, count) -> trap
_FINALIZE = ctypes.CFUNCTYPE(None, _P)
# The C functions, given plain addresses so ctypes converts no argument. All but the call into wasm are
# called holding the GIL (PYFUNCTYPE), as globals.py' are: they return in well under a microsecond,
# and one that let go of it would let a thread beside take it for up to the switch interval. The wasm
# runs without it (other actors and the HTTP server keep going), and its host functions take it back.
_define = ctypes.cast(
    _bindings._wasmtime_linker_define_func_unchecked,
    ctypes.PYFUNCTYPE(
        _P, _P, ctypes.c_char_p, ctypes.c_size_t, ctypes.c_char_p, ctypes.c_size_t, _P, _HOST, _P, _FINALIZE
    ),
)
_new = ctypes.cast(_bindings._wasmtime_func_new_unchecked, ctypes.PYFUNCTYPE(None, _P, _P, _HOST, _P, _FINALIZE, _P))
_call = ctypes.cast(_bindings._wasmtime_func_call_unchecked, ctypes.CFUNCTYPE(_P, _P, _P, _P, ctypes.c_size_t, _P))
_table_get = ctypes.cast(_bindings._wasmtime_table_get, ctypes.PYFUNCTYPE(ctypes.c_bool, _P, _P, ctypes.c_uint64, _P))
_set_fuel = ctypes.cast(_bindings._wasmtime_context_set_fuel, ctypes.PYFUNCTYPE(_P, _P, ctypes.c_uint64))
_get_fuel = ctypes.cast(_bindings._wasmtime_context_get_fuel, ctypes.PYFUNCTYPE(_P, _P, _P))
_set_epoch_deadline = ctypes.cast(
    _bindings._wasmtime_context_set_epoch_deadline, ctypes.PYFUNCTYPE(None, _P, ctypes.c_uint64)
)
_trap_new = ctypes.cast(_bindings._wasmtime_trap_new, ctypes.PYFUNCTYPE(_P, ctypes.c_char_p, ctypes.c_size_t))
_HOST_RAISED = b"python exception"  # the trap a host function's exception unwinds the wasm with

# The ctypes callbacks of host functions, by the env wasmtime hands back: wasmtime calls their finalizer
# when the last store (or linker) holding them goes, and only then may their code go.
_LIVE: dict[int, Callable[..., int]] = {}
_keys = itertools.count(1)


@_FINALIZE
def _release(env: int | None) -> None:
    _LIVE.pop(env or 0, None)


def _kind(ty: wasmtime.ValType) -> tuple[str, type[_Number]] | None:
    return _KINDS.get(str(ty))


def _address(pointer) -> int:
    return ctypes.cast(pointer, _P).value or 0


def _error(pointer: int) -> wasmtime.WasmtimeError:
    return wasmtime.WasmtimeError._from_ptr(ctypes.cast(pointer, ctypes.POINTER(ffi.wasmtime_error_t)))


class WasmCalls:
    """Calls into the wasm of ``store``, and the host functions that wasm calls (`define`)."""

    def __init__(self, store: wasmtime.Store):
        self._store = store
        # The store's context, for the C functions: it stays where it is while the store lives, and
        # this holds the store.
        self._context = _address(store._context())
        # What a host function raised in the running call. The host functions hold this list, not this
        # object: it holds the store, which holds them until it goes.
        self._raised: list[BaseException] = []
        self._values = (ffi.wasmtime_val_raw_t * _SLOTS)()  # a call's arguments (a callback's env), results
        # Each slot as each type: slot i's ctype object holds the i-th argument, then the i-th result.
        self._slots = [
            {ctype: ctype.from_buffer(self._values, i * _RAW) for _, ctype in _KINDS.values()} for i in range(_SLOTS)
        ]
        self._values_at = ctypes.addressof(self._values)
        self._trap = _P()
        self._trap_at = ctypes.addressof(self._trap)
        self._element = ffi.wasmtime_val_t()  # a table's element, as looked up
        self._element_function = ctypes.addressof(self._element) + ffi.wasmtime_val_t.of.offset
        # The ctypes of the parameters and results of each function called, by its handle
        self._types: dict[bytes, tuple[list[type[_Number]], list[type[_Number]]]] = {}

    # --- the store's budgets --------------------------------------------------------------------------
    def set_fuel(self, fuel: int) -> None:
        error = _set_fuel(self._context, fuel)
        if error:
            raise _error(error)

    def fuel(self) -> int:
        left = ctypes.c_uint64()
        error = _get_fuel(self._context, ctypes.addressof(left))
        if error:
            raise _error(error)
        return left.value

    def set_epoch_deadline(self, ticks: int) -> None:
        _set_epoch_deadline(self._context, ticks)

    # --- into wasm ----------------------------------------------------------------------------------
    def call(self, func: wasmtime.Func, *args: int) -> list[int | float]:
        """Call ``func`` with ``args`` (at most two); its results (at most two). Raises as wasmtime-py's
        ``Func.__call__`` does."""
        return self._call(ctypes.addressof(func._func), args)

    def call_element(self, table: wasmtime.Table, index: int, *args: int) -> bool:
        """Call the function at ``index`` of ``table`` as `call` does; False, calling nothing, where
        there is none (a null reference or not a function) or ``index`` is past the table's end. Its
        results are dropped."""
        element = self._element
        if not _table_get(self._context, ctypes.addressof(table._table), index, ctypes.addressof(element)):
            return False
        if element.kind != ffi.WASMTIME_FUNCREF.value or element.of.funcref.store_id == 0:
            return False
        self._call(self._element_function, args)
        return True

    def _call(self, function: int, args: tuple[int, ...]) -> list[int | float]:
        handle = ctypes.string_at(function, _FUNC)
        types = self._types.get(handle)
        if types is None:
            types = self._types[handle] = self._check(handle)
        params, results = types
        if len(args) != len(params):
            word = "many" if len(args) > len(params) else "few"
            raise wasmtime.WasmtimeError(f"too {word} parameters provided: given {len(args)}, expected {len(params)}")
        for slot, ctype, arg in zip(self._slots, params, args):
            slot[ctype].value = arg
        self._trap.value = None
        self._raised.clear()  # (what a host function raised under a call of wasmtime-py's own)
        error = _call(self._context, function, self._values_at, len(self._values), self._trap_at)
        failure: Exception | None = _error(error) if error else None
        if self._trap:
            failure = wasmtime.Trap._from_ptr(ctypes.cast(self._trap, ctypes.POINTER(ffi.wasm_trap_t)))
        if self._raised:
            raise self._raised.pop()
        if failure is not None:
            raise failure
        return [slot[ctype].value for slot, ctype in zip(self._slots, results)]

    def _check(self, handle: bytes) -> tuple[list[type[_Number]], list[type[_Number]]]:
        """The ctypes of the parameters and the results of the function ``handle`` names, which an
        unchecked call must match."""
        ty = wasmtime.Func._from_raw(ffi.wasmtime_func_t.from_buffer_copy(handle)).type(self._store)
        params, results = [_kind(t) for t in ty.params], [_kind(t) for t in ty.results]
        if len(params) > _SLOTS or len(results) > _SLOTS or None in params or None in results:
            raise wasmtime.WasmtimeError(f"moxzid calls no function of type {ty.params} -> {ty.results}")
        return [k[1] for k in params if k is not None], [k[1] for k in results if k is not None]

    # --- out of wasm --------------------------------------------------------------------------------
    def define(
        self, linker: wasmtime.Linker, module: str, name: str, ty: wasmtime.FuncType, function: Callable
    ) -> None:
        """Define ``module.name`` in ``linker`` as a host function of type ``ty``: ``function``, called
        with the wasm's arguments (ints or floats), returns its result (None where ``ty`` has none)."""
        callback, key = self._host(ty, function, f"{module}.{name}")
        module_name, field = module.encode(), name.encode()
        linker_at, ty_at = _address(linker.ptr()), _address(ty.ptr())
        error = _define(linker_at, module_name, len(module_name), field, len(field), ty_at, callback, key, _release)
        if error:
            raise _error(error)

    def func(self, ty: wasmtime.FuncType, function: Callable) -> wasmtime.Func:
        """A host function of this store, as `define` makes one."""
        callback, key = self._host(ty, function, "a host function")
        made = ffi.wasmtime_func_t()
        _new(self._context, _address(ty.ptr()), callback, key, _release, ctypes.addressof(made))
        return wasmtime.Func._from_raw(made)

    def _host(self, ty: wasmtime.FuncType, function: Callable, what: str) -> tuple[Callable[..., int], int]:
        """The ctypes callback that calls ``function`` as a host function of type ``ty``, and the env
        that keeps it alive until wasmtime finalizes it."""
        params = [_kind(param) for param in ty.params]
        results = [_kind(result) for result in ty.results]
        if None in params or None in results or len(results) > 1:
            raise ValueError(f"{what} has a type moxzid does not pass: {ty.params} -> {ty.results}")
        layout = struct.Struct("<" + "".join(f"{kind[0]}{_RAW - struct.calcsize(kind[0])}x" for kind in params if kind))
        unpack, size = layout.unpack, layout.size
        result = results[0][1] if results and results[0] else None
        raised = self._raised

        def host(env: int, caller: int, values: int, count: int) -> int:
            try:
                out = function(*unpack(ctypes.string_at(values, size)))
                if result is not None:
                    result.from_address(values).value = out
                elif out is not None:
                    raise wasmtime.WasmtimeError("callback produced results when it shouldn't")
                return 0
            except BaseException as error:  # noqa: BLE001 -- raised again from the call into wasm
                raised.append(error)
                return _trap_new(_HOST_RAISED, len(_HOST_RAISED)) or 0

        key = next(_keys)
        _LIVE[key] = callback = _HOST(host)
        return callback, key
