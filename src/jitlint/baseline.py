"""Baselines (`--write-baseline FILE`, `--baseline FILE`, `baseline = "..."`): accept the findings a codebase has
today and report only new ones.

An entry is matched by what a finding *is*, never by its line: the rule's code, the file, the qualified name of
the enclosing function or class, and the normalised text of the statement it is in (tokens joined by single
spaces, comments dropped; a compound statement by its header, `def forward(self, **kwargs):`). So an entry
survives lines inserted above, the function moving within the file, re-indentation and re-wrapping. A file that
was renamed with its content unchanged is found by its content hash. Matching counts: two identical findings need
two entries.

Standard library only: a run served from the cache filters its findings without importing LibCST.
"""

from __future__ import annotations

import hashlib
import io
import json
import tokenize
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from jitlint.atomic import write_atomically
from jitlint.finding import Finding
from jitlint.paths import resolved

FORMAT = 1
_HEADER = "jitlint-baseline"
# Findings that are not a verdict on the code: never written to a baseline, never hidden by one.
NOT_BASELINED = frozenset({"JIT003"})


class BaselineError(Exception):
    """A baseline that cannot be read or written: one line, exit code 2."""


_SKIPPED_TOKENS = frozenset({tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT,
                             tokenize.ENDMARKER})


def normalise_statement(text: str) -> str:
    """A statement's tokens joined by one space, without comments: the same for any indentation, wrapping or
    spacing. Falls back to collapsing whitespace if the text does not tokenize (an unclosed bracket)."""
    tokens: list[str] = []
    try:
        for token in tokenize.generate_tokens(io.StringIO(text.strip() + "\n").readline):
            if token.type not in _SKIPPED_TOKENS:
                tokens.append(token.string)
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return " ".join(text.split())
    return " ".join(tokens)


