"""The lint phase of a one-process run in two parts (`jitlint.split_run`): the rules of policies that need one
process (trace) in a forked child, the others in this process, at the same time; the findings are those of a run
linted in one part."""

from __future__ import annotations

from jitlint import engine, split_run
from jitlint.codes import TARGET_OF
from jitlint.config import Config

HELPER = """\
import torch


def scaled(x: torch.Tensor, n):
    if n > 2:
        return x * 2
    return x
"""

MODEL = """\
import torch
import torch.nn as nn

from pkg.helpers import scaled


class Model{n}(nn.Module):
    def __init__(self):
        super().__init__()
        self.cache = {{}}

    @torch.jit.ignore
    def extra(self, x):
        return x

    def forward(self, x):
        y = scaled(x, x.size(0))
        if torch.jit.is_scripting():
            return y
        return self.extra(y) + len(self.cache)
"""


def _project(tmp_path):
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "helpers.py").write_text(HELPER)
    for n in range(10):
        (package / f"model{n}.py").write_text(MODEL.format(n=n))
    return package


def _codes(*targets: str) -> set[str]:
    return {code for code, target in TARGET_OF.items() if target in targets}


def _parts(monkeypatch):
    used = []
    real = split_run.in_two_parts
    monkeypatch.setattr(split_run, "in_two_parts", lambda *args: used.append(args[2]) or real(*args))
    return used


def test_script_and_trace_in_two_parts_give_the_findings_of_one(tmp_path, monkeypatch):
    package = _project(tmp_path)
    enabled = _codes("script", "trace")
    used = _parts(monkeypatch)
    one = engine.lint_run([package], Config(root=tmp_path), enabled, jobs=1)
    assert used == []
    two = engine.lint_run([package], Config(root=tmp_path), enabled, jobs=2)
    assert used == [frozenset({"script", "trace"})]  # the child linted the trace rules, knowing the script target
    assert [f.to_json() for f in two.findings] == [f.to_json() for f in one.findings]
    codes = {f.code for f in two.findings}
    assert any(code.startswith("TRC2") for code in codes)  # the helper's branch on a size from another file
    assert any(code.startswith("JIT") for code in codes)
    assert "TRC301" not in codes  # the run has the script target


def test_trace_alone_is_linted_in_one_part_and_advises_migration(tmp_path, monkeypatch):
    package = _project(tmp_path)
    enabled = _codes("trace") | {"JIT001"}
    used = _parts(monkeypatch)
    run = engine.lint_run([package], Config(root=tmp_path), enabled, jobs=2)
    assert used == []  # nothing else to lint at the same time
    assert "TRC301" in {f.code for f in run.findings}


def test_a_failing_child_leaves_its_rules_to_this_process(tmp_path, monkeypatch):
    package = _project(tmp_path)
    enabled = _codes("script", "trace")
    one = engine.lint_run([package], Config(root=tmp_path), enabled, jobs=1)

    def fail(connection, work):
        connection.send(("failed", "RuntimeError: boom"))
        connection.close()

    monkeypatch.setattr(split_run, "_child", fail)
    two = engine.lint_run([package], Config(root=tmp_path), enabled, jobs=2)
    assert [f.to_json() for f in two.findings] == [f.to_json() for f in one.findings]
    assert any("boom" in note for note in two.notes)
