"""What `self.<name>` is in a module's compiled code: the concrete module type torch infers from the instance
`__init__` leaves (`torch/jit/_recursive.py`, `infer_concrete_type_builder`).

For each attribute, in torch's order: a parameter or a buffer is a Tensor (None when registered as None); a
submodule is a module (a ModuleList, Sequential, ModuleDict... is a container of modules); a name the class body
annotates has the annotation's type (`Final[T]`: a constant of type T); any other value has the type torch infers
from the value itself (`_jit_try_infer_type`): an int, a float, a bool, a str, None, a Tensor, a device, a dtype (an
int), a list, tuple or dict of those (an empty list or dict, or one of mixed element types, has no type: torch
leaves it out of the module, and compiled code reading it fails), and `training` is nn.Module's bool.

Statically the instance is the class's `__init__` with its default configuration: each value `__init__` assigns
is typed here; several assignments of different types (under configuration `if`s) leave the type unknown, and so
does a value jitlint cannot type (a parameter of `__init__` with no annotation, a call of an unknown function).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable

import libcst as cst

from jitlint.facts import RunFact, run_fact
from jitlint.facts.syntax import OneScope, assigned_names, bindings, target_names
from jitlint.names import first_param_name
from jitlint.project import CONTAINER_KINDS, AttributeInfo, ClassInfo, ProjectIndex
from jitlint.targets.script.typing.annotations import Reader, is_none, named_params
from jitlint.targets.script.typing.built import BuiltClasses, Classes
from jitlint.targets.script.typing.init_helpers import InitHelpers, stored_values
from jitlint.targets.script.typing.types import (
    BOOL, DEVICE, FLOAT, INT, NONE, STR, TENSOR, Type, dict_of, join_all, list_of, tuple_of,
)
from jitlint.walk import walk

if TYPE_CHECKING:
    pass

_REGISTRATIONS = frozenset({"register_buffer", "register_parameter"})
_PARAMETER_CLASSES = frozenset({"torch.nn.Parameter", "torch.nn.parameter.Parameter", "torch.nn.UninitializedParameter",
                                "torch.nn.parameter.Buffer", "torch.nn.Buffer"})
CONTAINERS = frozenset(CONTAINER_KINDS.values())


def _conv(n: int) -> dict[str, Type]:
    ints = tuple_of([INT] * n)
    return {"weight": TENSOR, "in_channels": INT, "out_channels": INT, "groups": INT, "kernel_size": ints,
            "stride": ints, "dilation": ints, "output_padding": ints, "transposed": BOOL, "padding_mode": STR}


# The attributes `torch.nn` classes set in their own `__init__`, as torch types them on an instance: parameters
# that are always there (`weight` of a convolution) are Tensors, and `__constants__` take the type of the value
# the constructor stores, which is fixed by the class (`stride` of a Conv2d is a tuple of two ints). Left out
# (unknown): what the configuration decides (`bias`, a LayerNorm's `weight`, a BatchNorm's `momentum` may be
# None; a convolution's `padding` may be a str; a LayerNorm's `normalized_shape` has the length it is given).
TORCH_MODULE_ATTRIBUTES: dict[str, dict[str, Type]] = {
    **{name: _conv(n) for n, names in ((1, ("Conv1d", "ConvTranspose1d")), (2, ("Conv2d", "ConvTranspose2d")),
                                       (3, ("Conv3d", "ConvTranspose3d"))) for name in names},
    "Linear": {"weight": TENSOR, "in_features": INT, "out_features": INT},
    "LayerNorm": {"eps": FLOAT, "elementwise_affine": BOOL},
    "GroupNorm": {"num_groups": INT, "num_channels": INT, "eps": FLOAT, "affine": BOOL},
    **{name: {"num_features": INT, "eps": FLOAT, "affine": BOOL, "track_running_stats": BOOL}
       for name in ("BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "SyncBatchNorm", "InstanceNorm1d", "InstanceNorm2d",
                    "InstanceNorm3d")},
    **{name: {"ceil_mode": BOOL, "return_indices": BOOL} for name in ("MaxPool1d", "MaxPool2d", "MaxPool3d")},
    **{name: {"ceil_mode": BOOL, "count_include_pad": BOOL} for name in ("AvgPool1d", "AvgPool2d", "AvgPool3d")},
    "Embedding": {"weight": TENSOR, "num_embeddings": INT, "embedding_dim": INT, "norm_type": FLOAT,
                  "scale_grad_by_freq": BOOL, "sparse": BOOL},
}


def torch_module_attribute(qualified: str | None, name: str) -> Type | None:
    """The type of attribute `name` of an instance of the `torch.nn` class `qualified` (None: not known)."""
    if not qualified or not qualified.startswith("torch.nn."):
        return None
    return TORCH_MODULE_ATTRIBUTES.get(qualified.rsplit(".", 1)[-1], {}).get(name)


@dataclass(frozen=True)
class Submodule:
    """A module held by an attribute: the project classes it may be (empty: a torch class or unknown), the torch
    class's qualified name, and the container kind ("ModuleList", ...) for a container."""

    classes: tuple[ClassInfo, ...] = ()
    torch_class: str | None = None
    container: str | None = None
    attribute: str | None = None
    torch_classes: tuple[str, ...] = ()  # torch classes it may be besides `classes` (when `torch_class` is None)
    last: tuple = ()  # a Sequential's last module: the classes it may be (project classes, torch class names)

    def candidates(self) -> tuple:
        """The classes the module may be an instance of: project classes and qualified names of torch classes."""
        return (*self.classes, *self.torch_classes, *((self.torch_class,) if self.torch_class else ()))


