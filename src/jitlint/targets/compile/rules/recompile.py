"""DYN201-DYN204: recompilations that do not settle. Dynamo guards the compiled code on the Python values it read
while tracing; a call whose values fail a guard compiles the function again. Some values change on every call, or
are never made dynamic, so the recompiles do not stop: after `recompile_limit` (8) compiled versions of a function,
torch.compile warns once ("hit config.recompile_limit") and runs it eagerly from then on; with `fullgraph=True` it
raises (`FailOnRecompileLimitHit`). Verified on torch 2.13:

- an int attribute of a module is static (`allow_unspec_int_on_nn_module = False`): `self.step += 1` in forward fails
  `self.step == 0` on the next call, and so on; so does a list attribute that grows (`len(self.history) == 1`), and
  an int global (`G['CALLS'] == 0`). A float attribute becomes dynamic after one recompile (not with
  `dynamic=False`), a bool one takes two values: neither loops;
- a `str` argument is never dynamic: each distinct string compiles again;
- a list or dict argument is guarded on its length (a dict: its keys): each new length compiles again;
- an int argument becomes dynamic after one recompile, except where Python needs its value: `range(n)`, an index
  into a Python list or an `nn.ModuleList` (`self.heads[k]`), a dict key: one compile per value there. With
  `dynamic=False`, every int and float argument is specialised to each value.

The arguments concerned are those of a `forward` (a compiled model's inputs) and of functions compiled by name.
"""

from __future__ import annotations

import libcst as cst

from jitlint.facts.datadep import PARAMETER_CLASSES
from jitlint.facts.signature import passed_to
from jitlint.facts.syntax import OneScope
from jitlint.names import first_param_name
from jitlint.rules.base import RuleContext
from jitlint.targets.compile.rules import RECOMPILE_LIMIT, CompileRule
from jitlint.walk import walk


def limit_outcome(ctx: RuleContext) -> str:
    """What happens when the recompiles reach the limit, in the judged mode."""
    if ctx.settings.fullgraph:
        return (f"after {RECOMPILE_LIMIT} compiled versions torch.compile raises (`fullgraph=True`: "
                "\"FailOnRecompileLimitHit\")")
    return (f"after {RECOMPILE_LIMIT} compiled versions (`torch._dynamo.config.recompile_limit`) the function runs "
            "eagerly from then on, with one warning")


def _self_target(node: cst.BaseExpression, self_name: str | None) -> str | None:
    if (self_name is not None and isinstance(node, cst.Attribute) and isinstance(node.value, cst.Name)
            and node.value.value == self_name):
        return node.attr.value
    return None


def _literal_kind(node: cst.BaseExpression | None) -> str | None:
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus):
        node = node.expression
    if isinstance(node, cst.Integer):
        return "int"
    if isinstance(node, cst.Float):
        return "float"
    if isinstance(node, (cst.List, cst.ListComp)) or (isinstance(node, cst.Call) and isinstance(node.func, cst.Name)
                                       and node.func.value == "list" and not node.args):
        return "list"
    return None


def attribute_literal(name: str, ctx: RuleContext) -> str | None:
    """"int", "float" or "list": what `__init__` (or the class body) assigns `self.<name>` in every class the current
    method is traced for, when that is always a literal of one kind (and not a parameter or buffer)."""
    function = ctx.function
    kinds: set[str | None] = set()
    for owner in function.owners if function is not None else ():
        info = ctx.project.attributes(owner).get(name)
        if info is None:
            continue
        if info.registered or info.constructors & PARAMETER_CLASSES:
            return None
        kinds |= {_literal_kind(value.node) for value in info.init_values}
        if info.class_value is not None:
            kinds.add(_literal_kind(info.class_value))
    return kinds.pop() if len(kinds) == 1 else None


def _reads(node: cst.CSTNode, name: str) -> bool:
    """`node` reads the attribute or name `name` (`self.<name>` or `<name>`)."""
    found = []

    class Finder(cst.CSTVisitor):
        def visit_Attribute(self, attribute: cst.Attribute) -> None:
            if attribute.attr.value == name and isinstance(attribute.value, cst.Name):
                found.append(attribute)

    walk(node, Finder())
    return bool(found)


