"""What torch meets outside the scripted class's own lines.

- a base class imported through a package `__init__` that re-exports it in a `try: ... else:` block (the lazy
  `__init__` of large libraries), so JIT631 can order the MRO;
- a helper of a file the run does not lint, with an `import` in its body, called from compiled code: torch
  compiles it and rejects the import at a line outside the linted files, so JIT120 reports the call (when the
  helper's file is linted too, JIT120 reports the import itself, once); `--dynamic` confirms it by torch's text;

Every flagged case is rejected by torch 2.13 with the rule's text, every look-alike scripts and stays silent.
"""

import importlib
import itertools
import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from conftest import lint_files
from oracles.script import script_file

_unique = itertools.count()


def _package(name: str, files: dict[str, str]) -> dict[str, str]:
    return {f"{name}/{path}": textwrap.dedent(text).replace("PKG", name) for path, text in files.items()}


# -- a base re-exported in `try: ... else:` ---------------------------------------------------------------------

REEXPORT = {
    "__init__.py": """
        try:
            import torch  # noqa: F401
        except ImportError:
            pass
        else:
            from PKG.mixins import GenerateMixin
    """,
    "mixins.py": """
        class GenerateMixin:
            def generate(self):
                return 0
    """,
    "model.py": """
        import torch
        import torch.nn as nn
        from dataclasses import dataclass

        from PKG import GenerateMixin


        @dataclass
        class Config:
            hidden: int = 4


        class PreTrained(nn.Module):
            config: Config

            def __init__(self, config):
                super().__init__()
                self.config = config


        class Model(GenerateMixin, PreTrained):
            def __init__(self):
                super().__init__(Config())

            def forward(self, x):
                return x * 2
    """,
}


def test_base_reexported_in_try_else_is_followed(tmp_path):
    name = f"tfmiss_reexport_{next(_unique)}"
    files = _package(name, REEXPORT)
    findings = lint_files(files, tmp_path)
    row = files[f"{name}/model.py"].splitlines().index("class Model(GenerateMixin, PreTrained):") + 1
    assert [(f.code, f.location.row) for f in findings if f.code == "JIT631"] == [("JIT631", row)]


def _write(files: dict[str, str], root) -> None:
    for path, text in files.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text)


def _script_class(root, module_name: str, class_name: str) -> str | None:
    """Import `module_name` from `root`, script `class_name()`: torch's whole error text, or None when it scripts."""
    import torch

    sys.path.insert(0, str(root))
    try:
        module = importlib.import_module(module_name)
        try:
            torch.jit.script(getattr(module, class_name)())
        except Exception as error:  # RuntimeError, NotSupportedError, OSError from inspect
            return str(error) or type(error).__name__
        return None
    finally:
        sys.path.remove(str(root))
        package = module_name.split(".")[0]
        for name in [m for m in sys.modules if m == package or m.startswith(package + ".")]:
            sys.modules.pop(name)


@pytest.mark.torch
def test_torch_rejects_the_class_with_the_reexported_base(tmp_path):
    name = f"tfmiss_reexport_{next(_unique)}"
    _write(_package(name, REEXPORT), tmp_path)
    error = _script_class(tmp_path, f"{name}.model", "Model")
    assert error is not None and "Failed to get source for <function Config.__init__" in error, error


# -- an `import` in a helper of a file not linted ----------------------------------------------------------------

HELPERS = """
    import math


    def to_int(x):
        import torch

        return int(x)


    def lookup(x):
        return x + 1


    def cast(x):
        from math import floor

        return floor(x)


    def compiling() -> bool:
        try:
            import torch

            return torch.compiler.is_compiling()
        except Exception:
            return False
"""

