"""EXP201-EXP208 (less EXP207): what default torch.export accepts but silently changes. Export runs the Python once,
at trace time, on fake tensors: what is not a tensor operation is evaluated then and baked into the program, or
dropped (verified on torch 2.13). TorchScript kept all of these dynamic."""

from __future__ import annotations

import libcst as cst

from jitlint.names import first_param_name
from jitlint.rules.base import RuleContext
from jitlint.targets.export.rules import ExportRule, registered, strict


def _is_self(node: cst.BaseExpression, ctx: RuleContext) -> bool:
    function = ctx.function
    return (function is not None and function.info.bound_first_param == "instance" and isinstance(node, cst.Name)
            and node.value == first_param_name(function.info.node))


def _logger_global(node: cst.BaseExpression, ctx: RuleContext) -> bool:
    """`logger` in `logger.info(...)`: a module-level `logging.getLogger(...)`."""
    if not isinstance(node, cst.Name):
        return False
    value = ctx.module.globals.get(node.value)
    return isinstance(value, cst.Call) and (ctx.qualify(value.func) or "").startswith("logging.")


class PythonSideEffectDropped(ExportRule):
    code = "EXP201"
    name = "print-or-logging-dropped"
    severity = "warning"
    summary = "`print(...)` and `logging` calls in traced code: run once while tracing, absent from the program"
    message = "`print`/logging runs once while export traces, never when the exported program runs"

    def visit_Call(self, node: cst.Call, ctx: RuleContext) -> None:
        qualified = ctx.qualify(node.func) or ""
        func = node.func
        if qualified == "builtins.print":
            what = "`print(...)`"
        elif qualified.startswith("logging.") or (isinstance(func, cst.Attribute) and _logger_global(func.value, ctx)):
            what = "this logging call"
        else:
            return
        ctx.report(node, f"{what} runs once while torch.export traces (printing fake tensors) and is not part of the "
                         "exported program: it never runs at inference; log outside the model, or return the value")


class GlobalMutationBaked(ExportRule):
    code = "EXP202"
    name = "global-mutation-baked"
    severity = "warning"
    summary = "a `global` assigned in traced code: its trace-time value is baked into the program"
    message = "a global mutated in traced code is baked at its trace-time value"

    def begin_file(self, ctx: RuleContext) -> None:
        self.globals: dict[int, set[str]] = {}

    def visit_Global(self, node: cst.Global, ctx: RuleContext) -> None:
        if ctx.function is not None:
            self.globals.setdefault(id(ctx.function.info.node), set()).update(item.name.value for item in node.names)

    def _check(self, target: cst.BaseExpression, ctx: RuleContext) -> None:
        if ctx.function is None or not isinstance(target, cst.Name):
            return
        if target.value in self.globals.get(id(ctx.function.info.node), ()):
            ctx.report(target, (f"global `{target.value}` is changed in traced code: torch.export runs this once and "
                                "bakes the value it has then into the program (later calls do not change it); keep the "
                                "state in a registered buffer, or outside the model"))

    def visit_AugAssign(self, node: cst.AugAssign, ctx: RuleContext) -> None:
        self._check(node.target, ctx)

    def visit_Assign(self, node: cst.Assign, ctx: RuleContext) -> None:
        for target in node.targets:
            self._check(target.target, ctx)


class AttributeMutationBaked(ExportRule):
    code = "EXP203"
    name = "attribute-mutation-baked"
    severity = "warning"
    summary = "`self.<attr> = ...` / `+=` in traced code on an attribute that is not a registered buffer"
    message = "an attribute assigned in traced code is not state of the exported program"

    def _check(self, target: cst.BaseExpression, ctx: RuleContext) -> None:
        if not (isinstance(target, cst.Attribute) and _is_self(target.value, ctx)):
            return
        name = target.attr.value
        if registered(ctx, name):
            return  # a buffer: export keeps its mutation in the program
        ctx.report(target, (f"`self.{name}` is assigned while torch.export traces: plain attributes are not state of "
                            "the exported program, so the value is baked at trace time (a tensor gets \"must be "
                            "registered as buffers\") and later calls do not update it; use `register_buffer` and "
                            "update it in place (`self.buf.add_(...)`, `self.buf.copy_(...)`)"))

    def visit_Assign(self, node: cst.Assign, ctx: RuleContext) -> None:
        for target in node.targets:
            self._check(target.target, ctx)

    def visit_AugAssign(self, node: cst.AugAssign, ctx: RuleContext) -> None:
        self._check(node.target, ctx)

    def visit_AnnAssign(self, node: cst.AnnAssign, ctx: RuleContext) -> None:
        if node.value is not None:
            self._check(node.target, ctx)


class PythonValueFrozen(ExportRule):
    code = "EXP204"
    name = "random-or-time-frozen"
    severity = "warning"
    summary = "`random.*` and `time.*` in traced code: the trace-time value is baked (strict mode rejects them)"
    message = "a `random`/`time` value is computed once while tracing and baked into the program"

    def visit_Call(self, node: cst.Call, ctx: RuleContext) -> None:
        qualified = ctx.qualify(node.func) or ""
        module = qualified.split(".", 1)[0]
        if module not in ("random", "time") or "." not in qualified:
            return
        mode = ("strict-mode export rejects it (\"Attempted to call function marked as skipped\")" if strict(ctx)
                else "default export bakes the value it returned while tracing into the program")
        advice = ("use `torch.rand(...)` (a graph op) or pass the value in as an input" if module == "random"
                  else "time outside the model")
        ctx.report(node, f"`{qualified}()` is Python, not a tensor op: {mode}; {advice}")


