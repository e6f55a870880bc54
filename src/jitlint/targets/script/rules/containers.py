"""JIT3xx: indexing, slicing and reversing module containers (ModuleList, Sequential, ModuleDict, ...).

TorchScript unrolls loops over module containers and resolves each index at compile time, so an index must be a
literal (or a `Final`/`__constants__` attribute, which torch inlines).
"""

from __future__ import annotations

import libcst as cst

from jitlint.facts.syntax import assigned_names, names_in
from jitlint.facts.torch_api import INDEXED_BY_INT, INDEXED_BY_STR
from jitlint.rules.base import PendingEdit, PendingFix, RuleContext
from jitlint.targets.script.members import is_load, self_attribute_load
from jitlint.targets.script.rewrite import class_of, compiled_function, loop_jumps
from jitlint.targets.script.literals import is_int_literal, is_str_literal
from jitlint.targets.script.policy import constant_attribute
from jitlint.targets.script.rules import ScriptRule
from jitlint.walk import walk


def _container(node: cst.BaseExpression, ctx: RuleContext, kinds: frozenset[str]) -> tuple[str, str] | None:
    """(attribute name, kind) when `node` is `self.<attr>` holding only containers of `kinds`."""
    found = ctx.self_attribute(node)
    if found is None:
        return None
    name, info = found
    if not info.kinds or not info.kinds <= kinds:
        return None
    return name, sorted(info.kinds)[0]


def _single_index(node: cst.Subscript) -> cst.BaseExpression | None:
    if len(node.slice) != 1 or not isinstance(node.slice[0].slice, cst.Index):
        return None
    return node.slice[0].slice.value


def _is_constant(index: cst.BaseExpression, ctx: RuleContext) -> bool:
    """A `Final` / `__constants__` attribute (inlined by torch), or a module-level name, which is a different
    error (a global Python value) that another rule reports."""
    found = ctx.self_attribute(index)
    if found is not None and constant_attribute(found[0], ctx):
        return True
    if isinstance(index, cst.Name):
        imports = ctx.module.imports
        return index.value in imports.local_definitions or index.value in imports.aliases
    return False


class _LiteralIndexRule(ScriptRule):
    """A container torch indexes at compile time: only a literal (or an inlined constant) will do."""

    kinds: frozenset[str]
    literal_kind: str
    hint: str

    @staticmethod
    def is_literal(index: cst.BaseExpression) -> bool:
        raise NotImplementedError

    def visit_Subscript(self, node: cst.Subscript, ctx: RuleContext) -> None:
        container = _container(node.value, ctx, self.kinds)
        index = _single_index(node)
        if container is None or index is None or self.is_literal(index) or _is_constant(index, ctx):
            return
        if not is_load(ctx):
            return
        typed = self.typed_by_annotation(node, ctx)
        if typed is True:
            return
        name, kind = container
        if isinstance(typed, str):  # typed by an interface that an element does not implement
            ctx.report(node, typed)
            return
        ctx.report(
            node,
            f"`self.{name}` is an nn.{kind}; TorchScript only indexes it with {self.literal_kind}. "
            + self.hint.format(name=name),
            fix=self.build_fix(node, index, ctx),
        )

    def build_fix(self, node: cst.Subscript, index: cst.BaseExpression, ctx: RuleContext) -> PendingFix | None:
        return None

    def typed_by_annotation(self, node: cst.Subscript, ctx: RuleContext) -> bool | str:
        """True when an annotation lets torch index at run time; a message when it cannot after all."""
        return False


def _annotation_of_value(node: cst.BaseExpression, ctx: RuleContext) -> cst.BaseExpression | None:
    """The type `node` is annotated with where it is used: `v: T = node`, or `torch.jit.annotate(T, node)`."""
    parent = ctx.parent
    if isinstance(parent, cst.AnnAssign) and parent.value is node:
        return parent.annotation.annotation
    if isinstance(parent, cst.Arg) and len(ctx.ancestors) >= 3:
        call = ctx.ancestors[-3]
        if (
            isinstance(call, cst.Call)
            and len(call.args) == 2
            and call.args[1] is parent
            and parent.keyword is None
            and ctx.qualify(call.func) == "torch.jit.annotate"
        ):
            return call.args[0].value
    return None


_MODULE_CONTAINERS = frozenset({"ModuleList", "Sequential"})


def _is_interface(cls) -> bool:
    imports = cls.module.imports
    for decorator in cls.node.decorators:
        expr = decorator.decorator.func if isinstance(decorator.decorator, cst.Call) else decorator.decorator
        if imports.qualify(expr) == "torch.jit.interface":
            return True
    return False


