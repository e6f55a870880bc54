"""The TorchScript frontend's error sites (src/jitlint/targets/script/error_sites.toml) are true.

- the table is sound (ids, fields, a case or a reason for every reachable row, a reason for every row not modelled);
- torch 2.13 rejects every case with the row's message, at the line the case marks (marked `torch`: one run of all
  cases in two child processes);
- every rule a row claims reports its code at that line of the case (jitlint only, no torch);
- rules/script/error-sites.md is fresh.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from jitlint.codes import TARGET_OF

ROOT = Path(__file__).resolve().parents[1]


def _load_module():
    spec = importlib.util.spec_from_file_location("error_sites", ROOT / "scripts" / "error_sites.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


error_sites = _load_module()
TABLE = error_sites.load()
SCRIPT_CODES = {code for code, target in TARGET_OF.items() if target in ("script", None)}
WITH_CASE = [site for site in TABLE.sites if site.reachable and site.case]
MODELLED = [site for site in TABLE.sites if site.reachable and site.modelled]


def test_table_is_sound():
    assert error_sites.problems(TABLE, SCRIPT_CODES) == []


def test_page_is_fresh():
    assert error_sites.PAGE.read_text(encoding="utf-8") == error_sites.page_text(TABLE), (
        "rules/script/error-sites.md is stale: run `python scripts/error_sites.py`")


def test_template_regex_matches_placeholders_and_whitespace():
    pattern = error_sites.template_regex("Variable '{name}' previously had type {type} but is now")
    assert pattern
    import re

    assert re.search(pattern, "Variable 'x'   previously had type int but is now")
    assert not re.search(pattern, "Variable 'x' had type int but is now")


def test_coverage_figures(capsys):
    reachable, modelled = TABLE.reachable, TABLE.modelled
    without_case = [site for site in reachable if not site.case]
    unmodelled = [site for site in reachable if not site.modelled]
    line = (f"error sites: {len(TABLE.sites)} rows, {len(reachable)} reachable, {len(modelled)} modelled "
            f"({100 * len(modelled) / len(reachable):.0f}%), {len(unmodelled)} not modelled, "
            f"{len(without_case)} reachable without a case")
    with capsys.disabled():
        print("\n" + line)
    assert f"**Coverage: {len(modelled)} / {len(reachable)} reachable rows" in error_sites.page_text(TABLE)


@pytest.fixture(scope="module")
def torch_results():
    return error_sites.run_torch(WITH_CASE)


@pytest.mark.torch
@pytest.mark.parametrize("site", WITH_CASE, ids=lambda site: site.id)
def test_torch_rejects_the_case_as_the_row_says(site, torch_results):
    result = torch_results.get(site.id)
    assert result is not None, f"{site.id}: no result from the child process"
    assert error_sites.torch_says(site, result) == []


@pytest.mark.parametrize("site", MODELLED, ids=lambda site: site.id)
def test_the_claimed_rule_reports_at_the_line(site):
    line = site.marked_line
    found = [(code, row) for code, row, _ in error_sites.lint_case(site)]
    assert any(code == site.rule and error_sites.covered(site.case, row, line) for code, row in found), (
        f"{site.id} claims {site.rule} at line {line}; jitlint reports {found}")


def test_a_rule_that_does_not_fire_is_caught():
    """The rule check above fails when a row claims a rule that stays silent on its case."""
    site = next(site for site in MODELLED if site.rule != "JIT105")
    wrong = error_sites.Site(**{**site.__dict__, "rule": "JIT105"})
    found = error_sites.lint_case(wrong)
    assert not any(code == "JIT105" and error_sites.covered(wrong.case, row, wrong.marked_line)
                   for code, row, _ in found)
