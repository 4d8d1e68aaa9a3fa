"""Parsing Candid interface descriptions (``.did`` text) into ``Service`` objects."""

from __future__ import annotations

import re
from typing import NamedTuple

from .errors import CandidError
from .types import (
    BLOB,
    DID_KEYWORDS,
    FUNC_MODES,
    NULL,
    PRIMITIVES,
    CandidType,
    Field,
    FuncType,
    Named,
    Opt,
    Record,
    Service,
    Variant,
    Vec,
    idl_hash,
    resolve,
)

_TOKEN = re.compile(r"""
    (?P<space>\s+)
  | (?P<comment>//[^\n]*)
  | (?P<open_comment>/\*)
  | (?P<arrow>->)
  | (?P<punct>[{}();:,=])
  | (?P<number>0x[0-9a-fA-F_]+|[0-9][0-9_]*)
  | (?P<name>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<text>")
""", re.VERBOSE)
_ESCAPES = {"n": "\n", "r": "\r", "t": "\t", "\\": "\\", '"': '"', "'": "'"}


class _Token(NamedTuple):
    kind: str  # "punct" (also "->"), "number", "name", "text" or "end"
    value: str | int
    line: int
    col: int


def parse_did(text: str) -> Service:
    """The service a ``.did`` file describes (an empty one when it has only type definitions).

    Method types are resolved to ``FuncType``; argument, result and field types may be ``Named`` (the
    file's type definitions, possibly recursive). Raises ``CandidError`` with ``line:column`` on error.
    """
    try:
        return _Parser(text).program()
    except RecursionError:
        raise CandidError("types nested too deeply") from None


