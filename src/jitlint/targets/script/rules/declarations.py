"""Declarations TorchScript's decorators check: `@torch.jit._overload` declarations (JIT214) and
`@torch.jit.interface` classes (JIT242). Both decorators run when the module is imported, so what they reject fails
whether anything is compiled or not.
"""

from __future__ import annotations

import libcst as cst

from jitlint.rules.base import RuleContext
from jitlint.targets.script.overloads import overload_group
from jitlint.targets.script.rules import ScriptRule
from jitlint.targets.script.typing.annotations import has_annotations, signature_comment


class OverloadMisuse(ScriptRule):
    code = "JIT214"
    name = "overload-misuse"
    severity = "error"
    summary = (
        "`@torch.jit._overload` declarations with no implementation after them, without the annotations that say "
        "their signature, with defaults the implementation does not share, or leaving out an unannotated parameter "
        "of the implementation; an overloaded function passed to `torch.jit.script` itself"
    )
    message = "`torch.jit._overload` declarations TorchScript cannot use"
    # The decorator checks a declaration's body when the module is imported, compiled or not.
    scope = "anywhere"
    text_hints = ("_overload",)
    outside_handlers = frozenset({"FunctionDef"})

    def visit_FunctionDef(self, node: cst.FunctionDef, ctx: RuleContext) -> None:
        decorator = next((d for d in node.decorators if ctx.qualify(d.decorator) in _OVERLOAD_DECORATORS), None)
        if decorator is not None and not _is_stub_body(node.body):
            ctx.report(decorator, (
                f"the body of this `@torch.jit._overload` declaration of `{node.name.value}` is not just `pass` or "
                f"`...`, and the decorator rejects it when the module is imported ('Only `pass` statement or `...` "
                f"can be the body of overload declaration'); make the body `...` and keep the code in the "
                f"implementation"))
        if ctx.function is None or ctx.function.info.node is not node:
            return
        group = overload_group(node, ctx.module.tree)
        if group is None:
            return
        if group.implementation is None and node is group.declarations[-1]:
            ctx.report(
                node.decorators[0] if node.decorators else node.name,  # torch points at the decorator
                f"`{node.name.value}` is declared with `@torch.jit._overload` but no function of that name follows "
                f"the declarations ('Implementation ... is missing'); define the implementation after them",
            )
        elif node is group.implementation:
            from jitlint.targets.script import overloads
            from jitlint.targets.script.policy import ScriptPolicy

            if ctx.function.reason in ScriptPolicy.primary_reasons:  # torch.jit.script(g) or @torch.jit.script
                ctx.report(node.name, _DIRECTLY_SCRIPTED)
            for declaration in group.declarations:
                for differs in overloads.default_mismatches(declaration, node, ctx.module.tree):
                    ctx.report(differs.node, (
                        f"the default of `{differs.name}` on this `@torch.jit._overload` declaration differs from "
                        f"the implementation's ('Default parameters on overloads do not affect the runtime so they "
                        f"must equal to the default parameter on the implementation function. Found on parameter "
                        f"{differs.name}'); give both the same default, or none on the declaration"))
                for left_out in overloads.undeclared_unannotated(declaration, node, signature_comment(node) is not None):
                    ctx.report(left_out.node, (
                        f"`{left_out.name}` is not a parameter of an `@torch.jit._overload` declaration and has no "
                        f"annotation here ('Parameters not specified on the overloaded declaration must have a type "
                        f"annotation in the implementation function. Did not find type for param {left_out.name}'); "
                        f"annotate it, or declare it in every overload"))
            for declaration in group.declarations:
                if not has_annotations(declaration) and signature_comment(declaration) is None:
                    ctx.report(
                        declaration.name,
                        f"this `@torch.jit._overload` declaration of `{node.name.value}` has no annotations, so it "
                        f"declares no signature ('Must explicitly add type annotations to overloaded functions'); "
                        f"annotate its parameters and return",
                    )


