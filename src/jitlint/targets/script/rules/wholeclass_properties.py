"""JIT633: a property that raises while torch.jit.script builds the module's type.

When torch builds a module's concrete type it looks for `@torch.jit._overload` methods by reading every name of
the class, `getattr(module, name, None)` for each name of `dir(type(module))` (torch/jit/_recursive.py,
`get_overload_annotations`). That runs every property (and `functools.cached_property`) of the class, own or
inherited; `getattr`'s default swallows an `AttributeError` and nothing else. Only a property the class's own body
defines and lists in `__jit_ignored_attributes__` is skipped (`__jit_unused_properties__` and `@torch.jit.unused`
do not skip it). A property that raises anything else rejects the class, and torch names no line.

Two kinds of body are modelled: one that starts with `raise SomeError(...)` (a builtin exception that is not an
`AttributeError`), and one that starts by taking `next(...)` of the module's own parameters, buffers or children
(directly, through `iter(...)`, or through a generator expression over them), which raises `StopIteration` on a
module that holds none. The second needs a proof that the module holds none after `__init__`: the `__init__` it
runs (own or inherited, across files, up to `nn.Module.__init__`) and every method it calls on the module only
store values that cannot be a `Module` or a `Parameter` (literals, builtin values, instances of classes that are
not modules, by the annotations of `__init__`'s parameters and of the called functions' returns), never pass the
module anywhere jitlint cannot follow, and never register anything. Anything unknown keeps the rule silent.
"""

from __future__ import annotations

import builtins
import re

import libcst as cst

from jitlint.facts import RunFact, run_fact
from jitlint.facts.mro import abstract_in_abc, linearization
from jitlint.facts.torch_api import NN_MODULE_DUNDER_NAMES, NN_MODULE_NAMES
from jitlint.layout import rendering
from jitlint.names import IDENTITY_DECORATORS, first_param_name
from jitlint.project import ClassInfo, FunctionInfo
from jitlint.rules.base import RuleContext
from jitlint.targets.script.rules import ScriptRule
from jitlint.walk import children, walk

_MODULE = "torch.nn.Module"
_PROPERTY_DECORATORS = frozenset({"builtins.property", "functools.cached_property"})
# Builtin exceptions that are not AttributeError (which getattr's default swallows); none of them derives from it.
_RAISING = frozenset(
    name for name in dir(builtins)
    if isinstance(getattr(builtins, name), type) and issubclass(getattr(builtins, name), BaseException)
    and not issubclass(getattr(builtins, name), AttributeError)
)
# The module's own iterators that are empty on a module with no parameters, buffers or submodules.
_STATE_ITERATORS = frozenset({
    "parameters", "named_parameters", "buffers", "named_buffers", "children", "named_children",
})
# nn.Module methods that register nothing and do not hand the module to user code.
_READ_ONLY_MODULE_METHODS = frozenset(_STATE_ITERATORS | {
    "__init__", "modules", "named_modules", "state_dict", "train", "eval", "requires_grad_", "zero_grad",
    "get_submodule", "get_parameter", "get_buffer", "extra_repr", "_get_name",
})
# nn.Module's registries: touching them directly is registering (or may be).
_REGISTRIES = frozenset({"_parameters", "_buffers", "_modules", "__dict__"})
# Class hooks that change what `Cls(...)`, `self.x = v` or `self.x` do.
_HOOKS = frozenset({"__new__", "__setattr__", "__getattribute__", "__class_getitem__"})
# What an `__init_subclass__` may do with the class and still be followed: read it, pass it to these, and store
# class attributes (whose names the proof then treats as unknown).
_CLASS_READERS = frozenset({
    "inspect.get_annotations", "typing.get_type_hints", "builtins.getattr", "builtins.hasattr",
    "builtins.isinstance", "builtins.issubclass", "builtins.vars", "builtins.type", "builtins.id",
})
# Builtins whose result is a builtin value (never a Module), whatever their arguments.
_PLAIN_BUILTINS = frozenset({
    "builtins.str", "builtins.int", "builtins.float", "builtins.bool", "builtins.len", "builtins.repr",
    "builtins.isinstance", "builtins.issubclass", "builtins.hasattr", "builtins.callable", "builtins.id",
    "builtins.hash", "builtins.format", "builtins.bytes", "builtins.abs", "builtins.round", "builtins.range",
})
_CONTAINER_BUILTINS = frozenset({
    "builtins.list", "builtins.tuple", "builtins.dict", "builtins.set", "builtins.frozenset", "builtins.sorted",
})
# Standard-library modules whose functions build only builtin values from builtin arguments.
_PLAIN_STDLIB = ("re.", "math.", "string.", "os.path.")
_PLAIN_ANNOTATIONS = frozenset({
    "builtins.str", "builtins.int", "builtins.float", "builtins.bool", "builtins.bytes", "builtins.complex",
})
_CONTAINER_ANNOTATIONS = frozenset({
    "builtins.list", "builtins.dict", "builtins.tuple", "builtins.set", "builtins.frozenset",
    "typing.List", "typing.Dict", "typing.Tuple", "typing.Set", "typing.FrozenSet",
})
_MAX_DEPTH = 12
# The names `nn.Module` (the class, on torch 2.13) binds: a lookup in the MRO stops at it only for these.
_MODULE_CLASS_NAMES = NN_MODULE_NAMES | NN_MODULE_DUNDER_NAMES

# Value types the proof works with: PLAIN (builtin scalars and strings, and containers of them: nothing reachable
# from it is a Module), KNOWN (not a Module or a Parameter itself; nothing known about what it holds), and
# ("instance", C) / ("class", C) for a project class C that is not a module class.
PLAIN = "plain"
KNOWN = "known"


class _Unknown(Exception):
    """The proof gives up: the rule stays silent."""


class OwnGetter(RunFact):
    """What a class body binds a name to (`_own_getter`), kept per run: every subclass asks again."""

    @classmethod
    def compute(cls, project, entry: ClassInfo, name: str):
        return _own_getter(entry, name)


