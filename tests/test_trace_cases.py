"""The trace target's cases (tests/cases/trace/<topic>/<name>.py): jitlint's findings are the marked lines, and
torch.jit.trace 2.13 does what each case's header says.

A case is plain Python whose last nn.Module class is the traced model, with a header:
    # case: what it shows
    # torch: accepts | changes | breaks | rejects   (traced and equal to eager on both input sets | an output differs
    #        on the second set | the traced module raises where eager does not | torch.jit.trace raises)
    # torch-error: the start of torch's error   (rejects)
    # inputs: <example inputs>   # inputs2: <second set>   (Python expressions; a tuple, or {"args", "kwargs"})
    # settings: strict=false     # trace-mode: train     # run-mode: train
    # hazard: no                 (the traced module differs from eager by design: `is_tracing()` branches)
    # unmarked-warnings: <lines> (TracerWarnings torch issues there, explained by a finding on another line)
and marks at the end of lines: `# warning: TRC201`, `# error: TRC101`, `# info: TRC301` (several marks on a line
are allowed). Every finding of the trace target is marked, and every mark is found.

Against torch (marker `torch`): the verdict is the header's; a case whose traced module is wrong, breaks or is
rejected has a finding, and a finding on every line where torch issues a TracerWarning (with its default filter
removed: hidden warnings count); a case torch traces correctly has no error.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from conftest import codes_for, lint_files
from jitlint.config import Config
from jitlint.targets.trace.settings import TraceSettings

from oracles.trace import jit_trace_sources

CASES = sorted((Path(__file__).parent / "cases" / "trace").rglob("*.py"))
TRACE_CODES = codes_for("trace")
MARK = re.compile(r"# (error|warning|info): ((?:TRC\d{3}[, ]*)+)")


def header(source: str, key: str) -> str:
    match = re.search(rf"^# {key}: (.+)$", source, re.MULTILINE)
    return match.group(1).strip() if match else ""


def marks(source: str) -> list[tuple[str, int]]:
    found = []
    for row, line in enumerate(source.splitlines(), 1):
        for _severity, codes in MARK.findall(line):
            found.extend((code, row) for code in re.findall(r"TRC\d{3}", codes))
    return sorted(found)


def settings_of(source: str) -> TraceSettings:
    values = dict(item.split("=") for item in header(source, "settings").replace(" ", "").split(",") if item)
    return TraceSettings(strict=values.get("strict", "true") == "true")


def lint_case(path: Path, tmp_path) -> list[tuple[str, int]]:
    source = path.read_text()
    config = Config(root=tmp_path, target_settings={"trace": settings_of(source)})
    findings = lint_files({"case.py": source}, tmp_path, codes=TRACE_CODES, config=config)
    return sorted((f.code, f.location.row) for f in findings if f.code.startswith("TRC"))


def case_id(path: Path) -> str:
    return f"{path.parent.name}/{path.stem}"


def test_there_are_cases_for_every_hazard():
    topics = {path.parent.name.split("_")[0] for path in CASES}
    assert {f"h{n:02d}" for n in range(1, 21) if n != 18} <= topics
    assert len(CASES) >= 95


@pytest.mark.parametrize("path", CASES, ids=case_id)
def test_jitlint_flags_the_marked_lines(path, tmp_path):
    assert lint_case(path, tmp_path) == marks(path.read_text())


@pytest.fixture(scope="module")
def traced(tmp_path_factory):
    """Every case traced once by torch (one child process)."""
    jobs = []
    for path in CASES:
        source = path.read_text()
        jobs.append({"source": source, "inputs": header(source, "inputs"), "inputs2": header(source, "inputs2"),
                     "strict": settings_of(source).strict, "trace_mode": header(source, "trace-mode") or "eval",
                     "run_mode": header(source, "run-mode")})
    results = jit_trace_sources(jobs, tmp_path_factory.mktemp("trace-cases"))
    return dict(zip(CASES, results))


@pytest.mark.torch
@pytest.mark.parametrize("path", CASES, ids=case_id)
def test_torch_does_what_the_case_says(path, traced):
    source = path.read_text()
    result = traced[path]
    assert result.stage in (None, "trace"), f"{case_id(path)}: {result}"
    assert result.verdict == header(source, "torch"), f"{case_id(path)}: torch.jit.trace {result}"
    if result.verdict == "rejects":
        assert result.says(header(source, "torch-error")), f"{case_id(path)}: torch said {result.message!r}"


@pytest.mark.torch
@pytest.mark.parametrize("path", CASES, ids=case_id)
def test_every_hazard_is_found_at_torchs_line(path, traced):
    source = path.read_text()
    result = traced[path]
    marked = marks(source)
    if result.verdict == "accepts" or header(source, "hazard") == "no":
        assert not [code for code, _row in marked if code.startswith("TRC1")], (
            f"{case_id(path)}: torch traces it correctly, but the case marks an error")
        return
    assert marked, f"{case_id(path)}: torch.jit.trace {result}, and the case marks no finding"
    explained = {int(line) for line in re.findall(r"\d+", header(source, "unmarked-warnings"))}
    rows = {row for _code, row in marked}
    missing = sorted(result.warned_lines() - rows - explained)
    assert not missing, f"{case_id(path)}: torch warns at lines {missing}, where no finding is marked ({result})"
