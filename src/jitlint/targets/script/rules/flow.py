"""JIT7xx, JIT206-210, JIT609-611: control-flow typing. One walk over each compiled function (the TorchScript type
domain of `jitlint.targets.script.typeflow`, driven by the target-neutral walker of `jitlint.facts.flow`) records events;
each rule below reports the events of its `problem` (JIT124's, JIT202's and JIT405's rules, in their own modules, report
theirs too), with its fix of them (`fix_event`) below.
"""

from __future__ import annotations

import libcst as cst

from jitlint.facts.syntax import names_in, path_to
from jitlint.rules.base import PendingEdit, PendingFix, RuleContext
from jitlint.targets.script.events import report_events
from jitlint.targets.script.facts import FlowEvents
from jitlint.targets.script.flow_messages import (
    int_assigned_to_float, int_becomes_float, named_variable, suggested_annotation, wrapping_number_type)
from jitlint.targets.script.rewrite import (
    builtin_generics, class_of, compiled_function, count_name, enclosing_statement, final_flag, is_pure_chain,
)
from jitlint.targets.script.rules import ScriptRule
from jitlint.targets.script.typeflow import Problem
from jitlint.walk import walk


class _FlowRule(ScriptRule):
    facts = (FlowEvents,)

    def visit_FunctionDef(self, node: cst.FunctionDef, ctx: RuleContext) -> None:
        report_events(self, node, ctx)


class TolistNeedsAnnotation(_FlowRule):
    code = "JIT206"
    problem = Problem.TOLIST_NEEDS_ANNOTATION
    name = "tolist-needs-annotation"
    severity = "error"
    fix = "unsafe"
    summary = "`.tolist()` on a Tensor whose result is not assigned to an annotated variable"
    message = "`.tolist()` without a type annotation"

    def fix_event(self, node, message: str, ctx: RuleContext) -> PendingFix | None:
        return annotate_tolist(node, message, ctx)


class ReturnTypeMismatch(_FlowRule):
    code = "JIT208"
    problem = Problem.RETURN_TYPE_MISMATCH
    name = "return-type-mismatch"
    severity = "error"
    fix = "safe"
    summary = "`return None` in a function annotated to return a non-Optional type"
    message = "returns None from a function annotated with another type"

    def fix_event(self, node, message: str, ctx: RuleContext) -> PendingFix | None:
        return optional_return(node, message, ctx)


class TupleReturnArityMismatch(_FlowRule):
    code = "JIT209"
    problem = Problem.TUPLE_RETURN_ARITY_MISMATCH
    name = "tuple-return-arity-mismatch"
    severity = "error"
    summary = "returns of tuples of different lengths, or a tuple and a non-tuple"
    message = "returns tuples of different lengths, or a tuple and a non-tuple"


class BranchTypeMismatch(_FlowRule):
    code = "JIT701"
    problem = Problem.BRANCH_TYPE_MISMATCH
    name = "branch-type-mismatch"
    severity = "error"
    summary = "a variable set to a Tensor in one branch and an int in the other (and read after)"
    message = "variable set to different types in the branches of an if"


class DefinedInOneBranch(_FlowRule):
    code = "JIT702"
    problem = Problem.DEFINED_IN_ONE_BRANCH
    name = "defined-in-one-branch"
    severity = "error"
    fix = "safe"
    summary = "a variable set in one branch only and read after the `if`"
    message = "variable set in one branch only and read after the if"

    def visit_FunctionDef(self, node: cst.FunctionDef, ctx: RuleContext) -> None:
        # Silent where the variable is set and read only under `if self.flag:` and the flag is a `Final` of the
        # class: torch keeps both branches or drops both (JIT702's fix makes the flag so).

        cls = ctx.enclosing(cst.ClassDef)
        finals = _final_names(cls) if cls is not None else set()
        if not finals or ctx.function is None or ctx.function.info.node is not node:
            report_events(self, node, ctx)
            return
        kept = []
        for event in ctx.fact(FlowEvents, node):
            if event.problem is Problem.DEFINED_IN_ONE_BRANCH:
                path = path_to(node, event.node)
                if path is not None and same_flag_branches(node, path, event.message) in finals:
                    continue
            kept.append(event)
        report_events(self, node, ctx, kept)

    def fix_event(self, node, message: str, ctx: RuleContext) -> PendingFix | None:
        return flag_for_one_branch(node, message, ctx)


