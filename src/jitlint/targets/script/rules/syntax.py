"""JIT1xx: constructs torch's frontend rejects, and generator expressions where TorchScript cannot type them.

Frontend rules (`fires_in_pruned = True`) fire even inside `is_scripting()` dead branches: torch converts the whole function
before it prunes anything (verified on 2.13).
"""

from __future__ import annotations

import libcst as cst

from jitlint.facts import RunFact, run_fact
from jitlint.apis import unsupported
from jitlint.names import first_param_name
from jitlint.targets.script.typing.analysis import type_at
from jitlint.targets.script.typing.types import TENSOR, Type, describe
from jitlint.rules.base import PendingEdit, PendingFix, RuleContext
from jitlint.targets.script.policy import constant_names
from jitlint.targets.script import fixers
from jitlint.targets.script.rules import ScriptRule
from jitlint.walk import walk
from jitlint.targets.script.facts import ScriptTypes

_COMPREHENSIONS = (cst.ListComp, cst.SetComp, cst.DictComp, cst.GeneratorExp)


class NoBuiltinSumOfTensors(ScriptRule):
    facts = (ScriptTypes,)
    code = "JIT101"
    name = "no-builtin-sum"
    severity = "error"
    summary = "builtin `sum()` over Tensors (`sum()` of ints and floats is fine)"
    fix = "unsafe"
    message = (
        "builtin `sum()` over Tensors is not supported by TorchScript (it only sums lists of int or float); "
        "accumulate in a loop or use `torch.stack(...).sum(0)`"
    )

    def visit_Call(self, node: cst.Call, ctx: RuleContext) -> None:
        if ctx.qualify(node.func) != "builtins.sum" or not node.args:
            return
        argument = node.args[0].value
        if sums_tensors(node, ctx):
            ctx.report(node, fix=self._fix(node, argument, ctx))

    @staticmethod
    def _fix(node: cst.Call, argument: cst.BaseExpression, ctx: RuleContext) -> PendingFix | None:
        """`sum(E for t in xs)` -> `torch.stack([E for t in xs]).sum(0)`: unsafe, since it needs tensors of one
        shape and fails on an empty sequence, where `sum()` gives 0."""
        torch = ctx.torch_name
        if torch is None or len(node.args) != 1:
            return None
        if isinstance(argument, cst.GeneratorExp):
            items = ctx.code(cst.ListComp(elt=argument.elt, for_in=argument.for_in))
        else:
            items = ctx.code(argument)
        replacement = f"{torch}.stack({items}).sum(0)"
        return PendingFix(f"use `{torch}.stack(...).sum(0)`", [PendingEdit(node, replacement)])



def sums_tensors(node: cst.Call, ctx: RuleContext) -> bool:
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


def in_ignore_context_manager(ctx: RuleContext) -> bool:
    """Inside `with torch.jit._IgnoreContextManager(...):`, whose body torch's frontend turns into a call of an
    ignored Python function before it parses anything: nothing there is compiled."""
    for ancestor in ctx.ancestors:
        if isinstance(ancestor, cst.With) and any(
            isinstance(item.item, cst.Call)
            and (ctx.qualify(item.item.func) or "").endswith("jit._IgnoreContextManager")
            for item in ancestor.items
        ):
            return True
    return False


