"""The table of how symbolic_trace fails (`src/jitlint/targets/fx/error_sites.toml`) stays true: torch 2.13 raises each
site's exception and message on each of its cases, at the line the case marks `# fails` (or at no line of the case
when the site says so); the site's rule fires at that line; and the generated page is fresh."""

import json
import subprocess
import sys
import textwrap
import tomllib
from pathlib import Path

import pytest

from conftest import codes_for, lint_files

ROOT = Path(__file__).resolve().parents[1]
TABLE = ROOT / "src" / "jitlint" / "targets" / "fx" / "error_sites.toml"
SITES = tomllib.loads(TABLE.read_text())["site"]
CASES = [(index, number, site, case) for index, site in enumerate(SITES) for number, case in enumerate(site["case"])]
# Look-alikes: code near a site's cases that torch traces, where jitlint must stay silent.
LOOKALIKES = [(index, number, site, case) for index, site in enumerate(SITES)
              for number, case in enumerate(site.get("lookalike", []))]
MARK = "# fails"

# Each case in its own directory, imported as the module `case` with that directory first on the path; the last
# nn.Module class it defines is built and traced with plain symbolic_trace. Reports the stage that raised, the
# exception's class and text, and the innermost traceback frame in the case's files (file name and line).
_CHILD = r'''
import importlib, json, sys, traceback, warnings
warnings.simplefilter("ignore")
import torch, torch.nn as nn, torch.fx as fx

results = {}
for directory in json.loads(sys.argv[1]):
    sys.path.insert(0, directory)
    for name in [n for n in sys.modules if n in ("case", "halves")]:
        del sys.modules[name]
    stage = "import"
    try:
        module = importlib.import_module("case")
        classes = [v for v in vars(module).values()
                   if isinstance(v, type) and issubclass(v, nn.Module) and v.__module__ == "case"]
        stage = "build"
        model = classes[-1]()
        stage = "trace"
        fx.symbolic_trace(model)
        results[directory] = {"stage": None}
    except Exception as error:
        frames = [f for f in traceback.extract_tb(error.__traceback__) if f.filename.startswith(directory + "/")]
        where = [frames[-1].filename[len(directory) + 1:], frames[-1].lineno] if frames else None
        results[directory] = {"stage": stage, "type": type(error).__module__ + "." + type(error).__qualname__,
                              "message": str(error), "where": where}
    sys.path.remove(directory)
print(json.dumps(results))
'''


def case_files(case: dict) -> dict[str, str]:
    files = {"case.py": textwrap.dedent(case["source"]).lstrip("\n")}
    for name, source in case.get("files", {}).items():
        files[name] = textwrap.dedent(source).lstrip("\n")
    return files


def marked(files: dict[str, str]) -> list[tuple[str, int]]:
    return [(name, row) for name, source in files.items()
            for row, line in enumerate(source.splitlines(), 1) if line.rstrip().endswith(MARK)]


def case_id(item) -> str:
    index, number, site, case = item
    return f"{index}-{site.get('rule', 'none')}-{case['name'].replace(' ', '_')}"


@pytest.fixture(scope="module")
def traced(tmp_path_factory):
    directories = {}
    for index, number, site, case in CASES:
        directory = tmp_path_factory.mktemp(f"site{index}_{number}")
        for name, source in case_files(case).items():
            (directory / name).write_text(source)
        directories[(index, number)] = str(directory)
    for index, number, site, case in LOOKALIKES:
        directory = tmp_path_factory.mktemp(f"lookalike{index}_{number}")
        for name, source in case_files(case).items():
            (directory / name).write_text(source)
        directories[("lookalike", index, number)] = str(directory)
    completed = subprocess.run([sys.executable, "-c", _CHILD, json.dumps(list(directories.values()))],
                               capture_output=True, text=True, timeout=600)
    assert completed.returncode == 0, completed.stderr[-3000:]
    results = json.loads(completed.stdout.strip().splitlines()[-1])
    return {key: results[directory] for key, directory in directories.items()}


def test_every_site_says_what_models_it_or_why_not():
    for site in SITES:
        assert bool(site.get("rule")) != bool(site.get("why")), site["raised_at"]
        assert site["case"], site["raised_at"]
        for case in site["case"]:
            files = case_files(case)
            marks = marked(files)
            if site.get("points_at") == "none":
                assert not marks, case["name"]
            else:
                assert len(marks) == 1, f"{case['name']}: mark the one line torch points at"


@pytest.mark.torch
@pytest.mark.parametrize("item", CASES, ids=case_id)
def test_torch_raises_the_site_on_its_case(item, traced):
    index, number, site, case = item
    result = traced[(index, number)]
    assert result["stage"] == site.get("stage", "trace"), f"{case['name']}: {result}"
    assert result["type"].rpartition(".")[2] == site["exception"].rpartition(".")[2], result
    assert site["message"] in result["message"], result
    marks = marked(case_files(case))
    expected = list(marks[0]) if marks else None
    assert result["where"] == expected, f"{case['name']}: torch points at {result['where']}"


@pytest.mark.parametrize("item", [item for item in CASES if item[2].get("rule")], ids=case_id)
def test_the_rule_fires_at_the_marked_line(item, tmp_path):
    index, number, site, case = item
    files = case_files(case)
    findings = lint_files(files, tmp_path, codes=codes_for("fx"))
    found = {(Path(f.filename).name, f.location.row) for f in findings if f.code == site["rule"]}
    (where,) = marked(files)
    assert where in found, f"{case['name']}: {site['rule']} at {sorted(found)}; all: " + str(
        [(Path(f.filename).name, f.location.row, f.code) for f in findings])


@pytest.mark.torch
@pytest.mark.parametrize("item", LOOKALIKES, ids=case_id)
def test_torch_traces_each_lookalike(item, traced):
    index, number, site, case = item
    assert not marked(case_files(case)), case["name"]
    result = traced[("lookalike", index, number)]
    assert result["stage"] is None, f"{case['name']}: {result}"


@pytest.mark.parametrize("item", LOOKALIKES, ids=case_id)
def test_no_error_on_a_lookalike(item, tmp_path):
    index, number, site, case = item
    findings = lint_files(case_files(case), tmp_path, codes=codes_for("fx"))
    errors = [(Path(f.filename).name, f.location.row, f.code) for f in findings
              if f.code.startswith("FX2") and f.severity == "error"]
    assert errors == [], f"{case['name']}: {errors}"


def test_the_page_is_fresh():
    result = subprocess.run([sys.executable, str(ROOT / "scripts" / "fx_error_sites.py"), "--check"],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