class _Parser:
    def __init__(self, text: str):
        self.tokens = list(self.tokenize(text))
        self.at = 0
        self.names: dict[str, Named] = {}
        self.first_use: dict[str, _Token] = {}
        self.defined_at: dict[str, _Token] = {}
        self.method_references: list[tuple[str, Named, _Token]] = []

    # ---- tokens ----

    def tokenize(self, text: str):
        pos, line, line_start = 0, 1, 0
        while pos < len(text):
            match = _TOKEN.match(text, pos)
            col = pos - line_start + 1
            if match is None:
                raise CandidError(f"{line}:{col}: unexpected character {text[pos]!r}")
            kind = match.lastgroup
            end = match.end()
            if kind == "open_comment":
                end = self.comment_end(text, pos, line, col)
            elif kind == "text":
                value, end = self.text_literal(text, end, line, col)
                yield _Token("text", value, line, col)
            elif kind == "number":
                digits = match.group().replace("_", "")
                value = int(digits[2:], 16) if digits.startswith("0x") else int(digits)
                yield _Token("number", value, line, col)
            elif kind in ("name", "punct", "arrow"):
                yield _Token("name" if kind == "name" else "punct", match.group(), line, col)
            newlines = text.count("\n", pos, end)
            if newlines:
                line += newlines
                line_start = text.rindex("\n", pos, end) + 1
            pos = end
        yield _Token("end", "end of input", line, pos - line_start + 1)

    @staticmethod
    def comment_end(text: str, pos: int, line: int, col: int) -> int:
        depth = 0
        for match in re.compile(r"/\*|\*/").finditer(text, pos):
            depth += 1 if match.group() == "/*" else -1
            if depth == 0:
                return match.end()
        raise CandidError(f"{line}:{col}: comment is never closed")

    @staticmethod
    def text_literal(text: str, pos: int, line: int, col: int) -> tuple[str, int]:
        """A quoted string's value; ``\\xx`` hex escapes are bytes that must form UTF-8."""
        out = bytearray()
        escape = re.compile(r'\\(?:u\{([0-9a-fA-F_]+)\}|([0-9a-fA-F]{2})|([nrt\\"\']))')
        while True:
            if pos >= len(text) or text[pos] == "\n":
                raise CandidError(f"{line}:{col}: text is never closed")
            char = text[pos]
            if char == '"':
                try:
                    return out.decode("utf-8"), pos + 1
                except UnicodeDecodeError:
                    raise CandidError(f"{line}:{col}: text is not valid UTF-8") from None
            if char == "\\":
                match = escape.match(text, pos)
                if match is None:
                    raise CandidError(f"{line}:{col}: unknown escape {text[pos:pos + 2]!r} in text")
                code, byte, simple = match.groups()
                if code is not None:
                    scalar = int(code.replace("_", ""), 16)
                    if scalar > 0x10FFFF or 0xD800 <= scalar <= 0xDFFF:
                        raise CandidError(f"{line}:{col}: \\u{{{code}}} is not a Unicode scalar value")
                    out += chr(scalar).encode("utf-8")
                else:
                    out += bytes([int(byte, 16)]) if byte else _ESCAPES[simple].encode()
                pos = match.end()
            else:
                out += char.encode("utf-8", errors="surrogatepass")
                pos += 1

    def peek(self, offset: int = 0) -> _Token:
        return self.tokens[min(self.at + offset, len(self.tokens) - 1)]

    def next(self) -> _Token:
        token = self.peek()
        self.at += 1
        return token

    def error(self, expected: str, token: _Token | None = None) -> CandidError:
        token = token or self.peek()
        found = token.value if token.kind != "text" else f'"{token.value}"'
        return CandidError(f"{token.line}:{token.col}: expected {expected}, found {found}")

    def labels_next(self) -> bool:
        """Whether the next tokens are ``name :`` (a labelled field or argument)."""
        after = self.peek(1)
        return self.peek().kind in ("name", "text", "number") and after.kind == "punct" and after.value == ":"

    def is_(self, *values: str) -> bool:
        token = self.peek()
        return token.kind in ("punct", "name") and token.value in values

    def accept(self, value: str) -> bool:
        if self.is_(value):
            self.at += 1
            return True
        return False

    def expect(self, value: str) -> None:
        if not self.accept(value):
            raise self.error(f"'{value}'")

    def identifier(self) -> str:
        token = self.peek()
        if token.kind != "name" or token.value in DID_KEYWORDS:
            raise self.error("a type name")
        self.at += 1
        return token.value

    def label(self) -> str:
        """A field or method name: an identifier, a keyword, or a quoted text."""
        token = self.peek()
        if token.kind not in ("name", "text"):
            raise self.error("a name")
        self.at += 1
        return token.value

    def separated(self, item, separator: str, close: str) -> list:
        """``item`` repeated, separated (and optionally terminated) by ``separator``, up to ``close``."""
        items = []
        while not self.accept(close):
            items.append(item())
            if not self.accept(separator):
                self.expect(close)
                break
        return items

    # ---- grammar ----

    def program(self) -> Service:
        while self.accept("type"):
            name_token = self.peek()
            name = self.identifier()
            self.expect("=")
            named = self.reference(name, name_token)
            if name in self.defined_at:
                raise CandidError(f"{name_token.line}:{name_token.col}: type {name} is defined twice")
            self.defined_at[name] = name_token
            named.define(self.datatype())
            self.expect(";")
        if self.is_("import"):
            raise self.error("a definition (imports are not supported)")
        init_args, body, where = [], Service({}), self.peek()
        if self.accept("service"):
            init_args, body, where = self.actor()
            self.accept(";")
        if self.peek().kind != "end":
            raise self.error("'type' or 'service'")
        for name, named in self.names.items():
            if name not in self.defined_at:
                token = self.first_use[name]
                raise CandidError(f"{token.line}:{token.col}: type {name} is never defined")
            try:
                resolve(named)
            except CandidError as e:  # `type A = B; type B = A;`
                token = self.defined_at[name]
                raise CandidError(f"{token.line}:{token.col}: {e.reason}") from None
        for name, method, token in self.method_references:
            if not isinstance(resolve(method), FuncType):
                raise CandidError(f"{token.line}:{token.col}: method {name} has type {resolve(method)}, "
                                  "not a function type")
        service = resolve(body)
        if not isinstance(service, Service):
            raise CandidError(f"{where.line}:{where.col}: the service's type is {service}, not a service")
        return Service({name: resolve(method) for name, method in service.methods.items()}, init_args)

    def actor(self) -> tuple[list[CandidType], Service | Named, _Token]:
        """``service [name] : [(init args) ->] ({ methods } | TypeName)``."""
        if self.peek().kind == "name" and not self.is_(":"):
            self.identifier()  # the service's own name carries no meaning
        self.expect(":")
        init_args = []
        if self.is_("("):
            init_args = self.tuple_type()
            self.expect("->")
        where = self.peek()
        body = self.actor_type() if self.is_("{") else self.reference(self.identifier(), where)
        return init_args, body, where

    def actor_type(self) -> Service:
        self.expect("{")
        methods = {}

        def method():
            token = self.peek()
            name = self.label()
            if name in methods:
                raise CandidError(f"{token.line}:{token.col}: method {name} is declared twice")
            self.expect(":")
            if self.is_("("):
                methods[name] = self.func_type()
            else:
                where = self.peek()
                methods[name] = self.reference(self.identifier(), where)
                self.method_references.append((name, methods[name], where))  # checked once all are defined

        self.separated(method, ";", "}")
        return Service(methods)

    def func_type(self) -> FuncType:
        args = self.tuple_type()
        self.expect("->")
        rets = self.tuple_type()
        modes = []
        while self.is_(*FUNC_MODES):
            modes.append(self.next())
        if len(modes) > 1:
            raise CandidError(f"{modes[1].line}:{modes[1].col}: a function has at most one annotation")
        return FuncType(args, rets, {m.value for m in modes})

    def tuple_type(self) -> list[CandidType]:
        self.expect("(")

        def argument():
            if self.labels_next() and self.peek().kind != "number":
                self.at += 2  # an argument's name is documentation only
            return self.datatype()

        return self.separated(argument, ",", ")")

    def datatype(self) -> CandidType:
        token = self.next()
        word = token.value if token.kind == "name" else None
        if word in PRIMITIVES:
            return PRIMITIVES[word]
        if word == "blob":
            return BLOB
        if word == "opt":
            return Opt(self.datatype())
        if word == "vec":
            return Vec(self.datatype())
        if word in ("record", "variant"):
            return self.fields(token, Record if word == "record" else Variant)
        if word == "func":
            return self.func_type()
        if word == "service":
            return self.actor_type()
        if token.kind == "name" and word not in DID_KEYWORDS:
            return self.reference(word, token)
        raise self.error("a type", token)

    def fields(self, opening: _Token, kind: type) -> Record | Variant:
        self.expect("{")
        previous = [-1]

        def field() -> Field:
            token = self.peek()
            if self.labels_next() or kind is Variant:
                if token.kind == "number":
                    self.at += 1
                    field_id, name = token.value, None
                else:
                    name = self.label()
                    field_id = idl_hash(name)
                field_type = self.datatype() if self.accept(":") else NULL  # a bare variant tag is null
            else:
                field_id, name, field_type = previous[0] + 1, None, self.datatype()
            previous[0] = field_id
            return Field(field_id, name, field_type)

        fields = self.separated(field, ";", "}")
        try:
            return kind(fields)
        except CandidError as e:  # two fields with the same id
            raise CandidError(f"{opening.line}:{opening.col}: {e.reason}") from None

    def reference(self, name: str, token: _Token) -> Named:
        self.first_use.setdefault(name, token)
        return self.names.setdefault(name, Named(name))