def _own_getter(cls: ClassInfo, name: str) -> cst.FunctionDef | None | bool:
    """What `cls`'s own body binds `name` to: the getter FunctionDef of a property (or cached_property), False for
    anything else (a method, a class attribute), None when the body does not bind it."""
    found: cst.FunctionDef | None | bool = None
    body = cls.node.body.body if isinstance(cls.node.body, cst.IndentedBlock) else ()
    for statement in body:
        if isinstance(statement, cst.FunctionDef) and statement.name.value == name:
            imports = cls.module.imports
            qualified = [imports.qualify(d.decorator) for d in statement.decorators]
            if qualified and qualified[0] in _PROPERTY_DECORATORS and set(qualified[1:]) <= IDENTITY_DECORATORS:
                found = statement
            elif found is not None and found is not False and statement.decorators and all(
                isinstance(d.decorator, cst.Attribute) and isinstance(d.decorator.value, cst.Name)
                and d.decorator.value.value == name for d in statement.decorators
            ):
                continue  # `@name.setter` / `@name.deleter`: still the same property
            else:
                found = False
        elif name in cls.own_attributes and cls.own_attributes[name].class_value is not None:
            found = False
        elif isinstance(statement, cst.ClassDef) and statement.name.value == name:
            found = False
    if found is None and name in cls.own_attributes and cls.own_attributes[name].class_value is not None:
        found = False
    return found


def _body_statements(function: cst.FunctionDef) -> list:
    body = function.body
    if not isinstance(body, cst.IndentedBlock):
        return list(body.body) if isinstance(body, cst.SimpleStatementSuite) else []
    statements = list(body.body)
    if statements and isinstance(statements[0], cst.SimpleStatementLine) and len(statements[0].body) == 1 \
            and isinstance(statements[0].body[0], cst.Expr) \
            and isinstance(statements[0].body[0].value, (cst.SimpleString, cst.ConcatenatedString)):
        statements = statements[1:]  # the docstring
    return statements


def _first_expression(statement) -> cst.BaseExpression | None:
    """The expression a property's first statement evaluates first, for `return E`, `E` and `x = E`."""
    if isinstance(statement, cst.SimpleStatementLine) and statement.body:
        small = statement.body[0]
        if isinstance(small, cst.Return):
            return small.value
        if isinstance(small, cst.Expr):
            return small.value
        if isinstance(small, (cst.Assign, cst.AnnAssign)):
            return small.value
    elif isinstance(statement, cst.BaseSmallStatement):
        return _first_expression(cst.SimpleStatementLine(body=[statement]))
    return None


