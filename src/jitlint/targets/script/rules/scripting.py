"""JIT5xx: misuse of `torch.jit.is_scripting()` and of the checks people mistake for it."""

from __future__ import annotations

import libcst as cst

from jitlint.pruning import terminates
from jitlint.facts.syntax import bindings
from jitlint.rules.base import PendingEdit, PendingFix, RuleContext
from jitlint.targets.script.literals import literal_type
from jitlint.targets.script.policy import SCRIPTING_CHECKS, guard_name, is_ignored, scripting_value
from jitlint.targets.script.rewrite import annotate_param, builtin_generics
from jitlint.targets.script.rules import ScriptRule
from jitlint.walk import walk


def _semantic_findings_within(nodes, ctx: RuleContext) -> bool:
    """Whether a semantic rule (one torch's pruning would silence) reported inside the nodes' subtrees."""
    candidates = {
        id(raw.node) for raw in ctx.findings if not raw.rule.fires_in_pruned and not raw.rule.explains_other_findings
    }
    if not candidates:
        return False
    ids: set[int] = set()

    class Collect(cst.CSTVisitor):
        def on_visit(self, child: cst.CSTNode) -> bool:
            ids.add(id(child))
            return True

    for node in nodes if isinstance(nodes, (list, tuple)) else [nodes]:
        walk(node, Collect())
    return bool(ids & candidates)


def _would_be_dead(node: cst.If, value: bool) -> cst.CSTNode | None:
    return node.body if value is False else node.orelse


class IsTracingGuardDoesNotPrune(ScriptRule):
    code = "JIT501"
    file_hooks_report_visits = True
    name = "is-tracing-guard-doesnt-prune"
    severity = "error"
    summary = "`is_tracing()`-style guards around code torch rejects (they do not prune)"
    fix = "safe"
    message = "this check does not prune branches under torch.jit.script"
    explains_other_findings = True

    def begin_file(self, ctx: RuleContext) -> None:
        self.guards: list[tuple[cst.If, str, list[cst.CSTNode]]] = []

    def visit_If(self, node: cst.If, ctx: RuleContext) -> None:
        name = guard_name(node.test, ctx.module.imports)
        if name is None:
            return
        # `if is_tracing(): return x` guards the statements after it as if they were its else branch.
        following: list[cst.CSTNode] = []
        block = ctx.parent
        if terminates(node.body) and isinstance(block, cst.IndentedBlock):
            following = list(block.body[block.body.index(node) + 1 :])
        self.guards.append((node, name, following))

    def end_file(self, ctx: RuleContext) -> None:
        for node, name, following in self.guards:
            if _semantic_findings_within([node, *following], ctx):
                short = name.replace("torch._C.", "").rsplit(".", 1)[-1]
                ctx.report(
                    node.test,
                    f"`{short}()` is an ordinary runtime value under torch.jit.script, so torch compiles both "
                    f"branches, and code in them that TorchScript rejects fails the script; guard eager-only code "
                    f"with `if not torch.jit.is_scripting():`, which torch prunes",
                    fix=script_like_tracing(node.test, ctx),
                )


class IsScriptingStoredInVariable(ScriptRule):
    code = "JIT502"
    file_hooks_report_visits = True
    name = "is-scripting-stored-in-var"
    severity = "error"
    summary = "`s = is_scripting(); if not s:` around code torch rejects (a variable does not prune)"
    fix = "safe"
    message = "`is_scripting()` stored in a variable does not prune branches"
    explains_other_findings = True

    def begin_file(self, ctx: RuleContext) -> None:
        self.bound: dict[int, dict[str, bool]] = {}
        self.values: dict[int, dict[str, cst.BaseExpression]] = {}
        self.uses: list[tuple[cst.If, cst.CSTNode, PendingFix | None]] = []

    def visit_Assign(self, node: cst.Assign, ctx: RuleContext) -> None:
        value = scripting_value(node.value, ctx.module.imports)
        if value is None or ctx.function is None:
            return
        for target in node.targets:
            if isinstance(target.target, cst.Name):
                self.bound.setdefault(id(ctx.function), {})[target.target.value] = value
                self.values.setdefault(id(ctx.function), {})[target.target.value] = node.value

    def visit_If(self, node: cst.If, ctx: RuleContext) -> None:
        bound = self.bound.get(id(ctx.function))
        if not bound:
            return
        value = _value_with_names(node.test, bound, ctx)
        if value is None:
            return
        dead = _would_be_dead(node, value)
        if dead is not None:
            self.uses.append((node, dead, self._fix(node.test, ctx)))

    def _fix(self, test: cst.BaseExpression, ctx: RuleContext) -> PendingFix | None:
        """Inline the call where the variable is tested, if the variable is assigned only once."""
        values = self.values.get(id(ctx.function), {})
        edits = []

        class Names(cst.CSTVisitor):
            def visit_Name(self, name: cst.Name) -> None:
                if name.value in values:
                    code = ctx.code(values[name.value])
                    edits.append(PendingEdit(name, code if isinstance(values[name.value], cst.Call) else f"({code})"))

        walk(test, Names())
        rebound = [e for e in edits if list(assigned_names_all(ctx.function.info.node)).count(e.node.value) > 1]
        if not edits or rebound:
            return None
        return PendingFix("call `is_scripting()` in the test itself", edits)

    def end_file(self, ctx: RuleContext) -> None:
        for node, dead, fix in self.uses:
            if _semantic_findings_within(dead, ctx):
                ctx.report(
                    node.test,
                    "torch only prunes a branch when the `if` calls `torch.jit.is_scripting()` itself; through a "
                    "variable the branch is compiled and fails. Inline the call: `if not torch.jit.is_scripting():`",
                    fix=fix,
                )


