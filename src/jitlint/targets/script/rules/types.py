"""JIT2xx: annotations TorchScript needs, and annotations it cannot read."""

from __future__ import annotations

import re

import libcst as cst

from jitlint.rules.base import PendingEdit, PendingFix, RuleContext
from jitlint.targets.script.facts import FlowEvents
from jitlint.targets.script.flow_messages import suggested_annotation
from jitlint.targets.script.infer import (
    has_annotations,
    comment_count_mismatch,
    is_overload_implementation,
    overload_group,
    signature_comment,
)
from jitlint.targets.script.rewrite import annotate_param, builtin_generics, compiled_function
from jitlint.targets.script.rules import ScriptRule
from jitlint.targets.script.rules._expr import called_params, is_str_literal, literal_type, unannotated_tensor_param
from jitlint.targets.script.typeflow import Problem
from jitlint.walk import walk


# Verified on torch 2.13: each fails with "Unknown type constructor X" (subscripted) or "Unknown type name".
UNSUPPORTED_CONSTRUCTORS = frozenset(
    f"{module}.{name}"
    for module in ("typing", "typing_extensions", "collections.abc")
    for name in ("Callable", "Sequence", "MutableSequence", "Iterable", "Iterator", "Mapping", "MutableMapping",
                 "Set", "AbstractSet", "MutableSet", "FrozenSet", "Type", "Literal", "DefaultDict", "OrderedDict",
                 "Deque", "Generator", "AsyncIterator", "Collection", "Container", "Reversible")
) | {"builtins.set", "builtins.frozenset", "builtins.type"}
UNSUPPORTED_NAMES = UNSUPPORTED_CONSTRUCTORS | {
    "builtins.object", "builtins.bytes", "typing.Hashable", "collections.abc.Hashable", "typing.NoReturn",
    "typing.Never", "torch.Size", "numpy.ndarray",
}
_TUPLE = frozenset({"typing.Tuple", "builtins.tuple"})
_SUGGESTIONS = {
    "Sequence": "List[...]", "MutableSequence": "List[...]", "Iterable": "List[...]", "Iterator": "List[...]",
    "Collection": "List[...]", "Set": "List[...]", "AbstractSet": "List[...]", "FrozenSet": "List[...]",
    "set": "List[...]", "frozenset": "List[...]", "Mapping": "Dict[...]", "MutableMapping": "Dict[...]",
    "OrderedDict": "Dict[...]", "DefaultDict": "Dict[...]", "Deque": "List[...]", "Literal": "str or int",
    "Size": "List[int]", "object": "Any", "ndarray": "torch.Tensor",
}


def _typed_by_comment(ctx: RuleContext) -> bool:
    """The parameters of the function being checked are typed by a `# type:` signature comment."""
    if ctx.function is None:
        return False
    function = ctx.function.info.node
    return signature_comment(function) is not None or is_overload_implementation(function, ctx.module.tree)


def _written_type(annotation: cst.BaseExpression) -> cst.BaseExpression | None:
    """An annotation as the type it names: a string (a forward reference) parsed, None when it does not parse."""
    if not isinstance(annotation, cst.SimpleString):
        return annotation
    value = annotation.evaluated_value
    try:
        return cst.parse_expression(value) if isinstance(value, str) else None
    except cst.ParserSyntaxError:
        return None

class UnannotatedNonTensorDefault(ScriptRule):
    code = "JIT201"
    name = "unannotated-nontensor-default"
    severity = "error"
    summary = "`scale=2.0` without an annotation (TorchScript assumes Tensor)"
    fix = "safe"
    scope = "signature"  # also the signatures of @torch.jit.ignore methods called from compiled code
    message = "unannotated parameter with a non-Tensor default"

    def visit_Param(self, node: cst.Param, ctx: RuleContext) -> None:
        if node.annotation is not None or node.default is None or _typed_by_comment(ctx):
            return
        kind = literal_type(node.default) or self._constant_type(node.default, ctx)
        if kind is None:
            return
        name = node.name.value
        annotation = kind.replace("Tuple[", "tuple[")  # PEP 585: no typing import needed
        fix = None
        if kind not in ("List", "Dict", "Tuple"):  # mutable defaults stay an error whatever the annotation
            fix = PendingFix(f"annotate `{name}: {annotation}`", annotate_param(node, annotation, ctx))
        ctx.report(
            node.name,
            f"parameter `{name}` has a {kind.split('[')[0]} default but no annotation; TorchScript assumes "
            f"an unannotated parameter is a Tensor. Annotate it: `{name}: {annotation} = ...`",
            fix=fix,
        )

    @staticmethod
    def _constant_type(default: cst.BaseExpression, ctx: RuleContext) -> str | None:
        """A default naming a module-level literal constant (`eps=EPS`) has that constant's type."""
        if not isinstance(default, cst.Name):
            return None
        for statement in ctx.module.tree.body:
            if isinstance(statement, cst.SimpleStatementLine):
                for small in statement.body:
                    if isinstance(small, cst.Assign) and any(
                        isinstance(t.target, cst.Name) and t.target.value == default.value for t in small.targets
                    ):
                        return literal_type(small.value)
        return None


