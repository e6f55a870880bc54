"""The trace target end to end: configuration, values followed into helpers, the traced module's inputs and outputs
judged on top-level module classes only, torch's hidden warnings named, and advice that does not cross targets."""

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from conftest import codes_for, lint_files
from jitlint.config import Config, ConfigError, load_config
from jitlint.targets.trace.settings import TraceSettings

ROOT = Path(__file__).resolve().parents[1]


def jitlint(*args, cwd=ROOT):
    return subprocess.run([sys.executable, "-m", "jitlint", *args], capture_output=True, text=True, cwd=cwd,
                          env={"PYTHONPATH": str(ROOT / "src"), "PATH": "/usr/bin:/bin"})


def found(findings, prefix="TRC"):
    return sorted((f.code, f.location.row) for f in findings if f.code.startswith(prefix))


def write_config(tmp_path, text: str) -> Path:
    path = tmp_path / "pyproject.toml"
    path.write_text(textwrap.dedent(text))
    return path


def test_trace_settings_load(tmp_path):
    config = load_config(write_config(tmp_path, """
        [tool.jitlint]
        target = ["trace"]
        [tool.jitlint.trace]
        strict = false
        inputs = { "pkg.models:Net" = "pkg.examples:net_inputs" }
        compare-inputs = { "pkg.models:Net" = "pkg.examples:other_inputs" }
    """))
    settings = config.settings("trace")
    assert config.targets == ["trace"] and settings.strict is False
    assert settings.inputs == {"pkg.models:Net": "pkg.examples:net_inputs"}
    assert settings.compare_inputs == {"pkg.models:Net": "pkg.examples:other_inputs"}


def test_bad_trace_settings_are_one_line_errors(tmp_path):
    write_config(tmp_path, "[tool.jitlint.trace]\nstrict = \"no\"\n")
    with pytest.raises(ConfigError, match="strict"):
        load_config(tmp_path / "pyproject.toml")
    (tmp_path / "m.py").write_text("x = 1\n")
    result = jitlint("check", "--target", "trace", "m.py", cwd=tmp_path)
    assert result.returncode == 2 and "Traceback" not in result.stderr and len(result.stderr.splitlines()) == 1


HELPERS = """
import math
import torch
import torch.nn as nn


def scale(q, width):
    return q / math.sqrt(width)


def pad_rows(x, n):
    for i in range(n):
        x = x + 1
    return x


class Attention(nn.Module):
    def forward(self, q):
        q = scale(q, q.size(-1))
        return pad_rows(q, 3)
"""


def test_traced_values_follow_into_helpers(tmp_path):
    """`q.size(-1)` passed to a helper is a traced size there; `3` is not."""
    findings = lint_files({"m.py": HELPERS}, tmp_path, codes=codes_for("trace"))
    assert found(findings) == [("TRC203", 8)]


STARRED_CALL = """
import math
import torch.nn as nn


def pad_rows(x, n, width):
    for i in range(n):
        x = x + 1
    return x * math.sqrt(width)


class Starred(nn.Module):
    def forward(self, q):
        qs = [q]
        return pad_rows(*qs, 3, q.size(-1))


class Keywords(nn.Module):
    def forward(self, q):
        qs = [q]
        return pad_rows(*qs, width=q.size(-1), n=3)
"""


def test_arguments_after_a_starred_one_reach_no_known_parameter(tmp_path):
    """After `*qs` the positions are unknown: `q.size(-1)` is not `n` (no TRC202 at `range(n)`); a keyword still
    names its parameter (`width=q.size(-1)`: torch warns at `math.sqrt(width)`)."""
    findings = lint_files({"m.py": STARRED_CALL}, tmp_path, codes=codes_for("trace"))
    assert found(findings) == [("TRC203", 9)]


OTHER_FILE_HELPERS = """
import math

import torch


def scale(q, width):
    return q / math.sqrt(width)


def wider(a: torch.Tensor | None, b: torch.Tensor):
    return a.size(-1) > b.size(-1)
"""
OTHER_FILE_MODEL = """
import torch.nn as nn

from pkg.helpers import scale, wider


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(4, 8)

    def forward(self, q):
        q = scale(q, q.size(-1))
        h = self.proj(q)
        if wider(h, q):
            return h[..., :4]
        return q
"""


