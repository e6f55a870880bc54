"""The rules that report what the TorchScript typer (`jitlint.targets.script.typing`) finds in a compiled function:
JIT7xx (control-flow typing), JIT206-210, JIT220-225, JIT233-234, JIT315, JIT416, JIT418, JIT609-611 (and JIT202,
JIT124, JIT405 in their own families).

The typer gives each function's results once (`function_types`); `owner` says which rule reports each result, so
that every result is reported by one rule: the general ones (a call no overload accepts: JIT416) unless a more
specific rule explains it (an unrefined Optional: JIT704; an Optional attribute: JIT611; an unannotated parameter
torch typed Tensor: JIT202; a list started as `[]`: JIT210). Each rule words its own messages and builds its own
fixes from the results' data.
"""

from __future__ import annotations

from typing import Callable, Iterator

import libcst as cst

from jitlint.names import assigned_names
from jitlint.rules.base import PendingFix, RuleContext
from jitlint.targets.script import fixers
from jitlint.targets.script.facts import ScriptTypes
from jitlint.targets.script.rules import ScriptRule
from jitlint.targets.script.typing.analysis import function_types
from jitlint.targets.script.typing import results as R
from jitlint.targets.script.typing.annotations import signature
from jitlint.targets.script.typing.types import (
    FLOAT, INT, NONE, NUMBER, STR, TENSOR, Type, annotation, describe, without_none,
)


# -- who reports what ----------------------------------------------------------------------------------------------
def owner(result: R.Result, ctx: RuleContext, function: cst.FunctionDef) -> str | None:
    """The code of the rule that reports a typer result (None: no rule reports it)."""
    kind = type(result)
    simple = _SIMPLE_OWNERS.get(kind)
    if simple is not None:
        return simple
    if isinstance(result, R.NoMatchingCall):
        if result.callee == "sum" and isinstance(result.node, cst.Call):
            from jitlint.targets.script.rules.syntax import sums_tensors

            if sums_tensors(result.node, ctx):
                return "JIT101"  # builtin `sum()` of Tensors: reported by that rule at its call
        if callee_param(result) is not None or unannotated_argument(result, ctx, function) is not None:
            return "JIT202"
        if _optional_argument(result, ctx) is not None:
            index = _optional_argument(result, ctx)
            node = result.argument_node(index)
            return "JIT611" if isinstance(node, cst.Attribute) else "JIT704"
        return "JIT416"
    if isinstance(result, R.NoAttribute):
        if result.owner.name in ("Optional", "Union") and _optional_receiver(result, ctx) is not None:
            return "JIT611" if isinstance(result.node.value, cst.Attribute) else "JIT704"
        if result.owner == TENSOR:
            return "JIT224"
        if result.owner.name == "List":
            return "JIT233"
        return None
    if isinstance(result, R.AnnotatedMismatch):
        return "JIT708" if result.value == NUMBER else "JIT221"
    if isinstance(result, R.RangeArguments):
        if result.wrong_type == NUMBER:
            return "JIT708"
        if result.wrong_type == TENSOR and unannotated_param(result.wrong_node, ctx, function) is not None:
            return "JIT202"
        return "JIT418" if result.wrong_type in (None, FLOAT) else None
    if isinstance(result, R.ReturnMismatch):
        return "JIT208"
    if isinstance(result, R.ModuleContainerProblem):
        return "JIT234" if result.unpacked else "JIT315"
    if isinstance(result, R.TargetProblem):
        return "JIT225" if result.problem == "del-attribute" else "JIT234"
    if isinstance(result, R.ClassProblem):
        return {"augmented": "JIT626", "no-delitem": "JIT225", "with-methods": "JIT122", "with-enter": "JIT122",
                "with-exit": "JIT122", "with-exit-any": "JIT122", "enum-member": "JIT226",
                "bool-return": "JIT416", "instantiate": "JIT622"}.get(result.problem, "JIT620")
    if isinstance(result, R.ValueProblem):
        return {"raise": "JIT416", "with": "JIT122", "set-attribute": "JIT410"}[result.problem]
    if isinstance(result, R.NoTruthValue):
        if result.type.name in ("Optional", "Union"):
            return "JIT611" if isinstance(result.node, cst.Attribute) else "JIT704"
        return "JIT416"  # `aten::Bool` has no overload for it
    if isinstance(result, R.SpecialFormArguments):
        if result.form in ("enumerate", "zip"):
            return "JIT418"
        if result.missing in ("constant", "function"):
            return "JIT416"
        if result.missing == "legacy":
            return "JIT403"
        return "JIT412" if result.keyword is not None and result.form != "torch._check" or result.twice else "JIT416"
    if isinstance(result, R.SugaredMisuse):
        return "JIT415" if result.kind == "python-value" else "JIT435"
    return None


_SIMPLE_OWNERS: dict[type, str] = {
    R.TolistWithoutHint: "JIT206", R.TolistBadHint: "JIT206", R.ReturnJoin: "JIT209",
    R.BranchMismatch: "JIT701", R.OneBranch: "JIT702", R.NoneThenValue: "JIT703", R.LoopOnly: "JIT705",
    R.VariableTypeChange: "JIT706", R.TernaryMismatch: "JIT707", R.AttributeNoneAssigned: "JIT609",
    R.AttributeTypeChange: "JIT610", R.EmptyContainerFilled: "JIT210", R.TupleMisuse: "JIT220",
    R.HintMismatch: "JIT221", R.MissingReturn: "JIT222", R.NotIterable: "JIT223", R.NotSubscriptable: "JIT223",
    R.MethodAsValue: "JIT224", R.DeleteSlice: "JIT225", R.CannotUnpack: "JIT234", R.UnwrapNone: "JIT416",
    R.TupleOfList: "JIT124", R.IdOfValue: "JIT405", R.UnpackArity: "JIT234", R.SugaredReassign: "JIT706",
    R.DeleteUndefined: "JIT425", R.AnnotateMismatch: "JIT221", R.HasattrSubject: "JIT417", R.TensorIndex: "JIT223",
    R.ContainerSliceAssign: "JIT225", R.UnionCandidates: "JIT221", R.DictKeyProblem: "JIT207",
    R.AttributeUnconvertible: "JIT603",
}