class UnannotatedNoneDefaultOmitted(ScriptRule):
    code = "JIT204"
    name = "unannotated-none-default-omitted"
    severity = "error"
    summary = "`mask=None` unannotated, when a compiled call omits it (torch fails with no line number)"
    fix = "safe"
    message = "unannotated `None` default omitted by a compiled call"

    def visit_Param(self, node: cst.Param, ctx: RuleContext) -> None:
        default = node.default
        if node.annotation is not None or not (isinstance(default, cst.Name) and default.value == "None"):
            return
        if _typed_by_comment(ctx):
            return
        function = ctx.function.info
        if node.name.value in called_params(function.node):
            return  # a function passed as a parameter: the call fails first, where JIT430 points
        params = function.node.params
        positional = [*params.posonly_params, *params.params]
        index = positional.index(node) if node in positional else None
        name = node.name.value
        torch = ctx.torch_name
        annotation = f"{torch}.Tensor | None" if torch else None
        fix = PendingFix(f"annotate `{name}: {annotation} = None`", annotate_param(node, annotation, ctx)) if annotation else None
        here = str(function.module.path)  # name a caller in this file first, the one a reader sees
        for site in sorted(ctx.captured.calls_to(function.node), key=lambda site: site.caller_key[0] != here):
            if site.omits(None if index is None else index - int(site.bound), name):
                ctx.report(
                    node.name,
                    f"parameter `{name}` defaults to None without an annotation, so TorchScript types it as a "
                    f"Tensor; `{site.caller_name}` calls this without `{name}`, which fails to script with "
                    f"'Unsupported value kind: Tensor' and no line number. Annotate it: "
                    f"`{name}: Optional[torch.Tensor] = None`",
                    fix=fix,
                )
                return


class UnannotatedNonTensorParam(ScriptRule):
    code = "JIT202"
    problem = Problem.UNANNOTATED_NON_TENSOR_PARAM
    facts = (FlowEvents,)
    name = "unannotated-nontensor-param"
    severity = "error"
    summary = "an unannotated parameter used by `range()` or compared with a string"
    fix = "safe"
    message = "unannotated parameter used as a non-Tensor"

    def visit_FunctionDef(self, node: cst.FunctionDef, ctx: RuleContext) -> None:
        """Uses the control-flow pass finds: compared with a string, given to `torch.cat`, passed a list or a
        number at a call site."""
        from jitlint.targets.script.events import report_events

        report_events(self, node, ctx)

    def visit_Call(self, node: cst.Call, ctx: RuleContext) -> None:
        if ctx.qualify(node.func) != "builtins.range":
            return
        for argument in node.args:
            param = self._tensor_param(argument.value, ctx)
            if param is not None:
                name = param.name.value
                ctx.report(
                    node,  # the call: torch names its first line
                    f"`{name}` is used as an int by `range()`, but it has no annotation, so TorchScript types it "
                    f"as a Tensor; annotate it: `{name}: int`",
                    fix=annotate(param, "int", ctx),
                )

    def visit_Comparison(self, node: cst.Comparison, ctx: RuleContext) -> None:
        left = node.left
        for target in node.comparisons:
            operator = target.operator
            right = target.comparator
            if isinstance(operator, (cst.Equal, cst.NotEqual)):
                pairs = [(left, right), (right, left)]
            elif isinstance(operator, (cst.In, cst.NotIn)):
                pairs = [(left, right)]
            else:
                pairs = []
            for candidate, other in pairs:
                param = self._tensor_param(candidate, ctx)
                if param is not None and self._is_strings(other):
                    name = param.name.value
                    ctx.report(
                        candidate,
                        f"`{name}` is compared with a string, but it has no annotation, so TorchScript types it "
                        f"as a Tensor; annotate it: `{name}: str`",
                        fix=annotate(param, "str", ctx),
                    )
            left = right

    @staticmethod
    def _is_strings(node: cst.BaseExpression) -> bool:
        if isinstance(node, (cst.Tuple, cst.List)):
            return bool(node.elements) and all(is_str_literal(element.value) for element in node.elements)
        return is_str_literal(node)

    @staticmethod
    def _tensor_param(node: cst.BaseExpression, ctx: RuleContext) -> cst.Param | None:
        info = ctx.function.info if ctx.function else None
        if info is None:
            return None
        return unannotated_tensor_param(node, info.node, info.bound_first_param == "instance", ctx.module.tree)

    def fix_event(self, node, message: str, ctx: RuleContext) -> PendingFix | None:
        return annotate_from_message(_first_name(node), message, ctx)


