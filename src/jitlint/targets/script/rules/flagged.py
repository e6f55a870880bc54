"""JIT629: a submodule (or any attribute) that `__init__` creates only under `if self.flag:`, read by compiled code
under `if self.flag:`, while the flag is a plain attribute (issue 20: the commonest rejection of pytorchcv's
models, `Module 'ConvBlock' has no attribute 'pad'`)."""

from __future__ import annotations

import libcst as cst

from jitlint.rules.base import RuleContext
from jitlint.targets.script import fixers
from jitlint.targets.script.rules import ScriptRule
from jitlint.targets.script.rules.attributes import _self_target
from jitlint.walk import walk


def _self_flag(test: cst.BaseExpression, self_name: str) -> str | None:
    """`flag` when `test` is `self.flag`."""
    if (isinstance(test, cst.Attribute) and isinstance(test.value, cst.Name) and test.value.value == self_name
            and not test.lpar):
        return test.attr.value
    return None


def _stores(node: cst.CSTNode, self_name: str) -> list[tuple[str, cst.CSTNode]]:
    """(name, the store's target) for every `self.name = ...` / `self.name: T = ...` / `self.name += ...` below node,
    nested functions included (a store there is a store all the same)."""
    found: list[tuple[str, cst.CSTNode]] = []

    class Stores(cst.CSTVisitor):
        def _target(self, target: cst.BaseExpression) -> None:
            if isinstance(target, (cst.Tuple, cst.List)):
                for element in target.elements:
                    self._target(element.value)
            elif (isinstance(target, cst.Attribute) and isinstance(target.value, cst.Name)
                    and target.value.value == self_name):
                found.append((target.attr.value, target))

        def visit_AssignTarget(self, node: cst.AssignTarget) -> None:
            self._target(node.target)

        def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
            self._target(node.target)

        def visit_AugAssign(self, node: cst.AugAssign) -> None:
            self._target(node.target)

        def visit_Call(self, node: cst.Call) -> None:  # setattr(self, ...) / register_*: not followed, so "other"
            func = node.func
            if isinstance(func, cst.Name) and func.value == "setattr":
                found.append(("*", node))
            elif isinstance(func, cst.Attribute) and func.attr.value in ("register_buffer", "register_parameter",
                                                                          "register_module", "add_module"):
                found.append(("*", node))

    walk(node, Stores())
    return found


def _class_level_names(cls: cst.ClassDef) -> set[str]:
    names: set[str] = set()
    if not isinstance(cls.body, cst.IndentedBlock):
        return names
    for statement in cls.body.body:
        if isinstance(statement, cst.SimpleStatementLine):
            for small in statement.body:
                if isinstance(small, cst.AnnAssign) and isinstance(small.target, cst.Name):
                    names.add(small.target.value)
                elif isinstance(small, cst.Assign):
                    for target in small.targets:
                        if isinstance(target.target, cst.Name):
                            names.add(target.target.value)
        elif isinstance(statement, (cst.FunctionDef, cst.ClassDef)):
            names.add(statement.name.value)
    return names


def flagged_attributes(cls: cst.ClassDef) -> dict[str, str] | None:
    """{attribute: flag} for the attributes `__init__` sets only inside `if self.flag:` blocks at its top level
    (no `else` setting them), where nothing else in the class sets them and the flag is set only in `__init__`;
    None when `__init__` is not plain enough to tell."""
    if not isinstance(cls.body, cst.IndentedBlock):
        return None
    methods = [s for s in cls.body.body if isinstance(s, cst.FunctionDef)]
    init = next((m for m in methods if m.name.value == "__init__"), None)
    if init is None or not init.params.params or not isinstance(init.body, cst.IndentedBlock):
        return None
    self_name = init.params.params[0].name.value
    guarded: dict[str, set[str]] = {}
    guarded_targets: set[int] = set()
    for statement in init.body.body:
        if isinstance(statement, cst.If):
            flag = _self_flag(statement.test, self_name)
            if flag is None:
                continue
            for name, target in _stores(statement.body, self_name):
                guarded.setdefault(name, set()).add(flag)
                guarded_targets.add(id(target))
    if not guarded:
        return {}
    everywhere: dict[str, int] = {}
    init_only: set[str] = set()
    for method in methods:
        first = method.params.params[0].name.value if method.params.params else self_name
        for name, target in _stores(method, first):
            if name == "*":
                return None  # attributes made by names jitlint does not follow
            if id(target) not in guarded_targets:
                everywhere[name] = everywhere.get(name, 0) + 1
            if method is not init:
                init_only.add(name)  # (names set outside __init__: not init-only)
    class_names = _class_level_names(cls)
    found = {}
    for name, flags in guarded.items():
        if len(flags) != 1 or name in everywhere or name in class_names:
            continue
        flag = next(iter(flags))
        if flag in init_only or flag in class_names or flag not in everywhere:
            continue  # the flag must be a plain attribute that only __init__ sets
        found[name] = flag
    return found


class SubmoduleSetUnderFlag(ScriptRule):
    code = "JIT629"
    name = "submodule-set-under-flag"
    severity = "error"
    summary = "`if self.use_pad: self.pad = ...` in `__init__`, `if self.use_pad: x = self.pad(x)` in compiled code"
    message = "an attribute `__init__` creates only under a flag, read under that flag"
    fix = "safe"

    def visit_Attribute(self, node: cst.Attribute, ctx: RuleContext) -> None:
        name = _self_target(node, ctx)
        if name is None:
            return
        parent = ctx.parent
        if isinstance(parent, (cst.AssignTarget, cst.AugAssign, cst.AnnAssign, cst.Del)):
            return
        cls = next((a for a in reversed(ctx.ancestors) if isinstance(a, cst.ClassDef)), None)
        if cls is None or ctx.function is None or ctx.function.info.node.name.value == "__init__":
            return
        cache = ctx.project.derived.setdefault("script.flagged_attributes", {})
        found = cache.get(id(cls))
        if found is None or found[0] is not cls:
            found = cache[id(cls)] = (cls, flagged_attributes(cls))
        flags = found[1]
        flag = (flags or {}).get(name)
        if flag is None:
            return
        self_name = node.value.value
        guard = None  # the innermost `if self.flag:` whose body holds the read
        for index, ancestor in enumerate(ctx.ancestors[:-1]):
            if isinstance(ancestor, cst.If) and _self_flag(ancestor.test, self_name) == flag:
                if ctx.ancestors[index + 1] is ancestor.body:
                    guard = ancestor
        if guard is None:
            return
        ctx.report(
            node,
            f"`__init__` creates `self.{name}` only when `self.{flag}` is true, and `self.{flag}` is a plain "
            f"attribute, so torch compiles this branch for every instance and one without `{name}` fails (torch: "
            f"\"Module '...' has no attribute '{name}'\"); declare the flag a constant "
            f"(`{flag}: torch.jit.Final[bool]` in the class body) so torch drops the branch when it is false",
            fix=fixers.final_flag(flag, cls, ctx),
        )