class CounterAttribute(CompileRule):
    code = "DYN201"
    name = "python-counter-attribute"
    severity = "warning"
    summary = ("an int module attribute or global changed from its own value in traced code (`self.step += 1`), a "
               "list attribute appended to; a float one with `dynamic = false`")
    message = "a Python counter changed on every call: torch.compile recompiles on every call until the limit"

    def _kind(self, name: str, ctx: RuleContext) -> str | None:
        return attribute_literal(name, ctx)

    def _report(self, node: cst.CSTNode, what: str, kind: str, ctx: RuleContext) -> None:
        if kind == "float" and ctx.settings.dynamic is not False:
            return  # a float attribute becomes dynamic after one recompile (or at once with `dynamic=True`)
        guard = "its length" if kind == "list" else "its value"
        ctx.report(node, (
            f"{what} changes on every call, and Dynamo guards the compiled code on {guard} (a module's {kind} "
            f"attributes are static): each call fails the guard and compiles the function again; "
            f"{limit_outcome(ctx)}; keep the counter in a tensor buffer (`self.register_buffer(\"step\", "
            "torch.zeros((), dtype=torch.long))` and `self.step += 1`), or update it outside the compiled model"))

    def visit_AugAssign(self, node: cst.AugAssign, ctx: RuleContext) -> None:
        self._changed(node.target, node, ctx)

    def visit_Assign(self, node: cst.Assign, ctx: RuleContext) -> None:
        if len(node.targets) == 1 and isinstance(node.value, cst.BinaryOperation):
            target = node.targets[0].target
            name = _self_target(target, self._self_name(ctx))
            if name is not None and _reads(node.value, name):
                self._changed(target, node, ctx)

    def _self_name(self, ctx: RuleContext) -> str | None:
        function = ctx.function
        if function is None or function.info.bound_first_param != "instance":
            return None
        return first_param_name(function.info.node)

    def _changed(self, target: cst.BaseExpression, node: cst.CSTNode, ctx: RuleContext) -> None:
        name = _self_target(target, self._self_name(ctx))
        if name is not None:
            kind = self._kind(name, ctx)
            if kind in ("int", "float") or (kind == "list" and isinstance(node, cst.AugAssign)):
                self._report(target, f"`self.{name}`", kind, ctx)
            return
        if isinstance(target, cst.Name) and self._declared_global(target.value, ctx):
            kind = _literal_kind(ctx.module.globals.get(target.value))
            if kind == "int" or (kind == "float" and ctx.settings.dynamic is False):
                ctx.report(target, (
                    f"the global `{target.value}` changes on every call, and Dynamo guards the compiled code on its "
                    f"value: each call fails the guard and compiles the function again; {limit_outcome(ctx)}; count "
                    "outside the compiled model, or in a tensor"))

    def _declared_global(self, name: str, ctx: RuleContext) -> bool:
        function = ctx.function
        if function is None:
            return False
        found = []

        class Globals(cst.CSTVisitor):
            def visit_Global(self, node: cst.Global) -> None:
                found.extend(item.name.value for item in node.names)

            def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
                return node is function.info.node

        walk(function.info.node, Globals())
        return name in found

    def visit_Call(self, node: cst.Call, ctx: RuleContext) -> None:
        func = node.func
        if not (isinstance(func, cst.Attribute) and func.attr.value in ("append", "extend", "insert")):
            return
        name = _self_target(func.value, self._self_name(ctx))
        if name is not None and self._kind(name, ctx) == "list" and not self._rebuilt(name, ctx):
            self._report(func.value, f"`self.{name}` grows on every call: it", "list", ctx)

    def _rebuilt(self, name: str, ctx: RuleContext) -> bool:
        """The function assigns `self.<name>` a new list itself (`self.levels = [x]`): each call starts it again,
        and it grows to the same length every time (no recompile: verified on torch 2.13)."""
        function = ctx.function
        self_name = self._self_name(ctx)
        found = []

        class Assigned(OneScope):
            scope = function.info.node

            def visit_Assign(self, node: cst.Assign) -> None:
                if _literal_kind(node.value) == "list" and any(
                        _self_target(target.target, self_name) == name for target in node.targets):
                    found.append(node)

        walk(function.info.node, Assigned())
        return bool(found)


# -- arguments of the compiled function -------------------------------------------------------------------------
def _annotation(param: cst.Param, ctx: RuleContext) -> str:
    """"str", "int", "float", "list", "dict" for a parameter so annotated (or with such a literal default)."""
    if param.annotation is not None:
        annotation = param.annotation.annotation
        outer = annotation.value if isinstance(annotation, cst.Subscript) else annotation
        qualified = ctx.qualify(outer) or ""
        if qualified in ("builtins.str", "builtins.int", "builtins.float"):
            return qualified[len("builtins."):]
        if qualified in ("typing.List", "builtins.list", "typing.Sequence", "collections.abc.Sequence"):
            return "list"
        if qualified in ("typing.Dict", "builtins.dict", "typing.Mapping", "collections.abc.Mapping"):
            return "dict"
        if qualified in ("typing.Tuple", "builtins.tuple") and isinstance(annotation, cst.Subscript):
            last = annotation.slice[-1].slice
            if isinstance(last, cst.Index) and isinstance(last.value, cst.Ellipsis):
                return "list"
        return ""
    default = param.default
    if isinstance(default, (cst.SimpleString, cst.ConcatenatedString)):
        return "str"
    return ""