def results_for(rule: ScriptRule, node: cst.FunctionDef, ctx: RuleContext) -> Iterator[R.Result]:
    """The typer's results of a compiled function that `rule` reports."""
    if ctx.function is None or ctx.function.info.node is not node or not ctx.function.body_captured:
        return
    for result in function_types(ctx, node).results:
        if owner(result, ctx, node) == rule.code:
            yield result


def with_path(ctx: RuleContext, function: cst.FunctionDef, node: cst.CSTNode,
              build: Callable[[], PendingFix | None]) -> PendingFix | None:
    """Build a fix with `ctx.ancestors` extended from the function down to `node` (what the rewriting helpers read)."""
    if not ctx.ancestors or ctx.ancestors[-1] is not function:
        return None
    path = fixers.path_to(function, node)
    if path is None:
        return None
    saved = ctx.ancestors
    ctx.ancestors = saved + path[1:]
    try:
        return build()
    finally:
        ctx.ancestors = saved


class _TypedRule(ScriptRule):
    """A rule that reports typer results: `render` words one (message, fix builder or None)."""

    facts = (ScriptTypes,)

    def visit_FunctionDef(self, node: cst.FunctionDef, ctx: RuleContext) -> None:
        for result in results_for(self, node, ctx):
            rendered = self.render(result, ctx, node)
            if rendered is None:
                continue
            message, build = rendered
            fix = with_path(ctx, node, result.node, build) if build is not None and self.fix is not None else None
            ctx.report(result.node, message, fix=fix)

    def render(self, result, ctx: RuleContext, function: cst.FunctionDef):
        raise NotImplementedError


def _spelled(kind: Type, ctx: RuleContext) -> str:
    return annotation(kind, tensor="torch.Tensor")


# -- the helpers of the claims ---------------------------------------------------------------------------------------
def _optional_argument(result: R.NoMatchingCall, ctx: RuleContext) -> int | None:
    """The argument (-1: the receiver) that is an Optional (a local, a parameter, an attribute) the call would accept
    once refined to its contained type."""
    candidates = [(-1, result.receiver)] if result.receiver_node is not None else []
    candidates += [(index, argument.type) for index, argument in enumerate(result.arguments)]
    optional = [(index, kind) for index, kind in candidates if kind is not None and _maybe_none(kind)
                and _refinable(result.argument_node(index))]
    for index, kind in optional:
        if result.rematch(index, without_none(kind)):
            return index
    if len(optional) > 1 and result.rematch_all({index: without_none(kind) for index, kind in optional}):
        return optional[0][0]  # `x + y` of two Optionals: both need refining
    return None


def _optional_receiver(result: R.NoAttribute, ctx: RuleContext) -> cst.BaseExpression | None:
    base = result.node.value if isinstance(result.node, cst.Attribute) else None
    return base if base is not None and _refinable(base) and _maybe_none(result.owner) else None


def _maybe_none(kind: Type) -> bool:
    return kind.name == "Optional" or (kind.name == "Union" and NONE in kind.args)


def _refinable(node: cst.CSTNode | None) -> bool:
    return isinstance(node, cst.Name) or (isinstance(node, cst.Attribute) and isinstance(node.value, cst.Name))


def unannotated_param(node: cst.CSTNode | None, ctx: RuleContext, function: cst.FunctionDef) -> cst.Param | None:
    """The parameter `node` names, when it has no annotation (torch types it Tensor) and the function never
    re-binds it."""
    if not isinstance(node, cst.Name) or ctx.function is None:
        return None
    info = ctx.function.info
    found = signature(function, ctx.module.imports, ctx.project, info.bound_first_param is not None)
    param = found.param(node.value)
    if param is None or param.annotated or found.by_comment or node.value in assigned_names(function):
        return None
    if param.default is not None and not (isinstance(param.default, cst.Name) and param.default.value == "None"):
        return None
    return param.node


_TENSOR_LISTS = frozenset({"torch.cat", "torch.stack", "torch.concat", "torch.concatenate"})


def unannotated_argument(result: R.NoMatchingCall, ctx: RuleContext, function: cst.FunctionDef) -> int | None:
    """An argument that is an unannotated parameter (a Tensor to torch) of this function, compared with a str or
    given to `torch.cat`/`torch.stack` (which take a list), without which the call would match: torch rejects it
    because of that parameter's type (other calls are JIT416's, with torch's "inferred" note)."""
    compares_str = result.operator in ("==", "!=", "in", "not in") and any(
        argument.type == STR or (argument.type is not None and argument.type.name in ("List", "Tuple")
                                 and STR in argument.type.args) for argument in result.arguments)
    if not compares_str and result.callee not in _TENSOR_LISTS:
        return None
    for index, argument in enumerate(result.arguments):
        if argument.type == TENSOR and unannotated_param(argument.node, ctx, function) is not None:
            if result.rematch(index, None):
                return index
    if result.receiver == TENSOR and unannotated_param(result.receiver_node, ctx, function) is not None:
        if result.rematch(-1, None):
            return -1
    return None


def callee_param(result: R.NoMatchingCall):
    """For a call of a compiled project function that torch rejects: the parameter of the callee that has no
    annotation (a Tensor to torch) and that the call gives something else, with the argument's index and type."""
    found = callee_params(result)
    return found[0] if found else None


def callee_params(result: R.NoMatchingCall) -> list:
    """Each argument of such a call that torch would reject, in turn (the first, then the next once the first is
    set aside): (the callee's unannotated parameter, the argument's index, the argument's type)."""
    info = result.project_function
    if info is None or not result.rejections or len(result.candidates) != 1:
        return []  # an overloaded function is called through its declarations
    from dataclasses import replace as _replace

    from jitlint.targets.script.typing.calls import match_overloads

    found = signature(info.node, info.module.imports, None, info.bound_first_param == "instance")
    params = []
    args = list(result.args)
    rejection = result.rejections[0][1]
    while rejection is not None and rejection.kind == "type" and rejection.param is not None and (
            rejection.argument is not None and rejection.argument >= 0):
        param = found.param(rejection.param.name)
        if param is None or param.annotated or found.by_comment:
            break
        params.append((param, rejection.argument, rejection.value))
        args[rejection.argument] = _replace(args[rejection.argument], type=None)
        matched = match_overloads(result.candidates, args)
        rejection = matched.rejections[0][1] if matched.status == "no" and matched.rejections else None
    return params


