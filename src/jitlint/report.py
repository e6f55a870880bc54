"""Rendering findings: text, concise, full, grouped, json, json-lines, github, gitlab, junit, pylint, sarif.
Findings arrive sorted by file, line, column."""

from __future__ import annotations

import hashlib
import json
import os
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from xml.sax.saxutils import quoteattr

from jitlint.finding import Finding

OUTPUT_FORMATS = ("text", "concise", "full", "grouped", "json", "json-lines", "github", "gitlab", "junit", "pylint",
                  "sarif")
# Formats a person reads: they carry the summary and, on a terminal, colour.
HUMAN_FORMATS = ("text", "concise", "full", "grouped")


@dataclass(frozen=True)
class Style:
    """How the human formats look: ANSI colour (a terminal, or FORCE_COLOR), and whether unsafe fixes are on (they
    then count as fixable, as `--fix` would apply them)."""

    color: bool = False
    unsafe_fixes: bool = False

    def paint(self, text: str, *codes: int) -> str:
        if not self.color or not text:
            return text
        return f"\x1b[{';'.join(map(str, codes))}m{text}\x1b[0m"


PLAIN = Style()


def wants_color(stream) -> bool:
    """Colour on a terminal; `NO_COLOR` (any value) turns it off, `FORCE_COLOR` (any value but 0) forces it."""
    force = os.environ.get("FORCE_COLOR", "")
    if force and force != "0":
        return True
    if os.environ.get("NO_COLOR", ""):
        return False
    try:
        return bool(stream is not None and stream.isatty())
    except (OSError, ValueError):
        return False


def render(findings: list[Finding], output_format: str, *, quiet: bool = False, baselined: bool = False,
           style: Style = PLAIN) -> str:
    """`baselined`: the findings are what a baseline did not cover (SARIF marks them `baselineState: new`)."""
    return "".join(pieces(findings, output_format, quiet=quiet, baselined=baselined, style=style))


def pieces(findings: list[Finding], output_format: str, *, quiet: bool = False,
           baselined: bool = False, style: Style = PLAIN) -> Iterator[str]:
    """`render`'s text, a piece at a time: a run with many findings writes them out without holding the whole
    text and every finding's JSON object at once (which, for a large library's JSON, held several times its size)."""
    if output_format == "sarif":
        from jitlint.rules import RULES
        from jitlint.sarif import render as render_sarif

        yield render_sarif(findings, RULES, baselined=baselined)
    elif output_format == "full":
        yield _full(findings, quiet, style)
    elif output_format == "grouped":
        yield from _grouped(findings, quiet, style)
    elif output_format == "json":
        yield from _json(findings)
    elif output_format == "json-lines":
        yield from (json.dumps(f.to_json()) + "\n" for f in findings)
    elif output_format == "github":
        yield from (_github(f) + "\n" for f in findings)
    elif output_format == "gitlab":
        yield _gitlab(findings)
    elif output_format == "junit":
        yield _junit(findings)
    elif output_format == "pylint":
        yield from (_pylint(f) + "\n" for f in findings)
    else:
        yield from _text(findings, quiet, style)


def _json(findings: list[Finding]) -> Iterator[str]:
    """`json.dumps([f.to_json() for f in findings], indent=2)`, one finding at a time: an element's lines are
    its own dump's, indented one level (a string's newlines are escaped, so every newline is the layout's)."""
    if not findings:
        yield "[]\n"
        return
    for index, finding in enumerate(findings):
        element = json.dumps(finding.to_json(), indent=2).replace("\n", "\n  ")
        yield ("[\n  " if index == 0 else ",\n  ") + element
    yield "\n]\n"


def _header(f: Finding, style: Style) -> str:
    where = (f"{style.paint(f.filename, 1)}{style.paint(':', 36)}{f.location.row}{style.paint(':', 36)}"
             f"{f.location.column}{style.paint(':', 36)}")
    code = style.paint(f.code, 1, 31 if f.severity == "error" else 33 if f.severity == "warning" else 34)
    return f"{where} {code} {_fixable(f, style)}[{f.severity}] {f.message}{_status(f)}"


def _full(findings: list[Finding], quiet: bool, style: Style = PLAIN) -> str:
    """Each finding with its source line and a caret under the range (ruff's `full`), and the chain of calls that
    makes the capture reach its function."""
    blocks = []
    for f in findings:
        header = _header(f, style)
        line = getattr(f.context, "line_text", "")
        chain = "".join(f"\n  = {style.paint('captured', 36)}: {step}" for step in _chain_lines(f))
        if line:
            start = f.location.column - 1
            end = f.end_location.column - 1 if f.end_location.row == f.location.row else len(line)
            width = max(1, end - start)
            gutter = str(f.location.row)
            caret = style.paint("^" * width, 1, 31 if f.severity == "error" else 33)
            blocks.append(f"{header}\n {gutter} | {line}\n {' ' * len(gutter)} | {' ' * start}{caret}{chain}\n")
        else:
            blocks.append(header + chain + "\n")
    text = "\n".join(blocks)
    if not quiet:
        text += ("\n" if blocks else "") + summary(findings, style) + "\n"
    return text


