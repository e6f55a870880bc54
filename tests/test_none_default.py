"""JIT204: an unannotated `x=None` parameter fails only when a compiled call omits it (torch gives no line)."""

import textwrap

import pytest

from oracles.script import script_source

H = "from typing import Optional\n\nimport torch\nimport torch.nn as nn\n\n"
BLOCK = """
class Block(nn.Module):
    def forward(self, x, mask=None):
        if mask is not None:
            x = x * mask
        return x
"""


def parent(call: str) -> str:
    return H + BLOCK + textwrap.dedent(f"""
        class Model(nn.Module):
            def __init__(self):
                super().__init__()
                self.block = Block()

            def forward(self, x):
                return {call}
    """)


FLAGGED = {
    "submodule-called-without-it": (parent("self.block(x)"), 8),
    "helper-method-called-without-it": (H + textwrap.dedent("""
        class Model(nn.Module):
            def attend(self, x, mask=None):
                return x if mask is None else x * mask

            def forward(self, x):
                return self.attend(x)
    """), 8),
    "free-function-called-without-it": (H + textwrap.dedent("""
        def pool(x, weights=None):
            return x if weights is None else x * weights

        class Model(nn.Module):
            def forward(self, x):
                return pool(x)
    """), 7),
    "staticmethod-via-self": (H + textwrap.dedent("""
        class Model(nn.Module):
            @staticmethod
            def pool(x, weights=None):
                return x if weights is None else x * weights

            def forward(self, x):
                return self.pool(x)
    """), 9),
}
SILENT = {
    "top-level-forward": H + BLOCK,
    "submodule-called-with-positional": parent("self.block(x, x)"),
    "submodule-called-with-keyword": parent("self.block(x, mask=x)"),
    "annotated-optional": (H + BLOCK).replace("mask=None", "mask: Optional[torch.Tensor] = None") + textwrap.dedent("""
        class Model(nn.Module):
            def __init__(self):
                super().__init__()
                self.block = Block()

            def forward(self, x):
                return self.block(x)
    """),
    "submodule-never-called": parent("x"),
}


@pytest.mark.parametrize("name", FLAGGED)
def test_flagged(name, codes_of):
    source, row = FLAGGED[name]
    assert codes_of(source) == [("JIT204", row)]


@pytest.mark.parametrize("name", SILENT)
def test_silent(name, codes_of):
    assert codes_of(SILENT[name]) == []


@pytest.mark.torch
@pytest.mark.parametrize("name", FLAGGED)
def test_torch_rejects_without_a_location(name, tmp_path):
    result = script_source(FLAGGED[name][0], tmp_path)
    assert (result.stage, result.message, result.line) == ("script", "Unsupported value kind: Tensor", None), str(result)


@pytest.mark.torch
@pytest.mark.parametrize("name", SILENT)
def test_torch_scripts_the_silent_ones(name, tmp_path):
    assert script_source(SILENT[name], tmp_path).ok


def test_the_caller_named_is_one_in_the_same_file_when_there_is_one(tmp_path):
    """Callers are listed by file then name, the same for any split across workers; the message names a caller
    in the parameter's own file before one in a file that sorts first."""
    from jitlint import engine
    from jitlint.config import Config
    from jitlint.rules import RULES_BY_CODE

    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "b.py").write_text(H + textwrap.dedent("""
        def pool(x, weights=None):
            return x if weights is None else x * weights

        class Local(nn.Module):
            def forward(self, x):
                return pool(x)
    """))
    (tmp_path / "pkg" / "a.py").write_text(H + "from pkg.b import pool\n" + textwrap.dedent("""
        class Remote(nn.Module):
            def forward(self, x):
                return pool(x)
    """))
    run = engine.lint_run([tmp_path / "pkg"], Config(root=tmp_path), {"JIT204"}, jobs=1)
    assert [(f.code, f.location.row) for f in run.findings] == [("JIT204", 7)]
    assert "`Local.forward` calls this" in run.findings[0].message
    (tmp_path / "pkg" / "b.py").write_text((tmp_path / "pkg" / "b.py").read_text().replace("pool(x)\n", "x\n"))
    run = engine.lint_run([tmp_path / "pkg"], Config(root=tmp_path), {"JIT204"}, jobs=1)
    assert "`Remote.forward` calls this" in run.findings[0].message