# -- JIT206 -----------------------------------------------------------------------------------------------------------
class TolistNeedsAnnotation(_TypedRule):
    code = "JIT206"
    name = "tolist-needs-annotation"
    severity = "error"
    fix = "unsafe"
    summary = "`.tolist()` on a Tensor whose result is not assigned to an annotated variable"
    message = "`.tolist()` without a type annotation"

    def render(self, result, ctx, function):
        if isinstance(result, R.TolistBadHint):
            return (f"`.tolist()` annotated with {result.hint}: its elements can only be int, float, complex or bool "
                    f"(torch: '{result.element} is not one of the supported element types for tolist'); annotate it "
                    "`List[float]` (nested as deep as the tensor's rank)"), None
        return ("TorchScript cannot infer the type of `.tolist()`; assign it to an annotated variable: "
                "`values: List[float] = x.tolist()` (the element type and nesting must match the tensor's dtype and "
                "rank)"), lambda: fixers.annotate_tolist(result.node, ctx)


# -- JIT208, JIT209, JIT222 -------------------------------------------------------------------------------------------
class ReturnTypeMismatch(_TypedRule):
    code = "JIT208"
    name = "return-type-mismatch"
    severity = "error"
    fix = "safe"
    summary = "`return None` in a function annotated to return a non-Optional type"
    message = "returns None from a function annotated with another type"

    def render(self, result: R.ReturnMismatch, ctx, function):
        if result.actual == NONE:
            return (f"the function is annotated to return {result.declared}, but this returns None; TorchScript "
                    f"rejects it. Annotate the return as `Optional[{_spelled(result.declared, ctx)}]`"), (
                lambda: fixers.optional_return(result.node, ctx))
        return (f"the function is annotated to return {result.declared}, but this returns {describe(result.actual)} "
                f"(torch: 'Return value was annotated as having type {result.declared} but is actually of type "
                f"{result.actual}'); return that type, or fix the annotation"), None


class TupleReturnArityMismatch(_TypedRule):
    code = "JIT209"
    name = "tuple-return-arity-mismatch"
    severity = "error"
    summary = "returns of tuples of different lengths, or a tuple and a non-tuple"
    message = "returns tuples of different lengths, or a tuple and a non-tuple"

    def render(self, result: R.ReturnJoin, ctx, function):
        return (f"this returns {_shape(result.actual)}, but an earlier return returns {_shape(result.previous)}; "
                f"TorchScript needs one return type (torch: 'Previous return statement returned a value of type "
                f"{result.previous} but this return statement returns a value of type {result.actual}'). Return the "
                "same type everywhere"), None


def _shape(kind: Type) -> str:
    if kind.name == "Tuple" and not kind.qualname:
        return f"a tuple of {len(kind.args)}"
    return describe(kind)


class MissingReturn(_TypedRule):
    code = "JIT222"
    name = "missing-return"
    severity = "error"
    fix = "safe"
    summary = "a function annotated to return a value whose end can be reached without a `return`"
    message = "does not return along all paths"

    def render(self, result: R.MissingReturn, ctx, function):
        return ("the end of this function can be reached without a `return`, and it is annotated to return "
                f"{result.declared if result.declared is not None else 'a value'} (torch: 'Function was not annotated "
                "as having type None, but does not return along all paths'); return a value on every path "
                "(TorchScript does not count a loop as returning), or raise"), (
            lambda: fixers.return_none_at_end(result.node, ctx))


# -- JIT701-708 -------------------------------------------------------------------------------------------------------
class BranchTypeMismatch(_TypedRule):
    code = "JIT701"
    name = "branch-type-mismatch"
    severity = "error"
    summary = "a variable set to a Tensor in one branch and an int in the other (and read after)"
    message = "variable set to different types in the branches of an if"

    def render(self, result: R.BranchMismatch, ctx, function):
        return (f"`{result.name}` is {describe(result.true_type)} in the true branch and {describe(result.false_type)} "
                f"in the false branch; TorchScript needs one type after the `if` (it reads `{result.name}` later). Give "
                "both branches the same type"), None


class DefinedInOneBranch(_TypedRule):
    code = "JIT702"
    name = "defined-in-one-branch"
    severity = "error"
    fix = "safe"
    summary = "a variable set in one branch only and read after the `if`"
    message = "variable set in one branch only and read after the if"

    def render(self, result: R.OneBranch, ctx, function):
        # Silent where the variable is set and read only under `if self.flag:` and the flag is a `Final` of the
        # class: torch keeps both branches or drops both (this rule's fix makes the flag so).
        cls = next((a for a in reversed(ctx.ancestors) if isinstance(a, cst.ClassDef)), None)
        flag = fixers.same_flag_branches(function, result.statement, result.name) if result.statement else None
        if cls is not None and flag is not None and flag in _final_names(cls):
            return None
        branch, other = ("true", "false") if result.in_body else ("false", "true")
        return (f"`{result.name}` is set only in the {branch} branch of this `if` and read after it; TorchScript "
                f"rejects that ('{result.name} is not defined in the {other} branch'). Set it before the `if`, or in "
                "both branches"), (lambda: fixers.flag_for_one_branch(function, result.statement, result.name, ctx))


def _final_names(cls: cst.ClassDef) -> set[str]:
    """The names the class body annotates `Final[...]` (any spelling)."""
    names: set[str] = set()
    if not isinstance(cls.body, cst.IndentedBlock):
        return names
    for statement in cls.body.body:
        if isinstance(statement, cst.SimpleStatementLine):
            for small in statement.body:
                if isinstance(small, cst.AnnAssign) and isinstance(small.target, cst.Name):
                    annotation_node = small.annotation.annotation
                    base = annotation_node.value if isinstance(annotation_node, cst.Subscript) else annotation_node
                    if (isinstance(base, cst.Name) and base.value == "Final") or (
                            isinstance(base, cst.Attribute) and base.attr.value == "Final"):
                        names.add(small.target.value)
    return names


class NoneInitThenValue(_TypedRule):
    code = "JIT703"
    name = "none-init-then-tensor"
    severity = "error"
    fix = "safe"
    summary = "`acc = None` (unannotated), then assigned a value in a branch or loop"
    message = "variable initialised to None without annotation, then assigned in a branch or loop"

    def render(self, result: R.NoneThenValue, ctx, function):
        spelled = _spelled(without_none(result.new), ctx)
        return (f"`{result.name}` was set to None without an annotation, so TorchScript types it NoneType; this "
                f"assignment of {describe(result.new)} inside a branch or loop fails. Annotate the first assignment: "
                f"`{result.name}: Optional[{spelled}] = None`"), (
            lambda: fixers.annotate_none_start(result.name, spelled, ctx))


