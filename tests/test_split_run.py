"""A run split by capture policy (`jitlint.split_run`): the rules of policies that need one process (trace) in a
process of their own, the others across workers, at the same time; the findings are those of a run in one process."""

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


def test_script_and_trace_split_gives_the_findings_of_one_process(tmp_path, monkeypatch):
    package = _project(tmp_path)
    enabled = _codes("script", "trace")
    sharded = []
    real = engine._lint_sharded
    monkeypatch.setattr(engine, "_lint_sharded", lambda *args: sharded.append(args[5]) or real(*args))
    one = engine.lint_run([package], Config(root=tmp_path), enabled, jobs=1)
    split = split_run.lint_run_split([package], Config(root=tmp_path), enabled, jobs=2)
    assert sharded == [2]  # the script rules went to two workers; the trace rules to a process of their own
    assert [f.to_json() for f in split.findings] == [f.to_json() for f in one.findings]
    codes = {f.code for f in split.findings}
    assert any(code.startswith("TRC2") for code in codes)  # the helper's branch on a size from another file
    assert any(code.startswith("JIT") for code in codes)
    assert "TRC301" not in codes  # the run has the script target: the trace process knows it


def test_trace_alone_still_advises_migration(tmp_path):
    package = _project(tmp_path)
    enabled = _codes("trace")
    split = split_run.lint_run_split([package], Config(root=tmp_path), enabled, jobs=2)
    one = engine.lint_run([package], Config(root=tmp_path), enabled, jobs=1)
    assert [f.to_json() for f in split.findings] == [f.to_json() for f in one.findings]
    assert "TRC301" in {f.code for f in split.findings}


def test_a_failing_process_leaves_its_rules_to_this_process(tmp_path, monkeypatch):
    package = _project(tmp_path)
    enabled = _codes("script", "trace")
    one = engine.lint_run([package], Config(root=tmp_path), enabled, jobs=1)

    def fail(connection, *args):
        connection.send(("failed", "RuntimeError: boom"))
        connection.close()

    monkeypatch.setattr(split_run, "_lint_together", fail)
    split = split_run.lint_run_split([package], Config(root=tmp_path), enabled, jobs=2)
    assert [f.to_json() for f in split.findings] == [f.to_json() for f in one.findings]
    assert any("boom" in note for note in split.notes)


def test_a_run_of_one_process_rules_only_is_not_split(tmp_path, monkeypatch):
    """`--target trace` alone: nothing else would run in parallel (engine-reported codes such as parse errors are
    no rules of their own), so the run is one `lint_run` with every code."""
    package = _project(tmp_path)
    enabled = _codes("trace") | {"JIT001"}
    seen = []
    real = engine.lint_run
    monkeypatch.setattr(engine, "lint_run", lambda paths, config, codes, **k: seen.append(set(codes)) or real(
        paths, config, codes, **k))
    split_run.lint_run_split([package], Config(root=tmp_path), enabled, jobs=2)
    assert seen == [enabled]