CALLERS = {
    "flagged": """
        import torch
        import torch.nn as nn

        from PKG.helpers import to_int


        class Model(nn.Module):
            def forward(self, x):
                n = to_int(x.size(0))  # error
                return x * n
    """,
    "flagged_in_a_method": """
        import torch
        import torch.nn as nn

        from PKG import helpers


        class Model(nn.Module):
            def scale(self, x):
                return helpers.cast(x.size(0))  # error

            def forward(self, x):
                return x * self.scale(x)
    """,
    # look-alikes torch scripts
    "pruned": """
        import torch
        import torch.nn as nn

        from PKG.helpers import to_int


        class Model(nn.Module):
            def forward(self, x):
                if not torch.jit.is_scripting():
                    return x * to_int(x.size(0))
                return x
    """,
    "ignored_caller": """
        import torch
        import torch.nn as nn

        from PKG.helpers import to_int


        class Model(nn.Module):
            @torch.jit.ignore
            def count(self, x) -> int:
                return to_int(x.size(0))

            def forward(self, x):
                return x * self.count(x)
    """,
    "no_import": """
        import torch
        import torch.nn as nn

        from PKG.helpers import lookup


        class Model(nn.Module):
            def forward(self, x):
                return lookup(x)
    """,
    "import_in_try": """
        import torch
        import torch.nn as nn

        from PKG.helpers import compiling


        class Model(nn.Module):
            def forward(self, x):
                if compiling():
                    return x
                return x * 2
    """,
    "not_compiled": """
        import torch
        import torch.nn as nn

        from PKG.helpers import to_int


        class Model(nn.Module):
            def __init__(self):
                super().__init__()
                self.n = to_int(3.0)

            def forward(self, x):
                return x * self.n
    """,
}


def _helper_package(case: str) -> tuple[str, dict[str, str]]:
    name = f"tfmiss_helpers_{next(_unique)}"
    return name, _package(name, {"__init__.py": "", "helpers.py": HELPERS, "model.py": CALLERS[case]})


def _marked(source: str) -> list[int]:
    return [number for number, line in enumerate(source.splitlines(), 1) if line.rstrip().endswith("# error")]


@pytest.mark.parametrize("case", list(CALLERS))
def test_call_of_a_helper_that_imports_is_flagged_when_its_file_is_not_linted(case, tmp_path):
    name, files = _helper_package(case)
    findings = lint_files(files, tmp_path, lint_only=[f"{name}/model.py"])
    expected = [("JIT120", row) for row in _marked(files[f"{name}/model.py"])]
    assert [(f.code, f.location.row) for f in findings if f.code == "JIT120"] == expected
    for finding in findings:
        if finding.code == "JIT120":
            assert ".helpers`, line " in finding.message and "import statements aren't supported" in finding.message


def test_the_import_itself_is_reported_when_the_helper_is_linted(tmp_path):
    name, files = _helper_package("flagged")
    findings = lint_files(files, tmp_path)
    helpers = files[f"{name}/helpers.py"].splitlines()
    assert [(Path(f.filename).name, f.location.row) for f in findings if f.code == "JIT120"] == [
        ("helpers.py", helpers.index("    import torch") + 1)]


@pytest.mark.torch
@pytest.mark.parametrize("case", list(CALLERS))
def test_torch_agrees_with_the_helper_cases(case, tmp_path):
    name, files = _helper_package(case)
    _write(files, tmp_path)
    error = _script_class(tmp_path, f"{name}.model", "Model")
    if _marked(files[f"{name}/model.py"]):
        assert error is not None and error.startswith("import statements aren't supported"), error
        assert f"{name}/helpers.py" in error, error  # torch's line is in the helper's file
    elif case == "import_in_try":
        # rejected, but for the `try` (JIT120 would say the wrong thing; other rules name a `try`)
        assert error is not None and "try blocks aren't supported" in error, error
    else:
        assert error is None, error


