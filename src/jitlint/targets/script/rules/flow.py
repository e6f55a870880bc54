"""JIT7xx, JIT206-210, JIT609-611: control-flow typing. One walk over each compiled function (the TorchScript type
domain of `jitlint.targets.script.typeflow`, driven by the target-neutral walker of `jitlint.facts.flow`) records events;
each rule below reports the events that name its class (JIT202's rule, in `types.py`, reports its own too).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from jitlint.rules.base import Rule, RuleContext
from jitlint.targets.script.facts import FlowEvents
from jitlint.targets.script.rules import ScriptRule

if TYPE_CHECKING:
    from jitlint.targets.script.typeflow import Event


def report_events(rule: Rule, node: cst.FunctionDef, ctx: RuleContext, events: list["Event"] | None = None) -> None:
    """Report the events of `node` that name the rule's class (of `events`, default all its flow events)."""
    if ctx.function is None or ctx.function.info.node is not node or not ctx.function.body_captured:
        return
    for event in events if events is not None else ctx.fact(FlowEvents, node):
        if event.rule is type(rule):
            fix = None
            if rule.fix is not None:
                from jitlint.targets.script.fixers import event_fix

                fix = event_fix(rule.code, node, event.node, event.message, ctx)
            ctx.report(event.node, event.message, fix=fix)


class _FlowRule(ScriptRule):
    facts = (FlowEvents,)

    def visit_FunctionDef(self, node: cst.FunctionDef, ctx: RuleContext) -> None:
        report_events(self, node, ctx)


class TolistNeedsAnnotation(_FlowRule):
    code = "JIT206"
    name = "tolist-needs-annotation"
    severity = "error"
    fix = "unsafe"
    summary = "`.tolist()` on a Tensor whose result is not assigned to an annotated variable"
    message = "`.tolist()` without a type annotation"


class ReturnTypeMismatch(_FlowRule):
    code = "JIT208"
    name = "return-type-mismatch"
    severity = "error"
    fix = "safe"
    summary = "`return None` in a function annotated to return a non-Optional type"
    message = "returns None from a function annotated with another type"


class TupleReturnArityMismatch(_FlowRule):
    code = "JIT209"
    name = "tuple-return-arity-mismatch"
    severity = "error"
    summary = "returns of tuples of different lengths, or a tuple and a non-tuple"
    message = "returns tuples of different lengths, or a tuple and a non-tuple"


class BranchTypeMismatch(_FlowRule):
    code = "JIT701"
    name = "branch-type-mismatch"
    severity = "error"
    summary = "a variable set to a Tensor in one branch and an int in the other (and read after)"
    message = "variable set to different types in the branches of an if"


class DefinedInOneBranch(_FlowRule):
    code = "JIT702"
    name = "defined-in-one-branch"
    severity = "error"
    fix = "safe"
    summary = "a variable set in one branch only and read after the `if`"
    message = "variable set in one branch only and read after the if"

    def visit_FunctionDef(self, node: cst.FunctionDef, ctx: RuleContext) -> None:
        # Silent where the variable is set and read only under `if self.flag:` and the flag is a `Final` of the
        # class: torch keeps both branches or drops both (JIT702's fix makes the flag so).
        from jitlint.targets.script.fixers import _path, same_flag_branches

        cls = next((a for a in reversed(ctx.ancestors) if isinstance(a, cst.ClassDef)), None)
        finals = _final_names(cls) if cls is not None else set()
        if not finals or ctx.function is None or ctx.function.info.node is not node:
            report_events(self, node, ctx)
            return
        kept = []
        for event in ctx.fact(FlowEvents, node):
            if event.rule is DefinedInOneBranch:
                path = _path(node, event.node)
                if path is not None and same_flag_branches(node, path, event.message) in finals:
                    continue
            kept.append(event)
        report_events(self, node, ctx, kept)


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
    name = "none-init-then-tensor"
    severity = "error"
    fix = "safe"
    summary = "`acc = None` (unannotated), then assigned a value in a branch or loop"
    message = "variable initialised to None without annotation, then assigned in a branch or loop"


class OptionalUsedWithoutRefine(_FlowRule):
    code = "JIT704"
    name = "optional-used-without-refine"
    severity = "error"
    fix = "unsafe"
    summary = (
        "an `Optional[T]` parameter used as a value where it is not refined (`if m is not None`, `assert`, "
        "early exit)"
    )
    message = "Optional value used without a None check"


class LoopVariableUsedAfterLoop(_FlowRule):
    code = "JIT705"
    name = "loop-var-used-after-loop"
    severity = "error"
    summary = "a variable first set inside a loop, read after it"
    message = "variable first set inside a loop is read after it"


class LoopCarriedTypeChange(_FlowRule):
    code = "JIT706"
    name = "loop-carried-type-change"
    severity = "error"
    fix = "unsafe"
    summary = "`s = 0` then `s += 0.5` in a loop or branch (int becomes float)"
    message = "variable changes type inside a branch or loop"


class TernaryTypeMismatch(_FlowRule):
    code = "JIT707"
    name = "ternary-type-mismatch"
    severity = "error"
    summary = "`x if cond else 0`: arms of different types"
    message = "if-expression with branches of different types"