def _final_names(cls: cst.ClassDef) -> set[str]:
    """The names the class body annotates `Final[...]` (any spelling)."""
    names: set[str] = set()
    if not isinstance(cls.body, cst.IndentedBlock):
        return names
    for statement in cls.body.body:
        if isinstance(statement, cst.SimpleStatementLine):
            for small in statement.body:
                if isinstance(small, cst.AnnAssign) and isinstance(small.target, cst.Name):
                    annotation = small.annotation.annotation
                    base = annotation.value if isinstance(annotation, cst.Subscript) else annotation
                    if (isinstance(base, cst.Name) and base.value == "Final") or (
                            isinstance(base, cst.Attribute) and base.attr.value == "Final"):
                        names.add(small.target.value)
    return names


class NoneInitThenValue(_FlowRule):
    code = "JIT703"
    problem = Problem.NONE_INIT_THEN_VALUE
    name = "none-init-then-tensor"
    severity = "error"
    fix = "safe"
    summary = "`acc = None` (unannotated), then assigned a value in a branch or loop"
    message = "variable initialised to None without annotation, then assigned in a branch or loop"

    def fix_event(self, node, message: str, ctx: RuleContext) -> PendingFix | None:
        return annotate_none_start(node, message, ctx)


class OptionalUsedWithoutRefine(_FlowRule):
    code = "JIT704"
    problem = Problem.OPTIONAL_USED_WITHOUT_REFINE
    name = "optional-used-without-refine"
    severity = "error"
    fix = "unsafe"
    summary = (
        "an `Optional[T]` parameter used as a value where it is not refined (`if m is not None`, `assert`, "
        "early exit)"
    )
    message = "Optional value used without a None check"

    def fix_event(self, node, message: str, ctx: RuleContext) -> PendingFix | None:
        return assert_not_none(node, message, ctx)


class LoopVariableUsedAfterLoop(_FlowRule):
    code = "JIT705"
    problem = Problem.LOOP_VARIABLE_USED_AFTER_LOOP
    name = "loop-var-used-after-loop"
    severity = "error"
    summary = "a variable first set inside a loop, read after it"
    message = "variable first set inside a loop is read after it"


class LoopCarriedTypeChange(_FlowRule):
    code = "JIT706"
    problem = Problem.LOOP_CARRIED_TYPE_CHANGE
    name = "loop-carried-type-change"
    severity = "error"
    fix = "unsafe"
    summary = "`s = 0` then `s += 0.5` in a loop or branch (int becomes float)"
    message = "variable changes type inside a branch or loop"

    def fix_event(self, node, message: str, ctx: RuleContext) -> PendingFix | None:
        return start_as_float(node, message, ctx)


class TernaryTypeMismatch(_FlowRule):
    code = "JIT707"
    problem = Problem.TERNARY_TYPE_MISMATCH
    name = "ternary-type-mismatch"
    severity = "error"
    summary = "`x if cond else 0`: arms of different types"
    message = "if-expression with branches of different types"


class ItemIsNumber(_FlowRule):
    code = "JIT708"
    problem = Problem.ITEM_IS_NUMBER
    name = "item-is-number"
    severity = "error"
    fix = "unsafe"
    summary = "`range(t.item())`: `.item()` is a number, `range` needs an int"
    message = "`.item()` used where TorchScript needs an int"

    def fix_event(self, node, message: str, ctx: RuleContext) -> PendingFix | None:
        return item_to_int(node, message, ctx)


class AttributeNoneNeedsOptional(_FlowRule):
    code = "JIT609"
    problem = Problem.ATTRIBUTE_NONE_NEEDS_OPTIONAL
    name = "attr-none-needs-optional-annotation"
    severity = "error"
    fix = "safe"
    summary = "`self.cache = None` in `__init__`, assigned a Tensor in compiled code, no class-level `Optional`"
    message = "attribute that is None in `__init__` assigned a value without a class-level Optional annotation"

    def fix_event(self, node, message: str, ctx: RuleContext) -> PendingFix | None:
        return class_optional_annotation(node, message, ctx)


