"""`# noqa` comments: which findings they suppress, which of their codes suppressed nothing (JIT900), and adding
them (`--add-noqa`).

Standard library only (the regular expressions and the tokenizer): LibCST is not needed to read a comment.
"""

from __future__ import annotations

import io
import re
import tokenize
from dataclasses import dataclass, field

_CODES = r"[A-Z]+[0-9]+(?:\s*,\s*[A-Z]+[0-9]+)*"
NOQA = re.compile(rf"#\s*noqa(?::\s*(?P<codes>{_CODES}))?", re.IGNORECASE)
FILE_NOQA = re.compile(rf"^\s*#\s*jitlint:\s*noqa(?::\s*(?P<codes>{_CODES}))?\s*$", re.IGNORECASE | re.MULTILINE)
_CODE = re.compile(r"[A-Z]+[0-9]+", re.IGNORECASE)


def parse_codes(text: str | None) -> set[str] | None:
    """None means every code."""
    if text is None:
        return None
    return {code.strip().upper() for code in text.split(",") if code.strip()}


class Suppressions:
    """The `# noqa` comments of one file. `ignore=True` (`--ignore-noqa`): none of them suppresses anything.
    Records which (row, code) a line comment suppressed, for JIT900."""

    def __init__(self, text: str, ignore: bool = False) -> None:
        self.lines = text.splitlines()
        self.ignore = ignore
        self.file_level: set[str] | None = set()
        self.used: set[tuple[int, str]] = set()
        if ignore:
            return
        for match in FILE_NOQA.finditer(text):
            codes = parse_codes(match.group("codes"))
            if codes is None:
                self.file_level = None
                break
            self.file_level |= codes

    def suppressed(self, code: str, row: int) -> bool:
        if self.ignore:
            return False
        if self.file_level is None or code in self.file_level:
            return True
        if 1 <= row <= len(self.lines):
            line = self.lines[row - 1]
            if "noqa" in line.lower():
                match = NOQA.search(line)
                if match:
                    codes = parse_codes(match.group("codes"))
                    if codes is None or code in codes:
                        self.used.add((row, code))
                        return True
        return False


# -- where a comment can go, and where the comments are -----------------------------------------------------------
def _tokens(text: str) -> list[tokenize.TokenInfo] | None:
    try:
        return list(tokenize.generate_tokens(io.StringIO(text).readline))
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return None


def comment_starts(text: str) -> dict[int, list[int]] | None:
    """Row -> the columns (0-based characters) where comments start; None if the file does not tokenize."""
    tokens = _tokens(text)
    if tokens is None:
        return None
    starts: dict[int, list[int]] = {}
    for token in tokens:
        if token.type == tokenize.COMMENT:
            starts.setdefault(token.start[0], []).append(token.start[1])
    return starts


def unsafe_rows(text: str) -> dict[int, str] | None:
    """Rows whose end is no place for a comment, with the reason: the row ends inside a string that spans lines,
    or with a backslash continuation. None if the file does not tokenize."""
    tokens = _tokens(text)
    if tokens is None:
        return None
    unsafe: dict[int, str] = {}
    for token in tokens:
        if token.type == tokenize.STRING and token.end[0] > token.start[0]:
            for row in range(token.start[0], token.end[0]):
                unsafe[row] = "the line ends inside a string that spans lines"
    for row, line in enumerate(text.splitlines(), 1):
        if row not in unsafe and line.rstrip("\r\n").endswith("\\"):
            unsafe[row] = "the line ends with a backslash continuation"
    return unsafe


@dataclass
class Directive:
    """A line's `# noqa: CODES` comment, as `Suppressions` reads it (the first on the line), when it is a comment."""

    row: int
    start: int  # 0-based column of `#`
    end: int  # 0-based column after the last code
    codes: list[tuple[str, int, int]] = field(default_factory=list)  # (CODE, start, end), in order
    comment_start: int = 0  # where the comment holding it starts
    comment_end: int = 0  # the end of that comment (the end of the line's text)