class NoComprehensionIf(ScriptRule):
    facts = (ScriptTypes,)
    code = "JIT102"
    name = "no-comprehension-if"
    severity = "error"
    summary = "comprehensions with an `if` clause"
    fix = "unsafe"
    fires_in_pruned = True
    message = "comprehensions with an `if` clause are not supported by TorchScript; use a loop with `append`"

    def _check(self, node, ctx: RuleContext) -> None:
        if in_ignore_context_manager(ctx):
            return
        comp = node.for_in
        fix = self._fix(node, ctx)
        while comp is not None:
            for condition in comp.ifs:
                ctx.report(condition, fix=fix)
            comp = comp.inner_for_in

    visit_ListComp = visit_DictComp = visit_GeneratorExp = _check

    @staticmethod
    def _fix(node, ctx: RuleContext) -> PendingFix | None:
        """`y = [E for t in xs if C]` (or `return [...]`) -> an annotated list filled by a loop. Unsafe: the loop
        is equivalent, but jitlint only knows the element type when E is certainly a Tensor."""
        torch = ctx.torch_name
        statement = ctx.ancestors[-3] if len(ctx.ancestors) >= 3 else None
        small = ctx.parent
        if torch is None or not isinstance(node, cst.ListComp) or node.for_in.inner_for_in is not None:
            return None
        if not isinstance(statement, cst.SimpleStatementLine) or len(statement.body) != 1:
            return None
        if type_at(ctx, node.elt) != TENSOR:
            return None
        if isinstance(small, cst.Assign) and len(small.targets) == 1 and isinstance(small.targets[0].target, cst.Name):
            name, tail = small.targets[0].target.value, []
        elif isinstance(small, cst.Return):
            name = "kept"
            tail = [f"return {name}"]
        else:
            return None
        comp = node.for_in
        condition = " and ".join(f"({ctx.code(c.test)})" if len(comp.ifs) > 1 else ctx.code(c.test) for c in comp.ifs)
        indent = ctx.indent_of(statement)
        step = ctx.module.tree.default_indent
        lines = [
            f"{name}: list[{torch}.Tensor] = []",
            f"for {ctx.code(comp.target)} in {ctx.code(comp.iter)}:",
            f"{step}if {condition}:",
            f"{step}{step}{name}.append({ctx.code(node.elt)})",
            *tail,
        ]
        content = ("\n" + indent).join(lines)
        return PendingFix("rewrite as a loop", [PendingEdit(statement, content)])


class NoMultiGeneratorComprehension(ScriptRule):
    code = "JIT103"
    name = "no-multi-generator-comprehension"
    severity = "error"
    summary = "comprehensions with more than one `for`"
    fires_in_pruned = True
    message = "comprehensions with more than one `for` are not supported by TorchScript; use nested loops"

    def _check(self, node, ctx: RuleContext) -> None:
        if node.for_in.inner_for_in is not None:
            ctx.report(node.for_in.inner_for_in)

    visit_ListComp = visit_DictComp = visit_GeneratorExp = _check


class NoSetComprehension(ScriptRule):
    code = "JIT104"
    name = "no-set-comprehension"
    severity = "error"
    summary = "set comprehensions"
    fix = "unsafe"
    fires_in_pruned = True
    message = "set comprehensions are not supported by TorchScript (it has no set type); build a list or a dict"

    def visit_SetComp(self, node: cst.SetComp, ctx: RuleContext) -> None:
        ctx.report(node, fix=fixers.set_comp_to_dict(node, ctx))


class NoLambda(ScriptRule):
    code = "JIT105"
    name = "no-lambda"
    severity = "error"
    summary = "`lambda` in compiled code, also inside `is_scripting()` branches"
    fix = "safe"
    fires_in_pruned = True
    message = "lambdas are not supported by TorchScript; use a named module-level function"

    def visit_Lambda(self, node: cst.Lambda, ctx: RuleContext) -> None:
        ctx.report(node, fix=fixers.lambda_to_def(node, ctx))


class NoTryExcept(ScriptRule):
    code = "JIT106"
    name = "no-try-except"
    severity = "error"
    summary = "`try` blocks in compiled code"
    fires_in_pruned = True
    message = "`try` blocks are not supported by TorchScript; move the eager-only code into a `@torch.jit.ignore` helper"

    def visit_Try(self, node: cst.Try, ctx: RuleContext) -> None:
        ctx.report(node)

    def visit_TryStar(self, node: cst.TryStar, ctx: RuleContext) -> None:
        ctx.report(node)


class NoNestedDef(ScriptRule):
    code = "JIT107"
    name = "no-nested-def"
    severity = "error"
    summary = "a function defined inside a compiled function"
    fix = "safe"
    fires_in_pruned = True
    message = "function definitions inside compiled code are not supported by TorchScript; define it at module level"

    def visit_FunctionDef(self, node: cst.FunctionDef, ctx: RuleContext) -> None:
        # Called in the enclosing frame for a nested (uncompiled) def; a compiled function is never nested.
        if ctx.function is not None and ctx.function.info.node is not node:
            ctx.report(node.name, fix=fixers.hoist_definition(node, ctx))


