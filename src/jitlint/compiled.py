"""What `torch.jit.script(module)` compiles, modelled once for every rule (rules-catalog §0.1, torch 2.13).

Roots: `forward`, `@torch.jit.export` methods and every `@property` of each nn.Module class (less
`__jit_unused_properties__`), `@torch.jit.script` functions and classes, and `torch.jit.script(f)` targets.
From a root torch compiles what it calls: `self.method(...)` (through project base classes), free functions by
name (across files), project classes used as TorchScript classes (all their methods), and functions stored in
module attributes. `__init__` is not compiled; `@torch.jit.ignore`/`@torch.jit.unused` bodies are not either,
but their signatures are when compiled code calls them.

Inside a compiled function, branches that torch prunes while emitting (`torch.jit.is_scripting()` tests and
`isinstance(param, X)` on parameters of known type, folded with three-valued `and`/`or`/`not`, and code after
an `if is_scripting(): return`) are *dead*: semantic rules are
silent there, syntax rules are not, because torch's frontend converts the whole function before pruning.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable

import libcst as cst

from jitlint.names import ImportTable, first_param_name, target_names
from jitlint.project import ClassInfo, FunctionInfo, ProjectIndex
from jitlint.walk import walk

SCRIPTING_CHECKS = frozenset({"torch.jit.is_scripting", "torch._C._is_scripting"})
# Runtime checks that torch.jit.script compiles as ordinary values: they do not prune anything.
NON_PRUNING_GUARDS = frozenset(
    {
        "torch.jit.is_tracing",
        "torch._C._get_tracing_state",
        "torch.compiler.is_compiling",
        "torch.compiler.is_dynamo_compiling",
        "torch._dynamo.is_compiling",
        "torch.onnx.is_in_onnx_export",
    }
)


# What `isinstance(param, X)` folds to, by the parameter's TorchScript type and X (verified on torch 2.13:
# `isinstance(x, torch.Tensor)` for `x: Tensor` is True and prunes; against int/list/tuple it is False; against a
# class TorchScript does not know (PIL.Image) torch errors instead, so it stays unknown).
# (`dict` and bare `Dict` are not foldable: torch rejects them as isinstance targets, see JIT205.)
_ISINSTANCE_TYPES = {
    "torch.Tensor": "Tensor", "builtins.int": "int", "builtins.float": "float", "builtins.bool": "bool",
    "builtins.str": "str", "builtins.list": "list", "builtins.tuple": "tuple",
    "typing.List": "list", "typing.Tuple": "tuple",
}


def param_types(function: cst.FunctionDef, imports: ImportTable) -> dict[str, str]:
    """TorchScript types of the parameters that `isinstance` can fold: Tensor (annotated, or unannotated with
    no default), and builtin scalars and containers. Optional parameters are refined, not folded: left out."""
    types: dict[str, str] = {}
    params = function.params
    for param in (*params.posonly_params, *params.params, *params.kwonly_params):
        name = param.name.value
        if param.annotation is None:
            if param.default is None:
                types[name] = "Tensor"
            continue
        annotation = param.annotation.annotation
        outer = annotation.value if isinstance(annotation, cst.Subscript) else annotation
        kind = _ISINSTANCE_TYPES.get(imports.qualify(outer) or "")
        if kind is not None:
            types[name] = kind
    return types


def _isinstance_value(test: cst.Call, imports: ImportTable, types: dict[str, str]) -> bool | None:
    if len(test.args) != 2 or not isinstance(test.args[0].value, cst.Name):
        return None
    actual = types.get(test.args[0].value.value)
    if actual is None:
        return None
    classes = test.args[1].value
    elements = [e.value for e in classes.elements] if isinstance(classes, cst.Tuple) else [classes]
    kinds = [_ISINSTANCE_TYPES.get(imports.qualify(e) or "") for e in elements]
    if None in kinds:
        return None
    return actual in kinds


AttributeValue = Callable[[cst.Attribute], "bool | None"]


def scripting_value(
    test: cst.BaseExpression,
    imports: ImportTable,
    names: dict[str, bool] | None = None,
    types: dict[str, str] | None = None,
    attributes: AttributeValue | None = None,
) -> bool | None:
    """The value a test has while torch scripts it, when torch folds it to a constant; None when it does not.

    Verified on torch 2.13: `not is_scripting()`, `cond and not is_scripting()` (False) and
    `is_scripting() or cond` (True) prune; `is_scripting() and cond` and `not is_scripting() or cond` do not.
    `names` maps variables to the value they would have if they were the call (torch itself does not fold them);
    `types` gives parameter types for folding `isinstance(param, X)`; `attributes` the value of `self.flag` when
    it is a `Final[bool]`/`__constants__` attribute (verified: torch prunes `if self.flag:` then).
    """
    if names and isinstance(test, cst.Name) and test.value in names:
        return names[test.value]
    if attributes is not None and isinstance(test, cst.Attribute):
        return attributes(test)
    if isinstance(test, cst.Call):
        qualified = imports.qualify(test.func)
        if not test.args and qualified in SCRIPTING_CHECKS:
            return True
        if types and qualified == "builtins.isinstance":
            return _isinstance_value(test, imports, types)
        return None
    if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
        inner = scripting_value(test.expression, imports, names, types, attributes)
        return None if inner is None else not inner
    if isinstance(test, cst.BooleanOperation):
        left = scripting_value(test.left, imports, names, types, attributes)
        right = scripting_value(test.right, imports, names, types, attributes)
        if isinstance(test.operator, cst.And):
            if left is False or right is False:
                return False
            return True if (left is True and right is True) else None
        if left is True or right is True:
            return True
        return False if (left is False and right is False) else None
    return None


def guard_name(test: cst.BaseExpression, imports: ImportTable) -> str | None:
    """The non-pruning check (`torch.jit.is_tracing`, ...) a test relies on, if any."""
    if isinstance(test, cst.Call):
        qualified = imports.qualify(test.func)
        return qualified if qualified in NON_PRUNING_GUARDS else None
    if isinstance(test, cst.UnaryOperation):
        return guard_name(test.expression, imports)
    if isinstance(test, cst.BooleanOperation):
        return guard_name(test.left, imports) or guard_name(test.right, imports)
    return None


def terminates(block: cst.BaseSuite) -> bool:
    """Whether a block always ends in `return` or `raise`."""
    statements = block.body if isinstance(block, cst.IndentedBlock) else [block]
    if not statements:
        return False
    last = statements[-1]
    if isinstance(last, (cst.SimpleStatementLine, cst.SimpleStatementSuite)):
        return bool(last.body) and isinstance(last.body[-1], (cst.Return, cst.Raise))
    if isinstance(last, cst.If):
        return last.orelse is not None and terminates(last.body) and _orelse_terminates(last.orelse)
    return False


def _orelse_terminates(orelse: cst.If | cst.Else) -> bool:
    if isinstance(orelse, cst.Else):
        return terminates(orelse.body)
    return terminates(orelse.body) and orelse.orelse is not None and _orelse_terminates(orelse.orelse)


@dataclass
class FunctionScan:
    """One pass over a function body: its dead branches and what its live code calls."""

    dead: set[int] = field(default_factory=set)
    calls: list[cst.Call] = field(default_factory=list)


ReturnKind = Callable[[cst.Call], "str | None"]


class _LiveCodeScanner(cst.CSTVisitor):
    def __init__(
        self,
        root: cst.FunctionDef,
        imports: ImportTable,
        is_method: bool,
        return_kind: ReturnKind,
        constant_flag: Callable[[str], "bool | None"],
    ) -> None:
        self.root = root
        self.imports = imports
        self.parameter_types = param_types(root, imports)
        self.self_name: str | None = None
        if is_method:
            self.self_name = first_param_name(root)
            self.parameter_types.pop(self.self_name, None)
        self.constant_flag = constant_flag
        self.return_kind = return_kind
        self.rebound: set[str] = set()  # names assigned so far, in source order, to a value of unknown type
        self.scan = FunctionScan()

    def _fold(self, test: cst.BaseExpression) -> bool | None:
        return scripting_value(test, self.imports, types=self.types, attributes=self._attribute_value)

    def _attribute_value(self, node: cst.Attribute) -> bool | None:
        if isinstance(node.value, cst.Name) and node.value.value == self.self_name:
            return self.constant_flag(node.attr.value)
        return None

    @property
    def types(self) -> dict[str, str]:
        """Parameter types that still hold here: a parameter rebound earlier may have changed type."""
        return {name: kind for name, kind in self.parameter_types.items() if name not in self.rebound}

    def visit_Assign(self, node: cst.Assign) -> None:
        # `img = F.resize(img, ...)` with `def resize(...) -> Tensor` keeps img a Tensor.
        if (
            len(node.targets) == 1
            and isinstance(node.targets[0].target, cst.Name)
            and isinstance(node.value, cst.Call)
            and self.parameter_types.get(node.targets[0].target.value) is not None
            and self.return_kind(node.value) == self.parameter_types[node.targets[0].target.value]
        ):
            return
        for target in node.targets:
            self.rebound |= target_names(target.target)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        self.rebound |= target_names(node.target)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        self.rebound |= target_names(node.target)

    def visit_For(self, node: cst.For) -> None:
        self.rebound |= target_names(node.target)

    def visit_AsName(self, node: cst.AsName) -> None:
        self.rebound |= target_names(node.name)

    def visit_NamedExpr(self, node: cst.NamedExpr) -> None:
        self.rebound |= target_names(node.target)

    def on_visit(self, node: cst.CSTNode) -> bool:
        if id(node) in self.scan.dead:
            return False
        if isinstance(node, (cst.FunctionDef, cst.ClassDef, cst.Lambda)) and node is not self.root:
            return False
        return super().on_visit(node)

    def visit_IndentedBlock(self, node: cst.IndentedBlock) -> None:
        self._mark_after_terminating_branch(node.body)

    def _mark_after_terminating_branch(self, statements) -> None:
        for index, statement in enumerate(statements):
            if not isinstance(statement, cst.If):
                continue
            value = self._fold(statement.test)
            live_terminates = (value is True and terminates(statement.body)) or (
                value is False and statement.orelse is not None and _orelse_terminates(statement.orelse)
            )
            if live_terminates:
                self.scan.dead.update(id(rest) for rest in statements[index + 1 :])
                return

    def visit_If(self, node: cst.If) -> None:
        value = self._fold(node.test)
        if value is True and node.orelse is not None:
            self.scan.dead.add(id(node.orelse))
        elif value is False:
            self.scan.dead.add(id(node.body))

    def visit_IfExp(self, node: cst.IfExp) -> None:
        value = self._fold(node.test)
        if value is True:
            self.scan.dead.add(id(node.orelse))
        elif value is False:
            self.scan.dead.add(id(node.body))

    def visit_Call(self, node: cst.Call) -> None:
        self.scan.calls.append(node)


def scan_function(
    node: cst.FunctionDef,
    imports: ImportTable,
    is_method: bool = False,
    return_kind: ReturnKind = lambda call: None,
    constant_flag: Callable[[str], "bool | None"] = lambda name: None,
) -> FunctionScan:
    scanner = _LiveCodeScanner(node, imports, is_method, return_kind, constant_flag)
    walk(node, scanner)
    return scanner.scan


@dataclass(eq=False)
class CompiledFunction:
    info: FunctionInfo
    reason: str
    body_compiled: bool
    owners: list[ClassInfo] = field(default_factory=list)  # sorted by file, then name (see `finalize`)
    dead: set[int] = field(default_factory=set)


@dataclass(frozen=True)
class CallSite:
    """A call from compiled code to a project function: who calls it, and what the call passes.

    Call sites are listed by caller (file, then name) and by the call's place among the caller's calls, so the
    order does not depend on the order the map was explored in, nor on which worker explored it."""

    caller_key: tuple[str, str]  # (file, display name) of the caller
    ordinal: int  # the call's place among its caller's calls
    bound: bool  # the callee's first parameter is bound (`self.method(...)`, `self.submodule(...)`)
    positional: int  # positional arguments passed
    keywords: frozenset[str]  # keyword arguments passed
    star: bool  # `*args` or `**kwargs` in the call: what it passes is unknown
    # In the process that explored the caller; None when another worker reported the call.
    caller: FunctionInfo | None = field(default=None, compare=False, hash=False)
    call: cst.Call | None = field(default=None, compare=False, hash=False)

    @property
    def caller_name(self) -> str:
        return self.caller_key[1]

    def omits(self, index: int | None, name: str) -> bool:
        """Whether the call certainly passes nothing for a parameter (positional `index`, or keyword `name`)."""
        if self.star or name in self.keywords:
            return False
        return index is None or self.positional <= index

    def detached(self) -> "CallSite":
        """The site without its trees, to send to another worker."""
        return replace(self, caller=None, call=None)


def _call_site(call: cst.Call, caller: FunctionInfo, bound: bool, ordinal: int) -> CallSite:
    return CallSite(
        (str(caller.module.path), caller.display_name),
        ordinal,
        bound,
        sum(1 for arg in call.args if arg.keyword is None and not arg.star),
        frozenset(arg.keyword.value for arg in call.args if arg.keyword is not None),
        any(arg.star for arg in call.args),
        caller,
        call,
    )


def _class_key(cls: ClassInfo | None) -> tuple[str, str]:
    return ("", "") if cls is None else (str(cls.module.path), cls.name)


# What identifies a function or a class across processes: (module name, file, class name or None, name).
Address = tuple


def function_address(function: FunctionInfo) -> Address:
    return (function.module.name, str(function.module.path), function.cls.name if function.cls else None, function.name)


def class_address(cls: ClassInfo) -> Address:
    return (cls.module.name, str(cls.module.path), cls.name)


class CompiledCodeMap:
    """Which functions of the project torch.jit.script compiles, why, and their dead branches.

    `build` explores from the roots of the linted modules parsed in this process. A worker that parses a
    share of the run also `receive`s what the other workers found in its files (`export`), so that each
    worker ends with the map a single process would have built for those files."""

    def __init__(self, project: ProjectIndex) -> None:
        self.project = project
        self.functions: dict[int, CompiledFunction] = {}
        self._scans: dict[int, FunctionScan] = {}
        self._queue: list[tuple[FunctionInfo, ClassInfo | None, str]] = []
        self._seen: set[tuple[int, int]] = set()
        self._nodes: dict[int, FunctionInfo] = {}  # callee node id -> callee
        # Calls from compiled code to project functions, by callee node.
        self.call_sites: dict[int, list[CallSite]] = {}
        # The project function a call resolves to, per owner the caller was compiled for: one call in an
        # inherited method may reach different overrides; `finalize` keeps the one of the first owner.
        self._callee_candidates: dict[int, dict[tuple[str, str], tuple[FunctionInfo, bool]]] = {}
        self._callees: dict[int, tuple[FunctionInfo, bool]] = {}
        self._follow: Callable[[FunctionInfo], bool] | None = None  # while receiving: explore only these

    @classmethod
    def build(cls, project: ProjectIndex, finalize: bool = True) -> "CompiledCodeMap":
        compiled = cls(project)
        compiled._add_roots()
        compiled._drain()
        if finalize:
            compiled.finalize()
        return compiled

    def get(self, node: cst.FunctionDef) -> CompiledFunction | None:
        return self.functions.get(id(node))

    def calls_to(self, node: cst.FunctionDef) -> list[CallSite]:
        return self.call_sites.get(id(node), [])

    def callee_of(self, call: cst.Call) -> tuple[FunctionInfo, bool] | None:
        """The project function a call in compiled code resolves to, and whether its first parameter is bound."""
        return self._callees.get(id(call))

    def _record_call(self, callee: FunctionInfo, call: cst.Call, caller: FunctionInfo, bound: bool,
                     owner: ClassInfo | None, ordinal: int) -> None:
        self._nodes[id(callee.node)] = callee
        self.call_sites.setdefault(id(callee.node), []).append(_call_site(call, caller, bound, ordinal))
        self._callee_candidates.setdefault(id(call), {}).setdefault(_class_key(owner), (callee, bound))

    def finalize(self) -> None:
        """Put what exploration order decided into a canonical order: owners by file and name, call sites by
        caller and place (each once), and for a call that reaches different overrides, the first owner's."""
        for entry in self.functions.values():
            entry.owners.sort(key=_class_key)
        for key, sites in self.call_sites.items():
            self.call_sites[key] = sorted(set(sites), key=lambda site: (site.caller_key, site.ordinal, site.bound))
        self._callees = {call: candidates[min(candidates)] for call, candidates in self._callee_candidates.items()}

    # -- across workers ---------------------------------------------------------------------------------------
    def export(self, elsewhere: Callable[[Path], "int | None"]) -> dict[int, tuple[list, list]]:
        """What this map found in files another worker lints, by that worker: the compiled functions there (with
        the class each was compiled for), and the calls to them."""
        out: dict[int, tuple[list, list]] = {}
        for entry in self.functions.values():
            worker = elsewhere(entry.info.module.path)
            if worker is None:
                continue
            entries = out.setdefault(worker, ([], []))[0]
            address = function_address(entry.info)
            if not entry.owners:
                entries.append((address, None, entry.reason))
            for owner in entry.owners:
                entries.append((address, class_address(owner), entry.reason))
        for node, sites in self.call_sites.items():
            callee = self._nodes[node]
            worker = elsewhere(callee.module.path)
            if worker is not None:
                address = function_address(callee)
                out.setdefault(worker, ([], []))[1].extend((address, site.detached()) for site in sites)
        return out

    def receive(self, entries: list, sites: list, local: Callable[[FunctionInfo], bool]) -> None:
        """Take in what other workers found in this worker's files (`export`), and follow the calls those
        functions make, as far as this worker's own files."""
        for address, owner_address, reason in entries:
            function = self.project.function_at(address)
            owner = self.project.class_at(owner_address) if owner_address is not None else None
            if function is not None and (owner_address is None or owner is not None):
                self._enqueue(function, owner, reason)
        self._follow = local
        try:
            self._drain()
        finally:
            self._follow = None
        for address, site in sites:
            callee = self.project.function_at(address)
            if callee is not None:
                self._nodes[id(callee.node)] = callee
                self.call_sites.setdefault(id(callee.node), []).append(site)

    # -- roots ------------------------------------------------------------------------------------------------
    def _add_roots(self) -> None:
        project = self.project
        for module in list(project.linted):
            for cls in module.classes.values():
                if project.is_module_class(cls):
                    self._add_module_roots(cls)
                elif decorator_is_script(cls, module.imports):
                    self._add_script_class(cls, "@torch.jit.script class")
            for function in module.functions.values():
                if function.is_script:
                    self._enqueue(function, None, "@torch.jit.script")
            for target in module.script_call_targets:
                resolved = project.resolve(module.imports.qualify(target))
                if isinstance(resolved, FunctionInfo):
                    self._enqueue(resolved, None, "passed to torch.jit.script")
                elif isinstance(resolved, ClassInfo) and not project.is_module_class(resolved):
                    self._add_script_class(resolved, "passed to torch.jit.script")

    def _add_module_roots(self, cls: ClassInfo) -> None:
        if self.project.find_method(cls, "__prepare_scriptable__") is not None:
            # torch.jit.script scripts what `__prepare_scriptable__()` returns instead (torchvision's v2
            # transforms return their v1 counterpart), so this class's own methods are not compiled.
            return
        forward = self.project.find_method(cls, "forward")
        if forward is not None:
            self._enqueue(forward, cls, f"forward of {cls.name}")
        unused = set()
        for current in self.project.mro(cls):
            unused |= current.unused_properties
        seen: set[str] = set()
        for current in self.project.mro(cls):
            for name, method in current.methods.items():
                if name in seen:
                    continue
                seen.add(name)
                if method.is_export:
                    self._enqueue(method, cls, f"@torch.jit.export method of {cls.name}")
                elif method.is_property and name not in unused:
                    self._enqueue(method, cls, f"property of {cls.name} (torch compiles every property)")

    def _add_script_class(self, cls: ClassInfo, reason: str) -> None:
        for method in cls.methods.values():
            self._enqueue(method, cls, f"method of TorchScript class {cls.name} ({reason})")

    # -- reachability -----------------------------------------------------------------------------------------
    def _enqueue(self, function: FunctionInfo, owner: ClassInfo | None, reason: str) -> None:
        if self._follow is not None and not self._follow(function):
            return
        key = (id(function.node), id(owner))
        if key in self._seen:
            return
        self._seen.add(key)
        self._queue.append((function, owner, reason))

    def _drain(self) -> None:
        while self._queue:
            function, owner, reason = self._queue.pop(0)
            entry = self.functions.get(id(function.node))
            if entry is None:
                entry = CompiledFunction(function, reason, body_compiled=not function.is_ignored)
                self.functions[id(function.node)] = entry
            if owner is not None and owner not in entry.owners:
                entry.owners.append(owner)
            if not entry.body_compiled:
                continue
            scan = self._scans.get(id(function.node))
            if scan is None:
                scan = self._scans[id(function.node)] = scan_function(
                    function.node,
                    function.module.imports,
                    is_method=function.cls is not None and "builtins.staticmethod" not in function.decorators,
                    return_kind=lambda call, imports=function.module.imports: self._return_kind(call, imports),
                    constant_flag=lambda name, cls=function.cls: self._constant_flag(cls, name),
                )
                entry.dead = scan.dead
            for ordinal, call in enumerate(scan.calls):
                self._follow_call(call, function, owner, ordinal)

    def _constant_flag(self, cls: ClassInfo | None, name: str) -> bool | None:
        """The value of a `Final[bool]`/`__constants__` flag of the method's class, in its default configuration."""
        if cls is None:
            return None
        info = self.project.attributes(cls).get(name)
        return info.init_bool if info is not None and info.constant else None

    def _return_kind(self, call: cst.Call, imports: ImportTable) -> str | None:
        """The declared return type of a project function a call resolves to, as `isinstance` folding sees it."""
        target = self.project.resolve_function(imports.qualify(call.func))
        if target is None or target.node.returns is None:
            return None
        annotation = target.node.returns.annotation
        outer = annotation.value if isinstance(annotation, cst.Subscript) else annotation
        return _ISINSTANCE_TYPES.get(target.module.imports.qualify(outer) or "")

    def _follow_call(self, call: cst.Call, caller: FunctionInfo, owner: ClassInfo | None, ordinal: int) -> None:
        project = self.project
        imports = caller.module.imports
        reason = f"called from {caller.display_name}"
        func = call.func
        self_name = first_param_name(caller.node)
        if (
            isinstance(func, cst.Attribute)
            and isinstance(func.value, cst.Name)
            and owner is not None
            and func.value.value in (self_name, owner.name)
        ):
            name = func.attr.value
            method = project.find_method(owner, name)
            if method is not None:
                bound = "builtins.staticmethod" not in method.decorators
                self._record_call(method, call, caller, bound=bound, owner=owner, ordinal=ordinal)
                self._enqueue(method, owner, reason)
                return
            attribute = project.attributes(owner).get(name)
            if attribute is None:
                return
            if attribute.function:
                target = project.resolve_function(attribute.function)
                if target is not None:
                    self._record_call(target, call, caller, bound=False, owner=owner, ordinal=ordinal)
                    self._enqueue(target, target.cls, f"stored in {owner.name}.{name}, {reason}")
            for constructor in sorted(attribute.constructors):
                submodule = project.resolve_class(constructor)
                if submodule is not None and project.is_module_class(submodule):
                    forward = project.find_method(submodule, "forward")
                    if forward is not None:
                        self._record_call(forward, call, caller, bound=True, owner=owner, ordinal=ordinal)
            return
        qualified = imports.qualify(func)
        if qualified is None:
            return
        target = project.resolve(qualified)
        if isinstance(target, FunctionInfo):
            self._record_call(target, call, caller, bound=False, owner=owner, ordinal=ordinal)
            self._enqueue(target, target.cls, reason)
        elif isinstance(target, ClassInfo):
            if not project.is_module_class(target):
                self._add_script_class(target, f"used in {caller.display_name}")
        else:
            # `Cls.static_method(...)`
            prefix, _, name = qualified.rpartition(".")
            cls = project.resolve_class(prefix)
            if cls is not None:
                method = project.find_method(cls, name)
                if method is not None:
                    bound = "builtins.classmethod" in method.decorators
                    self._record_call(method, call, caller, bound=bound, owner=owner, ordinal=ordinal)
                    self._enqueue(method, cls, reason)


def decorator_is_script(cls: ClassInfo, imports: ImportTable) -> bool:
    for decorator in cls.node.decorators:
        expr = decorator.decorator.func if isinstance(decorator.decorator, cst.Call) else decorator.decorator
        if imports.qualify(expr) == "torch.jit.script":
            return True
    return False


