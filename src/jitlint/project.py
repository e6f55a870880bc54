"""The cross-file index: which classes are nn.Modules, their methods and attributes, and the free functions.

One `ModuleInfo` per parsed file. `ProjectIndex` resolves qualified names across them, and loads (without
linting) project modules that linted files import but that were not passed on the command line, so linting one
file gives the same answer as linting its whole package.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterator, Literal

import libcst as cst

from jitlint.attributes import (
    FILLING_METHODS,
    REGISTRATIONS,
    AttributeInfo,
    AttributeRecorder,
    CallResult,
    CollectionOf,
    ElementOf,
    Kind,
    Lazy,
    MethodResult,
    joined,
    shared,
)
from jitlint.compact import compact, expand
from jitlint.literals import literal_type
from jitlint.methods import add_method, shadowed_by
from jitlint.facts.external_bases import ExternalClass, external_class
from jitlint.facts.mro import is_inert, project_mro
from jitlint.facts.torch_api import CONTAINER_KINDS, is_torch_module_base
from jitlint.facts.syntax import reaching_value, returns_in
from jitlint.names import ImportTable, bind_stars, dotted_name, star_closure, first_param_name, module_name_for, resolved, guarded_definitions
from jitlint.walk import walk

if TYPE_CHECKING:
    from jitlint.source import SourceFile


_NO_NAMES: frozenset[str] = frozenset()  # `frozenset()` makes a new empty set (216 bytes) each call on Python 3.11


def decorator_names(node: cst.FunctionDef | cst.ClassDef, imports: ImportTable) -> frozenset[str]:
    if not node.decorators:
        return _NO_NAMES  # most functions
    names = set()
    for decorator in node.decorators:
        expr = decorator.decorator
        if isinstance(expr, cst.Call):
            expr = expr.func
        qualified = imports.qualify(expr) or dotted_name(expr)
        if qualified:
            names.add(qualified)
    return shared(names)


class FunctionInfo:
    """A top-level function or a method of a top-level class. `node` is its `FunctionDef`; in a module indexed
    from its summary, it is parsed when first read. `shadows`: the property accessor it rebinds."""

    __slots__ = ("name", "_node", "module", "cls", "decorators", "shadows", "__weakref__")

    def __init__(self, name: str, node: "cst.FunctionDef | Lazy", module: "ModuleInfo", cls: "ClassInfo | None",
                 decorators: frozenset[str]) -> None:
        self.name = name
        self._node = node
        self.module = module
        self.cls = cls
        self.decorators = decorators
        self.shadows: FunctionInfo | None = None  # (`jitlint.methods.add_method`)

    @property
    def node(self) -> cst.FunctionDef:
        node = self._node
        if type(node) is Lazy:
            node = self._node = node.get()
        return node

    @node.setter
    def node(self, value: cst.FunctionDef) -> None:
        self._node = value

    @property
    def parsed(self) -> bool:
        """Whether `node` is at hand without parsing (always, in a module parsed with LibCST)."""
        return type(self._node) is not Lazy

    def __repr__(self) -> str:
        return f"FunctionInfo({self.module.name}.{self.display_name})"

    @property
    def qualname(self) -> str:
        prefix = f"{self.cls.name}." if self.cls else ""
        return f"{self.module.name}.{prefix}{self.name}"

    @property
    def display_name(self) -> str:
        return f"{self.cls.name}.{self.name}" if self.cls else self.name

    @property
    def is_property(self) -> bool:
        return bool(self.decorators & {"builtins.property", "property"})

    @property
    def bound_first_param(self) -> Literal["instance", "class"] | None:
        """What Python binds to the first parameter when the function is called as an attribute.

        "instance" for an instance method (the parameter is `self`), "class" for a classmethod (`cls`), None for a
        staticmethod and for a free function (nothing is bound). A call through an instance (`self.m(...)`,
        `obj.m(...)`) binds the first parameter unless this is None; a call through the class (`Cls.m(...)`)
        binds it only for "class". `self.<attr>` means the instance only for "instance". A method decorated with
        both staticmethod and classmethod counts as a staticmethod."""
        if self.cls is None or "builtins.staticmethod" in self.decorators:
            return None
        return "class" if "builtins.classmethod" in self.decorators else "instance"



class SourceExpression:
    """An expression as written in a file, with the import table its names resolve through (the node is parsed when
    first read, in a module indexed from its summary)."""

    __slots__ = ("_node", "imports")

    def __init__(self, node: "cst.BaseExpression | Lazy", imports: ImportTable) -> None:
        self._node = node
        self.imports = imports

    @property
    def node(self) -> cst.BaseExpression:
        node = self._node
        if type(node) is Lazy:
            node = self._node = node.get()
        return node


class ClassInfo:
    """A top-level class. `node` is its `ClassDef` (in a module indexed from its summary, parsed when first read);
    `string_lists` holds its class-level `__name__ = ["a", "b"]` declarations (`__constants__`, `__slots__`, ...),
    the strings by name (what they mean is a target's business); `dynamic_attributes`: setattr(self, <non-literal>,
    ...) somewhere, so its attribute set is unknown."""

    __slots__ = ("name", "_node", "module", "base_names", "methods", "own_attributes", "string_lists",
                 "dynamic_attributes", "__weakref__")

    def __init__(self, name: str, node: "cst.ClassDef | Lazy", module: "ModuleInfo", base_names: list[str | None],
                 methods: dict | None = None, own_attributes: dict | None = None, string_lists: dict | None = None,
                 dynamic_attributes: bool = False) -> None:
        self.name = name
        self._node = node
        self.module = module
        self.base_names = base_names
        self.methods: dict[str, FunctionInfo] = methods if methods is not None else {}
        self.own_attributes: dict[str, AttributeInfo] = own_attributes if own_attributes is not None else {}
        self.string_lists: dict[str, list[str]] = string_lists if string_lists is not None else {}
        self.dynamic_attributes = dynamic_attributes

    @property
    def node(self) -> cst.ClassDef:
        node = self._node
        if type(node) is Lazy:
            node = self._node = node.get()
        return node

    @node.setter
    def node(self, value: cst.ClassDef) -> None:
        self._node = value

    @property
    def parsed(self) -> bool:
        return type(self._node) is not Lazy

    @property
    def qualname(self) -> str:
        return f"{self.module.name}.{self.name}"

    def __repr__(self) -> str:
        return f"ClassInfo({self.module.name}.{self.name})"


class LazyValues(dict):
    """A dict whose values may be `Lazy`: each is parsed when first read (`ModuleInfo.globals` of a module indexed
    from its summary)."""

    def __getitem__(self, key):
        value = dict.__getitem__(self, key)
        if type(value) is Lazy:
            value = value.get()
            dict.__setitem__(self, key, value)
        return value

    def get(self, key, default=None):
        return self[key] if key in self else default

    def values(self):
        return [self[key] for key in self]

    def items(self):
        return [(key, self[key]) for key in self]

    def __reduce__(self):
        return (LazyValues, (dict(dict.items(self)),))


FROM_DISK = object()  # `ModuleInfo.text` of a summarized module of the run: read from its file when first asked for


class ModuleInfo:
    """One file of the project: its import table, top-level classes and functions, module-level `NAME = value`
    assignments (`globals`, the last one seen, for rules about global Python values) and, when the run has it, its
    source (`text`, kept compactly: `jitlint.compact`), which lets a capture policy skip a walk over a file that cannot
    contain what it seeks. `tree` is the file's LibCST module: in a module indexed from its summary
    (`jitlint.summary`), it and every node its classes and functions hold are parsed when first read."""

    def __init__(self, name: str, path: Path, display_name: str, tree: "cst.Module | Lazy", imports: ImportTable,
                 linted: bool, classes: dict | None = None, functions: dict | None = None, text: str | None = None,
                 globals: dict | None = None) -> None:
        self.name = name
        self.path = path
        self.display_name = display_name
        self._tree = tree
        self.imports = imports
        self.linted = linted
        self.classes: dict[str, ClassInfo] = classes if classes is not None else {}
        self.functions: dict[str, FunctionInfo] = functions if functions is not None else {}
        self.text = text
        self.globals: dict[str, cst.BaseExpression] = globals if globals is not None else {}

    @property
    def tree(self) -> cst.Module:
        tree = self._tree
        if type(tree) is Lazy:
            tree = self._tree = tree.get()
        return tree

    @tree.setter
    def tree(self, value: cst.Module) -> None:
        self._tree = value

    @property
    def parsed(self) -> bool:
        """Whether the whole file is parsed with LibCST in this process."""
        return type(self._tree) is not Lazy

    @property
    def text(self) -> str | None:
        stored = self._text_stored
        if stored is FROM_DISK:
            from jitlint.source import decode

            try:
                text = decode(Path(self.path).read_bytes())
            except (OSError, UnicodeDecodeError, SyntaxError, LookupError):
                text = None
            self._text_stored = stored = compact(text)
        return expand(stored)

    @text.setter
    def text(self, value) -> None:
        self._text_stored = value if value is FROM_DISK else compact(value)

    def __repr__(self) -> str:
        return f"ModuleInfo({self.name}, {self.path})"

    @classmethod
    def build(cls, path: Path, display_name: str, tree: cst.Module, linted: bool, text: str | None = None,
              project: "ProjectIndex | None" = None) -> "ModuleInfo":
        """`text`, the file's source, lets the index skip a walk over files that cannot contain what it seeks;
        `project` resolves the file's star imports (`names.bind_stars`) before its names are read."""
        name, _root = module_name_for(path)
        imports = ImportTable.from_module(tree, name, is_package=path.name == "__init__.py")
        if project is not None:
            bind_stars(imports, lambda base: getattr(project.module(base), "imports", None))
        info = cls(name, path, display_name, tree, imports, linted, text=text if linted else None)
        info._index()
        return info

    def _index(self) -> None:
        for statement in (*self.tree.body, *guarded_definitions(self.tree.body)):
            if isinstance(statement, cst.SimpleStatementLine):
                for small in statement.body:
                    if isinstance(small, cst.Assign) and len(small.targets) == 1:
                        target = small.targets[0].target
                        if isinstance(target, cst.Name):
                            self.globals[target.value] = small.value
                    elif isinstance(small, cst.AnnAssign) and small.value is not None:
                        if isinstance(small.target, cst.Name):
                            self.globals[small.target.value] = small.value
            if isinstance(statement, cst.ClassDef):
                self._index_class(statement)
            elif isinstance(statement, cst.FunctionDef):
                self.functions[statement.name.value] = FunctionInfo(
                    statement.name.value, statement, self, None, decorator_names(statement, self.imports)
                )

    def _index_class(self, node: cst.ClassDef) -> None:
        bases = []
        for arg in node.bases:
            if arg.keyword is not None:
                continue
            bases.append(self.imports.qualify(arg.value.value if isinstance(arg.value, cst.Subscript) else arg.value))
        info = ClassInfo(node.name.value, node, self, bases)
        body = node.body.body if isinstance(node.body, cst.IndentedBlock) else ()
        for statement in body:
            if isinstance(statement, cst.FunctionDef):
                add_method(info.methods, FunctionInfo(
                    statement.name.value, statement, self, info, decorator_names(statement, self.imports)))
            elif isinstance(statement, cst.SimpleStatementLine):
                for small in statement.body:
                    self._index_class_statement(info, small)
        for method in info.methods.values():
            _collect_self_assignments(method, info, self.imports)
        self.classes[info.name] = info

    def _index_class_statement(self, info: ClassInfo, small: cst.BaseSmallStatement) -> None:
        if isinstance(small, cst.AnnAssign) and isinstance(small.target, cst.Name):
            name = small.target.value
            attribute = info.own_attributes.setdefault(name, AttributeInfo())
            annotation = small.annotation.annotation
            attribute.annotation = annotation
            attribute.annotation_imports = self.imports
            attribute.class_value = small.value
            outer = annotation.value if isinstance(annotation, cst.Subscript) else annotation
            if self.imports.qualify(outer) in ("typing.Final", "typing_extensions.Final", "torch.jit.Final"):
                attribute.final = True
            kind = CONTAINER_KINDS.get(self.imports.qualify(annotation) or "")
            if kind:
                attribute.kinds = joined(attribute.kinds, {kind})
        elif isinstance(small, cst.Assign):
            for target in small.targets:
                if not isinstance(target.target, cst.Name):
                    continue
                name = target.target.value
                if name.startswith("__") and name.endswith("__"):
                    info.string_lists[name] = _string_elements(small.value)
                elif not name.startswith("__"):
                    info.own_attributes.setdefault(name, AttributeInfo()).class_value = small.value