class _Prover:
    """Facts about one concrete module class: its MRO (C3, torch's `nn.Module` as one opaque entry)."""

    def __init__(self, ctx: RuleContext, cls: ClassInfo, order: list) -> None:
        self.ctx = ctx
        self.cls = cls
        self.order = order
        self.project = ctx.project
        self.walked: set[tuple[int, str]] = set()
        self._stateless: bool | None = None
        # Class attributes an `__init_subclass__` of the MRO stores (None: a hook the proof cannot follow).
        self.hooked: set[str] | None = set()
        for entry in order:
            hook = entry.methods.get("__init_subclass__") if not isinstance(entry, str) else None
            if hook is not None:
                stored = _class_hook_stores(self.project, hook)
                self.hooked = None if stored is None or self.hooked is None else self.hooked | stored

    # -- the MRO -------------------------------------------------------------------------------------------
    def lookup(self, name: str, start: int = 0):
        """Raises _Unknown for a name an `__init_subclass__` stores.
        (index, entry, what) for the nearest binding of `name` from `order[start]` on: what is a FunctionInfo
        (a method), a FunctionDef (a property getter), "attribute" (a class attribute), or "torch" (nn.Module)."""
        if self.hooked is None or name in self.hooked:
            raise _Unknown
        for index in range(start, len(self.order)):
            entry = self.order[index]
            if isinstance(entry, str):
                if name in _MODULE_CLASS_NAMES:
                    return index, entry, "torch"
                continue
            # What the class body binds the name to, kept per run: every subclass asks again.
            getter = run_fact(self.project, OwnGetter, entry, name)
            if isinstance(getter, cst.FunctionDef):
                return index, entry, getter
            if name in entry.methods:
                return index, entry, entry.methods[name]
            if getter is False:
                return index, entry, "attribute"
        return None

    def index_of(self, cls: ClassInfo) -> int | None:
        for index, entry in enumerate(self.order):
            if entry is cls:
                return index
        return None

    # -- types of values -----------------------------------------------------------------------------------
    def non_module_class(self, cls: ClassInfo) -> bool:
        if self.project.is_module_class(cls):
            return False
        order = linearization(self.ctx.project, cls)
        return order is not None and not any(isinstance(entry, str) for entry in order)

    def annotation_type(self, node: cst.BaseExpression | None, imports, depth: int = 0):
        if node is None or depth > 6:
            return None
        if isinstance(node, cst.SimpleString):
            try:
                return self.annotation_type(cst.parse_expression(node.evaluated_value), imports, depth + 1)
            except Exception:
                return None
        if isinstance(node, cst.Name) and node.value == "None":
            return PLAIN
        if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.BitOr):
            return _join([self.annotation_type(node.left, imports, depth + 1),
                          self.annotation_type(node.right, imports, depth + 1)])
        if isinstance(node, cst.Subscript):
            outer = imports.qualify(node.value)
            inner = [self.annotation_type(e.slice.value, imports, depth + 1) for e in node.slice
                     if isinstance(e.slice, cst.Index)]
            if outer in ("typing.Optional", "typing.Union"):
                return _join(inner)
            if outer in _CONTAINER_ANNOTATIONS:
                return PLAIN if inner and all(t == PLAIN for t in inner) else KNOWN
            if outer in ("builtins.type", "typing.Type") and len(inner) == 1 and isinstance(inner[0], tuple) \
                    and inner[0][0] == "instance":
                return ("class", inner[0][1])
            return None
        qualified = imports.qualify(node)
        if qualified in _PLAIN_ANNOTATIONS:
            return PLAIN
        if qualified in _CONTAINER_ANNOTATIONS:
            return KNOWN
        resolved = self.project.resolve_class(qualified)
        if resolved is not None and self.non_module_class(resolved):
            return ("instance", resolved)
        return None

    def member_type(self, owner: ClassInfo, name: str, as_class: bool):
        """The type of `obj.name` for an instance (or the class object) of the non-module class `owner`."""
        for current in self.project.mro(owner):
            getter = _own_getter(current, name)
            if isinstance(getter, cst.FunctionDef) and not as_class:
                return self.annotation_type(getter.returns.annotation if getter.returns else None,
                                            current.module.imports)
            info = current.own_attributes.get(name)
            if info is not None and info.annotation is not None:
                return self.annotation_type(info.annotation, current.module.imports)
            if getter is not None or name in current.methods:
                return None
        return None

    def method_return(self, owner: ClassInfo, name: str):
        for current in self.project.mro(owner):
            method = current.methods.get(name)
            if method is not None:
                returns = method.node.returns
                return self.annotation_type(returns.annotation if returns else None, current.module.imports)
        return None

    def value_type(self, node: cst.BaseExpression, scope: "_Scope", depth: int = 0):
        if depth > 20:
            return None
        if isinstance(node, (cst.Integer, cst.Float, cst.Imaginary, cst.SimpleString, cst.ConcatenatedString,
                             cst.FormattedString)):
            return PLAIN
        if isinstance(node, cst.Name):
            if node.value in ("None", "True", "False"):
                return PLAIN
            return scope.name_type(node.value, depth + 1)
        if isinstance(node, (cst.List, cst.Tuple, cst.Set)):
            kinds = [self.value_type(e.value, scope, depth + 1) for e in node.elements]
            return PLAIN if all(k == PLAIN for k in kinds) else KNOWN
        if isinstance(node, cst.Dict):
            kinds = []
            for element in node.elements:
                if not isinstance(element, cst.DictElement):
                    return KNOWN
                kinds += [self.value_type(element.key, scope, depth + 1),
                          self.value_type(element.value, scope, depth + 1)]
            return PLAIN if all(k == PLAIN for k in kinds) else KNOWN
        if isinstance(node, (cst.ListComp, cst.SetComp, cst.DictComp, cst.GeneratorExp)):
            return KNOWN
        if isinstance(node, cst.UnaryOperation):
            if isinstance(node.operator, cst.Not):
                return PLAIN
            return PLAIN if self.value_type(node.expression, scope, depth + 1) == PLAIN else None
        if isinstance(node, cst.Comparison):
            if all(isinstance(c.operator, (cst.Is, cst.IsNot, cst.In, cst.NotIn)) for c in node.comparisons):
                return PLAIN
            parts = [node.left] + [c.comparator for c in node.comparisons]
            return PLAIN if all(self.value_type(p, scope, depth + 1) == PLAIN for p in parts) else None
        if isinstance(node, (cst.BinaryOperation, cst.BooleanOperation)):
            left = self.value_type(node.left, scope, depth + 1)
            right = self.value_type(node.right, scope, depth + 1)
            if isinstance(node, cst.BooleanOperation):
                return _join([left, right])
            return PLAIN if left == PLAIN and right == PLAIN else None
        if isinstance(node, cst.IfExp):
            return _join([self.value_type(node.body, scope, depth + 1),
                          self.value_type(node.orelse, scope, depth + 1)])
        if isinstance(node, cst.Subscript):
            return PLAIN if self.value_type(node.value, scope, depth + 1) == PLAIN else None
        if isinstance(node, cst.Attribute):
            name = node.attr.value
            if name in ("__name__", "__qualname__", "__module__"):
                return PLAIN
            if isinstance(node.value, cst.Name) and node.value.value == scope.tracked:
                return self.self_attribute_type(name, scope)
            base = self.value_type(node.value, scope, depth + 1)
            if isinstance(base, tuple):
                return self.member_type(base[1], name, base[0] == "class")
            return None
        if isinstance(node, cst.Call):
            return self.call_type(node, scope, depth + 1)
        return None

    def self_attribute_type(self, name: str, scope: "_Scope"):
        if name == "__class__":
            return ("class", self.cls) if self.non_module_class_or_self(self.cls) else None
        found = self.lookup(name)
        if found is None or found[2] != "attribute":
            return None
        _index, entry, _what = found
        info = entry.own_attributes.get(name)
        if info is None or info.class_value is None:
            return None
        value = info.class_value
        resolved = self.project.resolve_class(entry.module.imports.qualify(value))
        if resolved is not None and self.non_module_class(resolved):
            if any(name in current.own_attributes and current.own_attributes[name].assigned_in
                   for current in self.order if not isinstance(current, str)):
                return None  # an instance attribute of the same name may replace the class's
            return ("class", resolved)
        return None

    def non_module_class_or_self(self, cls: ClassInfo) -> bool:
        return cls is self.cls  # `self.__class__`: only its `__name__` & co. are read through it

    def call_type(self, node: cst.Call, scope: "_Scope", depth: int):
        func = node.func
        imports = scope.imports
        qualified = imports.qualify(func) if isinstance(func, (cst.Name, cst.Attribute)) else None
        if qualified is not None and not (isinstance(func, cst.Name) and func.value in scope.locals):
            if qualified in _PLAIN_BUILTINS:
                return PLAIN
            if qualified in _CONTAINER_BUILTINS:
                kinds = [self.value_type(a.value, scope, depth + 1) for a in node.args]
                return PLAIN if all(k == PLAIN for k in kinds) else KNOWN
            if qualified.startswith(_PLAIN_STDLIB):
                kinds = [self.value_type(a.value, scope, depth + 1) for a in node.args]
                return PLAIN if all(k == PLAIN for k in kinds) else None
            resolved = self.project.resolve_class(qualified)
            if resolved is not None:
                return ("instance", resolved) if self.non_module_class(resolved) else None
            function = self.project.resolve_function(qualified)
            if function is not None and function.cls is None:
                returns = function.node.returns
                return self.annotation_type(returns.annotation if returns else None, function.module.imports)
        if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and func.value.value == scope.tracked:
            found = self.lookup(func.attr.value)
            if found is not None and isinstance(found[2], FunctionInfo):  # `self.method(...)`: its annotation
                returns = found[2].node.returns
                return self.annotation_type(returns.annotation if returns else None, found[2].module.imports)
            callee = self.self_attribute_type(func.attr.value, scope)  # `self.config_class()`
            return ("instance", callee[1]) if isinstance(callee, tuple) and callee[0] == "class" else None
        if isinstance(func, cst.Attribute):
            base = self.value_type(func.value, scope, depth + 1)
            if isinstance(base, tuple):
                return self.method_return(base[1], func.attr.value)
            return None
        base = self.value_type(func, scope, depth + 1)
        if isinstance(base, tuple) and base[0] == "class":
            return ("instance", base[1])
        return None

    # -- the proof that `__init__` leaves the module with no state -------------------------------------------
    def stateless(self) -> bool:
        if self._stateless is None:
            self._stateless = self._prove_stateless()
        return self._stateless

    def _prove_stateless(self) -> bool:
        if any(isinstance(entry, str) and entry != _MODULE for entry in self.order):
            return False  # a torch base other than nn.Module may hold parameters
        for entry in self.order:
            if isinstance(entry, str):
                continue
            if any(keyword.keyword is not None for keyword in entry.node.bases) or entry.node.keywords:
                return False  # a metaclass
            if _HOOKS & set(entry.methods):
                return False
        found = self.lookup("__init__")
        if found is None:
            return False
        index, _entry, what = found
        if what == "torch":
            return True
        if not isinstance(what, FunctionInfo):
            return False
        try:
            return self.walk_method(what, index, 0)
        except _Unknown:
            return False

    def walk_method(self, method: FunctionInfo, index: int, depth: int) -> bool:
        tracked = first_param_name(method.node)
        if tracked is None or method.bound_first_param != "instance":
            raise _Unknown
        return self.walk(method, tracked, index, depth)

    def walk(self, function: FunctionInfo, tracked: str, index: int | None, depth: int) -> bool:
        key = (id(function.node), tracked)
        if key in self.walked:
            return True  # already being (or been) proven: a recursive call adds nothing
        if depth > _MAX_DEPTH:
            raise _Unknown
        self.walked.add(key)
        scope = _Scope(self, function, tracked, index)
        _Occurrences(scope, depth).check()
        return True