class AttributeTypeChange(_FlowRule):
    code = "JIT610"
    problem = Problem.ATTRIBUTE_TYPE_CHANGE
    name = "attr-type-change-in-forward"
    severity = "error"
    summary = "`self.steps = 0` in `__init__`, assigned a Tensor (or a float) in compiled code"
    message = "compiled code assigns an attribute a value of another type than `__init__` gave it"


class OptionalAttributeNoLocalRefine(_FlowRule):
    code = "JIT611"
    problem = Problem.OPTIONAL_ATTRIBUTE_NO_LOCAL_REFINE
    name = "optional-attr-no-local-refine"
    severity = "error"
    fix = "safe"
    summary = "an attribute declared `Optional` used as a value (torch never refines attributes)"
    message = "Optional attribute used as a value (attributes are never refined)"

    def fix_event(self, node, message: str, ctx: RuleContext) -> PendingFix | None:
        return refine_through_local(node, message, ctx)


class EmptyContainerNeedsAnnotation(_FlowRule):
    code = "JIT210"
    problem = Problem.EMPTY_CONTAINER_NEEDS_ANNOTATION
    name = "empty-container-needs-annotation"
    severity = "error"
    fix = "safe"
    summary = "`sizes = []` then `sizes.append(x.size(0))`; `d = {}` then a non-str key or non-Tensor value"
    message = "unannotated empty list or dict filled with non-Tensor values"

    def fix_event(self, node, message: str, ctx: RuleContext) -> PendingFix | None:
        return annotate_empty_container(node, message, ctx)


class NoMatchingOverload(_FlowRule):
    code = "JIT416"
    problem = Problem.NO_MATCHING_OVERLOAD
    name = "no-matching-overload"
    severity = "error"
    fix = "safe"
    summary = (
        "a call of a torch operator, Tensor method or `torch.nn.functional` function whose arguments match none of "
        "its TorchScript signatures (wrong keyword, an int where a float is required, a mixed list)"
    )
    message = "no overload of the operator accepts these arguments"

    def fix_event(self, node, message: str, ctx: RuleContext) -> PendingFix | None:
        return obvious_cast(node, message, ctx)


class RangeEnumerateArguments(_FlowRule):
    code = "JIT418"
    problem = Problem.RANGE_ENUMERATE_ARGUMENTS
    name = "range-enumerate-arguments"
    severity = "error"
    summary = "`range()` or `enumerate()` with a wrong number of arguments, or `range()` of a float"
    message = "`range`/`enumerate` called with arguments TorchScript rejects"


class TupleMisuse(_FlowRule):
    code = "JIT220"
    problem = Problem.TUPLE_MISUSE
    name = "tuple-misuse"
    severity = "error"
    summary = "a tuple indexed out of range or by a non-literal, assigned into, given an attribute, or tested for truth"
    message = "a tuple used in a way TorchScript's fixed-type tuples do not support"


class AnnotatedAssignmentMismatch(_FlowRule):
    code = "JIT221"
    problem = Problem.ANNOTATED_ASSIGNMENT_MISMATCH
    name = "annotated-assignment-mismatch"
    severity = "error"
    fix = "unsafe"
    summary = "`x: T = value` with a value of another type, or an inner block re-annotating an outer variable"
    message = "an annotated assignment TorchScript rejects"

    def fix_event(self, node, message: str, ctx: RuleContext) -> PendingFix | None:
        return convert_annotated_value(node, message, ctx)


class MissingReturn(_FlowRule):
    code = "JIT222"
    problem = Problem.MISSING_RETURN
    name = "missing-return"
    severity = "error"
    fix = "safe"
    summary = "a function annotated to return a value whose end can be reached without a `return`"
    message = "does not return along all paths"

    def fix_event(self, node, message: str, ctx: RuleContext) -> PendingFix | None:
        return return_none_at_end(node, message, ctx)


