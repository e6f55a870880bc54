"""The export target's pages against torch 2.13: `torch.export.export` of each page's example, with the example
inputs the page states, in a child process (`tests/oracles/export.py`). The structure and lint checks of these pages are in
test_pages.py, like every target's."""

import re

import pytest

from jitlint import pages

from oracles.export import export_sources
from oracles import statement_lines

EXPORT_PAGES = [page for page in pages.all_pages() if page.target == "export"]


def example_inputs(page) -> str:
    match = re.search(r"^- \*\*Example inputs\*\*: `(.+)`$", page.text, re.MULTILINE)
    assert match, f"{page.code} states no example inputs (`- **Example inputs**: `(torch.randn(8, 3),)``)"
    return match.group(1)


def torch_location(page) -> str:
    match = re.search(r"^- \*\*Torch location\*\*: (message|traceback|none)$", page.text, re.MULTILINE)
    return match.group(1) if match else ""


def marked_row(source: str, code: str) -> int:
    rows = [n for n, line in enumerate(source.splitlines(), 1) if re.search(rf"# error:.*\b{code}\b", line)]
    assert rows, f"{code}: no marked line"
    return rows[0]


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    """Every page's bad and good example, exported once (one child process for all of them)."""
    jobs = []
    for page in EXPORT_PAGES:
        inputs = example_inputs(page)
        jobs.append((page.bad, inputs, False))
        jobs.append((page.good, inputs, False))
    results = export_sources(jobs, tmp_path_factory.mktemp("export-pages"))
    return {page.code: (results[2 * i], results[2 * i + 1]) for i, page in enumerate(EXPORT_PAGES)}


def test_there_are_export_pages():
    assert len(EXPORT_PAGES) >= 10


@pytest.mark.parametrize("page", EXPORT_PAGES, ids=lambda p: p.code)
def test_page_states_inputs_and_location(page):
    example_inputs(page)
    if page.torch_verdict == "rejects":
        assert torch_location(page), f"{page.code}: a rejecting page says where torch names the line"


@pytest.mark.torch
@pytest.mark.parametrize("page", EXPORT_PAGES, ids=lambda p: p.code)
def test_torch_export_agrees_with_the_bad_example(page, exported):
    result, _good = exported[page.code]
    if page.torch_verdict == "accepts":
        assert result.ok, f"{page.code} says torch.export accepts its example, but it {result}"
        return
    assert result.rejected, f"{page.code}: torch.export must reject the bad example, but it {result}"
    assert result.says(page.torch_error), f"{page.code}: torch said {result.message_full!r}"
    row = marked_row(page.bad, page.code)
    statement = statement_lines(page.bad, row)
    location = torch_location(page)
    if location == "message":
        assert result.line in statement, f"{page.code}: marked line {row}, torch's message names {result.line}"
    elif location == "traceback":
        assert result.line is None, f"{page.code}: the page says the message names no line, but it {result}"
        assert any(line in statement for line in result.traceback_lines), (
            f"{page.code}: marked line {row}, the traceback has {result.traceback_lines}")
    else:
        assert result.line is None, f"{page.code}: the page says torch names no line, but it {result}"


@pytest.mark.torch
@pytest.mark.parametrize("page", EXPORT_PAGES, ids=lambda p: p.code)
def test_torch_exports_the_good_example(page, exported):
    _bad, result = exported[page.code]
    assert result.ok, f"{page.code}: the good example {result}"