class OptionalUsedWithoutRefine(_TypedRule):
    code = "JIT704"
    name = "optional-used-without-refine"
    severity = "error"
    fix = "unsafe"
    summary = (
        "an `Optional[T]` parameter used as a value where it is not refined (`if m is not None`, `assert`, "
        "early exit)"
    )
    message = "Optional value used without a None check"

    def render(self, result, ctx, function):
        name, how, node = _optional_use(result, ctx)
        if name is None:
            return None
        if isinstance(result, R.NoTruthValue):  # `if x:` means "not None and truthy": no assert says that
            return (f"`{name}` is Optional here and {how}; TorchScript makes no bool of an Optional (torch: 'Could "
                    f"not cast value of type {result.type} to bool'). Test `{name} is not None` (and then its value) "
                    "instead"), None
        return (f"`{name}` is Optional here and {how}; TorchScript rejects that until it is refined. Test it first: "
                f"`if {name} is not None:` (or `assert {name} is not None`)"), (
            lambda: fixers.assert_not_none(node, ctx))

    def visit_FunctionDef(self, node: cst.FunctionDef, ctx: RuleContext) -> None:
        # one finding per name: the first use torch rejects
        seen: set[str] = set()
        for result in results_for(self, node, ctx):
            name, how, where = _optional_use(result, ctx)
            if name is None or name in seen:
                continue
            seen.add(name)
            message, build = self.render(result, ctx, node)
            ctx.report(where, message, fix=with_path(ctx, node, where, build) if build is not None else None)


def _optional_use(result, ctx: RuleContext):
    """(name, how it is used, the node) of the unrefined Optional a result is about."""
    if isinstance(result, R.NoAttribute):
        base = result.node.value
        text = ctx.code(base)
        return text, f"has its attribute `.{result.name}` read", base
    if isinstance(result, R.NoTruthValue):
        return ctx.code(result.node), "is tested for truth", result.node
    index = _optional_argument(result, ctx)
    node = result.argument_node(index)
    if node is None:
        return None, "", None
    text = ctx.code(node)
    if index == -1:
        how = f"has its method `.{result.callee.rsplit('.', 1)[-1]}()` called"
    elif result.operator is not None:
        how = "is used in arithmetic" if result.operator in "+-*/%@**//" else f"is used with `{result.operator}`"
    else:
        how = f"is passed to `{result.callee.rsplit('.', 1)[-1]}()`"
    return text, how, node


class LoopVariableUsedAfterLoop(_TypedRule):
    code = "JIT705"
    name = "loop-var-used-after-loop"
    severity = "error"
    summary = "a variable first set inside a loop, read after it"
    message = "variable first set inside a loop is read after it"

    def render(self, result: R.LoopOnly, ctx, function):
        return (f"`{result.name}` is first set inside a loop above and read here, after the loop; TorchScript scopes "
                f"it to the loop ('undefined value {result.name}'). Set it before the loop"), None


class LoopCarriedTypeChange(_TypedRule):
    code = "JIT706"
    name = "loop-carried-type-change"
    severity = "error"
    fix = "unsafe"
    summary = "`s = 0` then `s += 0.5` in a loop or branch (int becomes float)"
    message = "variable changes type inside a branch or loop"

    def render(self, result: R.VariableTypeChange | R.SugaredReassign, ctx, function):
        if isinstance(result, R.SugaredReassign):
            before = sugared_words(result.previous_kind) if result.previous_kind else describe(result.previous)
            after = sugared_words(result.value_kind) if result.value_kind else describe(result.value)
            return (f"`{result.name}` holds {before} before this branch or loop, and this assigns it {after}; "
                    f"TorchScript re-binds a variable in an inner block only when both values are first-class (a "
                    f"function, a module or a Python module is not), so it fails with \"Cannot re-assign "
                    f"'{result.name}'\". Use another name here, or call the function where it is needed"), None
        where = "block" if result.augmented else "loop or branch"
        change = "this update makes it" if result.augmented else "this assigns it"
        hint = " (`0.0` rather than `0`)" if (result.previous, result.new) == (INT, FLOAT) else ""
        build = (lambda: fixers.start_as_float(result.name, ctx)) if (result.previous, result.new) == (INT, FLOAT) \
            else None
        return (f"`{result.name}` is {describe(result.previous)} before this {where}, and {change} "
                f"{describe(result.new)}; TorchScript keeps one type for a variable across branches and loop "
                f"iterations (torch: 'Variable '{result.name}' previously had type {result.previous} but is now being "
                f"assigned to a value of type {result.new}'). Start it as {describe(result.new)}{hint}"), build


def sugared_words(kind: str | None) -> str:
    """A sugared value's kind in words (what TorchScript holds in a name without a first-class value)."""
    return {"builtin": "a builtin function", "function": "a function", "python-module": "a Python module",
            "python-value": "a module-level Python value", "method": "a method", "module": "a module",
            "self-module": "the module itself", "class": "a class", "range": "a `range`", "zip": "a `zip`",
            "enumerate": "an `enumerate`", "exception": "an exception class",
            "exception-instance": "an exception"}.get(kind or "", "a value with no TorchScript type")


class TernaryTypeMismatch(_TypedRule):
    code = "JIT707"
    name = "ternary-type-mismatch"
    severity = "error"
    summary = "`x if cond else 0`: arms of different types"
    message = "if-expression with branches of different types"

    def render(self, result: R.TernaryMismatch, ctx, function):
        return (f"the true branch of this if-expression is {describe(result.body)} and the false branch "
                f"{describe(result.orelse)}; TorchScript needs one type. Make both the same type"), None