class NotIterableOrSubscriptable(_FlowRule):
    code = "JIT223"
    problem = Problem.NOT_ITERABLE_OR_SUBSCRIPTABLE
    name = "not-iterable-or-subscriptable"
    severity = "error"
    summary = "a `for` loop over an int, float or bool, or an index into one"
    message = "an int, float or bool iterated over or indexed"


class UnknownTensorMethod(_FlowRule):
    code = "JIT224"
    problem = Problem.UNKNOWN_TENSOR_METHOD
    name = "unknown-tensor-method"
    severity = "error"
    fix = "safe"
    summary = "a method TorchScript's Tensor does not have, or a Tensor method used as a value"
    message = "a Tensor method TorchScript does not have, or one used as a value"

    def fix_event(self, node, message: str, ctx: RuleContext) -> PendingFix | None:
        return equivalent_tensor_method(node, message, ctx)


class DeleteSlice(_FlowRule):
    code = "JIT225"
    problem = Problem.DELETE_SLICE
    name = "del-slice"
    severity = "error"
    fix = "unsafe"
    summary = "`del x[a:b]`: TorchScript deletes one index at a time"
    message = "`del` of a slice"

    def fix_event(self, node, message: str, ctx: RuleContext) -> PendingFix | None:
        return rebuild_without_slice(node, message, ctx)


class ModuleContainerLength(_FlowRule):
    code = "JIT315"
    problem = Problem.MODULE_CONTAINER_LENGTH
    name = "module-container-length"
    severity = "error"
    fix = "unsafe"
    summary = "a ModuleList zipped with a list, range or Tensor, or indexed past its length"
    message = "a module container used beyond its static length"

    def fix_event(self, node, message: str, ctx: RuleContext) -> PendingFix | None:
        return enumerate_the_container(node, message, ctx)


class UnknownListMethod(_FlowRule):
    code = "JIT233"
    problem = Problem.UNKNOWN_LIST_METHOD
    name = "unknown-list-method"
    severity = "error"
    summary = "a method TorchScript's lists do not have (`shape.numel()` on a `List[int]`)"
    message = "a list method TorchScript does not have"


class CannotUnpack(_FlowRule):
    code = "JIT234"
    problem = Problem.CANNOT_UNPACK
    name = "cannot-unpack"
    severity = "error"
    summary = ("tuple-unpacking a value that is not a tuple: the modules of a ModuleList (`for attn, ff in "
               "self.layers:`) or an unannotated (Tensor) parameter (`mean, var = pred`)")
    message = "a module or a Tensor unpacked as a tuple"


# -- fixes ----------------------------------------------------------------------------------------------------


def _first_assignment(function: cst.FunctionDef, name: str, value_test) -> cst.Assign | None:
    """The only assignment `name = <value>` of the function's top block whose value passes `value_test`."""
    found = []
    for statement in function.body.body:
        if isinstance(statement, cst.SimpleStatementLine):
            for small in statement.body:
                if (isinstance(small, cst.Assign) and len(small.targets) == 1
                        and isinstance(small.targets[0].target, cst.Name) and small.targets[0].target.value == name):
                    found.append(small)
    return found[0] if found and value_test(found[0].value) else None


def annotate_empty_container(node: cst.CSTNode, message: str, ctx: RuleContext) -> PendingFix | None:
    """JIT210: `sizes = []` -> `sizes: list[int] = []` (the type the first append or store shows). Safe."""
    match = suggested_annotation(message, r"(\w+): ((?:List|Dict)\[.*\]) = (\[\]|\{\})")
    function = compiled_function(ctx)
    if match is None or function is None:
        return None
    name, annotation, empty = match.groups()
    assign = _first_assignment(function, name, lambda v: isinstance(v, (cst.List, cst.Dict)) and not v.elements)
    if assign is None or ("torch." in annotation and ctx.torch_name != "torch"):
        return None
    return PendingFix(f"annotate `{name}`", [PendingEdit(assign, f"{name}: {builtin_generics(annotation)} = {empty}")])