@pytest.mark.torch
def test_dynamic_confirms_the_call_and_leaves_no_miss(tmp_path):
    name, files = _helper_package("flagged")
    _write(files, tmp_path)
    (tmp_path / "pyproject.toml").write_text("[tool.jitlint.dynamic]\ntimeout = 60\n")
    result = subprocess.run([sys.executable, "-m", "jitlint", "check", "--dynamic", "--no-cache", "--output-format",
                             "json", "--exit-zero", f"{name}/model.py"], cwd=tmp_path, capture_output=True,
                            text=True, timeout=600)
    findings = json.loads(result.stdout)
    row = _marked(files[f"{name}/model.py"])[0]
    assert [(f["location"]["row"], f["confirmation"]["status"]) for f in findings if f["code"] == "JIT120"] == [
        (row, "confirmed")], findings
    assert not [f for f in findings if f["code"] == "JIT000"], findings  # (JIT202 also reports the int to `x`)


# -- JIT235: a grad-mode decorator hands torch a wrapper whose globals are torch's ---------------------------------

GRAD = {
    "no_grad_method": """
        class M(nn.Module):
            @torch.no_grad()
            def forward(self, x):
                y = x * 2
                return torch.relu(y)  # error
    """,
    "bare_no_grad_math": """
        class M(nn.Module):
            @torch.no_grad
            def forward(self, x):
                return x * math.pi  # error
    """,
    "inference_mode": """
        class M(nn.Module):
            @torch.inference_mode()
            def forward(self, x):
                return torch.relu(x)  # error
    """,
    "set_grad_enabled": """
        class M(nn.Module):
            @torch.set_grad_enabled(False)
            def forward(self, x):
                return helper(x)  # error
    """,
    "imported_name": """
        from torch import no_grad


        class M(nn.Module):
            @no_grad()
            def forward(self, x):
                if x.dim() > 2:
                    return x
                return torch.flatten(x)  # error
    """,
    "free_function": """
        @torch.enable_grad()
        def scaled(x):
            return x * SCALE  # error


        class M(nn.Module):
            def forward(self, x):
                return scaled(x)
    """,
    "over_a_wraps_wrapper": """
        def passthrough(function):
            @functools.wraps(function)
            def wrapper(self, x):
                return function(self, x)

            return wrapper


        class M(nn.Module):
            @torch.no_grad()
            @passthrough
            def forward(self, x):
                return torch.relu(x)  # error
    """,
    # look-alikes torch scripts
    "builtins_and_locals": """
        class M(nn.Module):
            def __init__(self):
                super().__init__()
                self.scale = 2.0

            @torch.no_grad()
            def forward(self, x):
                n = len([1, 2])
                y: List[int] = [n]
                return x.relu() * float(n) * self.scale + int(y[0])
    """,
    "shadowed": """
        class M(nn.Module):
            @torch.no_grad()
            def forward(self, x):
                torch = x
                return torch * 2
    """,
    "annotations_only": """
        class M(nn.Module):
            @torch.no_grad()
            def forward(self, x: torch.Tensor) -> torch.Tensor:
                y: torch.Tensor = x
                return y.relu()
    """,
    "autocast": """
        class M(nn.Module):
            @torch.autocast("cpu")
            def forward(self, x):
                return torch.relu(x)
    """,
    "wraps_wrapper_outermost": """
        def passthrough(function):
            @functools.wraps(function)
            def wrapper(self, x):
                return function(self, x)

            return wrapper


        class M(nn.Module):
            @passthrough
            @torch.no_grad()
            def forward(self, x):
                return torch.relu(x)
    """,
    "with_block": """
        class M(nn.Module):
            def forward(self, x):
                with torch.no_grad():
                    y = torch.relu(x)
                return y
    """,
    "ignored": """
        class M(nn.Module):
            @torch.no_grad()
            @torch.jit.ignore
            def count(self, x) -> int:
                return int(torch.numel(x))

            def forward(self, x):
                return x * self.count(x)
    """,
}

GRAD_HEADER = """import functools
import math
from typing import List

import torch
import torch.nn as nn

SCALE = 2.0


def helper(x):
    return x


"""