@dataclass(frozen=True)
class Failed:
    """An attribute torch cannot type (an empty list or dict, a value of mixed element types, a Python object)."""

    reason: str


Member = Type | Submodule | Failed | None

# Types a Python value stored on a module can have, as `_jit_try_infer_type` sees it: what an expression of
# `__init__` evaluates to. The typer supplies the function that types the expressions it can (calls, arithmetic).
ValueTyper = Callable[[cst.BaseExpression, "InitScope"], "Type | None"]


@dataclass
class InitScope:
    """An `__init__` being read: its file, the name of its first parameter, and the types of the names it reads: its
    parameters' annotated types, and the locals it binds once."""

    cls: ClassInfo
    imports: object
    self_name: str | None
    params: dict[str, Type | None]


class ModuleMembers:
    """The attributes of module classes, as torch types them when it scripts an instance built with the class's
    defaults. One per run (cached per class and name in the project index)."""

    def __init__(self, project: ProjectIndex, typer: ValueTyper | None = None) -> None:
        self.project = project
        self.typer = typer
        self._scopes: dict[int, tuple[ClassInfo, InitScope]] = {}  # per class: its `__init__` read once
        self._built_classes = BuiltClasses(project)

    def member(self, cls: ClassInfo, name: str) -> Member:
        """What `self.<name>` is in compiled code of `cls` (None: unknown, or no such attribute)."""
        return run_fact(self.project, _Member, cls, name, self)

    def compute_member(self, cls: ClassInfo, name: str) -> Member:
        if name == "training":
            info = self.project.attributes(cls).get(name)
            if info is None or info.annotation is None:
                return BOOL
        info = self.project.attributes(cls).get(name)
        if info is None:
            # set by the `__init__` of a torch class it derives from (`self.weight` of a Conv2d subclass)
            found = {torch_module_attribute(base, name) for base in self.project.torch_bases(cls)} - {None}
            return found.pop() if len(found) == 1 else None
        registered = self._registered(cls).get(name)
        if registered is not None:
            if registered == NONE and self._stored_by_init_helper(cls, info):
                return None  # registered as None, then given a value by a method `__init__` calls
            return registered
        if info.kinds & CONTAINERS:
            kinds = info.kinds & CONTAINERS
            container = next(iter(kinds)) if len(kinds) == 1 else None
            last = self._last_module(cls, name) if container == "Sequential" else None
            return Submodule(container=container, attribute=name,
                             last=(*last.project, *last.torch) if last is not None else ())
        if "module" in info.kinds:
            if not info.kinds <= {"module"}:
                return self._built(cls, name)  # a module or something else (None), by configuration
            classes = tuple(c for c in (self.project.resolve_class(q) for q in sorted(info.constructors)) if c)
            torch_classes = sorted(q for q in info.constructors if q.startswith("torch.nn."))
            return Submodule(tuple(c for c in classes if self.project.is_module_class(c)),
                             torch_classes[0] if len(torch_classes) == 1 and not classes else None, attribute=name)
        if info.annotation is not None:
            imports = info.annotation_imports or cls.module.imports
            kind = Reader(imports, self.project).read(info.annotation)
            # a bare `tuple` or `list` annotating a module attribute goes through `ann_to_type`, which rejects it
            # ("Unknown type annotation"), not the AnyTuple/AnyList a function's annotation is: left unknown
            return None if kind is not None and kind.name in ("AnyTuple", "AnyList") else kind
        return self._built(cls, name) or self._inferred(cls, info, name)

    def callable_parameter(self, cls: ClassInfo, name: str) -> str | None:
        """The `__init__` parameter annotated `Callable` (or `Optional[Callable]`) that every value `__init__` stores
        in `self.<name>` is, when nothing else sets or annotates the attribute: torch types the attribute by what
        the instance holds, a function, a module or None, and none of them is a value with a truth value."""
        info = self.project.attributes(cls).get(name)
        if (info is None or not info.init_values or info.registered or info.filled_in_init or info.annotation is not None
                or info.assigned_in != frozenset({"__init__"})):
            return None
        found: set[str] = set()
        for current in self.project.mro(cls):
            own, init = current.own_attributes.get(name), current.methods.get("__init__")
            for value in own.init_values if own is not None else ():
                node = value.node
                if init is None or not isinstance(node, cst.Name) or node.value in assigned_names(init.node):
                    return None
                param = next((p for p in named_params(init.node.params)[1:] if p.name.value == node.value), None)
                if param is None or param.annotation is None or not _callable_annotation(
                        param.annotation.annotation, current.module.imports):
                    return None
                found.add(node.value)
        return found.pop() if len(found) == 1 else None

    def _last_module(self, cls: ClassInfo, name: str) -> Classes | None:
        """The classes the last module of a Sequential `__init__` builds as `nn.Sequential(a, ..., z)` may be."""
        info = self.project.attributes(cls).get(name)
        if info is None or not info.init_values or info.registered or info.filled_in_init or (
                info.assigned_in - {"__init__"}):
            return None
        found = Classes()
        for current in self.project.mro(cls):
            own, init = current.own_attributes.get(name), current.methods.get("__init__")
            for value in own.init_values if own is not None else ():
                node = value.node
                if init is None or not isinstance(node, cst.Call) or value.imports.qualify(node.func) not in (
                        _SEQUENTIAL_CLASSES) or not node.args or any(a.star or a.keyword for a in node.args):
                    return None
                classes = self._built_classes.value_classes(node.args[-1].value, value.imports, current, init)
                if classes is None:
                    return None
                found = found | classes
        return found if found.project or found.torch else None

    def _built(self, cls: ClassInfo, name: str) -> Submodule | None:
        """A module built by a factory function or a class-valued parameter (see `built`), when every value
        `__init__` stores says which classes."""
        info = self.project.attributes(cls).get(name)
        if info is None or not info.init_values or info.registered or info.assigned_in - {"__init__"}:
            return None
        found = Classes()
        for current in self.project.mro(cls):
            own, init = current.own_attributes.get(name), current.methods.get("__init__")
            for value in own.init_values if own is not None else ():
                classes = self._built_classes.value_classes(value.node, value.imports, current, init) if (
                    init is not None) else None
                if classes is None:
                    return None
                found = found | classes
        if not found.project and not found.torch:
            return None
        return Submodule(found.project, None, attribute=name, torch_classes=found.torch)

    def _stored_by_init_helper(self, cls: ClassInfo, info: AttributeInfo) -> bool:
        """Whether a method `__init__` calls (transitively) stores it too; the calls (whose bodies following parses)
        are followed only for an attribute another method stores."""
        others = info.assigned_in - {"__init__"}
        return bool(others) and bool(others & run_fact(self.project, InitHelpers, cls))

    def _helper_submodule(self, cls: ClassInfo, info: AttributeInfo, name: str) -> Submodule | None:
        """An attribute `__init__` sets to None that the methods it calls store from their own parameter annotated
        with a module class (`self.store = None`, then `self.update(store)` with `def update(self, store: Store)`
        storing `self.store = store`): the instance holds that module when `__init__` returns, or still None when
        the method did not run. Unknown for any other value a method stores. The methods' bodies were parsed to
        find the calls (`InitHelpers`); only their statements storing this attribute are read here."""
        if any(not is_none(value.node) for value in info.init_values):
            return None
        helpers = info.assigned_in & run_fact(self.project, InitHelpers, cls)
        found = Classes()
        for helper_name in sorted(helpers):
            method = self.project.find_method(cls, helper_name)
            if method is None:
                return None
            params = {param.name.value: param for param in named_params(method.node.params)[1:]}
            rebound = assigned_names(method.node)
            for value in stored_values(method.node, first_param_name(method.node), name):
                param = params.get(value.value) if isinstance(value, cst.Name) else None
                if param is None or param.annotation is None or value.value in rebound:
                    return None
                classes = self._built_classes.class_reference(param.annotation.annotation, method.module.imports)
                if classes is None:
                    return None
                found = found | classes
        if not found.project and not found.torch:
            return None
        return Submodule(found.project, None, attribute=name, torch_classes=found.torch)

    def _inferred(self, cls: ClassInfo, info: AttributeInfo, name: str) -> Member:
        if not info.init_values or name in run_fact(self.project, _Unpacked, cls):
            return None  # an element of an unpacked value is also stored, of a type not typed here
        if self._stored_by_init_helper(cls, info):
            # a method `__init__` calls stores it too (`self.w = None`, then `self.populate()` stores a Parameter):
            # torch types the value the instance holds when `__init__` returns: typed here only when that is a
            # module the helper is given
            return self._helper_submodule(cls, info, name)
        init = self.project.find_method(cls, "__init__")
        scope = self._scope(cls, init) if init is not None else None
        found: list[Member] = []
        for value in info.init_values:
            found.append(self.value(value.node, scope) if scope is not None else None)
        if any(kind is None for kind in found):
            return None
        failed = [kind for kind in found if isinstance(kind, Failed)]
        if failed and len(failed) == len(found):
            return failed[0]
        if failed or any(not isinstance(kind, Type) for kind in found):
            return None
        kinds = set(found)
        return kinds.pop() if len(kinds) == 1 else None

    def _scope(self, cls: ClassInfo, init) -> InitScope:
        cached = self._scopes.get(id(cls))
        if cached is not None and cached[0] is cls:
            return cached[1]
        scope = self._parameters(cls, init)
        # Kept before its locals are typed: typing them may read another attribute of the class, which reads this
        # scope (with the locals not typed yet) instead of reading `__init__` again.
        self._scopes[id(cls)] = (cls, scope)
        # A local `__init__` binds once (`head_dim = dim // num_heads`) holds the value of that one assignment
        # wherever it is read; its type is that value's, typed in the order the assignments come.
        for name, value in _single_assignments(init.node, tuple(scope.params)):
            kind = self.value(value, scope)
            if isinstance(kind, Type):
                scope.params[name] = kind
        return scope

    def _parameters(self, cls: ClassInfo, init) -> InitScope:
        imports = init.module.imports
        reader = Reader(imports, self.project)
        params: dict[str, Type | None] = {}
        for param in named_params(init.node.params)[1:]:
            kind = reader.read(param.annotation.annotation) if param.annotation else None
            # torch types an attribute by the value the instance holds: a bare `tuple`/`list` parameter stored in
            # `self.<name>` is a tuple or list of element types only that value says
            params[param.name.value] = None if kind is not None and kind.name in ("AnyTuple", "AnyList") else kind
        rebound = assigned_names(init.node)
        for name, kind in params.items():
            # torch types an attribute by the value stored: a parameter re-bound in the body, or annotated Optional
            # or Union (None or a value of the contained type, one of the members), does not say which
            if name in rebound or (kind is not None and _holds_union(kind)):
                params[name] = None
        return InitScope(cls, imports, first_param_name(init.node), params)

    def value(self, node: cst.BaseExpression, scope: InitScope | None) -> Member:
        """The type torch infers for a Python value `__init__` computes (`_jit_try_infer_type`): of the value itself,
        so `torch.jit.annotate(Optional[str], None)` (which returns its value in Python) is a None."""
        if (isinstance(node, cst.Call) and scope is not None and len(node.args) == 2
                and scope.imports.qualify(node.func) == "torch.jit.annotate"):
            return self.value(node.args[1].value, scope)
        if isinstance(node, cst.Integer):
            return INT
        if isinstance(node, cst.Float):
            return FLOAT
        if isinstance(node, (cst.SimpleString, cst.ConcatenatedString, cst.FormattedString)):
            return STR
        if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, (cst.Minus, cst.Plus)) and isinstance(
                node.expression, (cst.Integer, cst.Float)):
            return self.value(node.expression, scope)
        if isinstance(node, cst.Name) and node.value in ("True", "False"):
            return BOOL
        if is_none(node):
            return NONE
        if isinstance(node, (cst.List, cst.Tuple)):
            if any(not isinstance(element, cst.Element) for element in node.elements):
                return None
            kinds = [self.value(element.value, scope) for element in node.elements]
            if isinstance(node, cst.Tuple):
                if any(not isinstance(kind, Type) for kind in kinds):
                    return None
                return tuple_of(kinds)
            if not kinds:
                return Failed("empty-list")
            if any(kind is None or isinstance(kind, Submodule) for kind in kinds):
                return None
            if any(isinstance(kind, Failed) for kind in kinds):
                return Failed("list-element")
            if len(set(kinds)) > 1:
                return Failed("mixed-list")
            return list_of(kinds[0])
        if isinstance(node, cst.Dict):
            if not node.elements:
                return Failed("empty-dict")
            keys, values = [], []
            for element in node.elements:
                if not isinstance(element, cst.DictElement):
                    return None
                keys.append(self.value(element.key, scope))
                values.append(self.value(element.value, scope))
            if any(not isinstance(kind, Type) for kind in keys + values):
                return None
            if len(set(keys)) > 1 or len(set(values)) > 1:
                return Failed("mixed-dict")
            return dict_of(keys[0], values[0])
        if isinstance(node, (cst.Set, cst.SetComp)):
            return Failed("set")
        if isinstance(node, cst.Lambda):
            return Failed("lambda")
        if isinstance(node, cst.GeneratorExp):
            return Failed("generator")
        if isinstance(node, cst.IfExp):
            body, orelse = self.value(node.body, scope), self.value(node.orelse, scope)
            return body if body == orelse else None
        if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.Power):
            # Python's int ** int is an int for an exponent >= 0 and a float otherwise (TorchScript's is a float)
            base, exponent = self.value(node.left, scope), self.value(node.right, scope)
            if base == INT and exponent == INT:
                return INT if isinstance(node.right, cst.Integer) else None
        if isinstance(node, cst.Name) and scope is not None and node.value in scope.params:
            return scope.params[node.value]
        if isinstance(node, cst.Call) and scope is not None:
            qualified = scope.imports.qualify(node.func)
            if qualified in _PARAMETER_CLASSES:
                return TENSOR
            if qualified in ("builtins.set", "builtins.frozenset"):
                return Failed("set")
            if qualified == "builtins.object":
                return Failed("object")
            if qualified is not None and qualified.startswith("numpy."):
                return Failed("ndarray")  # numpy arrays and scalars: no TorchScript type
            if qualified in ("builtins.int", "builtins.len") or (qualified == "builtins.round" and len(node.args) == 1):
                return INT  # Python's `round(x)` is an int (TorchScript's `round` of a float is a float)
            if qualified == "builtins.float":
                return FLOAT
            if qualified == "builtins.bool":
                return BOOL
            if qualified == "builtins.str":
                return STR
            if qualified == "torch.device":
                return DEVICE
        if scope is not None and self.typer is not None:
            kind = self.typer(node, scope)
            # torch types an attribute by the value `__init__` stored (`_jit_try_infer_type`), and a value is never a
            # Union: where the static type holds one (a call annotated `Union[int, List[int]]`), it does not say which
            if isinstance(kind, Type) and _holds_union(kind):
                return None
            return kind
        return None

    def _registered(self, cls: ClassInfo) -> dict[str, Type | None]:
        """`self.register_buffer("name", value)` and `register_parameter` in the `__init__`s of the class and its
        bases: a Tensor, or None when the value is None (torch types such an attribute NoneType)."""
        return run_fact(self.project, _Registered, cls)