def assigned_names_all(function: cst.FunctionDef) -> list[str]:
    """Every assignment of a whole name (`x = ...`, `x += ...`) in a function, with repeats (to tell a variable
    assigned once)."""
    return [
        target.value
        for _binding, target in bindings(function.body, (cst.AssignTarget, cst.AugAssign))
        if isinstance(target, cst.Name)
    ]


def _value_with_names(test: cst.BaseExpression, bound: dict[str, bool], ctx: RuleContext) -> bool | None:
    """The test's value if the variables holding `is_scripting()` were the call itself; None if it uses none."""
    if scripting_value(test, ctx.module.imports) is not None:
        return None  # torch prunes it already
    return scripting_value(test, ctx.module.imports, bound)


class IsScriptingOutsideCompiledCode(ScriptRule):
    code = "JIT503"
    name = "is-scripting-outside-compiled-code"
    severity = "warning"
    summary = "`is_scripting()` in `__init__` or at import time, where it is always False"
    scope = "anywhere"
    text_hints = ("is_scripting",)  # every name in SCRIPTING_CHECKS, and any import of one under an alias
    message = "`torch.jit.is_scripting()` is always False here"

    def visit_Call(self, node: cst.Call, ctx: RuleContext) -> None:
        if node.args or ctx.qualify(node.func) not in SCRIPTING_CHECKS:
            return
        where = self._where(ctx)
        if where is not None:
            ctx.report(
                node,
                f"`is_scripting()` is evaluated {where}, where it is always False, even for a module you then "
                f"script; test it inside `forward` (or a method forward calls) instead",
            )

    @staticmethod
    def _where(ctx: RuleContext) -> str | None:
        ancestors = ctx.ancestors
        for index in range(len(ancestors) - 1, -1, -1):
            node = ancestors[index]
            if isinstance(node, (cst.Lambda, cst.Assert)):
                return None  # `assert not torch.jit.is_scripting()` is a deliberate guard
            if isinstance(node, cst.FunctionDef):
                if node.name.value != "__init__":
                    return None
                owner = next((a for a in reversed(ancestors[:index]) if isinstance(a, cst.ClassDef)), None)
                if owner is None:
                    return None
                cls = ctx.module.classes.get(owner.name.value)
                if cls is not None and ctx.project.is_module_class(cls):
                    return f"in `{owner.name.value}.__init__`"
                return None
        return "at import time"


class IgnoredMethodNeedsAnnotations(ScriptRule):
    code = "JIT504"
    name = "ignored-method-needs-annotations"
    severity = "error"
    summary = "a literal passed to an unannotated parameter of an ignored method"
    message = "non-Tensor argument to an unannotated parameter of an ignored function"
    fix = "safe"

    def visit_Call(self, node: cst.Call, ctx: RuleContext) -> None:
        resolved = ctx.captured.callee_of(node)
        if resolved is None or not is_ignored(resolved[0]) or any(arg.star for arg in node.args):
            return
        callee, bound = resolved
        compiled = ctx.captured.get(callee.node)
        if compiled is not None and not compiled.params_captured:
            return  # an @torch.jit.unused method of a TorchScript class: torch makes every parameter `Any`
        params = [*callee.node.params.posonly_params, *callee.node.params.params][int(bound):]
        by_name = {p.name.value: p for p in (*params, *callee.node.params.kwonly_params)}
        for index, arg in enumerate(node.args):
            param = by_name.get(arg.keyword.value) if arg.keyword else (params[index] if index < len(params) else None)
            kind = literal_type(arg.value)
            if param is None or param.annotation is not None or kind is None:
                continue
            ctx.report(
                arg.value,
                f"`{callee.display_name}` is ignored by TorchScript, which still types its unannotated parameter "
                f"`{param.name.value}` as a Tensor, so this {kind.split('[')[0]} cannot be passed; annotate it: "
                f"`{param.name.value}: {kind}`",
                fix=annotate_ignored_parameter(callee, param, kind, ctx),
            )


