"""The ``logfile`` store: moxzi's in-memory store, with every committed batch appended to a file.

Each record is a 4-byte little-endian length and a pickle of (cleared prefixes, writes). A record cut
short by a crash mid-write is dropped at open (its batch never returned from commit).
"""

import os
import pickle
import struct
from pathlib import Path

from moxzi_core.store import Batch, MemoryStore, StoreError

LOG = "batches.log"


class LogFileStore(MemoryStore):
    def __init__(self, path: Path):
        super().__init__()
        self._path = path
        good = 0
        if path.exists():
            data = path.read_bytes()
            at = 0
            while at + 4 <= len(data):
                size = struct.unpack_from("<I", data, at)[0]
                if at + 4 + size > len(data):
                    break
                cleared, writes = pickle.loads(data[at + 4 : at + 4 + size])
                super().commit(Batch(writes, cleared))
                at += 4 + size
            good = at
        self._file = path.open("r+b" if path.exists() else "wb")
        self._file.truncate(good)
        self._file.seek(good)

    @classmethod
    def open(cls, directory: Path) -> "LogFileStore":
        try:
            directory.mkdir(parents=True, exist_ok=True)
            return cls(directory / LOG)
        except OSError as error:
            raise StoreError(f"cannot open {directory / LOG}: {error.strerror}") from error

    def commit(self, batch: Batch) -> None:
        for value in batch.writes.values():  # refuse a bad batch before writing anything
            if value is not None and not isinstance(value, (bytes, bytearray, memoryview)):
                raise StoreError(f"a store value must be bytes, not {type(value).__name__}")
        record = pickle.dumps(
            (batch.cleared_prefixes, {k: None if v is None else bytes(v) for k, v in batch.writes.items()})
        )
        self._file.write(struct.pack("<I", len(record)) + record)
        self._file.flush()  # in the OS: survives the process being killed
        super().commit(batch)

    def flush(self) -> None:
        os.fsync(self._file.fileno())

    def close(self) -> None:
        self._file.close()
        super().close()

    @property
    def description(self) -> str:
        return f"log file {self._path}"