_CALLABLE = frozenset({"typing.Callable", "collections.abc.Callable"})
_OPTIONAL = frozenset({"typing.Optional", "typing_extensions.Optional"})
_UNION = frozenset({"typing.Union", "typing_extensions.Union"})


def _callable_annotation(node: cst.BaseExpression, imports, none: bool = False) -> bool:
    """`Callable`, `Callable[...]`, `Optional[Callable[...]]`, `Union[Callable[...], None]`, `Callable[...] | None`
    (`none`: a None member also counts, inside a Union)."""
    if none and is_none(node):
        return True
    if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.BitOr):
        return (_callable_annotation(node.left, imports, True) and _callable_annotation(node.right, imports, True)
                and not (is_none(node.left) and is_none(node.right)))
    if isinstance(node, cst.Subscript):
        outer = imports.qualify(node.value)
        if outer in _CALLABLE:
            return True
        elements = [e.slice.value for e in node.slice if isinstance(e.slice, cst.Index)]
        if outer in _OPTIONAL and len(elements) == 1:
            return _callable_annotation(elements[0], imports)
        if outer in _UNION and elements and not all(is_none(e) for e in elements):
            return all(_callable_annotation(e, imports, True) for e in elements)
        return False
    return isinstance(node, (cst.Name, cst.Attribute)) and imports.qualify(node) in _CALLABLE


