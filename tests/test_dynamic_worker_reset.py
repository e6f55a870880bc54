"""The dynamic checker's worker scripts many classes in one interpreter, resetting torch's compilation state in
between: a class that calls an `@torch.jit._overload` function must script the second time as the first."""

import sys
import textwrap
from pathlib import Path

import pytest

pytestmark = pytest.mark.torch

WORKER_DIR = Path(__file__).resolve().parents[1] / "src" / "jitlint" / "dynamic"


def test_a_class_using_an_overloaded_function_scripts_again_after_a_reset(tmp_path, monkeypatch):
    torch = pytest.importorskip("torch")
    package = tmp_path / "overpkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "net.py").write_text(textwrap.dedent("""
        import torch
        from torch import nn

        @torch.jit._overload
        def double(x: int) -> int: ...

        @torch.jit._overload
        def double(x: float) -> float: ...

        def double(x):
            return x + x

        class Net(nn.Module):
            def forward(self, x: torch.Tensor) -> torch.Tensor:
                return x * double(2) * double(1.5)
    """))
    monkeypatch.syspath_prepend(str(WORKER_DIR))
    monkeypatch.syspath_prepend(str(tmp_path))
    import worker

    checker = worker.Checker(torch)
    request = {"file": str(package / "net.py"), "module": "overpkg.net", "root": str(tmp_path),
               "classes": ["Net"], "functions": [], "factories": {}, "user_roots": [str(tmp_path)]}
    for attempt in range(3):
        result = worker.check_file(checker, request)["classes"]["Net"]
        assert result["scripted"], (attempt, result["errors"])
    sys.modules.pop("overpkg.net", None)
    sys.modules.pop("overpkg", None)