class ItemIsNumber(_TypedRule):
    code = "JIT708"
    name = "item-is-number"
    severity = "error"
    fix = "unsafe"
    summary = "`range(t.item())`: `.item()` is a number, `range` needs an int"
    message = "`.item()` used where TorchScript needs an int"

    def render(self, result, ctx, function):
        if isinstance(result, R.AnnotatedMismatch):
            wanted = result.annotation
            return (f"`.item()` returns a number (int or float) to TorchScript, and an annotated {wanted} variable "
                    f"does not take one ('Variable ... is annotated with type {wanted} but is being assigned to a "
                    f"value of type number'); wrap it: `{wanted}(....item())`"), (
                lambda: fixers.item_to_int(result.node.value, str(wanted), ctx))
        node = result.wrong_node
        return ("`.item()` returns a number (int or float) to TorchScript, and `range()` needs an int; wrap it: "
                "`int(....item())`"), (lambda: fixers.item_to_int(node, "int", ctx))

    def visit_FunctionDef(self, node: cst.FunctionDef, ctx: RuleContext) -> None:
        for result in results_for(self, node, ctx):
            message, build = self.render(result, ctx, node)
            where = result.node.target if isinstance(result, R.AnnotatedMismatch) else result.wrong_node
            ctx.report(where, message, fix=with_path(ctx, node, where, build))


# -- JIT609-611 -------------------------------------------------------------------------------------------------------
class AttributeNoneNeedsOptional(_TypedRule):
    code = "JIT609"
    name = "attr-none-needs-optional-annotation"
    severity = "error"
    fix = "safe"
    summary = "`self.cache = None` in `__init__`, assigned a Tensor in compiled code, no class-level `Optional`"
    message = "attribute that is None in `__init__` assigned a value without a class-level Optional annotation"

    def render(self, result: R.AttributeNoneAssigned, ctx, function):
        spelled = _spelled(without_none(result.new), ctx)
        return (f"`self.{result.name}` is None in `__init__` and has no class-level annotation, so TorchScript types "
                f"it NoneType; assigning {describe(result.new)} here fails. Declare it in the class body: "
                f"`{result.name}: Optional[{spelled}]`"), (
            lambda: fixers.class_optional_annotation(result.name, spelled, ctx))


class AttributeTypeChange(_TypedRule):
    code = "JIT610"
    name = "attr-type-change-in-forward"
    severity = "error"
    summary = "`self.steps = 0` in `__init__`, assigned a Tensor (or a float) in compiled code"
    message = "compiled code assigns an attribute a value of another type than `__init__` gave it"

    def render(self, result: R.AttributeTypeChange, ctx, function):
        return (f"`self.{result.name}` is {describe(result.current)} in `__init__`, and this assigns it "
                f"{describe(result.new)}; TorchScript fixes an attribute's type when it scripts the module (torch: "
                f"'Wrong type for attribute assignment. Expected {result.current} but got {result.new}'). Keep it "
                f"{describe(result.current)}, or start it as {describe(result.new)}"), None


class OptionalAttributeNoLocalRefine(_TypedRule):
    code = "JIT611"
    name = "optional-attr-no-local-refine"
    severity = "error"
    fix = "safe"
    summary = "an attribute declared `Optional` used as a value (torch never refines attributes)"
    message = "Optional attribute used as a value (attributes are never refined)"

    def visit_FunctionDef(self, node: cst.FunctionDef, ctx: RuleContext) -> None:
        seen: set[str] = set()
        for result in results_for(self, node, ctx):
            name, how, where = _optional_use(result, ctx)
            if name is None or name in seen or not isinstance(where, cst.Attribute):
                continue
            seen.add(name)
            attribute = where.attr.value
            if isinstance(result, R.NoTruthValue):
                ctx.report(where, f"`{name}` is declared Optional and {how}; TorchScript makes no bool of an Optional "
                                  f"(torch: 'Could not cast value of type {result.type} to bool'). Copy it to a local "
                                  f"(`{attribute} = {name}`) and test `{attribute} is not None` instead")
                continue
            message = (f"`{name}` is declared Optional and {how}; TorchScript never refines an attribute, even inside "
                       f"`if {name} is not None:`. Copy it to a local first: `{attribute} = {name}`, then test "
                       f"`if {attribute} is not None:`")
            ctx.report(where, message, fix=with_path(ctx, node, where, lambda: fixers.refine_through_local(where, ctx)))


# -- JIT210 -----------------------------------------------------------------------------------------------------------
class EmptyContainerNeedsAnnotation(_TypedRule):
    code = "JIT210"
    name = "empty-container-needs-annotation"
    severity = "error"
    fix = "safe"
    summary = "`sizes = []` then `sizes.append(x.size(0))`; `d = {}` then a non-str key or non-Tensor value"
    message = "unannotated empty list or dict filled with non-Tensor values"

    def render(self, result: R.EmptyContainerFilled, ctx, function):
        name = result.name
        if result.kind == "list":
            element = _spelled(result.element, ctx) if result.element is not None else None
            given = describe(result.element) if result.element is not None else "values of other types"
            shown = f"List[{element}]" if element is not None else "List[...]"
            message = (f"`{name}` starts as an unannotated `[]`, which TorchScript types List[Tensor], and this "
                       f"appends {given}; annotate it where it starts: `{name}: {shown} = []`")
            annotation_text = f"List[{element}]" if element is not None else None
            empty = "[]"
        else:
            key = _spelled(result.key, ctx) if result.key is not None else "str"
            value = _spelled(result.element, ctx) if result.element is not None else "torch.Tensor"
            message = (f"`{name}` starts as an unannotated `{{}}`, which TorchScript types Dict[str, Tensor], and this "
                       f"stores a key or value of another type; annotate it where it starts: "
                       f"`{name}: Dict[{key}, {value}] = {{}}`")
            annotation_text = f"Dict[{key}, {value}]" if result.element is not None or result.key is not None else None
            empty = "{}"
        if annotation_text is None or result.start is None:
            return message, None
        return message, lambda: fixers.annotate_empty_container(result.start, name, annotation_text, empty, ctx)


