"""JIT430: values compiled code calls that TorchScript cannot call (a parameter holding a function)."""

from __future__ import annotations

import libcst as cst

from jitlint.facts.syntax import assigned_names
from jitlint.facts.torch_api import SCALAR_ANNOTATIONS
from jitlint.literals import literal_type as python_literal_type
from jitlint.names import first_param
from jitlint.rules.base import PendingEdit, PendingFix, RuleContext
from jitlint.targets.script.claims import results_for, sugared_words
from jitlint.targets.script.members import METHOD_VALUE_ERRORS, resolved_method
from jitlint.targets.script.overloads import is_overload_implementation
from jitlint.targets.script.policy import IGNORE_DECORATORS
from jitlint.targets.script.facts import ScriptTypes
from jitlint.targets.script.rules import ScriptRule
from jitlint.targets.script.scopes import params_of
from jitlint.targets.script.typing.annotations import Reader, signature_comment
from jitlint.targets.script.typing.types import SCALARS, TENSOR, Type


def called_param_type(name: cst.BaseExpression, ctx: RuleContext) -> Type | None:
    """The TorchScript type of the parameter of the compiled function that `name(...)` calls, when that type is
    one no value of which can be called: an unannotated parameter (a Tensor, whatever its default: `fn=F.relu`
    too), or one annotated Tensor, a number, a str or an Optional of those. None otherwise (a rebound name,
    `self`, a parameter typed by a `# type:` comment or an `_overload`, an annotation this pass does not read)."""
    if not isinstance(name, cst.Name) or ctx.function is None:
        return None
    info = ctx.function.info
    function = info.node
    param = params_of(function).get(name.value)
    if param is None or name.value in assigned_names(function):
        return None
    if info.bound_first_param is not None and param is first_param(function):
        return None
    if signature_comment(function) is not None or is_overload_implementation(function, ctx.module.tree):
        return None
    if param.annotation is None:
        return TENSOR  # TorchScript's type for every unannotated parameter, whatever its default
    kind = Reader(ctx.module.imports).read(param.annotation.annotation)
    if kind is not None and kind.is_optional:
        return kind if kind.inner in SCALARS else None
    return kind if kind in SCALARS else None


class ParameterCalledAsFunction(ScriptRule):
    code = "JIT430"
    name = "parameter-called-as-function"
    severity = "error"
    summary = "a parameter called like a function (`activation(x)` with `activation=None`): TorchScript takes no functions as arguments"
    message = "a parameter is called like a function, which TorchScript cannot pass"

    def visit_Call(self, node: cst.Call, ctx: RuleContext) -> None:
        kind = called_param_type(node.func, ctx)
        if kind is None:
            return
        name = node.func.value
        if params_of(ctx.function.info.node)[name].default is None:
            return  # a parameter without a default is JIT426's (one finding per call)
        if params_of(ctx.function.info.node)[name].annotation is None:
            why = "it has no annotation, so TorchScript types it a Tensor and fails with \"cannot call a value of type 'Tensor'\""
        else:
            why = f"TorchScript types it {kind} and fails with \"cannot call a value of type ...\""
        ctx.report(
            node.func,
            f"`{name}` is a parameter called like a function, but TorchScript cannot take a function as an "
            f"argument: {why}. Make the function "
            f"a module instead: an `nn.Module` attribute set in `__init__` (`nn.Identity()` rather than None when "
            f"there is none) called as `self.{name}(x)`, or an `Optional[nn.Module]` attribute tested with "
            f"`if self.{name} is not None:`",
        )


class TypingCast(ScriptRule):
    code = "JIT431"
    name = "typing-cast"
    severity = "error"
    summary = "`typing.cast(T, x)` in compiled code: TorchScript cannot use a type as a value"
    fix = "safe"
    message = "`typing.cast` is not supported by TorchScript"

    def visit_Call(self, node: cst.Call, ctx: RuleContext) -> None:
        if ctx.qualify(node.func) != "typing.cast" or not node.args:
            return
        ctx.report(
            node.args[0].value,
            "TorchScript does not compile `typing.cast`: its type argument is read as a value (\"builtin cannot be "
            "used as a value\", \"__int__ cannot be used as a value\"). Drop the cast; to narrow an Optional, "
            "refine it (`assert x is not None`), and to type a value, annotate the variable or use "
            "`torch.jit.annotate(T, value)`",
            fix=drop_cast(node, ctx),
        )


