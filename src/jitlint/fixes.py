"""Applying fixes: text edits, repeated until nothing more applies, verified, written atomically.

Nothing is written unless the result parses, and never over a file that changed on disk since it was read.
"""

from __future__ import annotations

import difflib
import hashlib
import io
import tokenize
from dataclasses import dataclass, field
from pathlib import Path

import libcst as cst

from jitlint import atomic
from jitlint.finding import Edit, Finding, Location

MAX_PASSES = 10


def _offset(line_starts: list[int], location: Location) -> int:
    return line_starts[location.row - 1] + location.column - 1


def apply_edits(text: str, fixes: list[list[Edit]]) -> str:
    """Apply whole fixes (each a list of edits) that do not overlap an earlier one; the rest wait for the next
    pass. An edit identical to one already chosen (two findings, one fix) is shared, not a conflict."""
    line_starts = [0]
    for line in text.splitlines(keepends=True):
        line_starts.append(line_starts[-1] + len(line))
    chosen: dict[tuple[int, int], str] = {}

    def conflicts(start: int, end: int, content: str) -> bool:
        for (other_start, other_end), other_content in chosen.items():
            if (start, end) == (other_start, other_end):
                if content != other_content:
                    return True
            elif start < other_end and other_start < end:
                return True
            elif start == end == other_start == other_end:
                return True
        return False

    for edits in fixes:
        spans = [(_offset(line_starts, e.location), _offset(line_starts, e.end_location), e.content) for e in edits]
        if not any(conflicts(*span) for span in spans):
            chosen.update({(start, end): content for start, end, content in spans})
    for (start, end), content in sorted(chosen.items(), reverse=True):
        text = text[:start] + content + text[end:]
    return text


def applicable(finding: Finding, unsafe: bool) -> bool:
    return finding.fix is not None and (finding.fix.applicability == "safe" or unsafe)


@dataclass
class FixResult:
    path: Path
    original: str
    fixed: str
    applied: list[Finding] = field(default_factory=list)
    error: str = ""


def fix_sources(texts: dict[str, str], lint_texts, unsafe: bool) -> dict[str, FixResult]:
    """Fix the files of one run together: lint the run, apply what is applicable in each file, repeat until stable.

    `texts` maps display names to the files' text; `lint_texts(changed) -> list[Finding]` lints the whole run
    with `changed` (display name -> text so far, for the files a fix changed) in place of the files on disk. One
    lint of the run per pass: a file's findings depend on the others (a helper is compiled because another file's
    `forward` calls it), and a pass per file would lint the run once per fixed file."""
    results = {name: FixResult(Path(name), text, text) for name, text in texts.items()}
    for _ in range(MAX_PASSES):
        found: dict[str, list[Finding]] = {}
        changed = {name: result.fixed for name, result in results.items() if result.fixed != result.original}
        for finding in lint_texts(changed):
            result = results.get(finding.filename)
            if result is not None and not result.error and applicable(finding, unsafe):
                found.setdefault(finding.filename, []).append(finding)
        progressed = False
        for name, findings in found.items():
            result = results[name]
            candidate = apply_edits(result.fixed, [list(f.fix.edits) for f in findings])
            if candidate == result.fixed:
                continue
            try:
                cst.parse_module(candidate)
            except Exception as error:  # a fix must never produce code that does not parse
                result.error = f"a fix produced code that does not parse ({type(error).__name__}); file left unchanged"
                result.fixed = result.original
                result.applied = []
                continue
            result.fixed = candidate
            result.applied.extend(findings)
            progressed = True
        if not progressed:
            break
    return results


def unified_diff(result: FixResult, display_name: str) -> str:
    return "".join(difflib.unified_diff(
        result.original.splitlines(keepends=True), result.fixed.splitlines(keepends=True),
        fromfile=f"a/{display_name}", tofile=f"b/{display_name}",
    ))


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def write_atomically(path: Path, text: str, encoding: str, expected_digest: str) -> str:
    """Write atomically (`jitlint.atomic`), keeping the permissions and a UTF-8 byte-order mark; refuse if the
    file changed since it was read. Returns an error message, or "" on success."""
    try:
        current = path.read_bytes()
    except OSError as error:
        return f"cannot re-read it before writing: {error.strerror or error}"
    if digest(current) != expected_digest:
        return "it changed on disk while jitlint was fixing it; not overwritten"
    data = text.encode(encoding)
    if current.startswith(b"\xef\xbb\xbf") and not data.startswith(b"\xef\xbb\xbf"):
        data = b"\xef\xbb\xbf" + data
    mode = path.stat().st_mode
    try:
        atomic.write_atomically(path, data, mode=mode & 0o7777, fsync=True, suffix=".jitlint-tmp")
    except OSError as error:
        return f"cannot write it: {error.strerror or error}"
    return ""


def write_source(path: Path, text: str, original: bytes) -> str:
    """Write `text` over the file whose bytes were `original`, in the encoding it declares (its coding cookie, or
    UTF-8; a BOM is kept), atomically and only if the file still holds `original`. An error message, or ""."""
    encoding, _ = tokenize.detect_encoding(io.BytesIO(original).readline)
    return write_atomically(path, text, "utf-8" if encoding == "utf-8-sig" else encoding, digest(original))
