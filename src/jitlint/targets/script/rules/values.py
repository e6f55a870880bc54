"""The rules that report what the TorchScript typer finds about calls and values in compiled code: JIT416 (a call no
overload accepts), JIT418 (`range`/`enumerate`/`zip` arguments), JIT220-225, JIT233, JIT234 and JIT315 (tuples,
annotated values, iteration and indexing, Tensor and list methods, `del`, unpacking, module containers), each with
its messages and fixes. Which rule reports a result is decided in `jitlint.targets.script.claims`.
"""

from __future__ import annotations

import libcst as cst

from jitlint.rules.base import PendingEdit, PendingFix, RuleContext
from jitlint.targets.script.claims import maybe_none
from jitlint.targets.script.rewrite import (
    compiled_function, enclosing_statement, fresh_name, inner_indent, is_pure_chain,
)
from jitlint.targets.script.rules import TypedRule
from jitlint.targets.script.typing import results as R
from jitlint.targets.script.typing.types import FLOAT, INT, describe



# -- JIT416, JIT418 ---------------------------------------------------------------------------------------------------
class NoMatchingOverload(TypedRule):
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
        if isinstance(result, R.CallableTruth):
            return (f"`self.{result.attribute}` holds what `__init__` gets for `{result.parameter}` (annotated a "
                    f"Callable): None, a function or a module, and TorchScript makes a bool of none of them (torch: "
                    f"'Could not cast value of type NoneType to bool' for None, 'function cannot be used as a value' "
                    f"for a function); test `self.{result.attribute} is not None`"), None
        if isinstance(result, R.UnwrapNone):
            return ("`torch.jit._unwrap_optional(None)`: torch cannot infer the contained type from a None (torch: "
                    "'aten::_unwrap_optional(t(a)? optional) -> t(a)')"), None
        shown = "; ".join(f"`{overload.signature()}`: {_why(rejection)}" for overload, rejection in result.rejections[:3])
        more = len(result.rejections) - 3
        callee = f"`{result.callee}`" if result.operator is None else f"`{result.operator}`"
        return (f"no signature of {callee} accepts these arguments (torch: 'Arguments for call are not valid'); "
                f"candidates: {shown}" + (f"; and {more} more" if more > 0 else "")), (
            lambda: obvious_cast(result.node, ctx))


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


class RangeEnumerateArguments(TypedRule):
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
            found = result.wrong_type if result.wrong_type is not None else "float"
            problem = f"all inputs of range must be ints, found {found} in argument {result.wrong_argument}"
        return f"TorchScript rejects this call: '{problem}'", None


# -- JIT220-225, JIT233, JIT234, JIT315 -----------------------------------------------------------------------------
class TupleMisuse(TypedRule):
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
            return ("a tuple is sliced here with a bound that is not an int literal, and TorchScript must know the "
                    "result's length (torch: 'tuple slice indices must be integer constants'); slice with literals, "
                    "or use a list"), None
        if problem == "truth":
            return (f"a tuple has no truth value in TorchScript (torch: 'Could not cast value of type {spelled} to "
                    "bool'); test `len(...)` or its elements"), None
        return (f"a tuple has no attributes or methods in TorchScript (torch: ''{spelled}' object has no attribute or "
                f"method '{result.name}''); a NamedTuple has its fields"), None


class AnnotatedAssignmentMismatch(TypedRule):
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
            build = lambda: convert_annotated_value(result.node, "float", ctx)  # noqa: E731
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
    if result.optional_name is not None and result.value is not None and maybe_none(result.value):
        element = result.wanted
        return (f"this {what}'s {result.role}s must be {describe(element)}, as its annotation {result.annotation} "
                f"says, and `{result.optional_name}` is {result.value} here (torch: 'Type annotation was inferred to be "
                f"`{result.annotation}`, but the type of {result.role}s given by the {what} literal is "
                f"{result.value}'). Refine it first (`if {result.optional_name} is not None:`), or annotate the "
                f"{what} with Optional {result.role}s")
    return (f"this {what}'s {result.role}s must be {describe(result.wanted)}, as its annotation {result.annotation} "
            f"says, and one is {describe(result.value)}; torch types the {what} by the annotation and rejects it, "
            "since it converts nothing here. Make the elements that type, or fix the annotation")


