"""A file's text kept compactly for the length of a run.

Python stores a `str` at 1, 2 or 4 bytes a character, whichever its widest character needs. One emoji in a
docstring (transformers' 🤗, in about 4 of its files in 10) makes a whole file's text 4 bytes a character: most of
the text a worker holds. `CompactText` is a dataclass field that keeps such a text as its UTF-8 bytes and decodes
it when it is read; the last few texts decoded are kept, so the file being linted, read again and again by its
rules, is decoded once. A text at 1 byte a character, or one that UTF-8 would not make at least half as large, is
kept as it is.
"""

from __future__ import annotations

import sys

_RECENT: list[tuple[bytes, str]] = []  # the last texts decoded, most recent last
_RECENT_SIZE = 4


def compact(text: str | None) -> str | bytes | None:
    """`text`, or its UTF-8 bytes when those are at most half its size in memory. A text just read from a compact
    one gives the same bytes back (a file's source and its module's index hold one copy, as they held one str)."""
    if text is None or text.isascii():
        return text
    for data, decoded in _RECENT:
        if decoded is text:
            return data
    data = text.encode("utf-8", "surrogatepass")
    return data if 2 * sys.getsizeof(data) <= sys.getsizeof(text) else text


def expand(stored: str | bytes | None) -> str | None:
    """The text `compact` kept."""
    if not isinstance(stored, bytes):
        return stored
    for data, text in reversed(_RECENT):
        if data is stored:
            return text
    text = stored.decode("utf-8", "surrogatepass")
    _RECENT.append((stored, text))
    if len(_RECENT) > _RECENT_SIZE:
        del _RECENT[0]
    return text


class CompactText:
    """A dataclass field holding a text as `compact` keeps it; reading it gives the `str`. The field has no default
    of its own (`field: str = CompactText()` is a required argument; give `default` for an optional one)."""

    _NO_DEFAULT = object()

    def __init__(self, default: object = _NO_DEFAULT) -> None:
        self.default = default

    def __set_name__(self, owner: type, name: str) -> None:
        self.slot = f"_{name}_stored"

    def __get__(self, instance: object, owner: type | None = None):
        if instance is None:
            if self.default is self._NO_DEFAULT:
                raise AttributeError(self.slot)  # dataclasses: the field is required
            return self.default
        return expand(instance.__dict__[self.slot])

    def __set__(self, instance: object, value: str | None) -> None:
        instance.__dict__[self.slot] = compact(value)
