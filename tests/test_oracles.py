"""The oracle is honest: only an exception raised by torch.jit.script counts as torch rejecting a file."""

import textwrap

import pytest

from oracles.script import script_source

HEADER = "import torch\nimport torch.nn as nn\n\n\n"


def run(body: str, tmp_path):
    return script_source(HEADER + textwrap.dedent(body), tmp_path)


@pytest.mark.torch
def test_an_import_error_is_not_a_rejection(tmp_path):
    result = run("""
        import no_such_module_for_the_oracle


        class M(nn.Module):
            def forward(self, x):
                return x
    """, tmp_path)
    assert (result.ok, result.stage, result.error_type) == (False, "import", "ModuleNotFoundError"), str(result)
    assert not result.rejected
    assert "no_such_module_for_the_oracle" in result.message


@pytest.mark.torch
def test_a_constructor_that_needs_arguments_is_not_a_rejection(tmp_path):
    result = run("""
        class M(nn.Module):
            def __init__(self, width):
                super().__init__()
                self.width = width

            def forward(self, x):
                return x * self.width
    """, tmp_path)
    assert (result.ok, result.stage, result.error_type) == (False, "build", "TypeError"), str(result)
    assert not result.rejected
    assert "width" in result.message


@pytest.mark.torch
def test_a_constructor_raising_torch_like_text_is_still_build(tmp_path):
    result = run("""
        class M(nn.Module):
            def __init__(self):
                super().__init__()
                raise RuntimeError("Arguments for call are not valid.")

            def forward(self, x):
                return x
    """, tmp_path)
    assert (result.stage, result.error_type) == ("build", "RuntimeError"), str(result)
    assert not result.rejected


@pytest.mark.torch
def test_nothing_to_script_is_build(tmp_path):
    result = run("""
        def f(x):
            return x
    """, tmp_path)
    assert (result.ok, result.stage) == (False, "build"), str(result)
    assert "nothing to script" in result.message


@pytest.mark.torch
def test_torch_rejecting_the_module_is_script_with_its_line_and_message(tmp_path):
    result = run("""
        class M(nn.Module):
            def forward(self, x):
                f = lambda y: y + 1
                return f(x)
    """, tmp_path)
    assert (result.ok, result.stage, result.error_type, result.line) == (
        False, "script", "UnsupportedNodeError", 8), str(result)
    assert result.rejected
    assert result.message == "Lambda aren't supported:"
    assert result.says("Lambda  aren't\nsupported:")  # up to whitespace
    assert not result.says("try blocks aren't supported:")
    assert str(result) == "failed at script: UnsupportedNodeError: Lambda aren't supported: (line 8)"


@pytest.mark.torch
def test_a_module_level_torch_jit_script_that_fails_while_importing_is_script(tmp_path):
    result = run("""
        @torch.jit.script
        def f(x):
            return [y for y in x if y > 0]
    """, tmp_path)
    assert (result.stage, result.error_type, result.line) == ("script", "NotSupportedError", 8), str(result)


@pytest.mark.torch
def test_a_file_that_scripts_is_ok(tmp_path):
    result = run("""
        class M(nn.Module):
            def forward(self, x):
                return x + 1
    """, tmp_path)
    assert (result.ok, result.stage, result.message) == (True, None, ""), str(result)
    assert str(result) == "scripted"


@pytest.mark.torch
def test_says_reads_the_oracles_module_name_as_torch_names_a_class_of_a_script(tmp_path):
    result = run("""
        class Add(nn.Module):
            def forward(self, x, y):
                return x + y


        class M(nn.Module):
            def __init__(self):
                super().__init__()
                self.seq = nn.Sequential(Add())

            def forward(self, x):
                return self.seq(x, x)
    """, tmp_path)
    assert result.rejected, str(result)
    assert f"__torch__.{result.module}.Add" in result.message_full
    assert result.says("forward(__torch__.Add self, Tensor x, Tensor y) -> Tensor:")
    assert not result.says("forward(__torch__.Other self, Tensor x, Tensor y) -> Tensor:")


@pytest.mark.torch
def test_says_reads_any_memory_address_as_0x_dots(tmp_path):
    result = run("""
        import random


        class M(nn.Module):
            def forward(self, x):
                return x * random.random()
    """, tmp_path)
    assert result.rejected, str(result)
    assert "0x..." not in result.message_full
    assert result.says("<built-in method random of Random object at 0x...> is currently not supported")
