"""The compile target's cases (tests/cases/compile/<topic>/<name>.py): jitlint's findings are the marked lines (checked
with every other target's cases by tests/test_cases.py, which reads the format: tests/casefile.py), and
torch.compile 2.13 (backend "eager") does what each case's header says, at those lines.

A case is plain Python whose last nn.Module class is the compiled model, with a header:
    # case: what it shows
    # torch: breaks | rejects | recompiles | accepts
    # inputs: <the arguments of one call: a Python expression; `i` is the call's index>   (default: (torch.randn(4, 3),))
    # calls: N                    (default 2)
    # settings: fullgraph=true, capture-scalar-outputs=true, capture-dynamic-output-shape-ops=true, dynamic=false
    # toggle: train               (`.train()`/`.eval()` between calls)
    # recompile-limit: hit | not hit     # recompiles: N     (recompiles)
    # requires: <module>          (skipped against torch when it is not installed)
and marks at the end of lines: `# warning: DYN101` (several codes allowed); `# unreported: <why>` on a line where
torch breaks but no finding is expected (a deliberate break). Every finding of the compile target is marked, and every
mark is found.

Against torch (marker `torch`, one child process for all cases):
- breaks: the lines where Dynamo breaks the graph are exactly the lines of the DYN1xx marks (a mark covers its
  statement) and the `unreported` lines; nothing raises;
- rejects (`fullgraph=true`): torch.compile raises, and the line its "from user code:" names is a DYN1xx mark;
- recompiles: no graph break; the recompile limit is hit, or not, as the header says (and the number of
  recompiles, when given); a case that hits the limit marks a DYN2xx finding;
- accepts: one graph, no break, no recompile, no error, and no mark.
"""

from __future__ import annotations

import importlib.util

import pytest

from casefile import Case, all_cases, case_id
from oracles.compile import compile_sources
from jitlint.targets.compile.settings import CompileSettings
from oracles import covered_lines

CASES = all_cases("compile")


def settings_of(case: Case) -> CompileSettings:
    return CompileSettings.from_table(case.settings())


def test_there_are_cases_for_every_family():
    topics = {path.parent.name for path in CASES}
    assert {"a_branch", "b_scalar", "c_shape", "d_python", "d_modules", "e_recompile", "lookalikes"} <= topics
    assert all(Case(path).get("torch") in ("breaks", "rejects", "recompiles", "accepts") for path in CASES)


@pytest.fixture(scope="module")
def compiled(tmp_path_factory):
    """Every case compiled once by torch (one child process)."""
    jobs = []
    for path in CASES:
        case = Case(path)
        settings = settings_of(case)
        jobs.append({"source": case.source, "inputs": case.get("inputs"), "calls": int(case.get("calls") or 2),
                     "fullgraph": settings.fullgraph, "capture_scalar_outputs": settings.capture_scalar_outputs,
                     "capture_dynamic_output_shape_ops": settings.capture_dynamic_output_shape_ops,
                     "dynamic": settings.dynamic, "toggle": bool(case.get("toggle"))})
    results = compile_sources(jobs, tmp_path_factory.mktemp("compile-cases"))
    return dict(zip(CASES, results))


def _covered(source: str, rows) -> set[int]:
    return {line for row in rows for line in covered_lines(source, row)}


@pytest.mark.torch
@pytest.mark.parametrize("path", CASES, ids=case_id)
def test_torch_does_what_the_case_says(path, compiled):
    case = Case(path)
    source = case.source
    required = case.get("requires")
    if required and importlib.util.find_spec(required) is None:
        pytest.skip(f"{required} is not installed")
    result = compiled[path]
    name = case_id(path)
    assert result.stage is None, f"{name}: {result}"
    verdict = case.get("torch")
    marked = case.marked("DYN")
    unreported = case.rows_saying("# unreported:")
    breaking = [row for code, row in marked if code.startswith("DYN1")]
    if verdict == "accepts":
        assert result.ok and not marked, f"{name}: torch.compile {result}; marks {marked}"
    elif verdict == "breaks":
        assert result.error is None, f"{name}: {result}"
        torch_lines = result.break_lines
        expected = _covered(source, breaking) | unreported
        assert torch_lines and torch_lines <= expected, f"{name}: torch breaks at {sorted(torch_lines)}: {result}"
        for row in [*breaking, *unreported]:
            assert torch_lines & set(covered_lines(source, row)), f"{name}: no break at the marked line {row}: {result}"
    elif verdict == "rejects":
        assert result.rejected, f"{name}: torch.compile must raise, but {result}"
        assert result.error_line in _covered(source, breaking), f"{name}: marks {breaking}, torch {result}"
    else:
        assert not result.breaks and result.error is None, f"{name}: {result}"
        limit = case.get("recompile-limit")
        assert (result.limit is not None) == (limit == "hit"), f"{name}: recompile limit {limit!r}, torch {result}"
        count = case.get("recompiles")
        if count:
            assert len(result.recompiles) == int(count), f"{name}: {result}"
        if limit == "hit":
            assert any(code.startswith("DYN2") for code, _row in marked), f"{name}: hits the limit, marks nothing"