# -- JIT416, JIT418 ---------------------------------------------------------------------------------------------------
class NoMatchingOverload(_TypedRule):
    code = "JIT416"
    name = "no-matching-overload"
    severity = "error"
    fix = "safe"
    summary = (
        "a call of a torch operator, Tensor method or `torch.nn.functional` function whose arguments match none of "
        "its TorchScript signatures (wrong keyword, an int where a float is required, a mixed list)"
    )
    message = "no overload of the operator accepts these arguments"

    def render(self, result, ctx, function):
        if isinstance(result, R.SpecialFormArguments):
            return f"TorchScript rejects this call: '{special_form_problem(result)}'", None
        if isinstance(result, R.ClassProblem):  # bool-return
            return (f"`{result.cls}.__bool__` returns {describe(result.type)}, and a condition needs a bool (torch: "
                    f"'expected a bool expression for condition but found {result.type}'); return a bool"), None
        if isinstance(result, R.ValueProblem):  # raise
            return (f"this raises {describe(result.type)}; TorchScript raises only exceptions (torch: 'exceptions must "
                    "derive from BaseException'); raise `RuntimeError(...)` with the message"), None
        if isinstance(result, R.NoTruthValue):
            return (f"a {result.type} tested for truth: TorchScript makes a bool only of a bool, a number, a Tensor, a "
                    f"str or a container (torch: 'Could not cast value of type {result.type} to bool'); compare it "
                    "to what you mean"), None
        if isinstance(result, R.UnwrapNone):
            return ("`torch.jit._unwrap_optional(None)`: torch cannot infer the contained type from a None (torch: "
                    "'aten::_unwrap_optional(t(a)? optional) -> t(a)')"), None
        shown = "; ".join(f"`{overload.signature()}`: {_why(rejection)}" for overload, rejection in result.rejections[:3])
        more = len(result.rejections) - 3
        callee = f"`{result.callee}`" if result.operator is None else f"`{result.operator}`"
        return (f"no signature of {callee} accepts these arguments (torch: 'Arguments for call are not valid'); "
                f"candidates: {shown}" + (f"; and {more} more" if more > 0 else "")), (
            lambda: fixers.obvious_cast(result.node, ctx))


def special_form_problem(result: R.SpecialFormArguments) -> str:
    """What torch says of a special form's arguments."""
    form, count = result.form, result.count
    if result.missing == "constant":
        return (f"{form.rsplit('.', 1)[-1]} dispatches on `{result.keyword}` while compiling, and it is a variable here "
                f"(torch: \"Argument for boolean dispatch ... was not constant\"); pass True or False")
    if form in ("rpc_sync", "rpc_async", "remote"):
        if result.missing == "function":
            return f"user_callable should be a FunctionValue, it's now a {result.keyword}"
        if result.keyword:
            return f"{form}(dst_worker_name, user_callable, args, kwargs)does not support kwargs yet"
        return f"Possible forms of call to {form}(..) are: {form}(dst_worker_name, user_callable, args, kwargs, timeout) ..."
    if form == "torch._check":
        if result.twice:
            return f"torch._check() got multiple values for argument '{result.keyword}'"
        if result.missing:
            return f"torch._check() missing required argument '{result.missing}'"
        if result.keyword:
            return f"torch._check() got unexpected keyword argument '{result.keyword}'"
        return f"torch._check() expects 1 or 2 arguments, got {count}"
    if form == "slice":
        return "Slice does not accept any keyword arguments" if result.keyword else (
            f"slice accepts exactly 1, 2 or 3 arguments, got: {count}")
    if form == "enumerate" and result.keyword:
        return f"enumerate expected kwarg name 'start', got '{result.keyword}'"
    if form in ("fork", "awaitable"):
        return f"Expected at least one argument to {form}()"
    if result.keyword:
        return f"{form} takes no keyword arguments"
    if result.most is None:
        return f"{form} expected at least {result.least} arguments, got {count}"
    if result.least != result.most:
        return (f"{form} expected to have number of arguments between {result.least} and {result.most} but found "
                f"{count}")
    return f"{form} expected exactly {result.least} arguments but found {count}"


def _why(rejection) -> str:
    """A rejection as torch's failure message words it."""
    kind = rejection.kind
    if kind in ("type", "type-variable"):
        param = rejection.param
        return (f"Expected a value of type '{param.spelled}' for argument '{param.name}' but instead found type "
                f"'{rejection.value}'.")
    if kind == "missing":
        return f"Argument {rejection.param.name} not provided."
    if kind == "unknown-keyword":
        return f"Keyword argument {rejection.keyword} unknown."
    if kind == "twice":
        return f"Argument {rejection.keyword} specified twice."
    if kind == "too-many":
        return f"Expected at most fewer arguments but found {rejection.given} positional arguments."
    return "Provided self argument not used in schema."


class RangeEnumerateArguments(_TypedRule):
    code = "JIT418"
    name = "range-enumerate-arguments"
    severity = "error"
    summary = "`range()` or `enumerate()` with a wrong number of arguments, or `range()` of a float"
    message = "`range`/`enumerate` called with arguments TorchScript rejects"

    def render(self, result: R.RangeArguments | R.SpecialFormArguments, ctx, function):
        if isinstance(result, R.SpecialFormArguments):
            return f"TorchScript rejects this call: '{special_form_problem(result)}'", None
        if result.count == 0:
            problem = f"{result.function} expected at least 1 arguments, got 0"
        elif result.count > result.most:
            problem = f"{result.function} expected at most {result.most} arguments, got {result.count}"
        else:
            problem = f"all inputs of range must be ints, found float in argument {result.wrong_argument}"
        return f"TorchScript rejects this call: '{problem}'", None


# -- JIT220-225, JIT233, JIT234, JIT315 -----------------------------------------------------------------------------
class TupleMisuse(_TypedRule):
    code = "JIT220"
    name = "tuple-misuse"
    severity = "error"
    summary = "a tuple indexed out of range or by a non-literal, assigned into, given an attribute, or tested for truth"
    message = "a tuple used in a way TorchScript's fixed-type tuples do not support"

    def render(self, result: R.TupleMisuse, ctx, function):
        kind = result.type
        spelled = str(kind) if kind.fully_known else "Tuple"
        problem = result.problem
        if problem == "range":
            length = len(kind.args)
            return (f"this tuple has {length} element{'s' if length != 1 else ''} (torch: 'Tuple index out of range. "
                    f"Tuple is length {length} and index is {result.index}')"), None
        if problem == "index-type":
            return f"a tuple's index is {describe(result.index_type)} here (torch: 'tuple index must be an integer')", None
        if problem == "non-literal":
            return (f"the index is not an int literal, and the elements of this {spelled} have different types, so "
                    f"TorchScript cannot type the result (torch: 'Cannot index into a {spelled} with a non-integer "
                    "literal'); index with a literal, or unpack the tuple"), None
        if problem in ("assign", "aug-assign"):
            what = "subscripted assignment" if problem == "assign" else "augmented assignment."
            return (f"a tuple is immutable in TorchScript (torch: '{spelled} does not support {what}'); build a new "
                    "tuple, or use a list"), None
        if problem == "slice-bound":
            return (f"a tuple is sliced here with a bound that is not an int literal, and TorchScript must know the "
                    f"result's length (torch: 'tuple slice indices must be integer constants'); slice with literals, "
                    "or use a list"), None
        if problem == "truth":
            return (f"a tuple has no truth value in TorchScript (torch: 'Could not cast value of type {spelled} to "
                    "bool'); test `len(...)` or its elements"), None
        return (f"a tuple has no attributes or methods in TorchScript (torch: ''{spelled}' object has no attribute or "
                f"method '{result.name}''); a NamedTuple has its fields"), None