def _elements(info, ctx: RuleContext) -> list:
    """The project classes of the elements `__init__` puts in a container, when its only value there is
    `nn.ModuleList([A(), B()])` or `nn.Sequential(A(), B())` (else nothing is known)."""
    if len(info.init_values) != 1:
        return []
    value, imports = info.init_values[0].node, info.init_values[0].imports
    if not isinstance(value, cst.Call):
        return []
    kind = (imports.qualify(value.func) or "").rsplit(".", 1)[-1]
    if kind == "ModuleList" and len(value.args) == 1 and isinstance(value.args[0].value, cst.List):
        items = [element.value for element in value.args[0].value.elements if isinstance(element, cst.Element)]
    elif kind == "Sequential" and not any(arg.keyword or arg.star for arg in value.args):
        items = [arg.value for arg in value.args]
    else:
        return []
    classes = []
    for item in items:
        cls = ctx.project.resolve_class(imports.qualify(item.func)) if isinstance(item, cst.Call) else None
        if cls is not None:
            classes.append(cls)
    return classes


def _not_implemented(element, interface, ctx: RuleContext) -> str | None:
    """Why `element` certainly fails torch's interface check, or None. Only what is certain: a method of the
    interface the element does not have, parameters of other names or number, or a parameter the interface types
    `Any` that the element types otherwise (torch needs each interface parameter type to be a subtype of the
    element's, and only `Any` is a subtype of `Any`)."""
    for name, method in interface.methods.items():
        mine = ctx.project.find_method(element, name)
        if mine is None:
            if _bases_all_known(element, ctx):
                return f"it has no method `{name}`"
            continue  # it may inherit the method from a class outside the project
        theirs_params = _params(method.node)
        mine_params = _params(mine.node)
        if mine_params is None or theirs_params is None:
            continue
        if [p.name.value for p in theirs_params] != [p.name.value for p in mine_params]:
            return f"`{name}` takes other parameters"
        for theirs, ours in zip(theirs_params, mine_params):
            # A plain type name (`torch.Tensor`, `int`) is never a supertype of `Any`; `Optional[Any]` could be.
            narrow = element.module.imports.qualify(ours.annotation.annotation) if ours.annotation else None
            if (
                theirs.annotation is not None
                and interface.module.imports.qualify(theirs.annotation.annotation) == "typing.Any"
                and narrow is not None
                and narrow not in ("typing.Any", "builtins.object")
            ):
                return f"`{name}` types `{ours.name.value}` more narrowly than `Any`"
    return None


def _bases_all_known(cls, ctx: RuleContext) -> bool:
    """Every base of `cls` and of its project bases is a project class or `nn.Module` itself."""
    for current in ctx.project.mro(cls):
        for base in current.base_names:
            if base not in ("torch.nn.Module", "torch.nn.modules.module.Module") and (
                ctx.project.resolve_class(base) is None
            ):
                return False
    return True


def _params(function: cst.FunctionDef) -> list[cst.Param] | None:
    """The parameters after `self`; None with `*args`/`**kwargs` or keyword-only parameters (not compared)."""
    params = function.params
    if params.star_arg is not cst.MaybeSentinel.DEFAULT and params.star_arg is not None or params.star_kwarg:
        return None
    if params.kwonly_params:
        return None
    return [*params.posonly_params, *params.params][1:]


class _IterateInstead(cst.CSTTransformer):
    """`self.layers[i]` -> `layer` inside the loop body; counts every other use of `i`."""

    def __init__(self, container: cst.BaseExpression, index: str, element: str) -> None:
        self.container = container
        self.index = index
        self.element = element
        self.other_uses = 0

    def _is_target(self, node: cst.Subscript) -> bool:
        value = _single_index(node)
        return (
            isinstance(value, cst.Name) and value.value == self.index and node.value.deep_equals(self.container)
        )

    def visit_Subscript(self, node: cst.Subscript) -> bool:
        return not self._is_target(node)

    def leave_Subscript(self, original: cst.Subscript, updated: cst.BaseExpression) -> cst.BaseExpression:
        return cst.Name(self.element) if self._is_target(original) else updated

    def visit_Name(self, node: cst.Name) -> None:
        if node.value == self.index:
            self.other_uses += 1


