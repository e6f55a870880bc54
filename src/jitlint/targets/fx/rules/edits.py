"""FX108-FX115: graph edits whose order or bookkeeping is wrong: the insertion point, nodes that read themselves,
users changed while iterated, `boxed_run`'s cleared list, erasing a node that is still used, a GraphModule not
recompiled after its graph changed.

These rules read one function at a time in source order (a loop body once), over FX-typed receivers only."""

from __future__ import annotations

import libcst as cst

from jitlint.facts import Fact
from jitlint.facts.syntax import OneScope
from jitlint.rules.base import PendingEdit, PendingFix, RuleContext
from jitlint.targets.fx.fxtypes import GRAPH, GRAPH_MODULE, INTERPRETERS, NODE, NODE_CREATORS, fx_types, type_of
from jitlint.targets.fx.rules import FxPassRule
from jitlint.walk import walk

_INSERTING = ("inserting_after", "inserting_before")


def _is_inserting_call(node: cst.BaseExpression, ctx: RuleContext) -> bool:
    return (
        isinstance(node, cst.Call)
        and isinstance(node.func, cst.Attribute)
        and node.func.attr.value in _INSERTING
        and type_of(ctx, node.func.value) == GRAPH
    )


def _is_creator_call(node: cst.BaseExpression, ctx: RuleContext) -> bool:
    return (
        isinstance(node, cst.Call)
        and isinstance(node.func, cst.Attribute)
        and node.func.attr.value in NODE_CREATORS
        and type_of(ctx, node.func.value) == GRAPH
    )


def _node_arguments(call: cst.Call) -> list[cst.BaseExpression]:
    """The argument expressions of a node-creating call that become the node's inputs (not its target or op)."""
    func = call.func
    method = func.attr.value if isinstance(func, cst.Attribute) else ""
    skip = {"create_node": 2, "call_function": 1, "call_method": 1, "call_module": 1, "get_attr": 1}.get(method, 0)
    skip_keywords = {"op", "target", "the_function", "method_name", "module_name", "qualified_name", "name",
                     "type_expr"}
    values = []
    positional = 0
    for arg in call.args:
        if arg.keyword is None and not arg.star:
            positional += 1
            if positional <= skip:
                continue
        elif arg.keyword is not None and arg.keyword.value in skip_keywords:
            continue
        values.append(arg.value)
    return values


def _direct_inputs(call: cst.Call) -> set[str]:
    """Names passed directly as node inputs: `(n,)`, `(n, 1)`, `[n, m]`, `{'x': n}`, `args=(n,)`."""
    found: set[str] = set()

    def add(expr: cst.BaseExpression) -> None:
        if isinstance(expr, cst.Name):
            found.add(expr.value)
        elif isinstance(expr, (cst.Tuple, cst.List)):
            for element in expr.elements:
                add(element.value)
        elif isinstance(expr, cst.Dict):
            for element in expr.elements:
                if isinstance(element, cst.DictElement):
                    add(element.value)

    for value in _node_arguments(call):
        add(value)
    return found


def _function_or_module(ctx: RuleContext) -> cst.CSTNode:
    return ctx.enclosing(cst.FunctionDef) or ctx.module.tree


class _Ordered(cst.CSTVisitor):
    """Every call and assignment of one function body in source order (not inside nested functions)."""

    def __init__(self) -> None:
        self.events: list[cst.CSTNode] = []

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        return False

    def visit_ClassDef(self, node: cst.ClassDef) -> bool:
        return False

    def visit_Call(self, node: cst.Call) -> None:
        self.events.append(node)

    def visit_Assign(self, node: cst.Assign) -> None:
        self.events.append(node)

    def visit_Name(self, node: cst.Name) -> None:
        self.events.append(node)

    def visit_Attribute(self, node: cst.Attribute) -> None:
        self.events.append(node)