def _compiled_parameters(node: cst.FunctionDef, ctx: RuleContext) -> list[tuple[cst.Param, str]]:
    """The parameters (with their annotated kind) of a function that torch.compile guards as inputs: `forward` of a
    module class, a function compiled by name."""
    function = ctx.function
    if function is None or function.info.node is not node:
        return []
    if not ((node.name.value == "forward" and function.info.cls is not None) or "compile" in function.reason):
        return []
    if ctx.captured.calls_to(node):
        return []  # a submodule's forward, called from traced code: its arguments are values of the caller's graph
    params = [*node.params.posonly_params, *node.params.params, *node.params.kwonly_params]
    if function.info.bound_first_param is not None and params:
        params = params[1:]
    return [(param, kind) for param in params if (kind := _annotation(param, ctx))]


class _Uses(OneScope):
    """How a function body reads one name: any read, and the reads where Python needs its value (`range(n)`, an
    index or key of a Python container)."""

    def __init__(self, name: str, ctx: RuleContext) -> None:
        self.name = name
        self.ctx = ctx
        self.reads: list[cst.Name] = []
        self.concrete: list[tuple[cst.CSTNode, str]] = []

    def visit_Name(self, node: cst.Name) -> None:
        if node.value == self.name:
            self.reads.append(node)

    def visit_Call(self, node: cst.Call) -> None:
        if self.ctx.qualify(node.func) == "builtins.range" and any(self._is(arg.value) for arg in node.args):
            self.concrete.append((node, "`range()`"))

    def visit_Subscript(self, node: cst.Subscript) -> None:
        if len(node.slice) == 1 and isinstance(node.slice[0].slice, cst.Index) and self._is(node.slice[0].slice.value):
            held = self._container(node.value)
            if held is not None:
                self.concrete.append((node, held))

    def _is(self, node: cst.BaseExpression) -> bool:
        return isinstance(node, cst.Name) and node.value == self.name

    def _container(self, node: cst.BaseExpression) -> str | None:
        found = self.ctx.self_attribute(node)
        if found is None:
            return None
        name, info = found
        if info.registered or info.constructors & PARAMETER_CLASSES:
            return None  # a tensor: an int index becomes dynamic
        if info.kinds & {"ModuleList", "Sequential", "ModuleDict", "ParameterList"}:
            return f"an index into `self.{name}`"
        if attribute_literal(name, self.ctx) == "list":
            return f"an index into the list `self.{name}`"
        return None


class _ArgumentRule(CompileRule):
    kinds: tuple[str, ...] = ()

    def visit_FunctionDef(self, node: cst.FunctionDef, ctx: RuleContext) -> None:
        for param, kind in _compiled_parameters(node, ctx):
            if kind in self.kinds:
                uses = _Uses(param.name.value, ctx)
                walk(node.body, uses)
                self.check(param, kind, uses, ctx)

    def check(self, param: cst.Param, kind: str, uses: _Uses, ctx: RuleContext) -> None:
        raise NotImplementedError


class _ModeReads(OneScope):
    """How a function reads a `str` name: the string literals it is compared with (`==`, `!=`, `in`/`not in` a
    literal tuple, list or set), and its other reads. Passed on to a traced function's parameter (`self.f(x,
    mode=mode)`), the callee's reads of that parameter count too."""

    def __init__(self, function: cst.FunctionDef, name: str, ctx: RuleContext, depth: int) -> None:
        self.scope = function
        self.name = name
        self.ctx = ctx
        self.depth = depth
        self.literals: set[str] = set()
        self.other = False

    def _is(self, node: cst.BaseExpression) -> bool:
        return isinstance(node, cst.Name) and node.value == self.name

    def visit_Name(self, node: cst.Name) -> None:
        if node.value == self.name:
            self.other = True  # any read the visits below do not account for

    def visit_Comparison(self, node: cst.Comparison) -> bool:
        if self._is(node.left) and len(node.comparisons) == 1:
            found = _string_literals(node.comparisons[0])
            if found is not None:
                self.literals |= found
                return False
        return True

    def visit_Arg(self, node: cst.Arg) -> bool:
        node.value.visit(self)
        return False  # a keyword's name is not a read

    def visit_Raise(self, node: cst.Raise) -> bool:
        # The error a value outside the modes raises (`raise ValueError(f"invalid reduction: {reduction}")`): no
        # graph is kept for such a value, so it does not add to the compiles.
        return False

    def visit_Call(self, node: cst.Call) -> bool:
        node.func.visit(self)
        callee = self.ctx.captured.callee_of(node)
        for index, arg in enumerate(node.args):
            if not (self._is(arg.value) and not arg.star and callee is not None and self.depth > 0):
                arg.visit(self)
                continue
            passed = {position: name for name, position in passed_to(callee[0].node, node, callee[1]).items()}
            if index not in passed:
                self.other = True
                continue
            inner = mode_literals(callee[0].node, passed[index], self.ctx, self.depth - 1)
            if inner is None:
                self.other = True
            else:
                self.literals |= inner
        return False


