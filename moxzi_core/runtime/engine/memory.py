"""An actor's memories, as transactions: wasm main memory and stable memory (both wasm memories).

A message either completes, and its changes become the committed state, or traps (or is a query), and
every byte it changed goes back. Both memories report which pages a committed message changed, so the
work of keeping a snapshot grows with what the message touched, not with the size of the heap.
"""

from __future__ import annotations

import ctypes
from collections.abc import Callable, Sequence

import numpy as np
import wasmtime
from wasmtime import _bindings
from wasmtime import _ffi as ffi

from .dirty import PAGE_BITS
from .globals import Globals
from .shadow import Shadow
from .stable import StableParts

PAGE = 1 << PAGE_BITS  # granularity of change tracking (the OS page, not wasm's 64 KiB page)
_WORDS = PAGE // 8
_WASM_PAGE = 65536
# Up to this many marks (pages: 256 MiB of memory), a replica reads them in one pass as booleans, faster
# than one over 8 at a time and the few words hit (4.7 against 18 µs for 1,392 pages).
_BYTEWISE_MARKS = 1 << 16

# wasmtime's C functions for a memory's size and address, given the memory's address as a plain int:
# ctypes then converts next to nothing, a third of the time of wasmtime-py's Memory.data_len and
# data_ptr, which each message calls a few dozen times (the store's context still comes from
# wasmtime-py, which refuses a closed store). wasmtime is pinned for this and globals.py. Called
# holding the GIL, as globals.py' are.
_MEMORY = ctypes.POINTER(ffi.wasmtime_context_t), ctypes.c_void_p
_data_size = ctypes.cast(_bindings._wasmtime_memory_data_size, ctypes.PYFUNCTYPE(ctypes.c_size_t, *_MEMORY))
_data = ctypes.cast(_bindings._wasmtime_memory_data, ctypes.PYFUNCTYPE(ctypes.c_void_p, *_MEMORY))
_copy = ctypes.PYFUNCTYPE(ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t)(ctypes._memmove_addr)  # type: ignore[attr-defined]
_fill = ctypes.PYFUNCTYPE(ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int, ctypes.c_size_t)(ctypes._memset_addr)  # type: ignore[attr-defined]


