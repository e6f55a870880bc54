"""JIT633: a property torch reads (getattr over every name of the class) that raises while it scripts the module.

Each look-alike is checked both ways: jitlint is silent and torch 2.13 really scripts it. Each rejection too:
jitlint flags the `class` line and torch really raises, naming no line.
"""

import textwrap

import pytest

from conftest import lint_files
from oracles.script import script_file, script_source

HEADER = "import functools\n\nimport torch\nimport torch.nn as nn\n\n\n"

DEVICE = """
    @property
    def device(self) -> torch.device:
        return next(self.parameters()).device
"""

# Each look-alike: a module `M` torch scripts; jitlint must say nothing about it.
LOOKALIKES = {
    # a parameter: `next` finds one (the property is kept out of compilation)
    "holds-a-parameter": """
class M(nn.Module):
    __jit_unused_properties__ = ["device"]

    def __init__(self):
        super().__init__()
        self.weight = nn.Parameter(torch.zeros(2))
""" + DEVICE + """
    def forward(self, x):
        return x * self.weight
""",
    # a submodule built from an unannotated argument: jitlint cannot prove the module empty
    "submodule-from-an-argument": """
class M(nn.Module):
    __jit_unused_properties__ = ["device"]

    def __init__(self, layer=None):
        super().__init__()
        if layer is None:
            layer = nn.Linear(2, 2)
        self.layer = layer
""" + DEVICE + """
    def forward(self, x):
        return self.layer(x)
""",
    # a helper registers a parameter on the module it is given
    "helper-registers": """
def add_scale(module):
    module.register_parameter("scale", nn.Parameter(torch.ones(1)))


class M(nn.Module):
    __jit_unused_properties__ = ["device"]

    def __init__(self):
        super().__init__()
        add_scale(self)
""" + DEVICE + """
    def forward(self, x):
        return x * self.scale
""",
    # AttributeError is what getattr's default swallows
    "raises-attribute-error": """
class M(nn.Module):
    __jit_unused_properties__ = ["p"]

    @property
    def p(self):
        raise AttributeError("not here")

    def forward(self, x):
        return x
""",
    # `next` with a default cannot raise
    "next-with-a-default": """
class M(nn.Module):
    __jit_unused_properties__ = ["device"]

    @property
    def device(self) -> torch.device:
        return next(self.parameters(), torch.device("cpu"))

    def forward(self, x):
        return x
""",
    # the class's own property, listed in `__jit_ignored_attributes__`: torch does not read it
    "own-property-ignored": """
class M(nn.Module):
    __jit_ignored_attributes__ = ["device"]
    __jit_unused_properties__ = ["device"]
""" + DEVICE + """
    def forward(self, x):
        return x
""",
    # a subclass binds the name to a plain class attribute: no property left to read
    "shadowed-by-a-class-attribute": """
class Base(nn.Module):
    __jit_unused_properties__ = ["device"]

    def __init__(self):
        super().__init__()
        self.weight = nn.Parameter(torch.zeros(2))
""" + DEVICE + """
    def forward(self, x):
        return x * self.weight


class M(Base):
    device = None
""",
    # an abstract property listed in `__jit_ignored_attributes__`: torch skips reading it
    "abstract-property-ignored": """
import abc


class M(nn.Module):
    __jit_ignored_attributes__ = ["length"]

    @property
    @abc.abstractmethod
    def length(self) -> int:
        \"\"\"The length.\"\"\"
        raise NotImplementedError

    def forward(self, x):
        return x
""",
    # the raise is behind a condition that is false
    "conditional-raise": """
class M(nn.Module):
    __jit_unused_properties__ = ["p"]

    def __init__(self):
        super().__init__()
        self.strict = False

    @property
    def p(self):
        if self.strict:
            raise ValueError("strict")
        return 1

    def forward(self, x):
        return x
""",
}


@pytest.mark.parametrize("name", LOOKALIKES)
def test_lookalike_is_silent(name, tmp_path):
    findings = lint_files({"model.py": HEADER + LOOKALIKES[name]}, tmp_path)
    assert [(f.code, f.location.row) for f in findings if f.code == "JIT633"] == []


