"""Fixes of TorchScript rules: each function takes the node a rule reports and its RuleContext, and
returns a PendingFix or None when the rewrite is not certain to keep what the code does (or, for a rule whose fix
is unsafe, what its page says it may change). The rule classes call these from their report; a fix's safety is the
rule's `fix` attribute, and each rule page's "Fix safety" says when it applies and what it can change.
"""

from __future__ import annotations

import re

import libcst as cst

from jitlint.rules.base import PendingEdit, PendingFix, RuleContext
from jitlint.walk import walk


# -- helpers ------------------------------------------------------------------------------------------------------

def _statement(ctx: RuleContext) -> cst.CSTNode | None:
    """The smallest statement holding the node being visited."""
    return next((a for a in reversed(ctx.ancestors)
                 if isinstance(a, (cst.SimpleStatementLine, cst.BaseCompoundStatement))), None)


def _block_of(statement: cst.CSTNode, ctx: RuleContext) -> tuple[list[cst.CSTNode], int] | None:
    """The statements of the block holding `statement`, and its index there."""
    for ancestor in reversed(ctx.ancestors):
        body = getattr(ancestor, "body", None)
        if isinstance(body, (list, tuple)) and statement in body:
            return list(body), list(body).index(statement)
    return None


def _function(ctx: RuleContext) -> cst.FunctionDef | None:
    return ctx.function.info.node if ctx.function is not None else None


def _names_in(node: cst.CSTNode) -> set[str]:
    found: set[str] = set()

    class Names(cst.CSTVisitor):
        def visit_Name(self, name: cst.Name) -> None:
            found.add(name.value)

    walk(node, Names())
    return found


def _count_name(node: cst.CSTNode, name: str) -> int:
    count = 0

    class Count(cst.CSTVisitor):
        def visit_Name(self, found: cst.Name) -> None:
            nonlocal count
            count += found.value == name

    walk(node, Count())
    return count


def _delete_statement(statement: cst.CSTNode, block: list[cst.CSTNode], index: int) -> PendingEdit | None:
    """Remove a statement and its line: from its start to the start of the next statement of its block (when the
    next has no comment lines of its own, which the removal would take with it)."""
    if index + 1 >= len(block):
        return None
    following = block[index + 1]
    if getattr(following, "leading_lines", ()):
        return None
    return PendingEdit(statement, "", until=following)


def _builtin_generics(annotation: str) -> str:
    """`List[int]` -> `list[int]`, `Optional[T]` -> `T | None` (PEP 585/604: no typing import needed; torch 2.13
    reads both)."""
    for old, new in (("List[", "list["), ("Dict[", "dict["), ("Tuple[", "tuple[")):
        annotation = annotation.replace(old, new)
    match = re.fullmatch(r"Optional\[(.*)\]", annotation)
    if match:
        return f"{_builtin_generics(match.group(1))} | None"
    return annotation


def suggested(message: str, pattern: str) -> re.Match | None:
    """The annotation a flow finding's message suggests, in its last backquoted span."""
    spans = re.findall(r"`([^`]*)`", message)
    return re.fullmatch(pattern, spans[-1]) if spans else None


_PURE_CHAIN = (cst.Name, cst.Attribute)


def _is_pure_chain(node: cst.BaseExpression) -> bool:
    """`x`, `x.shape`, `self.a.b`: reading it twice gives the same value (no call, no subscript)."""
    while isinstance(node, cst.Attribute):
        node = node.value
    return isinstance(node, cst.Name)


# -- JIT109: keyword-only parameters with defaults ------------------------------------------------------------------

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


# -- JIT110: `else` on a loop ---------------------------------------------------------------------------------------

def loop_else_after(loop: cst.For | cst.While, ctx: RuleContext) -> PendingFix | None:
    """A loop with no `break` always runs its `else`: move the `else` body after the loop. Safe."""
    if _loop_jumps(loop, continues=False) or not isinstance(loop.orelse.body, cst.IndentedBlock):
        return None
    indent = ctx.indent_of(loop)
    head = ctx.statement_code(loop, loop.with_changes(orelse=None), indent)
    tail = [ctx.statement_code(s, s, indent) for s in loop.orelse.body.body]
    return PendingFix("move the `else` body after the loop (the loop has no `break`)",
                      [PendingEdit(loop, "\n".join([head, *[indent + t for t in tail]]).rstrip())])


# -- JIT111: set displays -------------------------------------------------------------------------------------------

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


# -- JIT112: `:=` ---------------------------------------------------------------------------------------------------

def hoist_walrus(node: cst.NamedExpr, ctx: RuleContext) -> PendingFix | None:
    """`if (n := E) > 1:` -> `n = E` on the line before and `if n > 1:`. Only where E is evaluated first in the
    statement (the walrus is the test, or the left operand of its comparison), and the statement is an `if` (not
    an `elif`, whose test is evaluated only when the earlier ones fail), a return or an assignment: safe."""
    if not isinstance(node.target, cst.Name):
        return None
    statement = _statement(ctx)
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


# -- JIT116: `*` unpacking of a list in a call ----------------------------------------------------------------------

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


# -- JIT119: `a, *rest = ...` ---------------------------------------------------------------------------------------

def index_instead_of_star(element: cst.StarredElement, ctx: RuleContext) -> PendingFix | None:
    """`b, *rest = x.shape` -> `b = x.shape[0]` when `rest` is never read and the value is a plain name or
    attribute chain. Unsafe: a sequence too short raises IndexError instead of ValueError, and one too long for a
    target list without a star is no longer an error."""
    assign_target = ctx.ancestors[-1]  # reported from the visit of the AssignTarget
    assign = ctx.parent
    target = assign_target.target if isinstance(assign_target, cst.AssignTarget) else None
    statement = _statement(ctx)
    function = _function(ctx)
    if not (isinstance(assign, cst.Assign) and len(assign.targets) == 1 and assign.targets[0] is assign_target
            and isinstance(target, (cst.Tuple, cst.List))):
        return None
    if not isinstance(statement, cst.SimpleStatementLine) or len(statement.body) != 1 or function is None:
        return None
    if not isinstance(element.value, cst.Name) or not _is_pure_chain(assign.value):
        return None
    rest = element.value.value
    if rest != "_" and _count_name(function.body, rest) != 1:
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


# -- JIT120: `import` in compiled code ------------------------------------------------------------------------------

def hoist_import(node: cst.Import | cst.ImportFrom, ctx: RuleContext) -> PendingFix | None:
    """Move `import math` from a compiled function to the module's imports. Unsafe: the import now runs when the
    module is imported (an optional dependency that is missing fails there)."""
    statement = _statement(ctx)
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


# -- JIT121: `y: T` without a value ---------------------------------------------------------------------------------

