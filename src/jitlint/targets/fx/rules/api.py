"""FX103-FX107, FX116, FX117: torch.fx API used the way articles and generated code guess it: string op targets,
`target.name`, names that do not exist (checked against `data/fx_api.json`, generated from torch 2.13),
`torch.fx.wrap` inside a function, node-creating calls torch rejects at once, calls with the wrong kind of
argument."""

from __future__ import annotations

import difflib

import libcst as cst

from jitlint.facts import Fact
from jitlint.rules.base import PendingEdit, PendingFix, RuleContext
from jitlint.targets.fx.fxtypes import (
    GRAPH,
    GRAPH_MODULE,
    INTERPRETER,
    NODE,
    NODE_LIST,
    SHAPE_PROP,
    TRACER,
    TRANSFORMER,
    fx_api,
    type_of,
)
from jitlint.targets.fx.rules import FxPassRule
from jitlint.walk import walk
from jitlint.targets.fx.fxtypes import FX_HINTS

def _string_value(expr: cst.BaseExpression) -> str | None:
    if isinstance(expr, (cst.SimpleString, cst.ConcatenatedString)):
        value = expr.evaluated_value
        return value if isinstance(value, str) else None
    return None


def _argument(call: cst.Call, index: int, keyword: str) -> cst.BaseExpression | None:
    positional = [a for a in call.args if a.keyword is None and not a.star]
    if index < len(positional) and all(not a.star for a in call.args[: index + 1]):
        return positional[index].value
    return next((a.value for a in call.args if a.keyword is not None and a.keyword.value == keyword), None)


class StringFunctionTarget(FxPassRule):
    code = "FX103"
    name = "string-function-target"
    severity = "error"
    summary = "a string (`'aten::relu'`) as the target of a `call_function` node"
    message = "a call_function node's target must be a callable, not a string"
    text_hints = FX_HINTS

    def visit_Call(self, node: cst.Call, ctx: RuleContext) -> None:
        func = node.func
        if not isinstance(func, cst.Attribute) or func.attr.value not in ("call_function", "create_node"):
            return
        if type_of(ctx, func.value) != GRAPH:
            return
        if func.attr.value == "call_function":
            target = _argument(node, 0, "the_function")
        else:
            if _string_value(_argument(node, 0, "op") or cst.Name("x")) != "call_function":
                return
            target = _argument(node, 1, "target")
        value = _string_value(target) if target is not None else None
        if value is None:
            return
        hint = ""
        if "::" in value:
            namespace, _, op = value.partition("::")
            hint = f" (`torch.ops.{namespace}.{op}.default` in an aten graph, the torch function in a traced one)"
        ctx.report(target, f"a call_function node's target must be a callable, not the string {value!r}: torch raises "
                           f"ValueError when the node is created; pass the function{hint}")


_COMPARISONS = (cst.Equal, cst.NotEqual, cst.In, cst.NotIn, cst.Is, cst.IsNot)


def _op_strings(expr: cst.BaseExpression) -> list[cst.BaseExpression]:
    """`'aten::relu'`, or such strings in a tuple/list/set display."""
    if isinstance(expr, (cst.Tuple, cst.List, cst.Set)):
        return [e.value for e in expr.elements if "::" in (_string_value(e.value) or "")]
    return [expr] if "::" in (_string_value(expr) or "") else []


class TargetComparedWithOpString(FxPassRule):
    code = "FX104"
    name = "target-compared-with-op-string"
    severity = "warning"
    summary = "`node.target == 'aten::relu'`: an FX target is never such a string, the test is always False"
    message = "an FX node's target is never an `'ns::op'` string; compare with the function or OpOverload itself"
    text_hints = ("::",)

    def visit_Comparison(self, node: cst.Comparison, ctx: RuleContext) -> None:
        left = node.left
        for target in node.comparisons:
            if not isinstance(target.operator, _COMPARISONS):
                left = target.comparator
                continue
            for side, other in ((left, target.comparator), (target.comparator, left)):
                if _is_node_target(side, ctx):
                    for string in _op_strings(other):
                        value = _string_value(string)
                        namespace, _, op = (value or "").partition("::")
                        ctx.report(string, f"`node.target` is never the string {value!r} (call_function targets "
                                           f"are callables such as `torch.ops.{namespace}.{op}.default`, call_method "
                                           "and call_module targets are plain names): this test is always False")
            left = target.comparator