class OrderedEvents(Fact):
    """Every call, assignment, name and attribute of one function body (or of a module's top level, outside its
    functions and classes), in source order."""

    policy_dependent = False

    @classmethod
    def compute(cls, ctx: RuleContext, scope: cst.CSTNode) -> list[cst.CSTNode]:
        visitor = _Ordered()
        if isinstance(scope, cst.FunctionDef):
            walk(scope.body, visitor)
        else:
            for statement in scope.body:
                if not isinstance(statement, (cst.FunctionDef, cst.ClassDef)):
                    walk(statement, visitor)
        return visitor.events


def _method_call(event: cst.CSTNode, receiver: str | None, method: str | tuple[str, ...]) -> bool:
    methods = (method,) if isinstance(method, str) else method
    return (
        isinstance(event, cst.Call)
        and isinstance(event.func, cst.Attribute)
        and event.func.attr.value in methods
        and (receiver is None or (isinstance(event.func.value, cst.Name) and event.func.value.value == receiver))
    )


class InsertingPointMisuse(FxPassRule):
    code = "FX108"
    name = "inserting-point-misuse"
    severity = "warning"
    summary = ("`graph.inserting_after()` / `inserting_before()` without an anchor node, or not used as a context manager; "
               "a node created with no insertion point set, then given other nodes' uses")
    message = "pass the anchor node to `inserting_after` / `inserting_before` and use it in a `with` statement"
    text_hints = ("inserting_",)

    facts = (OrderedEvents,)

    def visit_Call(self, node: cst.Call, ctx: RuleContext) -> None:
        if _is_creator_call(node, ctx):
            self._created_at_the_end(node, ctx)
            return
        if not _is_inserting_call(node, ctx):
            return
        method = node.func.attr.value
        parent = ctx.parent
        if isinstance(parent, cst.Expr):
            ctx.report(node, f"`graph.{method}(...)` outside a `with` moves the insertion point for good: every later "
                             "node lands right there, in reverse order of creation; use `with graph."
                             f"{method}(anchor):`")
            return
        anchor = node.args[0].value if node.args else None
        if anchor is None or (isinstance(anchor, cst.Name) and anchor.value == "None"):
            where = "after the output node" if method == "inserting_after" else "before the placeholders"
            ctx.report(node, f"`graph.{method}()` without an anchor node inserts {where}, not where the pass means; "
                             "pass the anchor node")


    def _created_at_the_end(self, node: cst.Call, ctx: RuleContext) -> None:
        """A node created with no insertion point set lands after the graph's output; re-pointing other nodes'
        uses to it makes them read a node defined after them."""
        if node.func.attr.value not in _MID_GRAPH_CREATORS:
            return
        parent = ctx.parent
        if not (isinstance(parent, cst.Assign) and len(parent.targets) == 1
                and isinstance(parent.targets[0].target, cst.Name)):
            return
        new = parent.targets[0].target.value
        receiver = node.func.value
        if isinstance(receiver, cst.Name) and _is_parameter(receiver.value, ctx):
            return  # a graph handed over: the caller may have set its insertion point
        for ancestor in ctx.ancestors:
            if isinstance(ancestor, cst.With) and any(_is_inserting_call(item.item, ctx) for item in ancestor.items):
                return
        events = ctx.fact(OrderedEvents, _function_or_module(ctx))
        position = next((i for i, e in enumerate(events) if e is node), None)
        if position is None or any(_is_inserting_call(e, ctx) for e in events[:position]):
            return
        used = None
        for event in events[position + 1:]:
            if _method_call(event, None, ("prepend", "append")) and any(
                    isinstance(a.value, cst.Name) and a.value.value == new for a in event.args):
                return  # moved into place
            if _method_call(event, new, ("prepend", "append")):
                return
            if _method_call(event, None, ("replace_all_uses_with", "replace_input_with")) and any(
                    isinstance(a.value, cst.Name) and a.value.value == new and a.keyword is None for a in event.args):
                used = used or event
        if used is not None:
            ctx.report(node, f"`{new}` is created with no insertion point set, so it lands after the graph's output; "
                             "the nodes re-pointed to it then read a node defined after them (graph.lint() fails, "
                             "the generated code returns first); create it inside `with graph.inserting_after(anchor):`")


