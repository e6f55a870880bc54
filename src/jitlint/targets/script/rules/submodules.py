"""JIT310: a submodule used as the module container it is not. TorchScript desugars indexing, slicing, iterating
and the `items()`/`named_modules()` family of a submodule at compile time (`ModuleValue` in
`torch/csrc/jit/python/python_sugared_value.cpp`), by the kind of container it is: an `nn.Linear` cannot be indexed
or iterated, only a ModuleList or Sequential can be sliced, and the desugared methods take no arguments.
"""

from __future__ import annotations

import libcst as cst

from jitlint.facts.torch_api import CONTAINER_KINDS
from jitlint.project import AttributeInfo
from jitlint.rules.base import RuleContext
from jitlint.targets.script.facts import ScriptTypes
from jitlint.targets.script.rules import ScriptRule
from jitlint.targets.script.typing.analysis import type_at
from jitlint.targets.script.typing.values import Sugared

# The methods `ModuleValue::tryGetAttr` desugars into a `ModuleDictMethod` on every module (`items`, `keys` and
# `values` only on a ModuleDict); `ModuleDictMethod::call` refuses any argument.
_DESUGARED_METHODS = frozenset({"named_modules", "modules", "children", "named_children", "named_buffers"})
_MODULE_DICT_METHODS = frozenset({"items", "keys", "values"})
# Slicing goes through `ModuleValue::asTupleValue`: only the LIST kind (ModuleList, Sequential) has one.
_NOT_SLICEABLE = frozenset({"ModuleDict", "ParameterDict", "ParameterList"})


def _torch_leaf_modules(info: AttributeInfo) -> list[str]:
    """The classes of `torch.nn` an attribute holds when it holds nothing else and none is a container (an
    `nn.Linear`): their modules are not iterable and not subscriptable. Empty otherwise."""
    if info.kinds != frozenset({"module"}) or not info.constructors:
        return []
    names = sorted(info.constructors)
    if all(name.startswith("torch.nn.") and name not in CONTAINER_KINDS
           and name.rsplit(".", 1)[-1][:1].isupper() for name in names):
        return [name.rsplit(".", 1)[-1] for name in names]
    return []


def _article(name: str) -> str:
    return "an" if name.startswith("nn.") or name[:1] in "AEIOU" else "a"


class SubmoduleNotAContainer(ScriptRule):
    code = "JIT310"
    name = "submodule-not-a-container"
    severity = "error"
    summary = ("a submodule that is not a container (`nn.Linear`) indexed or iterated, a ModuleDict or parameter "
               "container sliced, or `named_modules()`/`children()`/`items()`... called with arguments")
    message = "a submodule used as a kind of container it is not"
    facts = (ScriptTypes,)

    def visit_Subscript(self, node: cst.Subscript, ctx: RuleContext) -> None:
        found = ctx.self_attribute(node.value)
        if found is None:
            return
        name, info = found
        sliced = len(node.slice) == 1 and isinstance(node.slice[0].slice, cst.Slice)
        leaves = [f"nn.{leaf}" for leaf in _torch_leaf_modules(info)] or self._project_modules(node.value, ctx)
        if sliced and (leaves or (info.kinds and info.kinds <= _NOT_SLICEABLE)):
            kind = leaves[0] if leaves else f"nn.{sorted(info.kinds)[0]}"
            ctx.report(node, (
                f"`self.{name}` is {_article(kind)} {kind}, and TorchScript slices only a ModuleList or a Sequential "
                f"('Only ModuleList or Sequential modules can be used as tuple'); index it with literals, or iterate it"))
        elif not sliced and leaves:
            ctx.report(node, (
                f"`self.{name}` is {_article(leaves[0])} {leaves[0]}, not a module container, and TorchScript cannot "
                f"index it ('Only ModuleList, Sequential, ModuleDict, ParameterList, and ParameterDict modules are subscriptable'); "
                f"use `self.{name}` itself"))

    def visit_For(self, node: cst.For, ctx: RuleContext) -> None:
        self._iterated(node.iter, ctx)

    def visit_CompFor(self, node: cst.CompFor, ctx: RuleContext) -> None:
        self._iterated(node.iter, ctx)

    def _iterated(self, iterable: cst.BaseExpression, ctx: RuleContext) -> None:
        found = ctx.self_attribute(iterable)
        leaves = _torch_leaf_modules(found[1]) if found is not None else []
        if leaves:
            ctx.report(iterable, (
                f"`self.{found[0]}` is an nn.{leaves[0]}, not a module container, and TorchScript cannot iterate it "
                f"('Only constant Sequential, ModuleList, ModuleDict, or ParameterList can be used as an "
                f"iterable'); iterate a container of modules"))

    def visit_Call(self, node: cst.Call, ctx: RuleContext) -> None:
        if not node.args or not isinstance(node.func, cst.Attribute):
            return
        method, receiver = node.func.attr.value, node.func.value
        if method in _DESUGARED_METHODS:
            if not self._is_self(receiver, method, ctx) and not self._is_submodule(receiver, ctx, any_module=True):
                return
        elif method not in _MODULE_DICT_METHODS or not self._is_submodule(receiver, ctx, any_module=False):
            return
        ctx.report(node, (
            f"TorchScript desugars `{method}()` of a module at compile time and takes no arguments for it ('{method} "
            f"method does not accept any arguments'); call `{method}()` and pick from what it yields"))

    @staticmethod
    def _project_modules(value: cst.BaseExpression, ctx: RuleContext) -> list[str]:
        """The project module classes the typer finds a submodule to be, when it is one of those alone and none is
        a module container (`ModuleValue::getitem` subscripts only the container kinds, whatever `__getitem__` the
        class defines)."""
        found = type_at(ctx, value)
        if not isinstance(found, Sugared) or found.kind != "module" or found.info is None:
            return []
        submodule = found.info
        if (submodule.container is not None or submodule.torch_class or submodule.torch_classes
                or not submodule.classes):
            return []
        if any(ctx.project.container_kind(cls) is not None for cls in submodule.classes):
            return []
        return [cls.name for cls in submodule.classes]

    @staticmethod
    def _is_self(receiver: cst.BaseExpression, method: str, ctx: RuleContext) -> bool:
        """`self` of a module method, when no class compiled here defines `method` itself."""
        function = ctx.function
        if function is None or function.info.bound_first_param != "instance" or not function.owners:
            return False
        if not (isinstance(receiver, cst.Name) and receiver.value == function.info.node.params.params[0].name.value):
            return False
        return all(ctx.project.is_module_class(owner) and not any(
            isinstance(s, cst.FunctionDef) and s.name.value == method for s in owner.node.body.body)
            for owner in function.owners)

    @staticmethod
    def _is_submodule(receiver: cst.BaseExpression, ctx: RuleContext, any_module: bool) -> bool:
        """`self.<name>` holding module containers of those kinds, or (`any_module`) a module of `torch.nn`."""
        found = ctx.self_attribute(receiver)
        if found is None:
            return False
        info = found[1]
        if any_module and _torch_leaf_modules(info):
            return True
        kinds = {"ModuleList", "Sequential", "ModuleDict"} if any_module else {"ModuleDict"}
        return bool(info.kinds) and info.kinds <= kinds