def annotate_none_start(node: cst.CSTNode, message: str, ctx: RuleContext) -> PendingFix | None:
    """JIT703: `acc = None` -> `acc: torch.Tensor | None = None` (the type the later assignment gives). Safe."""
    match = suggested_annotation(message, r"(\w+): Optional\[(.*)\] = None")
    function = compiled_function(ctx)
    if match is None or function is None:
        return None
    name, kind = match.groups()
    assign = _first_assignment(function, name, lambda v: isinstance(v, cst.Name) and v.value == "None")
    if assign is None or (kind.startswith("torch.") and ctx.torch_name != "torch"):
        return None
    return PendingFix(f"annotate `{name}`", [PendingEdit(assign, f"{name}: {builtin_generics(kind)} | None = None")])


def start_as_float(node: cst.CSTNode, message: str, ctx: RuleContext) -> PendingFix | None:
    """JIT706: `s = 0` then `s += 0.5` in a loop -> `s = 0.0`. Unsafe: where the loop adds nothing, `s` stays a
    float, and what it meets gives a float (`x * s` of an integer tensor is a float tensor)."""
    if not int_becomes_float(message):
        return None
    target = node if isinstance(node, cst.Name) else node.target if isinstance(node, (cst.AugAssign, cst.AnnAssign)) else None
    if target is None and isinstance(node, cst.Assign) and len(node.targets) == 1:
        target = node.targets[0].target
    function = compiled_function(ctx)
    if not isinstance(target, cst.Name) or function is None:
        return None
    assign = _first_assignment(function, target.value, lambda v: isinstance(v, cst.Integer))
    if assign is None:
        return None
    number = assign.value
    return PendingFix("start it as a float", [PendingEdit(number, f"{int(number.evaluated_value)}.0")])


def optional_return(node: cst.CSTNode, message: str, ctx: RuleContext) -> PendingFix | None:
    """JIT208: `-> torch.Tensor` on a function that returns None -> `-> torch.Tensor | None`. Safe. Only for a
    `return` / `return None` (JIT208 also reports a return of another type, which Optional does not fix: wrapping it
    would repeat on every pass)."""
    function = compiled_function(ctx)
    if function is None or function.returns is None:
        return None
    if isinstance(node, cst.Return) and node.value is not None and not (
            isinstance(node.value, cst.Name) and node.value.value == "None"):
        return None
    annotation = function.returns.annotation
    if isinstance(annotation, (cst.SimpleString, cst.ConcatenatedString)):
        return None
    code = ctx.code(annotation)
    return PendingFix("annotate the return Optional", [PendingEdit(annotation, f"{code} | None")])


def class_optional_annotation(node: cst.CSTNode, message: str, ctx: RuleContext) -> PendingFix | None:
    """JIT609: `self.cache = None` in `__init__`, a Tensor in forward -> a class-level `cache: torch.Tensor | None`
    (an annotation without a value changes nothing at run time). Safe."""
    match = suggested_annotation(message, r"(\w+): Optional\[(.*)\]")
    cls = class_of(ctx)
    if match is None or cls is None or not isinstance(cls.body, cst.IndentedBlock):
        return None
    name, kind = match.groups()
    if kind.startswith("torch.") and ctx.torch_name != "torch":
        return None
    first = next((s for s in cls.body.body if isinstance(s, cst.FunctionDef)), None)
    if first is None or first.decorators or first.leading_lines:
        return None
    indent = ctx.indent_of(cls) + (cls.body.indent if cls.body.indent is not None else ctx.module.tree.default_indent)
    return PendingFix(f"declare `{name}` Optional in the class",
                      [PendingEdit(first, f"{name}: {builtin_generics(kind)} | None\n\n{indent}", insert_before=True)])


