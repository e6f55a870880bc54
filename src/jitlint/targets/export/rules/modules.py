"""EXP105, EXP207: what export makes of a module class as a whole: TorchScript submodules it cannot trace into, and
`@torch.jit.export` methods it does not export. Both look at the class (its methods need not be traced)."""

from __future__ import annotations

import libcst as cst

from jitlint.names import first_param_name
from jitlint.rules.base import RuleContext
from jitlint.targets.export.rules import ExportRule, strict
from jitlint.walk import walk


class _SelfAssignments(cst.CSTVisitor):
    """`self.<name> = <call>` in one method: (target, call) pairs."""

    def __init__(self, self_name: str) -> None:
        self.self_name = self_name
        self.found: list[tuple[cst.Attribute, cst.Call]] = []

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        return False

    def visit_Assign(self, node: cst.Assign) -> None:
        if not isinstance(node.value, cst.Call):
            return
        for target in node.targets:
            attribute = target.target
            if (isinstance(attribute, cst.Attribute) and isinstance(attribute.value, cst.Name)
                    and attribute.value.value == self.self_name):
                self.found.append((attribute, node.value))


class ScriptedSubmodule(ExportRule):
    code = "EXP105"
    name = "scripted-submodule"
    severity = "error"
    summary = "`self.x = torch.jit.script(...)` submodule (and `torch.jit.trace(...)` in strict mode)"
    message = "a TorchScript submodule cannot be traced by torch.export: keep the eager module"
    scope = "anywhere"
    text_hints = ("script", "trace")

    def visit_ClassDef(self, node: cst.ClassDef, ctx: RuleContext) -> None:
        cls = ctx.module_class(node)
        if cls is None:
            return
        imports = ctx.module.imports
        wrappers = {"torch.jit.script": "script"}
        if strict(ctx):
            wrappers.update({"torch.jit.trace": "trace", "torch.jit.trace_module": "trace"})
        for method in cls.methods.values():
            self_name = first_param_name(method.node)
            if self_name is None or method.bound_first_param != "instance":
                continue
            finder = _SelfAssignments(self_name)
            for statement in method.node.body.body if isinstance(method.node.body, cst.IndentedBlock) else ():
                walk(statement, finder)
            for attribute, call in finder.found:
                how = wrappers.get(imports.qualify(call.func) or "")
                if how is None:
                    continue
                if how == "script":
                    text = (f"`self.{attribute.attr.value}` holds a `torch.jit.script`-ed module: torch.export fails when "
                            "forward calls it (default mode: \"forward() takes 2 positional arguments but 3 were "
                            "given\", which does not mention TorchScript; strict: \"torch.jit.script/freeze modules "
                            "unsupported\"); assign the eager module and script the whole model only for TorchScript")
                else:
                    text = (f"`self.{attribute.attr.value}` holds a `torch.jit.trace`-d module: strict torch.export "
                            "cannot inline it (\"Attempted to inline function marked as skipped\"); assign the eager "
                            "module")
                ctx.report(call, text)


class JitExportMethodLost(ExportRule):
    code = "EXP207"
    name = "jit-export-method-lost"
    severity = "warning"
    summary = "`@torch.jit.export` methods: torch.export exports only `forward`"
    message = "only `forward` is exported: this `@torch.jit.export` method is not in the ExportedProgram"
    scope = "anywhere"
    text_hints = ("export",)

    def visit_ClassDef(self, node: cst.ClassDef, ctx: RuleContext) -> None:
        cls = ctx.module_class(node)
        if cls is None:
            return
        imports = ctx.module.imports
        for method in cls.methods.values():
            if "torch.jit.export" not in method.decorators:
                continue
            for decorator in method.node.decorators:
                if imports.qualify(decorator.decorator) == "torch.jit.export":
                    ctx.report(decorator.decorator, (
                        f"`{method.name}` is a `@torch.jit.export` entry point, but torch.export exports only "
                        "`forward`: it is silently missing from the ExportedProgram; export it separately (a small "
                        "wrapper module whose forward calls it) or make it part of forward"))
