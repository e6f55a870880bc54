"""The ground truth for the FX graph-pass pages (FX1xx): run an example as a script with the pinned torch, in a child
process, and report what it raised and where.

An FX1xx page's example is ordinary eager Python (a pass over a traced GraphModule): torch either raises at the
marked line, or, for a silent hazard, the example runs and its own `assert`s show the wrong behaviour. The result
says the exception's type, its whole text, and the line of the example file where the innermost frame of that file
was when it was raised.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

_RUNNER = r"""
import json, runpy, sys, traceback, warnings
warnings.simplefilter("ignore")
path, out = sys.argv[1], sys.argv[2]
result = {"ok": True}
try:
    runpy.run_path(path, run_name="__main__")
except BaseException as error:
    line = None
    for frame in traceback.extract_tb(error.__traceback__):
        if frame.filename == path:
            line = frame.lineno
    if line is None and isinstance(error, SyntaxError) and error.filename == path:
        line = error.lineno
    result = {"ok": False, "type": type(error).__name__, "message": str(error), "line": line}
with open(out, "w") as handle:
    json.dump(result, handle)
"""


@dataclass
class RunResult:
    ok: bool
    error_type: str = ""
    message: str = ""
    line: int | None = None

    @property
    def text(self) -> str:
        return f"{self.error_type}: {self.message}"

    def says(self, quoted: str) -> bool:
        """Does the exception (`Type: message`) contain `quoted`, up to whitespace and memory addresses?"""
        return bool(quoted.strip()) and normalise(quoted) in normalise(self.text)

    def __str__(self) -> str:
        if self.ok:
            return "ran without an exception"
        return f"raised {self.error_type}: {self.message.splitlines()[0] if self.message else ''} (line {self.line})"


def normalise(text: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"0x[0-9a-f]+", "0x...", text)).strip()


def run_example(source: str, directory: Path, timeout: float = 120) -> RunResult:
    """Run `source` as `__main__` in a fresh interpreter (the one running the tests, so the pinned torch)."""
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / "example.py"
    out = directory / "result.json"
    path.write_text(source)
    if out.exists():
        out.unlink()
    process = subprocess.run(
        [sys.executable, "-c", _RUNNER, str(path), str(out)], capture_output=True, text=True, timeout=timeout,
        cwd=directory,
    )
    if not out.exists():
        return RunResult(False, "ChildFailed", process.stderr[-2000:])
    data = json.loads(out.read_text())
    if data["ok"]:
        return RunResult(True)
    return RunResult(False, data["type"], data["message"], data["line"])


def neutralise(source: str, keep: int, rows: list[int]) -> str:
    """`source` with every marked row but `keep` replaced by `pass` (same indentation): each marked line of a page's
    example is shown to fail on its own."""
    lines = source.splitlines()
    for row in rows:
        if row != keep:
            line = lines[row - 1]
            lines[row - 1] = line[: len(line) - len(line.lstrip())] + "pass"
    return "\n".join(lines) + "\n"