def _string_elements(node: cst.BaseExpression) -> list[str]:
    if isinstance(node, (cst.List, cst.Tuple, cst.Set)):
        return [
            element.value.evaluated_value
            for element in node.elements
            if isinstance(element.value, cst.SimpleString) and isinstance(element.value.evaluated_value, str)
        ]
    return []


def _returned_values(function: cst.FunctionDef) -> list[cst.BaseExpression]:
    return [statement.value for statement in _return_statements(function)]


def _return_statements(function: cst.FunctionDef) -> list[cst.Return]:
    return [statement for statement in returns_in(function) if statement.value is not None]




class SelfAssignmentCollector(cst.CSTVisitor):
    """The facts of `AttributeRecorder` in a method read with LibCST."""

    def __init__(self, self_name: str, info: ClassInfo, imports: ImportTable, method: FunctionInfo) -> None:
        self.self_name = self_name
        self.info = info
        self.imports = imports
        self.method = method.name
        self.recorder = AttributeRecorder(info, method.name)
        params = method.node.params
        self.defaults = {
            p.name.value: p.default for p in (*params.posonly_params, *params.params, *params.kwonly_params) if p.default
        }

    def _literal_name(self, node: cst.BaseExpression) -> str | None:
        if isinstance(node, cst.SimpleString) and isinstance(node.evaluated_value, str):
            return node.evaluated_value
        self.recorder.computed_name()
        return None

    def _self_attribute_name(self, node: cst.BaseExpression) -> str | None:
        if isinstance(node, cst.Attribute) and isinstance(node.value, cst.Name) and node.value.value == self.self_name:
            return node.attr.value
        return None

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        if not node.args:
            return
        if (isinstance(func, cst.Attribute) and func.attr.value in FILLING_METHODS  # self.items.append(...)
                and (filled := self._self_attribute_name(func.value)) is not None):
            self.recorder.filled(filled)
        if (  # self.register_buffer("name", ...), self.add_module("name", ...)
            isinstance(func, cst.Attribute)
            and isinstance(func.value, cst.Name)
            and func.value.value == self.self_name
            and func.attr.value in REGISTRATIONS
        ):
            name = self._literal_name(node.args[0].value)
            if name is not None:
                self.recorder.registered(name)
        elif (  # setattr(self, "name", value)
            isinstance(func, cst.Name)
            and func.value == "setattr"
            and len(node.args) == 3
            and isinstance(node.args[0].value, cst.Name)
            and node.args[0].value.value == self.self_name
        ):
            name = self._literal_name(node.args[1].value)
            if name is not None:
                self.recorder.assigned(name)

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        return False  # nested functions have their own `self`

    def visit_Lambda(self, node: cst.Lambda) -> bool:
        return False

    def _record(self, target: cst.BaseExpression, value: cst.BaseExpression | None,
                kinds: "set[Kind] | None" = None) -> None:
        """`self.<name> = value`; `kinds` instead of `value` for an element of an unpacked call's result."""
        if isinstance(target, (cst.Tuple, cst.List)):
            self._record_unpacked(target, value)
            return
        name = self._self_attribute_name(target)
        if name is None:
            return
        if kinds is not None or value is None:
            self.recorder.assigned(name, kinds)
            return
        found, function = value_kinds(value, self.imports, self.self_name)
        self.recorder.stored(name, found, function, lambda: SourceExpression(value, self.imports), lambda: _bool_literal(
            self.defaults.get(value.value) if isinstance(value, cst.Name) and value.value in self.defaults else value))

    def _record_unpacked(self, target: cst.Tuple | cst.List, value: cst.BaseExpression | None) -> None:
        """`self.a, self.b = x, y` (element by element) and `self.a, rest = self._make(...)` (`ElementOf` the
        call's result); any other value: the attributes are assigned, with nothing known of what they hold."""
        elements = [element.value for element in target.elements]
        starred = any(isinstance(element, cst.StarredElement) for element in target.elements)
        if (isinstance(value, (cst.Tuple, cst.List)) and not starred and len(value.elements) == len(elements)
                and not any(isinstance(item, cst.StarredElement) for item in value.elements)):
            for element, item in zip(elements, value.elements):
                self._record(element, item.value)
            return
        sources = set()
        if value is not None and not starred:
            sources = {kind for kind in value_kinds(value, self.imports, self.self_name)[0]
                       if isinstance(kind, (MethodResult, CallResult))}
        for index, element in enumerate(elements):
            if isinstance(element, (cst.Tuple, cst.List)):
                self._record_unpacked(element, None)
                continue
            self._record(element, None, {ElementOf(source, index) for source in sources} or {"other"})

    def visit_Assign(self, node: cst.Assign) -> None:
        for target in node.targets:
            self._record(target.target, node.value)
            if isinstance(target.target, cst.Subscript):
                filled = self._self_attribute_name(target.target.value)  # self.items[key] = value
                if filled is not None:
                    self.recorder.filled(filled)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        self._record(node.target, node.value)


