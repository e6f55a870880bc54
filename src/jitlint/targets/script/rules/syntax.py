"""JIT1xx: constructs torch's frontend rejects, and generator expressions where TorchScript cannot type them.

Frontend rules (`fires_in_pruned = True`) fire even inside `is_scripting()` dead branches: torch converts the whole function
before it prunes anything (verified on 2.13).
"""

from __future__ import annotations

import libcst as cst

from jitlint.apis import unsupported
from jitlint.facts import RunFact, run_fact
from jitlint.facts.syntax import names_in, names_in_targets
from jitlint.rules.base import PendingEdit, PendingFix, RuleContext
from jitlint.targets.script.claims import results_for, sums_tensors
from jitlint.targets.script.facts import ScriptTypes
from jitlint.targets.script.rewrite import (
    compiled_function, count_name, enclosing_statement, loop_jumps, module_level_names, stored_names,
)
from jitlint.targets.script.rules import ScriptRule
from jitlint.targets.script.typing.analysis import type_at
from jitlint.targets.script.typing.types import TENSOR, describe
from jitlint.walk import walk

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
        ctx.report(node, fix=set_comp_to_dict(node, ctx))


class NoLambda(ScriptRule):
    code = "JIT105"
    name = "no-lambda"
    severity = "error"
    summary = "`lambda` in compiled code, also inside `is_scripting()` branches"
    fix = "safe"
    fires_in_pruned = True
    message = "lambdas are not supported by TorchScript; use a named module-level function"

    def visit_Lambda(self, node: cst.Lambda, ctx: RuleContext) -> None:
        ctx.report(node, fix=lambda_to_def(node, ctx))


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
            ctx.report(node.name, fix=hoist_definition(node, ctx))


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
        fix = explicit_signature(node, ctx)
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
        fix = drop_bare_star(node, ctx)
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
            ctx.report(node.target, fix=loop_else_after(node, ctx))

    def visit_While(self, node: cst.While, ctx: RuleContext) -> None:
        if node.orelse is not None:
            ctx.report(node.test, fix=loop_else_after(node, ctx))


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
        ctx.report(node, fix=set_to_list(node, ctx))


class NoWalrus(_ReportNode):
    code = "JIT112"
    name = "no-walrus"
    severity = "error"
    summary = "`:=`"
    message = "assignment expressions (`:=`) are not supported by TorchScript; assign on the line before"
    node_type = cst.NamedExpr
    fix = "safe"

    def visit_NamedExpr(self, node: cst.NamedExpr, ctx: RuleContext) -> None:
        ctx.report(node, fix=hoist_walrus(node, ctx))


class NoGlobalStatement(ScriptRule):
    code = "JIT113"
    name = "no-global-nonlocal-stmt"
    severity = "error"
    summary = "`global`/`nonlocal`"
    fix = "safe"
    fires_in_pruned = True
    message = "`global`/`nonlocal` statements are not supported by TorchScript; keep state on the module (`self`)"

    def visit_Global(self, node: cst.Global, ctx: RuleContext) -> None:
        ctx.report(node, fix=drop_unused_global(node, ctx))

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
            ctx.report(node, fix=inline_keywords(node, ctx))


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


class NoImportInCompiledCode(ScriptRule):
    code = "JIT120"
    name = "no-import-in-compiled"
    severity = "error"
    summary = "`import` inside compiled code"
    fix = "unsafe"
    fires_in_pruned = True
    message = "`import` inside compiled code is not supported by TorchScript; import at module level"

    def visit_Import(self, node: cst.Import, ctx: RuleContext) -> None:
        ctx.report(node, fix=hoist_import(node, ctx))

    def visit_ImportFrom(self, node: cst.ImportFrom, ctx: RuleContext) -> None:
        ctx.report(node, fix=hoist_import(node, ctx))

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
        where = f"module `{callee.module.name}`, line {_line_in(ctx.project, callee.module, callee.node, statement)}"
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
            ctx.report(node, fix=merge_bare_annotation(node, ctx))


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
                           fix=no_grad_instead(item, ctx))
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
        ctx.report(node.name, fix=hoist_definition(node, ctx))


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


