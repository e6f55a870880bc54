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

import libcst as cst

from jitlint.facts.syntax import names_in
from jitlint.rules.base import PendingEdit, PendingFix, RuleContext
from jitlint.targets.script.claims import optional_argument, results_for, sugared_words, with_path, written_type
from jitlint.targets.script.rewrite import (
    builtin_generics, class_of, compiled_function, count_name, enclosing_statement, final_flag, fresh_name, inner_indent,
)
from jitlint.targets.script.rules import TypedRule
from jitlint.targets.script.typing import results as R
from jitlint.targets.script.typing.types import (
    FLOAT, INT, NONE, Type, describe, without_none,
)
from jitlint.walk import walk



# -- JIT206 -----------------------------------------------------------------------------------------------------------
class TolistNeedsAnnotation(TypedRule):
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
                "rank)"), lambda: annotate_tolist(result.node, ctx)


# -- JIT208, JIT209, JIT222 -------------------------------------------------------------------------------------------
class ReturnTypeMismatch(TypedRule):
    code = "JIT208"
    name = "return-type-mismatch"
    severity = "error"
    fix = "safe"
    summary = "`return None` in a function annotated to return a non-Optional type"
    message = "returns None from a function annotated with another type"

    def render(self, result: R.ReturnMismatch, ctx, function):
        if result.actual == NONE:
            return (f"the function is annotated to return {result.declared}, but this returns None; TorchScript "
                    f"rejects it. Annotate the return as `Optional[{written_type(result.declared)}]`"), (
                lambda: optional_return(result.node, ctx))
        return (f"the function is annotated to return {result.declared}, but this returns {describe(result.actual)} "
                f"(torch: 'Return value was annotated as having type {result.declared} but is actually of type "
                f"{result.actual}'); return that type, or fix the annotation"), None


class TupleReturnArityMismatch(TypedRule):
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


class MissingReturn(TypedRule):
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
            lambda: return_none_at_end(result.node, ctx))


# -- JIT701-708 -------------------------------------------------------------------------------------------------------
class BranchTypeMismatch(TypedRule):
    code = "JIT701"
    name = "branch-type-mismatch"
    severity = "error"
    summary = "a variable set to a Tensor in one branch and an int in the other (and read after)"
    message = "variable set to different types in the branches of an if"

    def render(self, result: R.BranchMismatch, ctx, function):
        return (f"`{result.name}` is {describe(result.true_type)} in the true branch and {describe(result.false_type)} "
                f"in the false branch; TorchScript needs one type after the `if` (it reads `{result.name}` later). Give "
                "both branches the same type"), None


class DefinedInOneBranch(TypedRule):
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
        flag = same_flag_branches(function, result.statement, result.name) if result.statement else None
        if cls is not None and flag is not None and flag in _final_names(cls):
            return None
        branch, other = ("true", "false") if result.in_body else ("false", "true")
        return (f"`{result.name}` is set only in the {branch} branch of this `if` and read after it; TorchScript "
                f"rejects that ('{result.name} is not defined in the {other} branch'). Set it before the `if`, or in "
                "both branches"), (lambda: flag_for_one_branch(function, result.statement, result.name, ctx))


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


class NoneInitThenValue(TypedRule):
    code = "JIT703"
    name = "none-init-then-tensor"
    severity = "error"
    fix = "safe"
    summary = "`acc = None` (unannotated), then assigned a value in a branch or loop"
    message = "variable initialised to None without annotation, then assigned in a branch or loop"

    def render(self, result: R.NoneThenValue, ctx, function):
        spelled = written_type(without_none(result.new))
        return (f"`{result.name}` was set to None without an annotation, so TorchScript types it NoneType; this "
                f"assignment of {describe(result.new)} inside a branch or loop fails. Annotate the first assignment: "
                f"`{result.name}: Optional[{spelled}] = None`"), (
            lambda: annotate_none_start(result.name, spelled, ctx))


