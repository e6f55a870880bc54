"""JIT608: project classes torch must compile as TorchScript classes and cannot (a dataclass, whose generated
methods have no source; a class with a method taking `*args`/`**kwargs`; a method whose `# type:` comment names a
type through its module): held by a module attribute (its class-level annotation, or the value `__init__` stores
that compiled code reads), built in compiled code, or named in a compiled function's signature."""

from __future__ import annotations

import libcst as cst

from jitlint.facts.signature import signature_comment
from jitlint.facts.syntax import calls_in
from jitlint.project import ClassInfo, decorator_names
from jitlint.rules.base import PendingEdit, PendingFix, RuleContext
from jitlint.targets.script.members import (
    DATACLASS_DECORATORS, annotation_uncompilable_reason, dataclass_method, module_owners, self_attribute_load,
)
from jitlint.targets.script.rules import ScriptRule
from jitlint.targets.script.typing.annotations import has_annotations
from jitlint.targets.script.typing.class_names import compiled_as_class, resolver_texts, unresolved_in_class


def uncompilable_reason(cls: ClassInfo, ctx: RuleContext) -> str | None:
    """Why torch cannot convert an unannotated attribute holding an instance of a project class that compiled code
    reads (a dataclass, or an `__init__`, its own or a base's, taking `*args`/`**kwargs`)."""
    project = ctx.project
    for current in project.mro(cls):
        if decorator_names(current.node, current.module.imports) & DATACLASS_DECORATORS:
            return f"`{current.name}` is a dataclass (torch cannot get the source of its generated `__init__`)"
    init = project.find_method(cls, "__init__")
    if init is not None:
        params = init.node.params
        for star in (params.star_arg, params.star_kwarg):
            if isinstance(star, cst.Param):
                where = f"{init.cls.name}.__init__" if init.cls else "__init__"
                return f"`{where}` takes `*{star.name.value}`" if star is params.star_arg else f"`{where}` takes `**{star.name.value}`"
    return None