class ItemIsNumber(_FlowRule):
    code = "JIT708"
    name = "item-is-number"
    severity = "error"
    fix = "unsafe"
    summary = "`range(t.item())`: `.item()` is a number, `range` needs an int"
    message = "`.item()` used where TorchScript needs an int"


class AttributeNoneNeedsOptional(_FlowRule):
    code = "JIT609"
    name = "attr-none-needs-optional-annotation"
    severity = "error"
    fix = "safe"
    summary = "`self.cache = None` in `__init__`, assigned a Tensor in compiled code, no class-level `Optional`"
    message = "attribute that is None in `__init__` assigned a value without a class-level Optional annotation"


class AttributeTypeChange(_FlowRule):
    code = "JIT610"
    name = "attr-type-change-in-forward"
    severity = "error"
    summary = "`self.steps = 0` in `__init__`, assigned a Tensor (or a float) in compiled code"
    message = "compiled code assigns an attribute a value of another type than `__init__` gave it"


class OptionalAttributeNoLocalRefine(_FlowRule):
    code = "JIT611"
    name = "optional-attr-no-local-refine"
    severity = "error"
    fix = "safe"
    summary = "an attribute declared `Optional` used as a value (torch never refines attributes)"
    message = "Optional attribute used as a value (attributes are never refined)"


class EmptyContainerNeedsAnnotation(_FlowRule):
    code = "JIT210"
    name = "empty-container-needs-annotation"
    severity = "error"
    fix = "safe"
    summary = "`sizes = []` then `sizes.append(x.size(0))`; `d = {}` then a non-str key or non-Tensor value"
    message = "unannotated empty list or dict filled with non-Tensor values"


class NoMatchingOverload(_FlowRule):
    code = "JIT416"
    name = "no-matching-overload"
    severity = "error"
    fix = "safe"
    summary = (
        "a call of a torch operator, Tensor method or `torch.nn.functional` function whose arguments match none of "
        "its TorchScript signatures (wrong keyword, an int where a float is required, a mixed list)"
    )
    message = "no overload of the operator accepts these arguments"


class RangeEnumerateArguments(_FlowRule):
    code = "JIT418"
    name = "range-enumerate-arguments"
    severity = "error"
    summary = "`range()` or `enumerate()` with a wrong number of arguments, or `range()` of a float"
    message = "`range`/`enumerate` called with arguments TorchScript rejects"


class TupleMisuse(_FlowRule):
    code = "JIT220"
    name = "tuple-misuse"
    severity = "error"
    summary = "a tuple indexed out of range or by a non-literal, assigned into, given an attribute, or tested for truth"
    message = "a tuple used in a way TorchScript's fixed-type tuples do not support"


class AnnotatedAssignmentMismatch(_FlowRule):
    code = "JIT221"
    name = "annotated-assignment-mismatch"
    severity = "error"
    fix = "unsafe"
    summary = "`x: T = value` with a value of another type, or an inner block re-annotating an outer variable"
    message = "an annotated assignment TorchScript rejects"


class MissingReturn(_FlowRule):
    code = "JIT222"
    name = "missing-return"
    severity = "error"
    fix = "safe"
    summary = "a function annotated to return a value whose end can be reached without a `return`"
    message = "does not return along all paths"


class NotIterableOrSubscriptable(_FlowRule):
    code = "JIT223"
    name = "not-iterable-or-subscriptable"
    severity = "error"
    summary = "a `for` loop over an int, float or bool, or an index into one"
    message = "an int, float or bool iterated over or indexed"


class UnknownTensorMethod(_FlowRule):
    code = "JIT224"
    name = "unknown-tensor-method"
    severity = "error"
    fix = "safe"
    summary = "a method TorchScript's Tensor does not have, or a Tensor method used as a value"
    message = "a Tensor method TorchScript does not have, or one used as a value"


class DeleteSlice(_FlowRule):
    code = "JIT225"
    name = "del-slice"
    severity = "error"
    fix = "unsafe"
    summary = "`del x[a:b]`: TorchScript deletes one index at a time"
    message = "`del` of a slice"


class ModuleContainerLength(_FlowRule):
    code = "JIT315"
    name = "module-container-length"
    severity = "error"
    fix = "unsafe"
    summary = "a ModuleList zipped with a list, range or Tensor, or indexed past its length"
    message = "a module container used beyond its static length"


class UnknownListMethod(_FlowRule):
    code = "JIT233"
    name = "unknown-list-method"
    severity = "error"
    summary = "a method TorchScript's lists do not have (`shape.numel()` on a `List[int]`)"
    message = "a list method TorchScript does not have"


class CannotUnpack(_FlowRule):
    code = "JIT234"
    name = "cannot-unpack"
    severity = "error"
    summary = ("tuple-unpacking a value that is not a tuple: the modules of a ModuleList (`for attn, ff in "
               "self.layers:`) or an unannotated (Tensor) parameter (`mean, var = pred`)")
    message = "a module or a Tensor unpacked as a tuple"
