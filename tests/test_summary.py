"""Phase one's index (`jitlint.summary`, read with `ast`) is the index `ModuleInfo.build` makes of the LibCST tree:
the same names, bases, decorators, attributes, module-level names and import table, and the nodes it parses when
they are first read are the nodes of the whole file's tree."""

import ast
from pathlib import Path

import libcst as cst
import pytest

from jitlint import layout, summary
from jitlint.project import AttributeInfo, ModuleInfo

ROOT = Path(__file__).resolve().parents[1]


def python_files() -> list[Path]:  # (not bench/.work: sources a benchmark unpacked and edits as it runs)
    return sorted([*(ROOT / "src").rglob("*.py"), *(ROOT / "tests").rglob("*.py"), *(ROOT / "bench").glob("*.py"),
                   *(ROOT / "scripts").rglob("*.py"), *(ROOT / "fixtures").rglob("*.py")])


def _same_node(found, expected, where: str) -> None:
    if expected is None:
        assert found is None, where
        return
    assert found is not None, where
    if hasattr(expected, "leading_lines"):
        expected = expected.with_changes(leading_lines=())
        found = found.with_changes(leading_lines=())
    assert found.deep_equals(expected), where


def _attribute_fields(info: AttributeInfo) -> dict:
    return {name.lstrip("_"): getattr(info, name) for name in info.__slots__
            if name not in ("_class_value", "_annotation", "init_values", "annotation_imports")}


def _accessors(method) -> list:
    """A class's method and the property accessors it `shadows`."""
    chain = []
    while method is not None:
        chain.append(method)
        method = method.shadows
    return chain


def compare(path: Path, text: str, nodes: bool = True) -> bool:
    """Whether `path` could be compared (ast and LibCST both read it); asserts the two indexes agree."""
    try:
        tree = ast.parse(text)
        parsed = layout.parse_module(text)
    except (SyntaxError, cst.ParserSyntaxError, ValueError):
        return False
    expected = ModuleInfo.build(path, str(path), parsed, linted=False)
    found = summary.build_module(path, str(path), text, tree)
    where = str(path)
    if found is None:  # a star import and classes or functions: indexed by LibCST, through the project
        assert expected.imports.stars and (expected.classes or expected.functions), where
        return False
    assert [base for base, _ in found.imports.stars] == [base for base, _ in expected.imports.stars], where
    assert found.name == expected.name, where
    assert found.imports.aliases == expected.imports.aliases, where
    assert found.imports.local_definitions == expected.imports.local_definitions, where
    assert found.imports.star_exports() == expected.imports.star_exports(), where
    assert list(found.globals) == list(expected.globals), where
    assert list(found.functions) == list(expected.functions), where
    assert list(found.classes) == list(expected.classes), where
    for name, function in expected.functions.items():
        assert found.functions[name].decorators == function.decorators, f"{where}: {name}"
    for name, cls in expected.classes.items():
        other = found.classes[name]
        here = f"{where}: class {name}"
        assert other.base_names == cls.base_names, here
        assert other.string_lists == cls.string_lists, here
        assert other.dynamic_attributes == cls.dynamic_attributes, here
        assert list(other.methods) == list(cls.methods), here
        for method_name, method in cls.methods.items():
            assert [m.decorators for m in _accessors(other.methods[method_name])] == [
                m.decorators for m in _accessors(method)], f"{here}.{method_name}"
        assert list(other.own_attributes) == list(cls.own_attributes), here
        for attribute_name, attribute in cls.own_attributes.items():
            mine = other.own_attributes[attribute_name]
            at = f"{here}.{attribute_name}"
            assert _attribute_fields(mine) == _attribute_fields(attribute), at
            assert len(mine.init_values) == len(attribute.init_values), at
            assert (mine.annotation_imports is None) == (attribute.annotation_imports is None), at
            if nodes:
                _same_node(mine.annotation, attribute.annotation, at + " (annotation)")
                _same_node(mine.class_value, attribute.class_value, at + " (class value)")
                for value, expected_value in zip(mine.init_values, attribute.init_values):
                    _same_node(value.node, expected_value.node, at + " (value in __init__)")
    if nodes:
        for name, value in expected.globals.items():
            _same_node(found.globals[name], value, f"{where}: global {name}")
        for name, function in expected.functions.items():
            _same_node(found.functions[name].node, function.node, f"{where}: def {name}")
        for name, cls in expected.classes.items():
            for method_name, method in cls.methods.items():
                for mine, theirs in zip(_accessors(found.classes[name].methods[method_name]), _accessors(method)):
                    _same_node(mine.node, theirs.node, f"{where}: {name}.{method_name}")
            _same_node(found.classes[name].node, cls.node, f"{where}: class {name}")
    return True


