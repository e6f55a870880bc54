"""JIT2xx: annotations TorchScript needs, and annotations it cannot read."""

from __future__ import annotations

import libcst as cst

from jitlint.apis import unsupported
from jitlint.rules.base import PendingEdit, PendingFix, RuleContext
from jitlint.targets.script.claims import callee_params, results_for, unannotated_argument, unannotated_param, with_path
from jitlint.targets.script.facts import ScriptTypes
from jitlint.targets.script.literals import literal_type
from jitlint.targets.script.overloads import is_overload_implementation
from jitlint.targets.script.policy import IGNORE_DECORATORS
from jitlint.targets.script.rewrite import annotate_param
from jitlint.targets.script.rules import ScriptRule
from jitlint.targets.script.rules.annotation_messages import annotation_message
from jitlint.targets.script.scopes import called_params
from jitlint.targets.script.typing import results as R
from jitlint.targets.script.default_objects import object_default
from jitlint.targets.script.typing.annotations import (
    default_fits, default_value, is_type_variable, mutable_default, signature, signature_comment,
)
from jitlint.targets.script.typing.class_names import compiled_as_class, resolver_texts, unresolved_in_class
from jitlint.targets.script.typing.types import NONE, TENSOR, annotation, describe
from jitlint.targets.script.rules.bare_annotations import bare_element
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
_BUILTIN_TYPE_NAMES = frozenset({"int", "float", "bool", "str", "complex", "list", "dict", "tuple", "None", "Tensor",
                                 "Any", "Optional", "List", "Dict", "Tuple", "Union"})


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
        # PEP 585: no typing import needed; a dtype or device default is annotated `torch.dtype`/`torch.device`
        found = (f"a {kind.split('[')[0]}", kind.replace("Tuple[", "tuple[")) if kind is not None else (
            object_default(node.default, ctx.module.imports, ctx.project, ctx.torch_name or "torch"))
        if found is None:
            return
        (described, annotation), name = found, node.name.value
        fix = None
        if annotation is not None and kind not in ("List", "Dict", "Tuple") and (kind or ctx.torch_name):
            # mutable defaults stay an error whatever the annotation
            fix = PendingFix(f"annotate `{name}: {annotation}`", annotate_param(node, annotation, ctx))
        advice = f"Annotate it: `{name}: {annotation} = ...`" if annotation is not None else (
            "Annotate it with a type TorchScript compiles, or build the value in the body (default to None)")
        ctx.report(node.name, f"parameter `{name}` has {described} default but no annotation; TorchScript assumes "
                              f"an unannotated parameter is a Tensor. {advice}", fix=fix)

    def visit_FunctionDef(self, node: cst.FunctionDef, ctx: RuleContext) -> None:
        # The defaults of a compiled function's annotated parameters: torch converts each to its parameter's type
        # (`toIValue`), after rejecting a list or dict default whatever the annotation.
        function = ctx.function
        if function is None or function.info.node is not node or not function.body_captured:
            return
        if is_overload_implementation(node, ctx.module.tree):
            return  # its defaults are checked against each declaration's types (JIT214)
        found = signature(node, ctx.module.imports, ctx.project, function.info.bound_first_param is not None)
        for param in found.params:
            if param.default is None:
                continue
            value = default_value(param.default, ctx.module.imports, ctx.project)
            mutable = mutable_default(value)
            name = param.name
            if mutable is not None and param.annotated:
                ctx.report(param.node.name, f"parameter `{name}` defaults to a {mutable}: TorchScript rejects mutable "
                                            "defaults (\"Mutable default parameters are not supported because Python "
                                            "binds them to the function\"); default to None (`Optional[...] = None`) "
                                            "and build the value in the body")
                continue
            if param.annotated and param.type is not None and default_fits(value, param.type) is False:
                ctx.report(param.node.name, f"parameter `{name}` is annotated {annotation(param.type)} but defaults "
                                            f"to {ctx.code(param.default)}, which TorchScript cannot convert "
                                            f"(torch: 'Expected a default value of type {param.type} on parameter "
                                            f"\"{name}\"'); make the default fit the annotation, or widen the "
                                            f"annotation (`Optional[...]` for a None default)")

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
        if not (isinstance(default, cst.Name) and default.value == "None"):
            return
        # annotated `Tensor` with a None default: the same Tensor-typed None when a call leaves it out
        annotated = node.annotation is not None
        if annotated and ctx.qualify(node.annotation.annotation) != "torch.Tensor":
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
        fix = PendingFix(f"annotate `{name}: {annotation} = None`", annotate_param(node, annotation, ctx)) if (
            annotation and not annotated) else None
        here = str(function.module.path)  # name a caller in this file first, the one a reader sees
        for site in sorted(ctx.captured.calls_to(function.node), key=lambda site: site.caller_key[0] != here):
            if site.omits(None if index is None else index - int(site.bound), name):
                typed = "is annotated Tensor and defaults to None" if annotated else (
                    "defaults to None without an annotation, so TorchScript types it as a Tensor")
                ctx.report(
                    node.name,
                    f"parameter `{name}` {typed}; `{site.caller_name}` calls this without `{name}`, which fails to script with "
                    f"'Unsupported value kind: Tensor' and no line number. Annotate it: "
                    f"`{name}: Optional[torch.Tensor] = None`",
                    fix=fix,
                )
                return