class ModuleListIndexVariable(_LiteralIndexRule):
    code = "JIT301"
    name = "modulelist-index-variable"
    severity = "error"
    summary = "`ModuleList`/`Sequential`/`ParameterList` indexed with anything but an integer literal"
    fix = "safe"
    message = "module container indexed with a non-literal"
    kinds = INDEXED_BY_INT
    literal_kind = "an integer literal"
    hint = "Iterate instead: `for layer in self.{name}:` (or `enumerate(self.{name})`)"
    is_literal = staticmethod(is_int_literal)

    def typed_by_annotation(self, node: cst.Subscript, ctx: RuleContext) -> bool | str:
        """`v: SomeInterface = self.layers[i]`: TorchScript indexes a ModuleList or Sequential at run time when the
        element's type is annotated with a class of the project (an `@torch.jit.interface` every element
        implements, usually). An element of a project class that plainly does not implement the interface (see
        `_not_implemented`) makes torch reject the line all the same: then the message says why."""
        container = _container(node.value, ctx, _MODULE_CONTAINERS)
        if container is None:
            return False
        annotation = _annotation_of_value(node, ctx)
        interface = ctx.project.resolve_class(ctx.qualify(annotation)) if annotation is not None else None
        if interface is None:
            return False
        if not _is_interface(interface):
            return True
        infos = [ctx.project.attributes(owner).get(container[0]) for owner in ctx.function.owners]
        for element in [element for info in infos if info is not None for element in _elements(info, ctx)]:
            why = _not_implemented(element, interface, ctx)
            if why is not None:
                quoted = "does not have method" if why.startswith("it has no method") else (
                    "is not compatible with interface")
                return (f"`self.{container[0]}` holds a `{element.name}`, which does not implement the interface "
                        f"`{interface.name}` this index is annotated with ({why}), so TorchScript cannot index it "
                        f"at run time ('{quoted}'); make `{element.name}` match the interface")
        return True

    def build_fix(self, node: cst.Subscript, index: cst.BaseExpression, ctx: RuleContext) -> PendingFix | None:
        """`for i in range(len(self.layers)): ... self.layers[i] ...` -> `for layer in self.layers:`, when `i`
        serves only to index that container (then the loops are the same)."""
        loop = ctx.enclosing(cst.For)
        if loop is None or not isinstance(index, cst.Name) or not isinstance(loop.target, cst.Name):
            return None
        if loop.target.value != index.value or loop.orelse is not None or not _is_range_len_of(loop.iter, node.value, ctx):
            return None
        function = ctx.function.info.node
        element = next(n for n in ("layer", "module", "block", "layer_") if n not in assigned_names(function))
        transformer = _IterateInstead(node.value, index.value, element)
        body = loop.body.visit(transformer)
        if transformer.other_uses:  # `i` is used for something else too: the loops would differ
            return None
        new_loop = loop.with_changes(target=cst.Name(element), iter=node.value, body=body)
        content = ctx.statement_code(loop, new_loop, ctx.indent_of(loop))
        return PendingFix(f"iterate `for {element} in {ctx.code(node.value)}:`", [PendingEdit(loop, content)])


def _is_range_len_of(iterable: cst.BaseExpression, container: cst.BaseExpression, ctx: RuleContext) -> bool:
    """`range(len(<container>))`."""
    if not (isinstance(iterable, cst.Call) and ctx.qualify(iterable.func) == "builtins.range" and len(iterable.args) == 1):
        return False
    inner = iterable.args[0].value
    return (
        isinstance(inner, cst.Call)
        and ctx.qualify(inner.func) == "builtins.len"
        and len(inner.args) == 1
        and inner.args[0].value.deep_equals(container)
    )


class ModuleDictIndexVariable(_LiteralIndexRule):
    code = "JIT302"
    name = "moduledict-index-variable"
    severity = "error"
    summary = "`ModuleDict`/`ParameterDict` indexed with anything but a string literal"
    message = "ModuleDict indexed with a non-literal"
    kinds = INDEXED_BY_STR
    literal_kind = "a string literal"
    hint = "Iterate with `for key, value in self.{name}.items():` and compare keys"
    is_literal = staticmethod(is_str_literal)


class ModuleListReversed(ScriptRule):
    code = "JIT303"
    name = "modulelist-reversed"
    severity = "error"
    summary = "`reversed()` of a module container"
    message = "`reversed()` of a module container"

    def visit_Call(self, node: cst.Call, ctx: RuleContext) -> None:
        if ctx.qualify(node.func) != "builtins.reversed" or len(node.args) != 1:
            return
        argument = node.args[0].value
        container = _container(argument, ctx, frozenset({"ModuleList", "Sequential"}))
        if container is None and isinstance(argument, cst.Call) and isinstance(argument.func, cst.Attribute):
            if argument.func.attr.value in ("values", "items"):
                container = _container(argument.func.value, ctx, frozenset({"ModuleDict"}))
        if container is None:
            return
        name, kind = container
        ctx.report(
            node,
            f"TorchScript cannot `reversed()` an nn.{kind} (`self.{name}`); build a reversed container in "
            f"`__init__`, e.g. `nn.ModuleList(list(self.{name})[::-1])`",
        )