def merge_bare_annotation(node: cst.AnnAssign, ctx: RuleContext) -> PendingFix | None:
    """`y: T` followed by `y = v` -> `y: T = v`. Safe."""
    statement = _statement(ctx)
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


# -- JIT122: `torch.inference_mode()` -------------------------------------------------------------------------------

def no_grad_instead(item: cst.BaseExpression, ctx: RuleContext) -> PendingFix | None:
    """`with torch.inference_mode():` -> `with torch.no_grad():`. Unsafe: the tensors made inside are ordinary
    ones (they can later be used in autograd), and inference mode's speed-up is gone."""
    torch = ctx.torch_name
    if torch is None or not isinstance(item, cst.Call) or item.args:
        return None
    if ctx.qualify(item.func) != "torch.inference_mode":
        return None
    return PendingFix(f"use `{torch}.no_grad()`", [PendingEdit(item, f"{torch}.no_grad()")])


# -- JIT202: an unannotated parameter used as an int or a str -------------------------------------------------------

def annotate(param: cst.Param, annotation: str, ctx: RuleContext) -> PendingFix | None:
    from jitlint.targets.script.rules.types import annotate_param

    if param.annotation is not None or param.star:
        return None
    return PendingFix(f"annotate `{param.name.value}: {annotation}`", annotate_param(param, annotation, ctx))


def annotate_from_message(param_name: str, message: str, ctx: RuleContext) -> PendingFix | None:
    """A flow finding's `name: T` advice, applied to the compiled function's parameter `name`."""
    match = suggested(message, rf"{re.escape(param_name)}: (int|float|bool|str|List\[(?:int|float|str|bool|torch\.Tensor)\])")
    if match is not None and "torch." in match.group(1) and ctx.torch_name != "torch":
        return None
    function = _function(ctx)
    if match is None or function is None:
        return None
    params = function.params
    for param in (*params.posonly_params, *params.params, *params.kwonly_params):
        if param.name.value == param_name:
            return annotate(param, _builtin_generics(match.group(1)), ctx)
    return None


# -- flow findings (JIT208, JIT210, JIT609, JIT611, JIT703, JIT704, JIT706) -----------------------------------------

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
    return PendingFix(f"annotate `{name}`", [PendingEdit(start, f"{name}: {_builtin_generics(annotation)} = {empty}")])


def annotate_none_start(name: str, kind: str, ctx: RuleContext) -> PendingFix | None:
    """JIT703: `acc = None` -> `acc: torch.Tensor | None = None` (the type the later assignment gives). Safe."""
    function = _function(ctx)
    if function is None:
        return None
    assign = _first_assignment(function, name, lambda v: isinstance(v, cst.Name) and v.value == "None")
    if assign is None or (kind.startswith("torch.") and ctx.torch_name != "torch"):
        return None
    return PendingFix(f"annotate `{name}`", [PendingEdit(assign, f"{name}: {_builtin_generics(kind)} | None = None")])


def start_as_float(name: str, ctx: RuleContext) -> PendingFix | None:
    """JIT706: `s = 0` then `s += 0.5` in a loop -> `s = 0.0`. Unsafe: where the loop adds nothing, `s` stays a
    float, and what it meets gives a float (`x * s` of an integer tensor is a float tensor)."""
    function = _function(ctx)
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
    function = _function(ctx)
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


def _class_of(ctx: RuleContext) -> cst.ClassDef | None:
    return next((a for a in reversed(ctx.ancestors) if isinstance(a, cst.ClassDef)), None)


def class_optional_annotation(name: str, kind: str, ctx: RuleContext) -> PendingFix | None:
    """JIT609: `self.cache = None` in `__init__`, a Tensor in forward -> a class-level `cache: torch.Tensor | None`
    (an annotation without a value changes nothing at run time). Safe."""
    cls = _class_of(ctx)
    if cls is None or not isinstance(cls.body, cst.IndentedBlock):
        return None
    if kind.startswith("torch.") and ctx.torch_name != "torch":
        return None
    first = next((s for s in cls.body.body if isinstance(s, cst.FunctionDef)), None)
    if first is None or first.decorators or first.leading_lines:
        return None
    indent = ctx.indent_of(cls) + (cls.body.indent if cls.body.indent is not None else ctx.module.tree.default_indent)
    return PendingFix(f"declare `{name}` Optional in the class",
                      [PendingEdit(first, f"{name}: {_builtin_generics(kind)} | None\n\n{indent}", insert_before=True)])


def refine_through_local(node: cst.CSTNode, ctx: RuleContext) -> PendingFix | None:
    """JIT611: `if self.bias is not None: x = x + self.bias` -> copy to a local before the `if` and use the local
    in its test and body. Only when the `if` tests exactly that attribute against None, nothing in it assigns the
    attribute, and the local's name is free in the function. Safe."""
    function = _function(ctx)
    if not isinstance(node, cst.Attribute) or not isinstance(node.value, cst.Name) or function is None:
        return None
    attribute = node.attr.value
    owner = node.value.value
    guard = None
    for ancestor in reversed(ctx.ancestors):
        if isinstance(ancestor, cst.If) and _tests_none(ancestor.test, owner, attribute):
            guard = ancestor
            break
    if guard is None or attribute in _names_in(function.params) or _count_name(function.body, attribute) != _self_reads(function.body, owner, attribute):
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
    statement = _statement(ctx)
    if not isinstance(statement, cst.SimpleStatementLine):
        return None
    indent = ctx.indent_of(statement)
    return PendingFix(f"assert `{node.value}` is not None first", [
        PendingEdit(statement, f"assert {node.value} is not None\n{indent}", insert_before=True)])


# -- JIT416: an argument no overload accepts, with one obvious cast ------------------------------------------------

_FLOAT_KEYWORDS = {"scale_factor"}


def obvious_cast(call: cst.CSTNode, ctx: RuleContext) -> PendingFix | None:
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


# -- JIT415: a module-level constant read in compiled code ----------------------------------------------------------

def inline_constant(node: cst.Name, ctx: RuleContext) -> PendingFix | None:
    """`x / (x.norm() + EPS)` with `EPS = 1e-5` assigned once at module level -> `1e-5` in place. Unsafe: code that
    changes the module's constant at run time (`mod.EPS = ...`) no longer changes this function."""
    name = node.value
    values = []
    for statement in ctx.module.tree.body:
        if isinstance(statement, cst.SimpleStatementLine):
            for small in statement.body:
                targets = small.targets if isinstance(small, cst.Assign) else (
                    [small] if isinstance(small, cst.AnnAssign) else [])
                for target in targets:
                    if isinstance(target.target, cst.Name) and target.target.value == name:
                        values.append(small.value)
    if len(values) != 1 or values[0] is None or _module_rebinds(ctx.module.tree, name):
        return None
    value = values[0]
    literal = value
    if isinstance(value, cst.UnaryOperation) and isinstance(value.operator, cst.Minus):
        literal = value.expression
    if not isinstance(literal, (cst.Integer, cst.Float, cst.SimpleString)) and not (
        isinstance(literal, cst.Name) and literal.value in ("True", "False") and literal is value
    ):
        return None
    code = ctx.code(value)
    if value is not literal:
        code = f"({code})"
    return PendingFix(f"use the constant's value `{ctx.code(value)}`", [PendingEdit(node, code)])


