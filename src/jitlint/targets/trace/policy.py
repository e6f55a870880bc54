"""The `trace` capture policy: what `torch.jit.trace(model, example_inputs)` runs and records (torch 2.13).

Roots: `forward` of each nn.Module class, and (through the shared worklist) every Python function and submodule it
calls, across files. The tracer runs the eager Python: `@torch.jit.ignore` and `@torch.jit.unused` bodies are traced
like any other code. What TorchScript compiles instead is kept as it is: a `@torch.jit.script` (or
`@torch.jit.script_if_tracing`) function called from traced code runs as TorchScript, its control flow intact, and
so does a module class the project only uses scripted (`self.child = torch.jit.script(Child())`): their bodies are
not traced.

A call through a value (`ATTENTION[name](q, k, v)`, `fn = REGISTRY.get(name, default); fn(x)`) captures every
project function the value may hold (`jitlint.facts.dispatch`): the model runs one of them, by its configuration. A
method of a submodule (`self.box_coder.decode(...)`) is captured for each project class the attribute may hold: the
classes assigned to it, or passed to the `__init__` parameter assigned to it where the project builds the module.

Pruned while tracing (the branch the tracer never runs): `torch.jit.is_tracing()` and
`torch._C._get_tracing_state()` are true, `torch.jit.is_scripting()`, `torch.compiler.is_compiling()` /
`is_exporting()` and `torch.onnx.is_in_onnx_export()` are False; folded with three-valued `and`/`or`/`not`, and
code after an `if <folded True>: return` is pruned. `self.training` is False: the trace target judges the model as
it is traced for inference (`model.eval()`); TRC209 warns about the training branch itself and TRC213 about a model
traced in training mode.
"""

from __future__ import annotations

import re
from typing import Iterator

import libcst as cst

from jitlint.capture import Capture, CapturePolicy
from jitlint.pruning import CheckScanner
from jitlint.facts import RunFact, run_fact
from jitlint.facts.dispatch import possible_callees, submodule_methods
from jitlint.names import ImportTable, first_param_name
from jitlint.project import ClassInfo, FunctionInfo, ProjectIndex
from jitlint.targets.trace.datadep import TraceDatadep
from jitlint.walk import walk

# The value each check has while torch.jit.trace runs the Python (verified on torch 2.13).
TRACE_TIME_VALUES: dict[str, bool] = {
    "torch.jit.is_scripting": False,
    "torch._C._is_scripting": False,
    "torch.jit.is_tracing": True,
    "torch._C._get_tracing_state": True,  # the tracing state object: truthy while tracing
    "torch.compiler.is_compiling": False,
    "torch.compiler.is_dynamo_compiling": False,
    "torch.compiler.is_exporting": False,
    "torch._dynamo.is_compiling": False,
    "torch.onnx.is_in_onnx_export": False,
    "torch.fx._symbolic_trace.is_fx_tracing": False,
    "torch.fx._symbolic_trace.is_fx_symbolic_tracing": False,
}
# Decorators whose function runs as TorchScript when traced code calls it.
SCRIPTED_DECORATORS = frozenset({"torch.jit.script", "torch.jit.script_if_tracing", "torch.jit._script.script",
                                 "torch.jit._script_if_tracing", "torch.jit._trace._script_if_tracing"})
_SCRIPT_CALL = re.compile(r"\bscript\(")


class ScriptedClasses(RunFact):
    """The project classes built inside a `torch.jit.script(...)` call somewhere in the project
    (`torch.jit.script(Child())`): when traced code calls such a module, TorchScript runs it."""

    @classmethod
    def compute(cls, project: ProjectIndex, owner) -> frozenset[int]:
        found: set[int] = set()
        for module in list(project.modules.values()):  # resolving a name may load a module
            if module.text is not None and ("script" not in module.text or not _SCRIPT_CALL.search(module.text)):
                continue
            imports = module.imports

            class Calls(cst.CSTVisitor):
                def visit_Call(self, node: cst.Call) -> None:
                    if imports.qualify(node.func) not in ("torch.jit.script", "torch.jit._script.script"):
                        return
                    built = node.args[0].value if node.args else None
                    if isinstance(built, cst.Call):
                        target = project.resolve_class(imports.qualify(built.func))
                        if target is not None:
                            found.add(id(target.node))

            walk(module.tree, Calls())
        return frozenset(found)


def scripted_classes(project: ProjectIndex) -> frozenset[int]:
    return run_fact(project, ScriptedClasses, project)


class TracePolicy(CapturePolicy):
    name = "trace"
    datadep = TraceDatadep  # what torch.jit.trace makes of values (`jitlint.facts.datadep`)
    # A helper's parameters take the kinds its callers pass, from callers in any file (`follow_calls`): a run split
    # across workers would see only the callers of each worker's files (the engine keeps it whole).
    needs_one_process = True
    roots_in_module_classes = True  # the forward of each module class

    def roots(self) -> Iterator[Capture]:
        scripted = scripted_classes(self.project)
        for module in list(self.project.linted):
            yield from self.forwards(module, lambda cls: id(cls.node) in scripted)

    def body_captured(self, function: FunctionInfo) -> bool:
        if function.decorators & SCRIPTED_DECORATORS:
            return False  # TorchScript runs it: its control flow is kept
        if function.cls is not None and id(function.cls.node) in scripted_classes(self.project):
            return False  # a module the project only uses scripted
        return True  # the tracer runs everything else, `@torch.jit.ignore` bodies included

    def scanner(self, function: FunctionInfo) -> CheckScanner:
        self_name = first_param_name(function.node) if function.bound_first_param == "instance" else None
        return CheckScanner(function.node, function.module.imports, TRACE_TIME_VALUES, self_name)

    def class_used(self, cls: ClassInfo, caller: FunctionInfo) -> Iterator[Capture]:
        return iter(())

    def dispatched(self, func: cst.BaseExpression, caller: FunctionInfo) -> list[tuple[FunctionInfo, ClassInfo | None]]:
        # The tracer runs whichever function the value holds: each one a registry or a local name may give, or the
        # method of each class a submodule may be (`self.box_coder.decode(...)`, `self.block.build(...)`).
        found = possible_callees(self.project, caller, func) or submodule_methods(self.project, caller, func)
        return [(function, function.cls) for function in found]