class UnannotatedNonTensorParam(ScriptRule):
    code = "JIT202"
    facts = (ScriptTypes,)
    name = "unannotated-nontensor-param"
    severity = "error"
    summary = "an unannotated parameter used by `range()` or compared with a string"
    fix = "safe"
    message = "unannotated parameter used as a non-Tensor"

    def visit_FunctionDef(self, node: cst.FunctionDef, ctx: RuleContext) -> None:
        """What the typer finds: a call torch rejects because a parameter of this function without annotation is a
        Tensor to it (given to `range()`, compared with a string, given to `torch.cat`), or because a call gives a
        compiled function's unannotated parameter something else than a Tensor."""
        for result in results_for(self, node, ctx):
            if isinstance(result, R.RangeArguments):
                param = unannotated_param(result.wrong_node, ctx, node)
                if param is not None:
                    name = param.name.value
                    self._report(result.node, f"`{name}` is used as an int by `range()`, but it has no annotation, so "
                                 f"TorchScript types it as a Tensor; annotate it: `{name}: int`", param, "int", node, ctx)
                continue
            index = unannotated_argument(result, ctx, node)
            if index is not None:
                argument = result.argument_node(index)
                param = unannotated_param(argument, ctx, node)
                wanted = _wanted(result, index)
                if param is None:
                    continue
                name = param.name.value
                spelled = annotation(wanted, tensor="torch.Tensor") if wanted is not None else None
                if result.operator is not None:  # compared with a str (`mode == "train"`), where torch points
                    message = (f"`{name}` is compared with a string, but it has no annotation, so TorchScript types "
                               f"it as a Tensor; annotate it: `{name}: {spelled or 'str'}`")
                    self._report(argument, message, param, spelled or "str", node, ctx)
                else:  # `torch.cat(xs)`: a list of Tensors
                    message = (f"`{result.callee}()` takes a list of Tensors, but `{name}` has no annotation, so "
                               f"TorchScript types it as one Tensor; annotate it: `{name}: List[torch.Tensor]`")
                    self._report(result.node, message, param, "List[torch.Tensor]", node, ctx)
                continue
            for param, _index, value in callee_params(result):
                callee = result.project_function.display_name
                none_default = param.default is not None and isinstance(param.default, cst.Name) and (
                    param.default.value == "None")
                if value is not None and (value.name == "Optional" or value == NONE):
                    advice = (f"`{param.name}: Optional[torch.Tensor]{' = None' if none_default else ''}`"
                              if value == NONE or value.args[0] == TENSOR else f"`{param.name}`")
                else:
                    spelled = annotation(value, tensor="torch.Tensor") if value is not None and value.fully_known \
                        else "..."
                    advice = f"`{param.name}: {'Optional[' + spelled + '] = None' if none_default else spelled}`"
                passed = "None" if value == NONE else describe(value)
                ctx.report(result.node, f"`{callee}` has no annotation on `{param.name}`, so TorchScript types it as a "
                                        f"Tensor{' (its `None` default included)' if none_default else ''}, and this "
                                        f"passes {passed}; annotate it: {advice}")

    def _report(self, where, message, param, spelled, function, ctx) -> None:
        fix = with_path(ctx, function, where, lambda: annotate(param, _builtin(spelled), ctx)) if spelled else None
        ctx.report(where, message, fix=fix)


_ADVISED = ("int", "float", "str", "bool", "List[int]", "List[float]", "List[str]", "List[Tensor]")