_STUB_DECORATORS = frozenset({"torch.jit.ignore", "torch.jit.unused"})
_PLAIN_METHOD_DECORATORS = _STUB_DECORATORS | {"builtins.staticmethod", "staticmethod"}


class IgnoredFunctionDefaultOmitted(ScriptRule):
    code = "JIT438"
    name = "ignored-function-default-omitted"
    severity = "error"
    summary = ("a call in compiled code of an `@torch.jit.ignore`/`unused` function that leaves out a parameter with a "
               "default: torch's stub of it has no defaults")
    message = "a defaulted parameter of an ignored function left out of a call in compiled code"

    def visit_Call(self, node: cst.Call, ctx: RuleContext) -> None:
        resolved = ctx.captured.callee_of(node)
        if resolved is None or any(arg.star for arg in node.args):
            return
        callee, bound = resolved
        # only `@torch.jit.ignore` / `@torch.jit.unused` (with `staticmethod`): another decorator may wrap it
        if not callee.decorators & _STUB_DECORATORS or callee.decorators - _PLAIN_METHOD_DECORATORS:
            return
        if callee.cls is not None and not ctx.project.is_module_class(callee.cls):
            return  # a TorchScript class's unused method: torch types it otherwise
        params = callee.node.params
        if params.kwonly_params or params.star_kwarg is not None or params.star_arg not in (None, cst.MaybeSentinel.DEFAULT):
            return  # keyword-only or variadic parameters: torch fails otherwise (an internal assert)
        ordered = [*params.posonly_params, *params.params][int(bound):]
        positional = [arg for arg in node.args if arg.keyword is None]
        if len(positional) > len(ordered):
            return
        given = {param.name.value for param in ordered[:len(positional)]} | {
            arg.keyword.value for arg in node.args if arg.keyword is not None}
        missing = [param.name.value for param in ordered if param.default is not None and param.name.value not in given]
        if not missing:
            return
        which = ", ".join(f"`{name}`" for name in missing)
        ctx.report(
            node,
            f"`{callee.display_name}` is ignored by TorchScript, whose stub of it keeps the parameters but not their "
            f"defaults, so this call must pass {which} (torch: 'Argument {missing[0]} not provided.'); pass "
            f"{'it' if len(missing) == 1 else 'them'} explicitly",
        )


# -- fixes ----------------------------------------------------------------------------------------------------


def script_like_tracing(test: cst.BaseExpression, ctx: RuleContext) -> PendingFix | None:
    """`if torch.jit.is_tracing():` -> `if (torch.jit.is_scripting() or torch.jit.is_tracing()):`: under
    torch.jit.script the tracing branch is taken and the other pruned. Safe: in eager code `is_scripting()` is
    False, so the test has its old value."""
    torch = ctx.torch_name
    if torch is None:
        return None
    edits = []

    class Calls(cst.CSTVisitor):
        def visit_Call(self, call: cst.Call) -> None:
            if ctx.qualify(call.func) == "torch.jit.is_tracing" and not call.args:
                edits.append(PendingEdit(call, f"({torch}.jit.is_scripting() or {ctx.code(call)})"))

    walk(test, Calls())
    return PendingFix("take the tracing branch under torch.jit.script too", edits) if edits else None


def annotate_ignored_parameter(function, param: cst.Param, annotation: str, ctx: RuleContext) -> PendingFix | None:
    """JIT504: the ignored function's parameter gets the annotation the call's literal shows (`step: int`). Safe:
    eager Python ignores it, and the ignored body still runs in Python. Only for a function of the same file."""
    if function.module is not ctx.module or param.annotation is not None or param.star:
        return None

    annotation = builtin_generics(annotation)
    return PendingFix(f"annotate `{param.name.value}: {annotation}`", annotate_param(param, annotation, ctx))