def _module_rebinds(tree: cst.Module, name: str) -> bool:
    """`global NAME` anywhere, or an assignment of NAME in a loop, `if` or function at module level."""
    found = False

    class Rebinds(cst.CSTVisitor):
        def visit_Global(self, node: cst.Global) -> None:
            nonlocal found
            found = found or any(n.name.value == name for n in node.names)

    walk(tree, Rebinds())
    for statement in tree.body:
        if isinstance(statement, (cst.For, cst.While, cst.If, cst.With, cst.Try)) and name in _assigned_names(statement):
            return True
    return found


def _assigned_names(node: cst.CSTNode) -> set[str]:
    found: set[str] = set()

    class Stores(cst.CSTVisitor):
        def visit_AssignTarget(self, target: cst.AssignTarget) -> None:
            found.update(_names_in(target))

        def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
            return False

    walk(node, Stores())
    return found


# -- JIT606: a plain class attribute read through self -------------------------------------------------------------

_FINAL_KINDS = {"int": "int", "float": "float", "bool": "bool", "str": "str"}


def final_class_attribute(name: str, kind: str, owner_node: cst.ClassDef | None, ctx: RuleContext) -> PendingFix | None:
    """`scale = 2.0` in the class body -> `scale: torch.jit.Final[float] = 2.0`, which torch reads as a constant of
    the module. Safe: at run time the annotation changes nothing."""
    torch = ctx.torch_name
    if owner_node is None or torch is None or kind not in _FINAL_KINDS or not isinstance(owner_node.body, cst.IndentedBlock):
        return None
    for statement in owner_node.body.body:
        if isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1:
            small = statement.body[0]
            if (isinstance(small, cst.Assign) and len(small.targets) == 1
                    and isinstance(small.targets[0].target, cst.Name) and small.targets[0].target.value == name):
                content = f"{name}: {torch}.jit.Final[{_FINAL_KINDS[kind]}] = {ctx.code(small.value)}"
                return PendingFix(f"annotate `{name}` Final (a constant of the module)", [PendingEdit(small, content)])
    return None


# -- flow findings are reported from the function's visit: their fixes see the path down to the event's node -------

def path_to(root: cst.CSTNode, target: cst.CSTNode) -> list[cst.CSTNode] | None:
    """The nodes from `root` down to `target`, both included."""
    stack: list[cst.CSTNode] = []
    found: list[cst.CSTNode] | None = None

    class Path(cst.CSTVisitor):
        def on_visit(self, node: cst.CSTNode) -> bool:
            nonlocal found
            if found is not None:
                return False
            stack.append(node)
            if node is target:
                found = list(stack)
                return False
            return True

        def on_leave(self, node: cst.CSTNode) -> None:
            if stack and stack[-1] is node:
                stack.pop()

    walk(root, Path())
    return found


# -- eager-only calls: JIT113, JIT117, JIT405/409/410, JIT408, JIT411, JIT413, JIT501 -------------------------------

def drop_unused_global(node: cst.Global, ctx: RuleContext) -> PendingFix | None:
    """`global COUNTER` in a function that never assigns COUNTER does nothing: drop it. Safe."""
    function = _function(ctx)
    statement = _statement(ctx)
    if function is None or not isinstance(statement, cst.SimpleStatementLine) or len(statement.body) != 1:
        return None
    names = {n.name.value for n in node.names}
    if names & (_assigned_names(function.body) | _augmented_names(function.body)):
        return None
    found = _block_of(statement, ctx)
    removal = _delete_statement(statement, *found) if found else None
    return PendingFix("drop the `global` statement (nothing here assigns the name)", [removal]) if removal else None


def _augmented_names(node: cst.CSTNode) -> set[str]:
    found: set[str] = set()

    class Stores(cst.CSTVisitor):
        def visit_AugAssign(self, assign: cst.AugAssign) -> None:
            found.update(_names_in(assign.target))

        def visit_AnnAssign(self, assign: cst.AnnAssign) -> None:
            found.update(_names_in(assign.target))

        def visit_For(self, loop: cst.For) -> None:
            found.update(_names_in(loop.target))

        def visit_Del(self, statement: cst.Del) -> None:
            found.update(_names_in(statement.target))

    walk(node, Stores())
    return found


def inline_keywords(arg: cst.Arg, ctx: RuleContext) -> PendingFix | None:
    """`torch.add(x, x, **opts)` with `opts = {"alpha": 2.0}` (a dict display with string keys, assigned once and
    read only here) -> `torch.add(x, x, alpha=2.0)`, and the assignment dropped. Safe."""
    function = _function(ctx)
    if function is None or not isinstance(arg.value, cst.Name):
        return None
    name = arg.value.value
    if _count_name(function.body, name) != 2 or name in _names_in(function.params):
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


def guard_statement(call: cst.Call, ctx: RuleContext) -> PendingFix | None:
    """`x.register_hook(f)` (a statement of its own) -> under `if not torch.jit.is_scripting():`, which torch
    prunes. Unsafe: eager code runs as before, but the scripted module skips the statement (no hook, no buffer,
    no attribute set)."""
    torch = ctx.torch_name
    statement = _statement(ctx)
    if torch is None or not isinstance(statement, cst.SimpleStatementLine) or len(statement.body) != 1:
        return None
    small = statement.body[0]
    if not (isinstance(small, cst.Expr) and small.value is call):
        return None
    indent = ctx.indent_of(statement)
    step = ctx.module.tree.default_indent
    return PendingFix(f"run it only in eager mode (`if not {torch}.jit.is_scripting():`)", [
        PendingEdit(statement, f"if not {torch}.jit.is_scripting():\n{indent}{step}{ctx.code(small)}")])


def call_through_self(call: cst.Call, method: str, ctx: RuleContext) -> PendingFix | None:
    """`Base.helper(self, x)` -> `self.helper(x)`. Unsafe: if the class (or a subclass) overrides `helper`, the
    call now runs the override."""
    rest = call.args[1:]
    first = call.args[0].value
    arguments = ", ".join(ctx.code(a.with_changes(comma=cst.MaybeSentinel.DEFAULT)) for a in rest)
    return PendingFix(f"call `{ctx.code(first)}.{method}(...)`",
                      [PendingEdit(call, f"{ctx.code(first)}.{method}({arguments})")])


