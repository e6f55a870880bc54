"""The typer's entry: one compiled function typed once per file lint (`function_types`), the scope it is typed in,
the return types of the functions it calls, and the module attributes it reads."""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from jitlint.facts import Fact, RunFact, run_fact
from jitlint.names import first_param_name
from jitlint.targets.script.typing.annotations import Reader, class_type, named_params, signature
from jitlint.targets.script.typing.checker import Checker
from jitlint.targets.script.typing.checkexpr import ExpressionChecker, Scope, Sugared
from jitlint.targets.script.typing.modules import InitScope, ModuleMembers
from jitlint.targets.script.typing.results import FunctionTypes
from jitlint.targets.script.typing.types import Type

if TYPE_CHECKING:
    from jitlint.capture import CaptureMap
    from jitlint.project import ClassInfo, FunctionInfo, ProjectIndex
    from jitlint.rules.base import RuleContext

_IN_PROGRESS: set[tuple] = set()  # (function, owners) being typed for a caller's return type: recursion guard


class ScriptTypes(Fact):
    """What the TorchScript typer finds in a compiled function: the type of each expression, the problems torch
    reports as typed results, and the function's return type. Computed once for every rule that reads types."""

    @classmethod
    def compute(cls, ctx: "RuleContext", node: cst.FunctionDef) -> FunctionTypes:
        return compute_types(ctx, node)


def function_types(ctx: "RuleContext", node: cst.FunctionDef) -> FunctionTypes:
    """The typer's results for the compiled function `node`: the `ScriptTypes` fact (the reading rule declares it)."""
    return ctx.fact(ScriptTypes, node)


def compute_types(ctx: "RuleContext", node: cst.FunctionDef) -> FunctionTypes:
    """`ScriptTypes`: type the compiled function `node` (of the file being linted) with its capture."""
    captured = ctx.function if ctx.function is not None and ctx.function.info.node is node else (
        ctx.captured.get(node))
    if captured is None:
        return FunctionTypes()
    return _type(ctx.project, ctx.captured, captured.info, list(captured.owners), captured.pruned)


def captured_types(project: "ProjectIndex", captured: "CaptureMap", entry) -> FunctionTypes:
    """The typer's results for one function of a capture map (`CapturedFunction`), outside a lint: what the
    coverage figure reads."""
    return _type(project, captured, entry.info, list(entry.owners), entry.pruned)


def type_at(ctx: "RuleContext", node: cst.CSTNode):
    """The value the typer gives an expression of the compiled function being visited (a `Type`, a `Sugared`
    value, or None: unknown, or not compiled)."""
    function = ctx.function
    if function is None or not function.body_captured:
        return None
    return function_types(ctx, function.info.node).types.get(id(node))


class _Members(RunFact):
    """The run's module-attribute inference (one per project index)."""

    @classmethod
    def compute(cls, project: "ProjectIndex", owner) -> ModuleMembers:
        return ModuleMembers(project, _init_value_typer(project))


def members(project: "ProjectIndex") -> ModuleMembers:
    """The run's module-attribute inference."""
    return run_fact(project, _Members, project)


def _type(project: "ProjectIndex", captured: "CaptureMap", info: "FunctionInfo", owners: list,
          pruned: set[int] | frozenset[int], for_callers: bool = False) -> FunctionTypes:
    scope, params = build_scope(project, captured, info, owners, for_callers)
    return Checker(scope, pruned).run(params)


def build_scope(project: "ProjectIndex", captured: "CaptureMap | None", info: "FunctionInfo",
                owners: list, for_callers: bool = False) -> tuple[Scope, dict]:
    """The scope a compiled function is typed in, and its parameters' values. `for_callers`: typed for the return
    its callers see, with a parameter whose default torch rejects left unknown (`Param.type`) rather than the
    Tensor its body is compiled with (`Param.body_type`)."""
    node = info.node
    bound = info.bound_first_param
    from jitlint.targets.script.overload_lookup import implements_overloads

    module_owners = [owner for owner in owners if project.is_module_class(owner)]
    is_module = bool(module_owners) and len(module_owners) == len(owners)
    if bound is None and is_module and static_method_compiled_as_method(info):
        bound = "instance"
    is_method = bound is not None
    found = signature(node, info.module.imports, project, is_method)
    self_name = first_param_name(node) if bound == "instance" else None
    params: dict = {}
    if self_name is not None:
        if is_module:
            params[self_name] = Sugared("self-module")
        elif len(owners) == 1 and class_type(owners[0], project) is not None:
            params[self_name] = class_type(owners[0], project)
        else:
            params[self_name] = None
    elif bound == "class" and node.params.params:
        params[node.params.params[0].name.value] = None
    overloaded = implements_overloads(info)
    for param in found.params:
        params[param.name] = None if overloaded else param.type if for_callers else param.body_type
    params.update({p.name.value: None for p in _star_params(node)})
    scope = Scope(
        function=node, module=info.module, project=project, info=info, owners=owners, self_name=self_name,
        signature=found, members=members(project), is_module=is_module,
        callee_of=captured.callee_of if captured is not None else (lambda call: None),
    )
    scope.returns_of = lambda callee, owner: returns_of(project, captured, callee, owner, owners)
    scope.constant_flag = lambda name: _constant_flag(project, owners, name) if is_module else None
    scope.container_length = lambda name: _container_length(project, owners, name)
    return scope, params