class ModuleListSlice(ScriptRule):
    code = "JIT304"
    name = "modulelist-slice"
    severity = "error"
    summary = "a slice of a module container that is iterated or called"
    fix = "safe"
    message = "slice of a module container called or iterated"

    def visit_Subscript(self, node: cst.Subscript, ctx: RuleContext) -> None:
        if len(node.slice) != 1 or not isinstance(node.slice[0].slice, cst.Slice):
            return
        container = _container(node.value, ctx, frozenset({"ModuleList", "Sequential"}))
        if container is None:
            return
        # The slice itself compiles (`len(self.layers[1:])` scripts, and so does a loop over it that only reads
        # attributes of its modules); calling its elements does not. Torch points at the call.
        parent = ctx.parent
        if isinstance(parent, cst.Call) and parent.func is node:
            where = node
        elif isinstance(parent, cst.For) and parent.iter is node:
            where = _first_call_of(parent.target, parent.body)
        elif isinstance(parent, cst.CompFor) and parent.iter is node:
            comprehension = ctx.enclosing(cst.ListComp, cst.SetComp, cst.GeneratorExp, cst.DictComp)
            element = getattr(comprehension, "elt", None) or getattr(comprehension, "value", None)
            where = _first_call_of(parent.target, element) if element is not None else None
        else:
            where = None
        if where is None:
            return
        name, kind = container
        ctx.report(
            where,
            f"TorchScript cannot call the modules of a slice of an nn.{kind} (`self.{name}[...]`); iterate "
            f"`enumerate(self.{name})` and skip by index, or build the sub-container in `__init__`",
            fix=enumerate_and_skip(node, ctx),
        )


def _first_call_of(target: cst.BaseExpression, scope: cst.CSTNode) -> cst.Name | None:
    """The callee of the first `name(...)` in `scope` that calls the loop variable `target` (a plain name)."""
    if not isinstance(target, cst.Name):
        return None
    found: list[cst.Name] = []

    class Calls(cst.CSTVisitor):
        def visit_Call(self, node: cst.Call) -> bool:
            if not found and isinstance(node.func, cst.Name) and node.func.value == target.value:
                found.append(node.func)
            return not found

    walk(scope, Calls())
    return found[0] if found else None


class PlainListOfModules(ScriptRule):
    code = "JIT305"
    name = "plain-list-of-modules"
    severity = "error"
    summary = "a plain list or dict of modules read by compiled code"
    fix = "unsafe"
    message = "a plain list or dict of modules used in compiled code"

    def visit_Attribute(self, node: cst.Attribute, ctx: RuleContext) -> None:
        found = self_attribute_load(node, ctx)
        if found is None:
            return
        name, info = found
        if info.kinds & {"list-of-modules", "dict-of-modules"} and not info.kinds & set(INDEXED_BY_INT | INDEXED_BY_STR):
            python_type, container = ("dict", "nn.ModuleDict") if "dict-of-modules" in info.kinds else ("list", "nn.ModuleList")
            ctx.report(node, f"`self.{name}` is a plain Python {python_type} of modules, which TorchScript cannot "
                             f"type; wrap it in `{container}(...)` in `__init__` (that also registers the parameters)",
                       fix=wrap_module_list(name, ctx) if python_type == "list" else None)


class GetattrNonLiteral(ScriptRule):
    code = "JIT306"
    name = "getattr-nonliteral"
    severity = "error"
    summary = "`getattr()` with a computed name"
    message = "`getattr()` with a computed name is not supported by TorchScript; its name must be a string literal"

    def visit_Call(self, node: cst.Call, ctx: RuleContext) -> None:
        if ctx.qualify(node.func) == "builtins.getattr" and len(node.args) >= 2 and not is_str_literal(node.args[1].value):
            ctx.report(node)


