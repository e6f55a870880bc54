"""The FX graph-pass pages (rules/fx/FX1xx.md) against torch 2.13: each marked line of a rejecting page's bad example
raises, on its own, one of the errors the page quotes, at that line; a silent hazard's bad example runs (its own
asserts show the wrong behaviour); every good example runs; a safe fix makes the fixed line run."""

import re
import subprocess
import sys
from pathlib import Path

import pytest

from jitlint import pages
from jitlint.rules import RULES_BY_CODE

from oracles.fx import neutralise, run_examples

ROOT = Path(__file__).resolve().parents[1]
FX_PASS_PAGES = [page for page in pages.all_pages() if page.target == "fx" and page.code.startswith("FX1")]


def marked_rows(source: str, code: str) -> list[int]:
    return [n for n, line in enumerate(source.splitlines(), 1) if re.search(rf"# error:.*\b{code}\b", line)]


def quoted_errors(page) -> list[str]:
    """Every line of every ```text block in the page's "Why" section."""
    why = re.search(r"^## Why .*?(?=^## )", page.text, re.MULTILINE | re.DOTALL)
    assert why, f"{page.code} has no Why section"
    blocks = re.findall(r"```text\n(.*?)```", why.group(0), re.DOTALL)
    return [line.strip() for block in blocks for line in block.splitlines() if line.strip()]


def test_every_fx_pass_rule_has_a_page_here():
    rules = sorted(code for code, rule in RULES_BY_CODE.items() if rule.policy == "fx-pass")
    assert rules and sorted(page.code for page in FX_PASS_PAGES) == rules


@pytest.fixture(scope="module")
def ran(tmp_path_factory):
    """Every example the tests below run, run in one child process (each as its own `__main__`): a silent hazard's
    bad example, each marked line of a rejecting bad example on its own, every good example, and each marked line a
    safe fix rewrites, fixed, on its own. Keyed by (code, "bad" | "good" | "fixed", row or None); also the fixed
    sources, by code."""
    directory = tmp_path_factory.mktemp("fx_pass_examples")
    jobs: dict[tuple, str] = {}
    fixed_sources = {}
    for page in FX_PASS_PAGES:
        rows = marked_rows(page.bad, page.code)
        if page.torch_verdict == "accepts":
            jobs[(page.code, "bad", None)] = page.bad
        else:
            for row in rows:
                jobs[(page.code, "bad", row)] = neutralise(page.bad, row, rows)
        jobs[(page.code, "good", None)] = page.good
    for page in SAFE_FIX_PAGES:
        rows = marked_rows(page.bad, page.code)
        fixed = fixed_sources[page.code] = _fix(page.bad, page.code, directory / f"fix_{page.code}")
        for row in rows:
            if len(fixed.splitlines()) >= row and fixed.splitlines()[row - 1] != page.bad.splitlines()[row - 1]:
                jobs[(page.code, "fixed", row)] = neutralise(fixed, row, rows)
    results = run_examples(list(jobs.values()), directory / "run")
    return dict(zip(jobs, results)), fixed_sources


@pytest.mark.torch
@pytest.mark.parametrize("page", FX_PASS_PAGES, ids=lambda p: p.code)
def test_torch_agrees_with_the_bad_example(page, ran):
    rows = marked_rows(page.bad, page.code)
    assert rows
    results, _fixed = ran
    if page.torch_verdict == "accepts":
        result = results[(page.code, "bad", None)]
        assert result.ok, f"{page.code}: the silent hazard's example must run (its asserts show the hazard): {result}"
        assert "assert " in page.bad, f"{page.code}: a silent hazard's example shows the wrong behaviour with an assert"
        return
    quoted = quoted_errors(page)
    assert quoted, f"{page.code} quotes no error"
    matched: set[str] = set()
    for row in rows:
        result = results[(page.code, "bad", row)]
        assert not result.ok, f"{page.code}: line {row} should raise on its own, but the example {result}"
        assert result.line == row, f"{page.code}: marked line {row}, but torch {result}"
        says = [text for text in quoted if result.says(text)]
        assert says, f"{page.code}: line {row} {result}, which the page does not quote ({quoted})"
        matched.update(says)
    assert matched == set(quoted), f"{page.code} quotes errors no marked line raises: {set(quoted) - matched}"


@pytest.mark.torch
@pytest.mark.parametrize("page", FX_PASS_PAGES, ids=lambda p: p.code)
def test_torch_runs_the_good_example(page, ran):
    results, _fixed = ran
    result = results[(page.code, "good", None)]
    assert result.ok, f"{page.code}: the good example {result}"


SAFE_FIX_PAGES = [page for page in FX_PASS_PAGES if RULES_BY_CODE[page.code].fix == "safe"]


def _fix(source: str, code: str, directory: Path) -> str:
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / "fixme.py"
    path.write_text(source)
    subprocess.run([sys.executable, "-m", "jitlint", "check", "--target", "fx", "--select", code, "--fix", "-q",
                    str(path)], capture_output=True, text=True, cwd=directory)
    return path.read_text()


@pytest.mark.torch
@pytest.mark.parametrize("page", SAFE_FIX_PAGES, ids=lambda p: p.code)
def test_the_safe_fix_makes_the_fixed_lines_run(page, ran):
    """Every marked line the fix rewrites stops raising: the fixed example, with the other marked lines blanked,
    runs to the end. A page's good example is not involved."""
    results, fixed_sources = ran
    rows = marked_rows(page.bad, page.code)
    fixed = fixed_sources[page.code]
    fixed_lines = fixed.splitlines()
    assert len(fixed_lines) == len(page.bad.splitlines()), "the fixes keep one line per line"
    changed = [row for row in rows if fixed_lines[row - 1] != page.bad.splitlines()[row - 1]]
    assert changed, f"{page.code}: the safe fix changed no marked line"
    for row in changed:
        result = results[(page.code, "fixed", row)]
        assert result.ok, f"{page.code}: after the fix, line {row} ({fixed_lines[row - 1].strip()!r}) {result}"


@pytest.mark.parametrize("page", FX_PASS_PAGES, ids=lambda p: p.code)
def test_page_states_the_fix_safety_its_rule_offers(page):
    section = page.text.split("## Fix safety\n", 1)[1]
    fix = RULES_BY_CODE[page.code].fix
    if fix is None:
        assert not section.startswith(("**Safe**", "**Unsafe**")), page.code
    else:
        assert section.startswith(f"**{fix.capitalize()}**"), page.code