def _join(kinds):
    if not kinds or any(k is None for k in kinds):
        return None
    if all(k == PLAIN for k in kinds):
        return PLAIN
    if len({k if isinstance(k, tuple) else (k,) for k in kinds} - {(PLAIN,)}) == 1:
        rest = [k for k in kinds if k != PLAIN]
        return rest[0]
    return KNOWN


class _Scope:
    """One function walked with `tracked` (a parameter) standing for the module."""

    def __init__(self, prover: _Prover, function: FunctionInfo, tracked: str, index: int | None) -> None:
        self.prover = prover
        self.function = function
        self.tracked = tracked
        self.index = index  # the function's class in the module's MRO (for `super()`), None for another function
        self.imports = function.module.imports
        self.params, self.locals = _function_names(prover.project, function.node)
        self.typing: set[str] = set()

    def name_type(self, name: str, depth: int):
        if name == self.tracked:
            return None
        if name in self.typing:
            return PLAIN  # a cycle (`x = x[0]`): the other assignments decide
        if name in self.locals:
            values = self.locals[name]
            if name in self.params:
                values = values + [self.params[name]]
            self.typing.add(name)
            try:
                kinds = []
                for value in values:
                    if value is None:
                        return None
                    if isinstance(value, cst.Param):
                        kinds.append(self.param_type(value))
                    else:
                        kinds.append(self.prover.value_type(value, self, depth + 1))
                return _join(kinds)
            finally:
                self.typing.discard(name)
        if name in self.params:
            return self.param_type(self.params[name])
        value = self.function.module.globals.get(name)
        if value is not None and isinstance(value, (cst.Integer, cst.Float, cst.SimpleString)):
            return PLAIN
        return None

    def param_type(self, param: cst.Param):
        annotation = param.annotation.annotation if param.annotation else None
        return self.prover.annotation_type(annotation, self.imports)


class FunctionNames(RunFact):
    """A function's named parameters, and every value its body binds to each local name; the same for every class
    whose proof walks the function (kept per run: a base's `__init__` is walked once per subclass). Read only."""

    @classmethod
    def compute(cls, project, node: cst.FunctionDef) -> tuple[dict[str, cst.Param], dict[str, list]]:
        return _names_of(node)


def _function_names(project, node: cst.FunctionDef) -> tuple[dict[str, cst.Param], dict[str, list]]:
    return run_fact(project, FunctionNames, node)


def _names_of(node: cst.FunctionDef) -> tuple[dict[str, cst.Param], dict[str, list]]:
    params: dict[str, cst.Param] = {}
    locals_: dict[str, list[cst.BaseExpression | None]] = {}
    signature = node.params
    for param in (*signature.posonly_params, *signature.params, *signature.kwonly_params):
        params[param.name.value] = param
    for special in (signature.star_arg, signature.star_kwarg):
        if isinstance(special, cst.Param):
            locals_.setdefault(special.name.value, []).append(None)
    walk(node.body, _LocalCollector(locals_))
    return params, locals_


class TrackedUses(RunFact):
    """In source order, what `_Occurrences` checks in a function's body: each use of `tracked` (not as an
    attribute's name), each `super` call, and each nested def, lambda or class that mentions `tracked` or `super`
    (a closure), with the node's parents from the function down. Independent of the class being proven, so kept
    per run."""

    @classmethod
    def compute(cls, project, node: cst.FunctionDef, tracked: str) -> list[tuple[str, cst.CSTNode, tuple]]:
        return _uses_of(node, tracked)


def _tracked_uses(project, node: cst.FunctionDef, tracked: str) -> list[tuple[str, cst.CSTNode, tuple]]:
    return run_fact(project, TrackedUses, node, tracked)


def _uses_of(node: cst.FunctionDef, tracked: str) -> list[tuple[str, cst.CSTNode, tuple]]:
    uses: list[tuple[str, cst.CSTNode, tuple]] = []

    def visit(current: cst.CSTNode, parents: tuple) -> None:
        if isinstance(current, (cst.FunctionDef, cst.Lambda, cst.ClassDef)) and current is not parents[0]:
            if _mentions(current, tracked):
                uses.append(("closure", current, parents))
            return
        if isinstance(current, cst.Name) and current.value == tracked:
            parent = parents[-1]
            if not (isinstance(parent, cst.Attribute) and parent.attr is current):
                uses.append(("use", current, parents))
            return
        if isinstance(current, cst.Call) and isinstance(current.func, cst.Name) and current.func.value == "super":
            uses.append(("super", current, parents))
        inner = (*parents, current)
        for child in children(current):
            visit(child, inner)

    visit(node.body, (node,))
    return uses


def _mentions(node: cst.CSTNode, tracked: str) -> bool:
    class Find(cst.CSTVisitor):
        found = False

        def visit_Name(self, name: cst.Name) -> None:
            if name.value in (tracked, "super"):
                self.found = True

    finder = Find()
    walk(node, finder)
    return finder.found


