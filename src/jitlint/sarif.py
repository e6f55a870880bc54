"""SARIF 2.1.0 output (`--output-format sarif`), for GitHub code scanning and other SARIF consumers."""

from __future__ import annotations

import hashlib
import json
import os
from collections import Counter
from pathlib import Path

from jitlint import __version__, pages
from jitlint.finding import Finding

_LEVELS = {"error": "error", "warning": "warning", "info": "note"}
SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"


def repository_root(start: Path) -> Path:
    """The git work tree around `start`, else `start`: SARIF uris are relative to it."""
    directory = start.resolve()
    for candidate in (directory, *directory.parents):
        if (candidate / ".git").exists():
            return candidate
    return directory


def _relative_uri(filename: str, root: Path) -> str:
    path = Path(filename)
    absolute = path if path.is_absolute() else Path.cwd() / path
    try:
        return absolute.resolve().relative_to(root).as_posix()
    except ValueError:
        return absolute.resolve().as_uri()


def _fingerprint(finding: Finding, uri: str, occurrence: int) -> str:
    """Stable when lines move: the rule, the file and the text of the line (not its number), plus which
    occurrence of that same text it is."""
    text = " ".join(getattr(finding.context, "line_text", "").split())
    digest = hashlib.sha256(f"{finding.code}\0{uri}\0{text}\0{occurrence}".encode()).hexdigest()
    return digest[:32]


def _related(finding: Finding, root: Path) -> list[dict]:
    """The capture chain as related locations: the root's definition, then each call down to the function."""
    related = []
    for index, step in enumerate(finding.captured_from):
        uri = _relative_uri(step.filename, root)
        location: dict = {"artifactLocation": {"uri": uri, "uriBaseId": "%SRCROOT%"} if not uri.startswith("file:")
                          else {"uri": uri}}
        if step.row:
            location["region"] = {"startLine": step.row}
        text = (f"`{step.function}` is captured: {step.reason}" if index == 0
                else f"calls `{step.function}` ({step.reason})")
        related.append({"id": index, "physicalLocation": location, "message": {"text": text}})
    return related


def render(findings: list[Finding], rules, root: Path | None = None, baselined: bool = False) -> str:
    """`baselined`: a baseline filtered the findings, so each result is new relative to it (SARIF's
    `baselineState`; the baselined ones are not listed, as in the other formats)."""
    root = root or repository_root(Path.cwd())
    rule_index = {rule.code: index for index, rule in enumerate(rules)}
    descriptors = []
    for rule in rules:
        page = pages.read(rule.code) or ""
        descriptors.append({
            "id": rule.code,
            "name": rule.name,
            "shortDescription": {"text": rule.message},
            "fullDescription": {"text": rule.message},
            "help": {"text": page or rule.message, "markdown": page or rule.message},
            "helpUri": pages.url(rule.code),
            "defaultConfiguration": {"level": _LEVELS[rule.severity]},
        })
    seen: Counter = Counter()
    results = []
    for finding in findings:
        uri = _relative_uri(finding.filename, root)
        key = (finding.code, uri, " ".join(getattr(finding.context, "line_text", "").split()))
        seen[key] += 1
        result = {
            "ruleId": finding.code,
            "ruleIndex": rule_index[finding.code],
            "level": _LEVELS[finding.severity],
            "message": {"text": finding.message},
            "locations": [{
                "physicalLocation": {
                    "artifactLocation": {"uri": uri, "uriBaseId": "%SRCROOT%"} if not uri.startswith("file:") else {"uri": uri},
                    "region": {
                        "startLine": finding.location.row,
                        "startColumn": finding.location.column,
                        "endLine": finding.end_location.row,
                        "endColumn": finding.end_location.column,
                    },
                }
            }],
            "partialFingerprints": {"jitlintLine/v1": _fingerprint(finding, uri, seen[key])},
        }
        related = _related(finding, root)
        if related:
            result["relatedLocations"] = related
        if baselined:
            result["baselineState"] = "new"
        if finding.confirmation is not None:
            result["properties"] = {"confirmation": finding.confirmation.to_json()}
        results.append(result)
    log = {
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "jitlint", "version": __version__, "semanticVersion": __version__,
                "informationUri": pages.pages_dir().parent.resolve().as_uri(), "rules": descriptors,
            }},
            "originalUriBaseIds": {"%SRCROOT%": {"uri": root.as_uri() + "/"}},
            "columnKind": "unicodeCodePoints",
            "results": results,
        }],
    }
    return json.dumps(log, indent=2) + os.linesep