@pytest.mark.torch
@pytest.mark.parametrize("name", LOOKALIKES)
def test_torch_scripts_the_lookalike(name, tmp_path):
    result = script_source(HEADER + LOOKALIKES[name], tmp_path)
    assert result.ok, f"{name}: {result}"


# Each rejection: the class `M` (the only module class) is flagged, and torch raises `error` with no line.
REJECTED = {
    "raises-not-implemented": ("""
class M(nn.Module):
    @property
    def p(self):
        raise NotImplementedError("p is not known here")

    def forward(self, x):
        return x
""", "p is not known here"),
    "abstract-property": ("""
import abc


class M(nn.Module):
    @property
    @abc.abstractmethod
    def length(self) -> int:
        \"\"\"The length.\"\"\"
        raise NotImplementedError("abstract length")

    def forward(self, x):
        return x
""", "abstract length"),
    "cached-property-over-buffers": ("""
class M(nn.Module):
    @functools.cached_property
    def dtype(self):
        return next(iter(self.buffers())).dtype

    def forward(self, x):
        return x
""", "StopIteration"),
    "unused-does-not-help": ("""
class M(nn.Module):
    __jit_unused_properties__ = ["device"]

    def __init__(self):
        super().__init__()
        self.eps = 1e-5
""" + DEVICE + """
    def forward(self, x):
        return x + self.eps
""", "StopIteration"),
}


@pytest.mark.parametrize("name", REJECTED)
def test_rejection_is_flagged(name, tmp_path):
    source = HEADER + REJECTED[name][0]
    findings = lint_files({"model.py": source}, tmp_path)
    row = source.splitlines().index("class M(nn.Module):") + 1
    assert [(f.code, f.location.row) for f in findings if f.code == "JIT633"] == [("JIT633", row)]


@pytest.mark.torch
@pytest.mark.parametrize("name", REJECTED)
def test_torch_rejects_with_no_line(name, tmp_path):
    source, error = REJECTED[name]
    result = script_source(HEADER + source, tmp_path)
    assert result.rejected and result.says(error) and result.line is None, result


# A base in another package file, with what a model library's base does in `__init__`: a typed configuration
# object stored, a registry keyed by the module, a classmethod, a method of its own that only reads.
PACKAGE = {
    "pkg/__init__.py": "",
    "pkg/config.py": textwrap.dedent("""
        class Config:
            name: str = "base"

            @property
            def label(self) -> str:
                return self.name.upper()
    """),
    "pkg/utils.py": textwrap.dedent("""
        import torch


        class ModuleUtils:
            @property
            def dtype(self) -> torch.dtype:
                return next(p.dtype for p in self.parameters() if p.is_floating_point())
    """),
    "pkg/base.py": HEADER + textwrap.dedent("""
        from pkg.config import Config
        from pkg.utils import ModuleUtils

        REGISTRY = {}


        class PreTrained(nn.Module, ModuleUtils):
            def __init__(self, config: Config):
                super().__init__()
                if not isinstance(config, Config):
                    raise TypeError("a Config is needed")
                self.config = config
                self.label = config.label
                self.kind = self._kind(config.name)
                if self.can_build():
                    self.tag = f"{type(self).__name__}:{self.label}"
                REGISTRY[self] = self.label

            @classmethod
            def can_build(cls) -> bool:
                return True

            def _kind(self, name: str) -> str:
                return name if getattr(self, "strict", False) else "any"


        class Model(PreTrained):
            def __init__(self):
                super().__init__(Config())
    """),
}


def test_package_base_is_flagged_and_its_subclass_with_a_layer_is_not(tmp_path):
    files = dict(PACKAGE)
    files["pkg/model.py"] = HEADER + textwrap.dedent("""
        from pkg.base import PreTrained
        from pkg.config import Config


        class WithLayer(PreTrained):
            def __init__(self):
                super().__init__(Config())
                self.fc = nn.Linear(2, 2)

            def forward(self, x):
                return self.fc(x)
    """)
    findings = lint_files(files, tmp_path)
    found = sorted((f.filename.split("/")[-1], f.location.row) for f in findings if f.code == "JIT633")
    lines = files["pkg/base.py"].splitlines()
    assert found == [("base.py", lines.index("class PreTrained(nn.Module, ModuleUtils):") + 1),
                     ("base.py", lines.index("class Model(PreTrained):") + 1)]


