"""The export strategy's child side: `torch.export.export` one built model class with its declared example inputs.

Loaded by the confirmer host's child process (`jitlint/confirm/child.py`) in the user's interpreter: the standard
library and torch only. `ctx.options`: "strict" (the export mode) and "user_files" (the linted files, whose lines
count as locations).

torch.export stops at the first error, so after a failure it also runs `torch.export.draft_export` (which reports
each data-dependent error, one per line, where it does not raise itself) and `report_exportability` (which exports
each submodule with the inputs it saw in an eager run): together they show more than one blocker per model.

Each observation: {"message", "kind", "file", "line", "source", "text", "lines"}: `source` is which of the three
said it, `lines` every (file, line) of the user's files in its message and traceback (`file`/`line`: the first).
"""

from __future__ import annotations

import logging
import os
import re
import traceback
import warnings

# A traceback's frames, and draft_export's report (`File /path/x.py, lineno 12, in forward`).
_FRAME = re.compile(r'File "([^"]+)", line (\d+)|File ([^,"\n]+), lineno (\d+)')


def _user_lines(text: str, error: BaseException | None, user_files: set[str]) -> list[tuple[str, int]]:
    found: list[tuple[str, int]] = []
    for quoted, line, bare, bare_line in _FRAME.findall(text):
        path, line = (quoted, line) if quoted else (bare, bare_line)
        real = os.path.realpath(path)
        if real in user_files and (real, int(line)) not in found:
            found.append((real, int(line)))
    seen = set()
    while error is not None and id(error) not in seen:
        seen.add(id(error))
        for frame in traceback.extract_tb(error.__traceback__):
            real = os.path.realpath(frame.filename)
            if real in user_files and (real, frame.lineno) not in found:
                found.append((real, frame.lineno))
        error = error.__cause__ or error.__context__
    return found


def _observation(source: str, kind: str, text: str, lines: list[tuple[str, int]], message: str) -> dict:
    first = lines[0] if lines else (None, None)
    return {"source": source, "kind": kind, "message": message, "text": text[:4000], "lines": lines,
            "file": first[0], "line": first[1]}


def _describe(source: str, error: BaseException, user_files: set[str]) -> dict:
    text = str(error)
    first = text.strip().splitlines()[0] if text.strip() else type(error).__name__
    return _observation(source, type(error).__name__, text, _user_lines(text, error, user_files), first)


def setup(torch) -> None:
    warnings.simplefilter("ignore")
    logging.disable(logging.CRITICAL)


def run(model, inputs, ctx) -> dict:
    torch = ctx.torch
    user_files = {os.path.realpath(path) for path in ctx.options.get("user_files", [])}
    strict = bool(ctx.options.get("strict"))
    args, shapes = inputs.args, inputs.dynamic_shapes
    model.eval()
    observations: list[dict] = []
    try:
        torch.export.export(model, args, dynamic_shapes=shapes, strict=strict)
        return {"passed": True, "observations": observations}
    except BaseException as error:
        observations.append(_describe("export", error, user_files))
    # More blockers than the first: draft_export's data-dependent issues, then each submodule on its own.
    try:
        program = torch.export.draft_export(model, args, dynamic_shapes=shapes, strict=strict)
        report = getattr(program, "_report", None)
        for failure in getattr(report, "failures", []) or []:
            text = str(failure.print(getattr(report, "str_to_filename", {}) or {}))
            observations.append(_observation("draft_export", str(failure.failure_type), text,
                                             _user_lines(text, None, user_files),
                                             text.strip().splitlines()[0] if text.strip() else ""))
    except BaseException as error:
        observations.append(_describe("draft_export", error, user_files))
    try:
        from torch._export.tools import report_exportability

        for name, error in report_exportability(model, args, strict=strict).items():
            if error is not None:
                observations.append(_describe(f"report_exportability:{name or '<root>'}", error, user_files))
    except BaseException as error:
        observations.append(_describe("report_exportability", error, user_files))
    return {"passed": False, "observations": observations}