class UncompilableAttributeClass(ScriptRule):
    code = "JIT608"
    name = "uncompilable-attribute-class"
    severity = "error"
    summary = "an attribute whose project class is a dataclass or takes `**kwargs` (found across files)"
    fix = "safe"
    scope = "anywhere"
    outside_handlers = frozenset({"ClassDef"})  # its `self.x` reads are in compiled code
    message = "module attribute of a class TorchScript cannot compile"
    whole_class = "same-error"  # the annotation's class fails to compile before any line of the module
    reports_only_in = "module-class"  # outside compiled code; the calls and signatures it checks are compiled
    checked_handlers = frozenset({("visit", "Attribute"), ("visit", "ClassDef"), ("visit", "Call"),
                                  ("visit", "FunctionDef")})

    def visit_Call(self, node: cst.Call, ctx: RuleContext) -> None:
        # `Result(x, q)` in compiled code: torch compiles the class it builds. Once per compiled function and class
        # (torch stops at the first): not when the signature names it, nor after an earlier call that builds it.
        if ctx.function is None or not ctx.function.body_captured or ctx.in_pruned_branch:
            return
        found = self._dataclasses(node.func, ctx)
        if not found:
            return
        part, target, reason = found[0]
        function = ctx.function.info.node
        if any(other is target for _part, other, _reason in self._signature(function, ctx)):
            return
        for call in calls_in(function):
            if call is node:
                break
            if any(other is target for _part, other, _reason in self._dataclasses(call.func, ctx)):
                return
        self._report(part, target, reason, "builds", ctx)

    def visit_FunctionDef(self, node: cst.FunctionDef, ctx: RuleContext) -> None:
        # a compiled function whose signature names such a class (`sample: Attributes`, `-> List[Attributes]`):
        # torch compiles the class to type the signature, and names the `def`
        if ctx.function is None or ctx.function.info.node is not node or not ctx.function.body_captured:
            return
        found = self._signature(node, ctx)
        if found:
            self._report(*found[0], "names", ctx)

    def _signature(self, function: cst.FunctionDef, ctx: RuleContext) -> list:
        params = function.params
        annotations = [p.annotation.annotation for p in (*params.posonly_params, *params.params,
                                                         *params.kwonly_params) if p.annotation is not None]
        if function.returns is not None:
            annotations.append(function.returns.annotation)
        return [found for annotation in annotations for found in self._dataclasses(annotation, ctx)]

    @staticmethod
    def _dataclasses(expression: cst.BaseExpression, ctx: RuleContext) -> list:
        """(name node, class, why torch cannot compile it) for each project dataclass `expression` names (a callee,
        or an annotation through TorchScript's containers). Only dataclasses: a class with a method taking
        `*args`/`**kwargs` is compiled with the class, and JIT108 points at that method."""
        found = []
        for part in _class_names(expression, ctx.module.imports):
            target = ctx.project.resolve_class(ctx.qualify(part))
            if target is None:
                continue
            dataclass = dataclass_method(ctx, target) is not None or bool(
                decorator_names(target.node, target.module.imports) & DATACLASS_DECORATORS)
            reason = annotation_uncompilable_reason(target, ctx) if dataclass else unresolved_comment_type(target, ctx)
            if reason is not None and not ctx.project.is_module_class(target):
                found.append((part, target, reason))
        return found

    @staticmethod
    def _report(part, target: ClassInfo, reason: str, how: str, ctx: RuleContext) -> None:
        advice = ("Write the type as the comment's own module would not need it (`Any`, `Optional[int]`, imported "
                  "by name)" if reason.startswith(_COMMENT_REASON) else "Pass the fields as Tensors or a tuple")
        ctx.report(part, f"this {how} `{target.name}` (module `{target.module.name}`), which torch must compile as a "
                         f"TorchScript class, and it cannot: {reason}. {advice}, or move this code into a "
                         f"`@torch.jit.ignore` function")

    def visit_ClassDef(self, node: cst.ClassDef, ctx: RuleContext) -> None:
        cls = ctx.module_class(node)
        if cls is None:
            return
        if any("__jit_ignored_attributes__" in current.string_lists for current in ctx.project.mro(cls)):
            return
        attributes = ctx.project.attributes(cls)
        for name, info in cls.own_attributes.items():
            if info.annotation is None:
                continue
            # torch types the annotation only for an attribute the instance has (`__init__` sets it); a base
            # class annotating what only subclasses set is JIT631's, at each subclass torch rejects
            seen = attributes.get(name)
            if seen is None or "__init__" not in seen.assigned_in:
                continue
            target = ctx.project.resolve_class(ctx.qualify(info.annotation))
            reason = (annotation_uncompilable_reason(target, ctx) or unresolved_comment_type(target, ctx)
                      if target is not None else None)
            if reason is not None and not ctx.project.is_module_class(target):
                ctx.report(info.annotation, f"`{name}: {target.name}` makes torch compile `{target.name}` "
                           f"(module `{target.module.name}`) as a TorchScript class, and it cannot: {reason}. Store "
                           f"the fields compiled code needs as plain attributes in `__init__` (`self.hidden = "
                           f"config.hidden`), and drop the class-level annotation",
                           fix=drop_class_annotation(info.annotation, node, ctx))

    def visit_Attribute(self, node: cst.Attribute, ctx: RuleContext) -> None:
        if ctx.function is None or not ctx.function.body_captured or ctx.in_pruned_branch:
            return
        found = self_attribute_load(node, ctx)
        if found is None:
            return
        name, _info = found
        for owner in module_owners(ctx):
            info = ctx.project.attributes(owner).get(name)
            if info is None or info.annotation is not None:
                continue
            for constructor in info.constructors:
                target = ctx.project.resolve_class(constructor)
                reason = uncompilable_reason(target, ctx) if target is not None else None
                if reason is not None and not ctx.project.is_module_class(target):
                    ctx.report(node, f"`self.{name}` holds a `{target.name}`, which compiled code reads, so torch "
                                     f"must convert it to a TorchScript class, and it cannot: {reason}. Copy the "
                                     f"fields compiled code needs to plain attributes in `__init__`")
                    return