def test_traced_values_follow_into_helpers_of_other_files(tmp_path):
    """A size passed to a helper of another file is traced there (torch warns at `math.sqrt`); a helper's
    returned comparison of sizes, and a torch.nn layer's output, are traced values where they are used (torch
    warns at the `if`)."""
    files = {"pkg/__init__.py": "", "pkg/helpers.py": OTHER_FILE_HELPERS, "pkg/model.py": OTHER_FILE_MODEL}
    findings = lint_files(files, tmp_path, codes=codes_for("trace"))
    assert sorted((Path(f.filename).name, f.code, f.location.row) for f in findings) == [
        ("helpers.py", "TRC203", 8), ("model.py", "TRC201", 15)]
    # the same whichever file comes first, and the findings of the helper need its callers' file in the run
    again = lint_files(files, tmp_path, lint_only=["pkg/model.py", "pkg/helpers.py"], codes=codes_for("trace"))
    assert sorted((Path(f.filename).name, f.code, f.location.row) for f in again) == [
        ("helpers.py", "TRC203", 8), ("model.py", "TRC201", 15)]
    alone = lint_files(files, tmp_path, lint_only=["pkg/helpers.py"], codes=codes_for("trace"))
    assert [f for f in alone if f.code.startswith("TRC")] == []


REEXPORTED_UTILS = """
try:
    from torch import _assert
except ImportError:
    def _assert(condition: bool, message: str):
        assert condition, message
"""
REEXPORTED_MODEL = """
import torch.nn as nn

from pkg.utils import _assert


class Net(nn.Module):
    def forward(self, x):
        _assert(x.shape[1] == 4, "four channels")
        return x * 2
"""


def test_a_reexported_torch_function_is_the_torch_function(tmp_path):
    """`_assert` imported from a module that imports `torch._assert` (its fallback for an old torch unused) is
    torch's: the check is frozen, and torch's warning is raised inside torch (hidden by its filter)."""
    files = {"pkg/__init__.py": "", "pkg/utils.py": REEXPORTED_UTILS, "pkg/model.py": REEXPORTED_MODEL}
    findings = [f for f in lint_files(files, tmp_path, codes=codes_for("trace")) if f.code.startswith("TRC")]
    assert [(Path(f.filename).name, f.code, f.location.row) for f in findings] == [("model.py", "TRC201", 9)]
    assert "torch._assert" in findings[0].message and "hides" in findings[0].message


SUBMODULES = """
import torch
import torch.nn as nn


class Block(nn.Module):
    def forward(self, x, scale: float = 1.0):
        return x * scale, None


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.block = Block()

    def forward(self, x):
        y, _ = self.block(x)
        return {"out": y}
"""


def test_inputs_and_outputs_are_those_of_the_top_level_module(tmp_path):
    """A submodule may take a float and return None: only the traced module's forward is checked."""
    findings = lint_files({"m.py": SUBMODULES}, tmp_path, codes=codes_for("trace"))
    assert found(findings) == [("TRC101", 18)]
    relaxed = Config(root=tmp_path, target_settings={"trace": TraceSettings(strict=False)})
    assert found(lint_files({"m.py": SUBMODULES}, tmp_path, codes=codes_for("trace"), config=relaxed)) == []


HIDDEN = """
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        if x.shape[1] > 4:
            return x * 2
        return x
"""


@pytest.mark.parametrize("package, hidden", [("torchvisionx", True), ("usermodels", False)])
def test_the_message_says_when_torch_hides_its_warning(tmp_path, package, hidden):
    """torch's filter `module="torch.(?!jit)"` matches any module whose name starts with `torch` and one more
    character: a package named `torchvisionx` is hidden too."""
    files = {f"{package}/__init__.py": "", f"{package}/m.py": HIDDEN}
    [finding] = [f for f in lint_files(files, tmp_path, codes=codes_for("trace")) if f.code == "TRC201"]
    assert ("hides warnings from" in finding.message) is hidden
    assert "torch warns" in finding.message


