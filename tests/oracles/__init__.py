"""The ground truth: what the real tool of the pinned torch does with a source, one module per target.

Each target's module exposes `run(source, tmp_path, **settings) -> Verdict`: it builds the source's model the way
the tool's users do and runs the tool (`torch.jit.script`, `torch.export.export`, `torch.fx.symbolic_trace`). The
export and fx oracles run in a child process (one per batch); the script oracle runs in the test process, where
torch is imported once for the whole suite. A `Verdict` says whether it went through, and if not, at which stage
(only the tool's own stage is a rejection: an import error or a failing constructor is the example's fault), with
the tool's error text and the line of the source it names. The case runner (`tests/test_cases.py`) and the rule
pages' tests read the same verdicts.
"""

from __future__ import annotations

import importlib
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider


def normalise(text: str) -> str:
    """Collapse runs of whitespace and blank memory addresses (`0x7f3a...` -> `0x...`), for comparing a quoted error
    text with the tool's."""
    return " ".join(re.sub(r"0x[0-9a-fA-F]+", "0x...", text).split())


@dataclass
class Verdict:
    ok: bool
    stage: str | None = None  # None when ok; else "import", "build", "inputs" or the tool's own stage
    error_type: str = ""  # e.g. "RuntimeError", "TraceError"
    message: str = ""  # the first line of the exception's text (its type name when the text is empty)
    message_full: str = ""  # the exception's whole text
    line: int | None = None  # the line of the source the tool names (or its traceback's innermost frame there)
    traceback_lines: list[int] = field(default_factory=list)  # the source's lines in the traceback, innermost last
    warnings: list[str] = field(default_factory=list)  # the first line of each warning the tool emitted
    module: str = ""  # the name the oracle imported the source as

    tool_stage: ClassVar[str] = ""  # the stage at which the tool itself raised

    @property
    def rejected(self) -> bool:
        """The tool itself raised (not the import or the construction of the model)."""
        return self.stage == self.tool_stage

    @property
    def text(self) -> str:
        return f"{self.error_type}: {self.message_full or self.message}"

    def says(self, quoted: str) -> bool:
        """Does the tool's whole message contain `quoted` (a page's error text), up to whitespace and memory
        addresses?"""
        return bool(quoted.strip()) and normalise(quoted) in normalise(self.message_full or self.message)

    def describe(self) -> str:
        """For assertion messages: "ok" or "failed at build: TypeError: ... (line 7)"."""
        if self.ok:
            return "ok"
        where = f" (line {self.line})" if self.line is not None else ""
        first = self.message.splitlines()[0] if self.message else ""
        return f"failed at {self.stage}: {self.error_type}: {first}{where}"

    def __str__(self) -> str:
        return self.describe()


# The oracle module of each target.
ORACLES = {"script": "oracles.script", "export": "oracles.export", "fx": "oracles.fx", "trace": "oracles.trace",
           "compile": "oracles.compile"}


def oracle(target: str):
    """The oracle module of a target (its `run(source, tmp_path, **settings) -> Verdict`)."""
    return importlib.import_module(ORACLES[target])


def run(target: str, source: str, tmp_path: Path, **settings) -> Verdict:
    return oracle(target).run(source, tmp_path, **settings)


def statement_lines(source: str, row: int) -> range:
    """The lines of the smallest statement (simple or compound) that contains `row`."""
    wrapper = MetadataWrapper(cst.parse_module(source))
    positions = wrapper.resolve(PositionProvider)
    best = None
    for node, span in positions.items():
        if isinstance(node, (cst.SimpleStatementLine, cst.BaseCompoundStatement)):
            if span.start.line <= row <= span.end.line:
                size = span.end.line - span.start.line
                if best is None or size < best[0]:
                    best = (size, range(span.start.line, span.end.line + 1))
    assert best is not None, f"no statement contains line {row}"
    return best[1]


def covered_lines(source: str, row: int) -> range:
    """The lines a finding on `row` covers: the smallest simple statement that contains it; for a row in the header
    of a compound statement (`for x in xs:`, a multi-line `if (...):`), that header; otherwise (`else:`, a
    decorator, a blank line) the row alone. A finding on the `else:` of a loop does not cover the `for`."""
    wrapper = MetadataWrapper(cst.parse_module(source))
    positions = wrapper.resolve(PositionProvider)
    best = None
    for node, span in positions.items():
        if isinstance(node, (cst.SimpleStatementLine, cst.BaseCompoundStatement)):
            if span.start.line <= row <= span.end.line:
                size = span.end.line - span.start.line
                if best is None or size < best[0]:
                    best = (size, node, span)
    if best is None:
        return range(row, row + 1)
    _, node, span = best
    if isinstance(node, cst.SimpleStatementLine):
        return range(span.start.line, span.end.line + 1)
    body = getattr(node, "body", None)
    if isinstance(body, cst.IndentedBlock) and body.body:
        header_end = positions[body.body[0]].start.line - 1
    else:
        header_end = span.start.line  # `if x: y` on one line
    header = range(span.start.line, max(header_end, span.start.line) + 1)
    return header if row in header else range(row, row + 1)


def points_at(result: Verdict, source: str, row: int) -> bool:
    """torch's line is `row`, or inside the statement (or compound statement header) a finding on `row` covers."""
    return result.line is not None and (result.line == row or result.line in covered_lines(source, row))


def missing_import(source: str) -> str | None:
    """The first top-level module `source` imports that is not installed (an example of a library's class, such
    as Lightning's, is checked against torch only where the library is), or None."""
    import ast
    import importlib.util

    for node in ast.parse(source).body:
        names = ([alias.name for alias in node.names] if isinstance(node, ast.Import)
                 else [node.module] if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module else [])
        for name in names:
            if importlib.util.find_spec(name.split(".")[0]) is None:
                return name.split(".")[0]
    return None