def _string_literals(target: cst.ComparisonTarget) -> set[str] | None:
    """The strings a comparison's right side names, when it is `==`/`!=` a string literal or `in`/`not in` a literal
    container of them."""
    operator, right = target.operator, target.comparator
    if isinstance(operator, (cst.Equal, cst.NotEqual)) and isinstance(right, cst.SimpleString):
        return {right.evaluated_value}
    if isinstance(operator, (cst.In, cst.NotIn)) and isinstance(right, (cst.Tuple, cst.List, cst.Set)):
        values = [element.value for element in right.elements]
        if values and all(isinstance(value, cst.SimpleString) for value in values):
            return {value.evaluated_value for value in values}
    return None


def mode_literals(function: cst.FunctionDef, name: str, ctx: RuleContext, depth: int = 3) -> set[str] | None:
    """The strings `function` compares its `str` parameter `name` with, when that is all it (and the traced
    functions it passes it to) does with it: the parameter chooses among a fixed set of modes. None otherwise."""
    reads = _ModeReads(function, name, ctx, depth)
    walk(function.body, reads)
    return None if reads.other else reads.literals


class StringArgument(_ArgumentRule):
    code = "DYN202"
    name = "string-argument"
    severity = "warning"
    summary = "a `str` argument of `forward` (or of a compiled function) that the code reads"
    message = "a string argument: torch.compile compiles again for each distinct string"
    kinds = ("str",)

    def check(self, param: cst.Param, kind: str, uses: _Uses, ctx: RuleContext) -> None:
        if not uses.reads:
            return
        modes = mode_literals(ctx.function.info.node, param.name.value, ctx)
        if modes is not None and len(modes) + 1 < RECOMPILE_LIMIT:
            # Only compared with a few literals: a mode. Dynamo still guards on the value (one compile per string
            # passed), but callers pick among the modes the code names, so the compiles stop before the limit.
            return
        if uses.reads:
            ctx.report(param.name, (
                f"`{param.name.value}` is a string: Dynamo guards the compiled code on its value and never makes a "
                f"string dynamic, so each distinct string compiles the function again; {limit_outcome(ctx)}; pass a "
                "fixed set of values (a few modes cost a compile each), or choose outside the compiled model (one "
                "module per mode)"))


class ContainerArgument(_ArgumentRule):
    code = "DYN203"
    name = "container-argument"
    severity = "warning"
    # Off unless selected: a module built inside another (a feature pyramid's `List[Tensor]` of levels) gets its
    # lists from the parent's graph, fixed in length, and which module is compiled is not in the source.
    default_enabled = False
    summary = "a `List[...]`/`Dict[...]` argument of `forward` (or of a compiled function): guarded on its length"
    message = "a list or dict argument: torch.compile compiles again for each new length"
    kinds = ("list", "dict")

    def check(self, param: cst.Param, kind: str, uses: _Uses, ctx: RuleContext) -> None:
        if uses.reads:
            guard = "its length" if kind == "list" else "its keys"
            ctx.report(param.name, (
                f"`{param.name.value}` is a {kind}: Dynamo guards the compiled code on {guard}, which never becomes "
                f"dynamic, so each new one compiles the function again; {limit_outcome(ctx)}; pass tensors stacked "
                "into one (`torch.stack`, padded), or keep the number of items fixed"))


class SpecialisedNumberArgument(_ArgumentRule):
    code = "DYN204"
    name = "specialised-int-argument"
    severity = "warning"
    summary = ("an `int` argument used where Python needs its value (`range(n)`, an index into a list or "
               "`nn.ModuleList`); any int or float argument with `dynamic = false`")
    message = "an int argument specialised to each value: torch.compile compiles again for each one"
    kinds = ("int", "float")

    def check(self, param: cst.Param, kind: str, uses: _Uses, ctx: RuleContext) -> None:
        name = param.name.value
        if uses.concrete and kind == "int":
            node, where = uses.concrete[0]
            ctx.report(node, (
                f"`{name}` is an int argument used as {where}: Python needs its value there, so Dynamo specialises "
                f"the compiled code to it (`{name} == 0`), one compile per distinct value; {limit_outcome(ctx)}; "
                "index with a tensor (`torch.stack([...])[k]`), or choose outside the compiled model"))
        elif uses.reads and ctx.settings.dynamic is False:
            ctx.report(param.name, (
                f"`{name}` is a {kind} argument and `dynamic = false`: Dynamo specialises the compiled code to its "
                f"value, one compile per distinct value; {limit_outcome(ctx)}; leave `dynamic` unset (the value "
                "becomes symbolic after one recompile), or pass it as a tensor"))
