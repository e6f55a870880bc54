"""The trace target's pages against torch 2.13: each page's bad example traced with `torch.jit.trace` on the page's
example inputs is rejected, or the traced module differs from eager on the page's second inputs (or raises there),
as the page's "Under trace" says; the good example traces and equals eager on both (in a child process:
`oracles.trace.jit_trace_sources`). The structure and lint checks of these pages are in test_pages.py, like every
target's."""

import re

import pytest

from jitlint import pages

from oracles.trace import jit_trace_sources

# TRC000 and TRC010 report what the dynamic checker saw: their pages have no examples (test_pages.py checks them).
TRACE_PAGES = [page for page in pages.all_pages() if page.target == "trace" and page.torch_verdict != "n/a"]


def field(page, name: str) -> str:
    match = re.search(rf"^- \*\*{name}\*\*: (.+)$", page.text, re.MULTILINE)
    return match.group(1).strip() if match else ""


def code_field(page, name: str) -> str:
    match = re.fullmatch(r"`(.+)`", field(page, name))
    return match.group(1) if match else ""


def good_inputs(page) -> tuple[str, str]:
    """The good example's two input sets: the page's own, or `Good example inputs` (`A` then `B`)."""
    match = re.fullmatch(r"`(.+)` then `(.+)`", field(page, "Good example inputs"))
    if match:
        return match.group(1), match.group(2)
    return code_field(page, "Example inputs"), code_field(page, "Second inputs")


def modes(page) -> tuple[str, str]:
    """(trace mode, run mode) of the bad example."""
    if field(page, "Trace mode").startswith("train"):
        return "train", "eval"
    run = "train" if field(page, "Run mode").startswith("train") else ""
    return "eval", run


@pytest.fixture(scope="module")
def traced(tmp_path_factory):
    """Every page's bad and good example, traced once (one child process for all of them)."""
    jobs = []
    for page in TRACE_PAGES:
        trace_mode, run_mode = modes(page)
        jobs.append({"source": page.bad, "inputs": code_field(page, "Example inputs"),
                     "inputs2": code_field(page, "Second inputs"), "trace_mode": trace_mode, "run_mode": run_mode})
        first, second = good_inputs(page)
        jobs.append({"source": page.good, "inputs": first, "inputs2": second, "trace_mode": "eval",
                     "run_mode": run_mode})
    results = jit_trace_sources(jobs, tmp_path_factory.mktemp("trace-pages"))
    return {page.code: (results[2 * i], results[2 * i + 1]) for i, page in enumerate(TRACE_PAGES)}


def test_there_are_trace_pages():
    assert len(TRACE_PAGES) >= 20


@pytest.mark.parametrize("page", TRACE_PAGES, ids=lambda p: p.code)
def test_page_states_inputs_and_outcome(page):
    assert code_field(page, "Example inputs") and code_field(page, "Second inputs"), page.code
    assert field(page, "Under trace") in ("rejects", "changes", "breaks"), page.code
    assert (field(page, "Under trace") == "rejects") == (page.torch_verdict == "rejects"), page.code


@pytest.mark.torch
@pytest.mark.parametrize("page", TRACE_PAGES, ids=lambda p: p.code)
def test_torch_trace_agrees_with_the_bad_example(page, traced):
    result, _good = traced[page.code]
    assert result.stage in (None, "trace"), f"{page.code}: the bad example {result}"
    assert result.verdict == field(page, "Under trace"), f"{page.code}: torch.jit.trace {result}"
    if result.verdict == "rejects":
        assert result.says(page.torch_error), f"{page.code}: torch said {result.error_type}: {result.message}"


@pytest.mark.torch
@pytest.mark.parametrize("page", TRACE_PAGES, ids=lambda p: p.code)
def test_torch_traces_the_good_example_correctly(page, traced):
    _bad, result = traced[page.code]
    assert result.verdict == "accepts", f"{page.code}: the good example {result}"
