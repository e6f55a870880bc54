"""Plain English for messages: the indefinite article a type's name takes."""

from __future__ import annotations


def a(thing: object) -> str:
    """`thing` (a type, or its name) with its article: "an int", "an Optional[Tensor]", "a float", "a Union[...]"."""
    text = str(thing)
    vowel = text[:1].lower() in ("a", "e", "i", "o", "u") and not text.lower().startswith(("uni", "use", "one"))
    return f"{'an' if vowel else 'a'} {text}"