def _wanted(result, index):
    """The first of the usual annotations that makes the call match with that argument of that type."""
    from jitlint.targets.script.schemas import schema_type

    for spelled in _ADVISED:
        kind = schema_type(spelled)
        if result.rematch(index, kind):
            return kind
    return None


def _builtin(spelled: str) -> str:
    return spelled.replace("List[", "list[")


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
        if problem is None and expression is not None:
            problem = self._parser_problem(expression, ctx, isinstance(ctx.parent, cst.FunctionDef),
                                           isinstance(annotation, cst.SimpleString))
        if problem is None and expression is not None and isinstance(ctx.parent, (cst.FunctionDef, cst.Param)):
            problem = bare_element(expression, ctx, top=True)
        if problem and problem.startswith("library-class:") and isinstance(ctx.parent, cst.FunctionDef):
            ctx.report(ctx.parent.name, self._message(problem))  # torch names the whole declaration, from `def`
        elif problem:
            ctx.report(annotation, self._message(problem), fix=self._fix(annotation, ctx))
        elif isinstance(ctx.parent, cst.AnnAssign) and not isinstance(annotation, cst.SimpleString):
            self._in_class_method(annotation, ctx)

    def visit_Call(self, node: cst.Call, ctx: RuleContext) -> None:
        if ctx.qualify(node.func) == "torch.jit.annotate" and node.args and node.args[0].keyword is None:
            written = node.args[0].value
            problem = self._problem(written, ctx) if ctx.function is not None and ctx.function.body_captured else None
            if problem is not None and problem.startswith("library-class:"):
                ctx.report(written, self._message(problem))
                return
            self._in_class_method(written, ctx)

    @staticmethod
    def _in_class_method(written: cst.BaseExpression, ctx: RuleContext) -> None:
        """A type in the body of a TorchScript class's method, which torch resolves by whole names
        (`jitlint.targets.script.typing.class_names`): a dotted name it cannot find."""
        function = ctx.function
        owner = function.info.cls if function is not None and function.body_captured else None
        if owner is None or not compiled_as_class(owner, ctx.project):
            return
        problem = unresolved_in_class(written, resolver_texts(owner))
        if problem is not None:
            ctx.report(written, f"in a TorchScript class's method torch looks type names up whole, without following "
                                f"modules (torch: '{problem}'); import the name itself (`from typing import "
                                f"List`) and write it alone")

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
            if qualified in unsupported("library-class") and ctx.function is not None and ctx.function.body_captured:
                # `try_ann_to_type` compiles a class an annotation names (`_recursive_compile_class`), from its
                # library's source, which fails inside the library: torch names the annotation's line (in an
                # ignored function's signature it names the call of the function instead: not reported here)
                return "library-class:" + qualified
        return None

    # `ScriptTypeParser`: the constructors and how many element types each takes
    _ELEMENTS = {"typing.List": 1, "builtins.list": 1, "typing.Optional": 1, "typing.Dict": 2, "builtins.dict": 2,
                 "torch.jit.Future": 1, "torch.futures.Future": 1, "typing.Final": 1}

    def _parser_problem(self, node: cst.BaseExpression, ctx: RuleContext, is_return: bool,
                        forward: bool) -> str | None:
        """What `ScriptTypeParser::parseTypeFromExpr` rejects in an annotation's shape: the number of element types
        of `List`/`Optional`/`Dict`, a tuple literal in a `Tuple`, the `BroadcastingListN[T]` forms, a constant where
        a type belongs, a forward reference naming nothing."""
        if isinstance(node, (cst.Integer, cst.Float, cst.Imaginary)):
            return "parser:Expression of type const cannot be used in a type expression"
        if isinstance(node, cst.Name) and forward and ctx.qualify(node) is None and (
                node.value not in ctx.module.globals and node.value not in _BUILTIN_TYPE_NAMES):
            return f"parser:Unknown type name '{node.value}'"
        ignored = ctx.function is not None and ctx.function.info.decorators & IGNORE_DECORATORS
        if not ignored and is_type_variable(ctx.qualify(node), ctx.project):  # (an ignored one's: Python words it)
            return f"parser:Unknown type name '{ctx.code(node)}'"
        if not isinstance(node, cst.Subscript):
            return None
        outer = ctx.qualify(node.value) or ""
        items = [element.slice.value for element in node.slice if isinstance(element.slice, cst.Index)]
        short = outer.rsplit(".", 1)[-1]
        if short.startswith("BroadcastingList") and outer.startswith("torch."):
            if is_return:
                return "parser:Broadcastable lists cannot appear as a return type"
            if len(items) != 1:
                return "parser:BroadcastingList/Optional[BroadcastingList] must be subscripted with a type"
            if not isinstance(items[0], cst.Name):
                return "parser:Subscripted type must be a type identifier"
            if items[0].value not in ("int", "float"):
                return "parser:Broadcastable lists only supported for int or float"
            if not short[len("BroadcastingList"):].isdigit():
                return "parser:subscript of Broadcastable list must be a positive integer"
            return None
        wanted = self._ELEMENTS.get(outer)
        if wanted is not None and len(items) != wanted and len(items) == len(node.slice):
            return ("parser:expected exactly one element type but found " if wanted == 1 else
                    "parser:expected exactly 2 element types but found ") + str(len(items))
        if outer in _TUPLE:
            for item in items:
                if isinstance(item, cst.Tuple) and item.elements:
                    return "parser:Tuple literal in Tuple type annotation must not have any elements!"
        for item in items:
            if not isinstance(item, (cst.List, cst.Tuple)):
                found = self._parser_problem(item, ctx, False, forward)
                if found:
                    return found
        return None

    _message = staticmethod(annotation_message)