class NoVarargs(ScriptRule):
    code = "JIT108"
    name = "no-varargs-kwargs"
    severity = "error"
    summary = "`*args`/`**kwargs` (typed too) in a compiled signature"
    fires_in_pruned = True
    message = "compiled functions cannot take `*args` or `**kwargs` (typed ones included); list the parameters"
    fix = "unsafe"

    def visit_Parameters(self, node: cst.Parameters, ctx: RuleContext) -> None:
        if not any(isinstance(star, cst.Param) for star in (node.star_arg, node.star_kwarg)):
            return
        fix = fixers.explicit_signature(node, ctx)
        for star in (node.star_arg, node.star_kwarg):
            if isinstance(star, cst.Param):
                ctx.report(star.name, fix=fix)


class NoKeywordOnlyDefault(ScriptRule):
    code = "JIT109"
    name = "no-kwonly-default"
    severity = "error"
    summary = "keyword-only parameters with defaults"
    fix = "safe"
    fires_in_pruned = True
    message = "compiled functions cannot have keyword-only parameters with defaults; drop the bare `*`"

    def visit_Parameters(self, node: cst.Parameters, ctx: RuleContext) -> None:
        fix = fixers.drop_bare_star(node, ctx)
        for param in node.kwonly_params:
            if param.default is not None:
                ctx.report(param.name, fix=fix)


class NoLoopElse(ScriptRule):
    code = "JIT110"
    name = "no-loop-else"
    severity = "error"
    summary = "`else` on a `for`/`while` loop"
    fix = "safe"
    fires_in_pruned = True
    message = "`else` on a loop is not supported by TorchScript (on `while` torch even fails without a line number)"

    # Reported on the loop's header, where torch points for a `for` ("else branches of for loops aren't
    # supported", at the `for`); for a `while` torch names no line.
    def visit_For(self, node: cst.For, ctx: RuleContext) -> None:
        if node.orelse is not None:
            ctx.report(node.target, fix=fixers.loop_else_after(node, ctx))

    def visit_While(self, node: cst.While, ctx: RuleContext) -> None:
        if node.orelse is not None:
            ctx.report(node.test, fix=fixers.loop_else_after(node, ctx))


class _ReportNode(ScriptRule):
    """A construct torch's frontend rejects wherever it appears in compiled code."""

    fires_in_pruned = True
    node_type: type[cst.CSTNode]

    def __init_subclass__(cls, **kwargs) -> None:
        super().__init_subclass__(**kwargs)
        if f"visit_{cls.node_type.__name__}" not in cls.__dict__:  # a rule with a fix reports its own
            setattr(cls, f"visit_{cls.node_type.__name__}", lambda self, node, ctx: ctx.report(node))


class NoSetLiteral(_ReportNode):
    code = "JIT111"
    name = "no-set-literal"
    severity = "error"
    summary = "set displays `{1, 2}`"
    message = "set literals are not supported by TorchScript (it has no set type); use a list or a dict"
    node_type = cst.Set
    fix = "unsafe"

    def visit_Set(self, node: cst.Set, ctx: RuleContext) -> None:
        ctx.report(node, fix=fixers.set_to_list(node, ctx))


class NoWalrus(_ReportNode):
    code = "JIT112"
    name = "no-walrus"
    severity = "error"
    summary = "`:=`"
    message = "assignment expressions (`:=`) are not supported by TorchScript; assign on the line before"
    node_type = cst.NamedExpr
    fix = "safe"

    def visit_NamedExpr(self, node: cst.NamedExpr, ctx: RuleContext) -> None:
        ctx.report(node, fix=fixers.hoist_walrus(node, ctx))


class NoGlobalStatement(ScriptRule):
    code = "JIT113"
    name = "no-global-nonlocal-stmt"
    severity = "error"
    summary = "`global`/`nonlocal`"
    fix = "safe"
    fires_in_pruned = True
    message = "`global`/`nonlocal` statements are not supported by TorchScript; keep state on the module (`self`)"

    def visit_Global(self, node: cst.Global, ctx: RuleContext) -> None:
        ctx.report(node, fix=fixers.drop_unused_global(node, ctx))

    def visit_Nonlocal(self, node: cst.Nonlocal, ctx: RuleContext) -> None:
        ctx.report(node)