_MID_GRAPH_CREATORS = frozenset({"call_function", "call_method", "call_module", "create_node", "node_copy"})


def _with_body_statements(node: cst.With) -> list[cst.CSTNode]:
    body = node.body
    return list(body.body) if isinstance(body, cst.IndentedBlock) else [body]


class DependentNodesInOneInsertBlock(FxPassRule):
    code = "FX109"
    name = "dependent-nodes-in-one-insert"
    severity = "warning"
    summary = "two dependent nodes created in one `with graph.inserting_after(n):` block (they come out reversed)"
    message = "in one `inserting_after(n)` block every node goes right after `n`: a node that reads an earlier one ends up before it"
    text_hints = ("inserting_after",)

    def visit_With(self, node: cst.With, ctx: RuleContext) -> None:
        if len(node.items) != 1:
            return
        call = node.items[0].item
        if not (_is_inserting_call(call, ctx) and call.func.attr.value == "inserting_after" and call.args):
            return
        created: set[str] = set()
        rule = self

        class Block(OneScope):
            def visit_With(self, inner: cst.With) -> bool:
                return not any(_is_inserting_call(item.item, ctx) for item in inner.items)

            def visit_Assign(self, assign: cst.Assign) -> bool:
                if _is_creator_call(assign.value, ctx):
                    rule._check(assign.value, created, ctx)
                    for target in assign.targets:
                        if isinstance(target.target, cst.Name):
                            created.add(target.target.value)
                    return False
                for target in assign.targets:  # a name rebound to anything else is no longer a new node
                    if isinstance(target.target, cst.Name):
                        created.discard(target.target.value)
                return True

            def visit_Call(self, inner: cst.Call) -> None:
                if _is_creator_call(inner, ctx):
                    rule._check(inner, created, ctx)

        for statement in _with_body_statements(node):
            walk(statement, Block())

    def _check(self, call: cst.Call, created: set[str], ctx: RuleContext) -> None:
        reads = sorted(_direct_inputs(call) & created)
        if reads:
            ctx.report(call, f"this node reads `{reads[0]}`, created earlier in the same `inserting_after` block, but "
                             "is inserted before it (each node goes right after the anchor); use `with graph."
                             "inserting_before(anchor.next):` to keep creation order, or nest "
                             f"`with graph.inserting_after({reads[0]}):`")


class SelfReferencingReplacement(FxPassRule):
    code = "FX110"
    name = "self-referencing-replacement"
    severity = "warning"
    summary = "`n.replace_all_uses_with(new)` where `new` reads `n`: `new` ends up reading itself"
    message = "`new` reads this node, so replacing all its uses re-points `new` at itself"
    text_hints = ("replace_all_uses_with",)
    facts = (OrderedEvents,)

    def visit_Call(self, node: cst.Call, ctx: RuleContext) -> None:
        if not _method_call(node, None, "replace_all_uses_with") or not isinstance(node.func.value, cst.Name):
            return
        if not node.args or node.args[0].keyword is not None or not isinstance(node.args[0].value, cst.Name):
            return
        if any(a.keyword is not None and a.keyword.value == "delete_user_cb" for a in node.args) or len(
            [a for a in node.args if a.keyword is None]
        ) > 1:
            return
        old, new = node.func.value.value, node.args[0].value.value
        events = ctx.fact(OrderedEvents, _function_or_module(ctx))
        position = next((i for i, e in enumerate(events) if e is node), None)
        if position is None:
            return
        built_from_old = False
        for event in events[:position]:
            if isinstance(event, cst.Assign) and any(
                isinstance(t.target, cst.Name) and t.target.value == new for t in event.targets
            ):
                built_from_old = (_is_creator_call(event.value, ctx) and old in _direct_inputs(event.value)) or (
                    old in _helper_inputs(event.value, ctx))
        if not built_from_old:
            return
        for event in events[position + 1:]:  # the fix-up: `new.update_arg(0, old)`, `new.args = (old,)`, ...
            if _method_call(event, new, ("update_arg", "update_kwarg", "replace_input_with")):
                return
            if isinstance(event, cst.Assign) and any(
                isinstance(t.target, cst.Attribute) and t.target.attr.value in ("args", "kwargs")
                and isinstance(t.target.value, cst.Name) and t.target.value.value == new
                for t in event.targets
            ):
                return
        ctx.report(node, f"`{new}` was built from `{old}`, so `{old}.replace_all_uses_with({new})` also re-points "
                         f"`{new}` at itself (graph.lint() then fails); pass `delete_user_cb=lambda user: user is "
                         f"not {new}`")