def _single_assignments(init: cst.FunctionDef, params) -> list[tuple[str, cst.BaseExpression]]:
    """`name = value` statements of `init` (not in nested functions or classes) whose name no other binding of
    `init` binds and that is not a parameter, in source order."""
    counts = Counter(name for _binding, target in bindings(init.body, into_functions=False)
                     for name in target_names(target))
    found: list[tuple[str, cst.BaseExpression]] = []

    class Assignments(OneScope):
        def visit_Assign(self, node: cst.Assign) -> None:
            if len(node.targets) == 1 and isinstance(node.targets[0].target, cst.Name):
                name = node.targets[0].target.value
                if counts[name] == 1 and name not in params:
                    found.append((name, node.value))

    walk(init.body, Assignments())
    return found


class _Member(RunFact):
    """What `self.<name>` is in compiled code of a class (key: the name, and the inference that computes it)."""

    @classmethod
    def compute(cls, project: ProjectIndex, owner: ClassInfo, name: str, members: "ModuleMembers") -> Member:
        return members.compute_member(owner, name)


class _Registered(RunFact):
    """The buffers and parameters a class's `__init__`s register, and the methods they call (`InitHelpers`): a
    Tensor, or None registered as None (unknown when both)."""

    @classmethod
    def compute(cls, project: ProjectIndex, owner: ClassInfo) -> dict:
        found: dict[str, set] = {}
        for current in reversed(project.mro(owner)):
            cls._scan(current.methods.get("__init__"), found)
        if any(NONE in kinds for kinds in found.values()):  # only then do the methods `__init__` calls matter
            for name in sorted(run_fact(project, InitHelpers, owner)):  # (following them parses their bodies)
                cls._scan(project.find_method(owner, name), found)
        return {name: kinds.pop() if len(kinds) == 1 else None for name, kinds in found.items()}

    @staticmethod
    def _scan(init, found: dict[str, set]) -> None:
        if init is None:
            return
        self_name = first_param_name(init.node)

        class Calls(cst.CSTVisitor):
            def visit_Call(self, node: cst.Call) -> None:
                func = node.func
                if (isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name)
                        and func.value.value == self_name and func.attr.value in _REGISTRATIONS
                        and len(node.args) >= 2 and isinstance(node.args[0].value, cst.SimpleString)):
                    name = node.args[0].value.evaluated_value
                    if isinstance(name, str):
                        found.setdefault(name, set()).add(NONE if is_none(node.args[1].value) else TENSOR)

            def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
                return False

        walk(init.node.body, Calls())


