"""The graph-pass hazard cases (tests/data/fx_pass_hazards/, one per hazard of the shared FX catalogue that a static
check can see, and correct passes): torch 2.13 does what each case's header says (the quoted error, or it runs),
jitlint flags each hazard case at its marked line with the marked rule, and the correct passes stay silent.
bench/fx_pass_hazards.py prints the same as a table, and lints torch's own pass code."""

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import codes_for, lint_files

ROOT = Path(__file__).resolve().parents[1]
CASES = sorted((ROOT / "tests" / "data" / "fx_pass_hazards").glob("[hc]*.py"))
MARK = re.compile(r"^\s*[^#\s].*  # hazard: (FX\d{3})")
_RUNNER = r"""
import json, runpy, sys, warnings
warnings.simplefilter("ignore")
results = {}
for path in sys.argv[1:]:
    try:
        runpy.run_path(path, run_name="__main__")
        results[path] = None
    except BaseException as error:
        results[path] = f"{type(error).__name__}: {error}"
print(json.dumps(results))
"""


@pytest.fixture(scope="module")
def ran():
    completed = subprocess.run([sys.executable, "-c", _RUNNER, *map(str, CASES)], capture_output=True, text=True,
                               timeout=600)
    assert completed.returncode == 0, completed.stderr[-2000:]
    return json.loads(completed.stdout.strip().splitlines()[-1])


def test_there_are_hazards_and_correct_passes():
    assert sum(p.name.startswith("h") for p in CASES) >= 30 and sum(p.name.startswith("c") for p in CASES) >= 10


@pytest.mark.torch
@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_torch_does_what_the_header_says(path, ran):
    error = re.search(r"^# torch-error: (.*)$", path.read_text(), re.M)
    if error is None:
        assert ran[str(path)] is None, ran[str(path)]
    else:
        assert ran[str(path)] is not None and error.group(1).strip() in ran[str(path)], ran[str(path)]


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_jitlint_flags_the_marked_line_and_nothing_else(path, tmp_path):
    source = path.read_text()
    findings = lint_files({path.name: source}, tmp_path, codes=codes_for("fx"))
    found = sorted((f.code, f.location.row) for f in findings if f.code.startswith("FX1"))
    expected = sorted((m.group(1), row) for row, line in enumerate(source.splitlines(), 1) if (m := MARK.search(line)))
    assert found == expected