def test_the_summary_index_is_the_libcst_index_on_every_file_here():
    compared = sum(compare(path, path.read_text(encoding="utf-8")) for path in python_files())
    assert compared > 300


AWKWARD = {
    "suites": "import torch\nif True: import numpy\nelse: import os\ntry: import json\nexcept ImportError: pass\n"
              "class A: x = 1\nclass B(torch.nn.Module):\n    y = 2; z: int = 3\n"
              "    def f(self): self.a = 1; self.b = [1, 'x']\n",
    "strings": "import torch\nclass M(torch.nn.Module):\n    __constants__ = ['a', 'b' 'c', *'d']\n"
               "    def __init__(self):\n        self.register_buffer('x' 'y', None)\n"
               "        self.register_buffer('z', None)\n        setattr(self, f'w', 1)\n"
               "        self.s = f'{1}' 'x'\n        self.t = f'{1}'\n        self.u = ['a', b'b' b'c', 1]\n"
               "        self.v = ('a' 'b', 1.0)\n",
    "crlf": "import torch\r\n\r\nclass M(torch.nn.Module):\r\n  def __init__(self, flag=True):\r\n"
            "    self.flag = flag\r\n    self.x, (self.y, *self.z) = self.make()\r\n"
            "  def forward(self, x):\r\n    return x\r\n",
    "tabs": "import torch\nclass M(torch.nn.Module):\n\tdef __init__(self):\n\t\tself.a = (\n1)\n"
            "\t@property\n\tdef p(self):\n\t\treturn 1\n\t@p.setter\n\tdef p(self, v):\n\t\tself.q = v\n",
    "accessors": "import torch\nclass M(torch.nn.Module):\n    def p(self): return 0\n    @property\n    def p(self): return 1\n"
                 "    @p.setter\n    def p(self, v): self.q = v\n    @p.deleter\n    def p(self): pass\n"
                 "    @property\n    def r(self): return 2\n    def r(self): return 3\n"
                 "try:\n    class N(torch.nn.Module):\n        @property\n        def p(self): return 1\n"
                 "        @p.setter\n        def p(self, v): self.q = v\nexcept ImportError:\n    pass\n",
    "all": "import torch\nfrom torch import nn as _nn\nclass A: pass\n__all__ = ['A', 'B' 'C']\n",
    "all_literal": "import torch\nclass A: pass\n__all__: list = ('A', 'torch')\n",
    "all_extended": "class A: pass\n__all__ = ['A']\n__all__ += ['B']\n",
    "all_public": "import torch\nfrom torch import nn as _nn, fft\nclass A: pass\ndef _f(): pass\nx = y = 1\n",
    "calls": "import torch\nclass M(torch.nn.Module):\n    def __init__(self, **k):\n"
             "        self.items.append(x=1)\n        self.register_buffer(name='n', tensor=None, *k)\n"
             "        setattr(self, *k)\n        self.d = {**k, 'a': self.add_module('m', None)}\n"
             "        self.e = self.f() if self.register_parameter('p', None) else {}\n",
}


@pytest.mark.parametrize("name", sorted(AWKWARD))
def test_awkward_shapes(name, tmp_path):
    path = tmp_path / f"{name}.py"
    path.write_bytes(AWKWARD[name].encode())
    text = path.read_bytes().decode()
    summary.FileText.forget()
    assert compare(path, text)


def test_pieces_are_counted_apart_from_files(tmp_path):
    path = tmp_path / "m.py"
    path.write_text("import torch\nclass M(torch.nn.Module):\n    def forward(self, x):\n        return x\n")
    layout.PARSES.reset()
    module = summary.summarize_file(path, path.read_text())
    assert layout.PARSES.files == {} and layout.PARSES.pieces == {}
    assert not module.classes["M"].methods["forward"].parsed
    assert isinstance(module.classes["M"].methods["forward"].node, cst.FunctionDef)
    assert layout.PARSES.files == {} and layout.PARSES.pieces == {"method": 1}
    assert not module.classes["M"].parsed
    module.tree
    assert layout.PARSES.files == {str(path): 1}


def _identical(found, expected, where: str) -> None:
    assert found is expected, where