def _is_node_target(expr: cst.BaseExpression, ctx: RuleContext) -> bool:
    return isinstance(expr, cst.Attribute) and expr.attr.value == "target" and type_of(ctx, expr.value) == NODE


class TargetNameAttribute(FxPassRule):
    code = "FX105"
    name = "target-name-attribute"
    severity = "error"
    summary = "`node.target.name` not called: AttributeError on function and string targets, a bound method on OpOverloads"
    message = "`node.target` has no `name` attribute"
    text_hints = FX_HINTS

    def visit_Attribute(self, node: cst.Attribute, ctx: RuleContext) -> None:
        if node.attr.value != "name" or not _is_node_target(node.value, ctx):
            return
        parent = ctx.parent
        if isinstance(parent, cst.Call) and parent.func is node:
            return  # `n.target.name()` on an OpOverload: the operator's schema name
        ctx.report(node, "`node.target.name`: a function or string target has no `name` (AttributeError), and on an "
                         "aten OpOverload it is a method, so comparing it is always False; use "
                         "`torch.fx.node._get_qualified_name(node.target)`, `node.target.name()` for an OpOverload, "
                         "or compare `node.target` with the function itself")


# Advice for the names articles and generated code guess (names that FX never had); any other unknown name gets the
# closest real one.
_DID_YOU_MEAN = {
    GRAPH: {
        "insert_node": "`with graph.inserting_after(anchor): graph.create_node(...)` (to move an existing node: "
                       "`anchor.append(node)`)",
        "add_node": "`with graph.inserting_after(anchor): graph.create_node(...)`",
        "remove_node": "`graph.erase_node(node)`",
        "delete_node": "`graph.erase_node(node)`",
        "replace_node": "`old.replace_all_uses_with(new)`, then `graph.erase_node(old)`",
        "insert_after": "`with graph.inserting_after(anchor): ...`",
        "insert_before": "`with graph.inserting_before(anchor): ...`",
        "get_node": "`graph.find_nodes(op=..., target=...)` or a loop over `graph.nodes`",
        "find_node": "`graph.find_nodes(op=..., target=...)`",
        "topological_sort": "`torch.fx.passes.tools_common.legalize_graph(gm)`",
        "dead_code_elimination": "`graph.eliminate_dead_code()`",
        "recompile": "`gm.recompile()` on the GraphModule that owns the graph",
    },
    NODE: {
        "replace_all_uses": "`node.replace_all_uses_with(new)`",
        "replace_with": "`node.replace_all_uses_with(new)`",
        "replace_uses_with": "`node.replace_all_uses_with(new)`",
        "replace_input": "`user.replace_input_with(old, new)`",
        "remove": "`node.graph.erase_node(node)`",
        "erase": "`node.graph.erase_node(node)`",
        "delete": "`node.graph.erase_node(node)`",
        "inputs": "`node.all_input_nodes`",
        "input_nodes": "`node.all_input_nodes`",
        "outputs": "`node.users`",
        "set_arg": "`node.update_arg(i, v)`",
        "insert_before": "`node.prepend(new)`",
        "insert_after": "`node.append(new)`",
        "shape": "`node.meta['val'].shape` (export/make_fx graphs) or `node.meta['tensor_meta'].shape` (after ShapeProp)",
        "dtype": "`node.meta['val'].dtype` or `node.meta['tensor_meta'].dtype`",
        "val": "`node.meta['val']`",
        "value": "`node.meta['val']`",
        "kind": "`node.op` (`kind()` belongs to TorchScript's graph nodes)",
        "inputsAt": "`node.args[i]` (`inputsAt` belongs to TorchScript's graph nodes)",
    },
    GRAPH_MODULE: {
        "recompile_graph": "`gm.recompile()`",
        "lint": "`gm.graph.lint()`",
        "insert_node": "`with gm.graph.inserting_after(anchor): gm.graph.create_node(...)`",
        "erase_node": "`gm.graph.erase_node(node)`",
        "nodes": "`gm.graph.nodes`",
    },
    NODE_LIST: {
        "remove": "`graph.erase_node(node)`",
        "append": "the graph's node-creating methods inside `with graph.inserting_after(anchor):`",
        "insert": "the graph's node-creating methods inside `with graph.inserting_before(anchor):`",
        "extend": "the graph's node-creating methods inside `with graph.inserting_after(anchor):`",
        "index": "`list(graph.nodes).index(node)`",
    },
    "torch.fx": {
        "Target": "`torch.fx.node.Target`",
        "Argument": "`torch.fx.node.Argument`",
        "trace": "`torch.fx.symbolic_trace`",
        "export": "`torch.export.export`",
        "Pass": "`torch.fx.passes.infra.pass_base.PassBase`",
        "GraphPass": "`torch.fx.passes.infra.pass_base.PassBase`",
        "PassManager": "`torch.fx.passes.infra.pass_manager.PassManager`",
    },
    "torch.jit": {
        "optimize_for_speed": "`torch.jit.optimize_for_inference(torch.jit.script(m))` (deprecated, like all of "
                              "TorchScript: `torch.compile` is the successor)",
        "optimize": "`torch.jit.optimize_for_inference(torch.jit.script(m))` or `torch.jit.freeze`",
    },
}
# The classes whose every attribute is known (a GraphModule also holds the traced model's submodules and
# attributes, so only the guessed names above are checked on it).
_CLOSED = {GRAPH: "Graph", NODE: "Node", NODE_LIST: "NodeList", INTERPRETER: "Interpreter",
           TRANSFORMER: "Transformer", SHAPE_PROP: "ShapeProp", TRACER: "Tracer"}