class NoYield(_ReportNode):
    code = "JIT114"
    name = "no-yield"
    severity = "error"
    summary = "`yield`"
    message = "generators (`yield`) are not supported by TorchScript; return a list"
    node_type = cst.Yield


class NoFormatSpec(ScriptRule):
    code = "JIT115"
    name = "no-fstring-format-spec"
    severity = "error"
    summary = "f-string format specs and conversions (`{v:.2f}`, `{v!r}`)"
    fix = "safe"
    fires_in_pruned = True
    message = "f-string format specs and conversions (`{v:.2f}`, `{v!r}`) are not supported by TorchScript; use `'{:.2f}'.format(v)`"

    def visit_FormattedStringExpression(self, node: cst.FormattedStringExpression, ctx: RuleContext) -> None:
        if node.format_spec is not None or node.conversion is not None:
            ctx.report(node, fix=self._fix(ctx))

    @staticmethod
    def _fix(ctx: RuleContext) -> PendingFix | None:
        """`f"v={v:.2f}"` -> `"v={:.2f}".format(v)`: the same text, and str.format scripts. Only for plain specs."""
        string = ctx.parent
        if not isinstance(string, cst.FormattedString) or string.prefix.lower() != "f":
            return None
        template, arguments = [], []
        for part in string.parts:
            if isinstance(part, cst.FormattedStringText):
                template.append(part.value)
            elif part.conversion is not None or any(
                not isinstance(p, cst.FormattedStringText) for p in (part.format_spec or [])
            ):
                return None
            else:
                spec = "".join(p.value for p in part.format_spec or [])
                template.append("{" + (":" + spec if spec else "") + "}")
                arguments.append(ctx.code(part.expression))
        quote = string.start[len(string.prefix):]
        content = f"{quote}{''.join(template)}{quote}.format({', '.join(arguments)})"
        return PendingFix("use `str.format`", [PendingEdit(string, content)])


class NoStarUnpackInCall(ScriptRule):
    code = "JIT116"
    name = "no-star-unpack-in-call"
    severity = "error"
    summary = "`*` unpacking of a list in a call (`x.view(*shape)`)"
    fix = "safe"
    message = (
        "`*` unpacking of a list in a call is not supported by TorchScript (it cannot know the length); pass the "
        "list itself: `x.view(shape)`"
    )

    def visit_Arg(self, node: cst.Arg, ctx: RuleContext) -> None:
        # `*(1, -1)` and `*tuple_var` script fine (a tuple has a static length): flag what is certainly a list.
        if node.star == "*" and _is_list_like(node.value, ctx):
            ctx.report(node, fix=fixers.pass_the_list(node, ctx, _is_list_like))

    def visit_List(self, node: cst.List, ctx: RuleContext) -> None:
        for element in node.elements:
            if isinstance(element, cst.StarredElement) and _is_list_like(element.value, ctx):
                ctx.report(element)


def _is_list_like(node: cst.BaseExpression, ctx: RuleContext) -> bool:
    """Certainly a List under TorchScript: a list display or comprehension, `x.shape`/`x.size()` (List[int]),
    a slice of one, or a local assigned a list display."""
    if isinstance(node, (cst.List, cst.ListComp)):
        return True
    if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.Add):
        return _is_list_like(node.left, ctx) or _is_list_like(node.right, ctx)
    if isinstance(node, cst.Subscript):
        return _is_list_like(node.value, ctx)
    if isinstance(node, cst.Attribute) and (known := _self_attribute_is_list(node, ctx)) is not None:
        return known
    if isinstance(node, cst.Attribute) and node.attr.value == "shape":
        return True
    if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.func.attr.value == "size" and not node.args:
        return True
    if isinstance(node, cst.Name) and ctx.function is not None:
        return node.value in _list_locals(ctx.function.info.node)
    return False


