"""JIT630-639: whole-class rejections (torch refuses the class before naming any line of it).

Look-alikes are checked both ways: jitlint is silent and torch 2.13 really scripts them. Rejections are checked
both ways too: jitlint flags the `class` line and torch really raises while scripting that class.
"""

import textwrap

import pytest

from conftest import lint_files
from oracles.script import script_source

HEADER = "import torch\nimport torch.nn as nn\n\n\n"

RAISING_BASE = """
class Base(nn.Module):
    _scriptable_cls = None

    def __prepare_scriptable__(self):
        if self._scriptable_cls is None:
            raise RuntimeError(f"{type(self).__name__} cannot be scripted")
        return self._scriptable_cls()

    def forward(self, x):
        return x
"""

# Each look-alike: a module `M` torch scripts; jitlint must say nothing about it.
LOOKALIKES = {
    # the subclass names what to script instead (torchvision's v2 transforms with `_v1_transform_cls`)
    "subclass-sets-the-attribute": """
class Plain(nn.Module):
    def forward(self, x):
        return x + 1


class Mixin:
    _scriptable_cls = None

    def __prepare_scriptable__(self):
        if self._scriptable_cls is None:
            raise RuntimeError("cannot be scripted")
        return self._scriptable_cls()


class M(Mixin, nn.Module):
    _scriptable_cls = Plain

    def forward(self, x):
        return x
""",
    # `__init__` sets the attribute: the class body's None is not what the call sees
    "init-assigns-the-attribute": """
class Plain(nn.Module):
    def forward(self, x):
        return x + 1


class M(nn.Module):
    _scriptable_cls = None

    def __init__(self):
        super().__init__()
        self._scriptable_cls = Plain

    def __prepare_scriptable__(self):
        if self._scriptable_cls is None:
            raise RuntimeError("cannot be scripted")
        return self._scriptable_cls()

    def forward(self, x):
        return x
""",
    # a flag that is False: the raise is never reached
    "flag-false": """
class M(nn.Module):
    refuse = False

    def __prepare_scriptable__(self):
        if self.refuse:
            raise RuntimeError("cannot be scripted")
        return self

    def forward(self, x):
        return x
""",
    # returns before the raise
    "returns-first": """
class M(nn.Module):
    def __prepare_scriptable__(self):
        return self
        raise RuntimeError("unreachable")

    def forward(self, x):
        return x
""",
    # a condition jitlint cannot fold (here it is False when torch calls it)
    "unfoldable-condition": """
class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.training_only = False

    def __prepare_scriptable__(self):
        if self.training_only:
            raise RuntimeError("cannot be scripted")
        return self

    def forward(self, x):
        return x
""",
    # the attribute is set on the class after its definition
    "class-attribute-set-later": """
class Plain(nn.Module):
    def forward(self, x):
        return x + 1


class M(nn.Module):
    _scriptable_cls = None

    def __prepare_scriptable__(self):
        if self._scriptable_cls is None:
            raise RuntimeError("cannot be scripted")
        return self._scriptable_cls()

    def forward(self, x):
        return x


M._scriptable_cls = Plain
""",
    # a raise inside a loop or a try that may not run
    "raise-in-a-try": """
class M(nn.Module):
    def __prepare_scriptable__(self):
        try:
            return self
        except RuntimeError:
            raise

    def forward(self, x):
        return x
""",
    # JIT631: a dataclass that synthesizes nothing torch must read
    "dataclass-synthesizing-nothing": """
from dataclasses import dataclass


@dataclass(init=False, repr=False, eq=False)
class Config:
    hidden: int = 4


class M(nn.Module):
    config: Config

    def __init__(self):
        super().__init__()
        self.config = Config()

    def forward(self, x):
        return x
""",
    # a subclass with annotations of its own hides the base's (torch reads one class's annotations)
    "own-annotations-hide-the-base": """
from dataclasses import dataclass


@dataclass
class Config:
    hidden: int = 4


class Base(nn.Module):
    config: Config


class M(Base):
    scale: float

    def __init__(self):
        super().__init__()
        self.config = Config()
        self.scale = 2.0

    def forward(self, x):
        return x * self.scale
""",
    # annotated, but no instance attribute: nothing for torch to type
    "annotated-but-never-set": """
from dataclasses import dataclass


@dataclass
class Config:
    hidden: int = 4


class M(nn.Module):
    config: Config

    def forward(self, x):
        return x
""",
    # a plain class compiles as a TorchScript class
    "plain-class-annotation": """
class Config:
    def __init__(self):
        self.hidden = 4


class M(nn.Module):
    config: Config

    def __init__(self):
        super().__init__()
        self.config = Config()

    def forward(self, x):
        return x
""",
    # torch skips the attributes the module lists as ignored
    "ignored-attribute": """
from dataclasses import dataclass


@dataclass
class Config:
    hidden: int = 4


class M(nn.Module):
    __jit_ignored_attributes__ = ["config"]
    config: Config

    def __init__(self):
        super().__init__()
        self.config = Config()

    def forward(self, x):
        return x
""",
    # JIT632: torch unwraps what `functools.update_wrapper` or `__wrapped__` lead back to
    "update-wrapper": """
import functools


def logged(func):
    def wrapper(self, *args, **kwargs):
        return func(self, *args, **kwargs)

    functools.update_wrapper(wrapper, func)
    return wrapper


class M(nn.Module):
    @logged
    def forward(self, x):
        return x + 1
""",
    "wrapped-attribute": """
def logged(func):
    def wrapper(self, *args, **kwargs):
        return func(self, *args, **kwargs)

    wrapper.__wrapped__ = func
    return wrapper


class M(nn.Module):
    @logged
    def forward(self, x):
        return x + 1
""",
    # a decorator that returns the method itself
    "decorator-returns-the-method": """
def tagged(func):
    func.tagged = True
    return func


class M(nn.Module):
    @tagged
    def forward(self, x):
        return x + 1
""",
    # the wrapper decorates a method torch does not compile
    "wrapper-on-an-uncompiled-method": """
def logged(func):
    def wrapper(self, *args, **kwargs):
        return func(self, *args, **kwargs)

    return wrapper


class M(nn.Module):
    @logged
    def describe(self):
        return "m"

    def forward(self, x):
        return x + 1
""",
}