class NotIterableOrSubscriptable(TypedRule):
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
                return ("TorchScript does not index a Tensor with a Tensor or a list after a `...` (torch: 'Ellipses "
                        "followed by tensor indexing is currently not supported'); spell out the leading dimensions "
                        "with `:`"), None
            return (f"a Tensor is indexed here by {describe(result.type)}; TorchScript indexes a Tensor only with ints, "
                    f"slices, None, lists and Tensors (torch: \"Unsupported operation: indexing tensor with unsupported "
                    f"index type '{result.type}'\")"), None
        return f"this indexes {describe(result.type)} (torch: ''{result.type}' object is not subscriptable')", None


class UnknownTensorMethod(TypedRule):
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
            lambda: equivalent_tensor_method(result.node, ctx))


def _other_rules_methods() -> frozenset[str]:
    from jitlint.apis import unsupported

    return frozenset({"numpy"}) | unsupported("tensor-method") | unsupported("autograd-method")


_OTHER_RULES_METHODS = _other_rules_methods()  # JIT401 `.numpy()`, JIT403 `.new()`, JIT410 autograd


class DeleteSlice(TypedRule):
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
            lambda: rebuild_without_slice(result.node, ctx))


class ModuleContainerLength(TypedRule):
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
            (lambda: enumerate_the_container(result.node, ctx)) if result.container != "tuple" else None)


class UnknownListMethod(TypedRule):
    code = "JIT233"
    name = "unknown-list-method"
    severity = "error"
    summary = "a method TorchScript's lists do not have (`shape.numel()` on a `List[int]`)"
    message = "a list method TorchScript does not have"

    def render(self, result: R.NoAttribute, ctx, function):
        return (f"a {result.owner} has no method `{result.name}` in TorchScript (torch: \"'{result.owner}' object has "
                f"no attribute or method '{result.name}'\"); lists have `append`, `extend`, `insert`, `pop`, `index`, "
                "`count`, ... (use `len(...)`, or make it a Tensor first)"), None


class CannotUnpack(TypedRule):
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
        if result.what == "untyped-tuple":
            return ("this is a `tuple` whose elements are not annotated, and torch unpacks only a tuple whose types it "
                    "knows (torch: 'Provided tuple is not fully defined/refined including its element types, please "
                    "provide a value of type like Tuple[int, int]'); annotate it with its element types "
                    "(`Tuple[int, int]`)"), None
        return (f"this is {describe(result.type)}, which torch cannot unpack (torch: '{result.type} cannot be used as "
                "a tuple')"), None


# -- fixes ----------------------------------------------------------------------------------------------------


_FLOAT_KEYWORDS = {"scale_factor"}


def obvious_cast(call: cst.CSTNode, ctx: RuleContext) -> PendingFix | None:
    """`x.mean(dim, keepdims=True)` -> `keepdim=True` (eager torch reads both spellings), and an int literal given
    for `scale_factor` -> the same number as a float literal (`2` -> `2.0`, what interpolation computes with).
    Safe."""
    if not isinstance(call, cst.Call):
        return None
    edits = []
    for argument in call.args:
        keyword = argument.keyword
        if keyword is None:
            continue
        if keyword.value == "keepdims":
            edits.append(PendingEdit(keyword, "keepdim"))
        elif keyword.value in _FLOAT_KEYWORDS and isinstance(argument.value, cst.Integer):
            edits.append(PendingEdit(argument.value, f"{argument.value.evaluated_value}.0"))
    return PendingFix("use the spelling and type the operator's schema takes", edits) if edits else None


_TENSOR_METHOD_EQUIVALENTS = {
    "bool": "to({torch}.bool)",
    "bfloat16": "to({torch}.bfloat16)",
    "nelement": "numel()",
    "ndimension": "dim()",
}


def equivalent_tensor_method(node: cst.CSTNode, ctx: RuleContext) -> PendingFix | None:
    """JIT224: `x.bool()` -> `x.to(torch.bool)`, `x.nelement()` -> `x.numel()`, `x.ndimension()` -> `x.dim()`:
    the same operator under the name TorchScript knows. Only without arguments (`.bool(memory_format=...)` has no
    one-line equivalent). Safe."""
    call = ctx.ancestors[-2] if len(ctx.ancestors) >= 2 else None
    if not isinstance(node, cst.Attribute) or not isinstance(call, cst.Call) or call.func is not node or call.args:
        return None
    replacement = _TENSOR_METHOD_EQUIVALENTS.get(node.attr.value)
    if replacement is None or ("{torch}" in replacement and ctx.torch_name is None):
        return None
    text = replacement.format(torch=ctx.torch_name)
    return PendingFix(f"call `.{text}`", [PendingEdit(call, f"{ctx.code(node.value)}.{text}")])