class OptionalUsedWithoutRefine(TypedRule):
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
            lambda: assert_not_none(node, ctx))

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
    index = optional_argument(result, ctx)
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


class LoopVariableUsedAfterLoop(TypedRule):
    code = "JIT705"
    name = "loop-var-used-after-loop"
    severity = "error"
    summary = "a variable first set inside a loop, read after it"
    message = "variable first set inside a loop is read after it"

    def render(self, result: R.LoopOnly, ctx, function):
        return (f"`{result.name}` is first set inside a loop above and read here, after the loop; TorchScript scopes "
                f"it to the loop ('undefined value {result.name}'). Set it before the loop"), None


class LoopCarriedTypeChange(TypedRule):
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
        build = (lambda: start_as_float(result.name, ctx)) if (result.previous, result.new) == (INT, FLOAT) \
            else None
        return (f"`{result.name}` is {describe(result.previous)} before this {where}, and {change} "
                f"{describe(result.new)}; TorchScript keeps one type for a variable across branches and loop "
                f"iterations (torch: 'Variable '{result.name}' previously had type {result.previous} but is now being "
                f"assigned to a value of type {result.new}'). Start it as {describe(result.new)}{hint}"), build


class TernaryTypeMismatch(TypedRule):
    code = "JIT707"
    name = "ternary-type-mismatch"
    severity = "error"
    summary = "`x if cond else 0`: arms of different types"
    message = "if-expression with branches of different types"

    def render(self, result: R.TernaryMismatch, ctx, function):
        return (f"the true branch of this if-expression is {describe(result.body)} and the false branch "
                f"{describe(result.orelse)}; TorchScript needs one type. Make both the same type"), None


class ItemIsNumber(TypedRule):
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
                lambda: item_to_int(result.node.value, str(wanted), ctx))
        node = result.wrong_node
        return ("`.item()` returns a number (int or float) to TorchScript, and `range()` needs an int; wrap it: "
                "`int(....item())`"), (lambda: item_to_int(node, "int", ctx))

    def visit_FunctionDef(self, node: cst.FunctionDef, ctx: RuleContext) -> None:
        for result in results_for(self, node, ctx):
            message, build = self.render(result, ctx, node)
            where = result.node.target if isinstance(result, R.AnnotatedMismatch) else result.wrong_node
            ctx.report(where, message, fix=with_path(ctx, node, where, build))


# -- JIT609-611 -------------------------------------------------------------------------------------------------------
class AttributeNoneNeedsOptional(TypedRule):
    code = "JIT609"
    name = "attr-none-needs-optional-annotation"
    severity = "error"
    fix = "safe"
    summary = "`self.cache = None` in `__init__`, assigned a Tensor in compiled code, no class-level `Optional`"
    message = "attribute that is None in `__init__` assigned a value without a class-level Optional annotation"

    def render(self, result: R.AttributeNoneAssigned, ctx, function):
        spelled = written_type(without_none(result.new))
        return (f"`self.{result.name}` is None in `__init__` and has no class-level annotation, so TorchScript types "
                f"it NoneType; assigning {describe(result.new)} here fails. Declare it in the class body: "
                f"`{result.name}: Optional[{spelled}]`"), (
            lambda: class_optional_annotation(result.name, spelled, ctx))


class AttributeTypeChange(TypedRule):
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


class OptionalAttributeNoLocalRefine(TypedRule):
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
            ctx.report(where, message, fix=with_path(ctx, node, where, lambda: refine_through_local(where, ctx)))