# -- fixes ----------------------------------------------------------------------------------------------------


def _block_of(statement: cst.CSTNode, ctx: RuleContext) -> tuple[list[cst.CSTNode], int] | None:
    """The statements of the block holding `statement`, and its index there."""
    for ancestor in reversed(ctx.ancestors):
        body = getattr(ancestor, "body", None)
        if isinstance(body, (list, tuple)) and statement in body:
            return list(body), list(body).index(statement)
    return None


def _delete_statement(statement: cst.CSTNode, block: list[cst.CSTNode], index: int) -> PendingEdit | None:
    """Remove a statement and its line: from its start to the start of the next statement of its block (when the
    next has no comment lines of its own, which the removal would take with it)."""
    if index + 1 >= len(block):
        return None
    following = block[index + 1]
    if getattr(following, "leading_lines", ()):
        return None
    return PendingEdit(statement, "", until=following)


def drop_bare_star(parameters: cst.Parameters, ctx: RuleContext) -> PendingFix | None:
    """`def f(self, x, *, k: float = 1.0)` -> `def f(self, x, k: float = 1.0)`. Safe: every call that worked still
    binds the same values (the parameters only become passable by position too)."""
    if not isinstance(parameters.star_arg, cst.ParamStar) or parameters.star_kwarg is not None:
        return None
    if any(p.default is None for p in parameters.kwonly_params) and any(p.default is not None for p in parameters.params):
        return None  # a parameter without default after one with: not valid positional-or-keyword order
    star = parameters.star_arg
    first = parameters.kwonly_params[0] if parameters.kwonly_params else None
    if first is None:
        return None
    return PendingFix("drop the bare `*`", [PendingEdit(star, "", until=first)])


def loop_else_after(loop: cst.For | cst.While, ctx: RuleContext) -> PendingFix | None:
    """A loop with no `break` always runs its `else`: move the `else` body after the loop. Safe."""
    if loop_jumps(loop, continues=False) or not isinstance(loop.orelse.body, cst.IndentedBlock):
        return None
    indent = ctx.indent_of(loop)
    head = ctx.statement_code(loop, loop.with_changes(orelse=None), indent)
    tail = [ctx.statement_code(s, s, indent) for s in loop.orelse.body.body]
    return PendingFix("move the `else` body after the loop (the loop has no `break`)",
                      [PendingEdit(loop, "\n".join([head, *[indent + t for t in tail]]).rstrip())])


def set_to_list(node: cst.Set, ctx: RuleContext) -> PendingFix | None:
    """`{1, 2}` -> `[1, 2]`: unsafe (duplicates stay, and a set's operations are gone); only for displays of
    distinct literals, where `len` and `in` give what they gave."""
    values = []
    for element in node.elements:
        value = element.value
        if isinstance(element, cst.StarredElement) or not isinstance(value, (cst.Integer, cst.Float, cst.SimpleString)):
            return None
        values.append(ctx.code(value))
    if len(set(values)) != len(values):
        return None
    return PendingFix("use a list", [PendingEdit(node, "[" + ", ".join(values) + "]")])


def hoist_walrus(node: cst.NamedExpr, ctx: RuleContext) -> PendingFix | None:
    """`if (n := E) > 1:` -> `n = E` on the line before and `if n > 1:`. Only where E is evaluated first in the
    statement (the walrus is the test, or the left operand of its comparison), and the statement is an `if` (not
    an `elif`, whose test is evaluated only when the earlier ones fail), a return or an assignment: safe."""
    if not isinstance(node.target, cst.Name):
        return None
    statement = enclosing_statement(ctx)
    chain = ctx.ancestors[ctx.ancestors.index(statement) + 1:-1] if statement in ctx.ancestors else None
    if chain is None:
        return None
    if isinstance(statement, cst.If):
        if statement.test is not node and not (
            isinstance(statement.test, cst.Comparison) and statement.test.left is node
        ):
            return None
        holder = ctx.ancestors[ctx.ancestors.index(statement) - 1]
        if isinstance(holder, cst.If) and holder.orelse is statement:  # an `elif`
            return None
    elif isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1:
        small = statement.body[0]
        value = getattr(small, "value", None)
        if not isinstance(small, (cst.Assign, cst.Return, cst.Expr)) or not (
            value is node or (isinstance(value, cst.Comparison) and value.left is node)
        ):
            return None
    else:
        return None
    indent = ctx.indent_of(statement)
    name = node.target.value
    return PendingFix(f"assign `{name}` on the line before", [
        PendingEdit(statement, f"{name} = {ctx.code(node.value)}\n{indent}", insert_before=True),
        PendingEdit(node, name),
    ])