_OWNER_WORDS = {GRAPH: "a torch.fx Graph", NODE: "a torch.fx Node", NODE_LIST: "`graph.nodes`",
                INTERPRETER: "a torch.fx Interpreter", TRANSFORMER: "a torch.fx Transformer",
                SHAPE_PROP: "ShapeProp", TRACER: "a torch.fx Tracer", GRAPH_MODULE: "a GraphModule"}


def _advice(owner: str, name: str, known: list[str]) -> str:
    advice = _DID_YOU_MEAN.get(owner, {}).get(name)
    if advice is None:
        close = difflib.get_close_matches(name, [k for k in known if not k.startswith("__")], n=1, cutoff=0.8)
        advice = f"`{close[0]}`" if close else ""
    return f"; did you mean {advice}?" if advice else ""


class AssignedAttributes(Fact):
    """Attribute names a file assigns on anything (`node.my_flag = ...`): reading them later is the file's own
    convention, not an invented API name. Also names the file spells as strings (`hasattr(node, "x")`)."""

    per = "file"
    policy_dependent = False

    @classmethod
    def compute(cls, ctx: RuleContext, node: None) -> set[str]:
        names: set[str] = set()

        class Targets(cst.CSTVisitor):
            def _add(self, target: cst.BaseExpression) -> None:
                if isinstance(target, cst.Attribute):
                    names.add(target.attr.value)
                elif isinstance(target, (cst.Tuple, cst.List)):
                    for element in target.elements:
                        self._add(element.value)

            def visit_AssignTarget(self, node: cst.AssignTarget) -> None:
                self._add(node.target)

            def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
                self._add(node.target)

            def visit_AugAssign(self, node: cst.AugAssign) -> None:
                self._add(node.target)

            def visit_SimpleString(self, node: cst.SimpleString) -> None:
                value = node.evaluated_value
                if isinstance(value, str) and value.isidentifier():
                    names.add(value)

        walk(ctx.module.tree, Targets())
        return names