def print_without_keywords(call: cst.Call, ctx: RuleContext) -> PendingFix | None:
    """`print("x:", x, sep="")` -> `print("x:", x)`. Unsafe: the text printed (separators, line end, stream)
    changes; only offered when the keywords are literals or `flush`."""
    kept = [a for a in call.args if a.keyword is None]
    if any(a.star for a in kept):
        return None
    arguments = ", ".join(ctx.code(a.with_changes(comma=cst.MaybeSentinel.DEFAULT)) for a in kept)
    return PendingFix("drop the keyword arguments", [PendingEdit(call, f"{ctx.code(call.func)}({arguments})")])


_CHECKPOINT_OPTIONS = frozenset({"use_reentrant", "preserve_rng_state", "determinism_check", "debug"})


def checkpoint_when_eager(call: cst.Call, ctx: RuleContext) -> PendingFix | None:
    """`cp.checkpoint(f, x, use_reentrant=False)` -> `(f(x) if torch.jit.is_scripting() else cp.checkpoint(...))`:
    torch prunes the eager arm. Safe: in eager code `is_scripting()` is False and the call is unchanged (the
    scripted module computes `f(x)` without checkpointing, the same values)."""
    torch = ctx.torch_name
    if torch is None or not call.args or call.args[0].keyword is not None:
        return None
    positional = [a for a in call.args[1:] if a.keyword is None]
    if any(a.star for a in call.args) or any(
        a.keyword is not None and a.keyword.value not in _CHECKPOINT_OPTIONS for a in call.args
    ):
        return None
    function = ctx.code(call.args[0].value)
    arguments = ", ".join(ctx.code(a.value) for a in positional)
    return PendingFix("checkpoint only in eager mode", [
        PendingEdit(call, f"({function}({arguments}) if {torch}.jit.is_scripting() else {ctx.code(call)})")])


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


# -- JIT414: torch.is_tensor --------------------------------------------------------------------------------------

def isinstance_tensor(call: cst.Call, ctx: RuleContext) -> PendingFix | None:
    """`torch.is_tensor(x)` -> `isinstance(x, torch.Tensor)`, which is what it computes. Safe."""
    torch = ctx.torch_name
    if torch is None or ctx.qualify(call.func) != "torch.is_tensor" or len(call.args) != 1 or call.args[0].keyword:
        return None
    return PendingFix(f"use `isinstance(..., {torch}.Tensor)`",
                      [PendingEdit(call, f"isinstance({ctx.code(call.args[0].value)}, {torch}.Tensor)")])


# -- JIT105/JIT107/JIT123: lambdas, nested functions and classes ---------------------------------------------------

_BUILTINS = frozenset(dir(__import__("builtins")))


def _module_names(tree: cst.Module) -> set[str]:
    names: set[str] = set()
    for statement in tree.body:
        if isinstance(statement, (cst.FunctionDef, cst.ClassDef)):
            names.add(statement.name.value)
        elif isinstance(statement, cst.SimpleStatementLine):
            for small in statement.body:
                if isinstance(small, (cst.Import, cst.ImportFrom)) and not isinstance(small.names, cst.ImportStar):
                    for alias in small.names:
                        bound = alias.asname.name if alias.asname else alias.name
                        names.add(ctx_code_name(bound).split(".")[0])
                elif isinstance(small, cst.Assign):
                    for target in small.targets:
                        names |= _names_in(target.target)
                elif isinstance(small, cst.AnnAssign):
                    names |= _names_in(small.target)
        else:
            names |= _assigned_names(statement)
    return names


def ctx_code_name(node: cst.BaseExpression) -> str:
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        return f"{ctx_code_name(node.value)}.{node.attr.value}"
    return ""


def _top_statement(ctx: RuleContext) -> cst.CSTNode | None:
    """The module-level statement holding the node being visited."""
    for index, ancestor in enumerate(ctx.ancestors):
        if isinstance(ancestor, cst.Module) and index + 1 < len(ctx.ancestors):
            return ctx.ancestors[index + 1]
    return None


