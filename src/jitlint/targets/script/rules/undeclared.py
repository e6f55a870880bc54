"""JIT628: a module attribute compiled code reads but that no code of the class ever sets."""

from __future__ import annotations

import libcst as cst

from jitlint.facts import RunFact, run_fact
from jitlint.walk import walk
from jitlint.project import ClassInfo
from jitlint.rules.base import RuleContext
from jitlint.targets.script.rules import ScriptRule
from jitlint.targets.script.rules.attributes import _owners, _self_target

# What every nn.Module has (`dir(torch.nn.Module())` on torch 2.13, less the dunder names).
_NN_MODULE_NAMES = frozenset("""
T_destination _apply _backward_hooks _backward_pre_hooks _buffers _call_impl _compiled_call_impl _forward_hooks
_forward_hooks_always_called _forward_hooks_with_kwargs _forward_pre_hooks _forward_pre_hooks_with_kwargs
_get_backward_hooks _get_backward_pre_hooks _get_name _is_full_backward_hook _load_from_state_dict
_load_state_dict_post_hooks _load_state_dict_pre_hooks _maybe_warn_non_full_backward_hook _modules _named_members
_non_persistent_buffers_set _parameters _register_load_state_dict_pre_hook _register_state_dict_hook
_replicate_for_data_parallel _save_to_state_dict _slow_forward _state_dict_hooks _state_dict_pre_hooks _version
_wrapped_call_impl add_module apply bfloat16 buffers call_super_init children compile cpu cuda double dump_patches
eval extra_repr float forward get_buffer get_extra_state get_parameter get_submodule half ipu load_state_dict
modules mtia named_buffers named_children named_modules named_parameters parameters register_backward_hook
register_buffer register_forward_hook register_forward_pre_hook register_full_backward_hook
register_full_backward_pre_hook register_load_state_dict_post_hook register_load_state_dict_pre_hook
register_module register_parameter register_state_dict_post_hook register_state_dict_pre_hook requires_grad_
set_extra_state set_submodule share_memory state_dict to to_empty train training type xpu zero_grad
""".split())


def _plain_body(cls: ClassInfo) -> bool:
    """A class body of methods and simple statements only (an attribute defined under an `if` or a `try` in the
    class body, or by a nested class, is not indexed)."""
    body = cls.node.body.body if isinstance(cls.node.body, cst.IndentedBlock) else ()
    return all(isinstance(statement, (cst.FunctionDef, cst.SimpleStatementLine)) for statement in body)


class _HasattrTest(cst.CSTVisitor):
    """Whether an expression calls `hasattr(..., "name")`."""

    def __init__(self, name: str, ctx: RuleContext) -> None:
        self.name = name
        self.ctx = ctx
        self.found = False

    def visit_Call(self, node: cst.Call) -> None:
        if (self.ctx.qualify(node.func) == "builtins.hasattr" and len(node.args) == 2
                and isinstance(node.args[1].value, cst.SimpleString)
                and node.args[1].value.evaluated_value == self.name):
            self.found = True


def _guarded_by_hasattr(name: str, ctx: RuleContext) -> bool:
    """Inside an `if`, `while`, if-expression or boolean operation whose test asks `hasattr(..., "name")`."""
    find = _HasattrTest(name, ctx)
    for ancestor in ctx.ancestors:
        test = getattr(ancestor, "test", None) if isinstance(ancestor, (cst.If, cst.While, cst.IfExp)) else None
        if isinstance(ancestor, cst.BooleanOperation):
            test = ancestor.left
        if test is not None:
            walk(test, find)
            if find.found:
                return True
    return False


class NamesSetInClass(RunFact):
    """Every name a class's code may set as an attribute, found wider than the project index does: `self.<name>`
    anywhere inside an assignment, loop, `with` or walrus target (tuple unpacking `self.a, self.b = ...` too), and
    every string literal of the class (`setattr(self, "name", ...)`, `register_buffer("name", ...)`)."""

    @classmethod
    def compute(cls, project, owner: ClassInfo) -> frozenset[str]:
        targets = _SetTargets()
        walk(owner.node, targets)
        return frozenset(targets.names)


def _named_in(cls: ClassInfo, project) -> frozenset[str]:
    return run_fact(project, NamesSetInClass, cls)


class _SetTargets(cst.CSTVisitor):
    """For `_named_in`: the attribute names in targets, and every string literal."""

    def __init__(self) -> None:
        self.names: set[str] = set()
        self.attributes = _AttributeNames(self.names)

    def _collect(self, target: cst.CSTNode) -> None:
        walk(target, self.attributes)

    def visit_AssignTarget(self, node: cst.AssignTarget) -> None:
        self._collect(node.target)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        self._collect(node.target)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        self._collect(node.target)

    def visit_For(self, node: cst.For) -> None:
        self._collect(node.target)

    def visit_AsName(self, node: cst.AsName) -> None:
        self._collect(node.name)

    def visit_NamedExpr(self, node: cst.NamedExpr) -> None:
        self._collect(node.target)

    def visit_SimpleString(self, node: cst.SimpleString) -> None:
        value = node.evaluated_value
        if isinstance(value, str):
            self.names.add(value)


class _AttributeNames(cst.CSTVisitor):
    def __init__(self, names: set[str]) -> None:
        self.names = names

    def visit_Attribute(self, node: cst.Attribute) -> None:
        self.names.add(node.attr.value)


class AttributeNeverSet(ScriptRule):
    code = "JIT628"
    name = "attribute-never-set"
    severity = "error"
    summary = "`self.scale` read in compiled code when no code of the class (or its bases) sets it"
    message = "a module attribute read by compiled code that the class never sets"

    def visit_Attribute(self, node: cst.Attribute, ctx: RuleContext) -> None:
        name = _self_target(node, ctx)
        if name is None or name.startswith("__") or name in _NN_MODULE_NAMES:
            return
        parent = ctx.parent
        if isinstance(parent, cst.Call) and parent.func is node:
            return  # a method call: another message, and methods nn.Module provides
        if isinstance(parent, (cst.AssignTarget, cst.AugAssign, cst.AnnAssign, cst.Del)):
            return  # a store (JIT601's business)
        owners = _owners(ctx)
        if not owners or any(ctx.project.attributes(owner).get(name) is not None for owner in owners):
            return  # the index saw it set (the common case: checked first, it is the cheapest)
        if _guarded_by_hasattr(name, ctx):
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
        if any(cls.dynamic_attributes or not _plain_body(cls) or "__getattr__" in cls.methods
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
        if any(name in cls.methods or name in _named_in(cls, project) for cls in mro):
            return False
        return project.attributes(owner).get(name) is None
