"""A small Wadler-style pretty printer: documents that lay themselves out flat when they fit the line
width and break otherwise. It renders exactly as the Rust ``pretty`` crate does, which is what
``dfx`` and ``didc`` print Candid values with, so ``text.print_values`` matches their line breaks.

A document is a tuple: ``("text", s)``, ``LINE`` (a newline plus the current indentation),
``("alt", broken, flat)`` (the first in a broken group, the second in a flat one), ``("nest", n, doc)``
(indent by ``n`` more after newlines), ``("group", doc)`` (flat if it fits) or ``("cat", docs)``.
"""

from __future__ import annotations

LINE = ("line",)
NIL = ("cat", ())
INDENT = 2
WIDTH = 80


def text(s: str) -> tuple:
    return ("text", s)


def cat(*docs: tuple) -> tuple:
    return ("cat", docs)


def line() -> tuple:
    """A newline when broken, a space when flat."""
    return ("alt", LINE, text(" "))


def line_() -> tuple:
    """A newline when broken, nothing when flat."""
    return ("alt", LINE, NIL)


def enclose(left: str, doc: tuple, right: str, space: bool = False) -> tuple:
    """``left doc right`` on one line, or with ``doc`` indented on lines of its own; ``space`` puts
    spaces inside the brackets when flat (``{ a }`` rather than ``(a)``)."""
    if doc == NIL:
        return text(left + right)
    gap = line() if space else line_()
    return ("group", cat(("nest", INDENT, cat(text(left), gap, doc)), gap, text(right)))


def separated(docs: list[tuple], separator: str) -> tuple:
    """``docs`` joined by ``separator``; when broken, the last one is followed by it too."""
    if not docs:
        return NIL
    parts = []
    for i, doc in enumerate(docs):
        if i:
            parts += [text(separator), line()]
        parts.append(doc)
    flat = cat(*parts)
    return ("alt", cat(flat, text(separator)), flat)


def render(doc: tuple, width: int = WIDTH) -> str:
    """The document laid out in ``width`` columns (counted in UTF-8 bytes, as the Rust crate does)."""
    out: list[str] = []
    pos = 0
    commands = [(0, True, doc)]  # (indentation, broken?, document), processed from the end
    while commands:
        indent, broken, d = commands.pop()
        kind = d[0]
        if kind == "text":
            out.append(d[1])
            pos += len(d[1].encode("utf-8"))
        elif kind == "line":
            out.append("\n" + " " * indent)
            pos = indent
        elif kind == "alt":
            commands.append((indent, broken, d[1] if broken else d[2]))
        elif kind == "nest":
            commands.append((indent + d[1], broken, d[2]))
        elif kind == "group":
            commands.append((indent, broken and not _fits(d[1], pos, commands, width), d[1]))
        else:
            commands.extend((indent, broken, part) for part in reversed(d[1]))
    return "".join(out)


def _fits(doc: tuple, pos: int, rest: list, width: int) -> bool:
    """Whether ``doc`` laid out flat, followed by the rest up to its first possible newline, stays
    within ``width``."""
    pending, broken, next_rest = [doc], False, len(rest)
    while True:
        if not pending:
            if next_rest == 0:
                return True
            next_rest -= 1
            pending.append(rest[next_rest][2])
            broken = True  # what follows the group is measured as it would be printed broken
        d = pending.pop()
        kind = d[0]
        if kind == "text":
            pos += len(d[1].encode("utf-8"))
            if pos > width:
                return False
        elif kind == "line":
            return broken
        elif kind == "alt":
            pending.append(d[1] if broken else d[2])
        elif kind in ("nest", "group"):
            pending.append(d[-1])
        else:
            pending.extend(reversed(d[1]))
