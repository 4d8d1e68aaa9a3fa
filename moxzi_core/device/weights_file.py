"""The safetensors file format (https://github.com/huggingface/safetensors), read and written here.

A file is an 8-byte little-endian header length N, N bytes of JSON (an object: each tensor's name ->
``{"dtype", "shape", "data_offsets": [begin, end]}`` relative to the data, and an optional
``"__metadata__"`` of text -> text), then the tensors' bytes, little-endian, row-major, without holes
or overlaps. Reading checks all of that before a byte of data is used, within bounds given by the
reader, so a malformed or hostile file is an error that says what is wrong.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import BinaryIO

import numpy as np

MAX_HEADER_BYTES = 100 * 2**20  # the safetensors library's own bound
# What reading a header's JSON costs grows with the values it holds (millions of empty arrays take tens
# of seconds), which commas and opening brackets bound: a tensor's entry has at most max_dims + 7 of
# them (its comma, its object, its shape, its offsets), and this many more are let through for the
# metadata and for names holding such characters. So no header costs much more to read than the
# largest one a space may hold.
SPARE_MARKS = 65_536
MAX_NUMBER_DIGITS = 20  # a size or an offset is below 2^64; longer numbers cost their square to read
METADATA = "__metadata__"
# Every dtype the format names, with its size in bytes.
DTYPE_BYTES = {
    "BOOL": 1,
    "U8": 1,
    "I8": 1,
    "F8_E4M3": 1,
    "F8_E5M2": 1,
    "I16": 2,
    "U16": 2,
    "F16": 2,
    "BF16": 2,
    "I32": 4,
    "U32": 4,
    "F32": 4,
    "I64": 8,
    "U64": 8,
    "F64": 8,
}
# The dtypes read as float32 values, and how.
_TO_FLOAT32: dict[str, Callable[[bytearray], bytearray | np.ndarray]] = {
    "F32": lambda b: b,  # as it is: a large tensor is not copied
    "F16": lambda b: np.frombuffer(b, "<f2").astype("<f4"),
    "BF16": lambda b: (np.frombuffer(b, "<u2").astype("<u4") << 16).view("<f4"),
    "F64": lambda b: np.frombuffer(b, "<f8").astype("<f4"),
}
FLOAT_DTYPES = tuple(_TO_FLOAT32)


class WeightsFileError(ValueError):
    """The file is not a safetensors file these bounds accept; the message says why."""


@dataclass(frozen=True)
class Tensor:
    name: str
    dtype: str
    shape: tuple[int, ...]
    begin: int  # offsets in the file
    end: int

    @property
    def nbytes(self) -> int:
        return self.end - self.begin


@dataclass(frozen=True)
class Layout:
    tensors: tuple[Tensor, ...]  # in the order their bytes lie
    metadata: dict[str, str]
    size: int  # of the whole file


def read_layout(file: BinaryIO, size: int, *, max_tensors: int, max_name_bytes: int, max_dims: int) -> Layout:
    """The layout of the safetensors file of ``size`` bytes that ``file`` reads from its first byte.
    Its cost grows with the header's length and, bounded by ``SPARE_MARKS`` and ``MAX_NUMBER_DIGITS``,
    with what a header of ``max_tensors`` tensors may hold (a 100,000-tensor header, about 7 MB, takes
    1 to 2 s)."""
    if size < 8:
        raise WeightsFileError(f"{size} bytes: a safetensors file starts with an 8-byte header length")
    length = int.from_bytes(file.read(8), "little")
    if length > min(MAX_HEADER_BYTES, size - 8):
        raise WeightsFileError(
            f"the header length is {length} bytes, but the file has {size - 8} after it "
            f"(and the limit is {MAX_HEADER_BYTES})"
        )
    text = file.read(length)
    marks = text.count(b",") + text.count(b"[") + text.count(b"{")
    most = max_tensors * (max_dims + 7) + SPARE_MARKS
    if marks > most:
        raise WeightsFileError(
            f"the header holds {marks} commas and opening brackets; one of at most {max_tensors} tensors of "
            f"at most {max_dims} dims holds at most {most}"
        )
    try:
        header = json.loads(text.decode(), parse_int=_size)
    except WeightsFileError:
        raise
    except ValueError as error:  # not UTF-8, not JSON
        raise WeightsFileError(f"the header is not JSON: {error}") from None
    except RecursionError:
        raise WeightsFileError("the header is JSON nested too deeply") from None
    if not isinstance(header, dict):
        raise WeightsFileError("the header is not a JSON object")
    metadata = header.pop(METADATA, {})
    if not isinstance(metadata, dict) or not all(isinstance(v, str) for v in metadata.values()):
        raise WeightsFileError(f"{METADATA} must map names to text")
    if len(header) > max_tensors:
        raise WeightsFileError(f"{len(header)} tensors; the limit is {max_tensors}")
    start = 8 + length
    tensors = sorted(
        (_tensor(name, entry, start, max_name_bytes, max_dims) for name, entry in header.items()), key=_place
    )
    at = start
    for t in tensors:
        if t.begin != at:
            what = "overlaps the one before" if t.begin < at else f"leaves {t.begin - at} bytes unused before it"
            raise WeightsFileError(f"tensor {t.name!r}: its data (at {t.begin - start}) {what}")
        at = t.end
    if at != size:
        raise WeightsFileError(f"the tensors' data ends at byte {at}, but the file has {size}")
    return Layout(tuple(tensors), metadata, size)


def _size(digits: str) -> int:
    if len(digits) > MAX_NUMBER_DIGITS:
        raise WeightsFileError(
            f"the header holds a number of {len(digits)} digits; sizes have at most {MAX_NUMBER_DIGITS}"
        )
    return int(digits)


def _place(t: Tensor) -> tuple[int, int]:
    return t.begin, t.end


def _tensor(name: str, entry, start: int, max_name_bytes: int, max_dims: int) -> Tensor:
    if not name or len(name.encode()) > max_name_bytes:
        raise WeightsFileError(f"tensor {name[:80]!r}: a name must be 1 to {max_name_bytes} bytes")
    if not isinstance(entry, dict):
        raise WeightsFileError(f"tensor {name!r}: expected an object with dtype, shape and data_offsets")
    dtype, shape, offsets = entry.get("dtype"), entry.get("shape"), entry.get("data_offsets")
    if dtype not in DTYPE_BYTES:
        raise WeightsFileError(f"tensor {name!r}: unknown dtype {dtype!r} (safetensors has {', '.join(DTYPE_BYTES)})")
    if not isinstance(shape, list) or not all(type(d) is int and d >= 0 for d in shape):
        raise WeightsFileError(f"tensor {name!r}: shape {shape!r:.80} is not a list of sizes")
    if len(shape) > max_dims:  # (before their product, whose cost grows with their number and size)
        raise WeightsFileError(f"tensor {name!r}: {len(shape)} dims; the limit is {max_dims}")
    if not (isinstance(offsets, list) and len(offsets) == 2 and all(type(o) is int and o >= 0 for o in offsets)):
        raise WeightsFileError(f"tensor {name!r}: data_offsets {offsets!r} is not [begin, end]")
    begin, end = offsets
    if end - begin != DTYPE_BYTES[dtype] * math.prod(shape):
        raise WeightsFileError(
            f"tensor {name!r}: data_offsets {offsets} hold {end - begin} bytes; "
            f"{dtype} {shape} needs {DTYPE_BYTES[dtype] * math.prod(shape)}"
        )
    return Tensor(name, dtype, tuple(shape), start + begin, start + end)


def float32_values(t: Tensor, data: bytearray) -> bytearray | np.ndarray:
    """``t``'s bytes as little-endian float32: ``data`` itself for F32, a new array for the other floats
    (``WeightsFileError`` for a dtype that is not a float)."""
    convert = _TO_FLOAT32.get(t.dtype)
    if convert is None:
        raise WeightsFileError(
            f"tensor {t.name!r} is {t.dtype}: the device's parameters are float32, and import reads "
            f"{', '.join(FLOAT_DTYPES)}"
        )
    return convert(data)


def write(
    out: BinaryIO,
    tensors: Iterable[tuple[str, str, tuple[int, ...]]],
    data: Callable[[str], bytes],
    metadata: dict[str, str],
) -> None:
    """Write a safetensors file of ``tensors`` (name, dtype, shape), in that order, each one's bytes
    ``data(name)`` asked for as it is written, so memory holds one tensor's bytes at a time."""
    tensors = list(tensors)
    header: dict = {METADATA: metadata} if metadata else {}
    at = 0
    for name, dtype, shape in tensors:
        nbytes = DTYPE_BYTES[dtype] * math.prod(shape)
        header[name] = {"dtype": dtype, "shape": list(shape), "data_offsets": [at, at + nbytes]}
        at += nbytes
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 8)  # the data starts 8-byte aligned, as the safetensors library writes it
    out.write(len(text).to_bytes(8, "little"))
    out.write(text)
    for name, dtype, shape in tensors:
        chunk = data(name)
        if len(chunk) != DTYPE_BYTES[dtype] * math.prod(shape):
            raise ValueError(f"tensor {name!r}: {len(chunk)} bytes for {dtype} {list(shape)}")
        out.write(chunk)
