"""The case files: `tests/cases/<target>/<topic>/<name>.py`, each checked against jitlint and against the real tool.

A case is plain Python. Its first lines are header comments:

- `# case: <what it shows>` (required);
- `# torch: accepts | rejects | changes | breaks | recompiles` (required): what the real tool of the pinned torch
  does with it (`tests/oracles`);
- `# torch-error: <text>`: a part of the tool's message (up to whitespace and addresses);
- `# torch-line: none`: the tool names no line of the file (a whole-class rejection);
- `# settings: key = value, ...`: the target's settings for the run (`[tool.jitlint.<target>]`, TOML values);
- `# inputs: <expression>`: the example inputs (export, trace); a target's own headers follow the same form.

A value goes on over the next comment lines indented by at least two spaces after the `#`.

A line where jitlint reports ends with a mark: a comment holding `<severity>: <code>[, <code>...]` (severity
`error`, `warning` or `info`; several groups may follow each other). The jitlint check lints the case with every
code of its target (and the shared file codes): every finding must be marked, every mark found, with the
severity it says. The tool check (`@pytest.mark.torch`) runs the target's oracle: a case that `accepts` must go
through; one that `rejects` must be rejected by the tool itself, with its message when the header quotes it, at
one of the marked lines (the smallest statement around it, as `oracles.points_at` says), or at no line when the
header says so.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from conftest import codes_for
from jitlint.config import Config
from jitlint.engine import lint
from jitlint.targets import all_targets
from oracles import oracle, points_at

CASES = Path(__file__).parent / "cases"
HEADER = re.compile(r"#\s*([a-z][a-z0-9-]*):\s*(.*)$")
CONTINUED = re.compile(r"#\s{2,}(\S.*)$")
MARK = re.compile(r"\b(error|warning|info):\s*([A-Z]+\d{3}(?:\s*,\s*[A-Z]+\d{3})*)")
VERDICTS = ("accepts", "rejects", "changes", "breaks", "recompiles")
# What this runner checks against the tool itself: the verdicts it knows how to ask an oracle for. The trace
# target's cases (traced twice and compared with eager, TracerWarnings by line) are checked against torch by
# tests/test_trace_cases.py, which batches them in one child process.
TOOL_CHECKED = {"script", "export", "fx"}


class Case:
    def __init__(self, path: Path) -> None:
        self.path = path
        self.target = path.relative_to(CASES).parts[0]
        self.source = path.read_text(encoding="utf-8")
        self.header: dict[str, str] = {}
        key = None
        for line in self.source.splitlines():
            match = HEADER.match(line)
            if match is None:
                continued = CONTINUED.match(line)
                if continued is None or key is None:
                    break
                self.header[key] += " " + continued.group(1).strip()  # an indented line goes on with the value
                continue
            key = match.group(1)
            self.header[key] = match.group(2).strip()
        self.marks: set[tuple[int, str, str]] = set()  # (row, code, severity)
        for row, line in enumerate(self.source.splitlines(), 1):
            if "#" not in line or HEADER.match(line):
                continue
            comment = line[line.index("#"):]
            for severity, codes in MARK.findall(comment):
                self.marks.update((row, code.strip(), severity) for code in codes.split(","))

    def settings(self) -> dict:
        text = self.header.get("settings", "")
        return tomllib.loads("\n".join(part.strip() for part in text.split(","))) if text else {}


def all_cases() -> list[Path]:
    return sorted(CASES.rglob("*.py"))


def case_id(path: Path) -> str:
    return str(path.relative_to(CASES).with_suffix(""))


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
    global CASES
    saved, CASES = CASES, tmp_path / "cases"
    try:
        case = Case(path)
    finally:
        CASES = saved
    assert case.target == "script" and case.header["case"] == "an example" and case.settings() == {"strict": True}
    assert case.marks == {(4, "JIT101", "error"), (4, "JIT102", "error"), (4, "JIT103", "warning")}