class AnnotatedAssignmentMismatch(_TypedRule):
    code = "JIT221"
    name = "annotated-assignment-mismatch"
    severity = "error"
    fix = "unsafe"
    summary = "`x: T = value` with a value of another type, or an inner block re-annotating an outer variable"
    message = "an annotated assignment TorchScript rejects"

    def render(self, result, ctx, function):
        if isinstance(result, R.HintMismatch):
            return _hint_message(result), None
        if isinstance(result, R.UnionCandidates):
            members = [m for m in result.hint.members() if m is not None and m.name == result.kind.capitalize()]
            spelled = ", ".join(str(m) for m in members)
            if result.found is None:
                return (f"an empty {result.kind} annotated {result.hint}, which has several {result.kind} members "
                        f"({spelled}): torch cannot choose one (torch: 'Cannot assign an empty {result.kind} to a "
                        f"variable annotated to be type {result.hint} because there are multiple possible "
                        f"{result.kind.capitalize()} type candidates in the Union annotation'); annotate the one "
                        "meant"), None
            return (f"this {result.kind}'s elements are {result.found}, which none of the {result.kind} members of "
                    f"{result.hint} ({spelled}) holds (torch: 'Union type annotation `{result.hint}` can hold "
                    f"{spelled}, but none of those {result.kind} types can hold the types of the given ...'); fix "
                    "the elements or the annotation"), None
        if isinstance(result, R.AnnotateMismatch):
            return (f"`torch.jit.annotate({result.annotation}, ...)` of {describe(result.value)} (torch: 'expected an "
                    f"expression of type {result.annotation} but found {result.value}'); TorchScript converts nothing "
                    "here. Annotate the value's own type, or convert it first"), None
        name = result.name
        if result.reannotated:
            return (f"`{name}` is already defined in an enclosing block, and TorchScript does not let an inner block "
                    f"re-annotate it (torch: 'Attempting to declare and annotate the type of variable '{name}' but it "
                    "is already defined in an outer block'); annotate it where it is first set"), None
        build = None
        if result.annotation == FLOAT and result.value == INT:
            build = lambda: fixers.convert_annotated_value(result.node, "float", ctx)  # noqa: E731
        return (f"`{name}` is annotated {result.annotation} and this assigns {describe(result.value)} (torch: "
                f"'Variable '{name}' is annotated with type {result.annotation} but is being assigned to a value of "
                f"type {result.value}'); TorchScript converts nothing here. Make the value that type (`float(...)`, a "
                "new container), or fix the annotation"), build


def _hint_message(result: R.HintMismatch) -> str:
    what = result.kind
    if result.role is None:
        kind = "List" if what == "list" else "Dict"
        display = "comprehension" if result.comprehension else "literal"
        return (f"a {what} {display} annotated {result.annotation} (torch: 'Expected an annotation of type {kind} but "
                f"got {result.annotation}'); annotate it `{kind}[...]`")
    if result.optional_name is not None and result.value is not None and _maybe_none(result.value):
        element = result.wanted
        return (f"this {what}'s {result.role}s must be {describe(element)}, as its annotation {result.annotation} "
                f"says, and `{result.optional_name}` is {result.value} here (torch: 'Type annotation was inferred to be "
                f"`{result.annotation}`, but the type of {result.role}s given by the {what} literal is "
                f"{result.value}'). Refine it first (`if {result.optional_name} is not None:`), or annotate the "
                f"{what} with Optional {result.role}s")
    return (f"this {what}'s {result.role}s must be {describe(result.wanted)}, as its annotation {result.annotation} "
            f"says, and one is {describe(result.value)}; torch types the {what} by the annotation and rejects it, "
            "since it converts nothing here. Make the elements that type, or fix the annotation")


class NotIterableOrSubscriptable(_TypedRule):
    code = "JIT223"
    name = "not-iterable-or-subscriptable"
    severity = "error"
    summary = "a `for` loop over an int, float or bool, or an index into one"
    message = "an int, float or bool iterated over or indexed"

    def render(self, result, ctx, function):
        if isinstance(result, R.NotIterable):
            return (f"this is {describe(result.type)}, which cannot be iterated over (torch: ''{result.type}' object "
                    "is not iterable'); loop over `range(...)` or a list"), None
        if isinstance(result, R.TensorIndex):
            if result.problem == "ellipses":
                return "a Tensor index holds one `...` at most (torch: \"An index can only have a single ellipsis ('...')\")", None
            if result.problem == "starred":
                return ("TorchScript does not expand `*` inside an index (torch: 'Unexpected starred expansion. File a "
                        "bug report'); index with a tuple built before: `x[tuple(idx)]` is no option either, so "
                        "spell the indices out"), None
            if result.problem == "tensor-after-ellipsis":
                return ("TorchScript does not index a Tensor with a Tensor after a `...` (torch: 'Ellipses followed by "
                        "tensor indexing is currently not supported'); spell out the leading dimensions with `:`"), None
            return (f"a Tensor is indexed here by {describe(result.type)}; TorchScript indexes a Tensor only with ints, "
                    f"slices, None, lists and Tensors (torch: \"Unsupported operation: indexing tensor with unsupported "
                    f"index type '{result.type}'\")"), None
        return f"this indexes {describe(result.type)} (torch: ''{result.type}' object is not subscriptable')", None