def directives(text: str) -> list[Directive]:
    """Every line `# noqa: CODES` directive with codes (a bare `# noqa` is not one: other tools read it too)."""
    if "noqa" not in text.lower():
        return []
    comments = comment_starts(text)
    if comments is None:
        return []
    found = []
    for row, line in enumerate(text.splitlines(), 1):
        if row not in comments or "noqa" not in line.lower():
            continue
        match = NOQA.search(line)
        if match is None or match.group("codes") is None:
            continue
        holder = [start for start in comments[row] if start <= match.start()]
        if not holder:
            continue  # the first `# noqa` of the line is inside a string: Suppressions reads it, but it is no comment
        offset = match.start("codes")
        codes = [(m.group().upper(), offset + m.start(), offset + m.end()) for m in _CODE.finditer(match.group("codes"))]
        found.append(Directive(row, match.start(), match.end(), codes, max(holder), len(line.rstrip())))
    return found


def removal(line: str, directive: Directive, unused: set[str]) -> tuple[int, int, str]:
    """The edit (start, end, replacement; 0-based columns of `line`) that removes the `unused` codes of a
    directive: just those codes from a list, else the whole directive (and the comment, if that is all it was)."""
    kept = [code for code, _start, _end in directive.codes if code not in unused]
    if kept:
        first, last = directive.codes[0][1], directive.codes[-1][2]
        return first, last, ", ".join(kept)
    rest = line[directive.end:directive.comment_end]
    if directive.start == directive.comment_start and rest.strip():
        return directive.start, directive.end, "#"  # `# noqa: X because ...` -> `# because ...`
    start = directive.start
    while start > 0 and line[start - 1] in " \t":
        start -= 1
    end = directive.end if rest.strip() else directive.comment_end
    return start, end, ""


# -- adding them -----------------------------------------------------------------------------------------------------
def add_noqa(text: str, wanted: dict[int, set[str]]) -> tuple[str, int, dict[int, str]]:
    """Add `# noqa: CODES` for `wanted` (row -> codes) to `text`: merged into a line's existing `# noqa: ...`
    comment, else appended after the line's code and comments. Returns the new text, the number of lines changed,
    and the rows that cannot take a comment (with the reason); those are left as they are."""
    noqa = NoqaLines(text)
    lines = list(noqa.lines)
    refused: dict[int, str] = {}
    changed = 0
    for row in sorted(wanted):
        line, reason = noqa.line(row, wanted[row])
        if reason is not None:
            refused[row] = reason
        elif line is not None:
            lines[row - 1] = line
            changed += 1
    return "".join(lines), changed, refused


class NoqaLines:
    """A text read once (tokenized) for adding `# noqa` comments to its lines, one line at a time (`add_noqa` for
    many rows at once; the editor server for each finding's own "ignore" action)."""

    def __init__(self, text: str) -> None:
        self.unsafe = unsafe_rows(text)
        self.comments = (comment_starts(text) or {}) if self.unsafe is not None else {}
        self.lines = text.splitlines(keepends=True)

    def line(self, row: int, codes: set[str]) -> tuple[str | None, str | None]:
        """Line `row` with `# noqa: CODES` (None if it suppresses them already), or why it cannot take one."""
        if self.unsafe is None:
            return None, "the file does not tokenize"
        if not 1 <= row <= len(self.lines):
            return None, "no such line"
        if row in self.unsafe:
            return None, self.unsafe[row]
        line = self.lines[row - 1]
        body = line.rstrip("\r\n")
        ending = line[len(body):]
        match = NOQA.search(body)
        in_comment = match is not None and any(start <= match.start() for start in self.comments.get(row, []))
        if match is not None and not in_comment:
            return None, "a `# noqa` inside a string comes first on the line"
        if match is not None and match.group("codes") is None:
            return None, None  # a bare `# noqa` already suppresses every code
        if match is not None:
            present = parse_codes(match.group("codes")) or set()
            missing = sorted(set(codes) - present)
            if not missing:
                return None, None
            body = body[:match.end("codes")] + ", " + ", ".join(missing) + body[match.end("codes"):]
        else:
            body = body.rstrip(" \t") + "  # noqa: " + ", ".join(sorted(codes))
        return body + ending, None
