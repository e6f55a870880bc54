"""Issue 19 (tfmiss): what torch meets outside the scripted class's own lines.

- a base class imported through a package `__init__` that re-exports it in a `try: ... else:` block (the lazy
  `__init__` of large libraries), so JIT631 can order the MRO;

Every flagged case is rejected by torch 2.13 with the rule's text, every look-alike scripts and stays silent.
"""

import importlib
import itertools
import sys
import textwrap

import pytest

from conftest import lint_files
from torch_oracle import script_file

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