class _Unpacked(RunFact):
    """The attributes the `__init__`s of a class and its bases assign as targets of an unpacking
    (`self.pool, self.fc = make_head(...)`)."""

    @classmethod
    def compute(cls, project: ProjectIndex, owner: ClassInfo) -> frozenset[str]:
        found: set[str] = set()
        for current in project.mro(owner):
            init = current.methods.get("__init__")
            if init is None:
                continue
            self_name = first_param_name(init.node)

            class Targets(OneScope):
                scope = init.node

                def visit_Assign(self, node: cst.Assign) -> None:
                    for target in node.targets:
                        if isinstance(target.target, (cst.Tuple, cst.List)):
                            _self_elements(target.target, self_name, found)

            walk(init.node, Targets())
        return frozenset(found)


def _self_elements(target: cst.Tuple | cst.List, self_name: str | None, found: set[str]) -> None:
    for element in target.elements:
        value = element.value
        if isinstance(value, (cst.Tuple, cst.List)):
            _self_elements(value, self_name, found)
        elif isinstance(value, cst.Attribute) and isinstance(value.value, cst.Name) and value.value.value == self_name:
            found.add(value.attr.value)


def _holds_union(kind: Type | None) -> bool:
    if kind is None:
        return False
    return kind.name in ("Union", "Optional", "Any") or any(_holds_union(arg) for arg in kind.args)


