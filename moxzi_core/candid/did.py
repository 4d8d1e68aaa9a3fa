"""Parsing Candid interface descriptions (``.did`` text) into ``Service`` objects."""

from __future__ import annotations

from .errors import CandidError
from .lexer import Token, tokenize
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


def parse_did(text: str) -> Service:
    """The service a ``.did`` file describes (an empty one when it has only type definitions).

    Method types are resolved to ``FuncType``; argument, result and field types may be ``Named`` (the
    file's type definitions, possibly recursive). Raises ``CandidError`` with ``line:column`` on error.
    """
    try:
        return TypeGrammar(list(tokenize(text))).program()
    except RecursionError:
        raise CandidError("types nested too deeply") from None


class TypeGrammar:
    """A recursive-descent parser of Candid's type grammar over a token list, read from ``at`` on.
    ``text.py``'s value parser extends it (values carry type annotations)."""

    def __init__(self, tokens: list[Token]):
        self.tokens = tokens
        self.at = 0
        self.names: dict[str, Named] = {}
        self.first_use: dict[str, Token] = {}
        self.defined_at: dict[str, Token] = {}
        self.method_references: list[tuple[str, Named, Token]] = []

    def peek(self, offset: int = 0) -> Token:
        at = self.at + offset
        return self.tokens[at] if at < len(self.tokens) else self.tokens[-1]

    def next(self) -> Token:
        token = self.peek()
        self.at += 1
        return token

    def error(self, expected: str, token: Token | None = None) -> CandidError:
        token = token or self.peek()
        return CandidError(f"{token.where}: expected {expected}, found {token.shown()}")

    def labels_next(self) -> bool:
        """Whether the next tokens are ``name :`` (a labelled field or argument)."""
        after = self.peek(1)
        return self.peek().kind in ("name", "text", "number") and after.kind == "punct" and after.value == ":"

    def is_(self, *values: str) -> bool:
        token = self.peek()
        return token.kind in ("punct", "name") and token.value in values

    def accept(self, value: str) -> bool:
        token = self.peek()
        if token.value == value and token.kind in ("punct", "name"):
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
        return token.text() if token.kind == "text" else token.value

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
        init_args: list[CandidType] = []
        body: Service | Named = Service({})
        where = self.peek()
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
                raise CandidError(
                    f"{token.line}:{token.col}: method {name} has type {resolve(method)}, not a function type"
                )
        service = resolve(body)
        if not isinstance(service, Service):
            raise CandidError(f"{where.line}:{where.col}: the service's type is {service}, not a service")
        return Service({name: resolve(method) for name, method in service.methods.items()}, init_args)

    def actor(self) -> tuple[list[CandidType], Service | Named, Token]:
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
        return FuncType(tuple(args), tuple(rets), frozenset(m.value for m in modes))

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
        if word is not None and word not in DID_KEYWORDS:
            return self.reference(word, token)
        raise self.error("a type", token)

    def fields(self, opening: Token, kind: type) -> Record | Variant:
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

    def reference(self, name: str, token: Token) -> Named:
        self.first_use.setdefault(name, token)
        return self.names.setdefault(name, Named(name))
