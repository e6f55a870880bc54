"""What the index keeps per attribute (`project.AttributeInfo`): immutable collections, shared where nothing is added.

A class's merged attributes are built for every class of a run (transformers: tens of thousands of attributes), so
an attribute costs its slots and what it holds, not five empty containers of its own."""

from __future__ import annotations

from pathlib import Path

from jitlint.layout import parse_module
from jitlint.project import AttributeInfo, ModuleInfo, ProjectIndex, joined

SOURCE = '''
import torch.nn as nn

class Base(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(2, 2)
        self.layers = nn.ModuleList([nn.Linear(2, 2)])
        self.scale = 1.0

class Child(Base):
    def __init__(self):
        super().__init__()
        self.extra = nn.ReLU()

    def reset(self):
        self.scale = 2.0
'''


def _index() -> ProjectIndex:
    path = Path("m.py")
    project = ProjectIndex()
    project.add(ModuleInfo.build(path, "m.py", parse_module(SOURCE), linted=True, text=SOURCE))
    return project


def test_an_attribute_has_slots_and_starts_with_the_shared_empty_collections():
    first, second = AttributeInfo(), AttributeInfo()
    assert not hasattr(first, "__dict__")
    assert first.kinds is second.kinds and first.assigned_in is second.assigned_in
    assert isinstance(first.kinds, frozenset) and first.init_values == ()


def test_merged_attributes_are_those_of_the_bases_and_share_what_nothing_adds_to():
    project = _index()
    module = next(iter(project.modules.values()))
    base, child = module.classes["Base"], module.classes["Child"]
    merged = project.attributes(child)
    assert set(merged) == {"proj", "layers", "scale", "extra"}
    assert merged["layers"].kinds == {"ModuleList"} and merged["extra"].kinds == {"module"}
    assert merged["scale"].assigned_in == {"__init__", "reset"}  # the base's and the child's, joined
    assert merged["proj"].constructors == {"torch.nn.Linear"}
    own = base.own_attributes["proj"]
    assert merged["proj"].assigned_in is own.assigned_in  # nothing added: the base's collection itself
    assert [value.node.func.attr.value for value in merged["proj"].init_values] == ["Linear"]


def test_joined_shares_an_operand_when_the_other_is_empty():
    held = frozenset({"a"})
    assert joined(held, set()) is held and joined(frozenset(), held) is held
    assert joined(frozenset(), {"b"}) == {"b"} and isinstance(joined(frozenset(), {"b"}), frozenset)
    assert joined(held, {"b"}) == {"a", "b"} and joined(held, {"a"}) is held


def test_small_sets_are_one_instance_across_attributes_and_classes():
    project = _index()
    module = next(iter(project.modules.values()))
    base, child = module.classes["Base"], module.classes["Child"]
    proj, extra = base.own_attributes["proj"], child.own_attributes["extra"]
    assert proj.assigned_in == {"__init__"} and proj.assigned_in is extra.assigned_in
    merged = project.attributes(child)
    assert merged["proj"].kinds == merged["extra"].kinds == {"module"}
    assert merged["proj"].kinds is merged["extra"].kinds


def test_undecorated_functions_share_one_empty_set_of_decorator_names():
    project = _index()
    module = next(iter(project.modules.values()))
    child = module.classes["Child"]
    init, reset = child.methods["__init__"], child.methods["reset"]
    assert init.decorators == frozenset() and init.decorators is reset.decorators
