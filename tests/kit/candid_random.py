"""Random Candid types and values (seeded), for the codec's property tests and the JavaScript cross-check."""

import math
import random
import struct

from moxzi_core.candid import (
    BLOB,
    NAT,
    NAT8,
    FuncRef,
    FuncType,
    Named,
    Opt,
    Principal,
    Record,
    Service,
    Some,
    Tuple,
    Variant,
    Vec,
)
from moxzi_core.candid.types import EMPTY, FUNC_MODES, PRIMITIVES, Primitive, resolve

PRIMITIVE_TYPES = [t for t in PRIMITIVES.values() if t is not EMPTY]  # empty has no values
NUMBERED = [0, 1, 7, 2**32 - 1]  # field ids without names
LABELS = ["a", "b", "name", "shape", "data", "elem", "x", "dim", "start", "len", "ok", "err", "ünï", "_9_x"]
INT_RANGES = {
    **{f"nat{bits}": (0, 2**bits - 1) for bits in (8, 16, 32, 64)},
    **{f"int{bits}": (-(2 ** (bits - 1)), 2 ** (bits - 1) - 1) for bits in (8, 16, 32, 64)},
    "nat": (0, 2**130),
    "int": (-(2**130), 2**130),
}
FLOATS = [0.0, -0.0, 1.5, -2.25, 1e308, -5e-324, math.inf, -math.inf, math.nan]
FLOAT32S = [0.0, -0.0, 1.5, 3.4028234663852886e38, -1e-45, math.inf, -math.inf, math.nan]


class RandomCandid:
    """Random Candid types (with named recursive ones) and random values of them, from one seed."""

    def __init__(self, seed: int):
        self.rng = random.Random(seed)
        self.defs: dict[str, Named] = {}

    def type(self, depth: int = 3):
        rng = self.rng
        if depth == 0 or rng.random() < 0.3:
            return rng.choice(PRIMITIVE_TYPES)
        kind = rng.choice(["opt", "vec", "blob", "record", "tuple", "variant", "func", "service", "list", "tree"])
        inner = lambda: self.type(depth - 1)  # noqa: E731
        if kind == "opt":
            return Opt(inner())
        if kind == "vec":
            return Vec(inner())
        if kind == "blob":
            return BLOB
        if kind in ("record", "variant"):
            labels = rng.sample(LABELS, rng.randint(1, 4)) + rng.sample(NUMBERED, rng.randint(0, 2))
            fields = {label: inner() for label in labels}
            return Record(fields) if kind == "record" else Variant(fields)
        if kind == "tuple":
            return Tuple(*(inner() for _ in range(rng.randint(1, 3))))
        if kind == "func":
            return FuncType([inner()], [inner()], rng.choice([(), *((mode,) for mode in FUNC_MODES)]))
        if kind == "service":
            return Service({"m": FuncType([inner()], []), "go": FuncType([], [NAT], {"query"})})
        named = Named(f"T{len(self.defs)}")
        self.defs[named.name] = named
        element = inner()
        if kind == "list":
            return named.define(Opt(Record({"head": element, "tail": named})))
        return named.define(Variant({"leaf": element, "node": Record({"left": named, "right": named})}))

    def value(self, t, depth: int = 0):
        rng = self.rng
        t = resolve(t)
        if isinstance(t, Primitive):
            if t.name in INT_RANGES:
                low, high = INT_RANGES[t.name]
                small = rng.randint(max(low, -300), min(high, 300))
                return rng.choice([low, high, 0, rng.randint(low, high), small])
            if t.name == "float64":
                return rng.choice(FLOATS + [rng.uniform(-1e6, 1e6)])
            if t.name == "float32":
                return struct.unpack("<f", struct.pack("<f", rng.choice(FLOAT32S + [rng.uniform(-9, 9)])))[0]
            if t.name == "bool":
                return rng.random() < 0.5
            if t.name == "text":
                return "".join(rng.choice('ab é\n"\\😀中') for _ in range(rng.randint(0, 8)))
            if t.name == "principal":
                return self.principal()
            return None
        deeper = depth + 1
        if isinstance(t, Opt):
            return None if rng.random() < 0.3 or depth > 6 else Some(self.value(t.type, deeper))
        if isinstance(t, Vec):
            if resolve(t.type) == NAT8:
                return rng.randbytes(rng.randint(0, 40))
            return [self.value(t.type, deeper) for _ in range(rng.randint(0, 0 if depth > 4 else 4))]
        if isinstance(t, Record):
            if t.is_tuple:
                return tuple(self.value(f.type, deeper) for f in t.fields)
            return {f.key: self.value(f.type, deeper) for f in t.fields}
        if isinstance(t, Variant):
            field = t.fields[0] if depth > 6 else rng.choice(t.fields)  # trees: "leaf" sorts first
            return {field.key: self.value(field.type, deeper)}
        if isinstance(t, FuncType):
            return FuncRef(self.principal(), rng.choice(["m", "go", "métho d"]))
        return self.principal()

    def principal(self) -> Principal:
        return Principal(self.rng.randbytes(self.rng.choice([0, 1, 10, 29])))


def canonical(value):
    """``value`` with floats as their bits (every NaN alike), so ``==`` is exact and NaN-safe."""
    if isinstance(value, float):
        return "nan" if math.isnan(value) else struct.pack("<d", value)
    if type(value) in (list, tuple):  # (not a FuncRef, which holds no floats)
        return type(value)(canonical(item) for item in value)
    if isinstance(value, dict):
        return {key: canonical(item) for key, item in value.items()}
    if isinstance(value, Some):
        return Some(canonical(value.value))
    return value


def random_cases(seed: int, count: int):
    gen = RandomCandid(seed)
    for _ in range(count):
        types = [gen.type() for _ in range(gen.rng.randint(1, 3))]
        yield types, [gen.value(t) for t in types]
