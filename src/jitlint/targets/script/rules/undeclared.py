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
        if not owners or any(ctx.project.attributes(owner).get(name) is not None for owner in owners):
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