def _helper_inputs(call: cst.BaseExpression, ctx: RuleContext) -> set[str]:
    """For a call of a function of this file that returns a node it creates (`def add_neg(graph, node): with
    graph.inserting_after(node): return graph.call_function(torch.neg, (node,))`): the names the call passes for
    the parameters that node reads directly."""
    if not isinstance(call, cst.Call) or not isinstance(call.func, cst.Name):
        return set()
    helper = next((s for s in ctx.module.tree.body if isinstance(s, cst.FunctionDef) and s.name.value == call.func.value),
                  None)
    if helper is None:
        return set()
    types = fx_types(ctx)
    scope = types.scope_of(helper)
    params = [p.name.value for p in (*helper.params.posonly_params, *helper.params.params)]
    read: set[str] = set()

    class Returns(cst.CSTVisitor):
        def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
            return node is helper

        def visit_Return(self, node: cst.Return) -> None:
            value = node.value
            if (isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute)
                    and value.func.attr.value in NODE_CREATORS and types.type_of(value.func.value, scope) == GRAPH):
                read.update(_direct_inputs(value) & set(params))

    walk(helper, Returns())
    passed: set[str] = set()
    positional = [a for a in call.args if a.keyword is None and not a.star]
    for index, name in enumerate(params):
        value = positional[index].value if index < len(positional) else next(
            (a.value for a in call.args if a.keyword is not None and a.keyword.value == name), None)
        if name in read and isinstance(value, cst.Name):
            passed.add(value.value)
    return passed


class UsersChangedWhileIterating(FxPassRule):
    code = "FX111"
    name = "users-changed-while-iterating"
    severity = "error"
    summary = "iterating `n.users` while re-pointing `n`'s uses (the dict changes during iteration)"
    message = "this loop changes `n.users` while iterating it; iterate `list(n.users)`"
    text_hints = ("users",)

    def visit_For(self, node: cst.For, ctx: RuleContext) -> None:
        iterable = node.iter
        if not (isinstance(iterable, cst.Attribute) and iterable.attr.value == "users"
                and isinstance(iterable.value, cst.Name) and type_of(ctx, iterable.value) == NODE):
            return
        if not isinstance(node.target, cst.Name):
            return
        owner, user = iterable.value.value, node.target.value
        changes = False
        breaks = False

        class Body(cst.CSTVisitor):
            def visit_For(self, inner: cst.For) -> bool:
                return True

            def visit_FunctionDef(self, inner: cst.FunctionDef) -> bool:
                return False

            def visit_Break(self, inner: cst.Break) -> None:
                nonlocal breaks
                breaks = True

            def visit_Return(self, inner: cst.Return) -> None:
                nonlocal breaks
                breaks = True

            def visit_Call(self, call: cst.Call) -> None:
                nonlocal changes
                func = call.func
                if not isinstance(func, cst.Attribute) or not isinstance(func.value, cst.Name):
                    return
                receiver, method = func.value.value, func.attr.value
                first = call.args[0].value if call.args else None
                first_name = first.value if isinstance(first, cst.Name) else None
                if receiver == user and method == "replace_input_with" and first_name == owner:
                    changes = True
                elif receiver == owner and method == "replace_all_uses_with":
                    changes = True
                elif method == "erase_node" and first_name == user:
                    changes = True

        walk(node.body, Body())
        if changes and not breaks:
            ctx.report(iterable, f"the loop re-points or erases `{owner}`'s users while iterating `{owner}.users`: "
                                 "RuntimeError (dictionary changed during iteration); iterate "
                                 f"`list({owner}.users)`")