SUBCLASS_HOOK = """
from dataclasses import dataclass


class BaseConfig:
    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        cls = dataclass(cls, repr=False, kw_only=True)


class MyConfig(BaseConfig):
    hidden: int = 4


class PreTrained(nn.Module):
    config: MyConfig

    def __init__(self, config):
        super().__init__()
        self.config = config


class Model(PreTrained):
    def __init__(self):
        super().__init__(MyConfig())
        self.scale = 2.0

    def forward(self, x):
        return x * self.scale
"""


def test_dataclass_by_a_base_hook_is_flagged_at_the_module(tmp_path):
    source = HEADER + SUBCLASS_HOOK
    findings = lint_files({"model.py": source}, tmp_path)
    row = source.splitlines().index("class Model(PreTrained):") + 1
    assert [(f.code, f.location.row) for f in findings if f.code.startswith("JIT63")] == [("JIT631", row)]


@pytest.mark.torch
def test_torch_rejects_the_dataclass_made_by_a_base_hook(tmp_path):
    source = HEADER + SUBCLASS_HOOK.replace("class PreTrained(nn.Module):", "class PreTrained:  # not scripted alone")
    source = source.replace("class Model(PreTrained):", "class Model(PreTrained, nn.Module):")
    source = source.replace("        super().__init__(config)\n", "        nn.Module.__init__(self)\n")
    result = script_source(source, tmp_path)
    assert result.rejected and "Failed to get source for <function MyConfig.__init__" in result.message, result
    assert result.line is None


@pytest.mark.parametrize("name", LOOKALIKES)
def test_lookalike_is_silent(name, tmp_path):
    findings = lint_files({"model.py": HEADER + LOOKALIKES[name]}, tmp_path)
    assert [(f.code, f.location.row) for f in findings if f.code.startswith("JIT63")] == []


@pytest.mark.torch
@pytest.mark.parametrize("name", LOOKALIKES)
def test_torch_scripts_the_lookalike(name, tmp_path):
    result = script_source(HEADER + LOOKALIKES[name], tmp_path)
    assert result.ok, f"{name}: {result}"


def test_inherited_across_files_is_flagged_at_each_class_line(tmp_path):
    files = {
        "pkg/__init__.py": "",
        "pkg/base.py": HEADER + RAISING_BASE,
        "pkg/models.py": HEADER + textwrap.dedent("""
            from pkg.base import Base


            class Refused(Base):
                def forward(self, x):
                    return x * 2


            class Plain(nn.Module):
                def forward(self, x):
                    return x


            class Allowed(Base):
                _scriptable_cls = Plain
        """),
    }
    findings = lint_files(files, tmp_path)
    found = sorted((f.filename.split("/")[-1], f.location.row) for f in findings if f.code == "JIT630")
    line_of = lambda name, text: textwrap.dedent(files[name]).splitlines().index(text) + 1
    # `Base` itself and `Refused`; not `Allowed`, which names a scriptable class
    assert found == [("base.py", line_of("pkg/base.py", "class Base(nn.Module):")),
                     ("models.py", line_of("pkg/models.py", "class Refused(Base):"))]


def test_unknown_base_stays_silent(tmp_path):
    source = HEADER + "from somewhere_else import Mixin\n\n\n" + textwrap.dedent("""
        class M(Mixin, nn.Module):
            _scriptable_cls = None

            def __prepare_scriptable__(self):
                if self._scriptable_cls is None:
                    raise RuntimeError("cannot be scripted")
                return self._scriptable_cls()
    """)
    findings = lint_files({"model.py": source}, tmp_path)
    assert [f.code for f in findings if f.code == "JIT630"] == []


@pytest.mark.torch
def test_torch_rejects_the_inherited_refusal(tmp_path):
    result = script_source(HEADER + RAISING_BASE + textwrap.dedent("""

        class Refused(Base):
            def forward(self, x):
                return x * 2
    """), tmp_path)
    assert result.rejected and "cannot be scripted" in result.message and result.line is None, result


def test_wrapper_in_another_file_is_flagged_at_its_def(tmp_path):
    files = {
        "pkg/__init__.py": "",
        "pkg/deco.py": textwrap.dedent("""
            def logged(func):
                def wrapper(self, x, *, scale: float = 1.0):
                    return func(self, x) * scale

                return wrapper
        """),
        "pkg/model.py": HEADER + textwrap.dedent("""
            from pkg.deco import logged


            class Model(nn.Module):
                @torch.jit.export
                @logged
                def other(self, x):
                    return x

                def forward(self, x):
                    return x
        """),
    }
    findings = lint_files(files, tmp_path)
    assert [(f.filename.split("/")[-1], f.code, f.location.row) for f in findings if f.code.startswith("JIT63")] == [
        ("deco.py", "JIT632", 3)
    ]