class IgnoredReturnUnannotated(ScriptRule):
    code = "JIT429"
    name = "ignored-return-unannotated"
    severity = "error"
    summary = "the result of an `@torch.jit.ignore` function without a return annotation used as an int or a str"
    message = "an unannotated `@torch.jit.ignore` function returns a Tensor to TorchScript"
    fix = "safe"

    def visit_Call(self, node: cst.Call, ctx: RuleContext) -> None:
        qualified = ctx.qualify(node.func)
        if qualified == "builtins.range":
            for argument in node.args:
                self._check(argument.value, "`range()` needs an int", "int", ctx)

    def visit_AnnAssign(self, node: cst.AnnAssign, ctx: RuleContext) -> None:
        if node.value is not None and ctx.qualify(node.annotation.annotation) in SCALAR_ANNOTATIONS:
            spelled = ctx.code(node.annotation.annotation)
            self._check(node.value, f"the variable is annotated `{spelled}`", spelled, ctx)

    def visit_Comparison(self, node: cst.Comparison, ctx: RuleContext) -> None:
        operands = [node.left, *(target.comparator for target in node.comparisons)]
        if any(python_literal_type(operand) == "str" for operand in operands):
            for operand in operands:
                self._check(operand, "it is compared with a str", "str", ctx)

    def _check(self, value: cst.BaseExpression, why: str, returns: str, ctx: RuleContext) -> None:
        if not isinstance(value, cst.Call):
            return
        found = ctx.captured.callee_of(value)
        if found is None:
            return
        callee = found[0]
        if not (callee.decorators & IGNORE_DECORATORS) or callee.node.returns is not None:
            return
        if signature_comment(callee.node) is not None:
            return
        ctx.report(
            value,
            f"`{callee.name}` is `@torch.jit.{sorted(callee.decorators & IGNORE_DECORATORS)[0].rsplit('.', 1)[1]}` "
            f"without a return annotation, so TorchScript types its result a Tensor, and {why} (torch: \"... found "
            f"Tensor\"). Annotate its return type: `def {callee.name}(...) -> {returns}:`",
            fix=annotate_ignored_return(callee, returns, ctx),
        )


# Calls that take their argument as something other than a value (an attribute lookup: another error) or that
# torch does not compile at all.
_NOT_VALUE_CALLS = frozenset({"builtins.getattr", "builtins.hasattr", "builtins.callable", "builtins.setattr"})


def _used_as_value(node: cst.Attribute, ancestors: list[cst.CSTNode]) -> bool:
    """Whether `node` (the last of `ancestors`) stands where TorchScript must turn it into a value. Torch keeps a
    method as a callable while it is called (`self.m(x)`), bound to a local name (`f = self.m`, then `f(x)`) or
    left alone as a statement; every other place below makes a value of it (verified with torch 2.13)."""
    parent = ancestors[-2] if len(ancestors) >= 2 else None
    if isinstance(parent, cst.Arg):
        call = ancestors[-3] if len(ancestors) >= 3 else None
        return parent.value is node and parent.star == "" and isinstance(call, cst.Call) and call.func is not node
    if isinstance(parent, (cst.Element, cst.DictElement, cst.Return, cst.ComparisonTarget, cst.UnaryOperation,
                           cst.BooleanOperation, cst.BinaryOperation, cst.AugAssign, cst.FormattedStringExpression)):
        return not isinstance(parent, cst.Element) or isinstance(
            ancestors[-3] if len(ancestors) >= 3 else None, (cst.List, cst.Tuple, cst.Set))
    if isinstance(parent, cst.Comparison):
        return parent.left is node
    if isinstance(parent, (cst.If, cst.While, cst.Assert)):
        return parent.test is node
    if isinstance(parent, cst.IfExp):
        return True  # the test, or a branch: both become values
    if isinstance(parent, cst.Subscript):
        return parent.value is node
    return False