def _is_boxed_run(node: cst.CSTNode, ctx: RuleContext) -> bool:
    return (
        isinstance(node, cst.Call)
        and isinstance(node.func, cst.Attribute)
        and node.func.attr.value == "boxed_run"
        and type_of(ctx, node.func.value) in INTERPRETERS
    )


class BoxedRunTuple(FxPassRule):
    code = "FX112"
    name = "boxed-run-tuple"
    severity = "error"
    summary = "`Interpreter.boxed_run` given a tuple (it clears its argument list)"
    fix = "safe"
    message = "`boxed_run` takes a list, which it clears; pass a list"
    text_hints = ("boxed_run",)

    def visit_Call(self, node: cst.Call, ctx: RuleContext) -> None:
        if not _is_boxed_run(node, ctx) or not node.args:
            return
        argument = node.args[0].value
        fix = None
        if isinstance(argument, cst.Tuple):
            items = ", ".join(ctx.code(element) if isinstance(element, cst.StarredElement) else ctx.code(element.value)
                              for element in argument.elements)
            fix = PendingFix("pass a list", [PendingEdit(argument, f"[{items}]")])
        elif isinstance(argument, cst.Call) and isinstance(argument.func, cst.Name) and argument.func.value == "tuple":
            if ctx.qualify(argument.func) != "builtins.tuple":
                return
            fix = PendingFix("pass a list", [PendingEdit(argument.func, "list")])
        else:
            return
        ctx.report(argument, "`boxed_run` clears its argument list when it is done (AttributeError: 'tuple' object "
                             "has no attribute 'clear'); pass a list", fix=fix)


class BoxedRunListReused(FxPassRule):
    code = "FX113"
    name = "boxed-run-list-reused"
    severity = "error"
    summary = "a list passed to `Interpreter.boxed_run` read again after the call (the interpreter emptied it)"
    message = "`boxed_run` empties the list it is given; pass a copy (`boxed_run(list(args))`)"
    text_hints = ("boxed_run",)
    facts = (OrderedEvents,)

    def visit_Call(self, node: cst.Call, ctx: RuleContext) -> None:
        if not _is_boxed_run(node, ctx) or not node.args or not isinstance(node.args[0].value, cst.Name):
            return
        name = node.args[0].value.value
        events = ctx.fact(OrderedEvents, _function_or_module(ctx))
        position = next((i for i, e in enumerate(events) if e is node), None)
        if position is None:
            return
        own = set(map(id, _subtree_names(node)))
        for event in events[position + 1:]:
            if isinstance(event, cst.Assign) and any(
                isinstance(t.target, cst.Name) and t.target.value == name for t in event.targets
            ):
                if not any(n.value == name for n in _subtree_names(event.value)):
                    return  # rebound first
            if isinstance(event, cst.Name) and event.value == name and id(event) not in own:
                if _is_assign_target(event, events):
                    return
                ctx.report(event, f"`{name}` is empty here: `boxed_run` cleared it; pass a copy "
                                  f"(`boxed_run(list({name}))`) to use it again")
                return


def _subtree_names(node: cst.CSTNode) -> list[cst.Name]:
    found: list[cst.Name] = []

    class Names(cst.CSTVisitor):
        def visit_Name(self, name: cst.Name) -> None:
            found.append(name)

    walk(node, Names())
    return found


def _is_assign_target(name: cst.Name, events: list[cst.CSTNode]) -> bool:
    return any(isinstance(e, cst.Assign) and any(t.target is name for t in e.targets) for e in events)