def _self_attribute_is_list(node: cst.Attribute, ctx: RuleContext) -> bool | None:
    """For `self.<name>` in a method of module classes that have that attribute: whether it is certainly a list,
    i.e. `__init__` assigns it only non-empty list displays or comprehensions, and nothing else assigns, annotates
    or makes it a constant (a `Final`/`__constants__` list becomes a tuple). None when it is not such an attribute
    (`x.shape` of a tensor `x`, an attribute the project does not see)."""
    function = ctx.function
    if function is None or not isinstance(node.value, cst.Name) or function.info.bound_first_param != "instance":
        return None
    if node.value.value != first_param_name(function.info.node):
        return None
    owners = [owner for owner in function.owners if ctx.project.is_module_class(owner)]
    if not owners or len(owners) != len(function.owners):
        return None
    name = node.attr.value
    if any(ctx.project.attributes(owner).get(name) is None for owner in owners):
        return None
    for owner in owners:
        info = ctx.project.attributes(owner).get(name)
        if (info is None or not info.init_values or info.assigned_in != {"__init__"} or info.registered
                or info.annotation is not None or info.class_value is not None or info.filled_in_init
                or name in constant_names(ctx.project, owner)):
            return False
        # An empty list attribute fails earlier (torch cannot type it), with another error.
        if not all(isinstance(value.node, cst.ListComp) or (isinstance(value.node, cst.List) and value.node.elements)
                   for value in info.init_values):
            return False
    return True


def _list_locals(function: cst.FunctionDef) -> set[str]:
    """Locals whose every assignment is a list display (`shape = [b, -1]`)."""
    kinds: dict[str, bool] = {}

    class Collect(cst.CSTVisitor):
        def visit_Assign(self, node: cst.Assign) -> None:
            for target in node.targets:
                if isinstance(target.target, cst.Name):
                    name = target.target.value
                    kinds[name] = kinds.get(name, True) and isinstance(node.value, (cst.List, cst.ListComp))

        def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
            if isinstance(node.target, cst.Name):
                kinds[node.target.value] = kinds.get(node.target.value, True) and isinstance(node.value, (cst.List, cst.ListComp))

    walk(function.body, Collect())
    return {name for name, is_list in kinds.items() if is_list}


class NoKwargExpansion(ScriptRule):
    code = "JIT117"
    name = "no-kwarg-expansion"
    severity = "error"
    summary = "`**kwargs` expansion in a call"
    fix = "safe"
    fires_in_pruned = True
    message = "`**` keyword-argument expansion in a call is not supported by TorchScript; pass the keywords"

    def visit_Arg(self, node: cst.Arg, ctx: RuleContext) -> None:
        if node.star == "**":
            ctx.report(node, fix=fixers.inline_keywords(node, ctx))


class NoDictUnpack(ScriptRule):
    code = "JIT118"
    name = "no-dict-unpack"
    severity = "error"
    summary = "`{**d}`"
    fix = "safe"
    fires_in_pruned = True
    message = "`{**d}` dict expansion is not supported by TorchScript; use `d.copy()` and `update()`"

    def visit_StarredDictElement(self, node: cst.StarredDictElement, ctx: RuleContext) -> None:
        display = ctx.parent
        fix = None
        if isinstance(display, cst.Dict) and len(display.elements) == 1:  # `{**a}` is exactly `a.copy()`
            value = ctx.code(node.value)
            fix = PendingFix(f"use `{value}.copy()`", [PendingEdit(display, f"{value}.copy()")])
        ctx.report(node, fix=fix)


class NoStarredAssign(ScriptRule):
    code = "JIT119"
    name = "no-starred-assign"
    severity = "error"
    summary = "`a, *rest = ...`"
    fix = "unsafe"
    message = "starred assignment (`a, *rest = ...`) is not supported by TorchScript; index instead"

    def visit_AssignTarget(self, node: cst.AssignTarget, ctx: RuleContext) -> None:
        target = node.target
        if isinstance(target, (cst.Tuple, cst.List)):
            for element in target.elements:
                if isinstance(element, cst.StarredElement):
                    ctx.report(element, fix=fixers.index_instead_of_star(element, ctx))