@pytest.mark.torch
def test_torch_rejects_the_package_model(tmp_path):
    for name, text in PACKAGE.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    result = script_file(tmp_path / "pkg/base.py", package_root=tmp_path)
    # `PreTrained` needs an argument: the oracle builds `Model`
    assert result.stage in ("build", "script"), result
    import importlib
    import sys

    import torch

    sys.path.insert(0, str(tmp_path))
    try:
        module = importlib.import_module("pkg.base")
        with pytest.raises(StopIteration):
            torch.jit.script(module.Model())
    finally:
        sys.path.remove(str(tmp_path))
        for key in [k for k in sys.modules if k == "pkg" or k.startswith("pkg.")]:
            sys.modules.pop(key)


# -- JIT634: torch parses `__init__`'s source after `textwrap.dedent` ------------------------------------------

DEDENT_LOOKALIKES = {
    # comment lines are dropped by torch before it dedents, whatever their indentation
    "comment-at-column-0": '''
class M(nn.Module):
    def __init__(self):
        super().__init__()
# a comment at column 0
        self.scale = 2.0

    def forward(self, x):
        return x * self.scale
''',
    # a closing parenthesis at column 0 in `forward`: torch dedents `__init__` only (forward's own parsing copes)
    "forward-signature-at-column-0": '''
class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.scale = 2.0

    def forward(
            self, x
):
        return x * self.scale
''',
}

DEDENT_REJECTED = {
    "string-line-at-column-0": '''
class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.note = """first line
second line at column 0"""

    def forward(self, x):
        return x
''',
    "inherited": '''
class Base(nn.Module):
    def __init__(
        self, scale: float = 2.0
):
        super().__init__()
        self.scale = scale

    def forward(self, x):
        return x * self.scale


class M(Base):
    pass
''',
}


@pytest.mark.parametrize("name", DEDENT_LOOKALIKES)
def test_dedent_lookalike_is_silent(name, tmp_path):
    findings = lint_files({"model.py": HEADER + DEDENT_LOOKALIKES[name]}, tmp_path)
    assert [f.code for f in findings if f.code == "JIT634"] == []


@pytest.mark.torch
@pytest.mark.parametrize("name", DEDENT_LOOKALIKES)
def test_torch_scripts_the_dedent_lookalike(name, tmp_path):
    result = script_source(HEADER + DEDENT_LOOKALIKES[name], tmp_path)
    assert result.ok, f"{name}: {result}"


@pytest.mark.parametrize("name", DEDENT_REJECTED)
def test_dedent_rejection_is_flagged(name, tmp_path):
    source = HEADER + DEDENT_REJECTED[name]
    findings = lint_files({"model.py": source}, tmp_path)
    rows = sorted(f.location.row for f in findings if f.code == "JIT634")
    lines = source.splitlines()
    expected = [lines.index(line) + 1 for line in ("class Base(nn.Module):", "class M(Base):", "class M(nn.Module):")
                if line in lines]
    assert rows == expected


@pytest.mark.torch
@pytest.mark.parametrize("name", DEDENT_REJECTED)
def test_torch_rejects_the_undentable_init(name, tmp_path):
    result = script_source(HEADER + DEDENT_REJECTED[name], tmp_path)
    assert result.rejected and result.says("unexpected indent (<unknown>, line 1)") and result.line is None, result


# One base `__init__` proven for each subclass: its walk is kept per run, but what its calls reach depends on the
# subclass (`self.build()` is the subclass's own), so each verdict is the subclass's.
OVERRIDES = HEADER + """
class Base(nn.Module):
    __jit_unused_properties__ = ["device"]

    def __init__(self):
        super().__init__()
        self.build()

    def build(self):
        self.eps = 1e-5

    @property
    def device(self) -> torch.device:
        return next(self.parameters()).device

    def forward(self, x):
        return x


class Registers(Base):
    def build(self):
        self.weight = nn.Parameter(torch.zeros(2))


class Plain(Base):
    def build(self):
        self.scale = 2.0


class RegistersToo(Base):
    def build(self):
        self.bias = nn.Parameter(torch.zeros(2))
"""


