"""The tokens of Candid's textual syntax, shared by ``.did`` interfaces (``did.py``) and textual values
(``text.py``): both grammars are one language in the spec, so they read one token stream."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import NamedTuple

from .errors import CandidError

_TOKEN = re.compile(r"""
    (?P<space>\s+)
  | (?P<comment>//[^\n]*)
  | (?P<open_comment>/\*)
  | (?P<arrow>->)
  | (?P<float>[0-9][0-9_]*(?:\.[0-9_]*(?:[eE][+-]?[0-9_]+)?|[eE][+-]?[0-9_]+))
  | (?P<number>0x[0-9a-fA-F][0-9a-fA-F_]*|[0-9][0-9_]*)
  | (?P<punct>[{}();:,=.])
  | (?P<sign>[+-])
  | (?P<name>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<text>")
""", re.VERBOSE)
# inside a quoted text: a run of plain characters, one escape, or the closing quote
_TEXT_PART = re.compile(r'''([^"\\\n]+)|\\(?:u\{([0-9a-fA-F][0-9a-fA-F_]*)\}|([0-9a-fA-F]{2})|([nrt\\"']))|(")''')
MAX_DIGITS = 4300  # Python's own limit for int(str); a nat of 7168 bits has 2158 digits
_ESCAPES = {"n": b"\n", "r": b"\r", "t": b"\t", "\\": b"\\", '"': b'"', "'": b"'"}


class Token(NamedTuple):
    """One token. ``kind`` is "punct" (also "->"), "number" (``value`` an int), "float" (``value`` the
    literal's text), "sign" ("+" or "-"), "name", "text" (``value`` the bytes the literal denotes:
    ``\\xx`` escapes may make them invalid UTF-8) or "end"."""

    kind: str
    value: str | int | bytes
    line: int
    col: int

    @property
    def where(self) -> str:
        return f"{self.line}:{self.col}"

    def shown(self) -> str:
        """The token as an error message quotes it."""
        if self.kind == "text":
            return '"' + self.value.decode("utf-8", errors="backslashreplace") + '"'
        return str(self.value)

    def text(self) -> str:
        """A text token's value as a string; bytes that are not UTF-8 are an error at the token."""
        try:
            return self.value.decode("utf-8")
        except UnicodeDecodeError:
            raise CandidError(f"{self.where}: text is not valid UTF-8") from None


def tokenize(text: str) -> Iterator[Token]:
    """The tokens of ``text``, ending with an "end" token; bad input raises ``CandidError`` with
    ``line:column``. Comments (``//`` and nested ``/* */``) and white space are skipped."""
    pos, line, line_start = 0, 1, 0
    while pos < len(text):
        match = _TOKEN.match(text, pos)
        col = pos - line_start + 1
        if match is None:
            raise CandidError(f"{line}:{col}: unexpected character {text[pos]!r}")
        kind = match.lastgroup
        end = match.end()
        if kind == "open_comment":
            end = _comment_end(text, pos, line, col)
        elif kind == "text":
            value, end = _text_literal(text, end, line, col)
            yield Token("text", value, line, col)
        elif kind == "number":
            digits = match.group().replace("_", "")
            if len(digits) > MAX_DIGITS:
                raise CandidError(f"{line}:{col}: a number of more than {MAX_DIGITS} digits")
            yield Token("number", int(digits[2:], 16) if digits.startswith("0x") else int(digits), line, col)
        elif kind in ("name", "punct", "arrow", "sign", "float"):
            yield Token("punct" if kind == "arrow" else kind, match.group(), line, col)
        newlines = text.count("\n", pos, end)
        if newlines:
            line += newlines
            line_start = text.rindex("\n", pos, end) + 1
        pos = end
    yield Token("end", "end of input", line, pos - line_start + 1)


def _comment_end(text: str, pos: int, line: int, col: int) -> int:
    depth = 0
    for match in re.compile(r"/\*|\*/").finditer(text, pos):
        depth += 1 if match.group() == "/*" else -1
        if depth == 0:
            return match.end()
    raise CandidError(f"{line}:{col}: comment is never closed")


def _text_literal(text: str, pos: int, line: int, col: int) -> tuple[bytes, int]:
    """The bytes of a quoted literal starting after its opening quote, and the position after it."""
    out = bytearray()
    while True:
        match = _TEXT_PART.match(text, pos)
        if match is None:
            if pos >= len(text) or text[pos] == "\n":
                raise CandidError(f"{line}:{col}: text is never closed")
            raise CandidError(f"{line}:{col}: unknown escape {text[pos:pos + 2]!r} in text")
        plain, code, byte, simple, close = match.groups()
        if close:
            return bytes(out), match.end()
        if plain is not None:
            out += plain.encode("utf-8", errors="surrogatepass")
        elif code is not None:
            scalar = int(code.replace("_", ""), 16)
            if scalar > 0x10FFFF or 0xD800 <= scalar <= 0xDFFF:
                raise CandidError(f"{line}:{col}: \\u{{{code}}} is not a Unicode scalar value")
            out += chr(scalar).encode("utf-8")
        else:
            out += bytes([int(byte, 16)]) if byte else _ESCAPES[simple]
        pos = match.end()
