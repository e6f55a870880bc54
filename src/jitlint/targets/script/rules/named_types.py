"""JIT226-221: Enum and NamedTuple classes compiled code uses, checked the way torch builds their TorchScript types
(`torch/jit/_recursive.py`, `torch/_jit_internal.py`, the C++ `python_sugared_value` for enums): an Enum's values
must be all int, all float or all str; a NamedTuple field of type Tensor cannot have a default.

Both rules look at the class when compiled code names it (an annotation, a construction, a member), and report
there, once per class and function: torch builds the type the first time the frontend meets it, and names no line.
"""

from __future__ import annotations

import libcst as cst

from jitlint.wording import a

from jitlint.project import ClassInfo
from jitlint.rules.base import RuleContext
from jitlint.targets.script.claims import results_for
from jitlint.targets.script.facts import ScriptTypes
from jitlint.targets.script.rules import ScriptRule

_ENUM_BASES = frozenset({"enum.Enum"})
_NAMED_TUPLE = frozenset({"typing.NamedTuple", "typing_extensions.NamedTuple"})
_TENSOR = frozenset({"torch.Tensor"})


def _literal_type(node: cst.BaseExpression) -> str | None:
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, (cst.Minus, cst.Plus)):
        node = node.expression
    if isinstance(node, cst.Integer):
        return "int"
    if isinstance(node, cst.Float):
        return "float"
    if isinstance(node, (cst.SimpleString, cst.ConcatenatedString)):
        return "str"
    return None


def _members(cls: ClassInfo):
    body = cls.node.body.body if isinstance(cls.node.body, cst.IndentedBlock) else ()
    for statement in body:
        if isinstance(statement, cst.SimpleStatementLine):
            for small in statement.body:
                if isinstance(small, cst.Assign) and len(small.targets) == 1:
                    target = small.targets[0].target
                    if isinstance(target, cst.Name) and not target.value.startswith("_"):
                        yield target.value, small.value
                elif isinstance(small, cst.AnnAssign) and isinstance(small.target, cst.Name):
                    yield small.target.value, small


def enum_problem(cls: ClassInfo, ctx: RuleContext) -> str | None:
    """Why torch cannot make a TorchScript type of an Enum: a value that is not an int, float or str literal (a
    display, a torch call), or literals of different types. None when it can, or when jitlint cannot tell."""
    types: dict[str, str] = {}
    for name, value in _members(cls):
        if isinstance(value, cst.AnnAssign):
            return None  # an annotated member: not the plain form this check reads
        kind = _literal_type(value)
        if kind is not None:
            types[name] = kind
            continue
        if isinstance(value, (cst.List, cst.Tuple, cst.Dict, cst.Set, cst.ListComp, cst.DictComp)):
            return (f"the value of `{cls.name}.{name}` is {a(type(value).__name__.lower())}, and TorchScript enums hold "
                    f"only int, float or str values ('Cannot create Enum with value type 'Any'')")
        if isinstance(value, cst.Call) and (ctx.module.imports.qualify(value.func) or "").startswith("torch."):
            return (f"the value of `{cls.name}.{name}` is a Tensor, and TorchScript enums hold only int, float or str "
                    f"values ('Cannot create Enum with value type 'Tensor'')")
        return None  # a name, `auto()`, another call: its type is not known here
    if len(set(types.values())) > 1:
        listed = ", ".join(f"`{name}` is {kind}" for name, kind in types.items())
        return (f"the values of `{cls.name}` have different types ({listed}); TorchScript enums hold values of one "
                f"type ('Could not unify type list')")
    return None


def namedtuple_problem(cls: ClassInfo, ctx: RuleContext) -> str | None:
    imports = cls.module.imports
    for name, value in _members(cls):
        if not isinstance(value, cst.AnnAssign) or value.value is None:
            continue
        if imports.qualify(value.annotation.annotation) in _TENSOR:
            return (f"the field `{cls.name}.{name}` is a Tensor with a default value ('Tensors are not supported as "
                    f"default NamedTuple fields'); drop the default, or make it `Optional[Tensor] = None`")
    return None


