"""How torch resolves the type names of a TorchScript class's methods (`# type:` comments, annotations of local
variables, `torch.jit.annotate`), which differs from a module's methods and from functions.

torch compiles a TorchScript class's methods with one resolver made from the class
(`torch._jit_internal.createResolutionCallbackForClassMethods`): a name is looked up whole among the methods'
globals and closures and the source text of their signature annotations (`get_type_hint_captures`), then among the
builtins. The C++ type parser (`ScriptTypeParser::parseTypeFromExpr`) asks it for the whole text of a type, then
(`parseTypeFromExprImpl`) for each base name: so a dotted name (`typing.Any`, `t.Optional[int]`) is "Unknown type
name" or "Unknown type constructor", where a module's method or a function (whose resolver follows the dots) reads
it. `torch.Tensor` and its subtypes are the parser's own names. Signature annotations are evaluated by Python
(`torch.jit.annotations.get_signature`), so they are not concerned.
"""

from __future__ import annotations

import builtins
from typing import TYPE_CHECKING

import libcst as cst

from jitlint.targets.script.typing.annotations import class_type

if TYPE_CHECKING:
    from jitlint.project import ClassInfo, ProjectIndex

_TENSOR_NAMES = frozenset({"Tensor", "LongTensor", "FloatTensor", "DoubleTensor", "IntTensor", "ShortTensor",
                           "HalfTensor", "CharTensor", "ByteTensor", "BoolTensor"})
# `ScriptTypeParser::subscriptToType`: the constructors it knows by name
_PARSER_CONSTRUCTORS = frozenset({"Tuple", "List", "Optional", "Union", "Future", "torch.jit.Future", "RRef", "Dict"})
_EMPTY = cst.Module([])


def compiled_as_class(cls: "ClassInfo", project: "ProjectIndex") -> bool:
    """Whether torch compiles the project class as a TorchScript class where compiled code builds or names it: a
    plain class (not a module, NamedTuple, Enum or interface), and not a subclass of an exception, a tuple or a list
    (`torch._jit_internal.can_compile_class` refuses those)."""
    kind = class_type(cls, project)
    if kind is None or kind.name != "Class":
        return False
    for current in project.mro(cls):
        for base in current.base_names:
            if base and base.startswith("builtins."):
                found = getattr(builtins, base[len("builtins."):], None)
                if isinstance(found, type) and issubclass(found, (BaseException, tuple, list)):
                    return False
    return True


def unresolved_in_class(expression: cst.BaseExpression, texts: frozenset[str], whole: bool = True) -> str | None:
    """torch's error for a type written in a TorchScript class's method (`texts`: `resolver_texts` of the class),
    when a dotted name in it resolves to nothing; None when it resolves (or is another rule's concern)."""
    if whole and _EMPTY.code_for_node(expression) in texts:
        return None
    if isinstance(expression, cst.Subscript):
        base = _base_name(expression.value)
        if base is None:
            return None
        if base not in _PARSER_CONSTRUCTORS:
            return f"Unknown type constructor {base}" if "." in base else None
        for element in expression.slice:
            if isinstance(element.slice, cst.Index):
                problem = unresolved_in_class(element.slice.value, texts, False)
                if problem is not None:
                    return problem
        return None
    if isinstance(expression, cst.Attribute):
        base = _base_name(expression)
        if base is None or base in _TENSOR_NAMES or base in texts:
            return None
        return f"Unknown type name '{base}'"
    return None


def _base_name(node: cst.BaseExpression) -> str | None:
    """`ScriptTypeParser::parseBaseTypeName`: a name, `torch.Tensor` (and subtypes) as `Tensor`, else the dotted
    name."""
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        if isinstance(node.value, cst.Name) and node.value.value == "torch" and node.attr.value in _TENSOR_NAMES:
            return node.attr.value
        parts = []
        while isinstance(node, cst.Attribute):
            parts.append(node.attr.value)
            node = node.value
        if not isinstance(node, cst.Name):
            return None
        return ".".join([node.value, *reversed(parts)])
    return None


def resolver_texts(cls: "ClassInfo") -> frozenset[str]:
    """The dotted keys the class's resolver holds (`get_type_hint_captures`): the source text (`get_annotation_str`)
    of the annotations of each method's positional parameters and return, when they are not strings at run time
    (none is, under `from __future__ import annotations`)."""
    if _postponed(cls.module.tree):
        return frozenset()
    texts = set()
    for method in cls.methods.values():
        node = method.node
        annotations = [param.annotation for param in node.params.params if param.annotation is not None]
        if node.returns is not None:
            annotations.append(node.returns)
        for annotation in annotations:
            if isinstance(annotation.annotation, (cst.SimpleString, cst.ConcatenatedString)):
                continue
            text = _annotation_text(annotation.annotation)
            if text is not None:
                texts.add(text)
    return frozenset(texts)


def _annotation_text(node: cst.BaseExpression) -> str | None:
    """`torch._jit_internal.get_annotation_str`: names and attributes dotted, subscripts with their elements joined
    by `,` (no space), constants as `str` gives them."""
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        return f"{_annotation_text(node.value)}.{node.attr.value}"
    if isinstance(node, cst.Subscript):
        inner = [_annotation_text(element.slice.value) if isinstance(element.slice, cst.Index) else None
                 for element in node.slice]
        return f"{_annotation_text(node.value)}[{','.join(str(text) for text in inner)}]"
    if isinstance(node, (cst.Integer, cst.Float, cst.SimpleString)):
        return str(node.evaluated_value)
    return None


def _postponed(tree: cst.Module) -> bool:
    for statement in tree.body:
        if isinstance(statement, cst.SimpleStatementLine):
            for small in statement.body:
                if isinstance(small, cst.ImportFrom) and isinstance(small.module, cst.Name) and \
                        small.module.value == "__future__" and not isinstance(small.names, cst.ImportStar) and \
                        any(alias.name.value == "annotations" for alias in small.names):
                    return True
    return False