def static_method_compiled_as_method(info: "FunctionInfo") -> bool:
    """A module's `forward` (or `@torch.jit.export` method) written as a `@staticmethod`: `_recursive.py` compiles
    the module's `forward` and exported methods as methods whatever they are (`make_stub_from_method`), and the
    frontend binds a method's first parameter to the module, whatever its name (`ir_emitter.cpp:
    emitFormalArguments`)."""
    if info.cls is None or "builtins.staticmethod" not in info.decorators or not named_params(info.node.params):
        return False
    return info.name == "forward" or bool(info.decorators & {"torch.jit.export", "torch.jit._script.export"})


def _star_params(node: cst.FunctionDef) -> list[cst.Param]:
    found = []
    for star in (node.params.star_arg, node.params.star_kwarg):
        if isinstance(star, cst.Param):
            found.append(star)
    return found


def returns_of(project: "ProjectIndex", captured: "CaptureMap | None", callee: "FunctionInfo",
               owner: "ClassInfo | None", caller_owners: list) -> Type | None:
    """The return type of a compiled function a call reaches: declared, else joined from its returns (typed once
    per run)."""
    if callee.node.returns is not None:
        return Reader(callee.module.imports, project).read(callee.node.returns.annotation)
    owners = [owner] if owner is not None else (
        [o for o in caller_owners if project.find_method(o, callee.name) is callee] if callee.cls is not None else [])
    key = (id(callee.node), tuple(id(o) for o in owners))
    if key in _IN_PROGRESS:
        return None
    return run_fact(project, _Returns, callee, tuple(owners), captured)


class _Returns(RunFact):
    """The return type the typer infers for a compiled function without a return annotation, for the classes it is
    compiled for (`key`: those classes and the capture map)."""

    @classmethod
    def compute(cls, project: "ProjectIndex", callee: "FunctionInfo", owners: tuple, captured) -> Type | None:
        key = (id(callee.node), tuple(id(o) for o in owners))
        _IN_PROGRESS.add(key)
        try:
            # A parameter whose unannotated default torch rejects (JIT201) is a Tensor in the body torch compiles, but
            # torch stops at that function: its callers are compiled once the parameter is annotated, and then the
            # body sees the annotation's type. So the return callers see is typed with that parameter unknown: what
            # does not depend on it is typed (a tuple of Tensors stays one), what does stays unknown (`return k` of
            # `k=2` is an int once fixed, not the Tensor of the body torch compiles now).
            entry = captured.get(callee.node) if captured is not None else None
            pruned = entry.pruned if entry is not None else frozenset()
            return _type(project, captured, callee, list(owners), pruned, for_callers=True).returns
        finally:
            _IN_PROGRESS.discard(key)


def _constant_flag(project: "ProjectIndex", owners: list, name: str) -> bool | str | None:
    """What `self.<name>` folds to in a condition: a `Final` or `__constants__` attribute is a constant."""
    from jitlint.targets.script.policy import constant_names

    values = set()
    for owner in owners:
        if name not in constant_names(project, owner):
            return None
        info = project.attributes(owner).get(name)
        values.add(info.init_bool if info is not None else None)
    if len(values) == 1:
        value = values.pop()
        return value if value is not None else "uncertain"
    return "uncertain"


def _container_length(project: "ProjectIndex", owners: list, name: str) -> int | None:
    """How many modules a ModuleList/Sequential attribute holds after `__init__`, the same in every owner."""
    from jitlint.targets.script.typing.modules import static_length

    infos = [project.attributes(owner).get(name) for owner in owners]
    if not infos or any(info is None or not info.kinds or not info.kinds <= {"ModuleList", "Sequential"}
                        for info in infos):
        return None
    lengths = {static_length(info) for info in infos}
    return lengths.pop() if len(lengths) == 1 else None


def _init_value_typer(project: "ProjectIndex"):
    """Types a value `__init__` assigns to `self.<name>` that `ModuleMembers` does not read itself (a call of a torch
    function, arithmetic), with `__init__`'s annotated parameters in scope."""
    def value_type(node: cst.BaseExpression, init: InitScope) -> Type | None:
        method = project.find_method(init.cls, "__init__")
        if method is None:
            return None
        scope = Scope(function=method.node, module=method.module, project=project, info=method, owners=[init.cls],
                      self_name=init.self_name, signature=signature(method.node, method.module.imports, project, True),
                      members=members(project))
        env = dict(init.params)
        if init.self_name is not None:
            env[init.self_name] = None
        value = ExpressionChecker(scope).expr(node, env)
        return value if isinstance(value, Type) else None

    return value_type


def named(function: cst.FunctionDef) -> list[cst.Param]:
    return named_params(function.params)