def content_hash(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def file_identity(filename: str, root: Path) -> str:
    """The file as a baseline names it: relative to the project root (where pyproject.toml is), POSIX style."""
    path = resolved(Path(filename))
    try:
        return path.relative_to(resolved(root)).as_posix()
    except ValueError:
        return path.as_posix()


def finding_key(finding: Finding) -> tuple[str, str, str]:
    context = finding.context
    scope = getattr(context, "scope", "") or ""
    statement = getattr(context, "statement_text", "") or ""
    return (finding.code, scope, statement)


@dataclass
class Entry:
    code: str
    scope: str
    statement: str
    message: str

    @property
    def key(self) -> tuple[str, str, str]:
        return (self.code, self.scope, self.statement)

    def to_json(self) -> dict:
        return {"code": self.code, "scope": self.scope, "statement": self.statement, "message": self.message}


@dataclass
class BaselineFile:
    sha256: str
    entries: list[Entry] = field(default_factory=list)


@dataclass
class FilterResult:
    new: list[Finding]  # what the baseline does not cover: report these
    matched: int  # findings the baseline covers
    stale: int  # entries, among the files this run linted (or that are gone), that matched nothing


class Baseline:
    def __init__(self, files: dict[str, BaselineFile]) -> None:
        self.files = files

    def __len__(self) -> int:
        return sum(len(baseline_file.entries) for baseline_file in self.files.values())

    # -- building and writing -------------------------------------------------------------------------------------
    @classmethod
    def from_findings(cls, findings: list[Finding], root: Path, read_bytes) -> "Baseline":
        """`read_bytes(filename) -> bytes | None` gives each file's content, for its hash."""
        files: dict[str, BaselineFile] = {}
        for finding in findings:
            if finding.code in NOT_BASELINED:
                continue
            identity = file_identity(finding.filename, root)
            if identity not in files:
                data = read_bytes(finding.filename)
                files[identity] = BaselineFile(content_hash(data) if data is not None else "")
            code, scope, statement = finding_key(finding)
            files[identity].entries.append(Entry(code, scope, statement, finding.message))
        return cls(files)

    def to_json(self) -> dict:
        return {
            _HEADER: FORMAT,
            "files": {
                name: {
                    "sha256": self.files[name].sha256,
                    "findings": [entry.to_json() for entry in
                                 sorted(self.files[name].entries, key=lambda e: (e.code, e.scope, e.statement, e.message))],
                }
                for name in sorted(self.files)
            },
        }

    def dumps(self) -> str:
        return json.dumps(self.to_json(), indent=2, ensure_ascii=False) + "\n"

    def write(self, path: Path) -> None:
        try:
            write_atomically(path, self.dumps(), create_mode=0o666)
        except OSError as error:
            raise BaselineError(f"{path}: cannot write the baseline: {error.strerror or error}") from None

    # -- reading --------------------------------------------------------------------------------------------------
    @classmethod
    def load(cls, path: Path) -> "Baseline":
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise BaselineError(f"{path}: baseline file not found (write one with `--write-baseline {path}`)") from None
        except (OSError, UnicodeDecodeError) as error:
            raise BaselineError(f"{path}: cannot read the baseline: {getattr(error, 'strerror', None) or error}") from None
        except ValueError as error:
            raise BaselineError(f"{path}: the baseline is not valid JSON: {error}") from None
        try:
            if not isinstance(data, dict) or data.get(_HEADER) != FORMAT:
                raise TypeError(f"`{_HEADER}` is not {FORMAT}")
            files = {}
            for name, raw in data["files"].items():
                entries = [Entry(str(e["code"]), str(e["scope"]), str(e["statement"]), str(e.get("message", "")))
                           for e in raw["findings"]]
                files[str(name)] = BaselineFile(str(raw["sha256"]), entries)
        except (TypeError, KeyError, AttributeError) as error:
            raise BaselineError(f"{path}: not a jitlint baseline ({error})") from None
        return cls(files)

    # -- matching -------------------------------------------------------------------------------------------------
    def filter(self, findings: list[Finding], root: Path, linted: list[str], read_bytes) -> FilterResult:
        """Split the findings into those the baseline does not cover, counting the stale entries.

        `linted` are the files of the run (display names): an entry of a file the run did not lint is not stale
        (pre-commit lints only the changed files), unless that file is gone. `read_bytes(filename)` gives the
        content of a file whose path the baseline does not know, to find it by hash (a renamed file)."""
        remaining = {name: Counter(entry.key for entry in baseline_file.entries)
                     for name, baseline_file in self.files.items()}
        in_scope = {file_identity(name, root) for name in linted}
        by_hash: dict[str, str] | None = None
        bucket_of: dict[str, str | None] = {}
        new: list[Finding] = []
        matched = 0
        for finding in findings:
            if finding.code in NOT_BASELINED:
                new.append(finding)
                continue
            if finding.filename not in bucket_of:
                identity = file_identity(finding.filename, root)
                bucket = identity if identity in self.files else None
                if bucket is None:
                    if by_hash is None:  # files of the baseline that are gone, by content: renamed, maybe
                        by_hash = {f.sha256: name for name, f in self.files.items()
                                   if f.sha256 and not (resolved(root) / name).exists()}
                    data = read_bytes(finding.filename) if by_hash else None
                    bucket = by_hash.get(content_hash(data)) if data is not None else None
                    if bucket is not None:
                        in_scope.add(bucket)
                bucket_of[finding.filename] = bucket
            bucket = bucket_of[finding.filename]
            key = finding_key(finding)
            if bucket is not None and remaining[bucket][key] > 0:
                remaining[bucket][key] -= 1
                matched += 1
                continue
            new.append(finding)
        stale = 0
        for name, counts in remaining.items():
            if name in in_scope or not (resolved(root) / name).exists():
                stale += sum(counts.values())
        return FilterResult(new, matched, stale)


def read_file_bytes(filename: str) -> bytes | None:
    try:
        return Path(filename).read_bytes()
    except OSError:
        return None


def stale_note(stale: int) -> str:
    entries = f"{stale} baseline entr{'y' if stale == 1 else 'ies'}"
    return f"{entries} no longer match{'es' if stale == 1 else ''} a finding (fixed or changed); " \
           "rewrite the baseline with `--write-baseline`."