def _reads_self_training(test: cst.BaseExpression, ctx: RuleContext) -> bool:
    found = []

    class Find(cst.CSTVisitor):
        def visit_Attribute(self, node: cst.Attribute) -> None:
            if node.attr.value == "training" and _is_self(node.value, ctx):
                found.append(node)

        def visit_Lambda(self, node) -> bool:
            return False

    test.visit(Find())
    return bool(found)


def _reads_device(test: cst.BaseExpression) -> bool:
    found = []

    class Find(cst.CSTVisitor):
        def visit_Attribute(self, node: cst.Attribute) -> None:
            if node.attr.value in ("is_cuda", "device") and not (
                isinstance(node.value, cst.Name) and node.value.value == "torch"
            ):
                found.append(node)

        def visit_Lambda(self, node) -> bool:
            return False

    test.visit(Find())
    return bool(found)


class _TestRule(ExportRule):
    def matches(self, test: cst.BaseExpression, ctx: RuleContext) -> bool:
        raise NotImplementedError

    def visit_If(self, node: cst.If, ctx: RuleContext) -> None:
        if self.matches(node.test, ctx):
            ctx.report(node.test)

    def visit_IfExp(self, node: cst.IfExp, ctx: RuleContext) -> None:
        if self.matches(node.test, ctx):
            ctx.report(node.test)

    def visit_While(self, node: cst.While, ctx: RuleContext) -> None:
        if self.matches(node.test, ctx):
            ctx.report(node.test)


class TrainingBranchSpecialized(_TestRule):
    code = "EXP205"
    name = "training-branch-specialized"
    severity = "warning"
    summary = "a branch on `self.training`: export keeps only the mode the model was in when exported"
    message = ("a branch on `self.training` is specialised: the exported program keeps only the branch of the mode "
               "at export time (`ep.module().train()` raises \"Calling train() is not supported yet\"); export the "
               "eval model and keep training in eager")

    def matches(self, test: cst.BaseExpression, ctx: RuleContext) -> bool:
        return _reads_self_training(test, ctx)

    # One finding per file, at its first branch, naming the functions of the others: a model tests `self.training`
    # in many places, and one answer (export the eval model) covers them all.
    def begin_file(self, ctx: RuleContext) -> None:
        self.first = None
        self.others: dict[str, int] = {}

    def _found(self, test: cst.BaseExpression, ctx: RuleContext) -> None:
        if not self.matches(test, ctx):
            return
        if self.first is None:
            self.first = (test, ctx.function, list(ctx.ancestors))
            return
        where = ctx.function.info.display_name if ctx.function is not None else "module level"
        self.others[where] = self.others.get(where, 0) + 1

    def visit_If(self, node: cst.If, ctx: RuleContext) -> None:
        self._found(node.test, ctx)

    def visit_IfExp(self, node: cst.IfExp, ctx: RuleContext) -> None:
        self._found(node.test, ctx)

    def visit_While(self, node: cst.While, ctx: RuleContext) -> None:
        self._found(node.test, ctx)

    def end_file(self, ctx: RuleContext) -> None:
        if self.first is None:
            return
        test, function, ancestors = self.first
        message = self.message
        count = sum(self.others.values())
        if count:
            places = ", ".join(f"`{name}`" + (f" ({times})" if times > 1 else "") for name, times in self.others.items())
            message += (f"; the same holds for the {count} other branch{'es' if count > 1 else ''} on "
                        f"`self.training` in this file: in {places}")
        saved = ctx.function, ctx.ancestors
        ctx.function, ctx.ancestors = function, ancestors  # where the first branch is, for the finding's context
        try:
            ctx.report(test, message)
        finally:
            ctx.function, ctx.ancestors = saved


class DeviceBranchSpecialized(_TestRule):
    code = "EXP206"
    name = "device-branch-specialized"
    severity = "warning"
    summary = "a branch on `x.device` / `x.is_cuda`: export keeps only the branch of the example inputs' device"
    message = ("a branch on a tensor's device is specialised: the exported program keeps only the branch taken for "
               "the example inputs' device; write device-independent code, or export once per device")

    def matches(self, test: cst.BaseExpression, ctx: RuleContext) -> bool:
        return _reads_device(test)


class JitForkInlined(ExportRule):
    code = "EXP208"
    name = "jit-fork-inlined"
    severity = "warning"
    summary = "`torch.jit.fork`: default export runs it inline (no parallelism); strict export rejects it"
    message = "`torch.jit.fork` runs inline under torch.export: the exported program has no parallelism"

    def visit_Call(self, node: cst.Call, ctx: RuleContext) -> None:
        if ctx.qualify(node.func) != "torch.jit.fork":
            return
        mode = ("strict-mode export rejects it (\"Attempted to call function marked as skipped\")" if strict(ctx)
                else "default export runs the call inline, sequentially (with a DeprecationWarning)")
        ctx.report(node, f"`torch.jit.fork` is TorchScript's task parallelism: {mode}; call the function directly")