# -- JIT210 -----------------------------------------------------------------------------------------------------------
class EmptyContainerNeedsAnnotation(TypedRule):
    code = "JIT210"
    name = "empty-container-needs-annotation"
    severity = "error"
    fix = "safe"
    summary = "`sizes = []` then `sizes.append(x.size(0))`; `d = {}` then a non-str key or non-Tensor value"
    message = "unannotated empty list or dict filled with non-Tensor values"

    def render(self, result: R.EmptyContainerFilled, ctx, function):
        name = result.name
        if result.kind == "list":
            element = written_type(result.element) if result.element is not None else None
            given = describe(result.element) if result.element is not None else "values of other types"
            shown = f"List[{element}]" if element is not None else "List[...]"
            message = (f"`{name}` starts as an unannotated `[]`, which TorchScript types List[Tensor], and this "
                       f"appends {given}; annotate it where it starts: `{name}: {shown} = []`")
            annotation_text = f"List[{element}]" if element is not None else None
            empty = "[]"
        else:
            key = written_type(result.key) if result.key is not None else "str"
            value = written_type(result.element) if result.element is not None else "torch.Tensor"
            message = (f"`{name}` starts as an unannotated `{{}}`, which TorchScript types Dict[str, Tensor], and this "
                       f"stores a key or value of another type; annotate it where it starts: "
                       f"`{name}: Dict[{key}, {value}] = {{}}`")
            annotation_text = f"Dict[{key}, {value}]" if result.element is not None or result.key is not None else None
            empty = "{}"
        if annotation_text is None or result.start is None:
            return message, None
        return message, lambda: annotate_empty_container(result.start, name, annotation_text, empty, ctx)


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


def annotate_empty_container(start: cst.CSTNode, name: str, annotation: str, empty: str,
                             ctx: RuleContext) -> PendingFix | None:
    """JIT210: `sizes = []` -> `sizes: list[int] = []`, with the element type everything given to the list joins
    to (`list[torch.Tensor | None]` for Tensors and None). Safe."""
    if not (isinstance(start, cst.Assign) and len(start.targets) == 1 and isinstance(start.targets[0].target, cst.Name)
            and start.targets[0].target.value == name):
        return None
    if "torch." in annotation and ctx.torch_name != "torch":
        return None
    return PendingFix(f"annotate `{name}`", [PendingEdit(start, f"{name}: {builtin_generics(annotation)} = {empty}")])


def annotate_none_start(name: str, kind: str, ctx: RuleContext) -> PendingFix | None:
    """JIT703: `acc = None` -> `acc: torch.Tensor | None = None` (the type the later assignment gives). Safe."""
    function = compiled_function(ctx)
    if function is None:
        return None
    assign = _first_assignment(function, name, lambda v: isinstance(v, cst.Name) and v.value == "None")
    if assign is None or (kind.startswith("torch.") and ctx.torch_name != "torch"):
        return None
    return PendingFix(f"annotate `{name}`", [PendingEdit(assign, f"{name}: {builtin_generics(kind)} | None = None")])


def start_as_float(name: str, ctx: RuleContext) -> PendingFix | None:
    """JIT706: `s = 0` then `s += 0.5` in a loop -> `s = 0.0`. Unsafe: where the loop adds nothing, `s` stays a
    float, and what it meets gives a float (`x * s` of an integer tensor is a float tensor)."""
    function = compiled_function(ctx)
    if function is None:
        return None
    assign = _first_assignment(function, name, lambda v: isinstance(v, cst.Integer))
    if assign is None:
        return None
    number = assign.value
    return PendingFix("start it as a float", [PendingEdit(number, f"{int(number.evaluated_value)}.0")])


def optional_return(node: cst.CSTNode, ctx: RuleContext) -> PendingFix | None:
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


def class_optional_annotation(name: str, kind: str, ctx: RuleContext) -> PendingFix | None:
    """JIT609: `self.cache = None` in `__init__`, a Tensor in forward -> a class-level `cache: torch.Tensor | None`
    (an annotation without a value changes nothing at run time). Safe."""
    cls = class_of(ctx)
    if cls is None or not isinstance(cls.body, cst.IndentedBlock):
        return None
    if kind.startswith("torch.") and ctx.torch_name != "torch":
        return None
    first = next((s for s in cls.body.body if isinstance(s, cst.FunctionDef)), None)
    if first is None or first.decorators or first.leading_lines:
        return None
    indent = ctx.indent_of(cls) + (cls.body.indent if cls.body.indent is not None else ctx.module.tree.default_indent)
    return PendingFix(f"declare `{name}` Optional in the class",
                      [PendingEdit(first, f"{name}: {builtin_generics(kind)} | None\n\n{indent}", insert_before=True)])