def hoist_import(node: cst.Import | cst.ImportFrom, ctx: RuleContext) -> PendingFix | None:
    """Move `import math` from a compiled function to the module's imports. Unsafe: the import now runs when the
    module is imported (an optional dependency that is missing fails there)."""
    statement = enclosing_statement(ctx)
    if not isinstance(statement, cst.SimpleStatementLine) or len(statement.body) != 1:
        return None
    if isinstance(node, cst.ImportFrom) and (node.relative or isinstance(node.names, cst.ImportStar)):
        return None
    found = _block_of(statement, ctx)
    if found is None:
        return None
    removal = _delete_statement(statement, *found)
    if removal is None:
        return None
    text = ctx.code(node)
    body = ctx.module.tree.body
    if any(isinstance(s, cst.SimpleStatementLine) and ctx.code(s).strip() == text for s in body):
        return PendingFix("drop it (the module imports it already)", [removal])
    imports = [s for s in body if isinstance(s, cst.SimpleStatementLine)
               and all(isinstance(small, (cst.Import, cst.ImportFrom)) for small in s.body)]
    if not imports:
        return None
    return PendingFix("import at module level", [removal, PendingEdit(imports[-1], "\n" + text, insert_after=True)])


def merge_bare_annotation(node: cst.AnnAssign, ctx: RuleContext) -> PendingFix | None:
    """`y: T` followed by `y = v` -> `y: T = v`. Safe."""
    statement = enclosing_statement(ctx)
    if not isinstance(statement, cst.SimpleStatementLine) or len(statement.body) != 1:
        return None
    found = _block_of(statement, ctx)
    if found is None or not isinstance(node.target, cst.Name):
        return None
    block, index = found
    if index + 1 >= len(block):
        return None
    following = block[index + 1]
    if not (isinstance(following, cst.SimpleStatementLine) and len(following.body) == 1):
        return None
    assign = following.body[0]
    if not (isinstance(assign, cst.Assign) and len(assign.targets) == 1
            and isinstance(assign.targets[0].target, cst.Name) and assign.targets[0].target.value == node.target.value):
        return None
    removal = _delete_statement(statement, block, index)
    if removal is None:
        return None
    merged = f"{node.target.value}: {ctx.code(node.annotation.annotation)} = {ctx.code(assign.value)}"
    return PendingFix("annotate the assignment", [removal, PendingEdit(assign, merged)])


def no_grad_instead(item: cst.BaseExpression, ctx: RuleContext) -> PendingFix | None:
    """`with torch.inference_mode():` -> `with torch.no_grad():`. Unsafe: the tensors made inside are ordinary
    ones (they can later be used in autograd), and inference mode's speed-up is gone."""
    torch = ctx.torch_name
    if torch is None or not isinstance(item, cst.Call) or item.args:
        return None
    if ctx.qualify(item.func) != "torch.inference_mode":
        return None
    return PendingFix(f"use `{torch}.no_grad()`", [PendingEdit(item, f"{torch}.no_grad()")])


