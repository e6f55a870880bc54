"""Every rule page is an executable specification: jitlint and torch 2.13 must both agree with it."""

import re

import libcst as cst
import pytest
from libcst.metadata import MetadataWrapper, PositionProvider

from jitlint import pages
from jitlint.rules import RULES, RULES_BY_CODE

from torch_oracle import script_source

ALL_PAGES = pages.all_pages()
EXAMPLE_PAGES = [page for page in ALL_PAGES if page.torch_verdict != "n/a"]
REQUIRED_HEADINGS = ("## What it does", "## Why TorchScript rejects it", "## Fix safety")


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
    for heading in REQUIRED_HEADINGS:
        assert heading in page.text, f"{page.code} lacks {heading!r}"
    if page.torch_verdict != "n/a":
        assert "## Example" in page.text and "## Use instead" in page.text
        # `error` is reserved for what torch rejects, which the page's example proves below.
        assert (rule.severity == "error") == (page.torch_verdict == "rejects")


@pytest.mark.parametrize("page", EXAMPLE_PAGES, ids=lambda p: p.code)
def test_bad_example_is_flagged_at_the_marked_lines(page, lint_source):
    expected = marked_rows(page.bad, page.code)
    assert expected, f"{page.code}: the bad example marks no line with '# error: {page.code}'"
    found = sorted(f.location.row for f in lint_source(page.bad) if f.code == page.code)
    assert found == expected


@pytest.mark.parametrize("page", EXAMPLE_PAGES, ids=lambda p: p.code)
def test_good_example_is_silent(page, lint_source):
    assert [(f.code, f.location.row) for f in lint_source(page.good)] == []


def _statement_lines(source: str, row: int) -> range:
    """The lines of the smallest statement (simple or compound) that contains `row`."""
    wrapper = MetadataWrapper(cst.parse_module(source))
    positions = wrapper.resolve(PositionProvider)
    best = None
    for node, span in positions.items():
        if isinstance(node, (cst.SimpleStatementLine, cst.BaseCompoundStatement)):
            if span.start.line <= row <= span.end.line:
                size = span.end.line - span.start.line
                if best is None or size < best[0]:
                    best = (size, range(span.start.line, span.end.line + 1))
    assert best is not None
    return best[1]


@pytest.mark.torch
@pytest.mark.parametrize("page", EXAMPLE_PAGES, ids=lambda p: p.code)
def test_torch_agrees_with_the_bad_example(page, tmp_path):
    result = script_source(page.bad, tmp_path)
    if page.torch_verdict == "accepts":
        assert result.ok, f"{page.code} says torch accepts its example, but: {result.message}"
        return
    assert not result.ok, f"torch 2.13 scripts {page.code}'s bad example"
    if "- **Torch location**: none" in page.text:
        # torch names no line: jitlint's finding is the only pointer
        assert result.line is None, result.message
        return
    # jitlint points at the line torch points to, or at least inside the same statement.
    assert result.line is not None, result.message
    row = marked_rows(page.bad, page.code)[0]
    assert result.line == row or result.line in _statement_lines(page.bad, row), (result.line, row)


@pytest.mark.torch
@pytest.mark.parametrize("page", EXAMPLE_PAGES, ids=lambda p: p.code)
def test_torch_scripts_the_good_example(page, tmp_path):
    result = script_source(page.good, tmp_path)
    assert result.ok, result.message
