"""The case files (format: `tests/casefile.py`), each checked against jitlint and against the real tool."""

from __future__ import annotations

import pytest

from casefile import Case, all_cases, case_id
from conftest import codes_for
from jitlint.config import Config
from jitlint.engine import lint
from jitlint.targets import all_targets
from oracles import missing_import, oracle, points_at

VERDICTS = ("accepts", "rejects", "changes", "breaks", "recompiles")
# What this runner checks against the tool itself: the verdicts it knows how to ask an oracle for. The trace and
# compile targets' cases are checked against torch by tests/test_trace_cases.py and tests/test_compile_cases.py,
# which batch them in one child process each.
TOOL_CHECKED = {"script", "export", "fx"}


@pytest.mark.parametrize("path", all_cases(), ids=case_id)
def test_the_case_is_well_formed(path):
    case = Case(path)
    assert case.target in all_targets(), f"no target {case.target!r}"
    assert case.header.get("case"), "a case says what it shows (`# case: ...`)"
    assert case.header.get("torch") in VERDICTS, f"`# torch:` is one of {VERDICTS}"
    # `# hazard: no`: the tool changes the code by design (an `is_tracing()` branch), so nothing is marked.
    assert case.header["torch"] == "accepts" or case.marks or case.header.get("hazard") == "no", \
        "a case the tool does not accept marks where jitlint reports"


@pytest.mark.parametrize("path", all_cases(), ids=case_id)
def test_jitlint_finds_what_the_case_marks(path):
    case = Case(path)
    settings = case.settings()
    config = Config(root=path.parent, targets=[case.target])
    if settings:
        config.target_settings[case.target] = all_targets()[case.target].settings_class().from_table(settings)
    findings = lint([path], config, codes_for(case.target))
    found = {(finding.location.row, finding.code, finding.severity) for finding in findings}
    assert sorted(found - case.marks) == [], "findings the case does not mark"
    assert sorted(case.marks - found) == [], "marks jitlint does not find"


@pytest.mark.torch
@pytest.mark.parametrize("path", [path for path in all_cases() if Case(path).target in TOOL_CHECKED], ids=case_id)
def test_the_tool_does_what_the_case_says(path, tmp_path):
    case = Case(path)
    assert case.header["torch"] in ("accepts", "rejects"), "this runner asks the oracle for accepts or rejects"
    if missing_import(case.source):
        pytest.skip(f"{missing_import(case.source)} is not installed: the case cannot run")
    options = {"inputs": case.header["inputs"]} if "inputs" in case.header else {}
    if case.target == "export" and case.settings().get("strict"):
        options["strict"] = True
    verdict = oracle(case.target).run(case.source, tmp_path, **options)
    if case.header["torch"] == "accepts":
        assert verdict.ok, f"{verdict}\n{verdict.message_full}"
        return
    assert verdict.rejected, f"the tool must reject it, but it {verdict}"
    if "torch-error" in case.header:
        assert verdict.says(case.header["torch-error"]), f"{verdict}\n{verdict.message_full}"
    if case.header.get("torch-line") == "none":
        assert verdict.line is None, f"the tool named a line: {verdict}"
    else:
        rows = sorted({row for row, _code, _severity in case.marks})
        assert any(points_at(verdict, case.source, row) for row in rows), f"marked {rows}, but the tool {verdict}"


def test_the_runner_reads_marks_and_headers(tmp_path):
    path = tmp_path / "cases" / "script" / "topic" / "example.py"
    path.parent.mkdir(parents=True)
    path.write_text("# case: an example\n# torch: rejects\n# settings: strict = true\n"
                    "x = 1  # error: JIT101, JIT102 warning: JIT103\ny = 2  # a comment, not a mark\n")
    case = Case(path, root=tmp_path / "cases")
    assert case.target == "script" and case.header["case"] == "an example" and case.settings() == {"strict": True}
    assert case.marks == {(4, "JIT101", "error"), (4, "JIT102", "error"), (4, "JIT103", "warning")}