def refine_through_local(node: cst.CSTNode, message: str, ctx: RuleContext) -> PendingFix | None:
    """JIT611: `if self.bias is not None: x = x + self.bias` -> copy to a local before the `if` and use the local
    in its test and body. Only when the `if` tests exactly that attribute against None, nothing in it assigns the
    attribute, and the local's name is free in the function. Safe."""
    function = compiled_function(ctx)
    if not isinstance(node, cst.Attribute) or not isinstance(node.value, cst.Name) or function is None:
        return None
    attribute = node.attr.value
    owner = node.value.value
    guard = None
    for ancestor in reversed(ctx.ancestors):
        if isinstance(ancestor, cst.If) and _tests_none(ancestor.test, owner, attribute):
            guard = ancestor
            break
    if guard is None or attribute in names_in(function.params) or count_name(function.body, attribute) != _self_reads(function.body, owner, attribute):
        return None
    if _assigns_attribute(guard, owner, attribute):
        return None
    holder = ctx.ancestors[ctx.ancestors.index(guard) - 1]
    if isinstance(holder, cst.If) and holder.orelse is guard:  # an `elif`
        return None
    indent = ctx.indent_of(guard)
    edits = [PendingEdit(guard, f"{attribute} = {owner}.{attribute}\n{indent}", insert_before=True)]

    class Reads(cst.CSTVisitor):
        def visit_Attribute(self, found: cst.Attribute) -> None:
            if isinstance(found.value, cst.Name) and found.value.value == owner and found.attr.value == attribute:
                edits.append(PendingEdit(found, attribute))

    walk(guard.test, Reads())
    walk(guard.body, Reads())
    return PendingFix(f"copy `{owner}.{attribute}` to a local and test that", edits)


def _tests_none(test: cst.BaseExpression, owner: str, attribute: str) -> bool:
    return (isinstance(test, cst.Comparison) and len(test.comparisons) == 1
            and isinstance(test.comparisons[0].operator, cst.IsNot)
            and isinstance(test.comparisons[0].comparator, cst.Name) and test.comparisons[0].comparator.value == "None"
            and isinstance(test.left, cst.Attribute) and isinstance(test.left.value, cst.Name)
            and test.left.value.value == owner and test.left.attr.value == attribute)


def _self_reads(node: cst.CSTNode, owner: str, attribute: str) -> int:
    count = 0

    class Reads(cst.CSTVisitor):
        def visit_Attribute(self, found: cst.Attribute) -> None:
            nonlocal count
            count += (isinstance(found.value, cst.Name) and found.value.value == owner and found.attr.value == attribute)

    walk(node, Reads())
    return count


def _assigns_attribute(node: cst.CSTNode, owner: str, attribute: str) -> bool:
    found = False

    class Stores(cst.CSTVisitor):
        def visit_AssignTarget(self, target: cst.AssignTarget) -> None:
            nonlocal found
            found = found or _self_reads(target, owner, attribute) > 0

        def visit_AugAssign(self, assign: cst.AugAssign) -> None:
            nonlocal found
            found = found or _self_reads(assign.target, owner, attribute) > 0

        def visit_Call(self, call: cst.Call) -> None:  # a method of self may assign it
            nonlocal found
            func = call.func
            found = found or (isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name)
                              and func.value.value == owner)

    walk(node, Stores())
    return found


def assert_not_none(node: cst.CSTNode, message: str, ctx: RuleContext) -> PendingFix | None:
    """JIT704: `return x + mask.sum()` with `mask` Optional -> `assert mask is not None` on the line before (torch
    refines on an assert). Unsafe: where the value is None, eager code now raises AssertionError instead of
    the error the use raised, and `python -O` drops the assert."""
    if not isinstance(node, cst.Name):
        return None
    statement = enclosing_statement(ctx)
    if not isinstance(statement, cst.SimpleStatementLine):
        return None
    indent = ctx.indent_of(statement)
    return PendingFix(f"assert `{node.value}` is not None first", [
        PendingEdit(statement, f"assert {node.value} is not None\n{indent}", insert_before=True)])


_FLOAT_KEYWORDS = {"scale_factor"}


def obvious_cast(call: cst.CSTNode, message: str, ctx: RuleContext) -> PendingFix | None:
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


def _self_flag_test(test: cst.BaseExpression, self_name: str) -> str | None:
    if (isinstance(test, cst.Attribute) and isinstance(test.value, cst.Name) and test.value.value == self_name
            and not test.lpar):
        return test.attr.value
    return None


