"""JIT628: a module attribute compiled code reads but that no code of the class ever sets."""

from __future__ import annotations

import libcst as cst

from jitlint.facts.torch_api import NN_MODULE_NAMES
from jitlint.project import ClassInfo
from jitlint.rules.base import RuleContext
from jitlint.targets.script.members import (
    guarded_by_hasattr, module_owners, names_set_in_class, plain_class_body, self_attribute_name,
)
from jitlint.targets.script.rules import ScriptRule


class AttributeNeverSet(ScriptRule):
    code = "JIT628"
    name = "attribute-never-set"
    severity = "error"
    summary = "`self.scale` read in compiled code when no code of the class (or its bases) sets it"
    message = "a module attribute read by compiled code that the class never sets"

    def visit_Attribute(self, node: cst.Attribute, ctx: RuleContext) -> None:
        name = self_attribute_name(node, ctx)
        if name is None or name.startswith("__") or name in NN_MODULE_NAMES:
            return
        parent = ctx.parent
        if isinstance(parent, (cst.AssignTarget, cst.AugAssign, cst.AnnAssign, cst.Del)):
            return  # a store (JIT601's business)
        owners = module_owners(ctx)
        if not owners:
            return
        if all(name in _ignored_attributes(owner, ctx) for owner in owners):
            ctx.report(node, (
                f"`{name}` is listed in `__jit_ignored_attributes__`, so the scripted module leaves it out, and "
                f"compiled code cannot read it (torch: \"Module '...' has no attribute '{name}' attribute was ignored "
                f"during compilation\"); drop it from the list, or read it only in an `@torch.jit.ignore` method"))
            return
        if any(ctx.project.attributes(owner).get(name) is not None for owner in owners):
            return  # the index saw it set (the common case: checked first, it is the cheapest)
        if guarded_by_hasattr(name, ctx):
            return  # torch folds `hasattr(self, "name")` to False and drops the branch
        if not all(self._never_set(owner, name, ctx) for owner in owners):
            return
        ctx.report(
            node,
            f"`self.{name}` is read here, but no code of the class sets it, so the module has no attribute "
            f"`{name}` when it is scripted (torch: \"Module '...' has no attribute '{name}'\"); set it in `__init__`",
        )

    @staticmethod
    def _never_set(owner: ClassInfo, name: str, ctx: RuleContext) -> bool:
        project = ctx.project
        if project.attributes(owner).get(name) is not None:
            return False  # the index saw it set (the common case: checked first, it is the cheapest)
        mro = project.mro(owner)
        if any(cls.dynamic_attributes or not plain_class_body(cls) or "__getattr__" in cls.methods
               or cls.node.decorators for cls in mro):
            return False  # attributes made by code jitlint does not follow (a decorator such as @dataclass too)
        if project.torch_bases(owner) - {"torch.nn.Module"}:
            return False  # a torch base class such as nn.Linear has attributes jitlint does not see
        resolved = {id(cls) for cls in mro}
        for cls in mro:
            for base in cls.base_names:
                if base is None:
                    return False
                if base.startswith("torch.") or base == "builtins.object":
                    continue
                found = project.resolve_class(base)
                if found is None or id(found) not in resolved:
                    return False  # a base class from elsewhere may set it
        if any(name in cls.methods or name in names_set_in_class(cls, project) for cls in mro):
            return False
        return project.attributes(owner).get(name) is None


def _ignored_attributes(cls: ClassInfo, ctx: RuleContext) -> frozenset[str]:
    """The names a class body (its own or a base's, the first that has one) lists in `__jit_ignored_attributes__`
    as literal strings: `torch/jit/_recursive.py` leaves them out of the scripted module's type."""
    for current in ctx.project.mro(cls):
        body = current.node.body.body if isinstance(current.node.body, cst.IndentedBlock) else ()
        for statement in body:
            for small in statement.body if isinstance(statement, cst.SimpleStatementLine) else ():
                if not (isinstance(small, cst.Assign) and len(small.targets) == 1
                        and isinstance(small.targets[0].target, cst.Name)
                        and small.targets[0].target.value == "__jit_ignored_attributes__"):
                    continue
                value = small.value
                if not isinstance(value, (cst.List, cst.Tuple)):
                    return frozenset()
                return frozenset(element.value.evaluated_value for element in value.elements
                                 if isinstance(element.value, cst.SimpleString))
    return frozenset()