class UnsupportedAnnotation(ScriptRule):
    code = "JIT203"
    name = "unsupported-annotation"
    severity = "error"
    summary = "`Callable`, `Sequence`, `Set`, `Literal`, `Tuple[T, ...]`, `torch.Size`, `np.ndarray`, ..."
    fix = "unsafe"
    scope = "signature"
    message = "annotation TorchScript cannot compile"

    def visit_Annotation(self, node: cst.Annotation, ctx: RuleContext) -> None:
        annotation = node.annotation
        expression = _written_type(annotation)  # a forward reference "np.ndarray" parsed
        problem = self._problem(expression, ctx) if expression is not None else None
        if problem:
            ctx.report(annotation, self._message(problem), fix=self._fix(annotation, ctx))

    _AS_LIST = frozenset({"Sequence", "MutableSequence", "Iterable", "Iterator", "Collection", "Set", "AbstractSet",
                          "FrozenSet", "set", "frozenset", "Deque"})
    _AS_DICT = frozenset({"Mapping", "MutableMapping", "OrderedDict", "DefaultDict"})

    def _fix(self, annotation: cst.BaseExpression, ctx: RuleContext) -> PendingFix | None:
        """`Sequence[T]` -> `list[T]`, `Mapping[K, V]` -> `dict[K, V]`, `Tuple[T, ...]` -> `list[T]`: unsafe, since
        callers passing a tuple or another container then fail."""
        if not isinstance(annotation, cst.Subscript):
            return None
        outer = (ctx.qualify(annotation.value) or "").rsplit(".", 1)[-1]
        items = [e.slice.value for e in annotation.slice if isinstance(e.slice, cst.Index)]
        if outer in self._AS_LIST and len(items) == 1:
            replacement = f"list[{ctx.code(items[0])}]"
        elif outer in self._AS_DICT and len(items) == 2:
            replacement = f"dict[{ctx.code(items[0])}, {ctx.code(items[1])}]"
        elif outer in ("Tuple", "tuple") and len(items) == 2 and isinstance(items[1], cst.Ellipsis):
            replacement = f"list[{ctx.code(items[0])}]"
        else:
            return None
        return PendingFix(f"use `{replacement}`", [PendingEdit(annotation, replacement)])

    def _problem(self, node: cst.BaseExpression, ctx: RuleContext) -> str | None:
        """The first unsupported part of an annotation, spelled as torch reports it."""
        if isinstance(node, cst.Subscript):
            outer = ctx.qualify(node.value)
            if outer in UNSUPPORTED_CONSTRUCTORS:
                return outer
            if outer in _TUPLE and any(
                isinstance(element.slice, cst.Index) and isinstance(element.slice.value, cst.Ellipsis)
                for element in node.slice
            ):
                return "Tuple[T, ...]"
            for element in node.slice:
                if isinstance(element.slice, cst.Index):
                    inner = element.slice.value
                    if isinstance(inner, cst.List):  # Callable's argument list
                        continue
                    found = self._problem(inner, ctx)
                    if found:
                        return found
            return None
        if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.BitOr):
            return self._problem(node.left, ctx) or self._problem(node.right, ctx)
        if isinstance(node, cst.BinaryOperation):  # `Tuple[3 + 4, Tensor]`: arithmetic is no type
            return "expression:" + cst.Module([]).code_for_node(node.operator).strip()
        if isinstance(node, (cst.Name, cst.Attribute)):
            qualified = ctx.qualify(node)
            if qualified in UNSUPPORTED_NAMES:
                return qualified
        return None

    @staticmethod
    def _message(problem: str) -> str:
        if problem == "Tuple[T, ...]":
            return (
                "variable-length `Tuple[T, ...]` is not a TorchScript type; use `List[T]` "
                "or a fixed-length `Tuple[T, T]`"
            )
        if problem.startswith("expression:"):
            symbol = problem.split(":", 1)[1]
            return (f"an `{symbol}` expression is not a type (torch: 'Expression of type {symbol} cannot be used in a "
                    "type expression'); write the type itself")
        short = problem.rsplit(".", 1)[-1]
        suggestion = _SUGGESTIONS.get(short)
        hint = f"; use `{suggestion}`" if suggestion else ""
        return f"`{short}` is not a type TorchScript supports in annotations{hint}"