def _grad_source(case: str) -> str:
    return GRAD_HEADER + textwrap.dedent(GRAD[case]).lstrip("\n")


@pytest.mark.parametrize("case", list(GRAD))
def test_grad_decorator_globals_are_flagged_at_the_first_read(case, tmp_path):
    source = _grad_source(case)
    findings = lint_files({"model.py": source}, tmp_path)
    assert [(f.code, f.location.row) for f in findings if f.code in ("JIT235", "JIT425")] == [
        ("JIT235", row) for row in _marked(source)]


@pytest.mark.torch
@pytest.mark.parametrize("case", list(GRAD))
def test_torch_agrees_with_the_grad_decorator_cases(case, tmp_path):
    import re

    from oracles.script import script_source

    source = _grad_source(case)
    result = script_source(source, tmp_path)
    marked = _marked(source)
    if not marked:
        assert result.ok, f"{case}: {result}\n{result.message_full}"
        return
    name = re.search(r"undefined value (\w+)", result.message_full)
    assert result.rejected and name is not None, f"{case}: {result}\n{result.message_full}"
    # torch names its own `_contextlib.py`, at the line number of the read in this file
    frame = re.search(r'File "([^"]+)", line (\d+)', result.message_full)
    assert frame.group(1).endswith("torch/utils/_contextlib.py") and int(frame.group(2)) == marked[0], result.message_full
    assert name.group(1) in source.splitlines()[marked[0] - 1]


# -- JIT202: an Optional or a tuple passed to a submodule's unannotated (so Tensor) `forward` parameter -------------

SUBMODULE_HEADER = """from typing import Optional, Tuple

import torch
import torch.nn as nn


class Conv1D(nn.Module):
    def __init__(self):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(2, 2))

    def forward(self, x):
        return x @ self.weight


class Typed(nn.Module):
    def forward(self, x: Optional[torch.Tensor]):
        return x


"""

SUBMODULE = {
    "optional_tuple_rebound": """
        class M(nn.Module):
            def __init__(self):
                super().__init__()
                self.c_fc = Conv1D()

            def forward(self, hidden_states: tuple[torch.Tensor] | None) -> torch.Tensor:
                hidden_states = self.c_fc(hidden_states)  # error
                return hidden_states
    """,
    "optional": """
        class M(nn.Module):
            def __init__(self):
                super().__init__()
                self.proj = Conv1D()

            def forward(self, x: torch.Tensor, h: Optional[torch.Tensor] = None) -> torch.Tensor:
                return x + self.proj(h)  # error
    """,
    "tuple": """
        class M(nn.Module):
            def __init__(self):
                super().__init__()
                self.proj = Conv1D()

            def forward(self, h: Tuple[torch.Tensor, torch.Tensor]) -> torch.Tensor:
                return self.proj(h)  # error
    """,
    # look-alikes torch scripts
    "refined": """
        class M(nn.Module):
            def __init__(self):
                super().__init__()
                self.proj = Conv1D()

            def forward(self, x: torch.Tensor, h: Optional[torch.Tensor] = None) -> torch.Tensor:
                if h is not None:
                    x = x + self.proj(h)
                return x
    """,
    "early_exit": """
        class M(nn.Module):
            def __init__(self):
                super().__init__()
                self.proj = Conv1D()

            def forward(self, x: torch.Tensor, h: Optional[torch.Tensor] = None) -> torch.Tensor:
                if h is None:
                    return x
                return self.proj(h)
    """,
    "rebound_first": """
        class M(nn.Module):
            def __init__(self):
                super().__init__()
                self.proj = Conv1D()

            def forward(self, x: torch.Tensor, h: Optional[torch.Tensor] = None) -> torch.Tensor:
                h = x if h is None else h
                return self.proj(h)
    """,
    "annotated_callee": """
        class M(nn.Module):
            def __init__(self):
                super().__init__()
                self.typed = Typed()

            def forward(self, x: torch.Tensor, h: Optional[torch.Tensor] = None):
                return self.typed(h)
    """,
    "unannotated_none_default": """
        class M(nn.Module):
            def __init__(self):
                super().__init__()
                self.proj = Conv1D()
                self.tok = nn.Embedding(3, 2)

            def forward(self, input_ids=None, inputs_embeds=None):
                if inputs_embeds is None:
                    inputs_embeds = self.tok(input_ids)
                if input_ids is not None:
                    return self.proj(input_ids.float())
                return self.proj(inputs_embeds)
    """,
}