def drop_unused_global(node: cst.Global, ctx: RuleContext) -> PendingFix | None:
    """`global COUNTER` in a function that never assigns COUNTER does nothing: drop it. Safe."""
    function = compiled_function(ctx)
    statement = enclosing_statement(ctx)
    if function is None or not isinstance(statement, cst.SimpleStatementLine) or len(statement.body) != 1:
        return None
    names = {n.name.value for n in node.names}
    if names & (stored_names(function.body) | _augmented_names(function.body)):
        return None
    found = _block_of(statement, ctx)
    removal = _delete_statement(statement, *found) if found else None
    return PendingFix("drop the `global` statement (nothing here assigns the name)", [removal]) if removal else None


def _augmented_names(node: cst.CSTNode) -> set[str]:
    return names_in_targets(node, (cst.AugAssign, cst.AnnAssign, cst.For, cst.Del))


def inline_keywords(arg: cst.Arg, ctx: RuleContext) -> PendingFix | None:
    """`torch.add(x, x, **opts)` with `opts = {"alpha": 2.0}` (a dict display with string keys, assigned once and
    read only here) -> `torch.add(x, x, alpha=2.0)`, and the assignment dropped. Safe."""
    function = compiled_function(ctx)
    if function is None or not isinstance(arg.value, cst.Name):
        return None
    name = arg.value.value
    if count_name(function.body, name) != 2 or name in names_in(function.params):
        return None
    assign = None
    for statement in function.body.body:
        if isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1:
            small = statement.body[0]
            target = small.targets[0].target if isinstance(small, cst.Assign) and len(small.targets) == 1 else (
                small.target if isinstance(small, cst.AnnAssign) else None)
            if isinstance(target, cst.Name) and target.value == name:
                assign = (statement, small)
    if assign is None or not isinstance(assign[1].value, cst.Dict):
        return None
    statement, small = assign
    keywords = []
    for element in small.value.elements:
        if not isinstance(element, cst.DictElement) or not isinstance(element.key, cst.SimpleString):
            return None
        key = element.key.evaluated_value
        if not isinstance(key, str) or not key.isidentifier():
            return None
        keywords.append(f"{key}={ctx.code(element.value)}")
    call = ctx.parent
    if not isinstance(call, cst.Call) or any(a.keyword is not None and a.keyword.value in {k.split('=')[0] for k in keywords} for a in call.args):
        return None
    block = list(function.body.body)
    removal = _delete_statement(statement, block, block.index(statement))
    if removal is None or not keywords:
        return None
    return PendingFix("pass the keywords", [removal, PendingEdit(arg.value, ", ".join(keywords)),
                                              PendingEdit(arg, "", until=arg.value)])


_BUILTINS = frozenset(dir(__import__("builtins")))


def _top_statement(ctx: RuleContext) -> cst.CSTNode | None:
    """The module-level statement holding the node being visited."""
    for index, ancestor in enumerate(ctx.ancestors):
        if isinstance(ancestor, cst.Module) and index + 1 < len(ctx.ancestors):
            return ctx.ancestors[index + 1]
    return None


def _local_names(function: cst.FunctionDef) -> set[str]:
    return stored_names(function.body) | _augmented_names(function.body) | names_in(function.params) | {
        s.name.value for s in _all_defs(function.body)}


def _all_defs(node: cst.CSTNode) -> list[cst.CSTNode]:
    found = []

    class Defs(cst.CSTVisitor):
        def visit_FunctionDef(self, definition: cst.FunctionDef) -> bool:
            found.append(definition)
            return False

        def visit_ClassDef(self, definition: cst.ClassDef) -> bool:
            found.append(definition)
            return False

    walk(node, Defs())
    return found