class NoImportInCompiledCode(ScriptRule):
    code = "JIT120"
    name = "no-import-in-compiled"
    severity = "error"
    summary = "`import` inside compiled code"
    fix = "unsafe"
    fires_in_pruned = True
    message = "`import` inside compiled code is not supported by TorchScript; import at module level"

    def visit_Import(self, node: cst.Import, ctx: RuleContext) -> None:
        ctx.report(node, fix=fixers.hoist_import(node, ctx))

    def visit_ImportFrom(self, node: cst.ImportFrom, ctx: RuleContext) -> None:
        ctx.report(node, fix=fixers.hoist_import(node, ctx))

    def visit_Call(self, node: cst.Call, ctx: RuleContext) -> None:
        """A call of a function of a file the run does not lint, whose body imports: torch compiles the function
        because of this call, rejects its import, and names a line of that file, outside the user's code; the call
        is where the linted code reaches it. (In a linted file the import itself is reported.)"""
        if ctx.in_pruned_branch or ctx.in_signature:
            return  # torch compiles the callee only when it emits the call
        if _under_attribute_none_test(ctx):
            return  # torch folds `self.x is None` when `__init__` left `x` None, and then compiles no call there
        found = ctx.captured.callee_of(node)
        if found is None:
            return
        callee, _bound = found
        if callee.cls is not None or callee.decorators or ctx.project.in_run(callee.module):
            return  # a method's compilation depends on its class; a decorator may replace the function
        statement = _first_import(callee.node)
        if statement is None:
            return
        where = f"{callee.module.display_name}, line {_line_in(ctx.project, callee.module, callee.node, statement)}"
        ctx.report(
            node,
            f"this call makes TorchScript compile `{callee.name}` ({where}), whose `import` statement it does not "
            f"support ('import statements aren't supported', at that line, outside the linted files); import at "
            f"module level there, or call something TorchScript can compile",
        )


def _under_attribute_none_test(ctx: RuleContext) -> bool:
    """Whether an enclosing `if`, `while` or conditional expression tests an attribute (`self.x`) with `is None` /
    `is not None`: an attribute that may be None after `__init__` (a value set only when an optional package
    imports) makes torch prune one side, which the capture map cannot know."""
    for ancestor in ctx.ancestors:
        if isinstance(ancestor, (cst.If, cst.While, cst.IfExp)):
            for comparison in walk_comparisons(ancestor.test):
                if isinstance(comparison.left, cst.Attribute) and any(
                    isinstance(target.operator, (cst.Is, cst.IsNot)) and isinstance(target.comparator, cst.Name)
                    and target.comparator.value == "None" for target in comparison.comparisons
                ):
                    return True
    return False


def walk_comparisons(node: cst.BaseExpression) -> list[cst.Comparison]:
    found: list[cst.Comparison] = []

    class Collect(cst.CSTVisitor):
        def visit_Comparison(self, comparison: cst.Comparison) -> None:
            found.append(comparison)

        def visit_Lambda(self, lambda_: cst.Lambda) -> bool:
            return False

    walk(node, Collect())
    return found


def _first_import(function: cst.FunctionDef) -> cst.Import | cst.ImportFrom | None:
    """The first `import` statement of a function's body, when it is the first statement torch's parser rejects:
    None when a `try`, a nested function or a class comes first (torch names those)."""
    pending = list(function.body.body) if isinstance(function.body, cst.IndentedBlock) else [function.body]
    while pending:
        node = pending.pop(0)
        if isinstance(node, (cst.Import, cst.ImportFrom)):
            return node
        if isinstance(node, (cst.Try, cst.TryStar, cst.FunctionDef, cst.ClassDef)):
            return None
        if not isinstance(node, cst.CSTNode):
            continue
        if isinstance(node, (cst.SimpleStatementLine, cst.SimpleStatementSuite)):
            pending[0:0] = list(node.body)
        elif isinstance(node, cst.BaseCompoundStatement):
            pending[0:0] = [child for child in node.children if isinstance(child, (cst.BaseSuite, cst.BaseCompoundStatement, cst.BaseStatement, cst.ExceptHandler, cst.Else, cst.Finally))]
        elif isinstance(node, cst.BaseSuite):
            pending[0:0] = list(node.body)
        elif isinstance(node, (cst.ExceptHandler, cst.Else, cst.Finally)):
            pending[0:0] = [node.body]
    return None


