"""Which script rule reports each result of the TorchScript typer (`jitlint.targets.script.typing`), and the
facts about a result that decide it: every result is reported by one rule, the general ones (a call no overload
accepts: JIT416) unless a more specific rule explains it (an unrefined Optional: JIT704; an Optional attribute:
JIT611; an unannotated parameter torch typed Tensor: JIT202; a list started as `[]`: JIT210). The rules read their
results through `results_for` and word their own messages and fixes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Iterator

import libcst as cst

from jitlint.facts.syntax import assigned_names, path_to
from jitlint.targets.script.typing import results as R
from jitlint.targets.script.typing.analysis import function_types, type_at
from jitlint.targets.script.typing.annotations import signature
from jitlint.targets.script.typing.types import FLOAT, NONE, NUMBER, STR, TENSOR, Type, annotation, without_none

if TYPE_CHECKING:
    from jitlint.rules.base import PendingFix, Rule, RuleContext


# -- who reports what ----------------------------------------------------------------------------------------------
def owner(result: R.Result, ctx: "RuleContext", function: cst.FunctionDef) -> str | None:
    """The code of the rule that reports a typer result (None: no rule reports it)."""
    kind = type(result)
    simple = _SIMPLE_OWNERS.get(kind)
    if simple is not None:
        return simple
    if isinstance(result, R.NoMatchingCall):
        if result.callee == "sum" and isinstance(result.node, cst.Call):
            if sums_tensors(result.node, ctx):
                return "JIT101"  # builtin `sum()` of Tensors: reported by that rule at its call
        if callee_param(result) is not None or unannotated_argument(result, ctx, function) is not None:
            return "JIT202"
        if optional_argument(result, ctx) is not None:
            index = optional_argument(result, ctx)
            node = result.argument_node(index)
            return "JIT611" if isinstance(node, cst.Attribute) else "JIT704"
        return "JIT416"
    if isinstance(result, R.StarredList):
        # `(a, *xs)` of a list is JIT124's; `a, *b = xs` is JIT119's and `f(*xs)` JIT116's, each at its own node
        return "JIT124" if isinstance(result.node, cst.StarredElement) else None
    if isinstance(result, R.NoAttribute):
        if result.owner.name in ("Optional", "Union") and optional_receiver(result, ctx) is not None:
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
        return "JIT418" if result.wrong_type in (None, FLOAT, TENSOR) else None
    if isinstance(result, R.ReturnMismatch):
        return "JIT208"
    if isinstance(result, R.ModuleContainerProblem):
        return "JIT234" if result.unpacked else "JIT315"
    if isinstance(result, R.TargetProblem):
        return "JIT225" if result.problem == "del-attribute" else "JIT234"
    if isinstance(result, R.ClassProblem):
        return {"augmented": "JIT626", "no-delitem": "JIT225", "with-methods": "JIT122", "with-enter": "JIT122",
                "with-exit": "JIT122", "with-exit-any": "JIT122", "enum-member": "JIT226",
                "bool-return": "JIT416", "instantiate": "JIT622", "instantiate-parameter": "JIT622"}.get(result.problem, "JIT620")
    if isinstance(result, R.ValueProblem):
        return {"raise": "JIT416", "with": "JIT122", "set-attribute": "JIT410"}[result.problem]
    if isinstance(result, R.CallableTruth):
        return "JIT416"  # `aten::Bool` has no overload for None, a function or a module
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
    if isinstance(result, R.NotCallable):
        # a parameter called is JIT426's (no default) or JIT430's (a default) by its own check
        func = result.node.func if isinstance(result.node, cst.Call) else None
        is_param = isinstance(func, cst.Name) and any(
            param.name.value == func.value for param in (*function.params.posonly_params, *function.params.params,
                                                         *function.params.kwonly_params))
        return None if is_param or func is None else "JIT426"
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


def results_for(rule: "Rule", node: cst.FunctionDef, ctx: "RuleContext") -> Iterator[R.Result]:
    """The typer's results of a compiled function that `rule` reports."""
    if ctx.function is None or ctx.function.info.node is not node or not ctx.function.body_captured:
        return
    for result in function_types(ctx, node).results:
        if owner(result, ctx, node) == rule.code:
            yield result