class EraseNodeWithUsers(FxPassRule):
    code = "FX114"
    name = "erase-node-with-users"
    severity = "error"
    summary = ("`graph.erase_node(n)` of a node that may still have users: before `n.replace_all_uses_with`, after a "
               "new node read `n`, or with nothing that re-points its users or checks there are none")
    message = "erase a node only once nothing uses it: `n.replace_all_uses_with(...)` first"
    text_hints = ("erase_node",)
    facts = (OrderedEvents,)

    def visit_Call(self, node: cst.Call, ctx: RuleContext) -> None:
        func = node.func
        if not (isinstance(func, cst.Attribute) and func.attr.value == "erase_node" and node.args):
            return
        if type_of(ctx, func.value) != GRAPH or not isinstance(node.args[0].value, cst.Name):
            return
        name = node.args[0].value.value
        events = ctx.fact(OrderedEvents, _function_or_module(ctx))
        position = next((i for i, e in enumerate(events) if e is node), None)
        if position is None:
            return
        read_by = None  # a node this function created with `name` as a direct input: `name` has that user
        for event in events[:position]:
            if _mentions_users_or_cleanup(event, name, ctx):
                read_by = None
                if not _is_assign_of(event, name):
                    return
            elif isinstance(event, cst.Assign) and _is_creator_call(event.value, ctx) and name in _direct_inputs(event.value):
                read_by = next((ctx.code(t.target) for t in event.targets), None)
            elif _is_creator_call(event, ctx) and name in _direct_inputs(event) and read_by is None:
                read_by = "a new node"
        replaced_later = any(
            _method_call(call, name, "replace_all_uses_with") for call in _calls_after_in_block(ctx)
        )
        if replaced_later:
            ctx.report(node, f"`{name}` is erased before its uses are replaced: erase_node raises RuntimeError while "
                             f"any node reads it; call `{name}.replace_all_uses_with(...)` first, then erase it")
        elif read_by is not None:
            ctx.report(node, f"`{name}` still has users ({read_by} reads it): erase_node raises RuntimeError; "
                             f"re-point them first (`{name}.replace_all_uses_with(new, delete_user_cb=...)`)")
        elif type_of(ctx, node.args[0].value) == NODE and not _is_parameter(name, ctx) and _found_in_graph(
                name, events[:position], ctx):
            # A node the pass found in the graph (a loop over its nodes, a lookup, a helper's result) and erases
            # with nothing before that re-points its users or checks there are none.
            ctx.report(node, f"nothing before this re-points `{name}`'s users or checks it has none: erase_node raises "
                             f"RuntimeError if anything still reads it; call `{name}.replace_all_uses_with(...)` first, "
                             f"or erase it only `if not {name}.users`")


def _found_in_graph(name: str, before: list[cst.CSTNode], ctx: RuleContext) -> bool:
    """Whether the node `name` holds was found among a graph's existing nodes (a loop over them, `next(...)` of them,
    a helper's result; not a node this code created, which has the users this code gave it, see above) because its
    target is a public torch op."""
    source = None
    for ancestor in reversed(ctx.ancestors):
        if isinstance(ancestor, (cst.For, cst.CompFor)) and isinstance(ancestor.target, cst.Name) \
                and ancestor.target.value == name:
            source = ancestor.iter
            break
    for event in before:
        if _is_assign_of(event, name):
            source = event.value
    if source is None or _is_creator_call(source, ctx):
        return False
    # What selected it: `.target` compared with a public torch op (which returns a value its users read), in the
    # tests around the erase, in the expression that found it, or in the helper that returned it. Internal ops
    # (`aten._assert_scalar`) and lookups without such a test may have no users: left alone.
    places: list[cst.CSTNode] = [source]
    places += [a.test for a in ctx.ancestors if isinstance(a, (cst.If, cst.While))]
    if isinstance(source, cst.Call) and isinstance(source.func, cst.Name):
        places += [s for s in ctx.module.tree.body if isinstance(s, cst.FunctionDef) and s.name.value == source.func.value]
    return any(_compares_target_with_public_op(place, ctx) for place in places)


