"""The fx strategy (`--dynamic --target fx`): real child processes, real torch.fx.symbolic_trace, wrap-and-retry.

One run over a temporary project; the assertions read its JSON output."""

import json
import textwrap
from pathlib import Path

import pytest

from .project import run_jitlint, write_project

pytestmark = pytest.mark.torch

PROJECT = {
    "pyproject.toml": """
        [tool.jitlint]
        target = ["fx"]

        [tool.jitlint.dynamic]
        timeout = 60

        [tool.jitlint.fx]
        leaf-modules = ["pkg.layers.Opaque"]
    """,
    "pkg/__init__.py": "",
    # Three failures in three places: symbolic_trace stops at the first; wrap-and-retry finds all three.
    "pkg/layers.py": """
        import torch
        import torch.nn as nn


        def pad_amount(size, k):
            return max(size - k, 0)


        def odd_trim(x):
            if x.shape[-1] % 2:
                return x[..., :-1]
            return x


        class Gate(nn.Module):
            def forward(self, x):
                if x.sum() > 0:
                    return x
                return -x


        class Opaque(nn.Module):
            def forward(self, x):
                if x.sum() > 0:
                    return x
                return -x
    """,
    "pkg/model.py": """
        import json
        import os

        import torch
        import torch.nn as nn

        from pkg.layers import Gate, Opaque, odd_trim, pad_amount


        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.gate = Gate()
                self.opaque = Opaque()

            def forward(self, x):
                x = odd_trim(x)
                x = self.gate(x)
                x = self.opaque(x)
                return x + pad_amount(x.size(-1), 3)


        class Masked(nn.Module):
            def forward(self, x, mask=None):
                if mask is not None:
                    x = x * mask
                return x * 2


        class NoRuleSeesIt(nn.Module):
            def forward(self, x):
                return x, json.dumps(x.size(0))


        class NeedsArgs(nn.Module):
            def __init__(self, n):
                super().__init__()
                self.n = n

            def forward(self, x):
                return x * len(x)


        def clip(size):
            return min(size, 4)


        class Clipped(nn.Module):
            def __init__(self, use_clip=False):
                super().__init__()
                self.use_clip = use_clip or os.environ.get("CLIP") == "1"

            def forward(self, x):
                if self.use_clip:
                    x = x * clip(x.size(0))
                return x
    """,
}


def _project(root: Path) -> Path:
    return write_project(root, {name: textwrap.dedent(text).lstrip() for name, text in PROJECT.items()})


@pytest.fixture(scope="module")
def dynamic_run(tmp_path_factory):
    root = _project(tmp_path_factory.mktemp("fxdyn"))
    result = run_jitlint("--dynamic", "--no-cache", "--output-format", "json", "pkg", cwd=root, timeout=600)
    assert result.returncode == 1, result.stderr
    return {(Path(f["filename"]).name, f["location"]["row"], f["code"]): f for f in json.loads(result.stdout)}


def status(finding):
    return finding["confirmation"]["status"]


def test_wrap_and_retry_confirms_every_failure_of_one_model(dynamic_run):
    for key in (("layers.py", 6, "FX202"), ("layers.py", 10, "FX201"), ("layers.py", 17, "FX201")):
        assert status(dynamic_run[key]) == "confirmed", dynamic_run[key]


def test_configured_leaf_is_not_traced_statically_nor_dynamically(dynamic_run):
    assert not [key for key in dynamic_run if key[0] == "layers.py" and key[1] >= 22]


def test_silent_mis_trace_stays_unverified(dynamic_run):
    finding = dynamic_run[("model.py", 25, "FX221")]
    assert status(finding) == "unverified" and "silent" in finding["confirmation"]["detail"]


def test_what_only_tracing_sees_is_fx000_at_the_innermost_user_line(dynamic_run):
    finding = dynamic_run[("model.py", 32, "FX000")]
    assert status(finding) == "confirmed" and "is not JSON serializable" in finding["message"]


def test_a_model_that_cannot_be_built_leaves_its_findings_unverified(dynamic_run):
    finding = dynamic_run[("model.py", 41, "FX202")]
    assert status(finding) == "unverified" and "needs constructor arguments: n" in finding["confirmation"]["detail"]


def test_a_static_error_tracing_never_reaches_is_not_reproduced_and_a_warning(dynamic_run):
    finding = dynamic_run[("model.py", 45, "FX202")]
    assert status(finding) == "not-reproduced" and finding["severity"] == "warning"
    assert "traced Clipped" in finding["confirmation"]["detail"]


def test_nothing_else_is_reported(dynamic_run):
    assert sorted(dynamic_run) == sorted([
        ("layers.py", 6, "FX202"), ("layers.py", 10, "FX201"), ("layers.py", 17, "FX201"),
        ("model.py", 25, "FX221"), ("model.py", 32, "FX000"), ("model.py", 41, "FX202"), ("model.py", 45, "FX202"),
    ])


def test_with_both_targets_each_confirmer_marks_its_own_findings(tmp_path):
    _project(tmp_path)
    result = run_jitlint("--dynamic", "--no-cache", "--target", "script,fx", "--output-format", "json", "pkg",
                         cwd=tmp_path, timeout=600)
    findings = {(Path(f["filename"]).name, f["location"]["row"], f["code"]): f for f in json.loads(result.stdout)}
    padding = findings[("layers.py", 6, "FX202")]
    assert (padding["severity"], status(padding)) == ("error", "confirmed")
    assert status(findings[("model.py", 45, "FX202")]) == "not-reproduced"
    assert any(code.startswith("JIT") for _file, _row, code in findings)


ALONE = {
    "pyproject.toml": """
        [tool.jitlint]
        target = ["fx"]
    """,
    "pk/__init__.py": "",
    "pk/model.py": """
        import torch.nn as nn


        class Part(nn.Module):
            def forward(self, x, flag=False):
                if flag:
                    return x
                return x * 2


        class Holder(nn.Module):
            def __init__(self):
                super().__init__()
                self.part = Part()

            def forward(self, x):
                return self.part(x)
    """,
}


def test_a_failure_only_a_part_traced_on_its_own_meets_is_confirmed_by_tracing_it(tmp_path):
    """`Holder` traces (it calls `Part` with `flag` at its default); `Part` traced on its own fails at `if flag`:
    the confirmer traces the part too, so the finding is confirmed, not taken for one tracing never reaches."""
    root = write_project(tmp_path, {name: textwrap.dedent(text).lstrip() for name, text in ALONE.items()})
    result = run_jitlint("--dynamic", "--no-cache", "--output-format", "json", "pk", cwd=root, timeout=600)
    findings = json.loads(result.stdout)
    assert [(f["location"]["row"], f["code"]) for f in findings] == [(6, "FX201")], result.stdout
    assert status(findings[0]) == "confirmed" and "traced on its own" in findings[0]["message"], findings[0]