class IsinstanceUnsupportedType(ScriptRule):
    code = "JIT205"
    name = "isinstance-unsupported-type"
    severity = "error"
    summary = "`isinstance(x, dict)` (torch rejects `dict` as a type)"
    message = "`isinstance()` against a type TorchScript cannot check"

    def visit_Call(self, node: cst.Call, ctx: RuleContext) -> None:
        if ctx.qualify(node.func) != "builtins.isinstance" or len(node.args) != 2:
            return
        classes = node.args[1].value
        for element in [e.value for e in classes.elements] if isinstance(classes, cst.Tuple) else [classes]:
            qualified = ctx.qualify(element)
            if qualified in ("builtins.dict", "typing.Dict"):
                ctx.report(element, "`isinstance(x, dict)` is not supported by TorchScript (it rejects `dict` and bare "
                                    "`Dict` as types); use `torch.jit.isinstance(x, Dict[str, Tensor])` with the "
                                    "contained types, or give the parameter one type")


_DICTS = frozenset({"typing.Dict", "builtins.dict"})
_CONTAINER_KEYS = frozenset({"typing.Tuple", "builtins.tuple", "typing.List", "builtins.list", "typing.Dict",
                             "builtins.dict", "typing.Optional", "typing.Union"})


class DictKeyTypeUnsupported(ScriptRule):
    code = "JIT207"
    name = "dict-key-type-unsupported"
    severity = "error"
    summary = "`Dict[Tuple[...], V]` and other container key types (torch's error has no line)"
    scope = "signature"
    message = "Dict key type TorchScript does not support"

    def visit_Annotation(self, node: cst.Annotation, ctx: RuleContext) -> None:
        found: list[cst.Subscript] = []

        class Dicts(cst.CSTVisitor):
            def visit_Subscript(self, subscript: cst.Subscript) -> None:
                if ctx.qualify(subscript.value) in _DICTS and len(subscript.slice) == 2:
                    found.append(subscript)

        walk(node.annotation, Dicts())
        for subscript in found:
            key = subscript.slice[0].slice
            if not isinstance(key, cst.Index):
                continue
            outer = key.value.value if isinstance(key.value, cst.Subscript) else key.value
            if ctx.qualify(outer) in _CONTAINER_KEYS:
                ctx.report(
                    key.value,
                    "TorchScript dicts only take str, int, float, complex, bool, Tensor or device keys; this key "
                    "type fails with 'Cannot create dict for key type' and no line number. Use a str or int key "
                    "(e.g. join the tuple into a string)",
                )


class SignatureCommentMismatch(ScriptRule):
    code = "JIT211"
    name = "signature-comment-mismatch"
    severity = "error"
    summary = (
        "a `# type: (...) -> ...` signature comment TorchScript cannot use: another number of types than "
        "parameters, or split over lines without the `# type: (...) -> T` line"
    )
    message = "`# type:` signature comment that does not match the function"

    def visit_FunctionDef(self, node: cst.FunctionDef, ctx: RuleContext) -> None:
        if ctx.function is None or ctx.function.info.node is not node:
            return
        problem = comment_count_mismatch(node, ctx.function.info.bound_first_param is not None)
        if problem is not None:
            ctx.report(
                node.name,
                f"TorchScript reads this function's signature from its `# type:` comment and rejects it: "
                f"'{problem}'. Give one type per parameter (not `self`) and the return type, "
                f"`# type: (int, Tensor) -> Tensor`, or use annotations",
            )