class ModuleCode(RunFact):
    """The code of a module's tree, printed once per run."""

    @classmethod
    def compute(cls, project, tree: cst.Module) -> str:
        return tree.code


def _line_in(project, module, function: cst.FunctionDef, node: cst.CSTNode) -> int | str:
    """The 1-based line of a statement of a function of a module read on demand (which has no position metadata):
    found by the code of the function, then of the statement in it. The module's code is printed once per run."""
    tree = module.tree
    code = run_fact(project, ModuleCode, tree)
    function_code = tree.code_for_node(function)
    start = code.find(function_code)
    inner = function_code.find(tree.code_for_node(node)) if start >= 0 else -1
    return code.count("\n", 0, start + inner) + 1 if inner >= 0 else "?"


class NoBareAnnotation(ScriptRule):
    code = "JIT121"
    name = "no-bare-annotation"
    severity = "error"
    summary = "`y: Tensor` without a value"
    fix = "safe"
    fires_in_pruned = True
    message = "a local annotation without a value (`y: Tensor`) is not supported by TorchScript; assign it a value"

    def visit_AnnAssign(self, node: cst.AnnAssign, ctx: RuleContext) -> None:
        if node.value is None:
            ctx.report(node, fix=fixers.merge_bare_annotation(node, ctx))


class NoUnsupportedContextManager(ScriptRule):
    code = "JIT122"
    name = "no-unsupported-context-manager"
    severity = "error"
    summary = "`with torch.inference_mode()`, `open()`, `contextlib`, ..."
    fix = "unsafe"
    message = "context manager not supported by TorchScript"
    facts = (ScriptTypes,)

    def visit_FunctionDef(self, node: cst.FunctionDef, ctx: RuleContext) -> None:
        # `with` of a value the typer knows: an object whose class has `__enter__(self)` and `__exit__(self, Any,
        # Any, Any)` is the only context manager TorchScript takes besides its own
        from jitlint.targets.script.rules.flow import results_for

        for result in results_for(self, node, ctx):
            problem = result.problem
            if problem == "with":
                message = (f"this `with` item is {describe(result.type)}; TorchScript enters only objects of a class "
                           "with `__enter__` and `__exit__` (torch: 'With item expression must return an object')")
            elif problem == "with-methods":
                message = (f"`{result.cls}` defines no `__enter__` and `__exit__` (torch: 'Object returned by with item "
                           "expression does not define __enter__ and __exit__ methods')")
            elif problem == "with-enter":
                message = (f"`{result.cls}.__enter__` must take only `self` (torch: '__enter__ must have only one "
                           "argument and one return value')")
            elif problem == "with-exit":
                message = (f"`{result.cls}.__exit__` must take `self` and three more arguments (torch: '__exit__ must "
                           "have four arguments')")
            else:
                message = (f"argument {result.name} of `{result.cls}.__exit__` is {result.type}; TorchScript passes no "
                           f"exceptions, so each must be annotated `Any` (torch: 'argument {result.name} of __exit__ "
                           "must have Any type')")
            ctx.report(result.node, message)

    def visit_WithItem(self, node: cst.WithItem, ctx: RuleContext) -> None:
        item = node.item
        qualified = ctx.qualify(item.func if isinstance(item, cst.Call) else item)
        if qualified is None:
            return
        for name in unsupported("context-manager"):
            if qualified == name or (name.endswith(".") and qualified.startswith(name)):
                hint = " (use `torch.no_grad()`)" if qualified in ("torch.inference_mode", "torch.set_grad_enabled") else ""
                ctx.report(item, f"`{qualified.removeprefix('builtins.')}` cannot be used as a context manager in TorchScript{hint}; "
                           "only `torch.no_grad()`, `torch.autocast(...)` and `record_function(...)` are supported",
                           fix=fixers.no_grad_instead(item, ctx))
                return


class NoClassDefInCompiledCode(ScriptRule):
    code = "JIT123"
    name = "no-class-def-in-compiled"
    severity = "error"
    summary = "a class defined inside compiled code"
    fix = "safe"
    fires_in_pruned = True
    message = "class definitions inside compiled code are not supported by TorchScript; define it at module level"

    def visit_ClassDef(self, node: cst.ClassDef, ctx: RuleContext) -> None:
        ctx.report(node.name, fix=fixers.hoist_definition(node, ctx))