def _compares_target_with_public_op(node: cst.CSTNode, ctx: RuleContext) -> bool:
    found = False

    class Comparisons(cst.CSTVisitor):
        def visit_Comparison(self, comparison: cst.Comparison) -> None:
            nonlocal found
            operands = [comparison.left, *(c.comparator for c in comparison.comparisons)]
            if not any(isinstance(o, cst.Attribute) and o.attr.value == "target" for o in operands):
                return
            for operand in operands:
                qualified = ctx.qualify(operand) or ""
                parts = qualified.split(".")
                if parts[0] != "torch" or len(parts) < 2:
                    continue
                op = parts[-2] if parts[-1] in ("default", "Tensor", "Scalar") and len(parts) > 2 else parts[-1]
                if not op.startswith("_"):
                    found = True

    walk(node, Comparisons())
    return found


def _is_parameter(name: str, ctx: RuleContext) -> bool:
    """A parameter of the enclosing function: a node its callers hand over (they may have cleaned it up)."""
    function = _function_or_module(ctx)
    if not isinstance(function, cst.FunctionDef):
        return False
    params = function.params
    return any(p.name.value == name for p in (*params.posonly_params, *params.params, *params.kwonly_params))


def _calls_after_in_block(ctx: RuleContext) -> list[cst.Call]:
    """The calls of the statements that follow the current one in its block (a later branch of an `if`, or a later
    iteration's code elsewhere in the loop, does not run after it)."""
    ancestors = ctx.ancestors
    for index in range(len(ancestors) - 2, -1, -1):
        block = ancestors[index]
        if isinstance(block, (cst.IndentedBlock, cst.Module)):
            statement = ancestors[index + 1]
            body = list(block.body)
            if statement not in body:
                return []
            calls: list[cst.Call] = []

            class Calls(cst.CSTVisitor):
                def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
                    return False

                def visit_Call(self, node: cst.Call) -> None:
                    calls.append(node)

            for later in body[body.index(statement) + 1:]:
                walk(later, Calls())
            return calls
    return []


def _is_assign_of(event: cst.CSTNode, name: str) -> bool:
    return isinstance(event, cst.Assign) and any(
        isinstance(t.target, cst.Name) and t.target.value == name for t in event.targets
    )


def _mentions_users_or_cleanup(event: cst.CSTNode, name: str, ctx: RuleContext) -> bool:
    """Something that makes sure `name` has no users before it is erased, or rebinds it."""
    if isinstance(event, cst.Attribute):  # `name.users`, `len(name.users)`, `for u in name.users`
        return event.attr.value == "users" and isinstance(event.value, cst.Name) and event.value.value == name
    if isinstance(event, cst.Call):
        func = event.func
        if isinstance(func, cst.Attribute):
            if func.attr.value == "replace_all_uses_with" and isinstance(func.value, cst.Name) and func.value.value == name:
                return True
            if func.attr.value == "eliminate_dead_code":
                return True
            if func.attr.value == "replace_input_with" and any(
                isinstance(a.value, cst.Name) and a.value.value == name for a in event.args
            ):
                return True
        return False
    return _is_assign_of(event, name)


_NODE_EDITS = frozenset({"replace_all_uses_with", "replace_input_with", "update_arg", "update_kwarg"})
_NODE_FIELDS = frozenset({"target", "args", "kwargs", "op"})


