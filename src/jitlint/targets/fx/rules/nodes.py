"""FX101-FX102: editing a torch.fx `Node` the way torch forbids: mutating its argument containers in place, building
one by hand."""

from __future__ import annotations

import libcst as cst

from jitlint.rules.base import PendingEdit, PendingFix, RuleContext
from jitlint.targets.fx.fxtypes import FX_HINTS, NODE, enclosing_function, type_of
from jitlint.targets.fx.rules import FxPassRule
from jitlint.walk import walk

# Methods that mutate a dict (`kwargs`) or a list (a list inside `args`) in place.
_DICT_MUTATORS = frozenset({"update", "pop", "popitem", "setdefault", "clear", "__setitem__", "__delitem__"})
_LIST_MUTATORS = frozenset({"append", "extend", "insert", "remove", "pop", "clear", "sort", "reverse",
                            "__setitem__", "__delitem__", "__iadd__"})


def node_container(expr: cst.BaseExpression, ctx: RuleContext) -> tuple[str, cst.BaseExpression, int] | None:
    """For `<Node>.args`, `<Node>.kwargs[...]`, `<Node>.args[0][1]`: ("args" or "kwargs", the node expression, how
    many subscripts deep `expr` is below the attribute)."""
    depth = 0
    while isinstance(expr, cst.Subscript):
        expr = expr.value
        depth += 1
    if isinstance(expr, cst.Attribute) and expr.attr.value in ("args", "kwargs") and type_of(ctx, expr.value) == NODE:
        return expr.attr.value, expr.value, depth
    return None


def _simple(expr: cst.BaseExpression) -> bool:
    """Evaluating it has no side effects and does not depend on evaluation order (a name, an attribute chain, a
    literal): moving it before the assigned value keeps the meaning."""
    if isinstance(expr, cst.Name):
        return True
    if isinstance(expr, cst.Attribute):
        return _simple(expr.value)
    if isinstance(expr, cst.UnaryOperation) and isinstance(expr.operator, cst.Minus):
        return _simple(expr.expression)
    return isinstance(expr, (cst.Integer, cst.SimpleString))


class NodeArgsMutated(FxPassRule):
    code = "FX101"
    name = "node-args-mutated"
    severity = "error"
    summary = "in-place edit of `node.args` / `node.kwargs` (item assignment, `update`, `pop`, `del`, `.append`)"
    fix = "safe"
    message = "`node.args` and `node.kwargs` are immutable; use `node.update_arg` / `node.update_kwarg` or assign a new tuple/dict"
    text_hints = FX_HINTS

    def _check_target(self, target: cst.BaseExpression, statement: cst.CSTNode, ctx: RuleContext, value=None) -> None:
        if not isinstance(target, cst.Subscript):
            return
        found = node_container(target, ctx)
        if found is None:
            return
        attribute, node_expr, depth = found
        what = "tuple" if attribute == "args" and depth == 1 else "container"
        fix = None
        if depth == 1 and value is not None and len(target.slice) == 1 and isinstance(target.slice[0].slice, cst.Index):
            key = target.slice[0].slice.value
            if _simple(node_expr) and _simple(key):
                method = "update_arg" if attribute == "args" else "update_kwarg"
                call = f"{ctx.code(node_expr)}.{method}({ctx.code(key)}, {ctx.code(value)})"
                fix = PendingFix(f"use `{method}`", [PendingEdit(statement, call)])
        if attribute == "args":
            text = (f"`node.args` is an immutable {what}: item assignment raises TypeError; use "
                    "`node.update_arg(i, v)` or assign a new tuple to `node.args`")
        else:
            text = ("`node.kwargs` is an immutable dict: item assignment raises TypeError; use "
                    "`node.update_kwarg(k, v)` or assign a new dict to `node.kwargs`")
        ctx.report(target, text, fix=fix)

    def visit_Assign(self, node: cst.Assign, ctx: RuleContext) -> None:
        single = len(node.targets) == 1
        for target in node.targets:
            self._check_target(target.target, node, ctx, node.value if single else None)

    def visit_AugAssign(self, node: cst.AugAssign, ctx: RuleContext) -> None:
        self._check_target(node.target, node, ctx)  # `n.args += (x,)` is an Attribute target: fine

    def visit_AnnAssign(self, node: cst.AnnAssign, ctx: RuleContext) -> None:
        if node.value is not None:
            self._check_target(node.target, node, ctx)

    def visit_Del(self, node: cst.Del, ctx: RuleContext) -> None:
        targets = [e.value for e in node.target.elements] if isinstance(node.target, cst.Tuple) else [node.target]
        for target in targets:
            if isinstance(target, cst.Subscript) and node_container(target, ctx) is not None:
                ctx.report(target, "`del` on `node.args` / `node.kwargs` raises TypeError (they are immutable); "
                                   "assign a new tuple/dict without the entry")

    def visit_Call(self, node: cst.Call, ctx: RuleContext) -> None:
        func = node.func
        if not isinstance(func, cst.Attribute):
            return
        found = node_container(func.value, ctx)
        if found is None:
            return
        attribute, _node_expr, depth = found
        method = func.attr.value
        if attribute == "kwargs" and depth == 0 and method in _DICT_MUTATORS:
            ctx.report(node, f"`node.kwargs.{method}(...)` raises TypeError (`node.kwargs` is an immutable dict); "
                             "copy it (`kw = dict(node.kwargs)`), change the copy and assign it to `node.kwargs`")
        elif depth >= 1 and method in _LIST_MUTATORS:
            ctx.report(node, f"`.{method}(...)` on a list inside a node's arguments raises TypeError (it is an "
                             "immutable list); build a new list and set it with `node.update_arg(i, new_list)`")


