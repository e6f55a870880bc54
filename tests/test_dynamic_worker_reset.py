"""The confirmer's child scripts many classes in one interpreter, resetting torch's compilation state in
between: a class that calls an `@torch.jit._overload` function must script the second time as the first."""

import sys
import textwrap

import pytest

pytestmark = pytest.mark.torch

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
    monkeypatch.syspath_prepend(str(tmp_path))
    from jitlint.confirm import child
    from jitlint.targets.script.confirm import ScriptStrategy

    strategy = child.load_strategy(str(ScriptStrategy.child))
    strategy.setup(torch)
    request = {"file": str(package / "net.py"), "module": "overpkg.net", "root": str(tmp_path),
               "roots": [{"name": "Net", "kind": "class", "inputs": None, "options": {}}], "factories": {},
               "user_roots": [str(tmp_path)], "options": {}}
    for attempt in range(3):
        result = child.check_file(torch, strategy, request)["roots"]["Net"]
        assert result["passed"], (attempt, result["observations"])
    sys.modules.pop("overpkg.net", None)
    sys.modules.pop("overpkg", None)