def _bool_literal(node: cst.BaseExpression | None) -> bool | None:
    if isinstance(node, cst.Name) and node.value in ("True", "False"):
        return node.value == "True"
    return None


def _collect_self_assignments(method: FunctionInfo, info: ClassInfo, imports: ImportTable) -> None:
    self_name = first_param_name(method.node)
    if self_name is None or method.bound_first_param != "instance":
        return
    walk(method.node.body, SelfAssignmentCollector(self_name, info, imports, method))


def value_kinds(
    value: cst.BaseExpression, imports: ImportTable, self_name: str | None = None
) -> tuple[set[Kind], str | None]:
    """Kinds of value an expression assigned to `self.x` produces: a container kind, a `CallResult`, a
    `MethodResult` (built by `self.<name>(...)`), a `CollectionOf`, "mixed-list", "empty-container", "none",
    "reference", "python-type" (a builtin class), "literal", "lambda" or "other"; and the qualified name of a function stored by reference."""
    if isinstance(value, cst.IfExp):
        body_kinds, body_fn = value_kinds(value.body, imports, self_name)
        else_kinds, else_fn = value_kinds(value.orelse, imports, self_name)
        return body_kinds | else_kinds, body_fn or else_fn
    if isinstance(value, cst.Name) and value.value == "None":
        return {"none"}, None
    if (
        isinstance(value, cst.Call)
        and isinstance(value.func, cst.Attribute)
        and isinstance(value.func.value, cst.Name)
        and self_name is not None
        and value.func.value.value == self_name
    ):
        return {MethodResult(value.func.attr.value)}, None
    if isinstance(value, cst.Call):
        qualified = imports.qualify(value.func)
        if qualified in ("builtins.list", "builtins.dict") and not value.args:
            return {"empty-container"}, None
        if qualified in CONTAINER_KINDS:
            return {CONTAINER_KINDS[qualified]}, None
        if qualified:
            return {CallResult(qualified)}, None
        return {"other"}, None
    if isinstance(value, (cst.Name, cst.Attribute)):
        qualified = imports.qualify(value)
        if qualified in BUILTIN_TYPES:
            return {"python-type"}, None
        if qualified and not qualified.startswith("builtins."):
            return {"reference"}, qualified
    if isinstance(value, (cst.Integer, cst.Float, cst.SimpleString, cst.ConcatenatedString)):
        return {"literal"}, None
    if isinstance(value, cst.Lambda):
        return {"lambda"}, None
    if isinstance(value, (cst.List, cst.Dict)) and not value.elements:
        return {"empty-container"}, None
    if isinstance(value, (cst.List, cst.Tuple, cst.ListComp)):
        elements = [value.elt] if isinstance(value, cst.ListComp) else [e.value for e in value.elements]
        return _collection_kinds("list", elements, imports, self_name), None
    if isinstance(value, (cst.Dict, cst.DictComp)):
        elements = [value.value] if isinstance(value, cst.DictComp) else [
            e.value for e in value.elements if isinstance(e, cst.DictElement)
        ]
        return _collection_kinds("dict", elements, imports, self_name), None
    return {"other"}, None


