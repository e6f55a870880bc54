"""Why a function is captured does not depend on the order the capture finds its users in: two roots that reach one
function give it the same reason (and the same `captured_from`) in one process and in any split across workers."""

import textwrap
from pathlib import Path

import pytest

from jitlint import engine, pipeline
from jitlint.capture import reason_order
from jitlint.config import Config

FILES = {
    "pkg/__init__.py": "",
    "pkg/cache.py": """\
        import torch


        class Cache:
            def __init__(self, x: torch.Tensor):
                self.x = x.numpy()

            def get(self) -> torch.Tensor:
                return self.x
    """,
    # Two module classes whose forwards use the TorchScript class: each makes its methods captured, with a reason
    # that names it.
    "pkg/a_model.py": """\
        import torch.nn as nn
        from pkg.cache import Cache


        class AModel(nn.Module):
            def forward(self, x):
                return Cache(x).get()
    """,
    "pkg/b_model.py": """\
        import torch.nn as nn
        from pkg.cache import Cache


        class BModel(nn.Module):
            def forward(self, x):
                return Cache(x).get()
    """,
}


def _findings(root: Path, jobs: int, split, monkeypatch):
    if split is not None:
        def forced(job, workers):
            shares = [[root / name for name in share] for share in split]
            shares[-1].extend(path for path in job.files if all(path not in share for share in shares))
            order = {path: number for number, path in enumerate(job.files)}
            return [sorted(share, key=order.__getitem__) for share in shares]

        monkeypatch.setattr(pipeline, "MIN_FILES_PER_JOB", 1)
        monkeypatch.setattr(pipeline, "split", forced)
    config = Config(root=root)
    run = engine.lint_run([root / "pkg"], config, {"JIT401"}, jobs=jobs)
    return [finding.to_json() for finding in run.findings]


# The worker that lints cache.py explores its own forward (BModel's) before it takes AModel's call from the other
# worker; in one process AModel's forward comes first.
@pytest.mark.parametrize("split", [[["pkg/cache.py", "pkg/b_model.py"], ["pkg/a_model.py"]],
                                   [["pkg/cache.py", "pkg/a_model.py"], ["pkg/b_model.py"]],
                                   [["pkg/a_model.py", "pkg/b_model.py"], ["pkg/cache.py"]]])
def test_the_reason_is_the_same_in_one_process_and_split(tmp_path, monkeypatch, split):
    for name, text in FILES.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(textwrap.dedent(text), encoding="utf-8")
    one = _findings(tmp_path, 1, None, monkeypatch)
    assert [(Path(f["filename"]).name, f["code"], f["location"]["row"]) for f in one] == [("cache.py", "JIT401", 6)]
    assert [step["reason"] for step in one[0]["captured_from"]] == [
        "method of TorchScript class Cache (used in AModel.forward)"]
    assert _findings(tmp_path, 2, split, monkeypatch) == one


def test_reasons_compete_in_one_order():
    primary = frozenset({"@torch.jit.script"})
    reasons = ["called from f", "captured from pkg/a.py", "forward of M", "@torch.jit.script", "stored in M.f, x"]
    assert sorted(reasons, key=lambda reason: reason_order(reason, primary)) == [
        "@torch.jit.script", "forward of M", "called from f", "stored in M.f, x", "captured from pkg/a.py"]