_GUARD_ERRORS = frozenset({"ImportError", "ModuleNotFoundError", "AttributeError", "Exception", "BaseException"})


def _guarded(name: str, ctx: RuleContext) -> bool:
    """Version-compatibility code: inside a `try` whose handler catches the ImportError/AttributeError, or a name the
    file also spells as a string (`hasattr(torch.jit, "name")`)."""
    if name in ctx.fact(AssignedAttributes):
        return True
    for index, ancestor in enumerate(ctx.ancestors[:-1]):
        if isinstance(ancestor, cst.Try) and ctx.ancestors[index + 1] is ancestor.body:
            for handler in ancestor.handlers:
                caught = handler.type
                names = [e.value for e in caught.elements] if isinstance(caught, cst.Tuple) else [caught]
                if caught is None or any(
                    (n.attr.value if isinstance(n, cst.Attribute) else getattr(n, "value", None)) in _GUARD_ERRORS
                    for n in names
                ):
                    return True
    return False


def _is_store(node: cst.Attribute, ctx: RuleContext) -> bool:
    parent = ctx.parent
    if isinstance(parent, cst.AssignTarget) and parent.target is node:
        return True
    if isinstance(parent, (cst.AnnAssign, cst.AugAssign)) and parent.target is node:
        return True
    return isinstance(parent, cst.Del) and parent.target is node


class InventedFxApi(FxPassRule):
    code = "FX106"
    name = "invented-fx-api"
    severity = "error"
    summary = "a name torch.fx / torch.jit do not have (`graph.insert_node`, `torch.fx.Target`, `g.nodes[0]`, ...)"
    fix = "safe"
    message = "this torch.fx / torch.jit name does not exist in torch 2.13"
    text_hints = ("fx", "jit", "export", "example_inputs")
    facts = (AssignedAttributes,)

    def visit_Attribute(self, node: cst.Attribute, ctx: RuleContext) -> None:
        name = node.attr.value
        if _is_store(node, ctx):
            return
        module = ctx.qualify(node.value)
        if module in ("torch.fx", "torch.jit"):
            known = fx_api()["modules"][module]
            if name not in known and not _guarded(name, ctx):
                fix = None
                if module == "torch.fx" and name in ("Target", "Argument"):
                    fix = PendingFix(f"use `torch.fx.node.{name}`",
                                     [PendingEdit(node, f"{ctx.code(node.value)}.node.{name}")])
                ctx.report(node.attr, f"`{module}` has no attribute `{name}` in torch 2.13{_advice(module, name, known)}",
                           fix=fix)
            return
        owner = type_of(ctx, node.value)
        if owner is None:
            return
        if owner == GRAPH_MODULE:
            parent = ctx.parent
            if name in _DID_YOU_MEAN[GRAPH_MODULE] and name not in fx_api()["classes"]["GraphModule"] and (
                isinstance(parent, cst.Call) and parent.func is node
            ):
                ctx.report(node.attr, f"a GraphModule has no method `{name}`{_advice(owner, name, [])}")
            return
        table = _CLOSED.get(owner)
        if table is None:
            return
        known = fx_api()["classes"][table]
        if name in known or name in ctx.fact(AssignedAttributes):
            return
        # FX objects take attributes a project sets elsewhere (`node.sharding_spec = ...` in another file): only
        # the commonly guessed names and near misses of real ones (typos) are reported.
        advice = _advice(owner, name, known)
        if advice:
            ctx.report(node.attr, f"{_OWNER_WORDS[owner]} has no attribute `{name}` in torch 2.13{advice}")

    def visit_Subscript(self, node: cst.Subscript, ctx: RuleContext) -> None:
        if type_of(ctx, node.value) == NODE_LIST:
            ctx.report(node, "`graph.nodes` cannot be indexed (TypeError: '_node_list' object is not subscriptable); "
                             "use `next(iter(graph.nodes))` for the first node or `list(graph.nodes)[i]`")

    def visit_ImportFrom(self, node: cst.ImportFrom, ctx: RuleContext) -> None:
        if node.relative or node.module is None or isinstance(node.names, cst.ImportStar):
            return
        module = ctx.code(node.module)
        if module not in ("torch.fx", "torch.jit"):
            return
        known = fx_api()["modules"][module]
        missing = [a for a in node.names if isinstance(a.name, cst.Name) and a.name.value not in known
                   and not _guarded(a.name.value, ctx)]
        for alias in missing:
            name = alias.name.value
            fix = None
            if module == "torch.fx" and len(missing) == len(node.names) and all(
                a.name.value in ("Target", "Argument") for a in missing
            ):
                fix = PendingFix("import it from `torch.fx.node`", [PendingEdit(node.module, "torch.fx.node")])
            ctx.report(alias, f"cannot import `{name}` from `{module}` in torch 2.13{_advice(module, name, known)}",
                       fix=fix)