def same_flag_branches(function: cst.FunctionDef, path: list[cst.CSTNode], message: str) -> str | None:
    """For a JIT702 event (`path` from `function` down to its node, the `if` or its test): `flag` when that `if`
    tests `self.flag` and the variable the message names is set and read only inside `if self.flag:` bodies of
    the function: with the flag a constant, torch keeps all of them or none."""
    name = named_variable(message)
    if name is None or not function.params.params:
        return None
    self_name = function.params.params[0].name.value
    branch = next((n for n in reversed(path) if isinstance(n, cst.If)), None)
    flag = _self_flag_test(branch.test, self_name) if branch is not None else None
    if flag is None:
        return None
    outside = 0
    inside = 0
    bodies: set[int] = set()

    class Bodies(cst.CSTVisitor):
        def visit_If(self, node: cst.If) -> None:
            if _self_flag_test(node.test, self_name) == flag:
                bodies.add(id(node.body))

    walk(function.body, Bodies())

    class Uses(cst.CSTVisitor):
        def __init__(self) -> None:
            self.depth = 0

        def on_visit(self, node: cst.CSTNode) -> bool:
            if id(node) in bodies:
                self.depth += 1
            return super().on_visit(node)

        def on_leave(self, node: cst.CSTNode) -> None:
            if id(node) in bodies:
                self.depth -= 1
            super().on_leave(node)

        def visit_Name(self, node: cst.Name) -> None:
            nonlocal outside, inside
            if node.value == name:
                if self.depth:
                    inside += 1
                else:
                    outside += 1

    walk(function.body, Uses())
    return flag if inside and not outside else None


def flag_for_one_branch(node: cst.CSTNode, message: str, ctx: RuleContext) -> PendingFix | None:
    """JIT702 where the variable is set and read only under `if self.flag:` (pytorchcv's `if self.return_preact:
    x_pre_activ = x` ... `if self.return_preact: return x, x_pre_activ`): the flag becomes `torch.jit.Final[bool]`
    (JIT232's fix), so torch keeps all those branches or none. Safe."""
    function = compiled_function(ctx)
    cls = class_of(ctx)
    if function is None or cls is None or function not in ctx.ancestors:
        return None
    flag = same_flag_branches(function, ctx.ancestors[ctx.ancestors.index(function):], message)
    declared = final_flag(flag, cls, ctx) if flag is not None else None
    if declared is None:
        return None
    final, edits = declared
    return PendingFix(f"declare `{flag}` a constant (`{final}[bool]`)", edits)


# Tensor methods TorchScript lacks, and the call it has that computes the same (verified on torch 2.13: `x.bool()`
# fails with "'Tensor' object has no attribute or method 'bool'").
_TENSOR_METHOD_EQUIVALENTS = {
    "bool": "to({torch}.bool)",
    "bfloat16": "to({torch}.bfloat16)",
    "nelement": "numel()",
    "ndimension": "dim()",
}


def equivalent_tensor_method(node: cst.CSTNode, message: str, ctx: RuleContext) -> PendingFix | None:
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


def convert_annotated_value(node: cst.CSTNode, message: str, ctx: RuleContext) -> PendingFix | None:
    """JIT221: `scale: float = x.size(0)` -> `scale: float = float(x.size(0))` (an int assigned to a variable
    annotated float). Unsafe: in eager Python the variable held an int, now a float (`x * scale` of an integer
    tensor becomes a float tensor, `str(scale)` reads `3.0`)."""
    if not isinstance(node, cst.AnnAssign) or node.value is None or not int_assigned_to_float(message):
        return None
    return PendingFix("convert the value with `float(...)`",
                      [PendingEdit(node.value, f"float({ctx.code(node.value)})")])


def item_to_int(node: cst.CSTNode, message: str, ctx: RuleContext) -> PendingFix | None:
    """JIT708: `range(t.item())` -> `range(int(t.item()))`; `n: int = t.item()` -> `n: int = int(t.item())` (and
    `float` for a float annotation). Unsafe: in eager Python the `.item()` of a floating tensor was a float (which
    `range` refused, and which the annotated variable kept), and `int(...)` truncates it."""
    parent = ctx.ancestors[-2] if len(ctx.ancestors) >= 2 else None
    if isinstance(parent, cst.AnnAssign) and parent.target is node and parent.value is not None:
        wrapper = wrapping_number_type(message)
        if wrapper is None:
            return None
        return PendingFix(f"convert it with `{wrapper}(...)`",
                          [PendingEdit(parent.value, f"{wrapper}({ctx.code(parent.value)})")])
    if isinstance(parent, cst.Arg) and parent.value is node:
        return PendingFix("convert it with `int(...)`", [PendingEdit(node, f"int({ctx.code(node)})")])
    return None