def _chain_lines(f: Finding) -> list[str]:
    """The capture chain of a finding, outermost first: "`Model.forward` (the root, a.py:3)", "calls `helper` at
    a.py:7"."""
    chain = getattr(f, "captured_from", None)
    if not chain:
        return []
    lines = []
    for index, step in enumerate(chain):
        where = f"{step.filename}:{step.row}" if step.row else step.filename
        if index == 0:
            lines.append(f"`{step.function}` ({step.reason}, {where})")
        else:
            lines.append(f"calls `{step.function}` at {where}")
    return lines


def _text(findings: list[Finding], quiet: bool, style: Style = PLAIN) -> Iterator[str]:
    for f in findings:
        yield _header(f, style) + "\n"
    if not quiet:
        yield summary(findings, style) + "\n"


def _grouped(findings: list[Finding], quiet: bool, style: Style = PLAIN) -> Iterator[str]:
    """ruff's `grouped`: a file's name, then its findings indented, a blank line between files."""
    current = None
    for f in findings:
        if f.filename != current:
            if current is not None:
                yield "\n"
            current = f.filename
            yield f"{style.paint(f.filename, 1, 4)}:\n"
        code = style.paint(f.code, 1, 31 if f.severity == "error" else 33 if f.severity == "warning" else 34)
        yield f"  {f.location.row}:{f.location.column} {code} {_fixable(f, style)}[{f.severity}] {f.message}{_status(f)}\n"
    if not quiet:
        yield ("\n" if findings else "") + summary(findings, style) + "\n"


def _fixable(finding: Finding, style: Style = PLAIN) -> str:
    """ruff's marker: `[*]` for a fix --fix applies, `[-]` for one that needs --unsafe-fixes."""
    if finding.fix is None:
        return ""
    if finding.fix.applicability == "safe" or style.unsafe_fixes:
        return style.paint("[*]", 36) + " "
    return "[-] "


def _status(finding: Finding) -> str:
    confirmation = finding.confirmation
    if confirmation is None:
        return ""
    if confirmation.status == "confirmed":
        return f" (confirmed by torch {confirmation.torch_version})"
    return f" ({confirmation.status}: {confirmation.detail})"


def fix_counts(findings: list[Finding], unsafe_fixes: bool) -> tuple[int, int]:
    """(fixable by `--fix` as run, hidden: fixable only with `--unsafe-fixes`)."""
    safe = sum(1 for f in findings if f.fix is not None and f.fix.applicability == "safe")
    unsafe = sum(1 for f in findings if f.fix is not None and f.fix.applicability == "unsafe")
    return (safe + unsafe, 0) if unsafe_fixes else (safe, unsafe)


def fixable_line(findings: list[Finding], unsafe_fixes: bool) -> str:
    """ruff's line: "[*] 3 fixable with the `--fix` option (2 hidden fixes can be enabled with the `--unsafe-fixes`
    option)." ("" when nothing is fixable)."""
    fixable, hidden = fix_counts(findings, unsafe_fixes)
    hint = (f"{hidden} hidden fix{'' if hidden == 1 else 'es'} can be enabled with the `--unsafe-fixes` option"
            if hidden else "")
    if fixable:
        return f"[*] {fixable} fixable with the `--fix` option" + (f" ({hint})." if hint else ".")
    return f"No fixes available ({hint})." if hint else ""


def summary(findings: list[Finding], style: Style = PLAIN) -> str:
    if not findings:
        return "All checks passed!"
    counts = Counter(f.severity for f in findings)
    parts = [f"{counts[s]} {s}{'' if counts[s] == 1 else 's'}" for s in ("error", "warning", "info") if counts[s]]
    files = len({f.filename for f in findings})
    text = (f"Found {len(findings)} finding{'' if len(findings) == 1 else 's'} in {files} file{'' if files == 1 else 's'} "
            f"({', '.join(parts)}).{_export_migration(findings)}")
    fixable = fixable_line(findings, style.unsafe_fixes)
    text += _grouped_capture(findings)
    return text + (f"\n{fixable}" if fixable else "")


def _grouped_capture(findings: list[Finding]) -> str:
    """Many findings reached through one call: the summary names the call and what would stop the capture there."""
    from jitlint.capture_report import capture_groups

    lines = [f"\n{group.describe()}" for group in capture_groups(findings)]
    return "".join(lines)


def _export_migration(findings: list[Finding]) -> str:
    """The migration view of the export target's findings: what export rejects (errors), what it silently changes
    (warnings), and the TorchScript-only constructs it no longer needs (infos)."""
    from jitlint.codes import TARGET_OF

    counts = Counter(f.severity for f in findings if TARGET_OF.get(f.code) == "export")
    if not counts:
        return ""
    changes, constructs = counts["warning"], counts["info"]
    return (f" torch.export: {counts['error']} rejected, {changes} silent change{'' if changes == 1 else 's'}, "
            f"{constructs} TorchScript-only construct{'' if constructs == 1 else 's'} no longer needed.")