class NoTupleOfIterable(ScriptRule):
    code = "JIT124"
    facts = (ScriptTypes,)
    name = "no-tuple-of-iterable"
    severity = "error"
    summary = "`tuple()` of a generator or list (a display, or a value typed as a list: `tuple(x.shape[2:])`)"
    fix = "unsafe"
    message = (
        "`tuple()` of a list or generator is not supported by TorchScript (a tuple needs a static length); "
        "keep the list, or write the tuple out: `(a, b)`"
    )

    def visit_Call(self, node: cst.Call, ctx: RuleContext) -> None:
        if ctx.qualify(node.func) == "builtins.tuple" and len(node.args) == 1:
            argument = node.args[0].value
            if isinstance(argument, (cst.GeneratorExp, cst.ListComp, cst.List)):
                items = argument if not isinstance(argument, cst.GeneratorExp) else cst.ListComp(
                    elt=argument.elt, for_in=argument.for_in)
                # Unsafe: code that needs a tuple (hashing, `==` with a tuple) sees a list instead.
                fix = PendingFix("pass the list itself", [PendingEdit(node, ctx.code(items))])
                ctx.report(node, fix=fix)

    def visit_FunctionDef(self, node: cst.FunctionDef, ctx: RuleContext) -> None:
        """`tuple(xs)` of a value the typer knows is a list (`tuple(x.shape[2:])`), and `f(*xs)` or `a, *b = xs`
        of a list: torch cannot tell how many values a list holds."""
        from jitlint.targets.script.rules.flow import results_for
        from jitlint.targets.script.typing import results as R

        for result in results_for(self, node, ctx):
            if isinstance(result, R.TupleOfList):
                ctx.report(result.node, f"`tuple()` of a {result.type}: TorchScript cannot infer the tuple's length "
                                        "from a list (torch: 'cannot statically infer the expected size of a list in "
                                        "this context'); keep the list, or index it: `(xs[0], xs[1])`")
            else:
                ctx.report(result.node, f"this unpacks a {result.type}, whose length TorchScript cannot infer (torch: "
                                        "'cannot statically infer the expected size of a list in this context'); "
                                        "pass the elements one by one (`xs[0], xs[1]`), or make it a tuple")


class NoFloordivMatmulAugassign(ScriptRule):
    code = "JIT240"
    name = "no-floordiv-matmul-augassign"
    severity = "error"
    summary = "`//=` and `@=` augmented assignments"
    fix = "unsafe"
    fires_in_pruned = True
    message = (
        "TorchScript's frontend has no `//=` or `@=` augmented assignment (it has `+=`, `-=`, `*=`, `/=`, `%=`, "
        "`**=` and the bitwise ones); write `x = x // y` (`x = x @ y`)"
    )

    _OPERATORS = {cst.FloorDivideAssign: "//", cst.MatrixMultiplyAssign: "@"}

    def visit_AugAssign(self, node: cst.AugAssign, ctx: RuleContext) -> None:
        operator = self._OPERATORS.get(type(node.operator))
        if operator is None:
            return
        ctx.report(node, f"`{operator}=` is not supported by TorchScript (\"unsupported kind of augmented assignment\"); "
                         f"write `x = x {operator} y`", fix=self._fix(node, operator, ctx))

    @staticmethod
    def _fix(node: cst.AugAssign, operator: str, ctx: RuleContext) -> PendingFix | None:
        """`h //= 2` -> `h = h // 2`. Unsafe: on a Tensor, `//=` updates it in place (other references see the
        change), the assignment makes a new one."""
        if not isinstance(node.target, cst.Name):
            return None
        code = ctx.module.tree.code_for_node
        value = node.value
        shown = code(value)
        if not isinstance(value, (cst.Name, cst.Integer, cst.Float, cst.Attribute, cst.Call, cst.Subscript)) or \
                value.lpar:
            shown = shown if value.lpar else f"({shown})"
        name = node.target.value
        return PendingFix(f"write `{name} = {name} {operator} ...`", [PendingEdit(node, f"{name} = {name} {operator} {shown}")])