def _submodule_source(case: str) -> str:
    return SUBMODULE_HEADER + textwrap.dedent(SUBMODULE[case]).lstrip("\n")


@pytest.mark.parametrize("case", list(SUBMODULE))
def test_non_tensor_to_a_submodule_forward_is_flagged(case, tmp_path):
    source = _submodule_source(case)
    findings = lint_files({"model.py": source}, tmp_path)
    assert [(f.code, f.location.row) for f in findings if f.code in ("JIT202", "JIT704")] == [
        ("JIT202", row) for row in _marked(source)]


@pytest.mark.torch
@pytest.mark.parametrize("case", list(SUBMODULE))
def test_torch_agrees_with_the_submodule_cases(case, tmp_path):
    from oracles import points_at
    from oracles.script import script_source

    source = _submodule_source(case)
    result = script_source(source, tmp_path)
    marked = _marked(source)
    if not marked:
        assert result.ok, f"{case}: {result}\n{result.message_full}"
        return
    assert result.rejected and "Expected a value of type 'Tensor (inferred)' for argument 'x'" in result.message_full, \
        f"{case}: {result}\n{result.message_full}"
    assert points_at(result, source, marked[0]), f"{case}: {result}"


def test_call_under_an_attribute_none_test_is_left_alone(tmp_path):
    # `self.ext` is None unless an optional package imports: torch folds the test and compiles no call there
    name = f"tfmiss_helpers_{next(_unique)}"
    model = textwrap.dedent("""
        import torch
        import torch.nn as nn

        from PKG.helpers import to_int


        class Model(nn.Module):
            def __init__(self):
                super().__init__()
                self.ext = None
                try:
                    import not_installed_anywhere  # noqa: F401

                    self.ext = torch.classes.ext.Op()
                except Exception:
                    pass

            def forward(self, x):
                if self.ext is not None and x.is_cuda:
                    return x * to_int(x.size(0))
                return x
    """).replace("PKG", name)
    files = _package(name, {"__init__.py": "", "helpers.py": HELPERS})
    files[f"{name}/model.py"] = model
    findings = lint_files(files, tmp_path, lint_only=[f"{name}/model.py"])
    assert [f.location.row for f in findings if f.code == "JIT120"] == []
    _write(files, tmp_path)
    assert _script_class(tmp_path, f"{name}.model", "Model") is None  # torch scripts it


def test_optional_keyword_arguments_of_a_multiline_call_are_flagged_at_the_call(tmp_path):
    from oracles.script import script_source

    source = SUBMODULE_HEADER + textwrap.dedent("""
        class M(nn.Module):
            def _embeds(self, x, coord, valid) -> torch.Tensor:
                return x

            def forward(self, patches: torch.Tensor, coord: Optional[torch.Tensor] = None,
                        valid: Optional[torch.Tensor] = None) -> torch.Tensor:
                naflex_mode = coord is not None  # a test kept in a variable refines nothing
                return self._embeds(  # error
                    patches,
                    coord=coord,
                    valid=valid,
                )
    """).lstrip("\n")
    findings = lint_files({"model.py": source}, tmp_path)
    row = _marked(source)[0]
    assert [(f.code, f.location.row) for f in findings if f.code == "JIT202"] == [("JIT202", row), ("JIT202", row)]
    result = script_source(source, tmp_path)
    assert result.rejected and result.line == row and "for argument 'coord'" in result.message_full, result