def hoist_definition(node: cst.FunctionDef | cst.ClassDef, ctx: RuleContext) -> PendingFix | None:
    """A function (or class) defined in a compiled function, that reads none of that function's locals, moves to
    module level before the statement that holds it (nothing else in the module has its name). Safe: it reads the
    same globals, and the enclosing function finds it by the same name."""
    function = compiled_function(ctx)
    top = _top_statement(ctx)
    if function is None or top is None or node.decorators or getattr(top, "decorators", ()):
        return None
    name = node.name.value
    module_names = module_level_names(ctx.module.tree)
    if name in module_names:
        return None
    enclosing = _local_names(function) - {name}
    if isinstance(node, cst.FunctionDef):
        own = names_in(node.params) | stored_names(node.body) | _augmented_names(node.body)
    else:
        own = stored_names(node.body) | {d.name.value for d in _all_defs(node.body)}
    free = names_in(node) - own - {name}
    if free & enclosing or free - module_names - _BUILTINS - {"self"} - _attribute_names(node):
        return None
    if count_name(function.body, name) < 1 or "self" in free:
        return None
    statement = node
    found = _block_of(statement, ctx)
    if found is None:
        return None
    removal = _delete_statement(statement, *found)
    if removal is None:
        return None
    text = ctx.code(node.with_changes(leading_lines=())).rstrip("\n")
    return PendingFix(f"define `{name}` at module level",
                      [removal, PendingEdit(top, text + "\n\n\n", insert_before=True)])


def _attribute_names(node: cst.CSTNode) -> set[str]:
    """Names that are attribute names (`x.shape`'s `shape`), not reads."""
    found: set[str] = set()

    class Attributes(cst.CSTVisitor):
        def visit_Attribute(self, attribute: cst.Attribute) -> None:
            found.add(attribute.attr.value)

        def visit_Arg(self, arg: cst.Arg) -> None:
            if arg.keyword is not None:
                found.add(arg.keyword.value)

    walk(node, Attributes())
    return found


def lambda_to_def(node: cst.Lambda, ctx: RuleContext) -> PendingFix | None:
    """`f = lambda t: t * 2` (a statement of its own) -> `def f(t):` / `return t * 2`. Safe: the same function
    (its `__name__` becomes `f`); jitlint then offers to move it to module level (JIT107)."""
    statement = enclosing_statement(ctx)
    assign = ctx.parent
    if not (isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1 and statement.body[0] is assign):
        return None
    if not (isinstance(assign, cst.Assign) and len(assign.targets) == 1 and isinstance(assign.targets[0].target, cst.Name)
            and assign.value is node):
        return None
    indent = ctx.indent_of(statement)
    step = ctx.module.tree.default_indent
    params = ctx.code(node.params)
    return PendingFix("define a function", [PendingEdit(
        statement, f"def {assign.targets[0].target.value}({params}):\n{indent}{step}return {ctx.code(node.body)}")])


def set_comp_to_dict(node: cst.SetComp, ctx: RuleContext) -> PendingFix | None:
    """`{a for a in xs}` -> `{a: True for a in xs}`: the same keys, so `len` and `in` agree. Unsafe: set
    operations and iteration order differ."""
    return PendingFix("use a dict with the elements as keys", [PendingEdit(
        node, ctx.code(cst.DictComp(key=node.elt, value=cst.Name("True"), for_in=node.for_in)))])


def _function_of(parameters: cst.Parameters, ctx: RuleContext) -> cst.FunctionDef | None:
    return next((a for a in reversed(ctx.ancestors) if isinstance(a, cst.FunctionDef) and a.params is parameters),
                None)


def _star_uses(function: cst.FunctionDef, name: str) -> tuple[list[cst.Subscript], list[cst.Arg], bool]:
    """The uses of `name` in the function: `name[<int>]` subscripts, `**name` call arguments, and whether it has
    any other use (or is rebound, or is read by a nested function, lambda or comprehension scope we would not
    rename)."""
    subscripts: list[cst.Subscript] = []
    forwarded: list[cst.Arg] = []
    other = False

    class Uses(cst.CSTVisitor):
        def visit_Subscript(self, node: cst.Subscript) -> bool:
            if isinstance(node.value, cst.Name) and node.value.value == name:
                index = node.slice[0].slice if len(node.slice) == 1 else None
                if isinstance(index, cst.Index) and isinstance(index.value, cst.Integer) and index.value.evaluated_value < 64:
                    subscripts.append(node)
                    return False
            return True

        def visit_Arg(self, node: cst.Arg) -> bool:
            if node.star == "**" and isinstance(node.value, cst.Name) and node.value.value == name:
                forwarded.append(node)
                return False
            return True

        def visit_Name(self, node: cst.Name) -> None:
            nonlocal other
            other = other or node.value == name

        def visit_Param(self, node: cst.Param) -> bool:
            return False  # a nested function's own parameter of the same name is its own

    walk(function.body, Uses())
    return subscripts, forwarded, other


