"""The compile target's cases (tests/cases/compile/<topic>/<name>.py): jitlint's findings are the marked lines, and
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
import re
from pathlib import Path

import pytest

from oracles.compile import compile_sources
from conftest import codes_for, lint_files
from jitlint.config import Config
from jitlint.targets.compile.settings import CompileSettings
from oracles import covered_lines

CASES = sorted((Path(__file__).parent / "cases" / "compile").rglob("*.py"))
COMPILE_CODES = codes_for("compile")
MARK = re.compile(r"# (error|warning|info): ((?:DYN\d{3}[, ]*)+)")


def header(source: str, key: str) -> str:
    match = re.search(rf"^# {key}: (.+)$", source, re.MULTILINE)
    return match.group(1).strip() if match else ""


def marks(source: str) -> list[tuple[str, int]]:
    found = []
    for row, line in enumerate(source.splitlines(), 1):
        for _severity, codes in MARK.findall(line):
            found.extend((code, row) for code in re.findall(r"DYN\d{3}", codes))
    return sorted(found)


def unreported(source: str) -> set[int]:
    return {row for row, line in enumerate(source.splitlines(), 1) if "# unreported:" in line}


def settings_of(source: str) -> CompileSettings:
    table = {}
    for item in header(source, "settings").split(","):
        if item.strip():
            key, _, value = item.strip().partition("=")
            table[key.strip()] = {"true": True, "false": False}[value.strip()]
    return CompileSettings.from_table(table)


def lint_case(path: Path, tmp_path) -> list[tuple[str, int]]:
    source = path.read_text()
    config = Config(root=tmp_path, target_settings={"compile": settings_of(source)})
    findings = lint_files({"case.py": source}, tmp_path, codes=COMPILE_CODES, config=config)
    return sorted((f.code, f.location.row) for f in findings if f.code.startswith("DYN"))


def case_id(path: Path) -> str:
    return f"{path.parent.name}/{path.stem}"


def test_there_are_cases_for_every_family():
    topics = {path.parent.name for path in CASES}
    assert {"a_branch", "b_scalar", "c_shape", "d_python", "d_modules", "e_recompile", "lookalikes"} <= topics
    assert all(header(path.read_text(), "torch") in ("breaks", "rejects", "recompiles", "accepts") for path in CASES)


@pytest.mark.parametrize("path", CASES, ids=case_id)
def test_jitlint_flags_the_marked_lines(path, tmp_path):
    assert lint_case(path, tmp_path) == marks(path.read_text())


@pytest.fixture(scope="module")
def compiled(tmp_path_factory):
    """Every case compiled once by torch (one child process)."""
    jobs = []
    for path in CASES:
        source = path.read_text()
        settings = settings_of(source)
        jobs.append({"source": source, "inputs": header(source, "inputs"), "calls": int(header(source, "calls") or 2),
                     "fullgraph": settings.fullgraph, "capture_scalar_outputs": settings.capture_scalar_outputs,
                     "capture_dynamic_output_shape_ops": settings.capture_dynamic_output_shape_ops,
                     "dynamic": settings.dynamic, "toggle": bool(header(source, "toggle"))})
    results = compile_sources(jobs, tmp_path_factory.mktemp("compile-cases"))
    return dict(zip(CASES, results))


def _covered(source: str, rows) -> set[int]:
    return {line for row in rows for line in covered_lines(source, row)}


@pytest.mark.torch
@pytest.mark.parametrize("path", CASES, ids=case_id)
def test_torch_does_what_the_case_says(path, compiled):
    source = path.read_text()
    required = header(source, "requires")
    if required and importlib.util.find_spec(required) is None:
        pytest.skip(f"{required} is not installed")
    result = compiled[path]
    name = case_id(path)
    assert result.stage is None, f"{name}: {result}"
    verdict = header(source, "torch")
    marked = marks(source)
    breaking = [row for code, row in marked if code.startswith("DYN1")]
    if verdict == "accepts":
        assert result.ok and not marked, f"{name}: torch.compile {result}; marks {marked}"
    elif verdict == "breaks":
        assert result.error is None, f"{name}: {result}"
        torch_lines = result.break_lines
        expected = _covered(source, breaking) | unreported(source)
        assert torch_lines and torch_lines <= expected, f"{name}: torch breaks at {sorted(torch_lines)}: {result}"
        for row in [*breaking, *unreported(source)]:
            assert torch_lines & set(covered_lines(source, row)), f"{name}: no break at the marked line {row}: {result}"
    elif verdict == "rejects":
        assert result.rejected, f"{name}: torch.compile must raise, but {result}"
        assert result.error_line in _covered(source, breaking), f"{name}: marks {breaking}, torch {result}"
    else:
        assert not result.breaks and result.error is None, f"{name}: {result}"
        limit = header(source, "recompile-limit")
        assert (result.limit is not None) == (limit == "hit"), f"{name}: recompile limit {limit!r}, torch {result}"
        count = header(source, "recompiles")
        if count:
            assert len(result.recompiles) == int(count), f"{name}: {result}"
        if limit == "hit":
            assert any(code.startswith("DYN2") for code, _row in marked), f"{name}: hits the limit, marks nothing"