class FxWrapNotAtModuleScope(FxPassRule):
    code = "FX107"
    name = "fx-wrap-not-at-module-scope"
    severity = "error"
    summary = "`torch.fx.wrap` called inside a function or class body"
    message = "`torch.fx.wrap` must be called at the top level of a module"
    text_hints = ("wrap",)

    def _inside_body(self, ctx: RuleContext) -> bool:
        ancestors = ctx.ancestors
        for index, ancestor in enumerate(ancestors[:-1]):
            if isinstance(ancestor, (cst.FunctionDef, cst.ClassDef)) and ancestors[index + 1] is ancestor.body:
                return True
        return False

    def visit_Call(self, node: cst.Call, ctx: RuleContext) -> None:
        if ctx.qualify(node.func) in ("torch.fx.wrap", "torch.fx._symbolic_trace.wrap") and self._inside_body(ctx):
            ctx.report(node, "`torch.fx.wrap(...)` inside a function or class raises NotImplementedError; call it at "
                             "module level (`torch.fx.wrap('f')` after the def, or `@torch.fx.wrap` on a top-level def)")

    def visit_Decorator(self, node: cst.Decorator, ctx: RuleContext) -> None:
        if ctx.qualify(node.decorator) in ("torch.fx.wrap", "torch.fx._symbolic_trace.wrap") and self._inside_body(ctx):
            ctx.report(node.decorator, "`@torch.fx.wrap` on a function defined inside a function or class raises "
                                       "NotImplementedError; define the function at module level")


_LEGAL_OPS = ("placeholder", "call_method", "call_module", "call_function", "get_attr", "output", "root")
# Where each node-creating method of a Graph takes its op, target and args (index, keyword).
_CREATOR_SIGNATURES = {
    "create_node": {"op": (0, "op"), "target": (1, "target"), "args": (2, "args")},
    "call_function": {"target": (0, "the_function"), "args": (1, "args")},
    "call_method": {"target": (0, "method_name"), "args": (1, "args")},
    "call_module": {"target": (0, "module_name"), "args": (1, "args")},
    "get_attr": {"target": (0, "qualified_name")},
}
_NAMED_TARGET_OPS = ("call_method", "call_module", "get_attr")  # their targets are names (str)