def return_none_at_end(node: cst.CSTNode, message: str, ctx: RuleContext) -> PendingFix | None:
    """JIT222: a function annotated `-> T` whose end can be reached -> an explicit `return None` at its end (what
    Python returns there anyway); JIT208's fix then makes the annotation `T | None`. Safe: the eager function
    returns exactly what it returned (None where it fell off its end)."""
    function = compiled_function(ctx)
    if function is None or node is not function.name or not isinstance(function.body, cst.IndentedBlock):
        return None
    if function.returns is None or isinstance(function.returns.annotation, (cst.SimpleString, cst.ConcatenatedString)):
        return None
    last = function.body.body[-1]
    indent = _inner_indent(function, ctx)
    return PendingFix("return None at the end (and declare it)",
                      [PendingEdit(last, f"\n{indent}return None", insert_after=True)])


def rebuild_without_slice(node: cst.CSTNode, message: str, ctx: RuleContext) -> PendingFix | None:
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


def _inner_indent(owner: cst.CSTNode, ctx: RuleContext) -> str:
    """The indentation of the statements of `owner`'s indented body (`owner` is on the path being visited)."""
    body = owner.body
    return ctx.indent_of(owner) + (body.indent if body.indent is not None else ctx.module.tree.default_indent)


def _fresh_name(function: cst.FunctionDef, *candidates: str) -> str:
    """The first of `candidates` (then `candidate_2`, ...) that the function does not use."""
    used = names_in(function)
    for suffix in ("", "_2", "_3", "_4"):
        for candidate in candidates:
            if candidate + suffix not in used:
                return candidate + suffix
    return candidates[0] + "_jitlint"


def enumerate_the_container(node: cst.CSTNode, message: str, ctx: RuleContext) -> PendingFix | None:
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
    index = _fresh_name(function, "i", "index")
    body_indent = _inner_indent(node, ctx)
    lines = [f"{names[i].value} = {ctx.code(call.args[i].value)}[{index}]" for i in others]
    head = f"{index}, {names[first].value}"
    return PendingFix("enumerate the container and index the rest", [
        PendingEdit(node.target, head),
        PendingEdit(call, f"enumerate({ctx.code(call.args[first].value)})"),
        PendingEdit(node.body.body[0], "".join(f"{line}\n{body_indent}" for line in lines), insert_before=True),
    ])


def annotate_tolist(node: cst.CSTNode, message: str, ctx: RuleContext) -> PendingFix | None:
    """JIT206: `v = x.tolist()` -> `v: list[float] = x.tolist()`, and `for a in x.tolist():` -> the annotated list
    on the line before and `for a in values:`. Unsafe: `list[float]` is a guess (a 1-D floating tensor); TorchScript
    raises at run time for another rank or an integer dtype. Eager Python ignores the annotation."""
    statement = enclosing_statement(ctx)
    function = compiled_function(ctx)
    if not isinstance(node, cst.Call) or function is None:
        return None
    annotation = "list[float]"
    if isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1:
        small = statement.body[0]
        if (isinstance(small, cst.Assign) and small.value is node and len(small.targets) == 1
                and isinstance(small.targets[0].target, cst.Name)):
            name = small.targets[0].target.value
            return PendingFix(f"annotate `{name}: {annotation}`",
                              [PendingEdit(small, f"{name}: {annotation} = {ctx.code(node)}")])
        return None
    if isinstance(statement, cst.For) and statement.iter is node:
        name = _fresh_name(function, "values", "items")
        indent = ctx.indent_of(statement)
        return PendingFix(f"assign it to an annotated `{name}` first", [
            PendingEdit(statement, f"{name}: {annotation} = {ctx.code(node)}\n{indent}", insert_before=True),
            PendingEdit(node, name),
        ])
    return None
