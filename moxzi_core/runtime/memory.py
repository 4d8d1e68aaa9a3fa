"""An actor's memories, as transactions: wasm main memory and stable memory.

A message either completes, and its changes become the committed state, or traps (or is a query), and
every byte it changed goes back. Both memories report which pages a committed message changed, so the
work of keeping a snapshot grows with what the message touched, not with the size of the heap.
"""

from __future__ import annotations

import ctypes

import numpy as np
import wasmtime

from .system_api import ActorTrap

PAGE = 4096  # granularity of change tracking (the OS page, not wasm's 64 KiB page)
_WORDS = PAGE // 8


class MainMemory:
    """Wasm linear memory with a shadow copy of its committed contents.

    Comparing the live memory with the shadow (a vectorised memcmp) finds the changed pages; only those
    are copied, either into the shadow (commit) or back into the memory (rollback)."""

    def __init__(self, memory: wasmtime.Memory, store: wasmtime.Store):
        self._memory = memory
        self._store = store
        self._shadow = self._live().copy()

    def _live(self) -> np.ndarray:
        length = self._memory.data_len(self._store)
        ptr = ctypes.cast(self._memory.data_ptr(self._store), ctypes.POINTER(ctypes.c_uint64))
        return np.ctypeslib.as_array(ptr, shape=(length // PAGE, _WORDS))

    def _changed(self, live: np.ndarray) -> np.ndarray:
        """Indices of committed pages that differ from the live memory."""
        old = len(self._shadow)
        return np.flatnonzero((live[:old] != self._shadow).any(axis=1))

    def commit(self) -> list[int]:
        """Make the live contents the committed state; return the changed (and new) page numbers."""
        live = self._live()
        old = len(self._shadow)
        changed = self._changed(live)
        self._shadow[changed] = live[changed]
        if len(live) > old:  # the memory grew: new pages join the shadow as they are
            self._shadow = np.concatenate([self._shadow, live[old:]])
            changed = np.concatenate([changed, np.arange(old, len(live))])
        return changed.tolist()

    def rollback(self) -> None:
        """Put back every committed byte. Wasm memory cannot shrink: pages grown since are zeroed."""
        live = self._live()
        changed = self._changed(live)
        live[changed] = self._shadow[changed]
        live[len(self._shadow):] = 0

    def read(self, start: int, size: int) -> bytes:
        return self._memory.read(self._store, start, start + size)

    def write(self, start: int, data: bytes) -> None:
        self._memory.write(self._store, data, start)

    @property
    def size(self) -> int:
        return self._memory.data_len(self._store)

    def pages(self, numbers: list[int]) -> list[bytes]:
        """The committed contents of the given pages."""
        return [self._shadow[n].tobytes() for n in numbers]

    def load(self, image: bytes) -> None:
        """Replace the whole memory with ``image`` (an upgrade's kept heap, or a restored snapshot)."""
        wasm_page = 65536
        missing = len(image) - self.size
        if missing > 0:
            self._memory.grow(self._store, -(-missing // wasm_page))
        live = self._live().reshape(-1)
        live[: len(image) // 8] = np.frombuffer(image, dtype=np.uint64)
        live[len(image) // 8:] = 0
        self._shadow = self._live().copy()

    def image(self) -> bytes:
        """The committed contents, whole."""
        return self._shadow.tobytes()


class StableMemory:
    """64-bit stable memory (in 64 KiB pages) with an undo log for the running message."""

    PAGE = 65536

    def __init__(self, data: bytes = b"", max_pages: int = 1 << 20):
        self._data = bytearray(data)
        self._max_pages = max_pages
        self._undo: dict[int, bytes] = {}  # tracked page -> its bytes before this message
        self._pages_before = self.pages

    @property
    def pages(self) -> int:
        return len(self._data) // self.PAGE

    def grow(self, new_pages: int) -> int:
        old = self.pages
        if new_pages < 0 or old + new_pages > self._max_pages:
            return -1 & 0xFFFFFFFFFFFFFFFF  # the spec's "-1": the growth is refused, not a trap
        self._data.extend(bytes(new_pages * self.PAGE))
        return old

    def _check(self, offset: int, size: int, what: str) -> None:
        if offset + size > len(self._data):
            raise ActorTrap(f"stable64_{what}: bytes {offset}..{offset + size} beyond stable memory "
                            f"of {len(self._data)} bytes")

    def read(self, offset: int, size: int) -> bytes:
        self._check(offset, size, "read")
        return bytes(self._data[offset:offset + size])

    def write(self, offset: int, data: bytes) -> None:
        self._check(offset, len(data), "write")
        for page in range(offset // PAGE, -(-(offset + len(data)) // PAGE)):
            if page not in self._undo and page * PAGE < self._pages_before * self.PAGE:
                self._undo[page] = bytes(self._data[page * PAGE:(page + 1) * PAGE])
        self._data[offset:offset + len(data)] = data

    def commit(self) -> list[int]:
        """End the message keeping its writes; return the changed 4 KiB pages."""
        changed = sorted(self._undo) + list(range(self._pages_before * self.PAGE // PAGE,
                                                  len(self._data) // PAGE))
        self._undo.clear()
        self._pages_before = self.pages
        return changed

    def rollback(self) -> None:
        for page, old in self._undo.items():
            self._data[page * PAGE:(page + 1) * PAGE] = old
        del self._data[self._pages_before * self.PAGE:]
        self._undo.clear()

    @property
    def size(self) -> int:
        return len(self._data)

    def page(self, number: int) -> bytes:
        """The contents of one 4 KiB page (call between messages: the committed contents)."""
        return bytes(self._data[number * PAGE:(number + 1) * PAGE])

    def image(self) -> bytes:
        return bytes(self._data)