def convert_annotated_value(node: cst.CSTNode, kind: str, ctx: RuleContext) -> PendingFix | None:
    """JIT221: `scale: float = x.size(0)` -> `scale: float = float(x.size(0))` (an int assigned to a variable
    annotated float). Unsafe: in eager Python the variable held an int, now a float (`x * scale` of an integer
    tensor becomes a float tensor, `str(scale)` reads `3.0`)."""
    if not isinstance(node, cst.AnnAssign) or node.value is None:
        return None
    return PendingFix(f"convert the value with `{kind}(...)`",
                      [PendingEdit(node.value, f"{kind}({ctx.code(node.value)})")])


def rebuild_without_slice(node: cst.CSTNode, ctx: RuleContext) -> PendingFix | None:
    """JIT225: `del xs[a:b]` -> `xs = xs[:a] + xs[b:]` (`del xs[a:]` -> `xs = xs[:a]`, `del xs[:b]` -> `xs =
    xs[b:]`). Only for a local list name, one slice without a step, `del` of that one target. Unsafe: the list is
    rebuilt, so another reference to it (a caller's list, an attribute) no longer sees the deletion."""
    statement = enclosing_statement(ctx)
    if not (isinstance(node, cst.Subscript) and isinstance(node.value, cst.Name) and len(node.slice) == 1
            and isinstance(node.slice[0].slice, cst.Slice) and node.slice[0].slice.step is None):
        return None
    if not (isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1
            and isinstance(statement.body[0], cst.Del) and statement.body[0].target is node):
        return None
    name = node.value.value
    piece = node.slice[0].slice
    lower = ctx.code(piece.lower) if piece.lower is not None else None
    upper = ctx.code(piece.upper) if piece.upper is not None else None
    if lower is None and upper is None:
        value = f"{name}[:0]"
    elif upper is None:
        value = f"{name}[:{lower}]"
    elif lower is None:
        value = f"{name}[{upper}:]"
    else:
        value = f"{name}[:{lower}] + {name}[{upper}:]"
    return PendingFix("rebuild the list without the slice", [PendingEdit(statement.body[0], f"{name} = {value}")])


def enumerate_the_container(node: cst.CSTNode, ctx: RuleContext) -> PendingFix | None:
    """JIT315: `for head, feature in zip(self.heads, features):` -> `for i, head in enumerate(self.heads):` and
    `feature = features[i]` first in the body. Only when each other zipped value is a name or attribute chain (read
    once per step, as zip read it once) and the targets are plain names. Unsafe: `zip` stopped at the shorter
    value; indexing a list shorter than the container raises IndexError."""
    function = compiled_function(ctx)
    if not isinstance(node, cst.For) or function is None or not isinstance(node.body, cst.IndentedBlock):
        return None
    call = node.iter
    if not (isinstance(call, cst.Call) and ctx.qualify(call.func) == "builtins.zip" and len(call.args) >= 2
            and not any(a.star or a.keyword for a in call.args)):
        return None
    if not isinstance(node.target, (cst.Tuple, cst.List)) or len(node.target.elements) != len(call.args):
        return None
    names = [element.value for element in node.target.elements]
    if any(not isinstance(n, cst.Name) or isinstance(e, cst.StarredElement) for n, e in zip(names, node.target.elements)):
        return None
    containers = [i for i, a in enumerate(call.args) if ctx.self_attribute(a.value) is not None
                  and ctx.self_attribute(a.value)[1].kinds & {"ModuleList", "Sequential", "ModuleDict"}]
    if len(containers) != 1:  # another container indexed by the loop variable would not script either
        return None
    first = containers[0]
    others = [i for i in range(len(call.args)) if i != first]
    if any(not is_pure_chain(call.args[i].value) for i in others):
        return None
    index = fresh_name(function, "i", "index")
    body_indent = inner_indent(node, ctx)
    lines = [f"{names[i].value} = {ctx.code(call.args[i].value)}[{index}]" for i in others]
    head = f"{index}, {names[first].value}"
    return PendingFix("enumerate the container and index the rest", [
        PendingEdit(node.target, head),
        PendingEdit(call, f"enumerate({ctx.code(call.args[first].value)})"),
        PendingEdit(node.body.body[0], "".join(f"{line}\n{body_indent}" for line in lines), insert_before=True),
    ])
