"""The compiled-code map: jitlint flags code exactly where torch.jit.script compiles it.

Every single-file case here is also checked against torch 2.13: it must fail to script, at the marked line or
in the same statement.
"""

import re
import textwrap

import pytest

from oracles.script import script_source

H = "import torch\nimport torch.nn as nn\nfrom typing import List\n\n"


def case(source: str) -> str:
    return H + textwrap.dedent(source)


REACHED = {
    "self-method-called-from-forward": case("""
        class M(nn.Module):
            def forward(self, x):
                return self.helper(x)

            def helper(self, x):
                return x.numpy()  # error: JIT401
    """),
    "chain-of-free-functions": case("""
        def inner(x):
            return x.numpy()  # error: JIT401

        def outer(x):
            return inner(x)

        class M(nn.Module):
            def forward(self, x):
                return outer(x)
    """),
    "staticmethod-via-self": case("""
        class M(nn.Module):
            @staticmethod
            def helper(x, scale=2.0):  # error: JIT201
                return x * scale

            def forward(self, x):
                return self.helper(x)
    """),
    "property-compiled-even-unused": case("""
        class M(nn.Module):
            @property
            def p(self):
                return torch.zeros(1).numpy()  # error: JIT401

            def forward(self, x):
                return x
    """),
    "export-compiled-even-uncalled": case("""
        class M(nn.Module):
            def forward(self, x):
                return x

            @torch.jit.export
            def debug(self, x):
                return x.numpy()  # error: JIT401
    """),
    "submodule-forward-compiled-though-unused": case("""
        class Child(nn.Module):
            def forward(self, x):
                return x.numpy()  # error: JIT401

        class M(nn.Module):
            def __init__(self):
                super().__init__()
                self.child = Child()

            def forward(self, x):
                return x
    """),
    "torchscript-class-methods-all-compiled": case("""
        class Box:
            def __init__(self, k: int):
                self.k = k

            def unused(self, x: torch.Tensor):
                return x.numpy()  # error: JIT401

        class M(nn.Module):
            def forward(self, x):
                b = Box(2)
                return x * b.k
    """),
    "inherited-forward-of-base-class": case("""
        class Base(nn.Module):
            def forward(self, x):
                for i in range(len(self.layers)):
                    x = self.layers[i](x)  # error: JIT301
                return x

        class M(Base):
            def __init__(self):
                super().__init__()
                self.layers = nn.ModuleList([nn.Linear(4, 4)])
    """),
    "ignored-method-signature-compiled-when-called": case("""
        class M(nn.Module):
            @torch.jit.ignore
            def log(self, x, scale=2.0):  # error: JIT201
                return x

            def forward(self, x):
                return self.log(x)  # error: JIT438 (torch points here: the ignored method's stub has no defaults)
    """),
    "is-scripting-and-cond-does-not-prune": case("""
        class M(nn.Module):
            def forward(self, x):
                if torch.jit.is_scripting() and x.sum() > 0:
                    return x
                else:
                    return x.numpy()  # error: JIT401
    """),
    "not-is-scripting-or-cond-does-not-prune": case("""
        class M(nn.Module):
            def forward(self, x):
                if not torch.jit.is_scripting() or x.sum() > 0:
                    return x.numpy()  # error: JIT401
                return x
    """),
    "syntax-rule-fires-in-dead-branch": case("""
        class M(nn.Module):
            def forward(self, xs: List[torch.Tensor]):
                if not torch.jit.is_scripting():
                    xs = [t for t in xs if t.numel() > 0]  # error: JIT102
                return xs
    """),
    "lambda-in-dead-branch": case("""
        class M(nn.Module):
            def forward(self, x):
                if not torch.jit.is_scripting():
                    x.register_hook(lambda g: g)  # error: JIT105
                return x
    """),
    "syntax-after-early-return-still-parsed": case("""
        class M(nn.Module):
            def forward(self, xs: List[int]):
                if torch.jit.is_scripting():
                    return xs
                return [a for a in xs if a > 0]  # error: JIT102
    """),
    "nested-def-in-dead-branch": case("""
        class M(nn.Module):
            def forward(self, x):
                if not torch.jit.is_scripting():
                    def g(t):  # error: JIT107
                        return t
                    x = g(x)
                return x
    """),
    "aliases-from-torch-import-nn": "from torch import nn\nimport torch\n\n" + textwrap.dedent("""
        class M(nn.Module):
            def __init__(self):
                super().__init__()
                self.layers = nn.ModuleList([nn.Linear(4, 4)])

            def forward(self, x):
                i = 0
                return self.layers[i](x)  # error: JIT301
    """),
    "aliases-from-torch-nn-import-names": "import torch\nfrom torch.nn import Module, ModuleList as ML, Linear\n\n" + textwrap.dedent("""
        class M(Module):
            def __init__(self):
                super().__init__()
                self.layers = ML([Linear(4, 4)])

            def forward(self, x):
                i = 0
                return self.layers[i](x)  # error: JIT301
    """),
    "aliases-import-torch-nn": "import torch\nimport torch.nn\n\n" + textwrap.dedent("""
        class M(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.seq = torch.nn.Sequential(torch.nn.Linear(4, 4))

            def forward(self, x):
                i = 0
                return self.seq[i](x)  # error: JIT301
    """),
    "container-built-by-a-factory-method": case("""
        class M(nn.Module):
            def __init__(self):
                super().__init__()
                self.stage = self._make_stage(2)

            def _make_stage(self, blocks: int):
                layers = [nn.Linear(4, 4) for _ in range(blocks)]
                return nn.Sequential(*layers)

            def forward(self, x):
                for i in range(2):
                    x = self.stage[i](x)  # error: JIT301
                return x
    """),
    "optional-param-isinstance-is-refined-not-folded": case("""
        from typing import Optional

        class M(nn.Module):
            def forward(self, x: torch.Tensor, y: Optional[torch.Tensor]):
                if isinstance(y, torch.Tensor):
                    return y
                return x.numpy()  # error: JIT401
    """),
    "param-rebound-from-unknown-value-is-not-folded": case("""
        class M(nn.Module):
            def forward(self, x: torch.Tensor):
                x = 3
                if not isinstance(x, torch.Tensor):
                    return torch.zeros(1).numpy()  # error: JIT401
                return x
    """),
    "final-bool-flag-true-keeps-its-branch": case("""
        from typing import Final

        class M(nn.Module):
            flag: Final[bool]

            def __init__(self):
                super().__init__()
                self.flag = True

            def forward(self, x):
                if not self.flag:
                    return x
                return x.numpy()  # error: JIT401
    """),
    "plain-bool-flag-does-not-prune": case("""
        class M(nn.Module):
            def __init__(self):
                super().__init__()
                self.flag = False

            def forward(self, x):
                if self.flag:
                    return x.numpy()  # error: JIT401
                return x
    """),
    "star-unpacking-of-concatenated-lists": case("""
        class M(nn.Module):
            def forward(self, x):
                size = [1]
                return x.view(*([1] + size + [-1]))  # error: JIT116
    """),
    "function-stored-in-attribute": case("""
        def act(x):
            return x.numpy()  # error: JIT401

        class M(nn.Module):
            def __init__(self):
                super().__init__()
                self.fn = act

            def forward(self, x):
                return self.fn(x)
    """),
    "script-decorated-function": case("""
        @torch.jit.script
        def f(x, k=3):  # error: JIT201
            return x * k
    """),
}


