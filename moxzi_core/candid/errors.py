"""The one error the Candid package raises."""

from __future__ import annotations


class CandidError(ValueError):
    """Malformed, mistyped or over-budget Candid (binary, ``.did`` text or JSON).

    ``reason`` says what was wrong; ``offset`` is the byte offset in a binary message (or ``None``);
    ``path`` locates the value, e.g. ``["argument 0", ".narrow", ".x"]``. ``str()`` joins all three.
    """

    def __init__(self, reason: str, *, offset: int | None = None):
        super().__init__(reason)
        self.reason = reason
        self.offset = offset
        self.path: list[str] = []

    def within(self, segment: str) -> CandidError:
        """Prefix the location with ``segment`` (an outer value) and return the same error to re-raise."""
        self.path.insert(0, segment)
        return self

    def __str__(self) -> str:
        path = self.path if len(self.path) <= 12 else [*self.path[:6], "...", *self.path[-5:]]
        where = f"{''.join(path)}: " if path else ""
        at = f" (at byte {self.offset})" if self.offset is not None else ""
        return f"{where}{self.reason}{at}"