# Builtin classes stored as values (`self.cast = float`): torch cannot convert a Python `type` (verified on 2.13).
BUILTIN_TYPES = frozenset(
    f"builtins.{name}" for name in ("object", "int", "float", "str", "bool", "list", "dict", "tuple", "set", "type",
                                    "bytes", "complex", "frozenset")
)

# The literals whose types make a list "mixed": numbers and strings (a bytes literal counts as a string).
MIXABLE_LITERALS = {"int": "int", "float": "float", "str": "str", "bytes": "str"}


def _collection_kinds(collection: str, elements, imports: ImportTable, self_name: str | None) -> set[Kind]:
    """A `CollectionOf` for each element kind; "mixed-list" for literals of different types."""
    literal_types = {MIXABLE_LITERALS[name] for element in elements if (name := literal_type(element)) in MIXABLE_LITERALS}
    if collection == "list" and len(literal_types) > 1 and not literal_types <= {"int", "float"}:
        return {"mixed-list"}
    kinds: set[Kind] = set()
    for element in elements:
        element_kinds, _function = value_kinds(element, imports, self_name)
        kinds |= {CollectionOf(collection, element_kind) for element_kind in element_kinds}
    return kinds or {"other"}


def _loaded_module(path: Path, source, project: "ProjectIndex") -> ModuleInfo:
    """The index of a module read on demand. A loader may hand back a source that keeps its index (the editor
    server keeps modules between edits: `server.ModuleCache`); a ModuleInfo is never changed once built."""
    kept = getattr(source, "module_info", None)
    if kept is not None:
        return kept(path, project)
    return ModuleInfo.build(path, str(path), source.tree, linted=False, text=source.text, project=project)