NUMPY = """
import torch
import torch.nn as nn


class Stats(nn.Module):
    @torch.jit.ignore
    def spread(self, x):
        return torch.from_numpy(x.numpy().std(0))

    def forward(self, x):
        return x.numpy() / self.spread(x)
"""


def test_script_advice_does_not_send_numpy_where_trace_bakes_it(tmp_path):
    alone = [f for f in lint_files({"m.py": NUMPY}, tmp_path, codes=codes_for("script")) if f.code == "JIT401"]
    both = [f for f in lint_files({"m.py": NUMPY}, tmp_path, codes=codes_for("script", "trace"))
            if f.code == "JIT401"]
    assert "@torch.jit.ignore" in alone[0].message and "keep the value a Tensor" in alone[0].message
    assert "torch.jit.trace (trace) bakes its result" in both[0].message
    assert "move the NumPy code" not in both[0].message
    dump = ("import torch\nimport torch.nn as nn\n\n\nclass M(nn.Module):\n    def forward(self, x):\n"
            "        print(x.numpy())\n        return x\n")
    fixes = {targets: [f.fix for f in lint_files({"d.py": dump}, tmp_path, codes=codes_for(*targets))
                       if f.code == "JIT401"] for targets in (("script",), ("script", "trace"))}
    assert fixes[("script",)][0] is not None and fixes[("script", "trace")] == [None]


RANDOM = """
import random
import torch
import torch.nn as nn


class Noise(nn.Module):
    def forward(self, x):
        return x * random.random()
"""


def test_script_advice_for_random_under_trace(tmp_path):
    [alone] = [f for f in lint_files({"m.py": RANDOM}, tmp_path, codes=codes_for("script")) if f.code == "JIT402"]
    [both] = [f for f in lint_files({"m.py": RANDOM}, tmp_path, codes=codes_for("script", "trace"))
              if f.code == "JIT402"]
    assert "@torch.jit.ignore` method" in alone.message
    assert "torch.jit.trace (trace) computes once and bakes" in both.message


BRANCH = """
import torch
import torch.nn as nn


class Gate(nn.Module):
    def forward(self, x):
        if x.sum() > 0:
            return x * 2
        return x - 1
"""


def test_export_and_trace_advice_meet_at_torch_where(tmp_path):
    """`torch.cond` (export's remedy) does not trace; `@torch.jit.script_if_tracing` (trace's) runs as Python under
    export, which then rejects the branch: with both targets each suggests only `torch.where`."""
    export_alone = [f for f in lint_files({"m.py": BRANCH}, tmp_path, codes=codes_for("export")) if f.code == "EXP101"]
    trace_alone = [f for f in lint_files({"m.py": BRANCH}, tmp_path, codes=codes_for("trace")) if f.code == "TRC201"]
    both = lint_files({"m.py": BRANCH}, tmp_path, codes=codes_for("export", "trace"))
    assert "torch.cond" in export_alone[0].message and "script_if_tracing" in trace_alone[0].message
    [exp] = [f for f in both if f.code == "EXP101"]
    [trc] = [f for f in both if f.code == "TRC201"]
    assert "torch.where" in exp.message and "`torch.cond` would fail under torch.jit.trace" in exp.message
    assert "torch.where" in trc.message and "script_if_tracing" not in trc.message


def test_torchscript_only_constructs_only_without_the_script_target(tmp_path):
    alone = lint_files({"m.py": NUMPY}, tmp_path, codes=codes_for("trace"))
    both = lint_files({"m.py": NUMPY}, tmp_path, codes=codes_for("script", "trace"))
    assert [row for code, row in found(alone) if code == "TRC301"] == [7]
    assert [f for f in both if f.code == "TRC301"] == []
    # what the ignored body computes is judged for trace either way
    assert ("TRC204", 9) in found(alone) and ("TRC204", 9) in found(both)


def test_rules_listing_knows_the_target():
    result = jitlint("rules", "--target", "trace")
    codes = [line.split()[0] for line in result.stdout.splitlines()]
    assert "TRC201" in codes and not any(code.startswith("JIT1") for code in codes)