def with_path(ctx: "RuleContext", function: cst.FunctionDef, node: cst.CSTNode,
              build: Callable[[], "PendingFix | None"]) -> "PendingFix | None":
    """Build a fix with `ctx.ancestors` extended from the function down to `node` (what the rewriting helpers read)."""
    if not ctx.ancestors or ctx.ancestors[-1] is not function:
        return None
    path = path_to(function, node)
    if path is None:
        return None
    saved = ctx.ancestors
    ctx.ancestors = saved + path[1:]
    try:
        return build()
    finally:
        ctx.ancestors = saved


# -- the helpers of the claims ---------------------------------------------------------------------------------------
def optional_argument(result: R.NoMatchingCall, ctx: "RuleContext") -> int | None:
    """The argument (-1: the receiver) that is an Optional (a local, a parameter, an attribute) the call would accept
    once refined to its contained type."""
    candidates = [(-1, result.receiver)] if result.receiver_node is not None else []
    candidates += [(index, argument.type) for index, argument in enumerate(result.arguments)]
    optional = [(index, kind) for index, kind in candidates if kind is not None and maybe_none(kind)
                and refinable(result.argument_node(index))]
    for index, kind in optional:
        if result.rematch(index, without_none(kind)):
            return index
    if len(optional) > 1 and result.rematch_all({index: without_none(kind) for index, kind in optional}):
        return optional[0][0]  # `x + y` of two Optionals: both need refining
    return None


def optional_receiver(result: R.NoAttribute, ctx: "RuleContext") -> cst.BaseExpression | None:
    base = result.node.value if isinstance(result.node, cst.Attribute) else None
    return base if base is not None and refinable(base) and maybe_none(result.owner) else None


def maybe_none(kind: Type) -> bool:
    return kind.name == "Optional" or (kind.name == "Union" and NONE in kind.args)


def refinable(node: cst.CSTNode | None) -> bool:
    return isinstance(node, cst.Name) or (isinstance(node, cst.Attribute) and isinstance(node.value, cst.Name))


def unannotated_param(node: cst.CSTNode | None, ctx: "RuleContext", function: cst.FunctionDef) -> cst.Param | None:
    """The parameter `node` names, when it has no annotation (torch types it Tensor, whatever its default: the
    body is compiled before the default is converted) and the function never re-binds it."""
    if not isinstance(node, cst.Name) or ctx.function is None:
        return None
    info = ctx.function.info
    found = signature(function, ctx.module.imports, ctx.project, info.bound_first_param is not None)
    param = found.param(node.value)
    if param is None or param.annotated or found.by_comment or node.value in assigned_names(function):
        return None
    return param.node


_TENSOR_LISTS = frozenset({"torch.cat", "torch.stack", "torch.concat", "torch.concatenate"})


def unannotated_argument(result: R.NoMatchingCall, ctx: "RuleContext", function: cst.FunctionDef) -> int | None:
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
    from dataclasses import replace

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
        args[rejection.argument] = replace(args[rejection.argument], type=None)
        matched = match_overloads(result.candidates, args)
        rejection = matched.rejections[0][1] if matched.status == "no" and matched.rejections else None
    return params


def sums_tensors(node: cst.Call, ctx: "RuleContext") -> bool:
    """`sum(xs)` of a list of Tensors (or with a Tensor start), by the typer's types: TorchScript's `aten::sum`
    takes lists of ints, floats, complex and bools only."""
    if not node.args:
        return False
    summed = type_at(ctx, node.args[0].value)
    if isinstance(summed, Type) and summed.name == "List" and summed.args[0] is not None and (
            summed.args[0] == TENSOR or (summed.args[0].name in ("Optional", "Union") and TENSOR in
                                         summed.args[0].members())):
        return True
    return len(node.args) > 1 and type_at(ctx, node.args[1].value) == TENSOR


def written_type(kind: Type) -> str:
    """How a fix writes `kind` in an annotation (`torch.Tensor` for Tensor)."""
    return annotation(kind, tensor="torch.Tensor")


def sugared_words(kind: str | None) -> str:
    """A sugared value's kind in words (what TorchScript holds in a name without a first-class value)."""
    return {"builtin": "a builtin function", "function": "a function", "python-module": "a Python module",
            "python-value": "a module-level Python value", "method": "a method", "module": "a module",
            "self-module": "the module itself", "class": "a class", "range": "a `range`", "zip": "a `zip`",
            "enumerate": "an `enumerate`", "exception": "an exception class",
            "exception-instance": "an exception"}.get(kind or "", "a value with no TorchScript type")