def _escape_property(value: str) -> str:
    return value.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A").replace(":", "%3A").replace(",", "%2C")


def _escape_data(value: str) -> str:
    return value.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _github(f: Finding) -> str:
    level = {"error": "error", "warning": "warning", "info": "notice"}[f.severity]
    properties = ",".join(
        [
            f"title={_escape_property(f'jitlint ({f.code})')}",
            f"file={_escape_property(f.filename)}",
            f"line={f.location.row}",
            f"col={f.location.column}",
            f"endLine={f.end_location.row}",
            f"endColumn={f.end_location.column}",
        ]
    )
    return f"::{level} {properties}::{_escape_data(f'{f.filename}:{f.location.row}:{f.location.column}: {f.code} {f.message}')}"


def statistics(findings: list[Finding], output_format: str, unsafe_fixes: bool = False) -> str:
    counts = Counter((f.code, f.name) for f in findings)
    fixable = {f.code for f in findings if f.fix is not None and (f.fix.applicability == "safe" or unsafe_fixes)}
    rows = sorted(counts.items(), key=lambda item: (-item[1], item[0][0]))
    if output_format == "json":
        return json.dumps([{"code": code, "name": name, "count": count, "fixable": code in fixable}
                           for (code, name), count in rows], indent=2) + "\n"
    width = max((len(str(count)) for count in counts.values()), default=1)
    return "".join(f"{count:>{width}}\t{code}\t{'[*]' if code in fixable else '   '}\t{name}\n"
                   for (code, name), count in rows)


# -- machine formats of CI systems ----------------------------------------------------------------------------------
_GITLAB_SEVERITY = {"error": "major", "warning": "minor", "info": "info"}


def _project_path(filename: str) -> str:
    """A path relative to the project GitLab checked out (`CI_PROJECT_DIR`, else the current directory)."""
    base = os.environ.get("CI_PROJECT_DIR") or os.getcwd()
    absolute = os.path.abspath(filename)
    try:
        return os.path.relpath(absolute, base).replace(os.sep, "/")
    except ValueError:
        return absolute.replace(os.sep, "/")


def _gitlab(findings: list[Finding]) -> str:
    """GitLab's Code Quality report: Code Climate issues with a stable fingerprint (the rule, the file and the
    line's text, and which occurrence of it, so that moving lines keeps it)."""
    seen: Counter = Counter()
    issues = []
    for f in findings:
        path = _project_path(f.filename)
        text = " ".join(getattr(f.context, "line_text", "").split())
        seen[(f.code, path, text)] += 1
        digest = hashlib.sha256(f"{f.code}\0{path}\0{text}\0{seen[(f.code, path, text)]}".encode()).hexdigest()
        issues.append({
            "type": "issue",
            "check_name": f.code,
            "description": f"{f.code} {f.message}",
            "fingerprint": digest[:32],
            "severity": _GITLAB_SEVERITY[f.severity],
            "location": {"path": path, "positions": {
                "begin": {"line": f.location.row, "column": f.location.column},
                "end": {"line": f.end_location.row, "column": f.end_location.column}}},
        })
    return json.dumps(issues, indent=2) + "\n"


def _junit(findings: list[Finding]) -> str:
    """JUnit XML: a test suite per file, a failed test case per finding (what CI systems show as test results)."""
    by_file: dict[str, list[Finding]] = {}
    for f in findings:
        by_file.setdefault(f.filename, []).append(f)
    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           f'<testsuites name="jitlint" tests="{max(len(findings), 1)}" failures="{len(findings)}" errors="0">']
    if not findings:
        out.append('  <testsuite name="jitlint" tests="1" failures="0" errors="0">')
        out.append('    <testcase name="No findings" classname="jitlint"/>')
        out.append("  </testsuite>")
    for filename, items in by_file.items():
        out.append(f'  <testsuite name={quoteattr(filename)} tests="{len(items)}" failures="{len(items)}" errors="0">')
        for f in items:
            text = f"line {f.location.row}, col {f.location.column}, {f.message}"
            out.append(f'    <testcase name={quoteattr("org.jitlint." + f.code)} classname={quoteattr(filename)}>')
            out.append(f'      <failure message={quoteattr(f.message)} type={quoteattr(f.code)}>'
                       f'{_escape_xml(text)}</failure>')
            out.append("    </testcase>")
        out.append("  </testsuite>")
    out.append("</testsuites>")
    return "\n".join(out) + "\n"


def _escape_xml(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _pylint(f: Finding) -> str:
    """pylint's parseable format: `path:line: [CODE(name), object] message`."""
    scope = getattr(f.context, "scope", "") or ""
    return f"{f.filename}:{f.location.row}: [{f.code}({f.name}), {scope}] {f.message}"
