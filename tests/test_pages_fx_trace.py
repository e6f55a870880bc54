"""The FX2xx pages against torch 2.13: the bad example of a rejecting page fails in `symbolic_trace` with the page's
error text, at the marked line (the innermost traceback line in the example); the bad example of a warning page
traces (the hazard is silent); every good example traces. jitlint's side of each page (flagged at the marked
lines, silent on the good example) is checked by tests/test_pages.py."""

import re

import pytest

from jitlint import pages

from oracles.fx import trace_sources

TRACE_PAGES = [page for page in pages.all_pages()
               if page.target == "fx" and re.match(r"FX2\d\d$", page.code) and page.torch_verdict != "n/a"]


def marked_rows(source: str, code: str) -> list[int]:
    return [n for n, line in enumerate(source.splitlines(), 1) if re.search(rf"# error:.*\b{code}\b", line)]


@pytest.fixture(scope="module")
def traced(tmp_path_factory):
    directory = tmp_path_factory.mktemp("fx_pages")
    sources = {}
    for page in TRACE_PAGES:
        sources[f"{page.code}_bad"] = page.bad
        sources[f"{page.code}_good"] = page.good
    return trace_sources(sources, directory)


def test_there_are_trace_pages():
    assert len(TRACE_PAGES) >= 10


@pytest.mark.torch
@pytest.mark.parametrize("page", TRACE_PAGES, ids=lambda p: p.code)
def test_torch_agrees_with_the_bad_example(page, traced):
    result = traced[f"{page.code}_bad"]
    if page.torch_verdict != "rejects":
        assert result.ok, f"{page.code} says symbolic_trace accepts its example, but it {result}"
        return
    assert result.rejected, f"{page.code}: symbolic_trace must reject the bad example, but it {result}"
    assert page.torch_error and result.says(page.torch_error), (
        f"{page.code}: torch's error is not the page's {page.torch_error!r}; it {result}")
    assert result.line == marked_rows(page.bad, page.code)[0], f"{page.code}: torch {result}"


@pytest.mark.torch
@pytest.mark.parametrize("page", TRACE_PAGES, ids=lambda p: p.code)
def test_torch_traces_the_good_example(page, traced):
    result = traced[f"{page.code}_good"]
    assert result.ok, f"{page.code}: the good example {result}"