def join_members(members: list[Member]) -> Member:
    """One member over the classes a method is compiled for: the same, or unknown."""
    if not members:
        return None
    first = members[0]
    if all(member == first for member in members):
        return first
    if all(isinstance(member, Type) for member in members):
        joined = join_all(members)
        return joined if isinstance(joined, Type) and joined in members else None
    return None


_SEQUENTIAL_CLASSES = frozenset({"torch.nn.Sequential", "torch.nn.modules.container.Sequential"})
_CONTAINER_CLASSES = frozenset({"torch.nn.ModuleList", "torch.nn.Sequential", "torch.nn.modules.container.ModuleList",
                                "torch.nn.modules.container.Sequential"})


def static_length(info: AttributeInfo) -> int | None:
    """How many modules a ModuleList or Sequential attribute holds after `__init__`, when every assignment says so
    plainly (`nn.ModuleList([a, b])`, `nn.ModuleList([Block() for _ in range(4)])`, `nn.Sequential(a, b)`) and
    nothing adds to it."""
    if info.filled_in_init or info.assigned_in - {"__init__"} or not info.init_values or info.registered:
        return None
    lengths = set()
    for value in info.init_values:
        node = value.node
        if not isinstance(node, cst.Call) or value.imports.qualify(node.func) not in _CONTAINER_CLASSES:
            return None
        if any(argument.star or argument.keyword for argument in node.args):
            return None
        kind = value.imports.qualify(node.func).rsplit(".", 1)[-1]
        if kind == "Sequential":
            if len(node.args) == 1 and not isinstance(node.args[0].value, (cst.Call, cst.Name, cst.Attribute)):
                return None
            if any(not isinstance(argument.value, cst.Call) for argument in node.args):
                return None  # a name may hold an OrderedDict, or a list to unpack
            lengths.add(len(node.args))
            continue
        if len(node.args) != 1:
            return None
        items = node.args[0].value
        if isinstance(items, cst.List) and all(isinstance(element, cst.Element) for element in items.elements):
            lengths.add(len(items.elements))
        elif (isinstance(items, cst.ListComp) and items.for_in.inner_for_in is None and not items.for_in.ifs
              and isinstance(items.for_in.iter, cst.Call) and value.imports.qualify(items.for_in.iter.func)
              == "builtins.range" and len(items.for_in.iter.args) == 1
              and isinstance(items.for_in.iter.args[0].value, cst.Integer)):
            lengths.add(int(items.for_in.iter.args[0].value.value))
        else:
            return None
    return lengths.pop() if len(lengths) == 1 else None
