"""JIT116, JIT119, JIT124: a list where TorchScript needs a length it can know (`f(*xs)`, `a, *b = xs`, `tuple(xs)`,
`(a, *xs)`); a tuple has a static length and is accepted in each place."""

from __future__ import annotations

import libcst as cst

from jitlint.names import first_param_name
from jitlint.rules.base import PendingEdit, PendingFix, RuleContext
from jitlint.targets.script.claims import results_for
from jitlint.targets.script.facts import ScriptTypes
from jitlint.targets.script.policy import constant_names
from jitlint.targets.script.rewrite import compiled_function, count_name, enclosing_statement, is_pure_chain
from jitlint.targets.script.rules import ScriptRule
from jitlint.targets.script.typing import results as R
from jitlint.targets.script.typing.analysis import type_at
from jitlint.walk import walk


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

    facts = (ScriptTypes,)

    def visit_Arg(self, node: cst.Arg, ctx: RuleContext) -> None:
        # `*(1, -1)` and `*tuple_var` script fine (a tuple has a static length): flag what is certainly a list,
        # by its form or by the type the typer gives it (`ir_emitter.cpp: emitStarredValues` needs a tuple)
        if node.star == "*" and _list_for_torch(node.value, ctx):
            ctx.report(node, fix=pass_the_list(node, ctx, _list_for_torch))

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


def _list_for_torch(node: cst.BaseExpression, ctx: RuleContext) -> bool:
    """A list by its form, or by the type the typer gives it; a module attribute by its form only (a `Final` or
    `__constants__` list attribute is a tuple constant to torch)."""
    if _is_list_like(node, ctx):
        return True
    if isinstance(node, cst.Attribute) and _self_attribute_is_list(node, ctx) is not None:
        return False
    return getattr(type_at(ctx, node), "name", None) == "List"


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


class NoStarredAssign(ScriptRule):
    code = "JIT119"
    name = "no-starred-assign"
    severity = "error"
    summary = "`a, *rest = xs` of a list (`b, *rest = x.shape`), or a starred target that is not a name"
    facts = (ScriptTypes,)
    fix = "unsafe"
    message = ("starred assignment of a list (`a, *rest = x.shape`) is not supported by TorchScript (it cannot know "
               "the list's length); index instead")

    def visit_AssignTarget(self, node: cst.AssignTarget, ctx: RuleContext) -> None:
        target = node.target
        assign = ctx.parent
        value = type_at(ctx, assign.value) if isinstance(assign, cst.Assign) else None
        if not isinstance(target, (cst.Tuple, cst.List)):
            return
        if len(target.elements) == 1 and isinstance(target.elements[0], cst.StarredElement):
            # `ir_emitter.cpp: emitTupleAssign` needs a non-starred target beside the starred one, whatever the value
            ctx.report(target.elements[0], "a starred assignment target alone (`*rest, = xs`) is rejected by "
                                           "TorchScript (torch: 'A Starred expression may only appear on the lhs "
                                           "within the presence of another non-starred expression'); assign the "
                                           "value itself: `rest = xs`")
            return
        for element in target.elements:
            if not isinstance(element, cst.StarredElement):
                continue
            if not isinstance(element.value, cst.Name):
                ctx.report(element, "a starred assignment target must be a plain name in TorchScript (torch: 'Cannot "
                                    "pack a tuple into a non-variable'); assign to a name, then store it")
            elif getattr(value, "name", None) == "List":
                # a tuple has a static length and torch unpacks it with a star; a value of unknown type is left alone
                ctx.report(element, fix=index_instead_of_star(element, ctx))


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
        for result in results_for(self, node, ctx):
            if isinstance(result, R.TupleOfList):
                ctx.report(result.node, f"`tuple()` of a {result.type}: TorchScript cannot infer the tuple's length "
                                        "from a list (torch: 'cannot statically infer the expected size of a list in "
                                        "this context'); keep the list, or index it: `(xs[0], xs[1])`")
            else:
                ctx.report(result.node, f"this unpacks a {result.type}, whose length TorchScript cannot infer (torch: "
                                        "'cannot statically infer the expected size of a list in this context'); "
                                        "pass the elements one by one (`xs[0], xs[1]`), or make it a tuple")


_SIZE_METHODS = frozenset({"view", "reshape", "permute", "expand", "repeat", "tile", "new_zeros", "new_ones",
                           "new_empty"})


