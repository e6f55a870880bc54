"""The child side of the export confirmer: export one model class with its declared example inputs.

Run as a script (`python worker.py`) by the user's interpreter, so it imports nothing of jitlint: a JSON job on
stdin, a JSON answer on stdout after a marker line (the user's code may print). The job names the module, the
class, the function that returns the example inputs, an optional factory, the mode, and the user's files.

The answer: how far it got ("import", "build", "inputs", "export" or "done"), and every error torch gave, each
with its message and the (file, line) pairs of the user's files in the message and the traceback. torch.export
stops at the first error, so after a failure it also runs `torch.export.draft_export` (which reports each
data-dependent error, one per line, where it does not raise itself) and `report_exportability` (which exports each
submodule with the inputs it saw in an eager run): together they show more than one blocker per model.
"""

from __future__ import annotations

import contextlib
import importlib
import io
import json
import os
import re
import sys
import traceback
import warnings

MARKER = "@@JITLINT-EXPORT@@"
# A traceback's frames, and draft_export's report (`File /path/x.py, lineno 12, in forward`).
_FRAME = re.compile(r'File "([^"]+)", line (\d+)|File ([^,"\n]+), lineno (\d+)')


def _resolve(spec: str):
    module, _, name = spec.partition(":")
    value = importlib.import_module(module)
    for part in name.split("."):
        value = getattr(value, part)
    return value


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


def _describe(source: str, error: BaseException, user_files: set[str], in_message_only: bool = False) -> dict:
    text = str(error)
    lines = _user_lines(text, None if in_message_only else error, user_files)
    first = text.strip().splitlines()[0] if text.strip() else type(error).__name__
    return {"source": source, "type": type(error).__name__, "message": first, "text": text[:4000], "lines": lines}


def _inputs(value):
    """(args, dynamic_shapes) from what the inputs function returned: a tuple/list of args, one tensor, or a dict
    {"args": ..., "dynamic_shapes": ...}."""
    if isinstance(value, dict) and "args" in value:
        args, shapes = value["args"], value.get("dynamic_shapes")
    else:
        args, shapes = value, None
    if not isinstance(args, (tuple, list)):
        args = (args,)
    return tuple(args), shapes


def run(job: dict) -> dict:
    import torch

    user_files = {os.path.realpath(path) for path in job["user_files"]}
    sys.path.insert(0, job["root"])
    answer: dict = {"stage": "import", "errors": [], "reason": ""}
    try:
        module = importlib.import_module(job["module"])
        cls = getattr(module, job["cls"])
    except BaseException as error:
        answer["reason"] = f"importing {job['module']} failed: {type(error).__name__}: {error}"
        return answer
    answer["stage"] = "build"
    try:
        model = _resolve(job["factory"])() if job.get("factory") else cls()
        model.eval()
    except BaseException as error:
        answer["reason"] = f"building {job['cls']} failed: {type(error).__name__}: {error}"
        return answer
    answer["stage"] = "inputs"
    try:
        args, shapes = _inputs(_resolve(job["inputs"])())
    except BaseException as error:
        answer["reason"] = f"the example inputs ({job['inputs']}) failed: {type(error).__name__}: {error}"
        return answer
    answer["stage"] = "export"
    strict = bool(job.get("strict"))
    try:
        torch.export.export(model, args, dynamic_shapes=shapes, strict=strict)
        answer["stage"] = "done"
        return answer
    except BaseException as error:
        answer["errors"].append(_describe("export", error, user_files))
    # More blockers than the first: draft_export's data-dependent issues, then each submodule on its own.
    try:
        program = torch.export.draft_export(model, args, dynamic_shapes=shapes, strict=strict)
        report = getattr(program, "_report", None)
        for failure in getattr(report, "failures", []) or []:
            text = str(failure.print(getattr(report, "str_to_filename", {}) or {}))
            answer["errors"].append({"source": "draft_export", "type": str(failure.failure_type),
                                     "message": text.strip().splitlines()[0] if text.strip() else "",
                                     "text": text[:4000], "lines": _user_lines(text, None, user_files)})
    except BaseException as error:
        answer["errors"].append(_describe("draft_export", error, user_files))
    try:
        from torch._export.tools import report_exportability

        for name, error in report_exportability(model, args, strict=strict).items():
            if error is not None:
                answer["errors"].append(_describe(f"report_exportability:{name or '<root>'}", error, user_files))
    except BaseException as error:
        answer["errors"].append(_describe("report_exportability", error, user_files))
    return answer


def main() -> None:
    job = json.loads(sys.stdin.read())
    captured = io.StringIO()
    with warnings.catch_warnings(), contextlib.redirect_stdout(captured), contextlib.redirect_stderr(captured):
        warnings.simplefilter("ignore")
        import logging

        logging.disable(logging.CRITICAL)
        answer = run(job)
    sys.stdout.write("\n" + MARKER + json.dumps(answer))


if __name__ == "__main__":
    main()
