"""The compile target's pages against torch 2.13: each page's bad example compiled with `torch.compile(backend=
"eager")` on the page's example inputs (the number of calls it states) breaks the graph at the marked line with the
page's quoted reason, or recompiles until the limit with the page's quoted guard, as its "Under torch.compile" says;
the good example compiles without a break and settles (at most the one recompile that makes a size dynamic), in a
child process (`oracles.compile`). The structure
and lint checks of these pages are in test_pages.py, like every target's."""

import re

import pytest

from jitlint import pages

from oracles.compile import compile_sources
from oracles import covered_lines

# DYN000 reports what the dynamic checker saw: its page has no examples (test_pages.py checks it).
COMPILE_PAGES = [page for page in pages.all_pages() if page.target == "compile" and page.torch_verdict != "n/a"]


def field(page, name: str) -> str:
    match = re.search(rf"^- \*\*{name}\*\*: (.+)$", page.text, re.MULTILINE)
    return match.group(1).strip() if match else ""


def code_field(page, name: str) -> str:
    match = re.fullmatch(r"`(.+)`", field(page, name))
    return match.group(1) if match else ""


def marked_row(source: str, code: str) -> int:
    rows = [n for n, line in enumerate(source.splitlines(), 1) if re.search(rf"# error:.*\b{code}\b", line)]
    assert rows, f"{code}: no marked line"
    return rows[0]


@pytest.fixture(scope="module")
def compiled(tmp_path_factory):
    """Every page's bad and good example, compiled once (one child process for all of them)."""
    jobs = []
    for page in COMPILE_PAGES:
        calls = int(field(page, "Calls") or 2)
        jobs.append({"source": page.bad, "inputs": code_field(page, "Example inputs"), "calls": calls})
        jobs.append({"source": page.good, "inputs": code_field(page, "Good example inputs")
                     or code_field(page, "Example inputs"), "calls": calls})
    results = compile_sources(jobs, tmp_path_factory.mktemp("compile-pages"))
    return {page.code: (results[2 * i], results[2 * i + 1]) for i, page in enumerate(COMPILE_PAGES)}


def test_there_are_compile_pages():
    assert len(COMPILE_PAGES) >= 16


@pytest.mark.parametrize("page", COMPILE_PAGES, ids=lambda p: p.code)
def test_page_states_inputs_and_outcome(page):
    assert code_field(page, "Example inputs"), page.code
    assert field(page, "Under torch.compile") in ("breaks", "recompiles"), page.code
    if field(page, "Under torch.compile") == "breaks":
        assert page.torch_error, f"{page.code} quotes no graph-break reason"
    else:
        assert code_field(page, "Recompile guard"), f"{page.code} states no recompile guard"


@pytest.mark.torch
@pytest.mark.parametrize("page", COMPILE_PAGES, ids=lambda p: p.code)
def test_torch_compile_agrees_with_the_bad_example(page, compiled):
    result, _good = compiled[page.code]
    assert result.stage is None, f"{page.code}: the bad example {result}"
    row = marked_row(page.bad, page.code)
    if field(page, "Under torch.compile") == "breaks":
        at_row = [item for item in result.breaks if item["lines"] and item["lines"][-1] in covered_lines(page.bad, row)]
        assert at_row, f"{page.code}: no graph break at the marked line {row}: {result}"
        assert any(page.torch_error in item["reason"] for item in at_row), (
            f"{page.code}: torch's reason is not {page.torch_error!r}: {result}")
    else:
        guard = code_field(page, "Recompile guard")
        assert any(guard in item["guard"] for item in result.recompiles), f"{page.code}: {result}"
        assert result.limit is not None, f"{page.code}: the recompile limit is not hit: {result}"


@pytest.mark.torch
@pytest.mark.parametrize("page", COMPILE_PAGES, ids=lambda p: p.code)
def test_torch_compiles_the_good_example_without_breaks(page, compiled):
    _bad, result = compiled[page.code]
    # One recompile is how automatic dynamic shapes start (the first new size makes the dimension symbolic).
    assert result.stage is None and not result.breaks and result.error is None, f"{page.code}: the good example {result}"
    assert result.limit is None and len(result.recompiles) <= 1, f"{page.code}: the good example {result}"