_BARE_CONTAINERS = {"typing.List": "List", "typing.Dict": "Dict", "typing.Tuple": "Tuple",
                    "typing.Optional": "Optional"}
_TYPE_ARGUMENT_CALLS = {"builtins.isinstance": 1, "torch.jit.isinstance": 1, "torch.jit.annotate": 0}


class ContainerAnnotationWithoutTypes(ScriptRule):
    code = "JIT213"
    name = "container-annotation-without-types"
    severity = "error"
    summary = "`List`, `Dict`, `Tuple` or `Optional` from `typing` without its contained types, as an annotation"
    message = "`typing` container used without its contained types"

    def visit_Annotation(self, node: cst.Annotation, ctx: RuleContext) -> None:
        self._check(node.annotation, ctx)

    def visit_Call(self, node: cst.Call, ctx: RuleContext) -> None:
        index = _TYPE_ARGUMENT_CALLS.get(ctx.qualify(node.func) or "")
        if index is not None and len(node.args) > index and node.args[index].keyword is None:
            types = node.args[index].value
            for element in types.elements if isinstance(types, cst.Tuple) else [types]:
                self._check(element.value if isinstance(element, cst.Element) else element, ctx)

    def _check(self, node: cst.BaseExpression, ctx: RuleContext) -> None:
        name = _BARE_CONTAINERS.get(ctx.qualify(node) or "") if isinstance(node, (cst.Name, cst.Attribute)) else None
        if name is None:
            return
        example = {"List": "List[int]", "Dict": "Dict[str, int]", "Tuple": "Tuple[int, int]",
                   "Optional": "Optional[int]"}[name]
        ctx.report(
            node,
            f"TorchScript needs the contained types of `{name}` ('Attempted to use {name} without a contained "
            f"type'); spell them out, e.g. `{example}`",
        )


_INT64_MAX = 2**63 - 1


class IntegerConstantOutOfRange(ScriptRule):
    code = "JIT212"
    name = "int-constant-out-of-range"
    severity = "error"
    summary = "an integer literal that does not fit in a signed 64-bit int (`2**63` spelled out, `0xFFFFFFFFFFFFFFFF`)"
    message = "integer constant out of the signed 64-bit range"

    def visit_Integer(self, node: cst.Integer, ctx: RuleContext) -> None:
        try:
            value = int(node.value.replace("_", ""), 0)
        except ValueError:
            return
        if value > _INT64_MAX:
            ctx.report(
                node,
                f"TorchScript ints are signed 64-bit, and `{node.value}` does not fit ('Integral constant out of "
                f"range'); use a float, or a smaller constant (the largest is {_INT64_MAX})",
            )


class OverloadMisuse(ScriptRule):
    code = "JIT214"
    name = "overload-misuse"
    severity = "error"
    summary = (
        "`@torch.jit._overload` declarations with no implementation after them, without the annotations that say "
        "their signature, with defaults the implementation does not share, or leaving out an unannotated parameter "
        "of the implementation; an overloaded function passed to `torch.jit.script` itself"
    )
    message = "`torch.jit._overload` declarations TorchScript cannot use"

    def visit_FunctionDef(self, node: cst.FunctionDef, ctx: RuleContext) -> None:
        if ctx.function is None or ctx.function.info.node is not node:
            return
        group = overload_group(node, ctx.module.tree)
        if group is None:
            return
        if group.implementation is None and node is group.declarations[-1]:
            ctx.report(
                node.decorators[0] if node.decorators else node.name,  # torch points at the decorator
                f"`{node.name.value}` is declared with `@torch.jit._overload` but no function of that name follows "
                f"the declarations ('Implementation ... is missing'); define the implementation after them",
            )
        elif node is group.implementation:
            from jitlint.targets.script import overloads
            from jitlint.targets.script.policy import ScriptPolicy

            if ctx.function.reason in ScriptPolicy.primary_reasons:  # torch.jit.script(g) or @torch.jit.script
                ctx.report(node.name, _DIRECTLY_SCRIPTED)
            for declaration in group.declarations:
                for differs in overloads.default_mismatches(declaration, node, ctx.module.tree):
                    ctx.report(differs.node, (
                        f"the default of `{differs.name}` on this `@torch.jit._overload` declaration differs from "
                        f"the implementation's ('Default parameters on overloads do not affect the runtime so they "
                        f"must equal to the default parameter on the implementation function. Found on parameter "
                        f"{differs.name}'); give both the same default, or none on the declaration"))
                for left_out in overloads.undeclared_unannotated(declaration, node, signature_comment(node) is not None):
                    ctx.report(left_out.node, (
                        f"`{left_out.name}` is not a parameter of an `@torch.jit._overload` declaration and has no "
                        f"annotation here ('Parameters not specified on the overloaded declaration must have a type "
                        f"annotation in the implementation function. Did not find type for param {left_out.name}'); "
                        f"annotate it, or declare it in every overload"))
            for declaration in group.declarations:
                if not has_annotations(declaration) and signature_comment(declaration) is None:
                    ctx.report(
                        declaration.name,
                        f"this `@torch.jit._overload` declaration of `{node.name.value}` has no annotations, so it "
                        f"declares no signature ('Must explicitly add type annotations to overloaded functions'); "
                        f"annotate its parameters and return",
                    )