class IsinstanceUnsupportedType(ScriptRule):
    code = "JIT205"
    name = "isinstance-unsupported-type"
    severity = "error"
    summary = "`isinstance(x, dict)` or `isinstance(x, np.ndarray)` (torch rejects `dict` and NumPy types as types)"
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
            elif qualified is not None and qualified.startswith("numpy."):
                ctx.report(element, f"`{ctx.code(element)}` is not a type TorchScript knows (torch: \"Unknown type name "
                                    f"'{ctx.code(element)}'\"), so it cannot check `isinstance()` against it; give "
                                    f"the parameter one type, or convert in Python before the compiled code")


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
    facts = (ScriptTypes,)

    def visit_FunctionDef(self, node: cst.FunctionDef, ctx: RuleContext) -> None:
        # the keys of dict displays and comprehensions, as the typer types them
        for result in results_for(self, node, ctx):
            if result.problem == "unsupported":
                message = (f"this dict's keys are {describe(result.key)}; TorchScript dicts only take str, int, float, "
                           f"complex, bool, Tensor or device keys (torch: \"Cannot create dict for key type "
                           f"'{result.key}'\"). Use a str or int key (e.g. join the tuple into a string)")
            elif result.problem == "union":
                message = (f"this comprehension's keys are {describe(result.key)}; TorchScript wants keys of one type "
                           f"(torch: 'Dicts may only contain homogeneous keys, but the type of the first generated key "
                           f"was {result.key}'); refine the key first")
            else:
                message = (f"this comprehension runs over a tuple, so each element gives a key of its own type: "
                           f"{result.key} first, then {result.other} (torch: 'Dicts may only contain homogeneous "
                           f"keys'); give every key one type")
            ctx.report(result.node, message)

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


# `torch._jit_internal.is_future`/`is_rref` raise for the bare classes as `typing`'s containers do.
_BARE_CONTAINERS = {"typing.List": "List", "typing.Dict": "Dict", "typing.Tuple": "Tuple",
                    "typing.Optional": "Optional", "torch.jit.Future": "Future", "torch.futures.Future": "Future",
                    "torch._jit_internal.Future": "Future", "torch.distributed.rpc.RRef": "RRef",
                    "torch.distributed.rpc.api.RRef": "RRef"}
_TYPE_ARGUMENT_CALLS = {"builtins.isinstance": 1, "torch.jit.isinstance": 1, "torch.jit.annotate": 0}


class ContainerAnnotationWithoutTypes(ScriptRule):
    code = "JIT213"
    name = "container-annotation-without-types"
    severity = "error"
    summary = ("`List`, `Dict`, `Tuple` or `Optional` from `typing`, or `Future`/`RRef`, without its contained types, "
               "as an annotation")
    message = "container type used without its contained types"

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
                   "Optional": "Optional[int]", "Future": "Future[int]", "RRef": "RRef[int]"}[name]
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
    """`name` -> `name: <annotation>` on a parameter without one. Safe."""
    if param.annotation is not None or param.star:
        return None
    return PendingFix(f"annotate `{param.name.value}: {annotation}`", annotate_param(param, annotation, ctx))