_CONTAINERS = frozenset({"typing.List", "typing.Dict", "typing.Tuple", "typing.Optional", "typing.Union",
                         "builtins.list", "builtins.dict", "builtins.tuple"})


def _class_names(expression: cst.BaseExpression, imports) -> list[cst.BaseExpression]:
    """The names in a callee or an annotation that may be classes: the expression itself, or the elements of the
    TorchScript containers it subscripts (`List[Result]`, `Optional[Tuple[Result, int]]`, `Result | None`),
    recursively; not inside other subscripts (`type[Result]` is no TorchScript type: torch fails on it first)."""
    if isinstance(expression, (cst.Name, cst.Attribute)):
        return [expression]
    if isinstance(expression, cst.Subscript) and imports.qualify(expression.value) in _CONTAINERS:
        return [name for element in expression.slice if isinstance(element.slice, cst.Index)
                for name in _class_names(element.slice.value, imports)]
    if isinstance(expression, cst.BinaryOperation) and isinstance(expression.operator, cst.BitOr):
        return _class_names(expression.left, imports) + _class_names(expression.right, imports)
    return []


# -- a TorchScript class's type comments ---------------------------------------------------------------------
_SKIPPED_METHODS = frozenset({"torch.jit._drop", "torch.jit.unused", "torch.jit.ignore"})
_COMMENT_REASON = "its method"


def unresolved_comment_type(cls: ClassInfo, ctx: RuleContext) -> str | None:
    """Why torch cannot compile the project class `cls` as a TorchScript class because of a method's `# type:`
    comment (the signature of a method with no annotation): a dotted type name its class resolver cannot find."""
    if not compiled_as_class(cls, ctx.project):
        return None
    texts: frozenset[str] | None = None
    for name, method in cls.methods.items():
        if method.decorators & _SKIPPED_METHODS or method.is_property:
            continue
        node = method.node
        if has_annotations(node):
            continue
        comment = signature_comment(node)
        if comment is None or comment.params is None:
            continue
        if texts is None:
            texts = resolver_texts(cls)
        for expression in (*comment.params, comment.returns):
            problem = unresolved_in_class(expression, texts) if expression is not None else None
            if problem is not None:
                return (f"{_COMMENT_REASON} `{name}` types its signature in a `# type:` comment, and torch resolves "
                        f"the names there without their modules in a TorchScript class (torch: \"{problem}\")")
    return None



# -- fixes ----------------------------------------------------------------------------------------------------


def drop_class_annotation(annotation: cst.BaseExpression, cls: cst.ClassDef, ctx: RuleContext) -> PendingFix | None:
    """JIT608: drop the class-level `config: ModelConfig` that makes torch compile the class (a bare annotation
    does nothing when eager Python runs the class). Safe. Only for a bare annotation on its own line, not the last
    statement of the class body, when the blank lines after it hold no comment (they go with it)."""
    if not isinstance(cls.body, cst.IndentedBlock):
        return None
    body = list(cls.body.body)
    for index, statement in enumerate(body):
        if (isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1
                and isinstance(statement.body[0], cst.AnnAssign) and statement.body[0].annotation.annotation is annotation
                and statement.body[0].value is None):
            if index + 1 >= len(body):
                return None
            following = body[index + 1]
            if any(line.comment is not None for line in getattr(following, "leading_lines", ())):
                return None
            if isinstance(following, (cst.FunctionDef, cst.ClassDef)) and following.decorators:
                return None  # its position starts at `def`: the removal would take the decorators
            return PendingFix("drop the class-level annotation", [PendingEdit(statement, "", until=following)])
    return None