_OVERLOAD_DECORATORS = frozenset(f"{module}.{name}" for module in ("torch.jit", "torch._jit_internal")
                                  for name in ("_overload", "_overload_method"))


def _is_stub_body(body: cst.BaseSuite) -> bool:
    """A body of one statement, `pass` or `...` (`_check_overload_body`: a docstring counts as a statement)."""
    statements = _statements(body)
    if len(statements) != 1:
        return False
    only = statements[0]
    return isinstance(only, cst.Pass) or (isinstance(only, cst.Expr) and isinstance(only.value, cst.Ellipsis))


_DIRECTLY_SCRIPTED = (
    "an overloaded function is passed to `torch.jit.script` itself ('cannot be directly compiled because it is "
    "overloaded'); script a function that calls it, so that its arguments choose the overload"
)


_INTERFACE_DECORATORS = frozenset({"torch.jit.interface", "torch.jit._script.interface"})
_INTERFACE_BASES = frozenset({"builtins.object", "torch.nn.Module", "torch.nn.modules.module.Module"})


class InterfaceDeclaration(ScriptRule):
    code = "JIT242"
    name = "interface-declaration"
    severity = "error"
    summary = ("an `@torch.jit.interface` on a function, on a class with a base other than `object` or `nn.Module`, "
               "or with a method that has no return annotation or a body other than `pass` (a docstring may precede "
               "it)")
    message = "an `@torch.jit.interface` declaration torch rejects"
    # `torch.jit.interface` compiles the declaration when the module is imported.
    scope = "anywhere"
    text_hints = ("interface",)
    outside_handlers = frozenset({"FunctionDef", "ClassDef"})

    def visit_FunctionDef(self, node: cst.FunctionDef, ctx: RuleContext) -> None:
        if _interface_decorator(node, ctx) is not None:
            ctx.report(node.name, (
                f"`@torch.jit.interface` declares a class of methods, not a function ('interface must be applied to "
                f"a class'); declare `class {node.name.value.title().replace('_', '')}:` with `{node.name.value}` "
                f"as a method whose body is `pass`"))

    def visit_ClassDef(self, node: cst.ClassDef, ctx: RuleContext) -> None:
        if _interface_decorator(node, ctx) is None:
            return
        bases = [base.value for base in node.bases]
        if not node.keywords and not (len(bases) <= 1 and all(ctx.qualify(b) in _INTERFACE_BASES for b in bases)):
            ctx.report(node.name, (
                f"an interface may inherit only from `object` or directly from `nn.Module` ('TorchScript interface "
                f"does not support inheritance yet'); declare every method of `{node.name.value}` in it and drop the "
                f"base"))
        # `CompilationUnit::define_interface`: each method needs a return annotation; before its last statement
        # only string literals may stand as expressions, and the last must be `pass`, unless a `pass` comes
        # earlier, which ends the check of the whole class. `get_jit_class_def` hands it the methods the class
        # itself defines (the last `def` of a name), static ones left out, in the order of their names
        # (`inspect.getmembers`).
        methods: dict[str, cst.FunctionDef] = {}
        for statement in node.body.body if isinstance(node.body, cst.IndentedBlock) else ():
            if isinstance(statement, cst.FunctionDef):
                methods[statement.name.value] = statement
        for _, statement in sorted(methods.items()):
            if any(ctx.qualify(d.decorator) == "builtins.staticmethod" for d in statement.decorators):
                continue
            if statement.returns is None and signature_comment(statement) is None:  # `# type: (...) -> T` says it
                ctx.report(statement.name, (
                    f"`{statement.name.value}` of the interface `{node.name.value}` has no return annotation "
                    f"('interface declarations must have a return type annotated'); annotate it, e.g. `-> None`"))
                return
            body = _statements(statement.body)
            for before in body[:-1]:
                if isinstance(before, cst.Expr) and not isinstance(before.value, (cst.SimpleString,
                                                                                  cst.ConcatenatedString)):
                    ctx.report(statement.name, (
                        f"the body of `{statement.name.value}` in the interface `{node.name.value}` holds code "
                        f"('interfaces declarations should only contain a single 'pass' statement'); an interface "
                        f"declares its methods: make the body `pass`"))
                    return
                if isinstance(before, cst.Pass):
                    return
            if not (body and isinstance(body[-1], cst.Pass)):
                ctx.report(statement.name, (
                    f"the body of `{statement.name.value}` in the interface `{node.name.value}` does not end with "
                    f"`pass` ('interfaces declarations should contain 'pass' statement'); an interface declares its "
                    f"methods: make the body `pass`"))
                return


