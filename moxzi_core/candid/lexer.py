"""The tokens of Candid's textual syntax, shared by ``.did`` interfaces (``did.py``) and textual values
(``text.py``): both grammars are one language in the spec, so they read one token stream."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any, NamedTuple

from .errors import CandidError

# white space and line comments (possessive: nothing to backtrack into), then one token or the end;
# the token's group names its kind
_SPACE = r"(?:\s|//[^\n]*+)*+"
_TOKEN = re.compile(
    _SPACE
    + r"""
    (?:
      (?P<punct>[{}();:,=.])
    | (?P<name>[A-Za-z_][A-Za-z0-9_]*)
    | (?P<float>[0-9][0-9_]*(?:\.[0-9_]*(?:[eE][+-]?[0-9_]+)?|[eE][+-]?[0-9_]+))
    | (?P<number>0x[0-9a-fA-F][0-9a-fA-F_]*|[0-9][0-9_]*)
    | (?P<text>")
    | (?P<open_comment>/\*)
    | (?P<arrow>->)
    | (?P<sign>[+-])
    | (?P<end>\Z)
    )
""",
    re.VERBOSE,
)
_SPACE_ONLY = re.compile(_SPACE)
# inside a quoted text: a run of plain characters, a run of byte escapes (blobs are mostly that), one
# other escape, or the closing quote
_TEXT_PART = re.compile(
    r"""([^"\\\n]+)|((?:\\[0-9a-fA-F]{2})+)|\\(?:u\{([0-9a-fA-F][0-9a-fA-F_]*)\}|([nrt\\"']))|(")"""
)
MAX_DIGITS = 4300  # Python's own limit for int(str); a nat of 7168 bits has 2158 digits
_ESCAPES = {"n": b"\n", "r": b"\r", "t": b"\t", "\\": b"\\", '"': b'"', "'": b"'"}


class Token(NamedTuple):
    """One token. ``kind`` is "punct" (also "->"), "number" (``value`` an int), "float" (``value`` the
    literal's text), "sign" ("+" or "-"), "name", "text" (``value`` the bytes the literal denotes:
    ``\\xx`` escapes may make them invalid UTF-8) or "end"."""

    kind: str
    value: Any  # str, int or bytes by kind
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
    counted = 0  # newlines before this position are counted in ``line``
    while True:
        match = _TOKEN.match(text, pos)
        kind = match.lastgroup if match else None
        start = match.start(kind) if match and kind else _space_end(text, pos)
        newlines = text.count("\n", counted, start)
        if newlines:
            line += newlines
            line_start = text.rindex("\n", counted, start) + 1
        counted = start
        col = start - line_start + 1
        if match is None or kind is None:
            raise CandidError(f"{line}:{col}: unexpected character {text[start]!r}")
        end = match.end()
        if kind == "end":
            yield Token("end", "end of input", line, col)
            return
        if kind == "open_comment":
            end = _comment_end(text, start, line, col)
        elif kind == "text":
            value, end = _text_literal(text, end, line, col)
            yield Token("text", value, line, col)
        elif kind == "number":
            digits = match.group(kind).replace("_", "")
            if len(digits) > MAX_DIGITS:
                raise CandidError(f"{line}:{col}: a number of more than {MAX_DIGITS} digits")
            yield Token("number", int(digits[2:], 16) if digits.startswith("0x") else int(digits), line, col)
        else:
            yield Token("punct" if kind == "arrow" else kind, match.group(kind), line, col)
        pos = end


def _space_end(text: str, pos: int) -> int:
    """Where the white space and line comments at ``pos`` end."""
    space = _SPACE_ONLY.match(text, pos)
    return space.end() if space else pos


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
            raise CandidError(f"{line}:{col}: unknown escape {text[pos : pos + 2]!r} in text")
        plain, escaped_bytes, code, simple, close = match.groups()
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
            out += bytes.fromhex(escaped_bytes.replace("\\", "")) if escaped_bytes else _ESCAPES[simple]
        pos = match.end()
