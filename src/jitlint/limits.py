"""What a run skips instead of linting: files over `max-file-size`, and files that declare themselves generated.
Without LibCST: the cache asks too (a header comment that makes a file generated changes what other files see)."""

from __future__ import annotations

import io
import re
import tokenize
from dataclasses import dataclass

# LibCST's time and memory grow with the size of a file, to minutes and gigabytes for a file of several MiB (rule
# page JIT004), so files over `max-file-size` are skipped with a warning, never an error: they are valid Python.
# The default is well above the largest hand-written model file.
DEFAULT_MAX_FILE_BYTES = 1024 * 1024
MAX_FILE_BYTES = DEFAULT_MAX_FILE_BYTES  # the old name, kept for callers
GENERATED_MARKERS = ("@generated", "DO NOT EDIT")  # Phabricator's marker, and what protoc, Go and others write
_GENERATED_HEADER_LINES = 10


@dataclass(frozen=True)
class Limits:
    """What a run skips instead of linting (`max-file-size`, `lint-generated` in the configuration)."""

    max_file_size: int = DEFAULT_MAX_FILE_BYTES
    lint_generated: bool = False


DEFAULT_LIMITS = Limits()


def generated_marker(text: str) -> str | None:
    """The marker by which a file declares itself generated, if it says so in its header: the comments and the
    module docstring within its first lines (a mention in code, or further down, does not count)."""
    quote = None  # the closing quotes while inside the module docstring
    for line in text.splitlines()[:_GENERATED_HEADER_LINES]:
        stripped = line.strip()
        if quote is None:
            opening = stripped.lstrip("rRuU")[:3]
            if opening in ('"""', "'''"):
                rest = stripped.lstrip("rRuU")[3:]
                quote = None if opening in rest else opening
            elif stripped and not stripped.startswith("#"):
                return None  # the first statement: the header is over
        elif quote in stripped:
            quote = None
        for marker in GENERATED_MARKERS:
            if marker in stripped:
                return marker
    return None


MAX_NESTING = 200  # CPython's own limit: deeper brackets are a SyntaxError ("too many nested parentheses")
MAX_STATEMENT_TOKENS = 20_000  # LibCST takes minutes on generated one-statement monsters; nobody writes them
_SUSPICIOUS_LINE = 10_000
_NOT_BRACKETS = re.compile(r"[^()\[\]{}]+")


def structure_problem(text: str) -> tuple[str, int] | None:
    """What makes a file too deep or too large to parse safely, found with the tokenizer, which only runs when a
    cheap scan looks suspicious (brackets nested over the limit, or a very long line)."""
    depth = deepest = 0
    for character in _NOT_BRACKETS.sub("", text):  # the brackets alone: a few percent of the characters
        if character in "([{":
            depth += 1
            if depth > deepest:
                deepest = depth
        else:
            depth -= 1
    if deepest <= MAX_NESTING and max(map(len, text.splitlines() or [""])) <= _SUSPICIOUS_LINE:
        return None
    depth, tokens = 0, 0
    try:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.type == tokenize.OP and token.string in "([{":
                depth += 1
                if depth > MAX_NESTING:
                    return f"cannot parse: too many nested parentheses (Python allows {MAX_NESTING})", token.start[0]
            elif token.type == tokenize.OP and token.string in ")]}":
                depth -= 1
            elif token.type in (tokenize.NEWLINE, tokenize.ENDMARKER):
                tokens = 0
            tokens += 1
            if tokens > MAX_STATEMENT_TOKENS:
                return (f"skipped: a statement too large to analyze (over {MAX_STATEMENT_TOKENS} tokens; LibCST "
                        "would take minutes); is this file generated?"), token.start[0]
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return None  # LibCST reports it with a better message
    return None