def bind_stars_once(module: ModuleInfo, project: "ProjectIndex") -> ModuleInfo:
    """Bind the names a summarized module's star imports bring in (`names.bind_stars`, as `ModuleInfo.build` does
    for a module it indexes), once, when it joins `project`: a summary holds no class or function whose names
    they would change (`summary.build_module`)."""
    if module.imports.stars and not getattr(module, "stars_bound", False):
        module.stars_bound = True
        bind_stars(module.imports, lambda base: getattr(project.module(base), "imports", None))
    return module


_DOTTED = re.compile(r"(?<![\w.])[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+")


def dotted_chains(text: str) -> frozenset[str]:
    """The dotted names a source spells (`a.b.c`, not after a dot), for `ProjectIndex.reads`."""
    return frozenset(_DOTTED.findall(text))


class ProjectIndex:
    """All modules of a run, and the classes and functions they define, resolved by qualified name."""

    def __init__(self, loader: "Callable[[Path], SourceFile | None] | None" = None,
                 module_bases: frozenset[str] = frozenset()) -> None:
        self.module_bases = module_bases  # `module-bases` of the configuration: more library module classes
        self.modules: dict[str, ModuleInfo] = {}
        self._roots: list[Path] = []
        self._packages: set[str] = set()
        self._loader = loader
        self._missing: set[str] = set()
        self.loaded: list[Path] = []  # modules read on demand (outside the linted files): what the results depend on
        self.linted: list[ModuleInfo] = []  # the linted modules parsed in this process, in the run's order
        # Module name -> the linted file that name resolves to (the last one, when files share a module name).
        self._linted_paths: dict[str, Path] = {}
        self._by_path: dict[Path, ModuleInfo] = {}
        self._module_class_cache: dict[int, bool] = {}
        self._attributes_cache: dict[int, dict[str, AttributeInfo]] = {}
        self._mro_cache: dict[int, tuple[ClassInfo, list[ClassInfo]]] = {}
        # What targets derive from the index for the whole run, by the run fact that derives it (see
        # `jitlint.facts.RunFact`): the one store of what is kept across files.
        self.derived: dict = {}

    def seed(self, paths: "list[Path]") -> None:
        """Declare every linted file of the run, parsed in this process or not, in the run's order: the import
        roots and packages come from all of them, and a linted file that another worker parses is read on demand
        here (it is not a dependency of the results: the cache keys on every linted file anyway). A run and each
        of its workers therefore resolve every name the same way."""
        for path in paths:
            self._linted_paths[self._add_root(path)] = path

    def add(self, module: ModuleInfo) -> None:
        self._add_root(module.path)
        self._by_path[resolved(module.path)] = module
        if module.linted:
            self.linted.append(module)
        winner = self._linted_paths.get(module.name)
        if winner is None or winner == module.path or resolved(winner) == resolved(module.path):
            self.modules[module.name] = module

    def in_run(self, module: ModuleInfo) -> bool:
        """Whether the run lints this module's file (parsed in this process or by another worker), as opposed to a
        module read on demand to resolve names."""
        if module.linted:
            return True
        path = self._linted_paths.get(module.name)
        return path is not None and resolved(path) == resolved(module.path)

    def _add_root(self, path: Path) -> str:
        """Register the import root and top-level package of a linted file; its module name."""
        name, root = module_name_for(path)
        if root not in self._roots:
            self._roots.append(root)
        self._packages.add(name.split(".", 1)[0])
        return name

    def module_at(self, name: str, path: Path) -> ModuleInfo | None:
        """The module of one file, even one whose module name another linted file holds."""
        key = resolved(path)
        if key not in self._by_path:
            found = self.module(name)
            if found is None or resolved(found.path) != key:
                source = self._loader(path) if self._loader is not None else None
                if source is None:
                    return None
                self._by_path[key] = _loaded_module(path, source, self)
        return self._by_path.get(key)

    # -- lookup -----------------------------------------------------------------------------------------------
    def module(self, name: str) -> ModuleInfo | None:
        if name in self.modules:
            return self.modules[name]
        if name in self._missing or self._loader is None or name.split(".", 1)[0] not in self._packages:
            return None
        self._missing.add(name)  # also guards against import cycles while loading
        linted = self._linted_paths.get(name)
        if linted is not None:
            candidates = [linted]
        else:
            relative = Path(*name.split("."))
            candidates = [path for root in self._roots
                          for path in (root / relative.with_suffix(".py"), root / relative / "__init__.py")]
        for candidate in candidates:
            if candidate.is_file():
                source = self._loader(candidate)
                if linted is None:
                    self.loaded.append(candidate)
                if source is None:
                    return None
                info = _loaded_module(candidate, source, self)
                self.modules[info.name] = info
                self._by_path[resolved(candidate)] = info
                return info
        return None

    def reads(self, module: ModuleInfo) -> dict[str, list[str]]:
        """What resolving this module's names reads, for the cache (see `jitlint.cache`): {"via": files whose
        interface alone matters (a package `__init__` that re-exports a name, a module where a name is not found),
        "defs": files where a name is defined (what is found there is read further, through that file's own
        names)}. Every imported name is traced as `resolve` traces it (each dotted prefix
        too, and `import a` followed by `a.b.c` in the text), through the modules present in this process: a module
        the analysis never asked for was not read."""
        aliases = module.imports.aliases
        names = set(aliases.values())
        chains = getattr(module, "chains", None)  # a prefilter summary keeps these instead of its text
        if chains is None and module.text is not None:
            chains = dotted_chains(module.text)
        for chain in chains or ():
            head, _, rest = chain.partition(".")
            if head in aliases:
                names.add(f"{aliases[head]}.{rest}")
        qualified: set[str] = set()
        for name in names:
            parts = name.split(".")
            qualified.update(".".join(parts[:end]) for end in range(2, len(parts) + 1))
        via: set[str] = set()
        defs: set[str] = set()
        missing: set[str] = set()
        for name in qualified:
            self._trace(name, via, defs, missing)
        for base in star_closure(module.imports, lambda name: getattr(self.modules.get(name), "imports", None)):
            self._trace(f"{base}.*", via, defs, missing)  # what it exports: its interface
        own = str(module.path)
        defs.discard(own)
        via -= defs
        via.discard(own)
        return {"via": sorted(via), "defs": sorted(defs), "missing": sorted(missing)}

    def _trace(self, qualified: str, via: set[str], defs: set[str], missing: set[str]) -> None:
        """The files `resolve(qualified)` reads: the modules it passes through (re-exporting the name) or where it
        finds nothing into `via` (only what they define under that name matters), the module where the name is
        defined (a class, a function or a module-level value: what is found there is read further) into `defs`;
        the module names it looked up and did not find into `missing` (a file added later may be found there)."""
        for _depth in range(10):
            if qualified.startswith(("builtins.", "torch.", "typing.")):
                return
            module_name, _, attr = qualified.rpartition(".")
            found = self.modules.get(module_name) if module_name else None
            if found is None:
                if module_name and (module_name in self._missing or module_name.split(".", 1)[0] not in self._packages):
                    missing.add(module_name)  # looked up (or never looked for, outside the run's packages)
                return
            if attr in found.classes or attr in found.functions or attr in found.globals:
                defs.add(str(found.path))
                return
            via.add(str(found.path))
            following = found.imports.aliases.get(attr)
            if following is None or following == qualified:
                return
            qualified = following
        defs.add(str(found.path))  # a longer trail than `resolve` follows: read it all

    def class_at(self, address: tuple) -> ClassInfo | None:
        """A class by `capture.class_address`: (module name, file, class name)."""
        name, path, cls = address
        module = self.module_at(name, Path(path))
        return module.classes.get(cls) if module is not None else None

    def function_at(self, address: tuple) -> FunctionInfo | None:
        """A function by `methods.function_address`: (module name, file, class name or None, name[, back])."""
        name, path, cls, function, *shadowed = address
        module = self.module_at(name, Path(path))
        if module is None:
            return None
        if cls is None:
            return module.functions.get(function)
        owner = module.classes.get(cls)
        return shadowed_by(owner.methods.get(function), *shadowed) if owner is not None else None

    def resolve(self, qualified: str | None, depth: int = 0) -> ClassInfo | FunctionInfo | None:
        """The project class or function a qualified name refers to, following re-exports."""
        if not qualified or depth > 8 or qualified.startswith(("builtins.", "torch.", "typing.")):
            return None
        module_name, _, attr = qualified.rpartition(".")
        if not module_name:
            return None
        module = self.module(module_name)
        if module is None:
            # `pkg.mod.Class.method` is not needed by any rule; a dotted prefix may still be a module.
            return None
        if attr in module.classes:
            return module.classes[attr]
        if attr in module.functions:
            return module.functions[attr]
        target = module.imports.aliases.get(attr)
        if target is not None and target != qualified:
            return self.resolve(target, depth + 1)
        return None

    def resolve_class(self, qualified: str | None) -> ClassInfo | None:
        found = self.resolve(qualified)
        return found if isinstance(found, ClassInfo) else None

    def resolve_function(self, qualified: str | None) -> FunctionInfo | None:
        found = self.resolve(qualified)
        return found if isinstance(found, FunctionInfo) else None

    # -- classes ----------------------------------------------------------------------------------------------
    def base_classes(self, cls: ClassInfo) -> Iterator[ClassInfo]:
        for base in cls.base_names:
            resolved = self.resolve_class(base)
            if resolved is not None and resolved is not cls:
                yield resolved

    def mro(self, cls: ClassInfo) -> list[ClassInfo]:
        """Project classes in Python's method-resolution order (`jitlint.facts.mro.project_mro`), once per class."""
        key = id(cls)
        found = self._mro_cache.get(key)
        if found is None or found[0] is not cls:
            found = self._mro_cache[key] = (cls, project_mro(self, cls))
        return found[1]

    def torch_bases(self, cls: ClassInfo) -> set[str]:
        """The torch classes a project class derives from, through any depth of project classes; a base the run does
        not resolve that is a library's module class (`jitlint.facts.external_bases`) adds its name and its torch
        classes."""
        found = set()
        for current in self.mro(cls):
            for base in current.base_names:
                if base and base.startswith("torch."):
                    found.add(base)
                elif base and not is_inert(base) and (external := self.external_base(base)) is not None:
                    found.update((external.name, *external.torch))
        return found

    def external_base(self, qualified: str) -> ExternalClass | None:
        return None if self.resolve_class(qualified) else external_class(qualified, self.module_bases)

    def is_module_class(self, cls: ClassInfo) -> bool:
        key = id(cls)
        if key not in self._module_class_cache:
            self._module_class_cache[key] = any(is_torch_module_base(b) for b in self.torch_bases(cls))
        return self._module_class_cache[key]

    def container_kind(self, cls: ClassInfo) -> str | None:
        for base in self.torch_bases(cls):
            if base in CONTAINER_KINDS:
                return CONTAINER_KINDS[base]
        return None

    def find_method(self, cls: ClassInfo, name: str) -> FunctionInfo | None:
        for current in self.mro(cls):
            if name in current.methods:
                return current.methods[name]
        return None

    def attributes(self, cls: ClassInfo) -> dict[str, AttributeInfo]:
        """Attributes seen on the class and its project bases, with call kinds resolved to container kinds."""
        key = id(cls)
        if key in self._attributes_cache:
            return self._attributes_cache[key]
        merged: dict[str, AttributeInfo] = {}
        for current in reversed(self.mro(cls)):
            for name, info in current.own_attributes.items():
                target = merged.setdefault(name, AttributeInfo())
                target.final = target.final or info.final
                target.function = info.function or target.function
                target.constructors = joined(target.constructors, info.constructors)
                target.assigned_in = joined(target.assigned_in, info.assigned_in)
                target.registered = target.registered or info.registered
                target.filled_in_init = target.filled_in_init or info.filled_in_init
                target.init_bool = info.init_bool if info.init_bool is not None else target.init_bool
                # (the raw slots: a value not yet parsed stays so in the merge)
                if info._class_value is not None:
                    target._class_value = info._class_value
                if info._annotation is not None:
                    target._annotation = info._annotation
                    target.annotation_imports = info.annotation_imports
                target.init_values += info.init_values
                for kind in info.kinds:
                    target.kinds = joined(target.kinds, self._resolve_kind(kind, cls))
                    if isinstance(kind, ElementOf):  # the classes an unpacked call's element is built from
                        built = {raw.qualified for raw in self.element_kinds(kind, cls) if isinstance(raw, CallResult)}
                        target.constructors = joined(target.constructors, built)
                for kind in info.init_kinds:
                    target.init_kinds = joined(target.init_kinds, self._resolve_kind(kind, cls))
        self._attributes_cache[key] = merged
        return merged

    def _resolve_kind(self, kind: Kind, owner: ClassInfo, depth: int = 0) -> set[Kind]:
        if isinstance(kind, ElementOf):
            if depth > 3:
                return {"other"}
            kinds: set[Kind] = set()
            for raw_kind in self.element_kinds(kind, owner):
                kinds |= self._resolve_kind(raw_kind, owner, depth + 1)
            return kinds or {"other"}
        if isinstance(kind, MethodResult):
            # `self.layer1 = self._make_layer(...)`: what the method returns (torchvision's and timm's idiom)
            method = self.find_method(owner, kind.name)
            if method is None or depth > 3:
                return {"other"}
            kinds: set[Kind] = set()
            for returned in _returned_values(method.node):
                raw, _function = value_kinds(returned, method.module.imports, first_param_name(method.node))
                for raw_kind in raw:
                    kinds |= self._resolve_kind(raw_kind, owner, depth + 1)
            return kinds or {"other"}
        if isinstance(kind, CollectionOf):
            inner = self._resolve_kind(kind.element, owner, depth + 1)
            if inner & ({"module"} | set(CONTAINER_KINDS.values())):
                return {f"{kind.collection}-of-modules"}
            return {kind.collection}
        if not isinstance(kind, CallResult):
            return {kind}
        qualified = kind.qualified
        if qualified == "builtins.object":
            return {"object"}
        if qualified.startswith("torch."):
            return {"module" if is_torch_module_base(qualified) else kind}
        cls = self.resolve_class(qualified)
        if cls is not None:
            container = self.container_kind(cls)
            if container:
                return {container}
            if self.is_module_class(cls):
                return {"module"}
        return {kind}

    def element_kinds(self, kind: ElementOf, owner: ClassInfo) -> set[Kind]:
        """The unresolved kinds of element `kind.index` of what the called function returns, over its `return`
        statements: each must return a tuple display of enough elements (else "other"); an element that is a local
        name is followed to the one assignment that reaches the return (see `jitlint.facts.syntax.reaching_value`)."""
        source = kind.source
        if isinstance(source, MethodResult):
            function = self.find_method(owner, source.name)
            if function is not None and function.bound_first_param != "instance":
                function = None
        else:
            function = self.resolve_function(source.qualified)
        if function is None:
            return {"other"}
        self_name = first_param_name(function.node) if function.bound_first_param == "instance" else None
        kinds: set[Kind] = set()
        for statement in _return_statements(function.node):
            value = statement.value
            items = value.elements if isinstance(value, (cst.Tuple, cst.List)) else None
            if items is None or kind.index >= len(items) or any(isinstance(item, cst.StarredElement) for item in items):
                kinds.add("other")
                continue
            element = items[kind.index].value
            if isinstance(element, cst.Name) and element.value not in ("None", "True", "False"):
                element = reaching_value(function.node, statement, element.value)
                if element is None:
                    kinds.add("other")
                    continue
            raw, _function = value_kinds(element, function.module.imports, self_name)
            kinds |= raw
        return kinds or {"other"}

    def module_classes(self) -> Iterator[ClassInfo]:
        for module in list(self.modules.values()):
            for cls in module.classes.values():
                if self.is_module_class(cls):
                    yield cls