class _LocalCollector(cst.CSTVisitor):
    """Every value a function binds to each local name (None: a binding whose value is not one expression)."""

    def __init__(self, locals_: dict) -> None:
        self.locals = locals_

    def _bind(self, target: cst.BaseExpression, value: cst.BaseExpression | None) -> None:
        if isinstance(target, cst.Name):
            self.locals.setdefault(target.value, []).append(value)
        elif isinstance(target, (cst.Tuple, cst.List)):
            for element in target.elements:
                self._bind(element.value, None)
        elif isinstance(target, cst.StarredElement):
            self._bind(target.value, None)

    def visit_Assign(self, node: cst.Assign) -> None:
        for target in node.targets:
            self._bind(target.target, node.value)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        if node.value is not None:
            self._bind(node.target, node.value)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        self._bind(node.target, None)

    def visit_NamedExpr(self, node: cst.NamedExpr) -> None:
        self._bind(node.target, node.value)

    def visit_For(self, node: cst.For) -> None:
        self._bind(node.target, None)

    def visit_CompFor(self, node: cst.CompFor) -> None:
        self._bind(node.target, None)

    def visit_WithItem(self, node: cst.WithItem) -> None:
        if node.asname is not None:
            self._bind(node.asname.name, None)

    def visit_ExceptHandler(self, node: cst.ExceptHandler) -> None:
        if node.name is not None:
            self._bind(node.name.name, None)

    def visit_Import(self, node: cst.Import) -> None:
        for alias in node.names:
            if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
                self._bind(alias.asname.name, None)
            else:
                head = alias.name
                while isinstance(head, cst.Attribute):
                    head = head.value
                if isinstance(head, cst.Name):
                    self._bind(head, None)

    def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
        if isinstance(node.names, cst.ImportStar):
            return
        for alias in node.names:
            name = alias.asname.name if alias.asname else alias.name
            if isinstance(name, cst.Name):
                self._bind(name, None)

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        self._bind(node.name, None)
        return False

    def visit_ClassDef(self, node: cst.ClassDef) -> bool:
        self._bind(node.name, None)
        return False

    def visit_Lambda(self, node: cst.Lambda) -> bool:
        return False


