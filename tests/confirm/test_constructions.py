"""Classes that need constructor arguments, or whose defaults do not build, are built with the literal arguments of
their construction sites in the project (`jitlint.confirm.constructions`): calls in code and doctest examples."""

import textwrap
from pathlib import Path

import pytest

from .project import dynamic_findings, located, write_project
from jitlint.confirm.constructions import construction_sites
from jitlint.project import ProjectIndex
from jitlint.engine import load_quietly

LAYERS = '''
from typing import Final

import torch
import torch.nn as nn


class Head(nn.Module):
    def __init__(self, nc: int = 80, ch: tuple = ()):
        super().__init__()
        self.first = ch[0]  # the empty default is a placeholder: building with it raises IndexError
        self.convs = nn.ModuleList(nn.Conv2d(c, nc, 1) for c in ch)

    def forward(self, x):
        return x.numpy()


class Block(nn.Module):
    """A block.

    Examples:
        >>> block = Block(4,
        ...               out_ch=8)
    """

    def __init__(self, in_ch, out_ch):
        super().__init__()
        self.lin = nn.Linear(in_ch, out_ch)

    def forward(self, x):
        return x.numpy()


def helper(x):
    return x.numpy()


class Unbuilt(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.lin = nn.Linear(width, width)

    def forward(self, x):
        y = x.numpy()
        return helper(x)


class Gated(nn.Module):
    """Built with the flag off, torch prunes the branch it guards (`Final`): the static error is not reproduced.

    >>> Gated(flag=False)
    """

    flag: Final[bool]

    def __init__(self, flag):
        super().__init__()
        self.flag = flag

    def forward(self, x):
        if self.flag:
            return getattr(self, "n" + "orm")(x)
        return x
'''

MODEL = '''
from pkg.layers import Head
from pkg import layers as L


def build(width):
    return [Head(nc=3, ch=(4, 8)), L.Unbuilt(width), L.Block(in_ch=width, out_ch=2)]
'''

# A class of the same name elsewhere: its calls are not sites of `pkg.layers.Head`.
OTHER = '''
class Head:
    def __init__(self, a, b):
        pass


made = Head(1, 2)
'''


def _project(root: Path) -> Path:
    return write_project(root, {"pkg/__init__.py": "", "pkg/layers.py": textwrap.dedent(LAYERS),
                                "pkg/model.py": MODEL, "pkg/other.py": OTHER,
                                "pyproject.toml": "[tool.jitlint.dynamic]\ntimeout = 120\n"})


def test_sites_are_literal_calls_resolved_to_the_class_and_doctest_examples(tmp_path):
    root = _project(tmp_path)
    project = ProjectIndex(loader=load_quietly)
    project.seed([root / "pkg" / "layers.py"])
    files = sorted((root / "pkg").glob("*.py"))
    sites = construction_sites(project, files, {"pkg.layers.Head", "pkg.layers.Block", "pkg.layers.Unbuilt"})
    shown = {name: [(site["args"], site["kwargs"], Path(site["where"]).name) for site in found]
             for name, found in sites.items()}
    assert shown == {
        "pkg.layers.Head": [([], {"nc": "3", "ch": "(4, 8)"}, "model.py:7")],  # not other.py's Head(1, 2)
        "pkg.layers.Block": [(["4"], {"out_ch": "8"}, "layers.py:22")],  # the example; model.py's is computed
    }


@pytest.mark.torch
def test_a_class_built_with_the_arguments_of_its_construction_site_is_confirmed(tmp_path):
    root = _project(tmp_path)
    findings = [f for f in dynamic_findings(root, "pkg/layers.py") if f["code"] != "JIT000"]
    statuses = {(row, status) for _name, row, _code, status in located(findings)}
    # Head's default `ch=()` raises; Block needs arguments: both built from their sites, their errors confirmed
    assert {(15, "confirmed"), (31, "confirmed")} <= statuses, findings
    # Unbuilt has no site: its method stays unverified, naming what it needs; the free function it calls is
    # scripted on its own (no instance needed), its error confirmed
    [unbuilt] = [f for f in findings if f["location"]["row"] == 44]
    assert unbuilt["confirmation"]["status"] == "unverified"
    assert "needs constructor arguments: width" in unbuilt["confirmation"]["detail"]
    assert (35, "confirmed") in statuses, findings
    [gated] = [f for f in findings if f["code"] == "JIT306"]
    assert gated["confirmation"]["status"] == "not-reproduced", gated
    assert gated["confirmation"]["detail"].endswith("scripted Gated (built with the arguments at layers.py:51)"), gated