def marked(source: str) -> list[tuple[str, int]]:
    return [
        (code, n) for n, line in enumerate(source.splitlines(), 1) if "# error:" in line
        for code in re.findall(r"JIT\d{3}", line.split("# error:")[1])
    ]


@pytest.mark.parametrize("name", REACHED)
def test_flagged_where_torch_compiles(name, codes_of):
    source = REACHED[name]
    assert sorted(codes_of(source)) == sorted(marked(source))


@pytest.mark.torch
@pytest.mark.parametrize("name", REACHED)
def test_torch_rejects_the_same_line(name, tmp_path):
    source = REACHED[name]
    result = script_source(source, tmp_path)
    assert result.rejected, f"{name}: torch.jit.script must reject it, but it {result}"
    rows = [row for _, row in marked(source)]
    pointed = [n for n, line in enumerate(source.splitlines(), 1) if "# torch points here" in line]
    if pointed:
        assert result.line == pointed[0], (result.line, result.message)
        return
    # function-level errors (defaults, annotations) point at the `def` line, one or two lines above
    assert result.line is not None and min(rows) - 2 <= result.line <= max(rows), (result.line, rows, result.message)


NOT_COMPILED = {
    "init": """
        class M(nn.Module):
            def __init__(self):
                super().__init__()
                self.k = torch.zeros(1).numpy()

            def forward(self, x):
                return x
    """,
    "uncalled-free-function-and-class": """
        def helper(x):
            return x.numpy()

        class Plain:
            def method(self, x):
                return x.numpy()

        class M(nn.Module):
            def forward(self, x):
                return x
    """,
    "not-a-module": """
        class Dataset:
            def forward(self, x):
                return x.numpy()
    """,
    "unknown-base-from-outside-the-project": """
        from some_library import Model

        class M(Model):
            def forward(self, x):
                return x.numpy()
    """,
    "nested-def-body-is-not-compiled-twice": """
        class M(nn.Module):
            def __init__(self):
                super().__init__()
                def make():
                    return torch.zeros(1).numpy()
                self.k = make()

            def forward(self, x):
                return x
    """,
}


