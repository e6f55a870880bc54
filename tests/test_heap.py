"""`jitlint.heap`: the run hands the C heap's free pages back while it parses and lints many files."""

from __future__ import annotations

import platform
import textwrap

import pytest

from jitlint import engine, heap
from jitlint.config import Config
from jitlint.rules import RULES

MODEL = textwrap.dedent("""\
    import torch
    import torch.nn as nn


    class M{n}(nn.Module):
        def forward(self, x, scale=2.0):
            return x.numpy() * scale
""")


@pytest.fixture
def trims(monkeypatch):
    """Count the trims instead of making them."""
    calls = []
    monkeypatch.setattr(heap, "_trim", lambda pad: calls.append(pad) or 1)
    monkeypatch.setattr(heap, "_baseline", 0)
    return calls


def test_a_trim_follows_each_step_of_growth_since_the_last(trims, monkeypatch):
    mib = 1 << 20
    sizes = iter([100 * mib, 100 * mib,  # the first settle trims (grown from 0), leaving 100 MiB
                  107 * mib,  # 7 MiB more: not yet
                  108 * mib, 101 * mib,  # 8: trim, leaving 101
                  90 * mib,  # shrank: growth counts from 90
                  97 * mib,  # 7 above 90: not yet
                  98 * mib, 98 * mib])  # 8 above 90: trim
    monkeypatch.setattr(heap, "rss", lambda: next(sizes))
    monkeypatch.setattr(heap, "STEP_BYTES", 8 * mib)
    heap.settle()
    assert trims == [0] and heap._baseline == 100 * mib
    heap.settle()
    assert trims == [0]
    heap.settle()
    assert trims == [0, 0] and heap._baseline == 101 * mib
    heap.settle()
    assert heap._baseline == 90 * mib
    heap.settle()
    assert trims == [0, 0]
    heap.settle()
    assert trims == [0, 0, 0]


def test_a_run_of_many_files_trims_while_it_parses_and_lints(trims, tmp_path, monkeypatch):
    for n in range(6):
        (tmp_path / f"m{n}.py").write_text(MODEL.format(n=n))
    enabled = {rule.code for rule in RULES}
    monkeypatch.setattr(heap, "STEP_BYTES", 1 << 60)  # never grown enough
    findings = engine.lint([tmp_path], Config(root=tmp_path), enabled, jobs=1)
    assert len(trims) == 1  # where the lint phase starts
    monkeypatch.setattr(heap, "STEP_BYTES", -(1 << 60))  # always grown enough
    trims.clear()
    assert engine.lint([tmp_path], Config(root=tmp_path), enabled, jobs=1) == findings
    assert len(trims) == 6 + 1 + 6  # after each parse, where the lint phase starts, after each file's lint
    assert {f.code for f in findings} >= {"JIT201", "JIT401"}


@pytest.mark.skipif(platform.system() != "Linux" or platform.libc_ver()[0] != "glibc",
                    reason="malloc_trim is glibc's; elsewhere jitlint does not trim")
def test_glibcs_malloc_trim_is_found_and_called(monkeypatch):
    monkeypatch.setattr(heap, "_trim", None)
    heap.release()
    assert heap._trim
    assert heap._trim(0) in (0, 1)


def test_a_final_capture_map_keeps_only_what_the_lint_reads(tmp_path):
    """The exploration's bookkeeping (per function and class it is captured for: what was seen, explored, what led
    where, the labels of the records) goes when the map is final, before the lint; what the lint reads stays."""
    for n in range(2):
        (tmp_path / f"m{n}.py").write_text(MODEL.format(n=n) + "\n\nscripted = torch.jit.script(M{n}())\n".format(n=n))
    enabled = {rule.code for rule in RULES}
    run = engine.lint_run([tmp_path], Config(root=tmp_path), enabled, jobs=1, keep_model=True, record=True)
    captured = run.captured["script"]
    assert captured.functions and run.contrib
    assert all(getattr(captured, name) is None for name in ("_seen", "_key_of", "_edges", "_sites_of", "_labels"))
    assert {f.code for f in run.findings} >= {"JIT201", "JIT401"}