class InvalidNodeCreation(FxPassRule):
    code = "FX116"
    name = "invalid-node-creation"
    severity = "error"
    summary = ("a node created with arguments torch rejects at once: an unknown op, args that are not a tuple, or a "
               "callable target for `call_method`/`call_module`/`get_attr`")
    message = "torch rejects this node when it is created"
    text_hints = FX_HINTS

    def visit_Call(self, node: cst.Call, ctx: RuleContext) -> None:
        func = node.func
        if not isinstance(func, cst.Attribute) or func.attr.value not in _CREATOR_SIGNATURES:
            return
        if type_of(ctx, func.value) != GRAPH:
            return
        method = func.attr.value
        signature = _CREATOR_SIGNATURES[method]
        op = method
        if "op" in signature:
            op_expr = _argument(node, *signature["op"])
            op = _string_value(op_expr) if op_expr is not None else None
            if op is not None and op not in _LEGAL_OPS:
                ctx.report(op_expr, f"{op!r} is not a node op (AssertionError: op is not in _legal_ops); use one of "
                                    "'call_function', 'call_method', 'call_module', 'get_attr', 'placeholder', "
                                    "'output'")
                return
        target = _argument(node, *signature["target"]) if "target" in signature else None
        if op in _NAMED_TARGET_OPS and target is not None and _string_value(target) is None and ctx.qualify(target):
            ctx.report(target, f"a {op} node's target is a name (a str): torch rejects `{ctx.code(target)}` when the "
                               f"node is created; pass {'the method name' if op == 'call_method' else 'its qualified name'}"
                               " as a string, or use `call_function` for a function")
            return
        args = _argument(node, *signature["args"]) if "args" in signature else None
        if args is not None and (isinstance(args, (cst.List, cst.ListComp)) or type_of(ctx, args) == NODE):
            ctx.report(args, "a node's args must be a tuple (AssertionError: args must be a tuple); write "
                             f"`({ctx.code(args)},)`" if type_of(ctx, args) == NODE else
                             "a node's args must be a tuple (AssertionError: args must be a tuple): pass a tuple")


class FxCallMisuse(FxPassRule):
    code = "FX117"
    name = "fx-call-misuse"
    severity = "error"
    summary = ("an FX API called the way it is often guessed: example inputs to `symbolic_trace`, a list to "
               "`Interpreter.run`, a `Graph` called like a module")
    message = "this torch.fx call fails in torch 2.13"
    text_hints = ("fx", "Interpreter", "symbolic_trace", "Tracer")

    def visit_Call(self, node: cst.Call, ctx: RuleContext) -> None:
        func = node.func
        qualified = ctx.qualify(func) or ""
        if qualified in ("torch.fx.symbolic_trace", "torch.fx._symbolic_trace.symbolic_trace"):
            positional = [a for a in node.args if a.keyword is None and not a.star]
            if len(positional) > 1 and _not_a_dict(positional[1].value, ctx):
                ctx.report(positional[1], "symbolic_trace takes no example inputs: its second parameter is "
                                          "`concrete_args`, a dict of parameter names to values; tracing is "
                                          "symbolic, drop the inputs")
            return
        if isinstance(func, cst.Attribute) and func.attr.value == "run" and type_of(ctx, func.value) in (
                INTERPRETER, TRANSFORMER, SHAPE_PROP):
            positional = [a for a in node.args if a.keyword is None]
            if len(positional) == 1 and not positional[0].star and isinstance(positional[0].value, cst.List):
                ctx.report(node, "`Interpreter.run` takes the inputs as separate arguments, not a list: write "
                                 f"`run(*{ctx.code(positional[0].value)})`, or `boxed_run` for a list")
            return
        if type_of(ctx, func) == GRAPH:
            ctx.report(node, "a Graph is not callable: build a module from it, `fx.GraphModule(root, graph)`, and "
                             "call that")


def _not_a_dict(expr: cst.BaseExpression, ctx: RuleContext) -> bool:
    """An argument that certainly is no dict: a tensor made by torch, a tuple or list display, a number."""
    if isinstance(expr, (cst.Tuple, cst.List, cst.Integer, cst.Float)):
        return True
    if isinstance(expr, cst.Call):
        qualified = ctx.qualify(expr.func) or ""
        return qualified.startswith("torch.") and qualified.rpartition(".")[2][:1].islower()
    return False