def _local_names(function: cst.FunctionDef) -> set[str]:
    return _assigned_names(function.body) | _augmented_names(function.body) | _names_in(function.params) | {
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
    function = _function(ctx)
    top = _top_statement(ctx)
    if function is None or top is None or node.decorators or getattr(top, "decorators", ()):
        return None
    name = node.name.value
    module_names = _module_names(ctx.module.tree)
    if name in module_names:
        return None
    enclosing = _local_names(function) - {name}
    if isinstance(node, cst.FunctionDef):
        own = _names_in(node.params) | _assigned_names(node.body) | _augmented_names(node.body)
    else:
        own = _assigned_names(node.body) | {d.name.value for d in _all_defs(node.body)}
    free = _names_in(node) - own - {name}
    if free & enclosing or free - module_names - _BUILTINS - {"self"} - _attribute_names(node):
        return None
    if _count_name(function.body, name) < 1 or "self" in free:
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
    statement = _statement(ctx)
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


# -- JIT104: set comprehensions -----------------------------------------------------------------------------------

def set_comp_to_dict(node: cst.SetComp, ctx: RuleContext) -> PendingFix | None:
    """`{a for a in xs}` -> `{a: True for a in xs}`: the same keys, so `len` and `in` agree. Unsafe: set
    operations and iteration order differ."""
    return PendingFix("use a dict with the elements as keys", [PendingEdit(
        node, ctx.code(cst.DictComp(key=node.elt, value=cst.Name("True"), for_in=node.for_in)))])


# -- JIT304: a slice of a module container iterated ---------------------------------------------------------------

def enumerate_and_skip(node: cst.Subscript, ctx: RuleContext) -> PendingFix | None:
    """`for layer in self.layers[1:]:` -> `for i, layer in enumerate(self.layers):` / `if i >= 1:` around the
    body (`[:k]` gives `i < k`). Only for non-negative integer bounds, no step, and a body without `break` or
    `continue` (which TorchScript rejects in such a loop). Safe."""
    loop = ctx.parent
    if not isinstance(loop, cst.For) or loop.iter is not node or loop.orelse is not None:
        return None
    piece = node.slice[0].slice
    if piece.step is not None or not isinstance(loop.body, cst.IndentedBlock):
        return None
    bounds = []
    for bound, operator in ((piece.lower, ">="), (piece.upper, "<")):
        if bound is None:
            continue
        if not isinstance(bound, cst.Integer):
            return None
        bounds.append((operator, bound.value))
    if not bounds or _loop_jumps(loop):
        return None
    function = _function(ctx)
    used = _names_in(function) if function is not None else set()
    index = next(n for n in ("i", "index", "position", "layer_index") if n not in used)
    indent = ctx.indent_of(loop)
    step = loop.body.indent if loop.body.indent is not None else ctx.module.tree.default_indent
    condition = " and ".join(f"{index} {operator} {value}" for operator, value in bounds)
    body = [ctx.statement_code(s, s, indent + step + step) for s in loop.body.body]
    lines = [f"for {index}, {ctx.code(loop.target)} in enumerate({ctx.code(node.value)}):",
             f"{indent}{step}if {condition}:", *[f"{indent}{step}{step}{line}" for line in body]]
    return PendingFix("iterate the whole container and skip by index", [PendingEdit(loop, "\n".join(lines))])


def _loop_jumps(loop: cst.For | cst.While, continues: bool = True) -> bool:
    """Whether the loop's own body has a `break` (or, with `continues`, a `continue`): those of nested loops and
    functions do not count."""
    found = False

    class Jumps(cst.CSTVisitor):
        def visit_Break(self, node: cst.Break) -> None:
            nonlocal found
            found = True

        def visit_Continue(self, node: cst.Continue) -> None:
            nonlocal found
            found = found or continues

        def visit_For(self, node: cst.For) -> bool:
            return False

        def visit_While(self, node: cst.While) -> bool:
            return False

        def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
            return False

    walk(loop.body, Jumps())
    return found


# -- JIT305: a plain list of modules ------------------------------------------------------------------------------

def wrap_module_list(name: str, ctx: RuleContext) -> PendingFix | None:
    """`self.layers = [nn.Linear(4, 4), ...]` in `__init__` -> `nn.ModuleList([...])`. Unsafe: the modules'
    parameters become the model's (`parameters()`, `state_dict()` keys, `.to()` and optimizers see them)."""
    torch = ctx.torch_name
    cls = _class_of(ctx)
    if torch is None or cls is None or not isinstance(cls.body, cst.IndentedBlock):
        return None
    init = next((s for s in cls.body.body if isinstance(s, cst.FunctionDef) and s.name.value == "__init__"), None)
    if init is None:
        return None
    found = []

    class Stores(cst.CSTVisitor):
        def visit_Assign(self, assign: cst.Assign) -> None:
            for target in assign.targets:
                if (isinstance(target.target, cst.Attribute) and isinstance(target.target.value, cst.Name)
                        and target.target.value.value == "self" and target.target.attr.value == name):
                    found.append(assign.value)

    walk(init, Stores())
    if len(found) != 1 or not isinstance(found[0], (cst.List, cst.ListComp)):
        return None
    return PendingFix("wrap it in `nn.ModuleList`", [
        PendingEdit(found[0], f"{torch}.nn.ModuleList({ctx.code(found[0])})")])


# -- JIT108: `*args` / `**kwargs` in a compiled signature -----------------------------------------------------------

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
        taken = _names_in(function)
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


def _class_body_indent(cls: cst.ClassDef, ctx: RuleContext) -> str | None:
    """The indentation of the statements of `cls`'s body (`cls` an ancestor of the visited node)."""
    if cls not in ctx.ancestors or not isinstance(cls.body, cst.IndentedBlock):
        return None
    depth = ""
    for ancestor in ctx.ancestors[: ctx.ancestors.index(cls)]:
        if isinstance(ancestor, cst.IndentedBlock):
            depth += ancestor.indent if ancestor.indent is not None else ctx.module.tree.default_indent
    indent = cls.body.indent
    return depth + (indent if indent is not None else ctx.module.tree.default_indent)


# -- JIT407: `super().method(...)` --------------------------------------------------------------------------------

# What torch 2.13's own `forward` of these classes computes (torch/nn/modules), for `super().forward(x)`.
_TORCH_FORWARDS = {
    "Conv1d": "self._conv_forward({x}, self.weight, self.bias)",
    "Conv2d": "self._conv_forward({x}, self.weight, self.bias)",
    "Conv3d": "self._conv_forward({x}, self.weight, self.bias)",
    "Linear": "{F}.linear({x}, self.weight, self.bias)",
    "Embedding": "{F}.embedding({x}, self.weight, self.padding_idx, self.max_norm, self.norm_type, "
                 "self.scale_grad_by_freq, self.sparse)",
    "LayerNorm": "{F}.layer_norm({x}, self.normalized_shape, self.weight, self.bias, self.eps)",
    "GroupNorm": "{F}.group_norm({x}, self.num_groups, self.weight, self.bias, self.eps)",
}
_TORCH_MODULES = ("torch.nn.", "torch.nn.modules.conv.", "torch.nn.modules.linear.", "torch.nn.modules.sparse.",
                  "torch.nn.modules.normalization.")


def _torch_base(qualified: str | None) -> str | None:
    for prefix in _TORCH_MODULES:
        if qualified and qualified.startswith(prefix) and qualified[len(prefix):] in _TORCH_FORWARDS:
            return qualified[len(prefix):]
    return None


def _mangles(node: cst.CSTNode) -> bool:
    """Whether a method reads a name that Python mangles per class (`self.__x`), or `__class__`/`super`."""
    found = False

    class Names(cst.CSTVisitor):
        def visit_Name(self, name: cst.Name) -> None:
            nonlocal found
            value = name.value
            found = found or value in ("super", "__class__") or (value.startswith("__") and not value.endswith("__"))

    walk(node, Names())
    return found


def super_call(attribute: cst.Attribute, ctx: RuleContext) -> PendingFix | None:
    """`super().forward(x)` in a class with one base: for a torch module whose `forward` is one call (Conv1d/2d/3d,
    Linear, Embedding, LayerNorm, GroupNorm) -> that call (`self._conv_forward(x, self.weight, self.bias)`); for a
    base class of the same file that defines the method itself -> a copy of it in the class (`_Base_forward`),
    called through `self`. Unsafe: with multiple inheritance below this class `super()` may reach another class,
    and the copy no longer follows later changes (or patches) of the base's method."""
    call = ctx.ancestors[-2] if len(ctx.ancestors) >= 2 else None
    cls = _class_of(ctx)
    function = _function(ctx)
    if not (isinstance(call, cst.Call) and call.func is attribute and cls is not None and function is not None
            and len(cls.bases) == 1 and not cls.keywords):
        return None
    super_args = [a.value for a in attribute.value.args]
    if super_args and not (  # `super(ThisClass, self)` is `super()`
            len(super_args) == 2 and isinstance(super_args[0], cst.Name) and super_args[0].value == cls.name.value
            and isinstance(super_args[1], cst.Name) and function.params.params
            and super_args[1].value == function.params.params[0].name.value):
        return None
    method = attribute.attr.value
    base = cls.bases[0].value
    torch_class = _torch_base(ctx.qualify(base))
    if torch_class is not None:
        torch = ctx.torch_name
        if (method != "forward" or torch is None or len(call.args) != 1 or call.args[0].star
                or call.args[0].keyword is not None):
            return None
        text = _TORCH_FORWARDS[torch_class].format(x=ctx.code(call.args[0].value), F=f"{torch}.nn.functional")
        return PendingFix(f"call what `{torch_class}.forward` computes", [PendingEdit(call, text)])
    if not isinstance(base, cst.Name):
        return None
    tree = ctx.module.tree
    classes = [s for s in tree.body if isinstance(s, cst.ClassDef)]
    base_def = next((s for s in classes if s.name.value == base.value), None)
    if base_def is None or cls not in classes or not isinstance(base_def.body, cst.IndentedBlock):
        return None
    found = [s for s in base_def.body.body if isinstance(s, cst.FunctionDef) and s.name.value == method]
    if len(found) != 1 or found[0].decorators or _mangles(found[0]) or found[0].asynchronous is not None:
        return None
    new_name = f"_{base.value}_{method}"
    copy = found[0].with_changes(name=cst.Name(new_name), leading_lines=())
    if any(isinstance(s, cst.FunctionDef) and s.name.value == new_name for s in base_def.body.body):
        return None
    existing = [s for s in cls.body.body if isinstance(s, cst.FunctionDef) and s.name.value == new_name]
    if existing:  # an earlier pass copied it: only the call is left to rewrite
        if len(existing) != 1 or ctx.code(existing[0].with_changes(leading_lines=())) != ctx.code(copy):
            return None
        return PendingFix(f"call the copy of `{base.value}.{method}` through `self`", [
            PendingEdit(attribute, f"self.{new_name}")])
    # the copy goes before the class's first method (one place, so two calls' fixes share the same edit)
    first = next((s for s in cls.body.body if isinstance(s, cst.FunctionDef)), None)
    if first is None:
        return None
    indent = _class_body_indent(cls, ctx)
    if indent is None:
        return None
    text = ctx.statement_code(first, copy, indent)
    anchor = first.decorators[0] if first.decorators else first
    return PendingFix(f"call a copy of `{base.value}.{method}` through `self`", [
        PendingEdit(anchor, f"{text}\n\n{indent}", insert_before=True),
        PendingEdit(attribute, f"self.{new_name}"),
    ])


# -- JIT401: NumPy round-trips ------------------------------------------------------------------------------------

# Reductions that NumPy arrays and torch Tensors both offer with no argument, computing the same value.
_NUMPY_REDUCTIONS = frozenset({"mean", "sum", "max", "min", "prod", "argmax", "argmin", "any", "all"})
# Elementwise NumPy functions of one array and their torch names.
_NUMPY_ELEMENTWISE = {"abs": "abs", "absolute": "abs", "exp": "exp", "log": "log", "sqrt": "sqrt", "sin": "sin",
                      "cos": "cos", "tanh": "tanh", "floor": "floor", "ceil": "ceil", "sign": "sign",
                      "negative": "neg"}


def _numpy_of(node: cst.BaseExpression) -> cst.BaseExpression | None:
    """`x` when `node` is `x.numpy()`."""
    if (isinstance(node, cst.Call) and not node.args and isinstance(node.func, cst.Attribute)
            and node.func.attr.value == "numpy"):
        return node.func.value
    return None


def _one_arg(call: cst.Call) -> cst.BaseExpression | None:
    if len(call.args) == 1 and not call.args[0].star and call.args[0].keyword is None:
        return call.args[0].value
    return None


def _round_trip(node: cst.BaseExpression, ctx: RuleContext) -> str | None:
    """The torch spelling of a NumPy round-trip expression, or None."""
    torch = ctx.torch_name
    if torch is None or not isinstance(node, cst.Call):
        return None
    func = node.func
    # x.numpy().mean() -> x.mean()
    if isinstance(func, cst.Attribute) and func.attr.value in _NUMPY_REDUCTIONS and not node.args:
        inner = _numpy_of(func.value)
        return f"{ctx.code(inner)}.{func.attr.value}()" if inner is not None else None
    qualified = ctx.qualify(func) or ""
    argument = _one_arg(node)
    if argument is None:
        return None
    if qualified == "torch.from_numpy":
        inner = _numpy_of(argument)
        if inner is not None:  # torch.from_numpy(x.numpy()) -> x
            return ctx.code(inner)
        if isinstance(argument, cst.Call):
            name = (ctx.qualify(argument.func) or "").removeprefix("numpy.")
            array = _one_arg(argument)
            inner = _numpy_of(array) if array is not None else None
            if inner is not None and name in _NUMPY_ELEMENTWISE:  # torch.from_numpy(np.exp(x.numpy()))
                return f"{torch}.{_NUMPY_ELEMENTWISE[name]}({ctx.code(inner)})"
        return None
    if qualified.startswith("numpy.") and qualified[6:] in _NUMPY_REDUCTIONS:  # np.mean(x.numpy()) -> x.mean()
        inner = _numpy_of(argument)
        return f"{ctx.code(inner)}.{qualified[6:]}()" if inner is not None else None
    return None


def numpy_round_trip(node: cst.Call, ctx: RuleContext) -> PendingFix | None:
    """A NumPy detour that torch computes directly: `x.numpy().mean()` / `np.mean(x.numpy())` -> `x.mean()` (for
    mean, sum, max, min, prod, argmax, argmin, any, all), `torch.from_numpy(x.numpy())` -> `x`,
    `torch.from_numpy(np.exp(x.numpy()))` -> `torch.exp(x)` (abs, exp, log, sqrt, sin, cos, tanh, floor, ceil,
    sign, negative). The outermost such expression around the reported call is rewritten, so the findings of one
    expression share one edit. Unsafe: the value is a 0-dim Tensor where it was a NumPy scalar, and torch may sum
    in another order (the last bits of a float result can differ)."""
    chain = [node] + [a for a in reversed(ctx.ancestors[:-1])]
    best: tuple[cst.CSTNode, str] | None = None
    for candidate in chain[:6]:
        if isinstance(candidate, cst.Call):
            text = _round_trip(candidate, ctx)
            if text is not None:
                best = (candidate, text)
    if best is None:
        return None
    return PendingFix("compute it with torch", [PendingEdit(best[0], best[1])])


# -- JIT232: a flag that decides which submodules exist -----------------------------------------------------------

def _evidently_bool(value: cst.BaseExpression, init: cst.FunctionDef) -> bool:
    if isinstance(value, cst.Comparison):
        return True
    if isinstance(value, cst.UnaryOperation):
        return isinstance(value.operator, cst.Not)
    if isinstance(value, cst.BooleanOperation):
        return _evidently_bool(value.left, init) and _evidently_bool(value.right, init)
    if isinstance(value, cst.Name):
        if value.value in ("True", "False"):
            return True
        for param in init.params.params + init.params.kwonly_params:
            if param.name.value == value.value:
                annotation = param.annotation.annotation if param.annotation is not None else None
                if isinstance(annotation, cst.Name) and annotation.value == "bool":
                    return True
                return (annotation is None and isinstance(param.default, cst.Name)
                        and param.default.value in ("True", "False"))
        return False
    if isinstance(value, cst.Call) and isinstance(value.func, cst.Name):
        return value.func.value in ("isinstance", "hasattr", "callable", "bool")
    return False


def _final_spelling(ctx: RuleContext) -> tuple[str, PendingEdit | None] | None:
    """How this file can spell `Final`, and the import edit it needs, if any."""
    aliases = ctx.module.imports.aliases
    if aliases.get("Final") in ("typing.Final", "torch.jit.Final", "typing_extensions.Final"):
        return "Final", None
    if ctx.torch_name is not None:
        return f"{ctx.torch_name}.jit.Final", None
    if aliases.get("typing") == "typing":
        return "typing.Final", None
    tree = ctx.module.tree
    if "Final" in _module_names(tree) or "Final" in aliases:
        return None
    first = next((s for s in tree.body if isinstance(s, cst.SimpleStatementLine)
                  and isinstance(s.body[0], (cst.Import, cst.ImportFrom))
                  and not (isinstance(s.body[0], cst.ImportFrom) and isinstance(s.body[0].module, cst.Name)
                           and s.body[0].module.value == "__future__")), None)
    if first is None:
        return None
    return "Final", PendingEdit(first, "from typing import Final\n", insert_before=True)


def _class_level_names(cls: cst.ClassDef) -> set[str]:
    names: set[str] = set()
    if not isinstance(cls.body, cst.IndentedBlock):
        return names
    for statement in cls.body.body:
        if isinstance(statement, cst.SimpleStatementLine):
            for small in statement.body:
                if isinstance(small, cst.AnnAssign) and isinstance(small.target, cst.Name):
                    names.add(small.target.value)
                elif isinstance(small, cst.Assign):
                    for target in small.targets:
                        if isinstance(target.target, cst.Name):
                            names.add(target.target.value)
        elif isinstance(statement, (cst.FunctionDef, cst.ClassDef)):
            names.add(statement.name.value)
    return names


def final_flag(flag: str, cls: cst.ClassDef, ctx: RuleContext) -> PendingFix | None:
    """`flag: torch.jit.Final[bool]` first in the class body (after its docstring), so that torch reads the flag
    as a constant of each instance and drops the branches it guards when it is false. Only when every value
    `__init__` gives the flag is evidently a bool. Safe: at run time the annotation changes nothing (`Final` is
    not enforced; `from typing import Final` is added when the file has no spelling of it)."""
    if not isinstance(cls.body, cst.IndentedBlock):
        return None
    init = next((s for s in cls.body.body if isinstance(s, cst.FunctionDef) and s.name.value == "__init__"), None)
    if init is None or not init.params.params or flag in _class_level_names(cls):
        return None
    self_name = init.params.params[0].name.value
    values: list[cst.BaseExpression] = []

    class Values(cst.CSTVisitor):
        def visit_Assign(self, node: cst.Assign) -> None:
            for target in node.targets:
                t = target.target
                if (isinstance(t, cst.Attribute) and isinstance(t.value, cst.Name) and t.value.value == self_name
                        and t.attr.value == flag):
                    values.append(node.value)

        def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
            t = node.target
            if (isinstance(t, cst.Attribute) and isinstance(t.value, cst.Name) and t.value.value == self_name
                    and t.attr.value == flag):
                values.append(node.value)  # type: ignore[arg-type]

    walk(init, Values())
    if not values or not all(v is not None and _evidently_bool(v, init) for v in values):
        return None
    spelling = _final_spelling(ctx)
    if spelling is None:
        return None
    final, import_edit = spelling
    body = list(cls.body.body)
    first = body[0]
    if (isinstance(first, cst.SimpleStatementLine) and isinstance(first.body[0], cst.Expr)
            and isinstance(first.body[0].value, (cst.SimpleString, cst.ConcatenatedString))):
        if len(body) < 2:
            return None
        first = body[1]
    anchor = first.decorators[0] if isinstance(first, (cst.FunctionDef, cst.ClassDef)) and first.decorators else first
    indent = _class_body_indent(cls, ctx)
    if indent is None:
        return None
    annotation = (isinstance(first, cst.SimpleStatementLine) and isinstance(first.body[0], cst.AnnAssign))
    edits = [PendingEdit(anchor, f"{flag}: {final}[bool]\n{'' if annotation else chr(10)}{indent}", insert_before=True)]
    if import_edit is not None:
        edits.insert(0, import_edit)
    return PendingFix(f"declare `{flag}` a constant (`{final}[bool]`)", edits)


# -- JIT702: a variable set under `if self.flag:` and read under `if self.flag:` ----------------------------------

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
    cls = _class_of(ctx)
    if cls is None or branch is None:
        return None
    flag = same_flag_branches(function, branch, name)
    return final_flag(flag, cls, ctx) if flag is not None else None




# -- flow findings with one obvious rewrite --------------------------------------------------------------------

# Tensor methods TorchScript lacks, and the call it has that computes the same (verified on torch 2.13: `x.bool()`
# fails with "'Tensor' object has no attribute or method 'bool'").
_TENSOR_METHOD_EQUIVALENTS = {
    "bool": "to({torch}.bool)",
    "bfloat16": "to({torch}.bfloat16)",
    "nelement": "numel()",
    "ndimension": "dim()",
}


def equivalent_tensor_method(node: cst.CSTNode, ctx: RuleContext) -> PendingFix | None:
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


def convert_annotated_value(node: cst.CSTNode, kind: str, ctx: RuleContext) -> PendingFix | None:
    """JIT221: `scale: float = x.size(0)` -> `scale: float = float(x.size(0))` (an int assigned to a variable
    annotated float). Unsafe: in eager Python the variable held an int, now a float (`x * scale` of an integer
    tensor becomes a float tensor, `str(scale)` reads `3.0`)."""
    if not isinstance(node, cst.AnnAssign) or node.value is None:
        return None
    return PendingFix(f"convert the value with `{kind}(...)`",
                      [PendingEdit(node.value, f"{kind}({ctx.code(node.value)})")])


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
    function = _function(ctx)
    if function is None or node is not function.name or not isinstance(function.body, cst.IndentedBlock):
        return None
    if function.returns is None or isinstance(function.returns.annotation, (cst.SimpleString, cst.ConcatenatedString)):
        return None
    last = function.body.body[-1]
    indent = _inner_indent(function, ctx)
    return PendingFix("return None at the end (and declare it)",
                      [PendingEdit(last, f"\n{indent}return None", insert_after=True)])


def rebuild_without_slice(node: cst.CSTNode, ctx: RuleContext) -> PendingFix | None:
    """JIT225: `del xs[a:b]` -> `xs = xs[:a] + xs[b:]` (`del xs[a:]` -> `xs = xs[:a]`, `del xs[:b]` -> `xs =
    xs[b:]`). Only for a local list name, one slice without a step, `del` of that one target. Unsafe: the list is
    rebuilt, so another reference to it (a caller's list, an attribute) no longer sees the deletion."""
    statement = _statement(ctx)
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
    used = _names_in(function)
    for suffix in ("", "_2", "_3", "_4"):
        for candidate in candidates:
            if candidate + suffix not in used:
                return candidate + suffix
    return candidates[0] + "_jitlint"


def enumerate_the_container(node: cst.CSTNode, ctx: RuleContext) -> PendingFix | None:
    """JIT315: `for head, feature in zip(self.heads, features):` -> `for i, head in enumerate(self.heads):` and
    `feature = features[i]` first in the body. Only when each other zipped value is a name or attribute chain (read
    once per step, as zip read it once) and the targets are plain names. Unsafe: `zip` stopped at the shorter
    value; indexing a list shorter than the container raises IndexError."""
    function = _function(ctx)
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
    if any(not _is_pure_chain(call.args[i].value) for i in others):
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


def annotate_tolist(node: cst.CSTNode, ctx: RuleContext) -> PendingFix | None:
    """JIT206: `v = x.tolist()` -> `v: list[float] = x.tolist()`, and `for a in x.tolist():` -> the annotated list
    on the line before and `for a in values:`. Unsafe: `list[float]` is a guess (a 1-D floating tensor); TorchScript
    raises at run time for another rank or an integer dtype. Eager Python ignores the annotation."""
    statement = _statement(ctx)
    function = _function(ctx)
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


# -- annotations and declarations eager Python ignores -----------------------------------------------------------

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


def annotate_ignored_parameter(function, param: cst.Param, annotation: str, ctx: RuleContext) -> PendingFix | None:
    """JIT504: the ignored function's parameter gets the annotation the call's literal shows (`step: int`). Safe:
    eager Python ignores it, and the ignored body still runs in Python. Only for a function of the same file."""
    if function.module is not ctx.module or param.annotation is not None or param.star:
        return None
    from jitlint.targets.script.rules.types import annotate_param

    annotation = _builtin_generics(annotation)
    return PendingFix(f"annotate `{param.name.value}: {annotation}`", annotate_param(param, annotation, ctx))


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


def drop_class_annotation(annotation: cst.BaseExpression, cls: cst.ClassDef, ctx: RuleContext) -> PendingFix | None:
    """JIT608: drop the class-level `config: ModelConfig` that makes torch compile the class (a bare annotation
    does nothing when eager Python runs the class). Safe. Only for a bare annotation on its own line, not the last
    statement of the class body, when the blank lines after it hold no comment (they go with it)."""
    if not isinstance(cls.body, cst.IndentedBlock):
        return None
    body = list(cls.body.body)
    for index, statement in enumerate(body):
        if (isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1
                and isinstance(statement.body[0], cst.AnnAssign) and statement.body[0].annotation.annotation is annotation
                and statement.body[0].value is None):
            if index + 1 >= len(body):
                return None
            following = body[index + 1]
            if any(line.comment is not None for line in getattr(following, "leading_lines", ())):
                return None
            if isinstance(following, (cst.FunctionDef, cst.ClassDef)) and following.decorators:
                return None  # its position starts at `def`: the removal would take the decorators
            return PendingFix("drop the class-level annotation", [PendingEdit(statement, "", until=following)])
    return None


def drop_from_constants(name: str, cls: cst.ClassDef, ctx: RuleContext) -> PendingFix | None:
    """JIT605: `__constants__ = ["cfg"]` -> `__constants__ = []` for an attribute holding a dict or set (it stays a
    plain attribute, which TorchScript types from its value). Safe: `__constants__` means nothing to eager Python.
    Only for a list or tuple of string literals in the class's own body."""
    if not isinstance(cls.body, cst.IndentedBlock):
        return None
    for statement in cls.body.body:
        if not (isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1):
            continue
        small = statement.body[0]
        if not (isinstance(small, cst.Assign) and len(small.targets) == 1
                and isinstance(small.targets[0].target, cst.Name) and small.targets[0].target.value == "__constants__"
                and isinstance(small.value, (cst.List, cst.Tuple))):
            continue
        elements = small.value.elements
        if not all(isinstance(e, cst.Element) and isinstance(e.value, cst.SimpleString) for e in elements):
            return None
        kept = [ctx.code(e.value) for e in elements if e.value.evaluated_value != name]
        if len(kept) == len(elements):
            return None
        if isinstance(small.value, cst.List):
            text = "[" + ", ".join(kept) + "]"
        else:
            text = "(" + ", ".join(kept) + ("," if len(kept) == 1 else "") + ")"
        return PendingFix(f"drop `{name}` from `__constants__`", [PendingEdit(small.value, text)])
    return None


# -- JIT632: a decorator's wrapper without functools.wraps ---------------------------------------------------------

def wraps_the_method(decorator: cst.FunctionDef, wrapper: cst.FunctionDef, ctx: RuleContext) -> PendingFix | None:
    """`def wrapper(self, *args, **kwargs):` returned by a top-level decorator `def logged(func):` -> decorated
    `@functools.wraps(func)`, so that torch compiles the method itself. Unsafe: the scripted module skips whatever
    the wrapper adds around the call (eager Python still runs it), and the wrapper now carries the method's
    `__name__`, `__doc__` and signature. Only when the decorator takes the function as its one parameter, the
    wrapper is defined directly in its body, and `functools` can be imported next to the module's imports."""
    params = decorator.params
    if (len(params.params) != 1 or isinstance(params.star_arg, (cst.Param, cst.ParamStar)) or params.kwonly_params
            or params.star_kwarg is not None or params.posonly_params):
        return None
    if not isinstance(decorator.body, cst.IndentedBlock) or wrapper not in decorator.body.body:
        return None
    if decorator not in ctx.module.tree.body:
        return None
    name = next((local for local, target in ctx.module.imports.aliases.items() if target == "functools"), None)
    edits = []
    if name is None:
        body = ctx.module.tree.body
        imports = [s for s in body if isinstance(s, cst.SimpleStatementLine)
                   and all(isinstance(small, (cst.Import, cst.ImportFrom)) for small in s.body)]
        name = "functools"
        first = next((s for s in imports if not any(isinstance(small, cst.ImportFrom) and small.module is not None
                                                     and ctx.code(small.module) == "__future__" for small in s.body)), None)
        if first is None:
            return None
        edits.append(PendingEdit(first, "import functools\n", insert_before=True))
    indent = decorator.body.indent if decorator.body.indent is not None else ctx.module.tree.default_indent
    edits.append(PendingEdit(wrapper, f"@{name}.wraps({params.params[0].name.value})\n{indent}", insert_before=True))
    return PendingFix(f"decorate the wrapper with `@{name}.wraps(...)`", edits)