def _node_constructor(ctx: RuleContext, func: cst.BaseExpression) -> bool:
    return ctx.qualify(func) in ("torch.fx.Node", "torch.fx.node.Node")


def _inserted_later(call: cst.Call, ctx: RuleContext) -> bool:
    """`n = Node(...)` followed, in the same function, by `<x>._insert(n)`, `<x>.append(n)` or `<x>.prepend(n)`."""
    parent = ctx.parent
    if not (isinstance(parent, cst.Assign) and len(parent.targets) == 1 and isinstance(parent.targets[0].target, cst.Name)):
        return False
    name = parent.targets[0].target.value
    function = enclosing_function(ctx)
    if function is None:
        return False
    return any(
        isinstance(c.func, cst.Attribute) and c.func.attr.value in ("_insert", "append", "prepend")
        and any(isinstance(a.value, cst.Name) and a.value.value == name for a in c.args)
        for c in _calls(function)
    )


def _argument_value(call: cst.Call, index: int, keyword: str) -> cst.BaseExpression | None:
    positional = [a for a in call.args if a.keyword is None and not a.star]
    if index < len(positional):
        return positional[index].value
    return next((a.value for a in call.args if a.keyword is not None and a.keyword.value == keyword), None)


def _calls(root: cst.CSTNode) -> list[cst.Call]:
    found: list[cst.Call] = []

    class Calls(cst.CSTVisitor):
        def visit_Call(self, node: cst.Call) -> None:
            found.append(node)

    walk(root, Calls())
    return found


# Node(graph, name, op, target, args, kwargs, return_type=None)
_NODE_PARAMS = ("graph", "name", "op", "target", "args", "kwargs", "return_type")


class HandBuiltNode(FxPassRule):
    code = "FX102"
    name = "hand-built-node"
    severity = "error"
    summary = "`fx.Node(...)` built by hand instead of with the graph's node-creating methods"
    message = ("build nodes with the graph's methods (`with g.inserting_after(anchor): g.call_function(fn, args)`), "
               "not `fx.Node(...)`")
    text_hints = ("Node",)

    def visit_Call(self, node: cst.Call, ctx: RuleContext) -> None:
        if not _node_constructor(ctx, node.func):
            return
        positional = [a for a in node.args if a.keyword is None and a.star == ""]
        keywords = {a.keyword.value for a in node.args if a.keyword is not None}
        starred = any(a.star for a in node.args)
        given = set(_NODE_PARAMS[: len(positional)]) | keywords
        missing = [p for p in _NODE_PARAMS[:6] if p not in given]
        if missing and not starred:
            ctx.report(node, f"`fx.Node(...)` raises TypeError here (missing {', '.join(missing)}): build nodes with "
                             "the graph's methods, `with g.inserting_after(anchor): g.call_function(fn, args)`")
            return
        if _inserted_later(node, ctx):
            return  # what `Graph.create_node` itself does: build the node, then put it in the list
        inputs = _argument_value(node, 4, "args")
        if isinstance(inputs, cst.Tuple) and not inputs.elements:
            return  # reads no node, so it joins no node's users (the graph's own root sentinel)
        ctx.report(node, "a node built with `fx.Node(...)` is not in its graph's node list (yet it is already "
                         "among its inputs' users): `graph.lint()` fails; build nodes with the graph's methods, "
                         "`with g.inserting_after(anchor): g.call_function(fn, args)`")