def adopted_matches(path: Path, text: str) -> bool:
    """`summary.adopt` of the whole tree gives the very nodes `ModuleInfo.build` of that tree holds."""
    try:
        tree = ast.parse(text)
        parsed = layout.parse_module(text)
    except (SyntaxError, cst.ParserSyntaxError, ValueError):
        return False
    expected = ModuleInfo.build(path, str(path), parsed, linted=True, text=text)
    found = summary.build_module(path, str(path), text, tree)
    found.classes and next(iter(found.classes.values())).methods and \
        next(iter(next(iter(found.classes.values())).methods.values())).node  # a piece parsed before: replaced
    summary.adopt(found, parsed, text)
    where = str(path)
    assert found.tree is parsed and found.linted and found.text == text, where
    for name, value in expected.globals.items():
        _identical(found.globals[name], value, f"{where}: global {name}")
    for name, function in expected.functions.items():
        _identical(found.functions[name].node, function.node, f"{where}: def {name}")
    for name, cls in expected.classes.items():
        other = found.classes[name]
        _identical(other.node, cls.node, f"{where}: class {name}")
        for method_name, method in cls.methods.items():
            _identical(other.methods[method_name].node, method.node, f"{where}: {name}.{method_name}")
        for attribute_name, attribute in cls.own_attributes.items():
            mine = other.own_attributes[attribute_name]
            at = f"{where}: {name}.{attribute_name}"
            _identical(mine.annotation, attribute.annotation, at)
            _identical(mine.class_value, attribute.class_value, at)
            for value, expected_value in zip(mine.init_values, attribute.init_values):
                _identical(value.node, expected_value.node, at)
    return True


def test_adopting_the_tree_gives_the_libcst_index_nodes():
    compared = sum(adopted_matches(path, path.read_text(encoding="utf-8")) for path in python_files()[::7])
    assert compared > 40


def test_a_packed_module_unpickles_its_classes_functions_and_values_when_one_is_first_read(tmp_path):
    from jitlint.summaries import PackedModule, summarize

    path = tmp_path / "m.py"
    text = ("import torch\nfrom torch import nn\nLIMIT: int = 3\n\n\nclass M(nn.Module):\n    a: torch.Tensor\n\n"
            "    def __init__(self):\n        self.b = nn.Linear(1, 1)\n\n    def forward(self, x):\n        return x\n\n\n"
            "def f():\n    return 1\n")
    path.write_text(text)
    expected = summarize(path, text.encode(), ()).module
    module = summarize(path, text.encode(), ()).pack().module
    assert isinstance(module, PackedModule) and "_body" in vars(module)
    assert module.imports.aliases == expected.imports.aliases == {"torch": "torch", "nn": "torch.nn"}
    assert module.name == expected.name and "_body" in vars(module)  # its names alone: the head
    cls = module.classes["M"]
    assert "_body" not in vars(module)
    assert cls.module is module and module.functions["f"].module is module and cls.methods["forward"].cls is cls
    assert cls.base_names == expected.classes["M"].base_names
    assert list(cls.own_attributes) == list(expected.classes["M"].own_attributes)
    for attribute in cls.own_attributes.values():  # the body shares the head's import table, not a copy
        assert attribute.annotation_imports is None or attribute.annotation_imports is module.imports
    assert list(module.globals) == ["LIMIT"] and module.globals["LIMIT"].deep_equals(expected.globals["LIMIT"])
    assert cls.methods["forward"].node.deep_equals(expected.classes["M"].methods["forward"].node)
    with pytest.raises(AttributeError):
        module.worker


def test_a_property_keeps_its_getter_and_setter_under_the_deleter(tmp_path):
    path = tmp_path / "accessors.py"
    path.write_text(AWKWARD["accessors"])
    for module in (summary.build_module(path, str(path), AWKWARD["accessors"], ast.parse(AWKWARD["accessors"])),
                   ModuleInfo.build(path, str(path), layout.parse_module(AWKWARD["accessors"]), linted=False)):
        chain = _accessors(module.classes["M"].methods["p"])
        assert [sorted(m.decorators) for m in chain] == [["p.deleter"], ["p.setter"], ["builtins.property"]]
        assert [len(m.node.params.params) for m in chain] == [1, 2, 1]
        assert _accessors(module.classes["M"].methods["r"]) == [module.classes["M"].methods["r"]]
        assert [m.node.params.params[-1].name.value for m in _accessors(module.classes["N"].methods["p"])] == [
            "v", "self"]