@pytest.mark.parametrize("name", NOT_COMPILED)
def test_silent_where_torch_does_not_compile(name, codes_of):
    assert codes_of(case(NOT_COMPILED[name])) == []


# -- across files ---------------------------------------------------------------------------------------------------
PACKAGE = {
    "pkg/__init__.py": "from .base import Backbone\n",
    "pkg/base.py": """
        import torch.nn as nn

        class Backbone(nn.Module):
            def __init__(self):
                super().__init__()
                self.stages = nn.ModuleList([nn.Linear(4, 4)])

            def forward(self, x):
                return x
    """,
    "pkg/util.py": """
        def to_numpy(x):
            return x.numpy()
    """,
    "pkg/head.py": """
        from pkg import Backbone
        from .util import to_numpy

        class Head(Backbone):
            def forward(self, x):
                i = 0
                y = to_numpy(x)
                return self.stages[i](x)
    """,
}


def test_base_class_and_free_function_in_other_files(tmp_path):
    from conftest import lint_files

    findings = lint_files(PACKAGE, tmp_path)
    assert [(f.filename.replace(str(tmp_path) + "/", ""), f.code, f.location.row) for f in findings] == [
        ("pkg/head.py", "JIT301", 9),
        ("pkg/util.py", "JIT401", 3),
    ]


def test_linting_one_file_loads_its_project_imports(tmp_path):
    """pre-commit passes only changed files: the base class is found on disk, and the helper file, which was
    not passed, is not reported."""
    from conftest import lint_files

    findings = lint_files(PACKAGE, tmp_path, lint_only=["pkg/head.py"])
    assert [(f.code, f.location.row) for f in findings] == [("JIT301", 9)]


CATALOG_PACKAGE = {
    "models/__init__.py": "",
    "models/config.py": """
        from dataclasses import dataclass

        EPS = 1e-5

        class PretrainedConfig:
            def __init__(self, **kwargs):
                self.extra = kwargs

        class EncoderConfig(PretrainedConfig):
            def __init__(self, hidden: int = 4, **kwargs):
                super().__init__(**kwargs)
                self.hidden = hidden

        @dataclass
        class HeadConfig:
            classes: int = 2
    """,
    "models/encoder.py": """
        from typing import TypedDict

        import torch
        import torch.nn as nn
        from typing_extensions import Unpack

        from .config import EPS, EncoderConfig, HeadConfig

        class Options(TypedDict):
            scale: float

        class Encoder(nn.Module):
            head: HeadConfig

            def __init__(self):
                super().__init__()
                self.config = EncoderConfig()
                self.head = HeadConfig()

            def forward(self, x, **kwargs: Unpack[Options]):
                return x * self.config.hidden / EPS
    """,
}


def test_catalog_rules_across_files(tmp_path):
    """A config class and a constant from another file: found there, explained here."""
    from conftest import lint_files

    findings = lint_files(CATALOG_PACKAGE, tmp_path, lint_only=["models/encoder.py"])
    got = [(f.code, f.location.row) for f in findings]
    assert got == [("JIT608", 14), ("JIT108", 21), ("JIT608", 22), ("JIT415", 22)]
    messages = {f.code: f.message for f in findings}
    assert "`EncoderConfig.__init__` takes `**kwargs`" in [f.message for f in findings if f.location.row == 22 and f.code == "JIT608"][0]
    assert "`HeadConfig` is a dataclass" in [f.message for f in findings if f.location.row == 14][0]
    assert "imported from `models.config`" in messages["JIT415"]
