"""Rendering findings: text, json, json-lines, github. Findings arrive sorted by file, line, column."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator

from jitlint.finding import Finding

OUTPUT_FORMATS = ("text", "concise", "full", "json", "json-lines", "github", "sarif")


def render(findings: list[Finding], output_format: str, *, quiet: bool = False, baselined: bool = False) -> str:
    """`baselined`: the findings are what a baseline did not cover (SARIF marks them `baselineState: new`)."""
    return "".join(pieces(findings, output_format, quiet=quiet, baselined=baselined))


def pieces(findings: list[Finding], output_format: str, *, quiet: bool = False,
           baselined: bool = False) -> Iterator[str]:
    """`render`'s text, a piece at a time: a run with many findings writes them out without holding the whole
    text and every finding's JSON object at once (which, for a large library's JSON, held several times its size)."""
    if output_format == "sarif":
        from jitlint.rules import RULES
        from jitlint.sarif import render as render_sarif

        yield render_sarif(findings, RULES, baselined=baselined)
    elif output_format == "full":
        yield _full(findings, quiet)
    elif output_format == "json":
        yield from _json(findings)
    elif output_format == "json-lines":
        yield from (json.dumps(f.to_json()) + "\n" for f in findings)
    elif output_format == "github":
        yield from (_github(f) + "\n" for f in findings)
    else:
        yield from _text(findings, quiet)


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


def _full(findings: list[Finding], quiet: bool) -> str:
    """Each finding with its source line and a caret under the range (ruff's `full`)."""
    blocks = []
    for f in findings:
        header = f"{f.filename}:{f.location.row}:{f.location.column}: {f.code} {_fixable(f)}[{f.severity}] {f.message}{_status(f)}"
        line = getattr(f.context, "line_text", "")
        if line:
            start = f.location.column - 1
            end = f.end_location.column - 1 if f.end_location.row == f.location.row else len(line)
            width = max(1, end - start)
            gutter = str(f.location.row)
            blocks.append(f"{header}\n {gutter} | {line}\n {' ' * len(gutter)} | {' ' * start}{'^' * width}\n")
        else:
            blocks.append(header + "\n")
    text = "\n".join(blocks)
    if not quiet:
        text += ("\n" if blocks else "") + summary(findings) + "\n"
    return text


def _text(findings: list[Finding], quiet: bool) -> Iterator[str]:
    for f in findings:
        yield f"{f.filename}:{f.location.row}:{f.location.column}: {f.code} {_fixable(f)}[{f.severity}] {f.message}{_status(f)}\n"
    if not quiet:
        yield summary(findings) + "\n"


def _fixable(finding: Finding) -> str:
    """ruff's marker: `[*]` for a fix --fix applies, `[-]` for one that needs --unsafe-fixes."""
    if finding.fix is None:
        return ""
    return "[*] " if finding.fix.applicability == "safe" else "[-] "


def _status(finding: Finding) -> str:
    confirmation = finding.confirmation
    if confirmation is None:
        return ""
    if confirmation.status == "confirmed":
        return f" (confirmed by torch {confirmation.torch_version})"
    return f" ({confirmation.status}: {confirmation.detail})"


def summary(findings: list[Finding]) -> str:
    if not findings:
        return "All checks passed!"
    counts = Counter(f.severity for f in findings)
    parts = [f"{counts[s]} {s}{'' if counts[s] == 1 else 's'}" for s in ("error", "warning", "info") if counts[s]]
    files = len({f.filename for f in findings})
    return (f"Found {len(findings)} finding{'' if len(findings) == 1 else 's'} in {files} file{'' if files == 1 else 's'} "
            f"({', '.join(parts)}).{_export_migration(findings)}")


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


def statistics(findings: list[Finding], output_format: str) -> str:
    counts = Counter((f.code, f.name) for f in findings)
    rows = sorted(counts.items(), key=lambda item: (-item[1], item[0][0]))
    if output_format == "json":
        return json.dumps([{"code": code, "name": name, "count": count} for (code, name), count in rows], indent=2) + "\n"
    width = max((len(str(count)) for count in counts.values()), default=1)
    return "".join(f"{count:>{width}}\t{code}\t{name}\n" for (code, name), count in rows)