def _without_trailing_comma(elements: list, last_field: str = "comma") -> list:
    if elements and not isinstance(getattr(elements[-1], last_field), cst.MaybeSentinel):
        elements[-1] = elements[-1].with_changes(**{last_field: cst.MaybeSentinel.DEFAULT})
    return elements


def explicit_signature(parameters: cst.Parameters, ctx: RuleContext) -> PendingFix | None:
    """`def forward(self, *inputs): return inputs[0]` -> `def forward(self, inputs_0): return inputs_0`: a `*args`
    read only as `args[<int>]` becomes one parameter per index up to the largest; an unread `*args` goes; a
    `**kwargs` never read, or only passed on as `**kwargs` to calls, goes with those `**kwargs` arguments. Unsafe:
    a caller that passed more positional arguments, or keyword arguments the signature absorbed, now gets a
    `TypeError`, and a call that forwarded keyword arguments no longer gets them."""
    function = _function_of(parameters, ctx)
    if function is None or function.asynchronous is not None:
        return None
    star, star_kwarg = parameters.star_arg, parameters.star_kwarg
    new_params = list(parameters.params)
    edits: list[PendingEdit] = []
    renamed: list[str] = []
    if isinstance(star, cst.Param):
        subscripts, forwarded, other = _star_uses(function, star.name.value)
        if other or forwarded or parameters.kwonly_params:
            return None
        if any(p.default is not None for p in new_params) and subscripts:
            return None  # a parameter without default after one with
        count = max((s.slice[0].slice.value.evaluated_value for s in subscripts), default=-1) + 1
        taken = names_in(function)
        for index in range(count):
            new_name = f"{star.name.value}_{index}"
            if new_name in taken:
                return None
            renamed.append(new_name)
            new_params.append(cst.Param(cst.Name(new_name), comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))))
        for subscript in subscripts:
            edits.append(PendingEdit(subscript, f"{star.name.value}_{subscript.slice[0].slice.value.evaluated_value}"))
    elif star is not None and not isinstance(star, cst.MaybeSentinel):
        return None  # a bare `*`: JIT109's
    if isinstance(star_kwarg, cst.Param):
        subscripts, forwarded, other = _star_uses(function, star_kwarg.name.value)
        if other or subscripts:
            return None
        calls = _calls_holding(function, forwarded)
        if any(other is not call and other in _calls_holding(call, forwarded) for call in calls for other in calls):
            return None  # nested: one edit inside another
        for call in calls:
            args = _without_trailing_comma([a for a in call.args if a not in forwarded])
            edits.append(PendingEdit(call, ctx.code(call.with_changes(args=args))))
    if edits and any(isinstance(e.node, cst.Call) for e in edits) and any(isinstance(e.node, cst.Subscript) for e in edits):
        return None  # a subscript inside a rewritten call would be edited twice
    new = parameters.with_changes(params=_without_trailing_comma(new_params), star_arg=cst.MaybeSentinel.DEFAULT,
                                  star_kwarg=None, kwonly_params=parameters.kwonly_params)
    if parameters.kwonly_params:
        new = new.with_changes(star_arg=cst.ParamStar())
    text = ctx.code(new)
    message = "list the parameters" + (f" (`{'`, `'.join(renamed)}`)" if renamed else "")
    return PendingFix(message, [PendingEdit(parameters, text), *edits])


def _calls_holding(function: cst.CSTNode, args: list[cst.Arg]) -> list[cst.Call]:
    calls: list[cst.Call] = []

    class Calls(cst.CSTVisitor):
        def visit_Call(self, node: cst.Call) -> None:
            if any(a in args for a in node.args):
                calls.append(node)

    walk(function.body if isinstance(function, cst.FunctionDef) else function, Calls())
    return calls