def _interface_decorator(node: cst.FunctionDef | cst.ClassDef, ctx: RuleContext) -> cst.Decorator | None:
    return next((d for d in node.decorators if ctx.qualify(d.decorator) in _INTERFACE_DECORATORS), None)


def _statements(body: cst.BaseSuite) -> list[cst.CSTNode]:
    """The statements of a body, small statements one by one (as torch's parser sees `a; b`)."""
    if isinstance(body, cst.SimpleStatementSuite):
        return list(body.body)
    return [small for line in body.body
            for small in (line.body if isinstance(line, cst.SimpleStatementLine) else [line])]


_SCRIPT = frozenset({"torch.jit.script", "torch.jit._script.script"})


class ScriptedClassWithBase(ScriptRule):
    code = "JIT638"
    name = "scripted-class-with-base"
    severity = "error"
    summary = ("a class given to `torch.jit.script` (decorated, or passed) that is an `nn.Module` subclass (script an "
               "instance) or that has a base other than `object` (TorchScript classes do not inherit)")
    message = "a class `torch.jit.script` refuses before compiling it"
    # `torch.jit.script(cls)` checks the class first (`_script.py: script`), wherever the call or decorator runs.
    scope = "anywhere"
    text_hints = ("script",)
    outside_handlers = frozenset({"ClassDef", "Call"})

    def visit_ClassDef(self, node: cst.ClassDef, ctx: RuleContext) -> None:
        if not any(ctx.qualify(d.decorator) in _SCRIPT for d in node.decorators):
            return
        cls = ctx.module.classes.get(node.name.value)
        if cls is not None and cls.node is node:
            self._check(cls, node.name, ctx)

    def visit_Call(self, node: cst.Call, ctx: RuleContext) -> None:
        if ctx.qualify(node.func) not in _SCRIPT or not node.args or node.args[0].keyword is not None:
            return
        argument = node.args[0].value
        if not isinstance(argument, (cst.Name, cst.Attribute)):
            return
        cls = ctx.project.resolve_class(ctx.qualify(argument))
        if cls is not None:
            self._check(cls, node, ctx)

    def _check(self, cls, where: cst.CSTNode, ctx: RuleContext) -> None:
        project = ctx.project
        if project.is_module_class(cls):
            ctx.report(where, (
                f"`{cls.name}` is an `nn.Module` class, and `torch.jit.script` compiles module instances (torch: "
                f"\"Type '...{cls.name}' cannot be compiled since it inherits from nn.Module, pass an instance "
                f"instead\"); script `{cls.name}(...)`"))
            return
        if cls.node.keywords:
            return  # a metaclass: what the class derives from is not read here
        bases = cls.base_names
        if not bases or all(base == "builtins.object" for base in bases):
            return
        for base in bases:
            if base is None or base.startswith("enum."):
                return  # unknown, or an Enum (`torch.jit.script` returns an Enum class as it is)
            resolved = project.resolve_class(base)
            if resolved is not None and any(b and b.startswith("enum.") for c in project.mro(resolved)
                                            for b in c.base_names):
                return
            if resolved is None and not base.startswith(("builtins.", "typing.", "abc.", "collections.")):
                return  # a class from elsewhere: it may be an Enum
        ctx.report(where, (
            f"`{cls.name}` derives from a class other than `object`, and TorchScript classes do not inherit "
            f"(torch: \"TorchScript classes does not support inheritance yet. Please directly inherit from "
            f"'object'.\"); copy what it needs from its base into it"))