class _Occurrences:
    """Checks every use of the tracked name (and of `super()`) in one function; raises _Unknown on a use that
    could register state on the module or hand it to code the proof does not follow."""

    def __init__(self, scope: _Scope, depth: int) -> None:
        self.scope = scope
        self.prover = scope.prover
        self.depth = depth

    def check(self) -> None:
        node = self.scope.function.node
        tracked = self.scope.tracked
        if tracked in self.scope.locals:
            raise _Unknown  # the name is rebound: it may not be the module any more
        super_is_builtin = "super" not in self.scope.locals and self.scope.index is not None
        for kind, found, parents in _tracked_uses(self.prover.project, node, tracked):
            if kind == "closure":
                raise _Unknown  # a closure over the module
            if kind == "use":
                self._occurrence(found, parents)
            elif super_is_builtin:
                self._super(found, parents)

    # -- uses of the module --------------------------------------------------------------------------------
    def _occurrence(self, node: cst.Name, parents: list) -> None:
        parent = parents[-1]
        grand = parents[-2] if len(parents) > 1 else None
        if isinstance(parent, cst.Attribute) and parent.value is node:
            self._attribute(parent, parents[:-1], start=0)
            return
        if isinstance(parent, cst.Arg) and isinstance(grand, cst.Call):
            self._argument(node, parent, grand)
            return
        if isinstance(parent, cst.ComparisonTarget) or isinstance(parent, cst.Comparison):
            if isinstance(parent, cst.ComparisonTarget) and isinstance(parent.operator, (cst.Is, cst.IsNot)):
                return
            if isinstance(parent, cst.Comparison) and all(
                    isinstance(c.operator, (cst.Is, cst.IsNot)) for c in parent.comparisons):
                return
            raise _Unknown
        if isinstance(parent, cst.Index) and len(parents) > 3 and isinstance(parents[-3], cst.Subscript):
            self._subscript_key(parents[-3])
            return
        raise _Unknown

    def _attribute(self, attribute: cst.Attribute, parents: list, start: int) -> None:
        """`<module>.name` (or `super().name`, from `start` in the MRO), read, stored or called."""
        name = attribute.attr.value
        if name in _REGISTRIES:
            raise _Unknown
        parent = parents[-1] if parents else None
        if isinstance(parent, cst.Call) and parent.func is attribute:
            self._method_call(name, parent, start)
            return
        if _is_store(attribute, parents):
            self._store(name, attribute, parents, start)
            return
        if name == "__class__":
            return
        found = self.prover.lookup(name, start)
        if found is None:
            return  # an instance attribute (whose stores are checked where they happen)
        index, _entry, what = found
        if isinstance(what, cst.FunctionDef):  # a property: its getter runs with the module
            self._walk_getter(what, index)
            return
        if isinstance(what, FunctionInfo):
            if what.bound_first_param == "instance":
                raise _Unknown  # a bound method escapes (a callback)
            return
        return  # a class attribute, or an nn.Module attribute read

    def _walk_getter(self, getter: cst.FunctionDef, index: int) -> None:
        entry = self.prover.order[index]
        method = FunctionInfo(getter.name.value, getter, entry.module, entry, frozenset())
        tracked = first_param_name(getter)
        if tracked is None:
            raise _Unknown
        self.prover.walk(method, tracked, index, self.depth + 1)

    def _store(self, name: str, attribute: cst.Attribute, parents: list, start: int) -> None:
        found = self.prover.lookup(name, start)
        if found is not None and (isinstance(found[2], (cst.FunctionDef, FunctionInfo))):
            raise _Unknown  # a property's setter (or a method replaced): not followed
        statement = next((p for p in reversed(parents) if isinstance(p, (cst.Assign, cst.AnnAssign, cst.AugAssign,
                                                                          cst.Del, cst.For, cst.WithItem))), None)
        if isinstance(statement, cst.Del):
            return
        if isinstance(statement, cst.Assign):
            direct = any(target.target is attribute for target in statement.targets)
            kind = self.prover.value_type(statement.value, self.scope)
            if kind is None or (not direct and kind != PLAIN):
                raise _Unknown  # unpacked from a value whose items are not known
            return
        if isinstance(statement, cst.AnnAssign):
            if statement.value is not None and self.prover.value_type(statement.value, self.scope) is None:
                raise _Unknown
            return
        if isinstance(statement, cst.AugAssign):
            if self.prover.value_type(statement.value, self.scope) != PLAIN:
                raise _Unknown
            return
        raise _Unknown

    def _method_call(self, name: str, call: cst.Call, start: int) -> None:
        found = self.prover.lookup(name, start)
        if found is None:
            raise _Unknown
        index, _entry, what = found
        if what == "torch":
            if name not in _READ_ONLY_MODULE_METHODS:
                raise _Unknown
            return
        if what == "attribute" and start == 0:
            held = self.prover.self_attribute_type(name, self.scope)
            if isinstance(held, tuple) and held[0] == "class":
                return  # a class the class body stores, called: it is not bound to the module
        if not isinstance(what, FunctionInfo):
            raise _Unknown  # a property or a class attribute called
        binding = what.bound_first_param
        if binding == "instance":
            self.prover.walk_method(what, index, self.depth + 1)
        # a classmethod or staticmethod gets no module (an argument that is the module is checked on its own)

    def _super(self, call: cst.Call, parents: list) -> None:
        scope = self.scope
        if call.args or scope.index is None or scope.tracked != first_param_name(scope.function.node):
            raise _Unknown
        parent = parents[-1] if parents else None
        if not (isinstance(parent, cst.Attribute) and parent.value is call):
            raise _Unknown
        self._attribute(parent, parents[:-1], start=scope.index + 1)

    def _argument(self, node: cst.Name, arg: cst.Arg, call: cst.Call) -> None:
        """The module passed to a call."""
        scope = self.scope
        func = call.func
        qualified = scope.imports.qualify(func) if isinstance(func, (cst.Name, cst.Attribute)) else None
        position = list(call.args).index(arg)
        if arg.star:
            raise _Unknown
        if qualified in ("builtins.isinstance", "builtins.type", "builtins.id", "builtins.issubclass") \
                and position == 0 and arg.keyword is None:
            return
        if qualified in ("builtins.getattr", "builtins.hasattr") and position == 0 and len(call.args) >= 2 \
                and isinstance(call.args[1].value, cst.SimpleString):
            name = call.args[1].value.evaluated_value
            if name in _REGISTRIES:
                raise _Unknown
            found = self.prover.lookup(name)
            if found is not None and isinstance(found[2], cst.FunctionDef):
                self._walk_getter(found[2], found[0])
            elif found is not None and isinstance(found[2], FunctionInfo) and qualified == "builtins.getattr":
                raise _Unknown
            return
        # `Base.method(self, ...)` with a class of the module's MRO
        if isinstance(func, cst.Attribute) and position == 0 and arg.keyword is None:
            owner = self.prover.project.resolve_class(scope.imports.qualify(func.value))
            index = self.prover.index_of(owner) if owner is not None else None
            if index is not None:
                found = self.prover.lookup(func.attr.value, index)
                if found is not None and found[2] == "torch" and func.attr.value in _READ_ONLY_MODULE_METHODS:
                    return
                if found is not None and isinstance(found[2], FunctionInfo) \
                        and found[2].bound_first_param == "instance":
                    self.prover.walk_method(found[2], found[0], self.depth + 1)
                    return
            if scope.imports.qualify(func.value) == _MODULE and func.attr.value == "__init__":
                return  # `nn.Module.__init__(self)`
        function = self.prover.project.resolve_function(qualified) if qualified else None
        if function is not None and function.cls is None:
            self._into_function(function, position, arg)
            return
        raise _Unknown

    def _into_function(self, function: FunctionInfo, position: int, arg: cst.Arg) -> None:
        params = function.node.params
        positional = [*params.posonly_params, *params.params]
        if arg.keyword is not None:
            names = {p.name.value for p in (*positional, *params.kwonly_params)}
            if arg.keyword.value not in names:
                raise _Unknown
            target = arg.keyword.value
        elif position < len(positional):
            target = positional[position].name.value
        else:
            raise _Unknown
        self.prover.walk(function, target, None, self.depth + 1)

    def _subscript_key(self, subscript: cst.Subscript) -> None:
        """`registry[module] = value` / `registry[module]`: a mapping keyed by the module."""
        scope = self.scope
        container = subscript.value
        if not isinstance(container, cst.Name) or container.value in scope.locals or container.value in scope.params:
            raise _Unknown
        value, module = self._global_value(container.value)
        if isinstance(value, cst.Dict):
            return
        if isinstance(value, cst.Call) and not value.args:
            qualified = module.imports.qualify(value.func)
            if qualified in ("builtins.dict", "weakref.WeakKeyDictionary"):
                return
            owner = self.prover.project.resolve_class(qualified)
            if owner is not None:
                for method_name in ("__setitem__", "__getitem__"):
                    method = self.prover.project.find_method(owner, method_name)
                    if method is None:
                        continue
                    params = [*method.node.params.posonly_params, *method.node.params.params]
                    if len(params) < 2:
                        raise _Unknown
                    self.prover.walk(method, params[1].name.value, None, self.depth + 1)
                if self._builtin_mapping(owner):
                    return
        raise _Unknown

    def _global_value(self, name: str, depth: int = 0):
        """(the value a module-level `name = value` binds, its module), following `from m import name`."""
        module = self.scope.function.module
        while depth < 6:
            if name in module.classes or name in module.functions:
                return None, module
            if name in module.globals:
                return module.globals[name], module
            target = module.imports.aliases.get(name)
            if target is None:
                return None, module
            module_name, _, name = target.rpartition(".")
            found = self.prover.project.module(module_name) if module_name else None
            if found is None:
                return None, module
            module = found
            depth += 1
        return None, module

    def _builtin_mapping(self, owner: ClassInfo) -> bool:
        """A project class whose MRO, past project classes, is only `dict` (whose item methods store the key)."""
        for current in self.prover.project.mro(owner):
            for base in current.base_names:
                if base is None:
                    return False
                if base in ("builtins.dict", "builtins.object", "object"):
                    continue
                if self.prover.project.resolve_class(base) is None:
                    return False
        return True


def _is_store(attribute: cst.Attribute, parents: list) -> bool:
    parent = parents[-1] if parents else None
    if isinstance(parent, cst.AssignTarget) and parent.target is attribute:
        return True
    if isinstance(parent, (cst.AnnAssign, cst.AugAssign)) and parent.target is attribute:
        return True
    if isinstance(parent, cst.Del) and parent.target is attribute:
        return True
    if isinstance(parent, cst.Element) or isinstance(parent, cst.StarredElement):
        # inside a tuple/list target
        for ancestor in reversed(parents):
            if isinstance(ancestor, cst.AssignTarget):
                return True
            if not isinstance(ancestor, (cst.Element, cst.StarredElement, cst.Tuple, cst.List)):
                return False
    if isinstance(parent, (cst.For, cst.WithItem, cst.AsName)):
        return True
    return False


