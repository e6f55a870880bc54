"""Every rule page is an executable specification: jitlint and torch 2.13 must both agree with it."""

import re

import pytest

from jitlint import pages
from jitlint.codes import TARGET_OF
from jitlint.rules import RULES, RULES_BY_CODE

from oracles import missing_import, points_at, statement_lines
from oracles.script import script_source

ALL_PAGES = pages.all_pages()
EXAMPLE_PAGES = [page for page in ALL_PAGES if page.torch_verdict != "n/a"]
# torch.jit.script verifies the pages of the script target here; each other target's pages are verified by its own
# capture (tests/test_pages_<target>.py), with the same structure and lint checks below.
SCRIPT_EXAMPLE_PAGES = [page for page in EXAMPLE_PAGES if page.target in ("script", "shared")]
REQUIRED_HEADINGS = ("## What it does", "## Fix safety")
WHY_HEADING = {"script": "## Why TorchScript rejects it", "shared": "## Why TorchScript rejects it"}


def page_codes(page) -> set[str]:
    """What a run with only the page's target enabled reports: its codes and the shared file codes."""
    return {code for code, target in TARGET_OF.items() if target in (page.target, None)}


def marked_rows(source: str, code: str) -> list[int]:
    return [n for n, line in enumerate(source.splitlines(), 1) if re.search(rf"# error:.*\b{code}\b", line)]


def test_every_rule_has_exactly_one_page():
    assert sorted(page.code for page in ALL_PAGES) == sorted(rule.code for rule in RULES)


@pytest.mark.parametrize("page", ALL_PAGES, ids=lambda p: p.code)
def test_page_matches_its_rule(page):
    rule = RULES_BY_CODE[page.code]
    assert page.name == rule.name
    assert page.severity == rule.severity
    assert page.torch_verdict in ("rejects", "accepts", "n/a")
    assert page.target == (RULES_BY_CODE[page.code].target or "shared"), f"{page.code} is in rules/{page.target}/"
    for heading in REQUIRED_HEADINGS:
        assert heading in page.text, f"{page.code} lacks {heading!r}"
    why = WHY_HEADING.get(page.target, "## Why ")
    assert f"\n{why}" in page.text, f"{page.code} lacks a {why!r} heading"
    if page.torch_verdict != "n/a":
        assert "## Example" in page.text and "## Use instead" in page.text
        # `error` is reserved for what torch rejects, which the page's example proves below.
        assert (rule.severity == "error") == (page.torch_verdict == "rejects")


@pytest.mark.parametrize("page", EXAMPLE_PAGES, ids=lambda p: p.code)
def test_bad_example_is_flagged_at_the_marked_lines(page, lint_source):
    expected = marked_rows(page.bad, page.code)
    assert expected, f"{page.code}: the bad example marks no line with '# error: {page.code}'"
    found = sorted(f.location.row for f in lint_source(page.bad, codes=page_codes(page)) if f.code == page.code)
    assert found == expected


@pytest.mark.parametrize("page", EXAMPLE_PAGES, ids=lambda p: p.code)
def test_good_example_is_silent(page, lint_source):
    assert [(f.code, f.location.row) for f in lint_source(page.good, codes=page_codes(page))] == []


def test_every_rejecting_page_quotes_torchs_error():
    missing = [page.code for page in EXAMPLE_PAGES if page.torch_verdict == "rejects" and not page.torch_error]
    assert missing == [], f"pages that say torch rejects their example but quote no ```text error: {missing}"


@pytest.mark.torch
@pytest.mark.parametrize("page", SCRIPT_EXAMPLE_PAGES, ids=lambda p: p.code)
def test_torch_agrees_with_the_bad_example(page, tmp_path):
    if missing_import(page.bad):
        pytest.skip(f"{missing_import(page.bad)} is not installed: the example cannot run")
    result = script_source(page.bad, tmp_path)
    if page.torch_verdict == "accepts":
        assert result.ok, f"{page.code} says torch accepts its example, but it {result}"
        return
    # Only torch.jit.script itself counts: an import error or a constructor that needs arguments is the page's bug.
    assert result.rejected, f"{page.code}: torch.jit.script must reject the bad example, but it {result}"
    assert page.torch_error, f"{page.code} quotes no error text"
    assert result.says(page.torch_error), (
        f"{page.code}: torch's error is not the page's {page.torch_error!r}; it {result}:\n{result.message_full}"
    )
    if "- **Torch location**: none" in page.text:
        # torch names no line: jitlint's finding is the only pointer
        assert result.line is None, f"{page.code}: the page says torch names no line, but it {result}"
        return
    row = marked_rows(page.bad, page.code)[0]
    if RULES_BY_CODE[page.code].explains_other_findings:
        # a guard that does not prune (JIT501, JIT502) is the cause: torch fails inside the block it guards
        assert result.line in statement_lines(page.bad, row), f"{page.code}: marked line {row}, but torch {result}"
        return
    # jitlint points at the line torch points to, or inside the same simple statement or compound statement
    # header (a finding on a loop's `else:` does not cover torch's `for`).
    assert points_at(result, page.bad, row), f"{page.code}: marked line {row}, but torch {result}"


@pytest.mark.torch
@pytest.mark.parametrize("page", SCRIPT_EXAMPLE_PAGES, ids=lambda p: p.code)
def test_torch_scripts_the_good_example(page, tmp_path):
    if missing_import(page.good):
        pytest.skip(f"{missing_import(page.good)} is not installed: the example cannot run")
    result = script_source(page.good, tmp_path)
    assert result.ok, f"{page.code}: the good example {result}"
