"""Expression typing: every expression of compiled code gets the TorchScript type the frontend gives it.

The specification is `ir_emitter.cpp` (`emitSugaredExpr`, `emitSimpleExpr`, `emitApplyExpr`, `emitSubscript`,
`emitBinaryOp`), `sugared_value.cpp` (attributes of values: Tensor properties, NamedTuple fields, methods as the
`aten::` operators whose `self` takes the value) and `python_sugared_value.cpp` (what a name of the module's Python
scope is to compiled code). In short:

- literals: int, float, complex, str, bool, None; a list display joins its elements (a Union when they do not
  join), `[]` is a `List[Tensor]` and `{}` a `Dict[str, Tensor]` unless an annotation (a hint) says otherwise; a
  dict display is typed by its first key and value; comprehensions have their element's type;
- a name is a local variable (the flow's environment), else a builtin of the frontend's table (`len`, `range`,
  `isinstance`, ...), else what the file binds it to: a module (`torch`), a function, a class, a constant (an int, a
  float, a bool, a str, None, a tuple of those: a value of another kind cannot be used);
- operators are calls of `aten::` operators (`a + b` is `aten::add(a, b)`, `x in xs` is `aten::__contains__(xs,
  x)`, `a < b` is `aten::lt`); `is`, `is not`, `and`, `or`, `not` are bools;
- calls are matched against the callee's schemas (`calls.match_overloads`): torch's operators by their schema data,
  the compiled `torch.nn.functional` functions and project functions by their signatures, submodules by their
  `forward`; the call has the matched overload's return type, and a call no overload accepts is a result;
- attributes: a Tensor's properties (`shape`, `dtype`, `device`, `T`, ...), a NamedTuple's fields, a module's
  attributes as `modules.ModuleMembers` infers them, a class's attributes and properties, a method (bound for a
  call), an Enum's `name`/`value`;
- subscripts: a Tensor indexed is a Tensor, a list's element (a slice: the list), a tuple's element (by an int
  literal), a dict's value, a str; a module container indexed by a literal is its module.

What needs a runtime value the source does not show is unknown (None), with the reason recorded for the coverage
figure. Sugared values (modules, functions, classes, methods: not first-class values) are `Sugared`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable

import libcst as cst

from jitlint.facts.syntax import subscript_elements
from jitlint.facts.torch_api import PARAMETER_CLASSES
from jitlint.literals import literal_type
from jitlint.names import ImportTable
from jitlint.targets.script import schemas
from jitlint.targets.script.literals import is_lambda_global
from jitlint.targets.script.typing import calls
from jitlint.targets.script.typing.annotations import Reader, Signature, class_type, is_none, signature
from jitlint.targets.script.typing.calls import Arg, CallMatch, Overload
from jitlint.targets.script.typing.classes import decorator_texts, enum_members, plain_bases
from jitlint.targets.script.typing.frontend_names import (
    BINARY_OPERATORS, COMPARISONS, DEVICE_PROPERTIES, DTYPES, EXCEPTIONS, MATH_CONSTANTS, TENSOR_CASTS, TENSOR_PROPERTIES,
)
from jitlint.targets.script.typing.modules import Failed, ModuleMembers, Submodule, join_members, torch_module_attribute
from jitlint.targets.script.typing.results import (
    AnnotateMismatch, AttributeUnconvertible, SugaredReassign, CallArgument, ClassProblem, DictKeyProblem, UnionCandidates, HasattrSubject, HintMismatch, IdOfValue, MethodAsValue, NoAttribute, NoMatchingCall, NotCallable, NotIterable,
    NotSubscriptable, RangeArguments, Result, SpecialFormArguments, TensorIndex, StarredList, SugaredMisuse, TernaryMismatch, TolistBadHint, TolistWithoutHint,
    TupleMisuse, TupleOfList, UnwrapNone, VariableTypeChange)
from jitlint.targets.script.typing.types import (
    ANY, ANY_LIST, ANY_TUPLE, BOOL, COMPLEX, DEVICE, FLOAT, INT, NONE, NUMBER, STR, TENSOR, Type, assignable, convert, dict_of, join,
    join_or_union, list_of, subtype, tuple_of, without_none)
from jitlint.targets.script.typing.values import Sugared, Value

if TYPE_CHECKING:
    from jitlint.project import ClassInfo, FunctionInfo, ModuleInfo, ProjectIndex


# The frontend's own names (`Environment::getSugaredVar`'s table), resolved before the file's names.
BUILTIN_FUNCTIONS = {
    "len": "aten::len", "hex": "aten::hex", "oct": "aten::oct", "round": "aten::round", "hash": "aten::hash",
    "id": "prim::id", "min": "prim::min", "max": "prim::max", "abs": "prim::abs", "all": "aten::all",
    "any": "aten::any", "divmod": "aten::divmod", "sum": "aten::sum", "ord": "aten::ord", "chr": "aten::chr",
    "bin": "aten::bin", "pow": "aten::pow", "rangelist": "prim::rangelist", "sorted": "aten::sorted"}
CASTS = {"float": (FLOAT, "aten::Float"), "int": (INT, "aten::Int"), "bool": (BOOL, "aten::Bool"),
         "str": (STR, "aten::str"), "complex": (COMPLEX, "aten::Complex")}
SPECIAL_FORMS = frozenset({"print", "tuple", "getattr", "hasattr", "isinstance", "list", "dict", "range", "zip",
                           "enumerate", "AssertionError"})
FRONTEND_NAMES = frozenset(BUILTIN_FUNCTIONS) | frozenset(CASTS) | SPECIAL_FORMS


def _items(elements) -> Value:
    """What one step of `enumerate`/`zip` gives: a tuple of the elements' types; over a module container (an
    unrolled loop: `SugaredTupleValue`) the module and the other values side by side ("items", `info` the parts),
    which a tuple target unpacks; unknown when a part is."""
    elements = tuple(elements)
    if all(isinstance(element, Type) for element in elements):
        return tuple_of(elements)
    if all(isinstance(element, Type) or (isinstance(element, Sugared) and element.kind == "module")
           for element in elements):
        return Sugared("items", info=elements)
    return None


class Environment(dict):
    """Local names and their values (the flow's frame values)."""


@dataclass
class Scope:
    """A compiled function being typed, and what typing it needs of the rest of the project."""

    function: cst.FunctionDef
    module: "ModuleInfo"
    project: "ProjectIndex"
    info: "FunctionInfo | None"
    owners: list  # the module or TorchScript classes the function is compiled for
    self_name: str | None
    signature: Signature
    members: ModuleMembers
    callee_of: Callable[[cst.Call], "tuple[FunctionInfo, bool] | None"] = lambda call: None
    returns_of: Callable[["FunctionInfo", "ClassInfo | None"], "Type | None"] = lambda info, owner: None
    is_module: bool = False  # `self` is a module (not a TorchScript class instance)
    # The value torch folds `self.<name>` to in a condition: True/False for a constant bool flag, "uncertain" for a
    # constant whose value depends on the build, None for an attribute read at run time.
    constant_flag: Callable[[str], "bool | str | None"] = lambda name: None
    # How many modules the ModuleList or Sequential attribute holds after `__init__` (None: unknown).
    container_length: Callable[[str], "int | None"] = lambda name: None

    @property
    def imports(self) -> ImportTable:
        return self.module.imports


class ExpressionChecker:
    """Types the expressions of one compiled function. `report` receives the results (None: type only)."""

    def __init__(self, scope: Scope, report: Callable[[Result], None] | None = None,
                 types: dict[int, Value] | None = None, unknown: dict[int, str] | None = None) -> None:
        self.scope = scope
        self.report = report or (lambda result: None)
        self.types = types if types is not None else {}
        self.unknown = unknown if unknown is not None else {}
        self.reader = Reader(scope.imports, scope.project)
        self._called: set[int] = set()  # attribute nodes that are the callee of a call
        # Called with a Name no frame binds before it is looked up as a global (True: handled, the name had an
        # error deferred on it); and with each method call's receiver node, method name and argument types.
        self.on_undefined: Callable[[cst.Name], bool] | None = None
        # Expressions whose value may be sugared (a method, a module): the value of an assignment (`f = x.sum`).
        self.sugared_ok: set[int] = set()
        # Expressions typed by an annotation (`x: T = value`, `torch.jit.annotate(T, value)`), read or not.
        self.annotated: set[int] = set()
        self.on_method_call: Callable[[cst.Call, str, list], None] | None = None

    # -- entry points ----------------------------------------------------------------------------------------------
    def expr(self, node: cst.BaseExpression, env: dict, hint: Type | None = None) -> Value:
        """The value of an expression (its type, a sugared value, or None when unknown)."""
        value = self._expr(node, env, hint)
        self.types[id(node)] = value
        return value

    def value(self, node: cst.BaseExpression, env: dict, hint: Type | None = None) -> Value:
        """An expression whose first-class value torch needs (`asValue`: an argument, an operand, an element of a
        display, a returned value): a name that holds none is reported, and unknown after."""
        value = self.expr(node, env, hint)
        if isinstance(value, Sugared) and value.kind == "self-module":  # `ModuleValue::asValue`: its class type
            return class_type(self.scope.owners[0], self.scope.project) if len(self.scope.owners) == 1 else None
        return None if self.misused(node, value, "value") else value

    def misused(self, node: cst.CSTNode, value: Value, use: str) -> bool:
        """Report (and say so) a sugared value that torch cannot use as `use` (see `SugaredMisuse`)."""
        if isinstance(value, Sugared) and self._no_first_class(value, use):
            self.report(SugaredMisuse(node, value.kind, value.name, use))
            return True
        return False

    @staticmethod
    def _no_first_class(value: "Sugared", use: str) -> bool:
        """Whether torch rejects this use of a sugared value: a module-level Python value, an exception class have
        no use but a call (and `raise`); a Python module only gives attributes; a builtin operator or a compiled
        function only gets called."""
        kind = value.kind
        if kind in ("python-value", "python-module", "exception"):
            return kind != "python-module" or use not in ("attribute", "hasattr")
        if kind == "builtin":
            return value.name.startswith("builtins.") or schemas.operator_for(value.name) is not None
        if kind == "function":
            return use != "hasattr"
        return False

    def type_of(self, node: cst.BaseExpression, env: dict, hint: Type | None = None) -> Type | None:
        """The first-class type of an expression (None for sugared values too)."""
        value = self.expr(node, env, hint)
        return value if isinstance(value, Type) else None

    def _unknown(self, node: cst.CSTNode, why: str) -> None:
        self.unknown.setdefault(id(node), why)
        return None

    # -- dispatch --------------------------------------------------------------------------------------------------
    def _expr(self, node: cst.BaseExpression, env: dict, hint: Type | None) -> Value:
        if isinstance(node, cst.Name):
            return self._name(node, env)
        if isinstance(node, cst.Attribute):
            return self._attribute(node, env)
        if isinstance(node, cst.Call):
            return self._call(node, env, hint)
        if isinstance(node, cst.Subscript):
            return self._subscript(node, env, hint)
        if isinstance(node, cst.BinaryOperation):
            return self._binary(node, env)
        if isinstance(node, cst.BooleanOperation) or (
                isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Not)) or (
                isinstance(node, cst.Comparison) and any(
                    isinstance(target.operator, (cst.Is, cst.IsNot)) for target in node.comparisons)):
            from jitlint.targets.script.typing.binder import condition

            condition(node, env, self)
            return BOOL
        if isinstance(node, cst.UnaryOperation):
            return self._unary(node, env)
        if isinstance(node, cst.Comparison):
            return self._comparison(node, env)
        if isinstance(node, cst.IfExp):
            return self._if_expression(node, env, hint)
        if isinstance(node, (cst.List, cst.ListComp, cst.GeneratorExp)):
            return self._list(node, env, hint)  # a generator expression is compiled as a list comprehension
        if isinstance(node, (cst.Dict, cst.DictComp)):
            return self._dict(node, env, hint)
        if isinstance(node, cst.Tuple):
            return self._tuple(node, env, hint)
        if isinstance(node, (cst.FormattedString, cst.ConcatenatedString)):
            # `f"a" f"{x}"` is one f-string to Python's parser (and torch's frontend): every part is compiled
            parts = [node.left, node.right] if isinstance(node, cst.ConcatenatedString) else [
                part.expression for part in node.parts if isinstance(part, cst.FormattedStringExpression)]
            for part in parts:
                self.value(part, env)
            return STR
        kind = literal_type(node)
        if kind is not None:
            return {"int": INT, "float": FLOAT, "complex": COMPLEX, "bool": BOOL, "str": STR, "bytes": STR,
                    "None": NONE}.get(kind)
        if isinstance(node, cst.NamedExpr):
            return self.expr(node.value, env)
        if isinstance(node, cst.Ellipsis):
            return Sugared("ellipsis")
        return self._unknown(node, type(node).__name__)

    # -- names -----------------------------------------------------------------------------------------------------
    def _name(self, node: cst.Name, env: dict) -> Value:
        name = node.value
        if name in env:
            value = env[name]
            if value is None:
                self._unknown(node, "variable")
            return value
        if name in ("True", "False"):
            return BOOL
        if name == "None":
            return NONE
        if name in FRONTEND_NAMES:
            return Sugared("builtin", f"builtins.{name}")
        qualified = self.scope.imports.qualify(node)
        if qualified is None:
            if self.on_undefined is not None and self.on_undefined(node):
                return None
            return self._unknown(node, "undefined")
        return self.qualified_value(qualified, node, constant=False)

    def qualified_value(self, qualified: str, node: cst.CSTNode | None, constant: bool = True) -> Value:
        """What a qualified name is: `constant` when it is read as an attribute of a Python module (`config.EPS`,
        `math.pi`), which torch inlines as a constant; a name of the file's own scope (`EPS`, or `EPS` imported by
        name) is no constant: a Python value of a type torch holds cannot be used as a value that way."""
        project = self.scope.project
        if qualified.startswith("builtins."):
            if qualified == "builtins.Ellipsis":
                return Sugared("ellipsis")
            if qualified in EXCEPTIONS:
                return Sugared("exception", qualified)
            if qualified[9:] in ("int", "float", "bool", "str", "list", "dict", "tuple", "complex"):
                return Sugared("builtin", qualified)
            return Sugared("builtin", qualified)  # a Python builtin torch does not know: an error when called
        head = qualified.split(".", 1)[0]
        if qualified in MATH_CONSTANTS:
            return FLOAT
        if head == "torch" and qualified.rsplit(".", 1)[-1] in DTYPES and qualified.count(".") == 1:
            return INT
        if schemas.operator_for(qualified) is not None:
            return Sugared("builtin", qualified)
        found = project.resolve(qualified)
        if found is not None:
            from jitlint.project import ClassInfo

            if isinstance(found, ClassInfo):
                return Sugared("class", qualified, info=found)
            return Sugared("function", qualified, info=found)
        module = project.module(qualified)
        if module is not None or qualified in ("torch", "math", "torch.nn", "torch.nn.functional", "torch.jit",
                                               "typing", "warnings", "torch.linalg", "torch.fft", "torch.special"):
            return Sugared("python-module", qualified)
        module_name, _, attribute = qualified.rpartition(".")
        owner = project.module(module_name) if module_name else None
        if owner is not None and attribute in owner.globals:
            if not constant:
                return Sugared("python-value", qualified)
            return self._constant(owner.globals[attribute], owner, node)
        if head in ("torch", "math", "typing", "warnings", "collections", "numbers", "enum", "dataclasses"):
            return Sugared("builtin", qualified)
        return self._unknown(node, "python-value") if node is not None else None

    def _constant(self, value: cst.BaseExpression, owner: "ModuleInfo", node: cst.CSTNode | None) -> Value:
        """A module-level value used in compiled code: a constant of a type torch can hold, else a Python value."""
        kind = literal_type(value)
        if isinstance(value, cst.UnaryOperation) and isinstance(value.operator, (cst.Minus, cst.Plus)):
            kind = literal_type(value.expression)
        if kind is not None:
            return {"int": INT, "float": FLOAT, "complex": COMPLEX, "bool": BOOL, "str": STR, "bytes": STR,
                    "None": NONE}.get(kind)
        if isinstance(value, cst.ConcatenatedString):
            return STR
        if isinstance(value, cst.Tuple):
            elements = [self._constant(e.value, owner, None) if isinstance(e, cst.Element) else None
                        for e in value.elements]
            if all(isinstance(element, Type) for element in elements):
                return tuple_of(elements)
            return self._unknown(node, "python-value") if node is not None else None
        if isinstance(value, (cst.List, cst.Dict, cst.Set, cst.ListComp, cst.DictComp, cst.SetComp)):
            return Sugared("python-value", type(value).__name__.lower())
        if isinstance(value, (cst.Name, cst.Attribute)):
            qualified = owner.imports.qualify(value)
            if qualified is not None:
                return self.qualified_value(qualified, node)
        return self._unknown(node, "python-value") if node is not None else None

    # -- what conditions need ----------------------------------------------------------------------------------------
    def has_attribute(self, subject: Value, name: str) -> bool | None:
        """`hasattr(subject, name)` as torch decides it while compiling (None: unknown)."""
        project = self.scope.project
        if isinstance(subject, Sugared) and subject.kind == "self-module":
            owners = self.scope.owners
        elif isinstance(subject, Sugared) and subject.kind == "module" and subject.info.classes and not (
                subject.info.torch_classes):
            owners = list(subject.info.classes)
        elif isinstance(subject, Type) and subject.name in ("Class", "Module"):
            cls = project.resolve_class(subject.qualname)
            owners = [cls] if cls is not None else []
        else:
            return None
        if not owners:
            return None
        answers = set()
        for owner in owners:
            if any(current.dynamic_attributes for current in project.mro(owner)):
                return None
            if project.torch_bases(owner) - {"torch.nn.Module", "torch.nn.modules.module.Module"}:
                return None  # a torch base class has attributes jitlint does not list
            found = project.attributes(owner).get(name) is not None or project.find_method(owner, name) is not None
            if not found and name in ("training", "forward"):
                found = True
            answers.add(found)
        return answers.pop() if len(answers) == 1 else None

    def constant_bool(self, node: cst.BaseExpression, value: Value) -> bool | str | None:
        """The value of a condition torch folds as a constant: a bool literal, a module-level bool constant, a
        `Final` or `__constants__` bool attribute of the module ("uncertain" when its value depends on how the
        module is built). None for a condition decided at run time."""
        if isinstance(node, cst.Name):
            if node.value in ("True", "False"):
                return node.value == "True"
            if node.value in getattr(self, "_env_names", ()):  # a local variable: a run-time value
                return None
        if isinstance(node, cst.Attribute) and value == BOOL:
            base = self.types.get(id(node.value))
            qualified = self.scope.imports.qualify(node)
            if isinstance(base, Sugared) and base.kind == "python-module" and qualified is not None:
                module_name, _, attribute = qualified.rpartition(".")
                module = self.scope.project.module(module_name)
                found = module.globals.get(attribute) if module is not None else None
                if isinstance(found, cst.Name) and found.value in ("True", "False"):
                    return found.value == "True"
                return "uncertain"
        if (isinstance(node, cst.Attribute) and isinstance(node.value, cst.Name)
                and node.value.value == self.scope.self_name and self.scope.is_module):
            return self.scope.constant_flag(node.attr.value)
        return None

    # -- attributes ------------------------------------------------------------------------------------------------
    def _attribute(self, node: cst.Attribute, env: dict) -> Value:
        base = self.expr(node.value, env)
        name = node.attr.value
        called = id(node) in self._called
        if isinstance(base, Sugared):
            if self.misused(node.value, base, "attribute"):
                return None
            return self._sugared_attribute(node, base, name, called)
        if base is None:
            return self._unknown(node, "attribute-of-unknown")
        return self.type_attribute(node, base, name, called)

    def type_attribute(self, node: cst.CSTNode, base: Type, name: str, called: bool) -> Value:
        if base == TENSOR:
            if name in TENSOR_PROPERTIES:
                return TENSOR_PROPERTIES[name]
            if name in TENSOR_CASTS or name in ("tolist", "__getitem__", "type"):
                return Sugared("method", name, receiver=base)
        if base == DEVICE and name in DEVICE_PROPERTIES:
            return DEVICE_PROPERTIES[name]
        if base.name == "Tuple" and base.fields:
            if name in base.fields:
                return base.args[base.fields.index(name)]
        if base.name == "Enum" and name in ("name", "value"):
            return STR if name == "name" else base.args[0]
        if base.name in ("Class", "Module", "Interface", "ModuleInterface"):
            return self._class_member(node, base, name, called)
        if base.name == "Tuple":
            self.report(TupleMisuse(node, base, "attribute", name=name))
            return None
        if base.name in ("Optional", "Union", "Any"):
            # only builtin methods whose `self` takes the whole type: an Optional, a Union must be refined first
            if calls.has_method(name, base) is not False:
                return Sugared("method", name, receiver=base)
            if base.fully_known:
                self.report(NoAttribute(node, base, name, called))
                return None
            return self._unknown(node, "attribute-of-union")
        if calls.has_method(name, base) is not False:
            if not called and base == TENSOR and id(node) not in self.sugared_ok:
                self.report(MethodAsValue(node, base, name))  # 'builtin cannot be used as a value'
            return Sugared("method", name, receiver=base)
        if base.fully_known:
            self.report(NoAttribute(node, base, name, called))
        return None

    def _class_member(self, node: cst.CSTNode, base: Type, name: str, called: bool) -> Value:
        cls = self.scope.project.resolve_class(base.qualname)
        if cls is None:
            return self._unknown(node, "class")
        method = self.scope.project.find_method(cls, name)
        if method is not None:
            if method.is_property:
                return self.scope.returns_of(method, cls)
            return Sugared("method", name, info=method, receiver=base)
        if base.name == "Module":
            return self._module_member(node, [cls], name)
        attributes = self.scope.project.attributes(cls)
        merged = attributes.get(name)
        if merged is not None and "__init__" not in merged.assigned_in and not (
                isinstance(node, cst.Attribute) and isinstance(node.value, cst.Name)
                and node.value.value == self.scope.self_name) and (
                merged.class_value is not None or merged.annotation is not None) and plain_bases(
                cls, self.scope.project):
            self.report(ClassProblem(node, cls.name, "class-attribute", name))  # an instance has no class attributes
            return None
        for current in self.scope.project.mro(cls):
            info = current.own_attributes.get(name)
            if info is not None and info.annotation is not None:
                return Reader(info.annotation_imports or current.module.imports, self.scope.project).read(
                    info.annotation)
        return self._unknown(node, "class-attribute")

    def _sugared_attribute(self, node: cst.Attribute, base: Sugared, name: str, called: bool) -> Value:
        kind = base.kind
        if kind == "python-module":
            return self.qualified_value(f"{base.name}.{name}", node)
        if kind == "module":
            return self._submodule_attribute(node, base, name)
        if kind == "self-module":
            return self._module_member(node, self.scope.owners, name)
        if kind == "class":
            cls = base.info
            if cls is not None:
                project = self.scope.project
                kind_type = class_type(cls, project)
                if kind_type is not None and kind_type.name == "Enum":
                    if name not in enum_members(cls) and plain_bases(cls, project, enum=True):
                        self.report(ClassProblem(node, cls.name, "enum-member", name, kind_type))
                        return None
                    return kind_type
                method = project.find_method(cls, name)
                if method is not None:
                    return Sugared("function", f"{base.name}.{name}", info=method)
                if kind_type is not None and kind_type.name == "Class" and name not in project.attributes(cls) and (
                        plain_bases(cls, project)) and not name.startswith("__"):
                    self.report(ClassProblem(node, cls.name, "class-lookup", name))
                    return None
            return self._unknown(node, "class-attribute")
        if kind == "builtin":
            return self.qualified_value(f"{base.name}.{name}", node)
        return self._unknown(node, f"attribute-of-{kind}")

    def _module_member(self, node: cst.CSTNode, owners: list, name: str) -> Value:
        """`self.<name>` for the module classes the method is compiled for."""
        project = self.scope.project
        if not owners:
            return self._unknown(node, "self")
        values: list = []
        for owner in owners:
            method = project.find_method(owner, name)
            while method is not None and method.shadows is not None and not method.is_property:
                method = method.shadows  # a property's setter (or deleter): its getter is read
            if method is not None and method.node is not None:
                if method.is_property:
                    values.append(self.scope.returns_of(method, owner))
                else:
                    values.append(Sugared("method", name, info=method, receiver=Sugared("self-module")))
                continue
            member = self.scope.members.member(owner, name)
            values.append(member)
        member = join_members(values) if not any(isinstance(v, Sugared) for v in values) else (
            values[0] if all(v == values[0] for v in values) else None)
        if isinstance(member, Submodule):
            return Sugared("module", name, info=member)
        if isinstance(member, Failed):
            if member.reason in ("set", "ndarray", "generator", "mixed-dict", "list-element"):
                self.report(AttributeUnconvertible(node, name, member.reason))
                return None
            return self._unknown(node, "failed-attribute")
        if member is None:
            return self._unknown(node, "module-attribute")
        return member

    def _submodule_attribute(self, node: cst.Attribute, base: Sugared, name: str) -> Value:
        submodule: Submodule = base.info
        if submodule.container is not None:
            if submodule.container == "ModuleDict" and name in ("items", "values", "keys"):
                return Sugared("method", name, receiver=base)
            return self._unknown(node, "container-attribute")
        if submodule.classes and not submodule.torch_classes:
            return self._module_member(node, list(submodule.classes), name)
        found = {torch_module_attribute(torch_class, name) for torch_class in submodule.candidates()
                 if isinstance(torch_class, str)} | ({self._module_member(node, list(submodule.classes), name)}
                                                     if submodule.classes else set())
        return found.pop() if len(found) == 1 and None not in found else self._unknown(node, "torch-module-attribute")

    # -- calls -------------------------------------------------------------------------------------------------------
    def _call(self, node: cst.Call, env: dict, hint: Type | None) -> Value:
        func = node.func
        if isinstance(func, cst.Attribute):
            self._called.add(id(func))
        callee = self.expr(func, env)
        if isinstance(callee, Sugared):
            if callee.kind == "builtin":
                return self._builtin_call(node, callee.name, env, hint)
            if callee.kind == "method":
                return self._method_call(node, callee, env, hint)
            if callee.kind == "function":
                return self._function_call(node, callee.info, env, bound=False, owner=None)
            if callee.kind == "module":
                return self._module_call(node, callee.info, env)
            if callee.kind == "class":
                return self._class_call(node, callee, env)
            if callee.kind == "python-value" and is_lambda_global(self.scope.project, callee.name):
                self._arguments(node, env)  # torch compiles a called global as a function: a lambda is no `def`
                return self.report(SugaredMisuse(node, callee.kind, callee.name, "call-lambda"))
            if callee.kind == "exception":
                self._arguments(node, env)
                return Sugared("exception-instance", callee.name)
        self._arguments(node, env)
        if isinstance(callee, Type) and callee.name in ("Tensor", "int", "float", "bool", "str", "NoneType", "List",
                                                        "Tuple", "Dict", "Optional"):
            self.report(NotCallable(node, callee))
            return None
        return self._unknown(node, "call-of-unknown")

    def _arguments(self, node: cst.Call, env: dict, sugared: int = 0) -> list[Arg] | None:
        """The call's arguments for matching; None when their number is unknown (`*xs` of unknown length). The
        first `sugared` arguments may be sugared values (`torch.jit.fork`'s function); the others are values."""
        args: list[Arg] = []
        known = True
        for position, argument in enumerate(node.args):
            value = (self.expr if position < sugared or argument.star else self.value)(argument.value, env)
            kind = value if isinstance(value, Type) else None
            if argument.star == "*":
                if kind is not None and kind.name == "Tuple":
                    args.extend(Arg(None, element, node=argument.value) for element in kind.args)
                    continue
                if kind is not None and kind.name == "List":
                    self.report(StarredList(argument.value, kind))
                known = False
                continue
            if argument.star == "**":
                known = False
                continue
            empty = isinstance(argument.value, cst.List) and not argument.value.elements
            args.append(Arg(argument.keyword.value if argument.keyword else None, kind, empty, node=argument.value))
        return args if known else None

    def _matched(self, node: cst.CSTNode, callee: str, candidates: tuple[Overload, ...], args: list[Arg] | None,
                 call: cst.Call | None, receiver: Value = False, operator: str | None = None,
                 project_function: Any = None) -> Type | None:
        if args is None or not candidates:
            return self._unknown(node, "call-arguments")
        receiver_type: Type | None | bool = receiver if receiver is False or isinstance(receiver, Type) else None
        matched: CallMatch = calls.match_overloads(candidates, args, receiver_type)  # type: ignore[arg-type]
        if matched.status == "no":
            arguments = tuple(CallArgument(a.node, a.keyword, a.type) for a in args)
            receiver_node = None
            if receiver is not False and isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute):
                receiver_node = node.func.value
            self.report(NoMatchingCall(node, callee, matched.rejections, arguments,
                                       receiver_type if isinstance(receiver_type, Type) else None, operator,
                                       project_function, candidates, tuple(args), receiver_node))
            return None
        if matched.returns is None:
            return self._unknown(node, "overload")
        return matched.returns

    def _type_at(self, node: cst.CSTNode) -> Type | None:
        value = self.types.get(id(node))
        return value if isinstance(value, Type) else None

    def _builtin_call(self, node: cst.Call, qualified: str, env: dict, hint: Type | None) -> Value:
        name = qualified[9:] if qualified.startswith("builtins.") else None
        if name is not None:
            special = self._special_form(node, name, env, hint)
            if special is not _NOT_SPECIAL:
                return special
            if name in CASTS:
                return self._cast(node, name, env)
            if name in BUILTIN_FUNCTIONS:
                args = self._arguments(node, env)
                if name == "id" and args and len(args) == 1 and args[0].type is not None:
                    value = args[0].type
                    if value.name not in ("Class", "Optional", "NoneType") or (
                            value.name == "Optional" and value.args[0] is not None
                            and value.args[0].name != "Class"):
                        self.report(IdOfValue(node, value))
                        return None
                if name == "len" and node.args and isinstance(self.types.get(id(node.args[0].value)), Sugared):
                    return INT  # a module container's static length
                operator = BUILTIN_FUNCTIONS[name]
                return self._matched(node, name, schemas.overloads(operator), args, node)
            if name == "slice":  # `SliceValue::call`: one to three arguments, no keywords
                self._form_arguments(node, "slice", 1, 3)
            self._arguments(node, env, sugared=len(node.args))
            return self._unknown(node, "python-builtin")
        operator = schemas.operator_for(qualified)
        if qualified == "torch.jit.annotate":
            return self._annotate(node, env)
        if qualified in ("torch.jit.is_scripting", "torch._C._is_scripting"):
            return BOOL
        if qualified == "torch.jit.isinstance":
            for argument in node.args[:1]:
                self.expr(argument.value, env)
            return BOOL
        if qualified == "torch.jit._unwrap_optional":
            args = self._arguments(node, env)
            if node.args and is_none(node.args[0].value):
                self.report(UnwrapNone(node))
                return None
            return without_none(args[0].type) if args and len(args) == 1 else None
        if qualified == "torch.device":
            return self._matched(node, qualified, schemas.overloads("aten::device"), self._arguments(node, env), node)
        if qualified in ("torch.jit.fork", "torch.jit._fork", "torch.jit._awaitable"):
            if self._form_arguments(node, qualified.rpartition(".")[2].lstrip("_"), 1, None,
                                    tuple(a.keyword.value for a in node.args if a.keyword is not None)):
                return None
            self._arguments(node, env, sugared=1)
            return self._unknown(node, "fork")
        parameter = qualified in PARAMETER_CLASSES  # `nn.Parameter(...)`: a class torch tries to compile as a function
        if parameter or schemas.module_forward(qualified):  # torch builds modules only outside compiled code
            self._arguments(node, env, sugared=len(node.args))
            self.report(ClassProblem(node, qualified.rsplit(".", 1)[-1], f"instantiate{'-parameter' * parameter}"))
            return None
        if qualified in _LEGACY_CONSTRUCTORS:
            return self._legacy_constructor(node, qualified, env)
        if qualified in _RPC:
            return self._rpc_call(node, qualified.rsplit(".", 1)[-1], env)
        if qualified == "torch._check":
            self._check_call(node)
            self._arguments(node, env)
            return NONE
        if operator is None:
            # what torch makes of the arguments of a callable it does not compile as an operator is not modelled,
            # but `collections`' are no special forms: each argument is a value (`getNamedValues`: `defaultdict(list)`)
            self._arguments(node, env, sugared=0 if qualified.startswith("collections.") else len(node.args))
            return self._unknown(node, "python-callable")
        args = self._arguments(node, env)
        candidates = schemas.overloads(operator)
        dispatched = schemas.dispatch(operator)
        if dispatched is not None and len(candidates) == 2:
            half = self._dispatch_half(node, dispatched)
            if half is None:
                given = self._dispatch_argument(node, dispatched)
                if isinstance(given, cst.Name) and given.value in env:  # a variable: no constant torch can read
                    self.report(SpecialFormArguments(node, qualified, len(node.args), 0, None,
                                                     keyword=dispatched[0], missing="constant"))
                    return None
                return self._unknown(node, "boolean-dispatch")
            candidates = (candidates[0] if half else candidates[1],)
        return self._matched(node, qualified, candidates, args, node)

    def _legacy_constructor(self, node: cst.Call, qualified: str, env: dict) -> Value:
        """`torch.LongTensor(...)` (`LegacyTensorConstructor`): `device=` the only keyword; several positional
        arguments are sizes, all ints."""
        args = self._arguments(node, env)
        name = qualified.rsplit(".", 1)[-1]
        keywords = [a.keyword.value for a in node.args if a.keyword is not None]
        if len(keywords) > 1 or (keywords and keywords[0] != "device"):
            self.report(SpecialFormArguments(node, name, len(node.args), 0, None,
                                             keyword=keywords[0] if len(keywords) == 1 else "*", missing="legacy"))
            return None
        positional = [a for a in (args or []) if a.keyword is None]
        if len(positional) > 1 and any(a.type is not None and a.type.fully_known and a.type != INT
                                       for a in positional):
            self.report(SpecialFormArguments(node, name, len(positional), 0, None, missing="legacy"))
            return None
        return TENSOR

    def _rpc_call(self, node: cst.Call, name: str, env: dict) -> Value:
        """`emitRpcExpr`: two to five positional arguments, no keywords, and the callable a compiled function."""
        if self._form_arguments(node, name, 2, 5):
            self._arguments(node, env, sugared=len(node.args))
            return None
        callee = self.expr(node.args[1].value, env) if len(node.args) > 1 and not node.args[1].star else None
        for argument in node.args[2:]:
            self.value(argument.value, env)
        self.value(node.args[0].value, env)
        if isinstance(callee, Sugared) and callee.kind != "function":
            self.report(SpecialFormArguments(node.args[1].value, name, len(node.args), 2, 5, keyword=callee.kind,
                                             missing="function"))
            return None
        return self._unknown(node, "rpc")

    def _check_call(self, node: cst.Call) -> None:
        """`torch._check(cond, message=None)` (`TorchCheckValue::call`): one or two arguments, `cond` and `message`
        the only keywords, each given once, `cond` given."""
        if any(argument.star for argument in node.args):
            return
        positional = [argument for argument in node.args if argument.keyword is None]
        keywords = [argument.keyword.value for argument in node.args if argument.keyword is not None]
        count = len(node.args)
        if not 1 <= count <= 2:
            self.report(SpecialFormArguments(node, "torch._check", count, 1, 2))
            return
        for keyword in keywords:
            if keyword not in ("cond", "message"):
                self.report(SpecialFormArguments(node, "torch._check", count, 1, 2, keyword=keyword))
                return
        if "cond" in keywords and positional:
            self.report(SpecialFormArguments(node, "torch._check", count, 1, 2, keyword="cond", twice=True))
            return
        if "cond" not in keywords and not positional:
            self.report(SpecialFormArguments(node, "torch._check", count, 1, 2, missing="cond"))

    @staticmethod
    def _dispatch_argument(node: cst.Call, dispatched: tuple[str, int, bool]) -> cst.BaseExpression | None:
        name, index, _default = dispatched
        for position, argument in enumerate(node.args):
            if (argument.keyword is not None and argument.keyword.value == name) or (
                    argument.keyword is None and not argument.star and position == index):
                return argument.value
        return None

    def _dispatch_half(self, node: cst.Call, dispatched: tuple[str, int, bool]) -> bool | None:
        """The constant a boolean-dispatched function is given for its dispatch argument (its default if none)."""
        name, index, default = dispatched
        given = None
        for position, argument in enumerate(node.args):
            if argument.star:
                return None
            if (argument.keyword is not None and argument.keyword.value == name) or (
                    argument.keyword is None and position == index):
                given = argument.value
        if given is None:
            return default
        if isinstance(given, cst.Name) and given.value in ("True", "False"):
            return given.value == "True"
        return None

    def _form_arguments(self, node: cst.Call, form: str, least: int, most: int | None,
                        keywords: tuple[str, ...] = ()) -> bool:
        """`checkApplyNumInputs` and its kin: the number of positional arguments, then that no keyword is given
        but those the form takes (`keywords`). Reports a call that does not fit (and says so)."""
        if any(argument.star for argument in node.args):
            return False
        positional = [argument for argument in node.args if argument.keyword is None]
        count = len(positional)
        if count < least or (most is not None and count > most):
            self.report(SpecialFormArguments(node, form, count, least, most))
            return True
        for argument in node.args:
            if argument.keyword is not None and argument.keyword.value not in keywords:
                self.report(SpecialFormArguments(node, form, count, least, most, keyword=argument.keyword.value))
                return True
        return False

    def _special_form(self, node: cst.Call, name: str, env: dict, hint: Type | None) -> Value:
        arity = (1, 1) if name == "list" and node.args else _FORM_ARITY.get(name)
        if arity is not None and self._form_arguments(node, name, *arity):
            self._arguments(node, env, sugared=len(node.args))
            return None
        if name == "print":
            self._arguments(node, env)
            return NONE
        if name == "tuple":
            args = self._arguments(node, env)
            if args and len(args) == 1 and args[0].type is not None:
                kind = args[0].type
                if kind.name == "Tuple":
                    return kind
                if kind.name == "List" and not isinstance(node.args[0].value, (cst.List, cst.ListComp,
                                                                                    cst.GeneratorExp)):
                    self.report(TupleOfList(node, kind))
                    return None
            value = self.types.get(id(node.args[0].value)) if node.args else None
            if isinstance(value, Sugared) and value.kind == "module":
                return self._unknown(node, "tuple-of-modules")
            return self._unknown(node, "tuple")
        if name in ("getattr", "hasattr"):
            if len(node.args) >= 2 and isinstance(node.args[1].value, cst.SimpleString):
                base = self.expr(node.args[0].value, env)
                attribute = node.args[1].value.evaluated_value
                if self.misused(node.args[0].value, base, name):
                    return BOOL if name == "hasattr" else None
                if name == "hasattr":
                    if isinstance(base, Type) and base.fully_known and not base.fields and base.name not in (
                            "Class", "Module", "Interface", "ModuleInterface", "Any"):
                        self.report(HasattrSubject(node.args[0].value, base))
                    return BOOL
                if isinstance(attribute, str) and base is not None:
                    if isinstance(base, Sugared):
                        if base.kind == "self-module":
                            return self._module_member(node, self.scope.owners, attribute)
                        return self._unknown(node, "getattr")
                    return self.type_attribute(node, base, attribute, False)
            self._arguments(node, env)
            return BOOL if name == "hasattr" else self._unknown(node, "getattr")
        if name == "isinstance":
            if node.args:
                self.expr(node.args[0].value, env)
            return BOOL
        if name == "list":
            if not node.args:
                if hint is not None and hint.name == "List":
                    return hint
                return list_of(TENSOR)
            value = self.expr(node.args[0].value, env)
            if isinstance(value, Type):
                if value.name == "List":
                    return value
                if value == STR:
                    return list_of(STR)
                if value == TENSOR:
                    return list_of(TENSOR)
                if value.name == "Dict":
                    return list_of(value.args[0])
                if value.name == "Tuple":
                    joined = join_or_union(value.args)
                    return list_of(joined) if joined is not None else None
            if isinstance(value, Sugared) and value.kind in ("range", "zip", "enumerate"):
                return list_of(value.receiver) if isinstance(value.receiver, Type) else None
            return self._unknown(node, "list")
        if name == "dict":
            return self._dict_call(node, env, hint)
        if name in ("range", "zip", "enumerate"):
            return self._iteration(node, name, env)
        if name == "AssertionError":
            self._arguments(node, env)
            return Sugared("exception-instance", "builtins.AssertionError")
        return _NOT_SPECIAL

    def _dict_call(self, node: cst.Call, env: dict, hint: Type | None) -> Value:
        """`dict(...)` (`emitApplySpecialFormForDict`): of a dict, a copy; of a dict display or comprehension, that
        display (with the hint); of pairs (a list of tuples, `zip(...)`), a dict comprehension over them, whose key
        and value types must fit a hint."""
        wanted = None
        if hint is not None:
            candidates = [m for m in hint.members() if m is not None and m.name == "Dict"]
            wanted = candidates[0] if len(candidates) == 1 else None
        positional = [a for a in node.args if a.keyword is None and not a.star]
        keyword_values = [self.value(argument.value, env) for argument in node.args if argument.keyword is not None]
        if not positional:
            return wanted if wanted is not None else dict_of(STR, TENSOR)
        first = positional[0].value
        if isinstance(first, (cst.Dict, cst.DictComp)):
            return self.expr(first, env, hint)
        value = self.expr(first, env)
        if isinstance(value, Type) and value.name == "Dict":
            # keyword arguments add str keys of their values' types to a copy of the dict, which must hold them
            for role, found, expected in [("key", STR, value.args[0])] * bool(keyword_values) + [
                    ("value", kind, value.args[1]) for kind in keyword_values]:
                if isinstance(found, Type) and expected is not None and subtype(found, expected) is False:
                    self.report(HintMismatch(node, value, "dict", False, role, expected, found))
                    return value
            return value
        pair = self.element_of(value, first)
        if not isinstance(pair, Type) or pair.name != "Tuple" or len(pair.args) != 2:
            return wanted if wanted is not None else self._unknown(node, "dict")
        key, item = pair.args
        if wanted is not None:
            for role, found, expected in (("key", key, wanted.args[0]), ("value", item, wanted.args[1])):
                if found is not None and expected is not None and subtype(found, expected) is False:
                    self.report(HintMismatch(node, hint, "dict", True, role, expected, found))
                    return wanted
            return wanted
        if key is None or item is None:
            return self._unknown(node, "dict")
        return dict_of(key, item)

    def _iteration(self, node: cst.Call, name: str, env: dict) -> Value:
        if name == "enumerate":
            for argument in node.args:
                if argument.keyword is not None and argument.keyword.value != "start":
                    self.report(SpecialFormArguments(node, name, len(node.args), 1, 2, keyword=argument.keyword.value))
                    self._arguments(node, env)
                    return None
        if name == "zip" and not node.args:
            self.report(RangeArguments(node, name, 0, 1 << 30))
            return None
        if any(argument.star or argument.keyword for argument in node.args):
            self._arguments(node, env)
            return self._unknown(node, name)
        values = [(self.value if name == "range" else self.expr)(argument.value, env) for argument in node.args]
        count = len(values)
        if name == "range":
            most = 3
            if count == 0 or count > most:
                self.report(RangeArguments(node, name, count, most))
                return None
            for index, value in enumerate(values):
                if value in (FLOAT, NUMBER, TENSOR):  # `RangeValue`: every input must be an int
                    self.report(RangeArguments(node, name, count, most, index, value, node.args[index].value))
                    break  # the loop still counts in ints: what follows is checked as it will be once this is fixed
            return Sugared("range", receiver=INT)
        if name == "enumerate":
            if count == 0 or count > 2:
                self.report(RangeArguments(node, name, count, 2))
                return None
            element = self.element_of(values[0], node.args[0].value)
            return Sugared("enumerate", receiver=_items((INT, element)))
        elements = [self.element_of(value, argument.value) for value, argument in zip(values, node.args)]
        return Sugared("zip", receiver=_items(elements) if elements else None)

    def element_of(self, value: Value, node: cst.CSTNode | None = None) -> Value:
        """What iterating over a value gives (`SugaredValue::iter`): a list's element, a Tensor's rows, a str's
        characters, a dict's keys, a tuple's elements (one type, or unknown), a range's ints, a module container's
        modules. A value that cannot be iterated is reported."""
        if node is not None and self.misused(node, value, "iterable"):
            return None
        if isinstance(value, Sugared):
            if value.kind in ("range", "zip", "enumerate"):
                return value.receiver
            if value.kind == "module":
                submodule: Submodule = value.info
                if submodule.container in ("ModuleList", "Sequential"):
                    return Sugared("module", "", info=Submodule())  # one of its modules
                if submodule.container == "ModuleDict":
                    return STR
                return None
            if value.kind == "method" and isinstance(value.receiver, Sugared) and value.receiver.kind == "module":
                return None  # `self.blocks.items()`
            return None
        if value is None:
            return None
        if value.name == "List":
            return value.args[0]
        if value == TENSOR:
            return TENSOR
        if value == STR:
            return STR
        if value.name == "Dict":
            return value.args[0]
        if value.name == "Tuple":
            kinds = set(value.args)
            return kinds.pop() if len(kinds) == 1 else None
        if value in (INT, FLOAT, BOOL, NONE, ANY_TUPLE, ANY_LIST) and node is not None:
            self.report(NotIterable(node, value))  # a bare `tuple`/`list` too: "'tuple' object is not iterable"
        return None

    def _cast(self, node: cst.Call, name: str, env: dict) -> Value:
        target, operator = CASTS[name]
        args = self._arguments(node, env)
        if not node.args:
            return target
        if args is None or len(args) != 1:
            return target
        value = args[0].type
        if value == target:
            return target
        if value is not None and value.name == "Class":
            return target  # `__int__` & co. of a TorchScript class
        self._matched(node, name, schemas.overloads(operator), args, node)
        return target

    def _annotate(self, node: cst.Call, env: dict) -> Value:
        if len(node.args) != 2 or any(a.keyword or a.star for a in node.args):
            self._arguments(node, env)
            return self._unknown(node, "annotate")
        hint = self.reader.read(node.args[0].value)
        given = node.args[1].value
        self.annotated.add(id(given))
        value = self.value(given, env, hint)
        if isinstance(value, Type) and hint is not None and not isinstance(
                given, (cst.List, cst.Dict, cst.ListComp, cst.DictComp)):
            if subtype(convert(value, hint), hint) is False:  # `tryConvertToType`, then a subtype check
                self.report(AnnotateMismatch(node.args[1].value, hint, value))
        return hint if hint is not None else self._unknown(node, "annotation")

    def _method_call(self, node: cst.Call, callee: Sugared, env: dict, hint: Type | None) -> Value:
        receiver = callee.receiver
        name = callee.name
        if callee.info is not None:  # a project method of `self` or of a class instance
            owner = None
            if isinstance(receiver, Type):
                owner = self.scope.project.resolve_class(receiver.qualname)
            return self._function_call(node, callee.info, env, bound=True, owner=owner)
        if isinstance(receiver, Sugared):
            self._arguments(node, env)
            if receiver.kind == "module" and name in ("items", "values", "keys"):
                return Sugared("method-result", name, receiver=receiver)
            return self._unknown(node, "method-of-sugared")
        if receiver == TENSOR:
            if name in TENSOR_CASTS:
                self._arguments(node, env)
                return TENSOR
            if name == "tolist":
                self._arguments(node, env)
                if hint is None and id(node) in self.annotated:
                    return self._unknown(node, "tolist")  # an annotation jitlint cannot read types it
                if hint is None:
                    self.report(TolistWithoutHint(node))
                    return None
                element = hint
                while element is not None and element.name == "List":
                    element = element.args[0]
                if element is not None and element not in (INT, FLOAT, BOOL, COMPLEX):
                    self.report(TolistBadHint(node, hint, element))
                    return None
                return hint
            if name == "__getitem__" and len(node.args) == 1:  # the special form; other arities fail to match
                self._arguments(node, env)
                return TENSOR
            if name == "type":
                args = self._arguments(node, env)
                return self._matched(node, "Tensor.to", schemas.method_overloads("to"), args, node, receiver)
        args = self._arguments(node, env)
        if self.on_method_call is not None and args is not None:
            self.on_method_call(node, name, args)
        candidates = schemas.method_overloads(name)
        spelled = f"{receiver}.{name}" if receiver is not None else name
        if receiver is None:
            return self._unknown(node, "method-of-unknown")
        return self._matched(node, spelled if receiver != TENSOR else f"Tensor.{name}", candidates, args, node,
                             receiver)

    def _function_call(self, node: cst.Call, info: "FunctionInfo", env: dict, bound: bool,
                       owner: "ClassInfo | None") -> Value:
        """A call of a compiled project function or method: matched against its signature; its type is its
        declared return type, else the one the typer infers from its returns."""
        args = self._arguments(node, env)
        from jitlint.targets.script.policy import IGNORE_DECORATORS

        is_method = info.bound_first_param == "instance"
        if "builtins.staticmethod" in info.decorators or "staticmethod" in info.decorators:
            is_method = False
        if info.bound_first_param == "class":
            is_method = True
        if is_method and not bound:
            return self._unknown(node, "unbound-method")
        found = signature(info.node, info.module.imports, self.scope.project, is_method)
        ignored = bool(info.decorators & IGNORE_DECORATORS)
        if overloaded(info):
            candidates = declared_overloads(info, self.scope.project, is_method)
            if candidates is None:
                return self._unknown(node, "overloaded-function")
            return self._matched(node, info.display_name, candidates, args, node, project_function=info)
        if found.varargs:
            return self._declared_returns(info) or self._unknown(node, "varargs-function")
        params = [(p.name, p.type, p.default is not None, p.keyword_only) for p in found.params]
        returns_type = found.returns if found.declared_return else (TENSOR if ignored else None)
        overload = schemas.declared_overload(info.display_name, params, returns_type)
        returns = self._matched(node, info.display_name, (overload,), args, node, project_function=info)
        if returns is not None:
            return returns
        if found.declared_return or ignored:
            return returns_type
        returned = self.scope.returns_of(info, owner)
        return returned if returned is not None else self._unknown(node, "inferred-return")

    def _declared_returns(self, info: "FunctionInfo") -> Type | None:
        returns = info.node.returns
        if returns is None:
            return None
        return Reader(info.module.imports, self.scope.project).read(returns.annotation)

    def _module_call(self, node: cst.Call, submodule: Submodule, env: dict) -> Value:
        """`self.block(x)`: the submodule's `forward` (for a Sequential, its first module's, as the capture map
        resolved it)."""
        resolved = self.scope.callee_of(node)
        if resolved is not None and (submodule.container is not None or not submodule.classes):
            callee, bound = resolved
            value = self._function_call(node, callee, env, bound=bound, owner=callee.cls)
            return value if submodule.container != "Sequential" else self._sequential(node, submodule)
        if submodule.container is not None:
            if submodule.container == "Sequential":
                args = self._arguments(node, env)
                return self._sequential(node, submodule) if args is not None else None
            self._arguments(node, env)
            return self._unknown(node, "container-call")
        candidates = submodule.candidates()
        if candidates:
            # torch compiles the call against the one class the attribute holds; of several the source may build,
            # a problem is certain only when every one of them has it
            results = set()
            report, found = self.report, []
            for candidate in candidates:
                problems: list = []
                self.report = problems.append if len(candidates) > 1 else report
                try:
                    results.add(self._forward_call(node, candidate, env))
                finally:
                    self.report = report
                found.append(problems)
            if found and all(found):
                for problem in found[0]:
                    report(problem)
            return results.pop() if len(results) == 1 else self._unknown(node, "forward")
        self._arguments(node, env)
        return self._unknown(node, "submodule")

    def _sequential(self, node: cst.Call, submodule: Submodule) -> Value:
        """A Sequential returns what its last module's `forward` returns: each module's `forward` is compiled with
        its own parameter types, so the type does not depend on what the modules before it pass on."""
        found = set()
        for candidate in submodule.last:
            if isinstance(candidate, str):
                found |= {overload.returns for overload in schemas.module_forward(candidate)} or {None}
                continue
            forward = self.scope.project.find_method(candidate, "forward")
            found.add(forward and (self._declared_returns(forward) or self.scope.returns_of(forward, candidate)))
        if len(found) == 1 and None not in found and ANY not in found:
            return found.pop()
        return self._unknown(node, "sequential")

    def _forward_call(self, node: cst.Call, candidate, env: dict) -> Value:
        """A call of a module of one class: a project class's `forward`, or a torch class's by its schema."""
        if not isinstance(candidate, str):
            forward = self.scope.project.find_method(candidate, "forward")
            return self._function_call(node, forward, env, bound=True, owner=candidate) if forward else None
        declared = schemas.module_forward(candidate)
        args = self._arguments(node, env)
        returned = self._matched(node, f"{candidate}.forward", declared, args, node) if declared else None
        # no return annotation (`MaxPool2d`'s depends on `return_indices`): torch infers it from a body not in the data
        return returned if returned is not None and returned != ANY else self._unknown(node, "torch-module-forward")

    def _class_call(self, node: cst.Call, callee: Sugared, env: dict) -> Value:
        cls = callee.info
        args = self._arguments(node, env)
        if cls is None:
            return self._unknown(node, "class-call")
        if self.scope.project.is_module_class(cls):
            self.report(ClassProblem(node, cls.name, "instantiate"))
            return None
        kind = class_type(cls, self.scope.project)
        if kind is None:
            return self._unknown(node, "class-call")
        if kind.name == "Tuple" and args is not None:  # a NamedTuple
            params = [(name, element, False, False) for name, element in zip(kind.fields, kind.args)]
            overload = schemas.declared_overload(cls.name, params, kind)
            self._matched(node, cls.name, (overload,), args, node)
            return kind
        if kind.name in ("Class",):
            if self.scope.project.find_method(cls, "__init__") is None and not any(
                    "dataclass" in decorator or "ignore" in decorator or "unused" in decorator
                    for decorator in decorator_texts(cls.node)) and plain_bases(cls, self.scope.project):
                self.report(ClassProblem(node, cls.name, "no-init"))
                return None
            return kind
        return self._unknown(node, "class-call")

    # -- subscripts --------------------------------------------------------------------------------------------------
    def _subscript(self, node: cst.Subscript, env: dict, hint: Type | None) -> Value:
        base = self.expr(node.value, env)
        elements = subscript_elements(node)
        indices: list[Value] = []
        for element in elements:
            part = element.slice
            if isinstance(part, cst.Index):
                indices.append(self.value(part.value, env))
            else:
                for bound in (part.lower, part.upper, part.step):
                    if bound is not None:
                        self.value(bound, env)
                indices.append(Sugared("slice"))
        if self.misused(node.value, base, "subscript"):
            return None
        if isinstance(base, Sugared):
            if base.kind == "module":
                return self._container_item(node, base, elements)
            return self._unknown(node, "subscript-of-sugared")
        if base is None:
            return self._unknown(node, "subscript-of-unknown")
        if base == TENSOR:
            self._tensor_indices(elements, indices)
            return TENSOR
        if len(elements) != 1:
            if base.fully_known:
                self.report(NotSubscriptable(node, base))
            return None
        index = indices[0]
        is_slice = isinstance(index, Sugared) and index.kind == "slice"
        if base.name == "Tuple":
            return self._tuple_item(node, base, elements[0].slice, index, is_slice)
        if base.name == "List":
            if is_slice:
                return base
            return self._matched(node, "list.__getitem__", schemas.overloads("aten::__getitem__")[:1],
                                 [Arg(None, base, node=node.value),
                                  Arg(None, index if isinstance(index, Type) else None,
                                      node=elements[0].slice.value)], None)
        if base == STR:
            return STR
        if base.name == "Dict":
            if isinstance(index, Type) and base.args[0] is not None and assignable(index, base.args[0]) is False:
                return self._matched(node, "dict.__getitem__", schemas.overloads("aten::__getitem__")[2:],
                                     [Arg(None, base, node=node.value), Arg(None, index, node=elements[0].slice.value)],
                                     None)
            return base.args[1]
        if base.name in ("Class", "Module"):
            cls = self.scope.project.resolve_class(base.qualname)
            method = self.scope.project.find_method(cls, "__getitem__") if cls is not None else None
            if method is not None:
                return self.scope.returns_of(method, cls)
            return self._unknown(node, "class-subscript")
        if base in (INT, FLOAT, BOOL, NONE) or (base in (ANY_TUPLE, ANY_LIST) and not is_slice):
            self.report(NotSubscriptable(node, base))  # a bare `tuple`/`list` has no `__getitem__` either
            return None
        return self._unknown(node, "subscript")

    def _tensor_indices(self, elements, indices: list[Value]) -> None:
        """`emitMultidimSlicing`: each index an int, a slice, None, `...`, a list or a Tensor; one `...` at most, and
        no Tensor index after it."""
        ellipsis = False
        for element, index in zip(elements, indices):
            part = element.slice
            if not isinstance(part, cst.Index):
                continue
            if part.star is not None:  # `x[*idx]`
                self.report(TensorIndex(part.value, "starred"))
                return
            if isinstance(index, Sugared) and index.kind == "ellipsis":
                if ellipsis:
                    self.report(TensorIndex(part.value, "ellipses"))
                    return
                ellipsis = True
                continue
            if not isinstance(index, Type) or not index.fully_known:
                continue
            if ellipsis and (index == TENSOR or index.name == "List"):  # a list index is made a Tensor index
                self.report(TensorIndex(part.value, "tensor-after-ellipsis"))
                return
            if index not in (INT, TENSOR, NONE) and index.name != "List":
                self.report(TensorIndex(part.value, "type", index))
                return

    def _tuple_item(self, node: cst.Subscript, base: Type, part, index: Value, is_slice: bool) -> Value:
        length = len(base.args)
        if is_slice:
            bounds = [bound for bound in (part.lower, part.upper, part.step) if bound is not None]
            if any(_int_literal(bound) is None and not is_none(bound) for bound in bounds):
                self.report(TupleMisuse(node, base, "slice-bound"))
                return None
            return self._unknown(node, "tuple-slice")
        literal = _int_literal(part.value) if isinstance(part, cst.Index) else None
        if literal is not None:
            if not -length <= literal < length:
                self.report(TupleMisuse(node, base, "range", index=literal))
                return None
            return base.args[literal]
        if isinstance(index, Type) and index != INT:
            if index.fully_known and index.name not in ("Optional", "Union", "Any"):
                self.report(TupleMisuse(node, base, "index-type", index_type=index))
            return None
        if index == INT:
            if length and base.fully_known and len(set(base.args)) == 1:
                return base.args[0]
            if length and base.fully_known:
                self.report(TupleMisuse(node, base, "non-literal"))
                return None
        return self._unknown(node, "tuple-index")

    def _container_item(self, node: cst.Subscript, base: Sugared, elements) -> Value:
        """`self.blocks[0]`: a module of the container (a literal index within its static length)."""
        submodule: Submodule = base.info
        if submodule.container in ("ModuleList", "Sequential") and len(elements) == 1 and isinstance(
                elements[0].slice, cst.Index):
            index = _int_literal(elements[0].slice.value)
            length = self.scope.container_length(submodule.attribute) if submodule.attribute else None
            if index is not None and length is not None and not -length <= index < length:
                from jitlint.targets.script.typing.results import ModuleContainerProblem

                self.report(ModuleContainerProblem(node, submodule.container, index=index, length=length))
                return None
            if index is not None:
                return Sugared("module", "", info=Submodule())
        return self._unknown(node, f"container-item-{submodule.container}")

    # -- operators ---------------------------------------------------------------------------------------------------
    def _binary(self, node: cst.BinaryOperation, env: dict) -> Value:
        left = self.value(node.left, env)
        right = self.value(node.right, env)
        operator_type = type(node.operator)
        if operator_type is cst.Modulo and left == STR:
            return STR  # `"%d" % n`: aten::percentFormat
        if operator_type is cst.Add and isinstance(left, Type) and isinstance(right, Type) and (
                left.name == right.name == "Tuple"):
            return tuple_of((*left.args, *right.args))
        operator, magic, symbol = BINARY_OPERATORS[operator_type]
        if isinstance(left, Type) and left.name in ("Class", "Module") and magic is not None:
            return self._magic(node, left, magic)
        if not isinstance(left, Type) or not isinstance(right, Type):
            return self._unknown(node, "operand")
        args = [Arg(None, left, node=node.left), Arg(None, right, node=node.right)]
        return self._matched(node, symbol, schemas.overloads(operator), args, None, operator=symbol)

    def _magic(self, node: cst.CSTNode, kind: Type, name: str) -> Value:
        cls = self.scope.project.resolve_class(kind.qualname)
        method = self.scope.project.find_method(cls, name) if cls is not None else None
        if method is None:
            return self._unknown(node, "magic")
        return self.scope.returns_of(method, cls)

    def _unary(self, node: cst.UnaryOperation, env: dict) -> Value:
        operand = self.value(node.expression, env)
        if isinstance(node.operator, cst.Not):
            return BOOL
        if isinstance(node.operator, cst.Plus):
            return operand
        literal = _int_literal(node)
        if literal is not None:
            return INT
        if not isinstance(operand, Type):
            return self._unknown(node, "operand")
        operator, symbol = ("aten::neg", "-") if isinstance(node.operator, cst.Minus) else ("aten::bitwise_not", "~")
        return self._matched(node, symbol, schemas.overloads(operator), [Arg(None, operand, node=node.expression)], None,
                             operator=symbol)

    def _comparison(self, node: cst.Comparison, env: dict) -> Value:
        left = self.value(node.left, env)
        result: Value = BOOL
        previous_node: cst.BaseExpression = node.left
        for target in node.comparisons:
            left_node, previous_node = previous_node, target.comparator
            right = self.value(target.comparator, env)
            operator = type(target.operator)
            if operator in (cst.Is, cst.IsNot):
                left = right
                continue
            op_name, magic = COMPARISONS[operator]
            first, second = (right, left) if operator in (cst.In, cst.NotIn) else (left, right)
            if isinstance(first, Type) and first.name in ("Class", "Module") and magic:
                self._magic(node, first, magic)
                left = right
                continue
            if not isinstance(first, Type) or not isinstance(second, Type):
                result = None if len(node.comparisons) == 1 else result
                left = right
                continue
            first_node, second_node = left_node, target.comparator
            if operator in (cst.In, cst.NotIn):
                first_node, second_node = second_node, first_node
            matched = self._matched(node, operator.__name__, schemas.overloads(op_name),
                                    [Arg(None, first, node=first_node), Arg(None, second, node=second_node)], None,
                                    operator=_COMPARISON_SYMBOLS.get(operator))
            if len(node.comparisons) == 1:
                result = matched
            left = right
        return result

    def _if_expression(self, node: cst.IfExp, env: dict, hint: Type | None) -> Value:
        from jitlint.targets.script.typing.binder import condition

        test = condition(node.test, env, self)
        if test.static is True:
            return self.value(node.body, test.when_true(env), hint)
        if test.static is False:
            return self.value(node.orelse, test.when_false(env), hint)
        body = self.value(node.body, test.when_true(env), hint)
        orelse = self.value(node.orelse, test.when_false(env), hint)
        if not isinstance(body, Type) or not isinstance(orelse, Type):
            return self._unknown(node, "if-expression")
        joined = join(body, orelse)
        if joined is False:
            self.report(TernaryMismatch(node, body, orelse))
            return None
        return joined if joined is not None else self._unknown(node, "if-expression")

    # -- displays ----------------------------------------------------------------------------------------------------
    def _list_hint(self, node: cst.CSTNode, hint: Type | None, comprehension: bool) -> Type | None:
        """The List type a hint gives a list display (an Optional or Union hint with one List member: that)."""
        if hint is None or hint == ANY:
            return None
        candidates = [member for member in hint.members() if member is not None and member.name == "List"]
        if len(candidates) == 1:
            return candidates[0]
        if len(candidates) > 1 and isinstance(node, cst.List) and not node.elements:
            self.report(UnionCandidates(node, hint, "list"))
        if not candidates:
            self.report(HintMismatch(node, hint, "list", comprehension))
        return None

    def _list(self, node: cst.List | cst.ListComp | cst.GeneratorExp, env: dict, hint: Type | None) -> Value:
        wanted = self._list_hint(node, hint, not isinstance(node, cst.List))
        if isinstance(node, (cst.ListComp, cst.GeneratorExp)):
            inner = self._comprehension_env(node.for_in, env)
            element = self.value(node.elt, inner)
            if wanted is not None:
                expected = wanted.args[0]
                if isinstance(element, Type) and expected is not None and subtype(element, expected) is False:
                    self.report(HintMismatch(node, hint, "list", True, "element", expected, element))
                return wanted
            return list_of(element if isinstance(element, Type) else None)  # a list, of elements maybe unknown
        values: list[Value] = []
        for element in node.elements:
            if isinstance(element, cst.StarredElement):
                value = self.expr(element.value, env)
                if isinstance(value, Type) and value.name == "Tuple":
                    values.extend(value.args)
                else:
                    values.append(None)
                continue
            values.append(self.value(element.value, env))
        if wanted is not None:
            element_type = wanted.args[0]
            if values and all(isinstance(value, Type) for value in values) and element_type is not None:
                unified = join_or_union(values, hint=element_type)
                if unified is not None and subtype(unified, element_type) is False:
                    names = [_name_of(item.value) for item, value in zip(node.elements, values)
                             if isinstance(value, Type) and subtype(value, element_type) is False]
                    self.report(HintMismatch(node, hint, "list", False, "element", element_type, unified,
                                             names[0] if names else None))
            return wanted
        if not values:
            return list_of(TENSOR)
        if any(not isinstance(value, Type) for value in values):
            return list_of(None)  # a list, of elements jitlint cannot type
        unified = join_or_union(values)
        candidates = [m for m in hint.members() if m is not None and m.name == "List"] if hint is not None else []
        if len(candidates) > 1 and unified is not None and all(c.fully_known for c in candidates):
            for candidate in candidates:  # the first List member that holds the elements types the display
                if subtype(unified, candidate.args[0]) is True:
                    return candidate
            self.report(UnionCandidates(node, hint, "list", unified))
            return None
        return list_of(unified)

    def _dict(self, node: cst.Dict | cst.DictComp, env: dict, hint: Type | None) -> Value:
        wanted = None
        candidates: list[Type] = []
        if hint is not None and hint != ANY:
            candidates = [member for member in hint.members() if member is not None and member.name == "Dict"]
            if len(candidates) == 1:
                wanted = candidates[0]
            elif not candidates:
                self.report(HintMismatch(node, hint, "dict", isinstance(node, cst.DictComp)))
            elif isinstance(node, cst.Dict) and not node.elements:
                self.report(UnionCandidates(node, hint, "dict"))
                return None
        if isinstance(node, cst.DictComp):
            inner = self._comprehension_env(node.for_in, env)
            key, value = self.value(node.key, inner), self.value(node.value, inner)
            if isinstance(key, Type) and key.name == "Union" and key.fully_known:
                self.report(DictKeyProblem(node.key, "union", key))
                return None
            if self._keys_change(node, env, key):
                return None
            if wanted is not None:
                for role, found, expected in (("key", key, wanted.args[0]), ("value", value, wanted.args[1])):
                    if isinstance(found, Type) and expected is not None and subtype(found, expected) is False:
                        self.report(HintMismatch(node, hint, "dict", True, role, expected, found))
                        break
                return wanted
            return dict_of(key if isinstance(key, Type) else None, value if isinstance(value, Type) else None)
        keys: list[Value] = []
        values: list[Value] = []
        for element in node.elements:
            if not isinstance(element, cst.DictElement):
                self.expr(element.value, env)
                return self._unknown(node, "dict-unpack")
            keys.append(self.value(element.key, env))
            values.append(self.value(element.value, env, wanted.args[1] if wanted is not None else None))
        if wanted is not None:
            for element, key, value in zip(node.elements, keys, values):
                for role, found, expected, item in (("key", key, wanted.args[0], element.key),
                                                    ("value", value, wanted.args[1], element.value)):
                    if isinstance(found, Type) and expected is not None and subtype(found, expected) is False:
                        self.report(HintMismatch(node, hint, "dict", False, role, expected, found, _name_of(item)))
                        return wanted
            return wanted
        if not keys:
            return dict_of(STR, TENSOR)
        if any(not isinstance(kind, Type) for kind in keys + values):
            return dict_of(None, None)  # a dict, of keys and values jitlint cannot type
        key_type = keys[0]
        if key_type.fully_known and key_type.name not in _DICT_KEYS and key_type.name not in ("Optional", "Union"):
            self.report(DictKeyProblem(node.elements[0].key, "unsupported", key_type))
            return None
        if len(candidates) > 1 and all(c.fully_known for c in candidates):
            value_type = join_or_union(values)
            for candidate in candidates:
                if value_type is not None and subtype(key_type, candidate.args[0]) is True and subtype(
                        value_type, candidate.args[1]) is True:
                    return candidate
            self.report(UnionCandidates(node, hint, "dict", dict_of(key_type, value_type)))
            return None
        for element, key in zip(node.elements, keys):
            if subtype(key, key_type) is False:
                self.report(HintMismatch(node, dict_of(key_type, ANY), "dict", False, "key", key_type, key,
                                         _name_of(element.key)))
                return None
        value_type = join_or_union(values)
        if key_type is None or value_type is None:
            return self._unknown(node, "dict-element")
        return dict_of(key_type, value_type)

    def _keys_change(self, node: cst.DictComp, env: dict, first: Value) -> bool:
        """A dict comprehension over a tuple of several element types is unrolled: each element gives its own key,
        and every key must have the first's type ("Dicts may only contain homogeneous keys")."""
        clause = node.for_in
        if clause.inner_for_in is not None or clause.ifs:
            return False
        iterable = self.types.get(id(clause.iter))
        if not isinstance(iterable, Type) or iterable.name != "Tuple" or len(set(iterable.args)) < 2:
            return False
        keys = []
        for element in iterable.args:
            inner = dict(env)
            self.bind_target(clause.target, element, inner)
            keys.append(ExpressionChecker(self.scope, types={}, unknown={}).expr(node.key, inner))
        if not all(isinstance(key, Type) for key in keys):
            return False
        for key in keys[1:]:
            if subtype(key, keys[0]) is False:
                self.report(DictKeyProblem(node.key, "changes", keys[0], key))
                return True
        return False

    def _tuple(self, node: cst.Tuple, env: dict, hint: Type | None) -> Value:
        hints: list[Type | None] = []
        if hint is not None and hint.name == "Tuple" and len(hint.args) == len(node.elements):
            hints = list(hint.args)
        kinds: list[Type | None] = []
        for index, element in enumerate(node.elements):
            if isinstance(element, cst.StarredElement):
                value = self.expr(element.value, env)
                if isinstance(value, Type) and value.name == "Tuple":
                    kinds.extend(value.args)
                    continue
                if isinstance(value, Type) and value.name == "List":
                    self.report(StarredList(element, value))
                return self._unknown(node, "starred")
            value = self.value(element.value, env, hints[index] if hints else None)
            kinds.append(value if isinstance(value, Type) else None)
        return tuple_of(kinds)

    def _comprehension_env(self, clause: cst.CompFor, env: dict) -> dict:
        """The scope of a comprehension: its targets bound to the iterable's elements, clause by clause."""
        inner = dict(env)
        while clause is not None:
            iterable = self.expr(clause.iter, inner)
            element = self.element_of(iterable, clause.iter)
            self._outer_variables(clause.target, element, env)
            self.bind_target(clause.target, element, inner)
            for condition_if in clause.ifs:
                self.expr(condition_if.test, inner)
            clause = clause.inner_for_in
        return inner

    def _outer_variables(self, target: cst.BaseExpression, element: Value, env: dict) -> None:
        """The loop of a comprehension is a block of the function: a variable it binds keeps an outer one's type
        (each name of an unpacked target too)."""
        if isinstance(target, cst.Name) and target.value in env and (
                isinstance(env[target.value], Sugared) or isinstance(element, Sugared)):
            # only first-class values are re-bound in an inner block ("Cannot re-assign ...")
            previous = env[target.value]
            if isinstance(previous, (Sugared, Type)) and isinstance(element, (Sugared, Type)):
                self.report(SugaredReassign(
                    target, target.value, previous.kind if isinstance(previous, Sugared) else None,
                    element.kind if isinstance(element, Sugared) else None,
                    previous if isinstance(previous, Type) else None, element if isinstance(element, Type) else None))
        elif isinstance(target, cst.Name) and isinstance(env.get(target.value), Type) and isinstance(
                element, Type) and subtype(convert(element, env[target.value]), env[target.value]) is False:
            self.report(VariableTypeChange(target, target.value, env[target.value], element))
        elif isinstance(target, (cst.Tuple, cst.List)) and isinstance(element, Type) and element.name == "Tuple" and (
                len(element.args) == len(target.elements)) and all(
                    isinstance(item, cst.Element) for item in target.elements):
            for item, kind in zip(target.elements, element.args):
                self._outer_variables(item.value, kind, env)

    def bind_target(self, target: cst.BaseExpression, value: Value, env: dict) -> None:
        """Bind the names of a loop or comprehension target to the parts of `value`."""
        if isinstance(target, cst.Name):
            env[target.value] = None if isinstance(value, Sugared) and value.kind == "items" else value
            return
        if isinstance(target, (cst.Tuple, cst.List)):
            parts: list[Value] = [None] * len(target.elements)
            if isinstance(value, Type) and value.name == "Tuple" and len(value.args) == len(target.elements):
                parts = list(value.args)
            elif isinstance(value, Sugared) and value.kind == "items" and len(value.info) == len(target.elements):
                parts = list(value.info)
            for element, part in zip(target.elements, parts):
                self.bind_target(element.value, part, env)


