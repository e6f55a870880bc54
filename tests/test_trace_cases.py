"""The trace target's cases (tests/cases/trace/<topic>/<name>.py): jitlint's findings are the marked lines (checked
with every other target's cases by tests/test_cases.py, which reads the format: tests/casefile.py), and
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

import pytest

from casefile import Case, all_cases, case_id
from jitlint.targets.trace.settings import TraceSettings
from oracles.trace import jit_trace_sources

CASES = all_cases("trace")


def test_there_are_cases_for_every_hazard():
    topics = {path.parent.name.split("_")[0] for path in CASES}
    assert {f"h{n:02d}" for n in range(1, 21) if n != 18} <= topics
    assert len(CASES) >= 95


@pytest.fixture(scope="module")
def traced(tmp_path_factory):
    """Every case traced once by torch (one child process)."""
    jobs = []
    for path in CASES:
        case = Case(path)
        jobs.append({"source": case.source, "inputs": case.get("inputs"), "inputs2": case.get("inputs2"),
                     "strict": TraceSettings.from_table(case.settings()).strict,
                     "trace_mode": case.get("trace-mode") or "eval", "run_mode": case.get("run-mode")})
    results = jit_trace_sources(jobs, tmp_path_factory.mktemp("trace-cases"))
    return dict(zip(CASES, results))


@pytest.mark.torch
@pytest.mark.parametrize("path", CASES, ids=case_id)
def test_torch_does_what_the_case_says(path, traced):
    case = Case(path)
    result = traced[path]
    assert result.stage in (None, "trace"), f"{case_id(path)}: {result}"
    assert result.verdict == case.get("torch"), f"{case_id(path)}: torch.jit.trace {result}"
    if result.verdict == "rejects":
        assert result.says(case.get("torch-error")), f"{case_id(path)}: torch said {result.message!r}"


@pytest.mark.torch
@pytest.mark.parametrize("path", CASES, ids=case_id)
def test_every_hazard_is_found_at_torchs_line(path, traced):
    case = Case(path)
    result = traced[path]
    marked = case.marked("TRC")
    if result.verdict == "accepts" or case.get("hazard") == "no":
        assert not [code for code, _row in marked if code.startswith("TRC1")], (
            f"{case_id(path)}: torch traces it correctly, but the case marks an error")
        return
    assert marked, f"{case_id(path)}: torch.jit.trace {result}, and the case marks no finding"
    explained = {int(line) for line in re.findall(r"\d+", case.get("unmarked-warnings"))}
    rows = {row for _code, row in marked}
    missing = sorted(result.warned_lines() - rows - explained)
    assert not missing, f"{case_id(path)}: torch warns at lines {missing}, where no finding is marked ({result})"