class _NamedTypeRule(ScriptRule):
    file_hooks_report_visits = True
    bases: frozenset[str]

    def begin_file(self, ctx: RuleContext) -> None:
        # Keyed by ids, holding the nodes: an id is only trusted while its node is alive and the same.
        self.reported: dict[tuple[int, int], tuple[cst.CSTNode, cst.CSTNode]] = {}

    def problem(self, cls: ClassInfo, ctx: RuleContext) -> str | None:
        raise NotImplementedError

    def _check(self, node: cst.BaseExpression, ctx: RuleContext) -> None:
        if ctx.function is None:
            return
        head = node
        while isinstance(head, cst.Attribute):
            head = head.value
        imports = ctx.module.imports
        if not isinstance(head, cst.Name) or (head.value not in imports.aliases and head.value not in ctx.module.classes):
            return  # cheap: only names of this module's classes, or imported names, can be a project class
        qualified = ctx.qualify(node)
        if qualified is None:
            return
        cls = ctx.project.resolve_class(qualified)
        if cls is None or not set(cls.base_names) & self.bases:
            return
        function_node = ctx.function.info.node
        key = (id(function_node), id(cls.node))
        seen = getattr(self, "reported", None)
        if seen is None:
            seen = self.reported = {}
        if key in seen and seen[key][0] is function_node and seen[key][1] is cls.node:
            return
        problem = self.problem(cls, ctx)
        if problem is not None:
            seen[key] = (function_node, cls.node)
            ctx.report(node, problem)

    def visit_Name(self, node: cst.Name, ctx: RuleContext) -> None:
        parent = ctx.parent
        if isinstance(parent, cst.Attribute) and parent.attr is node:
            return
        self._check(node, ctx)

    def visit_Attribute(self, node: cst.Attribute, ctx: RuleContext) -> None:
        self._check(node, ctx)


class EnumValueType(_NamedTypeRule):
    code = "JIT226"
    name = "enum-value-type"
    severity = "error"
    scope = "signature"
    summary = (
        "an Enum compiled code uses whose values are not all int, all float or all str literals (a list, a tuple, a "
        "Tensor, mixed types)"
    )
    message = "Enum whose values TorchScript cannot type"
    facts = (ScriptTypes,)

    def visit_FunctionDef(self, node: cst.FunctionDef, ctx: RuleContext) -> None:

        for result in results_for(self, node, ctx):  # a member the Enum does not define
            ctx.report(result.node, f"`{result.cls}` has no member `{result.name}` (torch: \"Enum<{result.type}>' has "
                                    f"no attribute '{result.name}'\")")
    bases = _ENUM_BASES

    def problem(self, cls: ClassInfo, ctx: RuleContext) -> str | None:
        return enum_problem(cls, ctx)


class NamedTupleTensorDefault(_NamedTypeRule):
    code = "JIT227"
    name = "namedtuple-tensor-default"
    severity = "error"
    scope = "signature"
    summary = "a NamedTuple compiled code uses with a `Tensor` field that has a default value"
    message = "NamedTuple Tensor field with a default value"
    bases = _NAMED_TUPLE

    def problem(self, cls: ClassInfo, ctx: RuleContext) -> str | None:
        return namedtuple_problem(cls, ctx)


def unresolved_field_annotation(cls: ClassInfo, ctx: RuleContext) -> str | None:
    """A NamedTuple field annotated with a string naming nothing the class's module defines: torch resolves field
    annotations itself and fails on a `ForwardRef` it cannot resolve."""
    import re

    from jitlint.targets.script.scopes import BUILTIN_NAMES, module_globals

    known = module_globals(cls.module.tree, cls.module.text)
    if known is None:
        return None
    for name, value in _members(cls):
        if not isinstance(value, cst.AnnAssign):
            continue
        annotation = value.annotation.annotation
        if not isinstance(annotation, cst.SimpleString) or not isinstance(annotation.evaluated_value, str):
            continue
        text = annotation.evaluated_value.strip()
        if not re.fullmatch(r"[A-Za-z_][A-Za-z_0-9]*(\.[A-Za-z_][A-Za-z_0-9]*)*", text):
            continue
        head = text.split(".", 1)[0]
        if head not in known and head not in BUILTIN_NAMES:
            return (f"the field `{cls.name}.{name}` is annotated `\"{text}\"`, which names nothing this module "
                    f"defines or imports ('Unknown type annotation: 'ForwardRef('{text}')' in NamedTuple "
                    f"{cls.name}'); import the type, or annotate with it directly")
    return None


class NamedTupleUnresolvedAnnotation(_NamedTypeRule):
    code = "JIT228"
    name = "namedtuple-unresolved-annotation"
    severity = "error"
    scope = "signature"
    summary = "a NamedTuple compiled code uses with a field annotated by a string naming nothing the module defines"
    message = "NamedTuple field whose string annotation names nothing defined"
    bases = _NAMED_TUPLE

    def problem(self, cls: ClassInfo, ctx: RuleContext) -> str | None:
        return unresolved_field_annotation(cls, ctx)