class TrackedMemory:
    """Wasm linear memory with a shadow copy of its committed contents: an actor's main memory, and the
    bytes of its stable memory (`StableMemory`).

    The module marks each 4 KiB page it writes in its dirty-page map (a second memory, see
    `dirty`; the stable memory's: `stable`), and `write` marks the pages the host writes.
    Commit copies the marked pages into the shadow, rollback copies them back from it; both clear the
    map. Either costs what the message wrote, plus a scan of the map (one byte per page), in one call
    into wasm: the shadow is a memory of `shadow`'s module, in the same store. Pages the memory
    grew by are zero until written, so only the written ones are copied; a rolled-back message's
    growth goes back to the OS (the memory keeps its size, as wasm memory cannot shrink, but not the
    RAM).

    A query replica's memory (``shadow=False``) keeps no shadow: `follow` makes it another memory's
    committed contents again, copying only the pages that may differ."""

    def __init__(
        self,
        memory: wasmtime.Memory,
        store: wasmtime.Store,
        dirty_map: wasmtime.Memory,
        *,
        shadow: bool = True,
        globals_: Sequence[wasmtime.Global] = (),
    ):
        """``globals_``: mutable globals (of `shadow.GLOBAL_TYPES`) whose values each commit keeps with the
        memory's and each rollback puts back (`committed_globals`, `keep_globals`); a shadow's only."""
        self._memory = memory
        self._handle = ctypes.addressof(memory._memory)
        self._store = store
        self._map = dirty_map
        self._memory_bytes = _Bytes(memory, store)
        self._map_bytes = _Bytes(dirty_map, store)
        self._cover()
        self._committed = len(self._live())  # pages of the shadow holding committed contents
        # Pages from `_extent` on are zero in the committed state: no committed message wrote them.
        self._extent = self._committed
        self._shadow_module: Shadow | None = None
        if shadow:
            self._shadow_module = Shadow(store, memory, dirty_map, memory.type(store).is_64, globals_)
            self._shadow_bytes = _Bytes(self._shadow_module.memory, store)
            self._changed = _Bytes(self._shadow_module.changed, store)
            self._kept_globals = _Bytes(self._shadow_module.globals, store)
            self._keep()
            self.keep_globals()

    def _live(self) -> np.ndarray:
        """The live memory as (pages, words); a view, valid until the memory grows."""
        return self._memory_bytes().view(np.uint64).reshape(-1, _WORDS)

    def _cover(self) -> None:
        """Grow the map to cover the whole memory (the module does so itself when it grows memory)."""
        missing = self.size // PAGE - self._map.data_len(self._store)
        if missing > 0:
            self._map.grow(self._store, -(-missing // _WASM_PAGE))

    @property
    def _shadow(self) -> np.ndarray:
        """The committed contents as (pages, words); a view, valid until the shadow grows."""
        return self._shadow_bytes().view(np.uint64).reshape(-1, _WORDS)[: self._committed]

    def _keep(self) -> None:
        """Make the whole live memory the committed contents."""
        live = self._live()
        shadow = self._shadowed().memory
        missing = -(-len(live) // (_WASM_PAGE // PAGE)) - shadow.size(self._store)
        if missing > 0:
            shadow.grow(self._store, missing)
        self._committed = self._extent = len(live)
        self._shadow[:] = live

    def _shadowed(self) -> Shadow:
        assert self._shadow_module is not None, "a query replica's memory neither commits nor rolls back"
        return self._shadow_module

    def _take_marks(self) -> np.ndarray:
        """(A replica's memory) The pages marked since the last `follow`; clears every mark (a store that
        trapped may have marked pages beyond the memory: cleared too, not given)."""
        marks = self._map_bytes()
        if len(marks) <= _BYTEWISE_MARKS:  # a mark is 0 or 1: read as booleans, a byte a page
            hit = np.flatnonzero(marks.view(np.bool_))
            marks[hit] = 0
        else:
            # 8 marks at a time. `!= 0` first: numpy's nonzero is many times slower on integers than
            # on booleans.
            words = marks.view(np.uint64)
            at = np.flatnonzero(words != 0)
            marked = words[at].view(np.uint8).reshape(-1, 8) != 0  # (words hit, their 8 marks)
            words[at] = 0
            hit = (at[:, None] * 8 + np.arange(8))[marked]
        return hit[hit < self.size // PAGE]

    def commit(self) -> list[int]:
        """Make the live contents (and the globals' values) the committed state; return the numbers of
        the pages that changed: those written that differ from what they held (a page the memory grew
        by and nobody wrote is zero, as a snapshot's absent page is). A page written back as it was (a
        collector's mark set and cleared, a stack frame's slots) is no change the store must write."""
        pages = self.size // PAGE
        if pages == 0:  # (an empty stable memory, as most are: no page to mark, so none marked)
            self.keep_globals()
            return []
        count, self._extent = self._shadowed().call("commit", pages, self._extent)
        if count < 0:
            raise MemoryError(f"the committed copy of a memory of {pages * PAGE >> 20} MiB cannot grow")
        self._committed = max(self._committed, pages)  # (the shadow is zero past the old count)
        return memoryview(self._changed.read(0, 4 * count)).cast("i").tolist()  # (int32s)

    def keep_globals(self) -> None:
        """Make the globals' values now their committed ones (the commit's, without one)."""
        if self._shadowed().globals_layout.size:
            self._shadowed().call("keep_globals")

    def committed_globals(self) -> list:
        """The globals' values as the last commit (or `keep_globals`) kept them, in their order."""
        return list(self._shadowed().globals_layout.unpack_from(self._kept_globals().data))

    @property
    def extent(self) -> int:
        """Bytes up to the last page a committed message wrote (or the whole memory, as made; as
        loaded or restored, the end of what was written into it): beyond it the committed memory is
        zero and costs no RAM, however large it grew."""
        return self._extent * PAGE

    def extent_if_committed(self) -> int:
        """`extent` as committing now would leave it (the marks are kept). Reads only the marks from
        `extent` to the memory's end, as bytes: stripped of their zeros at the end, they end with the
        last mark (`_Bytes.read`)."""
        pages = self.size // PAGE
        if self._extent >= pages:  # (every page lies below it: an empty stable memory's too)
            return self.extent
        return (self._extent + len(self._map_bytes.read(self._extent, pages).rstrip(b"\0"))) * PAGE

    def rollback(self) -> None:
        """Put back every committed byte, and the globals' committed values. Wasm memory cannot shrink: pages grown since, and those past
        `extent` the message wrote, are zeroed and their RAM given back."""
        pages = self.size // PAGE
        beyond, _ = self._shadowed().call("rollback", pages, self._extent)
        if beyond or pages > self._committed:
            live = self._live()
            if not _release(live[self._extent :]):
                live[self._extent :] = 0

    def follow(self, source: TrackedMemory, pages: np.ndarray | None) -> None:
        """(A replica's memory) Hold ``source``'s committed contents again, given every page ``source``
        committed since the last call (None: all of them); the pages written here since are put back
        too, and those beyond ``source``'s size (grown here) zeroed. Call while ``source`` is not
        committing."""
        size, had = source._committed, self.size // PAGE
        missing = size * PAGE - self.size
        if missing > 0:
            self._memory.grow(self._store, -(-missing // _WASM_PAGE))
            self._cover()
        live = self._live()
        mine = self._take_marks()
        live[mine[mine >= size]] = 0  # pages a query grew and wrote: fresh growth is zero
        if pages is None:  # a new replica: zero past what it had (its initial image), as the source past its extent
            extent = min(source._extent, size)
            live[:extent] = source._shadow[:extent]
            live[extent : min(had, size)] = 0
        else:
            changed = np.union1d(pages, mine[mine < size]).astype(np.int64)
            live[changed] = source._shadow[changed]
        self._committed = size

    # Copied straight from and to the memory's address: wasmtime-py's Memory.read and write make two
    # ctypes array types for each size they copy (about 20 µs a callback's argument).
    def _within(self, start: int, size: int) -> int:
        """The address of the memory's bytes ``start`` to ``start + size``; IndexError past its end."""
        context = self._store._context()
        if start < 0 or size < 0 or start + size > _data_size(context, self._handle):
            raise IndexError(f"bytes {start}..{start + size} are beyond the memory")
        return (_data(context, self._handle) or 0) + start

    def read(self, start: int, size: int) -> bytes:
        return ctypes.string_at(self._within(start, size), size)

    def write(self, start: int, data: bytes) -> None:
        """Write as the host (the System API); the pages written are marked like the module's."""
        address = self._within(start, len(data))
        if data:
            self._map_bytes.fill(start // PAGE, (start + len(data) - 1) // PAGE + 1, 1)
            _copy(address, bytes(data), len(data))  # memmove holding the GIL (bytes(data) is data, for bytes)

    def written(self, start: int, size: int) -> bool:
        """Whether the module or the host wrote a page of ``start`` to ``start + size`` since the last
        commit (or rollback)."""
        return size > 0 and bool(self._map_bytes()[start // PAGE : (start + size - 1) // PAGE + 1].any())

    def zero(self, start: int, end: int, *, written: bool = False) -> None:
        """Write zeros in the whole pages from ``start`` to ``end`` as the host, marking only the pages
        that held something (with ``written``, only those written since the last commit)."""
        first, pages = -(-start // PAGE), self._live()
        if written:
            at = first + np.flatnonzero(self._map_bytes()[first : end // PAGE])
            at = at[pages[at].any(axis=1)]
        else:
            at = first + np.flatnonzero(pages[first : end // PAGE].any(axis=1))
        pages[at] = 0
        self._map_bytes()[at] = 1

    @property
    def size(self) -> int:
        return _data_size(self._store._context(), self._handle)

    @property
    def committed_size(self) -> int:
        """The committed memory's size in bytes (read by any thread between commits, which change it)."""
        return self._committed * PAGE

    def runs(self, numbers: list[int], pages: int) -> list[memoryview]:
        """The committed contents of each run of ``pages`` pages numbered ``number * pages`` on: views of
        the shadow, valid until the next commit (what packs them for the store copies them once, where
        bytes of them copied them twice: gpt.mo's train step packs 1.6 MB)."""
        shadow = self._shadow.reshape(-1).view(np.uint8).data  # (made once, not once a run: a train step reads ~50)
        size = pages * PAGE
        return [shadow[n * size : (n + 1) * size] for n in numbers]

    def load(self, image: bytes | bytearray) -> None:
        """Replace the whole memory with ``image`` (an upgrade's kept heap, or a snapshot's)."""
        content = np.frombuffer(image, dtype=np.uint8)

        def copy(targets: list[np.ndarray]) -> int:
            for target in targets:
                target[:] = content
            return len(content)

        self.fill(len(image), copy)

    def fill(self, size: int, write: Callable[[list[np.ndarray]], int]) -> None:
        """Replace the whole memory with ``size`` bytes that ``write`` writes into each of the arrays it
        is given (``size`` bytes each, holding zeros), returning where what it wrote ends: the memory's
        first ``size`` bytes and, unless this is a replica's, the same bytes of its committed copy (a
        restored state: `memory_image.Stored.write`).
        Written into both at once, each chunk while it is in the cache, and only where ``write`` writes:
        a wasm memory grows zeroed, so only the part either had before is zeroed first (a restored
        instance's: its initial image), and the pages nobody writes cost no RAM (a restored 320 MiB
        heap took 0.58 s zeroed, filled, then copied whole into the committed copy)."""
        had = self.size
        missing = size - had
        if missing > 0:
            self._memory.grow(self._store, -(-missing // _WASM_PAGE))
            self._cover()
        live = self._live().reshape(-1).view(np.uint8)
        live[:had] = 0
        targets = [live[:size]]
        if self._shadow_module is not None:
            shadow = self._shadowed().memory
            shadow_had = self._shadow_bytes().size
            missing = -(-len(live) // _WASM_PAGE) - shadow.size(self._store)
            if missing > 0:
                shadow.grow(self._store, missing)
            copy = self._shadow_bytes()
            copy[:shadow_had] = 0
            targets.append(copy[:size])
        written = write(targets)
        self._map_bytes()[:] = 0
        self._committed = (len(live) if self._shadow_module is not None else size) // PAGE
        self._extent = -(-written // PAGE)  # (past it both are zero: what `follow` need not copy)

    def image(self, pages: int | None = None) -> bytes:
        """The committed contents: whole, or their first ``pages`` 4 KiB pages."""
        return self._shadow[:pages].tobytes()


_libc = ctypes.CDLL(None, use_errno=True)
_MADV_DONTNEED = 4  # Linux: the pages read as zero again, and their RAM goes back to the OS


def _release(pages: np.ndarray) -> bool:
    """Zero ``pages`` (whole OS pages of a private anonymous mapping, as wasm memory is) by giving their
    RAM back; False if the OS refused, and nothing changed."""
    return _libc.madvise(ctypes.c_void_p(pages.ctypes.data), ctypes.c_size_t(pages.nbytes), _MADV_DONTNEED) == 0


class _Bytes:
    """A numpy view of a wasm memory's bytes, made again only when the memory moves or grows."""

    def __init__(self, memory: wasmtime.Memory, store: wasmtime.Store):
        self._memory, self._store = memory, store  # (the memory kept: its handle's address is used)
        self._handle = ctypes.addressof(memory._memory)
        self._where: tuple[int, int] | None = None  # (address, length) the view was made for
        self._view = np.empty(0, dtype=np.uint8)

    # Straight at the memory's address, as a slice of the view reads and writes, without numpy: on an
    # actor's thread after a device call's work, its caches cold, numpy's calls cost several times what
    # they cost alone (letters.mo: the count of the marks past the extent ~10 µs more than this read,
    # the mark of the callback's argument's page ~3 µs more than this fill).
    def read(self, start: int, end: int) -> bytes:
        """A copy of bytes ``start`` (>= 0) to ``end``: fewer past the memory's end."""
        context = self._store._context()
        end = min(end, _data_size(context, self._handle))
        return ctypes.string_at((_data(context, self._handle) or 0) + start, max(0, end - start))

    def fill(self, start: int, end: int, value: int) -> None:
        """Set bytes ``start`` (>= 0) to ``end`` to ``value``: fewer past the memory's end."""
        context = self._store._context()
        end = min(end, _data_size(context, self._handle))
        if end > start:
            _fill((_data(context, self._handle) or 0) + start, value, end - start)

    def __call__(self) -> np.ndarray:
        context = self._store._context()
        where = (_data(context, self._handle) or 0, _data_size(context, self._handle))  # address None: null
        address = where[0]
        if where != self._where:
            self._view = np.frombuffer(memoryview((ctypes.c_uint8 * where[1]).from_address(address)), dtype=np.uint8)
            self._where = where
        return self._view


class StableMemory:
    """An actor instance's stable memory, as transactions: the stable module's wasm memory (`stable`:
    the actor's stable reads and writes run there, in wasm), tracked like the main memory, and its size
    in 64 KiB pages, which that module keeps in a global because the wasm memory cannot shrink: a
    rolled-back growth leaves zeroed pages beyond the size, which the next growth reuses.

    A query replica's stable memory (``shadow=False``) `follow`s another's committed contents."""

    PAGE = 65536

    def __init__(self, store: wasmtime.Store, parts: StableParts, *, shadow: bool = True):
        self._bytes = TrackedMemory(parts.memory, store, parts.dirty_map, shadow=shadow)
        self._pages = Globals(store, [parts.pages])
        self._committed_pages = self.pages

    @property
    def pages(self) -> int:
        """The size in 64 KiB pages, as the running message sees it."""
        return self._pages.read()[0]

    @property
    def size(self) -> int:
        """The size in bytes, as the running message sees it."""
        return self.pages * self.PAGE

    @property
    def kept_size(self) -> int:
        """The size in bytes as the last commit or rollback left it: `size` between messages, without
        reading the stable module's global."""
        return self._committed_pages * self.PAGE

    @property
    def committed_size(self) -> int:
        """The bytes of its wasm memory that hold committed contents, which a replica copies (read by
        any thread between commits, which change it)."""
        return self._bytes.committed_size

    @property
    def extent(self) -> int:
        """As `TrackedMemory.extent`."""
        return self._bytes.extent

    def extent_if_committed(self) -> int:
        return self._bytes.extent_if_committed()

    def read(self, offset: int, size: int) -> bytes:
        """Bytes as the running message sees them (within `size`)."""
        if offset + size > self.size:
            raise ValueError(f"bytes {offset}..{offset + size} are beyond stable memory of {self.size} bytes")
        return self._bytes.read(offset, size)

    def commit(self) -> list[int]:
        """End the message keeping its writes; return the changed 4 KiB pages."""
        if self._bytes.size == 0:  # (never grown, as most actors' stable memory: its size needs no reading)
            self._committed_pages = 0
            return []
        self._committed_pages = self.pages
        return self._bytes.commit()

    def rollback(self) -> None:
        self._pages.write([self._committed_pages])
        self._bytes.rollback()

    def follow(self, source: StableMemory, pages: np.ndarray | None) -> None:
        """(A replica's stable memory, between queries) Hold ``source``'s committed contents again,
        given every 4 KiB page ``source`` committed since the last call (None: all of them). Call while
        ``source`` is not committing."""
        self._bytes.follow(source._bytes, pages)
        self._committed_pages = source._committed_pages
        self._pages.write([self._committed_pages])

    def load(self, image: bytes | bytearray) -> None:
        """Replace the whole stable memory with ``image`` (whole 64 KiB pages): the committed state."""
        if len(image) % self.PAGE:
            raise ValueError(f"a stable memory image of {len(image)} bytes is not whole 64 KiB pages")
        self._bytes.load(image)
        self._committed_pages = len(image) // self.PAGE
        self._pages.write([self._committed_pages])

    def runs(self, numbers: list[int], pages: int) -> list[memoryview]:
        """As `TrackedMemory.runs`."""
        return self._bytes.runs(numbers, pages)

    def image(self) -> bytes:
        """The committed contents, whole."""
        return self._bytes.image(self._committed_pages * self.PAGE // PAGE)
