"""`[tool.jitlint.fx]`: leaf-modules, autowrap-functions and library-leaves change what the fx-trace policy traces,
as a `Tracer` with those leaves would (the default is plain `symbolic_trace`)."""

from pathlib import Path

import pytest

from conftest import codes_for, lint_files
from jitlint.config import Config, ConfigError, load_config
from jitlint.targets.fx.settings import FxSettings

FX = codes_for("fx")

LAYERS = """\
import torch
import torch.nn as nn


def helper(x):
    if x.sum() > 0:
        return x
    return -x


class Branchy(nn.Module):
    def forward(self, x):
        if x.sum() > 0:
            return x
        return -x
"""

MODEL = """\
import torch.nn as nn

from pkg.layers import Branchy, helper


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.branchy = Branchy()

    def forward(self, x):
        return helper(self.branchy(x))
"""

TIMM_STYLE = """\
import torch
import torch.nn as nn

from timm.layers import register_notrace_function, register_notrace_module


@register_notrace_function
def helper(x):
    if x.sum() > 0:
        return x
    return -x


def other(x):
    return x * len(x)


register_notrace_function(other)


@register_notrace_module
class Branchy(nn.Module):
    def forward(self, x):
        if x.sum() > 0:
            return x
        return -x


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.branchy = Branchy()

    def forward(self, x):
        return other(x) + helper(self.branchy(x))
"""


def run(tmp_path, files, **fx):
    settings = FxSettings(leaf_modules=frozenset(fx.get("leaves", [])),
                          autowrap_functions=frozenset(fx.get("wraps", [])), library_leaves=fx.get("library", False))
    config = Config(root=tmp_path, target_settings={"fx": settings})
    return sorted((Path(f.filename).name, f.code, f.location.row) for f in lint_files(files, tmp_path, codes=FX, config=config))


PKG = {"pkg/__init__.py": "", "pkg/layers.py": LAYERS, "pkg/model.py": MODEL}


def test_plain_semantics_traces_into_everything(tmp_path):
    assert run(tmp_path, PKG) == [("layers.py", "FX201", 6), ("layers.py", "FX201", 13)]


def test_configured_leaves_and_autowrap_functions(tmp_path):
    assert run(tmp_path, PKG, leaves=["pkg.layers.Branchy"], wraps=["pkg.layers.helper"]) == []
    assert run(tmp_path, PKG, leaves=["pkg.layers.Branchy"]) == [("layers.py", "FX201", 6)]


def test_library_leaves_honour_timm_registrations(tmp_path):
    files = {"model.py": TIMM_STYLE}
    plain = run(tmp_path, files)
    assert plain == [("model.py", "FX201", 9), ("model.py", "FX201", 24), ("model.py", "FX202", 15)]
    assert run(tmp_path, files, library=True) == []


def test_library_leaves_make_torchvision_ops_leaves(tmp_path):
    files = {
        "torchvision/__init__.py": "",
        "torchvision/ops/__init__.py": "",
        "torchvision/ops/misc.py": LAYERS,
        "torchvision/models/__init__.py": "",
        "torchvision/models/net.py": MODEL.replace("pkg.layers", "torchvision.ops.misc"),
    }
    assert len(run(tmp_path, files)) == 2
    assert run(tmp_path, files, library=True) == []


def test_config_table_is_read_and_checked(tmp_path):
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text('[tool.jitlint]\ntarget = ["fx"]\n[tool.jitlint.fx]\nleaf-modules = ["a.B"]\n'
                         'autowrap-functions = ["a.f"]\nlibrary-leaves = true\n')
    config = load_config(pyproject)
    assert config.settings("fx") == FxSettings(frozenset({"a.B"}), frozenset({"a.f"}), True)
    for bad, says in (("leaf-modules = \"a.B\"", "leaf-modules"), ("library-leaves = 1", "library-leaves"),
                      ("leaves = []", "unknown key")):
        pyproject.write_text(f"[tool.jitlint]\n[tool.jitlint.fx]\n{bad}\n")
        with pytest.raises(ConfigError, match=says):
            load_config(pyproject)
