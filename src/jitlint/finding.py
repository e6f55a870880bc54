"""The one result type that flows from rules to reporters."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

Severity = Literal["error", "warning", "info"]
SEVERITIES: tuple[Severity, ...] = ("error", "warning", "info")


@dataclass(frozen=True, order=True)
class Location:
    """1-based row and 1-based column (in characters), as editors and ruff report them."""

    row: int
    column: int

    def to_json(self) -> dict:
        return {"row": self.row, "column": self.column}


@dataclass(frozen=True)
class Edit:
    content: str
    location: Location
    end_location: Location

    def to_json(self) -> dict:
        return {
            "content": self.content,
            "location": self.location.to_json(),
            "end_location": self.end_location.to_json(),
        }


@dataclass(frozen=True)
class Fix:
    applicability: Literal["safe", "unsafe"]
    message: str
    edits: tuple[Edit, ...]

    def to_json(self) -> dict:
        return {
            "applicability": self.applicability,
            "message": self.message,
            "edits": [edit.to_json() for edit in self.edits],
        }


@dataclass(frozen=True)
class Confirmation:
    status: Literal["confirmed", "not-reproduced", "unverified"]
    detail: str
    torch_version: str

    def to_json(self) -> dict:
        return {"status": self.status, "detail": self.detail, "torch_version": self.torch_version}


@dataclass(frozen=True)
class CaptureStep:
    """One step of why a function is captured: the root (`function` is the root, `filename:row` its definition,
    `reason` why the target captures it), or a call (`function` is the callee, `filename:row` the call in its
    caller, `reason` "called from `caller`"). `defined_filename:defined_row` is where `function` is defined (0: not
    known). Rows are 1-based."""

    function: str
    filename: str
    row: int
    reason: str
    defined_filename: str = ""
    defined_row: int = 0

    def to_json(self) -> dict:
        return {"function": self.function, "filename": self.filename, "row": self.row, "reason": self.reason,
                "defined_at": {"filename": self.defined_filename, "row": self.defined_row}}

    @classmethod
    def from_json(cls, data: dict) -> "CaptureStep":
        defined = data.get("defined_at") or {}
        return cls(data["function"], data["filename"], data["row"], data["reason"], defined.get("filename", ""),
                   defined.get("row", 0))


@dataclass(frozen=True)
class FindingContext:
    path: Path
    statement_lines: tuple[int, int]
    function: object  # CompiledFunction | None (None when the finding came from the cache)
    line_text: str = ""  # the source line the finding starts on
    # What a baseline matches on (`jitlint.baseline`), independent of line numbers: the qualified name of the
    # innermost enclosing function or class ("" at module level), and the normalised text of the smallest
    # enclosing statement (its header for a compound statement: `def f(x):`, `if a:`).
    scope: str = ""
    statement_text: str = ""


@dataclass(frozen=True)
class Finding:
    code: str
    name: str
    message: str
    severity: Severity
    filename: str
    location: Location
    end_location: Location
    fix: Fix | None = None
    confirmation: Confirmation | None = None
    url: str | None = field(default=None, compare=False)
    # Where the finding sits, for the dynamic checker: the smallest statement's lines and the compiled function
    # (engine objects, never serialised).
    context: object = field(default=None, compare=False, repr=False)
    # Why its code is captured: the root, then each call that reaches the finding's function (empty outside
    # captured code: a file that cannot be read, a rule that looks at the whole file).
    captured_from: tuple[CaptureStep, ...] = field(default=(), compare=False)

    def sort_key(self) -> tuple:
        return (self.filename, self.location.row, self.location.column, self.code, self.message)

    def to_json(self) -> dict:
        """The JSON contract documented in README.md ("JSON output"); keep the two in step."""
        return {
            "code": self.code,
            "name": self.name,
            "message": self.message,
            "severity": self.severity,
            "filename": self.filename,
            "location": self.location.to_json(),
            "end_location": self.end_location.to_json(),
            "fix": self.fix.to_json() if self.fix else None,
            "url": self.url,
            "confirmation": self.confirmation.to_json() if self.confirmation else None,
            "captured_from": [step.to_json() for step in self.captured_from],
        }