_SIZE_FACTORIES = frozenset({"torch.zeros", "torch.ones", "torch.empty", "torch.rand", "torch.randn"})


def pass_the_list(arg: cst.Arg, ctx: RuleContext, is_list) -> PendingFix | None:
    """`x.view(*shape)` -> `x.view(shape)` for the Tensor methods and factories that take a size list as one
    argument (view, reshape, permute, expand, repeat, tile, new_zeros/ones/empty; torch.zeros/ones/empty/rand/
    randn): the same call. Safe."""
    call = ctx.parent
    if not isinstance(call, cst.Call):
        return None
    func = call.func
    if isinstance(func, cst.Attribute) and func.attr.value in _SIZE_METHODS and ctx.qualify(func) is None:
        pass
    elif ctx.qualify(func) in _SIZE_FACTORIES:
        pass
    else:
        return None
    if call.args[0] is arg and not any(a.keyword is None or a.star for a in call.args[1:]):
        comma = arg.comma if len(call.args) > 1 else cst.MaybeSentinel.DEFAULT
        return PendingFix("pass the list itself", [PendingEdit(arg, ctx.code(arg.with_changes(star="", comma=comma)))])
    return _one_size_list(call, is_list, ctx)


def _one_size_list(call: cst.Call, is_list, ctx: RuleContext) -> PendingFix | None:
    """`x.view(b, *self.grid, c)` -> `x.view([b] + list(self.grid) + [c])`: the positional sizes as one list. Only
    when every starred operand is certainly a list for TorchScript (`is_list`); `list(...)` makes a `torch.Size` or
    a list the same list in eager Python too. Safe: the same sizes reach the same method."""
    positional = [a for a in call.args if a.keyword is None]
    if any(a.star == "**" for a in call.args) or list(call.args[: len(positional)]) != positional:
        return None
    if any(a.star == "*" and not is_list(a.value, ctx) for a in positional):
        return None
    parts: list[str] = []
    plain: list[str] = []
    for a in positional:
        if a.star == "*":
            if plain:
                parts.append("[" + ", ".join(plain) + "]")
                plain = []
            value = a.value
            parts.append(ctx.code(value) if isinstance(value, (cst.List, cst.ListComp)) else f"list({ctx.code(value)})")
        else:
            plain.append(ctx.code(a.value))
    if plain:
        parts.append("[" + ", ".join(plain) + "]")
    keywords = [ctx.code(a.with_changes(comma=cst.MaybeSentinel.DEFAULT)) for a in call.args[len(positional):]]
    text = f"{ctx.code(call.func)}({', '.join([' + '.join(parts), *keywords])})"
    return PendingFix("pass the sizes as one list", [PendingEdit(call, text)])


def index_instead_of_star(element: cst.StarredElement, ctx: RuleContext) -> PendingFix | None:
    """`b, *rest = x.shape` -> `b = x.shape[0]` when `rest` is never read and the value is a plain name or
    attribute chain. Unsafe: a sequence too short raises IndexError instead of ValueError, and one too long for a
    target list without a star is no longer an error."""
    assign_target = ctx.ancestors[-1]  # reported from the visit of the AssignTarget
    assign = ctx.parent
    target = assign_target.target if isinstance(assign_target, cst.AssignTarget) else None
    statement = enclosing_statement(ctx)
    function = compiled_function(ctx)
    if not (isinstance(assign, cst.Assign) and len(assign.targets) == 1 and assign.targets[0] is assign_target
            and isinstance(target, (cst.Tuple, cst.List))):
        return None
    if not isinstance(statement, cst.SimpleStatementLine) or len(statement.body) != 1 or function is None:
        return None
    if not isinstance(element.value, cst.Name) or not is_pure_chain(assign.value):
        return None
    rest = element.value.value
    if rest != "_" and count_name(function.body, rest) != 1:
        return None
    elements = list(target.elements)
    star = elements.index(element)
    lines = []
    value = ctx.code(assign.value)
    for position, item in enumerate(elements):
        if item is element:
            continue
        if not isinstance(item, cst.Element) or not isinstance(item.value, cst.Name):
            return None
        index = position if position < star else position - len(elements)
        lines.append(f"{item.value.value} = {value}[{index}]")
    if not lines:
        return None
    indent = ctx.indent_of(statement)
    return PendingFix("index instead", [PendingEdit(statement, ("\n" + indent).join(lines))])
