"""The shipped fixtures: the README demo's output is a committed snapshot, and torch agrees with it."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from oracles.script import script_file

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "fixtures"
SNAPSHOT = ROOT / "tests" / "snapshots" / "check-fixtures.txt"


def demo_output() -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "jitlint", "check", "fixtures/"], capture_output=True, text=True, cwd=ROOT
    )


def test_readme_demo_matches_the_snapshot():
    """What `jitlint check fixtures/` prints; regenerate with JITLINT_UPDATE_SNAPSHOTS=1 and review the diff."""
    result = demo_output()
    assert result.returncode == 1, result.stderr
    if os.environ.get("JITLINT_UPDATE_SNAPSHOTS"):
        SNAPSHOT.write_text(result.stdout)
    assert result.stdout == SNAPSHOT.read_text()


def test_scriptable_fixtures_have_no_findings():
    result = subprocess.run(
        [sys.executable, "-m", "jitlint", "check", "fixtures/scriptable"], capture_output=True, text=True, cwd=ROOT
    )
    assert (result.returncode, result.stdout) == (0, "All checks passed!\n")


@pytest.mark.torch
@pytest.mark.parametrize("path", sorted((FIXTURES / "scriptable").glob("*.py")), ids=lambda p: p.name)
def test_torch_scripts_the_scriptable_fixtures(path):
    result = script_file(path)
    assert result.ok, f"{path.name} {result}"


BROKEN = [
    (FIXTURES / "broken" / "legacy_detector.py", None),
    (FIXTURES / "broken" / "text_encoder.py", None),
    (FIXTURES / "broken" / "five_problems.py", None),
    (FIXTURES / "broken" / "detector" / "pyramid.py", FIXTURES / "broken"),
]


@pytest.mark.torch
@pytest.mark.parametrize("path, package_root", BROKEN, ids=lambda p: getattr(p, "name", ""))
def test_torch_rejects_each_broken_fixture_where_jitlint_reported(path, package_root):
    result = script_file(path, package_root)
    assert result.rejected, f"{path.name}: torch.jit.script must reject it, but it {result}"
    reported = {
        (line.split(":")[0], int(line.split(":")[1]))
        for line in demo_output().stdout.splitlines() if line.startswith("fixtures/")
    }
    # Torch stops at its first error; that error is one jitlint reported (torch names the innermost file).
    first_frame = next(
        (Path(f).resolve(), int(n)) for f, n in __import__("re").findall(r'File "([^"]+)", line (\d+)', result.message_full)
        if Path(f).resolve().is_relative_to(FIXTURES)
    )
    assert (str(first_frame[0].relative_to(ROOT)), first_frame[1]) in reported


def test_the_rule_index_lists_every_rule_and_the_readme_quotes_the_demo_summary():
    from jitlint.rules import RULES

    readme = (ROOT / "README.md").read_text()
    index = (ROOT / "rules" / "README.md").read_text()
    assert "(rules/README.md)" in readme
    for rule in RULES:  # the index is generated (tests/test_registry.py checks it is fresh); its links must work
        assert f"| [{rule.code}]({rule.target or 'shared'}/{rule.code}.md) | `{rule.name}` |" in index
        assert (ROOT / "rules" / (rule.target or "shared") / f"{rule.code}.md").is_file()
    summary = SNAPSHOT.read_text().splitlines()[-2:]  # "Found N findings in M files (...)" and the fixable line
    assert summary[0].startswith("Found ")
    for line in summary:
        assert line in readme
    for line in SNAPSHOT.read_text().splitlines()[:3]:
        assert line in readme