_DIRECTLY_SCRIPTED = (
    "an overloaded function is passed to `torch.jit.script` itself ('cannot be directly compiled because it is "
    "overloaded'); script a function that calls it, so that its arguments choose the overload"
)


_UNION = frozenset({"typing.Union", "typing_extensions.Union"})
_OPTIONAL = frozenset({"typing.Optional", "typing_extensions.Optional"})
_ANY = frozenset({"typing.Any", "typing_extensions.Any"})


class UnionWithAny(ScriptRule):
    code = "JIT437"
    name = "union-with-any"
    severity = "error"
    summary = "`Union[int, Any]` (a Union with `Any` among its members and no `None`): torch's own assert fails"
    message = "a `Union` with `Any` among its members, which torch's type unification cannot build"
    scope = "signature"  # also the signatures of @torch.jit.ignore methods called from compiled code
    whole_class = "same-error"  # torch names no line: the assert fires while it types the signature

    def visit_Annotation(self, node: cst.Annotation, ctx: RuleContext) -> None:
        expression = _written_type(node.annotation)  # a forward reference "Union[int, Any]" parsed
        if expression is None:
            return
        found = self._first(expression, ctx)
        if found is not None:
            where = found if expression is node.annotation else node.annotation
            ctx.report(
                where,
                f"`{ctx.code(found)}` has `Any` among its members and no `None`: torch's type unification turns "
                "such a Union into `Any` and then fails its own check (torch: 'INTERNAL ASSERT FAILED ... the Union "
                "... has the single type Any'), which rejects the whole class; annotate `Any` alone, or the Union "
                "without `Any`",
            )

    def _first(self, node: cst.BaseExpression, ctx: RuleContext) -> cst.BaseExpression | None:
        """The first Union (outermost first) whose members, flattened as Python flattens them, include `Any` and
        some other type but not `None`: torch 2.13 fails on exactly those (`Optional[Union[int, Any]]` and
        `Union[Any]` script)."""
        members = self._members(node, ctx)
        if members is not None and "any" in members and "none" not in members and len(members - {"any"}) >= 1:
            return node
        # A Union's members are flattened into it (`Optional[Union[int, Any]]` is one Union with `None`): look
        # inside the members that are no Union themselves (`Union[List[Union[int, Any]], str]`).
        children = self._leaves(node, ctx) if members is not None else self._children(node)
        for child in children:
            found = self._first(child, ctx)
            if found is not None:
                return found
        return None

    def _leaves(self, node: cst.BaseExpression, ctx: RuleContext) -> list[cst.BaseExpression]:
        """The members of a Union that are no Union themselves, flattened."""
        if not self._is_union(node, ctx):
            return [node]
        return [leaf for child in self._children(node) for leaf in self._leaves(child, ctx)]

    @staticmethod
    def _is_union(node: cst.BaseExpression, ctx: RuleContext) -> bool:
        return (isinstance(node, cst.Subscript) and ctx.qualify(node.value) in _UNION | _OPTIONAL) or (
            isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.BitOr))

    @staticmethod
    def _children(node: cst.BaseExpression) -> list[cst.BaseExpression]:
        if isinstance(node, cst.Subscript):
            return [element.slice.value for element in node.slice if isinstance(element.slice, cst.Index)]
        if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.BitOr):
            return [node.left, node.right]
        return []

    def _members(self, node: cst.BaseExpression, ctx: RuleContext) -> set[str] | None:
        """The flattened members of a Union (`Union[...]`, `Optional[...]`, `a | b`), each "any", "none" or its
        source text; None when `node` is no Union."""
        if isinstance(node, cst.Subscript) and ctx.qualify(node.value) in _UNION | _OPTIONAL:
            items = self._children(node)
            if len(items) != len(node.slice) or not items:
                return None
            members = {"none"} if ctx.qualify(node.value) in _OPTIONAL else set()
            for item in items:
                members |= self._member(item, ctx)
            return members
        if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.BitOr):
            return self._member(node.left, ctx) | self._member(node.right, ctx)
        return None

    def _member(self, node: cst.BaseExpression, ctx: RuleContext) -> set[str]:
        inner = self._members(node, ctx)
        if inner is not None:
            return inner
        if isinstance(node, cst.Name) and node.value == "None":
            return {"none"}
        if ctx.qualify(node) in _ANY:
            return {"any"}
        return {ctx.code(node)}


