"""FX type knowledge: which names of a file hold a torch.fx `GraphModule`, `Graph`, `Node`, `Interpreter`, ...

The FX1xx rules fire only on receivers whose FX type is known: without types, the same checks fired on other
libraries' `.kwargs`, `add_node` and AST nodes, in torch's own sources alone dozens of times. The sources of each
type:

- `GraphModule`: `torch.fx.symbolic_trace(...)`, `fx.GraphModule(...)`, `<Transformer>.transform()`,
  `torch.export.export(...).graph_module` / `.module()`, `make_fx(f)(...)`, the first parameter of a torch.compile
  backend `(gm, example_inputs)` or of `PassBase.call(self, graph_module)`, `<Interpreter>.module`, an annotation;
- `Graph`: `<GraphModule>.graph`, `<Node>.graph`, `fx.Graph()`, `<Tracer>.trace(m)`, an annotation;
- `Node`: iteration over `<Graph>.nodes` (also `reversed`, `list`, `enumerate` of it), `<Graph>.find_nodes(...)`,
  `<Node>.users`, `<Node>.all_input_nodes`, `<Node>.next` / `.prev`, the graph's node-creating methods, an element of
  a node list, a parameter annotated `fx.Node`, a call of a function of the file whose return annotation is one;
- for a module-level function of the file without annotations: each parameter has the type every call of it in the
  file passes, and a call of it has the type every one of its `return` values has (`return None` aside);
- `Interpreter`: `fx.Interpreter(gm)`, `fx.Transformer(gm)`, `ShapeProp(gm)`, an instance of a class of the file
  deriving from them, `self` inside such a class (`InterpreterSubclass`: its own attributes are unknown).

The table is per function and flow-insensitive: a name has a type when every binding of it in that function gives
the same type (a name rebound to something else has none). Names a function does not bind are looked up in the
enclosing functions, then at module level. Nothing here imports torch.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import libcst as cst

from jitlint.facts import Fact
from jitlint.names import dotted_name
from jitlint.walk import walk

# The FX types, by the name of the torch class (plus the collections of nodes).
GRAPH_MODULE = "GraphModule"
GRAPH = "Graph"
NODE = "Node"
NODE_LIST = "NodeList"  # `<Graph>.nodes`: torch's `_node_list` (not subscriptable, no list methods)
NODES = "Nodes"  # any other iterable of nodes: `list(g.nodes)`, `find_nodes(...)`, `n.users`, `all_input_nodes`
INTERPRETER = "Interpreter"
TRANSFORMER = "Transformer"
SHAPE_PROP = "ShapeProp"
INTERPRETER_SUBCLASS = "InterpreterSubclass"  # a class of the file deriving from Interpreter/Transformer, or its self
TRACER = "Tracer"
EXPORTED_PROGRAM = "ExportedProgram"
MAKE_FX = "make_fx(f)"  # the function `make_fx(f)` returns: calling it gives a GraphModule

INTERPRETERS = frozenset({INTERPRETER, TRANSFORMER, SHAPE_PROP, INTERPRETER_SUBCLASS})

_CONSTRUCTORS = {
    "torch.fx.symbolic_trace": GRAPH_MODULE,
    "torch.fx._symbolic_trace.symbolic_trace": GRAPH_MODULE,
    "torch.fx.GraphModule": GRAPH_MODULE,
    "torch.fx.graph_module.GraphModule": GRAPH_MODULE,
    "torch.fx.Graph": GRAPH,
    "torch.fx.graph.Graph": GRAPH,
    "torch.fx.Interpreter": INTERPRETER,
    "torch.fx.interpreter.Interpreter": INTERPRETER,
    "torch.fx.Transformer": TRANSFORMER,
    "torch.fx.interpreter.Transformer": TRANSFORMER,
    "torch.fx.passes.shape_prop.ShapeProp": SHAPE_PROP,
    "torch.fx.Tracer": TRACER,
    "torch.fx._symbolic_trace.Tracer": TRACER,
    "torch.export.export": EXPORTED_PROGRAM,
    "torch.fx.experimental.proxy_tensor.make_fx": MAKE_FX,
}
_INTERPRETER_BASES = frozenset(
    name for name, kind in _CONSTRUCTORS.items() if kind in (INTERPRETER, TRANSFORMER, SHAPE_PROP)
)
_ANNOTATIONS = {
    "torch.fx.Node": NODE,
    "torch.fx.node.Node": NODE,
    "torch.fx.Graph": GRAPH,
    "torch.fx.graph.Graph": GRAPH,
    "torch.fx.GraphModule": GRAPH_MODULE,
    "torch.fx.graph_module.GraphModule": GRAPH_MODULE,
    "torch.fx.Interpreter": INTERPRETER,
    "torch.fx.interpreter.Interpreter": INTERPRETER,
    "torch.fx.Transformer": TRANSFORMER,
    "torch.fx.interpreter.Transformer": TRANSFORMER,
}
# Methods of a Graph that create a node and return it.
NODE_CREATORS = frozenset(
    {"call_function", "call_module", "call_method", "create_node", "get_attr", "placeholder", "output", "node_copy"}
)
# What an attribute of a typed receiver holds.
_ATTRIBUTES = {
    GRAPH_MODULE: {"graph": GRAPH},
    GRAPH: {"nodes": NODE_LIST},
    NODE: {"graph": GRAPH, "next": NODE, "prev": NODE, "users": NODES, "all_input_nodes": NODES},
    INTERPRETER: {"module": GRAPH_MODULE},
    TRANSFORMER: {"module": GRAPH_MODULE},
    SHAPE_PROP: {"module": GRAPH_MODULE},
    INTERPRETER_SUBCLASS: {"module": GRAPH_MODULE},
    EXPORTED_PROGRAM: {"graph_module": GRAPH_MODULE, "graph": GRAPH},
}
# What a method of a typed receiver returns.
_METHODS = {
    GRAPH: {**{name: NODE for name in NODE_CREATORS}, "find_nodes": NODES, "output_node": NODE},
    TRACER: {"trace": GRAPH},
    TRANSFORMER: {"transform": GRAPH_MODULE},
    EXPORTED_PROGRAM: {"module": GRAPH_MODULE, "run_decompositions": EXPORTED_PROGRAM},
}
_COLLECTIONS = frozenset({NODE_LIST, NODES})
_TABLE = Path(__file__).resolve().parents[2] / "data" / "fx_api.json"


@lru_cache(maxsize=1)
def fx_api() -> dict:
    """The real attribute names of torch.fx's classes and of `torch.fx` / `torch.jit`, generated from torch 2.13 by
    scripts/extract_fx_api.py."""
    with _TABLE.open(encoding="utf-8") as handle:
        return json.load(handle)


# For an annotated parameter: the names that show the annotation is wrong (torch itself annotates Graph parameters
# `torch.fx.GraphModule` in places): attributes of another FX class that the annotated class lacks.
_ANNOTATION_CHECKED = {GRAPH_MODULE: "GraphModule", GRAPH: "Graph", NODE: "Node"}


def _contradicting(kind: str) -> frozenset[str]:
    classes = fx_api()["classes"]
    own = set(classes[_ANNOTATION_CHECKED[kind]])
    others = set().union(*(set(classes[name]) for key, name in _ANNOTATION_CHECKED.items() if key != kind))
    return frozenset(others - own)


@dataclass
class _Binding:
    # "expr" (the value), "elem" (an element of the value), "type" (a fixed type), "annotation" (a parameter's
    # annotated type), "unknown"
    kind: str
    value: cst.BaseExpression | str | None = None


@dataclass
class Scope:
    node: cst.CSTNode  # a FunctionDef, or the Module
    parent: "Scope | None"
    bindings: dict[str, list[_Binding]] = field(default_factory=dict)
    types: dict[str, str] = field(default_factory=dict)
    # `name.attr` read in this function, by name: checks that an annotation matches how the name is used
    attributes: dict[str, set[str]] = field(default_factory=dict)

    def bind(self, name: str, binding: _Binding) -> None:
        self.bindings.setdefault(name, []).append(binding)


class FxTypes:
    """The FX types of the names of one file, per function; `type_of(expr, function)` types an expression."""

    def __init__(self, tree: cst.Module, imports) -> None:
        self.imports = imports
        self.module_scope = Scope(tree, None)
        self.scopes: dict[int, Scope] = {id(tree): self.module_scope}
        self.interpreter_classes: set[str] = set()
        self.returns: dict[str, str] = {}  # module-level function name -> the FX type its annotation returns
        # Module-level functions without such an annotation: what they return, and where the file calls them
        # (their parameters' types come from the arguments; their return type from their `return` values).
        self.returned: dict[str, tuple[Scope, list[cst.BaseExpression]]] = {}
        self.call_sites: dict[str, list[tuple[cst.Call, Scope]]] = {}
        self._inferring: set[str] = set()
        _Collector(self).collect(tree)
        self._drop_contradicted_annotations()
        self._solve()

    # -- queries ---------------------------------------------------------------------------------------------
    def scope_of(self, function: cst.CSTNode | None) -> Scope:
        return self.scopes.get(id(function), self.module_scope) if function is not None else self.module_scope

    def name_type(self, name: str, scope: Scope) -> str | None:
        current: Scope | None = scope
        while current is not None:
            if name in current.bindings:
                return current.types.get(name)
            current = current.parent
        return None

    def type_of(self, expr: cst.BaseExpression, scope: Scope) -> str | None:
        if isinstance(expr, cst.Name):
            return self.name_type(expr.value, scope)
        if isinstance(expr, cst.Attribute):
            owner = self.type_of(expr.value, scope)
            if owner is not None:
                return _ATTRIBUTES.get(owner, {}).get(expr.attr.value)
            return None
        if isinstance(expr, cst.Call):
            return self._call_type(expr, scope)
        if isinstance(expr, cst.Subscript):
            owner = self.type_of(expr.value, scope)
            if owner == NODES and len(expr.slice) == 1 and isinstance(expr.slice[0].slice, cst.Index):
                return NODE
            return None
        if isinstance(expr, (cst.ListComp, cst.GeneratorExp)) and isinstance(expr.elt, cst.Name):
            comp = expr.for_in
            if comp.inner_for_in is None and isinstance(comp.target, cst.Name) and comp.target.value == expr.elt.value:
                if self.type_of(comp.iter, scope) in _COLLECTIONS:
                    return NODES
            return None
        if isinstance(expr, cst.NamedExpr):
            return self.type_of(expr.value, scope)
        return None

    def element_type(self, expr: cst.BaseExpression, scope: Scope) -> str | None:
        """The type of what iterating `expr` gives."""
        return NODE if self.type_of(expr, scope) in _COLLECTIONS else None

    def _call_type(self, call: cst.Call, scope: Scope) -> str | None:
        func = call.func
        if isinstance(func, cst.Attribute):
            owner = self.type_of(func.value, scope)
            if owner is not None:
                return _METHODS.get(owner, {}).get(func.attr.value)
        elif isinstance(func, cst.Name):
            local = self.name_type(func.value, scope)
            if local == MAKE_FX:
                return GRAPH_MODULE
            name = func.value
            if name in ("list", "reversed", "tuple", "sorted", "iter") and call.args:
                return NODES if self.type_of(call.args[0].value, scope) in _COLLECTIONS else None
            if name == "next" and call.args:
                inner = call.args[0].value
                if self.type_of(inner, scope) in _COLLECTIONS:
                    return NODE
            if name not in _bound_names(scope):
                if name in self.interpreter_classes:
                    return INTERPRETER_SUBCLASS
                if name in self.returns:
                    return self.returns[name]
                if name in self.returned:
                    return self._inferred_return(name)
        elif isinstance(func, cst.Call) and self._call_type(func, scope) == MAKE_FX:
            return GRAPH_MODULE
        qualified = self.imports.qualify(func)
        if qualified is not None:
            return _CONSTRUCTORS.get(qualified)
        return None

    def _inferred_return(self, name: str) -> str | None:
        """The FX type every `return` of a module-level function gives (`return None` aside), if one."""
        if name in self._inferring:
            return None
        self._inferring.add(name)
        try:
            scope, values = self.returned[name]
            kinds = {self.type_of(value, scope) for value in values
                     if not (isinstance(value, cst.Name) and value.value == "None")}
            return kinds.pop() if len(kinds) == 1 else None
        finally:
            self._inferring.discard(name)

    def argument_type(self, function: str, index: int, keyword: str) -> str | None:
        """The FX type every call of a module-level function in the file passes for one parameter, if one."""
        kinds = set()
        for call, scope in self.call_sites.get(function, ()):
            positional = [a for a in call.args if a.keyword is None and not a.star]
            if any(a.star for a in call.args):
                return None
            value = next((a.value for a in call.args if a.keyword is not None and a.keyword.value == keyword), None)
            if value is None and index < len(positional):
                value = positional[index].value
            if value is None:
                return None
            kinds.add(self.type_of(value, scope))
        return kinds.pop() if len(kinds) == 1 else None

    def annotation_type(self, annotation: cst.BaseExpression) -> str | None:
        if isinstance(annotation, cst.SimpleString):
            try:
                annotation = cst.parse_expression(annotation.evaluated_value)
            except Exception:
                return None
        if isinstance(annotation, cst.Subscript):  # Optional[Node]
            base = self.imports.qualify(annotation.value) or ""
            if base in ("typing.Optional",) and len(annotation.slice) == 1:
                inner = annotation.slice[0].slice
                if isinstance(inner, cst.Index):
                    return self.annotation_type(inner.value)
            return None
        if isinstance(annotation, cst.BinaryOperation) and isinstance(annotation.operator, cst.BitOr):
            for side, other in ((annotation.left, annotation.right), (annotation.right, annotation.left)):
                if isinstance(other, cst.Name) and other.value == "None":
                    return self.annotation_type(side)
            return None
        qualified = self.imports.qualify(annotation)
        return _ANNOTATIONS.get(qualified) if qualified else None

    def _drop_contradicted_annotations(self) -> None:
        """An annotated name used with another FX class's attributes (`graph: GraphModule` then
        `graph.erase_node(n)`, `graph.call_function(...)`) gets no type from its annotation: the code, not the annotation, says what it is."""
        for scope in self.scopes.values():
            for name, bindings in scope.bindings.items():
                used = scope.attributes.get(name)
                if not used:
                    continue
                for index, binding in enumerate(bindings):
                    # two names at least: one could be the very guess FX106 reports (`gm.lint()`)
                    if binding.kind == "annotation" and len(used & _contradicting(binding.value)) >= 2:
                        bindings[index] = _Binding("unknown")

    # -- solving ---------------------------------------------------------------------------------------------
    def _solve(self) -> None:
        for _ in range(8):
            changed = False
            for scope in self.scopes.values():
                for name, bindings in scope.bindings.items():
                    kinds = {self._binding_type(binding, scope) for binding in bindings}
                    new = kinds.pop() if len(kinds) == 1 else None
                    if new != scope.types.get(name):
                        changed = True
                        if new is None:
                            scope.types.pop(name, None)
                        else:
                            scope.types[name] = new
            if not changed:
                return

    def _binding_type(self, binding: _Binding, scope: Scope) -> str | None:
        if binding.kind in ("type", "annotation"):
            return binding.value  # type: ignore[return-value]
        if binding.kind == "expr":
            return self.type_of(binding.value, scope)  # type: ignore[arg-type]
        if binding.kind == "elem":
            return self.element_type(binding.value, scope)  # type: ignore[arg-type]
        if binding.kind == "arg":
            function, index, keyword = binding.value  # type: ignore[misc]
            return self.argument_type(function, index, keyword)
        return None


def _bound_names(scope: Scope) -> set[str]:
    names: set[str] = set()
    current: Scope | None = scope
    while current is not None and current.parent is not None:
        names.update(current.bindings)
        current = current.parent
    return names


class _Collector(cst.CSTVisitor):
    """Records every binding of every function (and of the module), with what it binds."""

    def __init__(self, types: FxTypes) -> None:
        self.types = types
        self.stack: list[Scope] = [types.module_scope]
        self.classes: list[cst.ClassDef] = []
        self.module_functions: set[str] = set()  # module-level functions whose types are inferred

    def collect(self, tree: cst.Module) -> None:
        for statement in tree.body:  # classes deriving from Interpreter, and typed helpers, are known up front
            if isinstance(statement, cst.ClassDef) and self._is_interpreter_class(statement):
                self.types.interpreter_classes.add(statement.name.value)
            elif isinstance(statement, cst.FunctionDef):
                kind = (self.types.annotation_type(statement.returns.annotation)
                        if statement.returns is not None else None)
                if kind is not None:
                    self.types.returns[statement.name.value] = kind
                else:
                    self.module_functions.add(statement.name.value)
        walk(tree, self)

    def _is_interpreter_class(self, node: cst.ClassDef) -> bool:
        for base in node.bases:
            qualified = self.types.imports.qualify(base.value)
            if qualified in _INTERPRETER_BASES:
                return True
            if isinstance(base.value, cst.Name) and base.value.value in self.types.interpreter_classes:
                return True
        return False

    @property
    def scope(self) -> Scope:
        return self.stack[-1]

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self.scope.bind(node.name.value, _Binding("unknown"))
        self.classes.append(node)

    def leave_ClassDef(self, original_node: cst.ClassDef) -> None:
        self.classes.pop()

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.scope.bind(node.name.value, _Binding("unknown"))
        scope = Scope(node, self.stack[-1])
        self.types.scopes[id(node)] = scope
        self.stack.append(scope)
        params = node.params
        positional = [*params.posonly_params, *params.params]
        method_of = self.classes[-1] if self.classes and self._directly_in_class(node) else None
        for index, param in enumerate([*positional, *params.kwonly_params]):
            kind = None
            if param.annotation is not None:
                kind = self.types.annotation_type(param.annotation.annotation)
                if kind in _ANNOTATION_CHECKED:
                    scope.bind(param.name.value, _Binding("annotation", kind))
                    continue
            if kind is None and index == 0 and method_of is not None and self._is_interpreter_class(method_of):
                if not _is_static(node):
                    kind = INTERPRETER_SUBCLASS
            if kind is None:
                kind = self._conventional(node, positional, param, method_of)
            if kind is None and self._inferred(node) and param.annotation is None:
                scope.bind(param.name.value, _Binding("arg", (node.name.value, index, param.name.value)))
                continue
            scope.bind(param.name.value, _Binding("type", kind) if kind else _Binding("unknown"))
        if self._inferred(node):
            self.types.returned[node.name.value] = (scope, [])
        for star in (params.star_arg, params.star_kwarg):
            if isinstance(star, cst.Param):
                scope.bind(star.name.value, _Binding("unknown"))

    def _inferred(self, node: cst.FunctionDef) -> bool:
        """A module-level function whose parameter and return types are inferred (from its calls and returns)."""
        return len(self.stack) == 2 and not self.classes and node.name.value in self.module_functions

    def visit_Return(self, node: cst.Return) -> None:
        scope = self.scope
        function = scope.node
        if (isinstance(function, cst.FunctionDef) and node.value is not None
                and self.types.returned.get(function.name.value, (None,))[0] is scope):
            self.types.returned[function.name.value][1].append(node.value)

    def visit_Call(self, node: cst.Call) -> None:
        if isinstance(node.func, cst.Name) and node.func.value in self.module_functions:
            self.types.call_sites.setdefault(node.func.value, []).append((node, self.scope))

    def _directly_in_class(self, node: cst.FunctionDef) -> bool:
        cls = self.classes[-1]
        return isinstance(cls.body, cst.IndentedBlock) and any(statement is node for statement in cls.body.body)

    def _conventional(self, node, positional, param, method_of) -> str | None:
        """A torch.compile backend `(gm, example_inputs)`; `PassBase.call(self, graph_module)`."""
        names = [p.name.value for p in positional]
        if len(names) >= 2 and names[1] == "example_inputs" and param is positional[0] and method_of is None:
            return GRAPH_MODULE
        if method_of is not None and node.name.value == "call" and len(positional) == 2 and param is positional[1]:
            for base in method_of.bases:
                qualified = self.types.imports.qualify(base.value) or ""
                if qualified.endswith("PassBase") and qualified.startswith("torch."):
                    return GRAPH_MODULE
        return None

    def leave_FunctionDef(self, original_node: cst.FunctionDef) -> None:
        self.stack.pop()

    def visit_Lambda(self, node: cst.Lambda) -> bool:
        return False

    def visit_Attribute(self, node: cst.Attribute) -> None:
        if isinstance(node.value, cst.Name):
            self.scope.attributes.setdefault(node.value.value, set()).add(node.attr.value)

    def _bind_target(self, target: cst.BaseExpression, binding: _Binding) -> None:
        if isinstance(target, cst.Name):
            self.scope.bind(target.value, binding)
        elif isinstance(target, (cst.Tuple, cst.List)):
            for element in target.elements:
                self._bind_target(element.value, _Binding("unknown"))
        elif isinstance(target, cst.StarredElement):
            self._bind_target(target.value, _Binding("unknown"))

    def visit_Assign(self, node: cst.Assign) -> None:
        for target in node.targets:
            self._bind_target(target.target, _Binding("expr", node.value))

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        kind = self.types.annotation_type(node.annotation.annotation)
        if kind is not None:
            self._bind_target(node.target, _Binding("type", kind))
        elif node.value is not None:
            self._bind_target(node.target, _Binding("expr", node.value))
        else:
            self._bind_target(node.target, _Binding("unknown"))

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        self._bind_target(node.target, _Binding("unknown"))

    def visit_NamedExpr(self, node: cst.NamedExpr) -> None:
        self._bind_target(node.target, _Binding("expr", node.value))

    def _bind_loop(self, target: cst.BaseExpression, iterable: cst.BaseExpression) -> None:
        # `for i, n in enumerate(g.nodes)`: `n` is an element
        if (
            isinstance(target, cst.Tuple)
            and len(target.elements) == 2
            and isinstance(iterable, cst.Call)
            and isinstance(iterable.func, cst.Name)
            and iterable.func.value == "enumerate"
            and iterable.args
        ):
            self._bind_target(target.elements[0].value, _Binding("unknown"))
            self._bind_target(target.elements[1].value, _Binding("elem", iterable.args[0].value))
            return
        self._bind_target(target, _Binding("elem", iterable))

    def visit_For(self, node: cst.For) -> None:
        self._bind_loop(node.target, node.iter)

    def visit_CompFor(self, node: cst.CompFor) -> None:
        self._bind_loop(node.target, node.iter)

    def visit_WithItem(self, node: cst.WithItem) -> None:
        if node.asname is not None:
            self._bind_target(node.asname.name, _Binding("unknown"))

    def visit_ExceptHandler(self, node: cst.ExceptHandler) -> None:
        if node.name is not None:
            self._bind_target(node.name.name, _Binding("unknown"))

    def visit_Import(self, node: cst.Import) -> None:
        if len(self.stack) > 1:
            for alias in node.names:
                bound = alias.asname.name if alias.asname else None
                name = bound.value if isinstance(bound, cst.Name) else (dotted_name(alias.name) or "").split(".")[0]
                if name:
                    self.scope.bind(name, _Binding("unknown"))

    def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
        if len(self.stack) > 1 and not isinstance(node.names, cst.ImportStar):
            for alias in node.names:
                bound = alias.asname.name if alias.asname else alias.name
                if isinstance(bound, cst.Name):
                    self.scope.bind(bound.value, _Binding("unknown"))

    def visit_Del(self, node: cst.Del) -> None:
        self._bind_target(node.target, _Binding("unknown"))


def _is_static(node: cst.FunctionDef) -> bool:
    return any(
        isinstance(d.decorator, cst.Name) and d.decorator.value in ("staticmethod", "classmethod")
        for d in node.decorators
    )


# -- what rules use -----------------------------------------------------------------------------------------------
class FileFxTypes(Fact):
    """The file's FX types, computed once per file and shared by the FX rules that read them."""

    per = "file"
    policy_dependent = False

    @classmethod
    def compute(cls, ctx, node: None) -> FxTypes:
        return FxTypes(ctx.module.tree, ctx.module.imports)


def fx_types(ctx) -> FxTypes:
    """The file's FX types (the rule must declare `FileFxTypes`)."""
    return ctx.fact(FileFxTypes)


def enclosing_function(ctx) -> cst.FunctionDef | None:
    return ctx.enclosing(cst.FunctionDef)


def type_of(ctx, expr: cst.BaseExpression) -> str | None:
    """The FX type of `expr` where the rule is visiting (its innermost enclosing function)."""
    types = fx_types(ctx)
    return types.type_of(expr, types.scope_of(enclosing_function(ctx)))


def file_mentions_fx(text: str | None) -> bool:
    return text is None or "fx" in text or "export" in text


FX_HINTS = ("fx", "export", "example_inputs")