_NOT_SPECIAL = Sugared("not-special")
_LEGACY_CONSTRUCTORS = frozenset(
    f"torch.{kind}Tensor" for kind in ("Float", "Double", "Half", "BFloat16", "Byte", "Char", "Short", "Int", "Long",
                                       "Bool"))
_RPC = frozenset(f"torch.distributed.rpc.{name}" for name in ("rpc_sync", "rpc_async", "remote"))
# The key types a dict holds (`DictType::create`'s check).
_DICT_KEYS = frozenset({"str", "int", "float", "complex", "bool", "Tensor", "Device", "Any"})
# The special forms' numbers of positional arguments (`checkApplyNumInputs`, `checkApplyNumInputsRange`): they take no
# keyword arguments.
_FORM_ARITY: dict[str, tuple[int, int | None]] = {
    "isinstance": (2, 2), "hasattr": (2, 2), "getattr": (2, 3), "tuple": (1, 1), "list": (0, 1),
}
_COMPARISON_SYMBOLS = {cst.Equal: "==", cst.NotEqual: "!=", cst.LessThan: "<", cst.GreaterThan: ">",
                       cst.LessThanEqual: "<=", cst.GreaterThanEqual: ">=", cst.In: "in", cst.NotIn: "not in"}


def _int_literal(node: cst.BaseExpression) -> int | None:
    sign = 1
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, (cst.Minus, cst.Plus)):
        sign = -1 if isinstance(node.operator, cst.Minus) else 1
        node = node.expression
    if isinstance(node, cst.Integer):
        try:
            return sign * int(node.value.replace("_", ""), 0)
        except ValueError:
            return None
    return None