def test_a_shared_base_init_is_proven_for_each_subclass(tmp_path):
    findings = lint_files({"model.py": OVERRIDES}, tmp_path)
    lines = OVERRIDES.splitlines()
    assert sorted(f.location.row for f in findings if f.code == "JIT633") == [
        lines.index("class Base(nn.Module):") + 1, lines.index("class Plain(Base):") + 1]


@pytest.mark.torch
def test_torch_scripts_only_the_subclasses_that_register_a_parameter(tmp_path):
    import importlib.util

    import torch

    path = tmp_path / "overrides.py"
    path.write_text(OVERRIDES)
    spec = importlib.util.spec_from_file_location("overrides_jit633", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    for name in ("Base", "Plain"):
        with pytest.raises(StopIteration):
            torch.jit.script(getattr(module, name)())
    for name in ("Registers", "RegistersToo"):
        torch.jit.script(getattr(module, name)())


# A generic module class (`Generic[T]` among its bases) and a subclass of its subscripted form (`Base[int]`): the
# subscripted base is its origin class, so the property the base defines is the subclass's too.
GENERIC = HEADER + textwrap.dedent("""
    from typing import Generic, TypeVar

    T = TypeVar("T")


    class Base(nn.Module, Generic[T]):
        @property
        def length(self) -> int:
            raise NotImplementedError("no length")

        def forward(self, x):
            return x


    class M(Base[int]):
        pass
""")

GENERIC_LOOKALIKE = GENERIC.replace('raise NotImplementedError("no length")', "return 3")


def test_generic_base_and_its_subscripted_subclass_are_flagged(tmp_path):
    findings = lint_files({"model.py": GENERIC}, tmp_path)
    lines = GENERIC.splitlines()
    assert sorted(f.location.row for f in findings if f.code == "JIT633") == [
        lines.index("class Base(nn.Module, Generic[T]):") + 1, lines.index("class M(Base[int]):") + 1]


def test_generic_lookalike_is_silent(tmp_path):
    findings = lint_files({"model.py": GENERIC_LOOKALIKE}, tmp_path)
    assert [f for f in findings if f.severity == "error"] == []


@pytest.mark.torch
def test_torch_rejects_the_generic_classes_and_scripts_the_lookalike(tmp_path):
    result = script_source(GENERIC, tmp_path, "generic.py")
    assert result.rejected and result.says("no length") and result.line is None, result
    assert script_source(GENERIC_LOOKALIKE, tmp_path, "generic_lookalike.py").ok


# An abstract property of a class Python builds with ABCMeta: no instance of it exists (building one raises
# TypeError), and a subclass that can be built overrides the property, so torch never reads the raising getter.
ABSTRACT_ABC = HEADER + textwrap.dedent("""
    import abc


    class Model(nn.Module, abc.ABC):
        @property
        @abc.abstractmethod
        def length(self) -> int:
            raise NotImplementedError

        def forward(self, x):
            return x


    class Meta(nn.Module, metaclass=abc.ABCMeta):
        @property
        @abc.abstractmethod
        def length(self) -> int:
            raise NotImplementedError

        def forward(self, x):
            return x
""")


def test_an_abstract_property_of_an_abc_is_silent(tmp_path):
    assert [f for f in lint_files({"model.py": ABSTRACT_ABC}, tmp_path) if f.code == "JIT633"] == []


@pytest.mark.torch
def test_no_instance_of_the_abc_exists(tmp_path):
    namespace: dict = {}
    exec(compile(ABSTRACT_ABC, str(tmp_path / "abc_model.py"), "exec"), namespace)
    for name in ("Model", "Meta"):
        with pytest.raises(TypeError, match="abstract"):
            namespace[name]()