def refine_through_local(node: cst.CSTNode, ctx: RuleContext) -> PendingFix | None:
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


def assert_not_none(node: cst.CSTNode, ctx: RuleContext) -> PendingFix | None:
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


def _self_flag_test(test: cst.BaseExpression, self_name: str) -> str | None:
    if (isinstance(test, cst.Attribute) and isinstance(test.value, cst.Name) and test.value.value == self_name
            and not test.lpar):
        return test.attr.value
    return None


def same_flag_branches(function: cst.FunctionDef, branch: cst.If, name: str) -> str | None:
    """For JIT702 (`branch` the `if` that sets `name` in one branch): `flag` when that `if` tests `self.flag` and
    `name` is set and read only inside `if self.flag:` bodies of the function: with the flag a constant, torch
    keeps all of them or none."""
    if not function.params.params:
        return None
    self_name = function.params.params[0].name.value
    flag = _self_flag_test(branch.test, self_name)
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


def flag_for_one_branch(function: cst.FunctionDef, branch: cst.If, name: str, ctx: RuleContext) -> PendingFix | None:
    """JIT702 where the variable is set and read only under `if self.flag:` (pytorchcv's `if self.return_preact:
    x_pre_activ = x` ... `if self.return_preact: return x, x_pre_activ`): the flag becomes `torch.jit.Final[bool]`
    (JIT232's fix), so torch keeps all those branches or none. Safe."""
    cls = class_of(ctx)
    if cls is None or branch is None:
        return None
    flag = same_flag_branches(function, branch, name)
    declared = final_flag(flag, cls, ctx) if flag is not None else None
    if declared is None:
        return None
    final, edits = declared
    return PendingFix(f"declare `{flag}` a constant (`{final}[bool]`)", edits)


def item_to_int(node: cst.CSTNode, kind: str, ctx: RuleContext) -> PendingFix | None:
    """JIT708: `range(t.item())` -> `range(int(t.item()))`; `n: int = t.item()` -> `n: int = int(t.item())` (and
    `float` for a float annotation). Unsafe: in eager Python the `.item()` of a floating tensor was a float (which
    `range` refused, and which the annotated variable kept), and `int(...)` truncates it."""
    if kind not in ("int", "float") or not isinstance(node, cst.BaseExpression):
        return None
    return PendingFix(f"convert it with `{kind}(...)`", [PendingEdit(node, f"{kind}({ctx.code(node)})")])


def return_none_at_end(node: cst.CSTNode, ctx: RuleContext) -> PendingFix | None:
    """JIT222: a function annotated `-> T` whose end can be reached -> an explicit `return None` at its end (what
    Python returns there anyway); JIT208's fix then makes the annotation `T | None`. Safe: the eager function
    returns exactly what it returned (None where it fell off its end)."""
    function = compiled_function(ctx)
    if function is None or node is not function.name or not isinstance(function.body, cst.IndentedBlock):
        return None
    if function.returns is None or isinstance(function.returns.annotation, (cst.SimpleString, cst.ConcatenatedString)):
        return None
    last = function.body.body[-1]
    indent = inner_indent(function, ctx)
    return PendingFix("return None at the end (and declare it)",
                      [PendingEdit(last, f"\n{indent}return None", insert_after=True)])


def annotate_tolist(node: cst.CSTNode, ctx: RuleContext) -> PendingFix | None:
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
        name = fresh_name(function, "values", "items")
        indent = ctx.indent_of(statement)
        return PendingFix(f"assign it to an annotated `{name}` first", [
            PendingEdit(statement, f"{name}: {annotation} = {ctx.code(node)}\n{indent}", insert_before=True),
            PendingEdit(node, name),
        ])
    return None