class UnknownTensorMethod(_TypedRule):
    code = "JIT224"
    name = "unknown-tensor-method"
    severity = "error"
    fix = "safe"
    summary = "a method TorchScript's Tensor does not have, or a Tensor method used as a value"
    message = "a Tensor method TorchScript does not have, or one used as a value"

    def render(self, result, ctx, function):
        if isinstance(result, R.MethodAsValue):
            return (f"`.{result.name}` is a Tensor method, used here as a value (torch: 'builtin cannot be used as a "
                    f"value'); call it: `.{result.name}(...)`"), None
        if result.name in _OTHER_RULES_METHODS:
            return None
        return (f"TorchScript's Tensor has no method `{result.name}` (torch: ''Tensor' object has no attribute or "
                f"method '{result.name}''); it resolves Tensor methods against its operators"), (
            lambda: fixers.equivalent_tensor_method(result.node, ctx))


def _other_rules_methods() -> frozenset[str]:
    from jitlint.apis import unsupported

    return frozenset({"numpy"}) | unsupported("tensor-method") | unsupported("autograd-method")


_OTHER_RULES_METHODS = _other_rules_methods()  # JIT401 `.numpy()`, JIT403 `.new()`, JIT410 autograd


class DeleteSlice(_TypedRule):
    code = "JIT225"
    name = "del-slice"
    severity = "error"
    fix = "unsafe"
    summary = "`del x[a:b]`: TorchScript deletes one index at a time"
    message = "`del` of a slice"

    def render(self, result, ctx, function):
        if isinstance(result, R.TargetProblem):  # del-attribute
            return ("TorchScript's `del` deletes a variable or one item of a list or dict, not an attribute (torch: 'del "
                    "statements are only supported for deleting list and dict items and variables'); set the "
                    "attribute to another value instead"), None
        if isinstance(result, R.ClassProblem):  # no-delitem
            return (f"`{result.cls}` defines no `__delitem__`, which `del obj[key]` calls (torch: 'Class does not "
                    "define __delitem__')"), None
        if isinstance(result, R.ContainerSliceAssign):
            what = f"{result.type} augmented assignment" if result.augmented else "subscripted assignment"
            return (f"TorchScript assigns an item of a {result.type.name.lower()} through one plain index only, not "
                    f"a slice or several indices (torch: 'Sliced expression not yet supported for {what}'); assign "
                    "the items one by one, or build a new list"), None
        return ("TorchScript's `del` takes a single index, not a slice (torch: 'del statements only support deletion "
                "at a single index, slicing is not supported'); rebuild it: `x = x[:a] + x[b:]`"), (
            lambda: fixers.rebuild_without_slice(result.node, ctx))


class ModuleContainerLength(_TypedRule):
    code = "JIT315"
    name = "module-container-length"
    severity = "error"
    fix = "unsafe"
    summary = "a ModuleList zipped with a list, range or Tensor, or indexed past its length"
    message = "a module container used beyond its static length"

    def render(self, result: R.ModuleContainerProblem, ctx, function):
        if result.length is not None:
            length = result.length
            return (f"`{ctx.code(result.node.value)}` holds {length} module{'s' if length != 1 else ''} after "
                    f"`__init__` (torch: 'Index {result.index} out of range of length {length}')"), None
        partner = result.partner
        what = "a `range()`" if partner == "range" else ("a list" if partner == "list" else f"a {partner}")
        return (f"this zips a {result.container} with {what}: torch unrolls a loop over a module container or a "
                "tuple, and everything zipped with it needs a static length (torch: 'Can not iterate over a module "
                "list or tuple with a value that does not have a statically determinable length'); iterate "
                "`enumerate(...)` of the container and index the other value"), (
            (lambda: fixers.enumerate_the_container(result.node, ctx)) if result.container != "tuple" else None)


class UnknownListMethod(_TypedRule):
    code = "JIT233"
    name = "unknown-list-method"
    severity = "error"
    summary = "a method TorchScript's lists do not have (`shape.numel()` on a `List[int]`)"
    message = "a list method TorchScript does not have"

    def render(self, result: R.NoAttribute, ctx, function):
        return (f"a {result.owner} has no method `{result.name}` in TorchScript (torch: \"'{result.owner}' object has "
                f"no attribute or method '{result.name}'\"); lists have `append`, `extend`, `insert`, `pop`, `index`, "
                "`count`, ... (use `len(...)`, or make it a Tensor first)"), None


class CannotUnpack(_TypedRule):
    code = "JIT234"
    name = "cannot-unpack"
    severity = "error"
    summary = ("tuple-unpacking a value that is not a tuple: the modules of a ModuleList (`for attn, ff in "
               "self.layers:`) or an unannotated (Tensor) parameter (`mean, var = pred`)")
    message = "a module or a Tensor unpacked as a tuple"

    def render(self, result, ctx, function):
        if isinstance(result, R.TargetProblem):
            torch_says = ("unexpected expression on left-hand side of assignment" if result.problem == "list-assign"
                          else "lhs of assignment must be a variable, subscript, or starred expression")
            return (f"TorchScript unpacks into tuple targets only, not a list display `[...]` (torch: '{torch_says}'); "
                    "write the targets as a tuple: `a, b = ...`"), None
        if isinstance(result, R.UnpackArity):
            if result.found < result.need:
                torch_says = f"need {'at least ' if result.starred else ''}{result.need} values to unpack but found only {result.found}"
            else:
                torch_says = f"too many values to unpack: need {result.need} but found {result.found}"
            return (f"this unpacks {result.found} value{'s' if result.found != 1 else ''} into {result.need} "
                    f"target{'s' if result.need != 1 else ''} (torch: '{torch_says}'); match the targets to the "
                    "tuple"), None
        if isinstance(result, R.ModuleContainerProblem):
            return (f"the elements of this {result.container} are modules, and torch cannot unpack a module (torch: "
                    "'module cannot be used as a tuple'), even one that is a ModuleList itself; keep one ModuleList "
                    "per role and loop over `zip(self.attns, self.ffs)`"), None
        if result.what == "tensor":
            value = result.node.value if isinstance(result.node, cst.Assign) else None
            name = value.value if isinstance(value, cst.Name) else None
            subject = f"`{name}` is a Tensor here" if name else "this is a Tensor"
            advice = f"annotate it as a tuple (`{name}: Tuple[Tensor, Tensor]`), or index it" if name else "index it"
            return (f"{subject}, and torch cannot unpack a Tensor (torch: 'Tensor cannot be used as a tuple'); "
                    f"{advice}"), None
        return (f"this is {describe(result.type)}, which torch cannot unpack (torch: '{result.type} cannot be used as "
                "a tuple')"), None