class MethodUsedAsValue(ScriptRule):
    code = "JIT435"
    facts = (ScriptTypes,)
    name = "method-used-as-value"
    severity = "error"
    summary = "`self.method` used as a value (passed, returned, put in a tuple, tested) in compiled code"
    message = "method cannot be used as a value"

    # What torch says for each use of a value that is no first-class value (`SugaredValue::asValue`, `iter`,
    # `attr`, `setAttr`, `asTuple`).
    _USES = {"value": "cannot be used as a value", "iterable": "cannot be used as an iterable",
             "subscript": "cannot be used as a value", "tuple": "cannot be used as a tuple",
             "attribute": "attribute lookup is not defined on", "hasattr": "attribute lookup is not defined on",
             "getattr": "attribute lookup is not defined on",
             "attribute-assignment": "attribute assignment is not defined on"}

    def visit_FunctionDef(self, node: cst.FunctionDef, ctx: RuleContext) -> None:
        # A function, a builtin operator or a Python module where torch needs a first-class value: the typer
        # resolves the names as torch does and reports each such use.

        for result in results_for(self, node, ctx):
            words = sugared_words(result.kind)
            said = self._USES.get(result.use, "cannot be used as a value")
            torch_kind = {"builtin": "builtin", "function": "function",
                          "python-module": "python value of type 'module'",
                          "exception": "Python exception"}.get(result.kind, result.kind)
            torch_says = f"{said} {torch_kind}" if said.endswith(" on") else f"{torch_kind} {said}"
            spelled = result.name.removeprefix("builtins.")
            use = {"value": "used as a value", "iterable": "iterated", "subscript": "indexed",
                   "tuple": "unpacked", "attribute": "asked for an attribute", "hasattr": "given to `hasattr`",
                   "getattr": "given to `getattr`", "attribute-assignment": "assigned an attribute"}.get(
                result.use, "used as a value")
            can = "only reads a Python module's attributes" if result.kind == "python-module" else "can only call it"
            ctx.report(result.node, f"`{spelled}` is {words}, {use} here; TorchScript {can} (torch: "
                                    f"\"{torch_says}\"). Call it where its result is needed, or keep this out of "
                                    f"compiled code")

    def visit_Attribute(self, node: cst.Attribute, ctx: RuleContext) -> None:
        function = ctx.function
        if function is None or function.info.bound_first_param != "instance":
            return
        first = first_param(function.info.node)
        if first is None or not isinstance(node.value, cst.Name) or node.value.value != first.name.value:
            return
        if not _used_as_value(node, ctx.ancestors):
            return
        owners = [owner for owner in function.owners if ctx.project.is_module_class(owner)]
        if not owners or len(owners) != len(function.owners):
            return
        name = node.attr.value
        errors = set()
        for owner in owners:
            method = resolved_method(name, owner, ctx)
            if method is None or method.is_property:
                return
            error = METHOD_VALUE_ERRORS.get(frozenset(method.decorators))
            if error is None:
                return
            errors.add(error)
        if len(errors) != 1:
            return
        error = errors.pop()
        ctx.report(
            node,
            f"`self.{name}` is a method used as a value here; TorchScript can only call a method, or bind it to a "
            f"local name it then calls, so it fails with \"{error}\". Call it where the value is needed, or make "
            f"the function a submodule (an `nn.Module` attribute) and pass that",
        )


# -- fixes ----------------------------------------------------------------------------------------------------


def drop_cast(call: cst.Call, ctx: RuleContext) -> PendingFix | None:
    """JIT431: `cast(T, value)` -> `value` (`typing.cast` returns its value unchanged). Safe. Only for a plain
    two-argument call."""
    if len(call.args) != 2 or any(a.star or a.keyword for a in call.args):
        return None
    value = call.args[1].value
    text = ctx.code(value)
    if isinstance(value, (cst.BooleanOperation, cst.IfExp, cst.Lambda, cst.NamedExpr)) or "\n" in text:
        text = f"({text})"
    return PendingFix("drop the cast", [PendingEdit(call, text)])


def _method_indent(function, ctx: RuleContext) -> str | None:
    """The indentation of a method of a top-level class (or of a top-level function): "" / the class body's."""
    tree = ctx.module.tree
    if function.cls is None:
        return "" if function.node in tree.body else None
    cls = function.cls.node
    if cls not in tree.body or not isinstance(cls.body, cst.IndentedBlock) or function.node not in cls.body.body:
        return None
    return cls.body.indent if cls.body.indent is not None else tree.default_indent


def annotate_ignored_return(function, returns: str, ctx: RuleContext) -> PendingFix | None:
    """JIT429: `def count(self, x):` under `@torch.jit.ignore` -> `def count(self, x) -> int:` (the type its use
    needs). Safe: eager Python ignores the annotation (TorchScript checks the value the Python body returns against
    it). Only for a function of the same file, a method of a top-level class or a top-level function."""
    node = function.node
    if function.module is not ctx.module or node.returns is not None:
        return None
    indent = _method_indent(function, ctx)
    if indent is None:
        return None
    new = node.with_changes(returns=cst.Annotation(cst.parse_expression(returns)), decorators=(),
                            lines_after_decorators=())
    return PendingFix(f"annotate `-> {returns}`", [PendingEdit(node, ctx.statement_code(node, new, indent))])
