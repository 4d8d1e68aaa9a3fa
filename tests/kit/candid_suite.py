"""The official Candid test suite (tests/data/candid-suite/*.test.did, see its README) read into
assertions. The format (the Candid repository's test/README.md): type definitions, then

    assert <input> : (types) "description";        the input decodes (or parses) at the types
    assert <input> !: (types) "description";       it does not
    assert <input> == <input> : (types) "...";     both do, to equal values
    assert <input> != <input> : (types) "...";     both do, to different values

where an input is ``blob "..."`` (binary Candid, bytes written with ``\\xx`` escapes) or ``"..."``
(textual Candid)."""

import re
from dataclasses import dataclass
from pathlib import Path

from moxzi_core.candid import BLOB, TEXT, CandidType, parse_did, parse_value

SUITE = Path(__file__).parent.parent / "data" / "candid-suite"
_STRING = r'"(?:[^"\\]|\\.)*"'
_INPUT = rf"(blob\s+)?({_STRING})"
_ASSERTION = re.compile(
    rf"assert\s+{_INPUT}\s*(?:(==|!=)\s*{_INPUT}\s*)?(!:|:)\s*(\(.*\))\s*({_STRING})?\s*", re.DOTALL
)


@dataclass
class Input:
    binary: bool
    content: bytes | str  # the message's bytes, or the textual value's text


@dataclass
class Assertion:
    where: str  # file:line
    description: str
    left: Input
    relation: str  # ":" decodes, "!:" does not, "==" / "!=" both decode to equal / different values
    right: Input | None
    types: list[CandidType]

    @property
    def inputs(self) -> list[Input]:
        return [self.left] + ([self.right] if self.right else [])


def load() -> list[Assertion]:
    """Every assertion of every file, in order."""
    return [assertion for path in sorted(SUITE.glob("*.test.did")) for assertion in _read(path)]


def _read(path: Path) -> list[Assertion]:
    text = _without_comments(path.read_text("utf-8"))
    definitions, assertions = [], []
    for start, statement in _statements(text):
        where = f"{path.name}:{text.count(chr(10), 0, start) + 1}"
        if statement.startswith("type"):
            definitions.append(statement + ";")
            continue
        match = _ASSERTION.fullmatch(statement)
        if match is None:
            raise ValueError(f"{where}: not an assertion: {statement[:80]}")
        left_blob, left, equality, right_blob, right, decodes, types, description = match.groups()
        method = parse_did("\n".join(definitions) + f"\nservice : {{ m : {types} -> () }}").methods["m"]
        assertions.append(
            Assertion(
                where,
                _string(description) if description else "",
                _input(left_blob, left),
                equality or decodes,
                _input(right_blob, right) if right else None,
                list(method.args),
            )
        )
    return assertions


def _input(blob: str | None, literal: str) -> Input:
    if blob:
        return Input(True, parse_value(f"blob {literal}", BLOB))
    return Input(False, _string(literal))


def _string(literal: str) -> str:
    return parse_value(literal, TEXT)


def _without_comments(text: str) -> str:
    """``text`` with ``//`` and nested ``/* */`` comments blanked out (newlines kept, so line numbers
    stay), strings left alone."""
    out, i, depth, quoted = list(text), 0, 0, False
    while i < len(text):
        pair = text[i : i + 2]
        if depth == 0 and quoted:
            if pair[0] == "\\":
                i += 2
                continue
            quoted = text[i] != '"'
        elif depth == 0 and text[i] == '"':
            quoted = True
        elif pair == "/*" or (depth and pair == "*/"):
            depth += 1 if pair == "/*" else -1
            out[i] = out[i + 1] = " "
            i += 2
            continue
        elif depth == 0 and pair == "//":
            while i < len(text) and text[i] != "\n":
                out[i] = " "
                i += 1
            continue
        elif depth and text[i] != "\n":
            out[i] = " "
        i += 1
    return "".join(out)


def _statements(text: str):
    """(offset, statement) of each ``;``-terminated statement outside strings and brackets."""
    start, depth, quoted, i = 0, 0, False, 0
    while i < len(text):
        c = text[i]
        if quoted:
            if c == "\\":
                i += 1
            elif c == '"':
                quoted = False
        elif c == '"':
            quoted = True
        elif c in "({":
            depth += 1
        elif c in ")}":
            depth -= 1
        elif c == ";" and depth == 0:
            statement = text[start:i].strip()
            if statement:
                yield start + len(text[start:i]) - len(text[start:i].lstrip()), statement
            start = i + 1
        i += 1
    if text[start:].strip():
        raise ValueError(f"unterminated statement at the end: {text[start:][:80]!r}")