class ClassHookStores(RunFact):
    """The class attributes an `__init_subclass__` stores (`cls.NAME = ...`), when all it does with the class is
    read it, store such attributes and pass it to `_CLASS_READERS` or to `super().__init_subclass__`; else None.
    Kept per run (every subclass's proof asks)."""

    @classmethod
    def compute(cls, project, hook: FunctionInfo) -> frozenset[str] | None:
        return _hook_stores(hook)


def _class_hook_stores(project, hook: FunctionInfo) -> frozenset[str] | None:
    return run_fact(project, ClassHookStores, hook)


def _hook_stores(hook: FunctionInfo) -> frozenset[str] | None:
    cls_name = first_param_name(hook.node)
    if cls_name is None:
        return None
    imports = hook.module.imports
    stored: set[str] = set()
    ok = True

    class Check(cst.CSTVisitor):
        def __init__(self) -> None:
            self.parents: list = []

        def on_visit(self, node: cst.CSTNode) -> bool:
            nonlocal ok
            if isinstance(node, (cst.FunctionDef, cst.Lambda, cst.ClassDef)) and node is not hook.node:
                self.parents.append(node)
                return False
            if isinstance(node, cst.Name) and node.value == cls_name:
                parent = self.parents[-1] if self.parents else None
                if isinstance(parent, cst.Attribute) and parent.attr is node:
                    pass
                elif isinstance(parent, cst.Attribute) and parent.value is node:
                    attribute = parent.attr.value
                    grand = self.parents[-2] if len(self.parents) > 1 else None
                    if isinstance(grand, cst.AssignTarget) and grand.target is parent:
                        if attribute.startswith("__"):
                            ok = False
                        stored.add(attribute)
                    elif isinstance(grand, (cst.AnnAssign, cst.AugAssign, cst.Del)) and grand.target is parent:
                        ok = False
                elif isinstance(parent, cst.Arg) and len(self.parents) > 1 and isinstance(self.parents[-2], cst.Call):
                    call = self.parents[-2]
                    if imports.qualify(call.func) not in _CLASS_READERS:
                        ok = False
                else:
                    ok = False
            self.parents.append(node)
            return True

        def on_leave(self, original_node: cst.CSTNode) -> None:
            self.parents.pop()

    walk(hook.node.body, Check())
    return frozenset(stored) if ok else None


# -- what a property raises ---------------------------------------------------------------------------------

def _raises(getter: cst.FunctionDef, owner: ClassInfo, prover: _Prover) -> tuple[str, bool] | None:
    """(the exception, whether it needs a module without state) when the getter's first statement raises."""
    statements = _body_statements(getter)
    if not statements:
        return None
    first = statements[0]
    imports = owner.module.imports
    self_name = first_param_name(getter)
    if isinstance(first, cst.SimpleStatementLine) and first.body and isinstance(first.body[0], cst.Raise):
        raised = first.body[0].exc
        if raised is None:
            return None
        target = raised.func if isinstance(raised, cst.Call) else raised
        qualified = imports.qualify(target)
        if qualified is not None and qualified.startswith("builtins.") and qualified[9:] in _RAISING:
            return qualified[9:], False
        return None
    expression = _first_expression(first)
    while isinstance(expression, (cst.Attribute, cst.Subscript)):
        expression = expression.value
    if not isinstance(expression, cst.Call) or imports.qualify(expression.func) != "builtins.next":
        return None
    if len(expression.args) != 1 or expression.args[0].keyword or expression.args[0].star:
        return None
    if _empty_state_iterator(expression.args[0].value, self_name, imports, prover):
        return "StopIteration", True
    return None


def _empty_state_iterator(node: cst.BaseExpression, self_name: str | None, imports, prover: _Prover) -> bool:
    """`self.parameters()`, `iter(self.buffers())`, `(p.device for p in self.parameters() if ...)`: empty on a
    module with no parameters, buffers or submodules (nn.Module's own methods, not overridden)."""
    if isinstance(node, cst.GeneratorExp):
        return _empty_state_iterator(node.for_in.iter, self_name, imports, prover)
    if isinstance(node, cst.Call) and imports.qualify(node.func) == "builtins.iter" and len(node.args) == 1:
        return _empty_state_iterator(node.args[0].value, self_name, imports, prover)
    if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) \
            and isinstance(node.func.value, cst.Name) and node.func.value.value == self_name \
            and node.func.attr.value in _STATE_ITERATORS:
        if not all(isinstance(a.value, (cst.Name, cst.SimpleString)) and a.star == "" for a in node.args):
            return False
        found = prover.lookup(node.func.attr.value)
        return found is not None and found[2] == "torch"
    return False


class PropertyRaisesWhileScripting(ScriptRule):
    code = "JIT633"
    name = "property-raises-while-scripting"
    severity = "error"
    summary = ("a module class with a property (own or inherited) that raises when read on it: torch reads every "
               "attribute of the class while scripting it (`next(self.parameters())` on a module with no "
               "parameters raises StopIteration)")
    message = "torch.jit.script reads this class's property, and it raises"
    scope = "anywhere"
    outside_handlers = frozenset({"ClassDef"})
    whole_class = "any-error"  # the error is what the property raises
    reports_only_in = "module-class"
    checked_handlers = frozenset({("visit", "ClassDef")})

    def visit_ClassDef(self, node: cst.ClassDef, ctx: RuleContext) -> None:
        cls = ctx.module_class(node)
        if cls is None:
            return
        if ctx.project.find_method(cls, "__prepare_scriptable__") is not None:
            return  # torch scripts what it returns (JIT630's business)
        order = linearization(ctx.project, cls)
        if order is None or _MODULE not in order:
            return
        prover = _Prover(ctx, cls, order)
        if any(_HOOKS & {"__getattribute__", "__getattr__"} & set(entry.methods)
               for entry in order if not isinstance(entry, str)):
            return
        seen: set[str] = set()
        for index, entry in enumerate(order):
            if isinstance(entry, str):
                continue
            body = entry.node.body.body if isinstance(entry.node.body, cst.IndentedBlock) else ()
            for statement in body:
                if not isinstance(statement, cst.FunctionDef) or statement.name.value in seen:
                    continue
                name = statement.name.value
                imports = entry.module.imports
                if not any(imports.qualify(d.decorator) in _PROPERTY_DECORATORS for d in statement.decorators):
                    continue  # not a property getter: nothing for torch's read to run
                try:
                    found = prover.lookup(name)
                except _Unknown:
                    continue
                if found is None or found[1] is not entry or not isinstance(found[2], cst.FunctionDef):
                    continue
                seen.add(name)
                getter = found[2]
                if entry is cls and any("__jit_ignored_attributes__" in current.string_lists
                                        for current in order if not isinstance(current, str)):
                    continue  # torch skips a property of the class's own body listed there
                verdict = _raises(getter, entry, prover)
                if verdict is None or abstract_in_abc(getter, entry, order):
                    continue
                exception, needs_empty = verdict
                if needs_empty and not prover.stateless():
                    continue
                where = "its own" if entry is cls else f"inherited from `{entry.name}`"
                why = (f"`next(...)` over the module's own parameters raises StopIteration: nothing `{cls.name}`'s "
                       f"`__init__` runs registers a parameter, buffer or submodule" if needs_empty
                       else f"it raises {exception}")
                ctx.report(
                    node.name,
                    f"`{cls.name}` cannot be scripted: torch.jit.script reads every attribute of the class "
                    f"(`getattr`, looking for overloads), which runs the property `{name}` ({where}), and {why} "
                    f"(only AttributeError is tolerated; torch names no line); make the property return without "
                    f"raising (`next(iter(...), default)`) and list it in `__jit_unused_properties__`, or do not "
                    f"script this class",
                )
                return



