"""How many modules a ModuleList or Sequential attribute holds after `__init__`, when the source says so plainly."""

from __future__ import annotations

import libcst as cst

from jitlint.project import AttributeInfo

_CONTAINER_CLASSES = frozenset({"torch.nn.ModuleList", "torch.nn.Sequential", "torch.nn.modules.container.ModuleList",
                                "torch.nn.modules.container.Sequential"})


def static_length(info: AttributeInfo) -> int | None:
    """How many modules a ModuleList or Sequential attribute holds after `__init__`, when every assignment says so
    plainly (`nn.ModuleList([a, b])`, `nn.ModuleList([Block() for _ in range(4)])`, `nn.Sequential(a, b)`) and
    nothing adds to it."""
    if info.filled_in_init or info.assigned_in - {"__init__"} or not info.init_values or info.registered:
        return None
    lengths = set()
    for value in info.init_values:
        node = value.node
        if not isinstance(node, cst.Call) or value.imports.qualify(node.func) not in _CONTAINER_CLASSES:
            return None
        if any(argument.star or argument.keyword for argument in node.args):
            return None
        kind = value.imports.qualify(node.func).rsplit(".", 1)[-1]
        if kind == "Sequential":
            if len(node.args) == 1 and not isinstance(node.args[0].value, (cst.Call, cst.Name, cst.Attribute)):
                return None
            if any(not isinstance(argument.value, cst.Call) for argument in node.args):
                return None  # a name may hold an OrderedDict, or a list to unpack
            lengths.add(len(node.args))
            continue
        if len(node.args) != 1:
            return None
        items = node.args[0].value
        if isinstance(items, cst.List) and all(isinstance(element, cst.Element) for element in items.elements):
            lengths.add(len(items.elements))
        elif (isinstance(items, cst.ListComp) and items.for_in.inner_for_in is None and not items.for_in.ifs
              and isinstance(items.for_in.iter, cst.Call) and value.imports.qualify(items.for_in.iter.func)
              == "builtins.range" and len(items.for_in.iter.args) == 1
              and isinstance(items.for_in.iter.args[0].value, cst.Integer)):
            lengths.add(int(items.for_in.iter.args[0].value.value))
        else:
            return None
    return lengths.pop() if len(lengths) == 1 else None