def _name_of(node: cst.BaseExpression) -> str | None:
    return node.value if isinstance(node, cst.Name) else None


def overloaded(info: "FunctionInfo") -> bool:
    from jitlint.targets.script.overload_lookup import overload_group_of

    return overload_group_of(info) is not None


def declared_overloads(info: "FunctionInfo", project, is_method: bool) -> tuple[Overload, ...] | None:
    """The signatures a call of an `@torch.jit._overload` implementation is matched against: each declaration's,
    with the implementation's defaults and the parameters a declaration leaves out (torch merges them). None when
    the group is not one torch can use (JIT214 reports those)."""
    from jitlint.targets.script.overload_lookup import overload_group_of

    group = overload_group_of(info)
    if group is None or group.implementation is not info.node or not group.declarations:
        return None
    implementation = signature(info.node, info.module.imports, project, is_method)
    if implementation.varargs:
        return None
    found = []
    for declaration in group.declarations:
        declared = signature(declaration, info.module.imports, project, is_method)
        if declared.varargs or len(declared.params) > len(implementation.params) or any(
                not p.annotated or p.type is None for p in declared.params):
            return None
        params = []
        for index, param in enumerate(implementation.params):
            if index < len(declared.params):
                kind, name = declared.params[index].type, declared.params[index].name
            else:
                kind, name = (param.type if param.annotated else None), param.name
            params.append((name, kind, param.default is not None, param.keyword_only))
        found.append(schemas.declared_overload(info.display_name, params, declared.returns))
    return tuple(found)