class SequentialMultiArg(ScriptRule):
    code = "JIT307"
    name = "sequential-multi-arg"
    severity = "error"
    summary = "an `nn.Sequential` called with several arguments"
    message = "nn.Sequential called with more than one argument"

    def visit_Call(self, node: cst.Call, ctx: RuleContext) -> None:
        container = _container(node.func, ctx, frozenset({"Sequential"}))
        if container is None or len(node.args) <= 1:
            return
        # A project subclass of nn.Sequential with its own forward (timm's SequentialAppendList) takes what it says.
        for constructor in ctx.self_attribute(node.func)[1].constructors:
            cls = ctx.project.resolve_class(constructor)
            if cls is not None and ctx.project.find_method(cls, "forward") is not None:
                return
        ctx.report(node, f"`self.{container[0]}` is an nn.Sequential, whose forward takes one input; torch "
                         "fails inside container.py with no line in your code. Use an nn.ModuleList and call "
                         "each block with both arguments")


def _iterates_module_container(iterable: cst.BaseExpression, ctx: RuleContext) -> bool:
    kinds = frozenset({"ModuleList", "Sequential", "ModuleDict"})
    if _container(iterable, ctx, kinds) is not None:
        return True
    if isinstance(iterable, cst.Call):
        if ctx.qualify(iterable.func) in ("builtins.enumerate", "builtins.zip"):
            return any(_iterates_module_container(arg.value, ctx) for arg in iterable.args)
        func = iterable.func
        if isinstance(func, cst.Attribute) and func.attr.value in ("items", "values", "keys"):
            return _container(func.value, ctx, frozenset({"ModuleDict"})) is not None
    return False


class ModuleListBreakContinue(ScriptRule):
    code = "JIT308"
    name = "modulelist-break-continue"
    severity = "error"
    summary = "`break`/`continue` in a loop over a module container or a tuple display"
    message = (
        "`break`/`continue` in a loop over a module container is not supported: TorchScript unrolls that loop; "
        "guard the body with an `if` instead"
    )

    def _check(self, node, ctx: RuleContext) -> None:
        for ancestor in reversed(ctx.ancestors[:-1]):
            if isinstance(ancestor, (cst.FunctionDef, cst.While)):
                return
            if isinstance(ancestor, cst.For):
                if _iterates_module_container(ancestor.iter, ctx):
                    ctx.report(node)
                elif isinstance(ancestor.iter, cst.Tuple):  # a tuple display is unrolled too (verified on 2.13)
                    ctx.report(node, "`break`/`continue` in a loop over a tuple is not supported: TorchScript "
                                     "unrolls loops over tuples; iterate a list, or guard the body with an `if`")
                return

    visit_Break = visit_Continue = _check


class ModuleListMutation(ScriptRule):
    code = "JIT309"
    name = "modulelist-mutation-in-forward"
    severity = "error"
    summary = "`append`/`extend`/... on a module container in compiled code"
    message = "module containers cannot be changed in compiled code"

    def visit_Call(self, node: cst.Call, ctx: RuleContext) -> None:
        func = node.func
        if isinstance(func, cst.Attribute) and func.attr.value in ("append", "extend", "insert", "update", "pop"):
            container = _container(func.value, ctx, frozenset({"ModuleList", "Sequential", "ModuleDict"}))
            if container is not None:
                ctx.report(node, f"`self.{container[0]}.{func.attr.value}(...)` changes an nn.{container[1]} in "
                                 "compiled code, which TorchScript cannot do (it reports a misleading \"Unknown type "
                                 "name 'Module'\"); build the container in `__init__`")


# -- fixes ----------------------------------------------------------------------------------------------------


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
    if not bounds or loop_jumps(loop):
        return None
    function = compiled_function(ctx)
    used = names_in(function) if function is not None else set()
    index = next(n for n in ("i", "index", "position", "layer_index") if n not in used)
    indent = ctx.indent_of(loop)
    step = loop.body.indent if loop.body.indent is not None else ctx.module.tree.default_indent
    condition = " and ".join(f"{index} {operator} {value}" for operator, value in bounds)
    body = [ctx.statement_code(s, s, indent + step + step) for s in loop.body.body]
    lines = [f"for {index}, {ctx.code(loop.target)} in enumerate({ctx.code(node.value)}):",
             f"{indent}{step}if {condition}:", *[f"{indent}{step}{step}{line}" for line in body]]
    return PendingFix("iterate the whole container and skip by index", [PendingEdit(loop, "\n".join(lines))])


def wrap_module_list(name: str, ctx: RuleContext) -> PendingFix | None:
    """`self.layers = [nn.Linear(4, 4), ...]` in `__init__` -> `nn.ModuleList([...])`. Unsafe: the modules'
    parameters become the model's (`parameters()`, `state_dict()` keys, `.to()` and optimizers see them)."""
    torch = ctx.torch_name
    cls = class_of(ctx)
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