class GraphEditWithoutRecompile(FxPassRule):
    code = "FX115"
    name = "graph-edit-without-recompile"
    severity = "warning"
    summary = "a GraphModule called after its graph was edited, with no `recompile()` in between (it runs its old code)"
    message = "the GraphModule still runs its old code: call `gm.recompile()` after editing `gm.graph`"
    text_hints = ("graph",)
    facts = (OrderedEvents,)

    def visit_FunctionDef(self, node: cst.FunctionDef, ctx: RuleContext) -> None:
        self._check(node, ctx)

    def visit_Module(self, node: cst.Module, ctx: RuleContext) -> None:
        self._check(node, ctx)

    def _check(self, scope_node: cst.CSTNode, ctx: RuleContext) -> None:
        types = fx_types(ctx)
        scope = types.scope_of(scope_node if isinstance(scope_node, cst.FunctionDef) else None)
        modules = {name for name in scope.bindings if types.name_type(name, scope) == GRAPH_MODULE}
        if not modules:
            return
        graphs: dict[str, str] = {}  # a local name bound to `<gm>.graph` -> that gm
        for name, bindings in scope.bindings.items():
            if len(bindings) == 1 and bindings[0].kind == "expr":
                value = bindings[0].value
                if (isinstance(value, cst.Attribute) and value.attr.value == "graph"
                        and isinstance(value.value, cst.Name) and value.value.value in modules):
                    graphs[name] = value.value.value
        # whose graph a node edit changes: the one GraphModule's, unless the function also holds another graph
        other_graphs = [name for name in scope.bindings if types.name_type(name, scope) == GRAPH and name not in graphs]
        only = next(iter(modules)) if len(modules) == 1 and not other_graphs else None
        pending: dict[str, cst.CSTNode] = {}  # gm -> its first edit since it was last compiled
        for event in ctx.fact(OrderedEvents, scope_node):
            if isinstance(event, cst.Call):
                func = event.func
                for arg in event.args:  # handed on (`finish(gm)`, `Interpreter(gm)`): someone else may recompile
                    value = arg.value
                    if isinstance(value, cst.Attribute) and value.attr.value == "graph":
                        value = value.value
                    if isinstance(value, cst.Name):
                        pending.pop(graphs.get(value.value, value.value), None)
                if isinstance(func, cst.Name) and func.value in pending:
                    self._report(event, func.value, pending.pop(func.value), ctx)
                    continue
                if not isinstance(func, cst.Attribute):
                    continue
                owner = _graph_owner(func.value, graphs, modules)
                if owner is not None and func.attr.value in NODE_CREATORS | {"erase_node", "eliminate_dead_code"}:
                    pending.setdefault(owner, event)
                elif isinstance(func.value, cst.Name) and func.value.value in modules:
                    if func.attr.value == "recompile":
                        pending.pop(func.value.value, None)
                    elif func.attr.value == "forward" and func.value.value in pending:
                        self._report(event, func.value.value, pending.pop(func.value.value), ctx)
                elif only is not None and func.attr.value in _NODE_EDITS and types.type_of(func.value, scope) == NODE:
                    pending.setdefault(only, event)
            elif isinstance(event, cst.Assign):
                for target in event.targets:
                    target = target.target
                    if not isinstance(target, cst.Attribute) or not isinstance(target.value, cst.Name):
                        continue
                    if target.attr.value == "graph" and target.value.value in modules:
                        pending.pop(target.value.value, None)  # `gm.graph = g`: the setter recompiles
                    elif (only is not None and target.attr.value in _NODE_FIELDS
                          and types.type_of(target.value, scope) == NODE):
                        pending.setdefault(only, event)
            elif isinstance(event, cst.Attribute) and event.attr.value == "code":
                if isinstance(event.value, cst.Name) and event.value.value in pending:
                    self._report(event, event.value.value, pending.pop(event.value.value), ctx)

    def _report(self, use: cst.CSTNode, gm: str, edit: cst.CSTNode, ctx: RuleContext) -> None:
        line = ctx.module.tree.code_for_node(edit).strip().splitlines()[0]
        ctx.report(use, f"`{gm}` runs (or shows) the code generated before its graph was edited (`{line[:60]}`): "
                        f"call `{gm}.recompile()` after the edits")


def _graph_owner(expr: cst.BaseExpression, graphs: dict[str, str], modules: set[str]) -> str | None:
    if isinstance(expr, cst.Name):
        return graphs.get(expr.value)
    if (isinstance(expr, cst.Attribute) and expr.attr.value == "graph" and isinstance(expr.value, cst.Name)
            and expr.value.value in modules):
        return expr.value.value
    return None