# -- JIT634: an `__init__` whose source torch cannot dedent -----------------------------------------------------

def _init_lines(method: FunctionInfo) -> list[str] | None:
    """The lines of `method` (a method of a top-level class, from its `def` line to its last line) as written in
    the file, when the file's text is at hand."""
    module = method.module
    text = module.text
    if text is None or method.cls is None or method.node.decorators:
        return None
    class_code = rendering(module).code_for_node(method.cls.node.with_changes(leading_lines=()))
    start = text.find(class_code)
    if start < 0 or text.find(class_code, start + 1) >= 0:
        return None
    lines = class_code.split("\n")
    body = method.cls.node.body
    if not isinstance(body, cst.IndentedBlock):
        return None
    indent = body.indent if body.indent is not None else rendering(module).default_indent
    pattern = re.compile(rf"^{re.escape(indent)}(?:async\s+)?def\s+{re.escape(method.name)}\b")
    found = [index for index, line in enumerate(lines) if pattern.match(line)]
    if len(found) != 1:
        return None
    rendered = rendering(module).code_for_node(method.node.with_changes(leading_lines=()))
    count = rendered.rstrip("\n").count("\n") + 1
    return lines[found[0]:found[0] + count]


def _init_dedent_fails(method: FunctionInfo, project) -> bool:
    """`_dedent_fails` of `_init_lines`, once per method (an inherited `__init__` is asked once per subclass).

    `_init_lines` renders the whole class to find the method in the file's text, which cost as much as the rest
    of the rule walk. The method's lines there are what LibCST renders for the method alone with the class body's
    indentation as the enclosing indentation (the same tokens), so the class is rendered only when those lines
    would fail (then `_init_lines` decides, with its checks that the class is found once in the text)."""
    return run_fact(project, InitDedentFails, method)


class InitDedentFails(RunFact):
    """`_dedent_verdict` of a method (see `_init_dedent_fails`)."""

    @classmethod
    def compute(cls, project, method: FunctionInfo) -> bool:
        return _dedent_verdict(method)


def _dedent_verdict(method: FunctionInfo) -> bool:
    verdict = False
    module = method.module
    body = method.cls.node.body if method.cls is not None else None
    if module.text is not None and not method.node.decorators and isinstance(body, cst.IndentedBlock):
        indent = body.indent if body.indent is not None else rendering(module).default_indent
        # A block holding only the method: its header's newline, then the method's lines under `indent`.
        block = cst.IndentedBlock(body=[method.node.with_changes(leading_lines=())], indent=indent)
        if _dedent_fails(rendering(module).code_for_node(block).rstrip("\n").split("\n")[1:]):
            lines = _init_lines(method)
            verdict = lines is not None and _dedent_fails(lines)
    return verdict


def _dedent_fails(lines: list[str]) -> bool:
    """Would torch's `ast.parse(textwrap.dedent(source))` of these lines (comment lines dropped, as torch drops
    them) fail with "unexpected indent": a line indented less than the `def`?"""
    kept = [line for line in lines
            if line.strip() and not (line.strip().startswith("#") and not line.strip().startswith("# type:"))]
    if not kept or any("\t" in line[:len(line) - len(line.lstrip())] for line in kept):
        return False
    first = len(kept[0]) - len(kept[0].lstrip())
    return first > 0 and min(len(line) - len(line.lstrip()) for line in kept) < first


class InitSourceCannotBeDedented(ScriptRule):
    code = "JIT634"
    name = "init-source-cannot-be-dedented"
    severity = "error"
    summary = ("a module class whose `__init__` (own or inherited) has a line indented less than its `def` (a "
               "closing `):` at column 0): torch parses `__init__`'s source and fails")
    message = "torch parses this class's `__init__` source, and a line of it is indented less than the `def`"
    scope = "anywhere"
    outside_handlers = frozenset({"ClassDef"})
    whole_class = "same-error"
    reports_only_in = "module-class"
    checked_handlers = frozenset({("visit", "ClassDef")})

    def visit_ClassDef(self, node: cst.ClassDef, ctx: RuleContext) -> None:
        cls = ctx.module_class(node)
        if cls is None:
            return
        if ctx.project.find_method(cls, "__prepare_scriptable__") is not None:
            return
        order = linearization(ctx.project, cls)
        if order is None:
            return
        prover = _Prover(ctx, cls, order)
        try:
            found = prover.lookup("__init__")
        except _Unknown:
            return
        if found is None or not isinstance(found[2], FunctionInfo):
            return
        method = found[2]
        if not _init_dedent_fails(method, ctx.project):
            return
        where = "its `__init__`" if method.cls is cls else f"the `__init__` it inherits from `{method.cls.name}`"
        ctx.report(
            node.name,
            f"`{cls.name}` cannot be scripted: torch parses the source of {where} "
            f"(`textwrap.dedent` then `ast.parse`, to check its attributes), and a line of it is indented less "
            f"than its `def` (a closing `):` or a string's line at column 0), so the `def` stays indented and "
            f"parsing fails ('unexpected indent', torch names no line); indent that line at least as far as the "
            f"`def`",
        )