class TensorFunctionAsAnnotation(ScriptRule):
    code = "JIT241"
    name = "tensor-function-as-annotation"
    severity = "error"
    summary = "`torch.tensor` (the function) where an annotation means the type `torch.Tensor`"
    fix = "safe"
    scope = "signature"
    # `Tuple[torch.tensor, ...]` fails with no line while torch builds the class's method signatures
    whole_class = "same-error"
    message = (
        "`torch.tensor` is the function that builds a Tensor, not a type: TorchScript cannot resolve it in an "
        "annotation; write `torch.Tensor`"
    )

    def visit_Annotation(self, node: cst.Annotation, ctx: RuleContext) -> None:
        annotation = node.annotation
        if isinstance(annotation, cst.SimpleString):  # a forward reference: "torch.tensor"
            parsed = _written_type(annotation)
            if parsed is not None and self._found(parsed, ctx):
                ctx.report(annotation)
            return
        for found in self._found(annotation, ctx):
            fix = None
            if isinstance(found, cst.Attribute):
                replacement = f"{ctx.code(found.value)}.Tensor"
                fix = PendingFix(f"use `{replacement}`", [PendingEdit(found, replacement)])
            ctx.report(found, fix=fix)

    def _found(self, node: cst.BaseExpression, ctx: RuleContext) -> list[cst.BaseExpression]:
        """The parts of an annotation that name `torch.tensor`."""
        if isinstance(node, (cst.Name, cst.Attribute)):
            return [node] if ctx.qualify(node) == "torch.tensor" else []
        if isinstance(node, cst.Subscript):
            found = []
            for element in node.slice:
                if isinstance(element.slice, cst.Index):
                    found += self._found(element.slice.value, ctx)
            return found
        if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.BitOr):
            return self._found(node.left, ctx) + self._found(node.right, ctx)
        if isinstance(node, (cst.List, cst.Tuple)):  # Callable's argument list
            return [part for element in node.elements for part in self._found(element.value, ctx)]
        return []


# -- fixes ----------------------------------------------------------------------------------------------------


def annotate(param: cst.Param, annotation: str, ctx: RuleContext) -> PendingFix | None:

    if param.annotation is not None or param.star:
        return None
    return PendingFix(f"annotate `{param.name.value}: {annotation}`", annotate_param(param, annotation, ctx))


def annotate_from_message(param_name: str, message: str, ctx: RuleContext) -> PendingFix | None:
    """A flow finding's `name: T` advice, applied to the compiled function's parameter `name`."""
    match = suggested_annotation(message, rf"{re.escape(param_name)}: (int|float|bool|str|List\[(?:int|float|str|bool|torch\.Tensor)\])")
    if match is not None and "torch." in match.group(1) and ctx.torch_name != "torch":
        return None
    function = compiled_function(ctx)
    if match is None or function is None:
        return None
    params = function.params
    for param in (*params.posonly_params, *params.params, *params.kwonly_params):
        if param.name.value == param_name:
            return annotate(param, builtin_generics(match.group(1)), ctx)
    return None


def _first_name(node: cst.CSTNode) -> str:
    """The parameter a JIT202 event advises annotating: the event's name, or a call's first argument's
    (`torch.cat(xs)`, reported at the call); "" otherwise (the advice is then for another function's parameter)."""
    if isinstance(node, cst.Call) and node.args and node.args[0].keyword is None:
        node = node.args[0].value
    return node.value if isinstance(node, cst.Name) else ""
