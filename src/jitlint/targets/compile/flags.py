"""Configuration flags Dynamo decides while tracing: the code a module's off-by-default flag guards.

A bool attribute of a module (`self.self_condition`, set in `__init__`) is a Python constant to Dynamo: it wraps it
as a `ConstantVariable` guarded by `CONSTANT_MATCH` (`torch/_dynamo/variables/builder.py`, `wrap_literal` and the
bool case), so `if self.flag:` and `self.flag and f()` are decided at trace time and the other side is never traced.
A call Dynamo would break on (`random.random()`, `print`) under a flag that is False in the module as built with the
defaults of `__init__` is not traced in that module: no graph break (verified on torch 2.13: `self.flag and
random.random() < 0.5` compiles in one graph with the flag False, breaks at the call with it True).

The model judged is the default-configured one, as the fx target's: a flag is decided when every `__init__`
assignment gives it a bool literal, an `__init__` parameter with a bool literal default that no file of the project
passes the other way by keyword, or the same-named flag of another object (`self.model.self_condition`: the
wrapped network's), decided over the project's module classes that set that flag (from a default or a literal;
the other wrappers, which derive it from the object they wrap, do not count). A flag assigned outside
`__init__` (`self._warned = True` in forward) is state, not configuration: never decided. `self.training` is not a
flag here (torch.compile is used in both modes; the capture policy does not fold it either).
"""

from __future__ import annotations

import re

import libcst as cst

from jitlint.capture import NOT_LOGIC, fold_logic
from jitlint.facts import Fact, RunFact, run_fact
from jitlint.names import first_param_name
from jitlint.project import ClassInfo
from jitlint.rules.base import RuleContext
from jitlint.walk import walk

__all__ = ["OffByDefault", "flag_test"]


def _bool(node: cst.BaseExpression | None) -> bool | None:
    if isinstance(node, cst.Name) and node.value in ("True", "False"):
        return node.value == "True"
    return None


def _init_defaults(project, cls: ClassInfo) -> dict[str, cst.BaseExpression]:
    defaults: dict[str, cst.BaseExpression] = {}
    for current in project.mro(cls):
        init = current.methods.get("__init__")
        if init is not None:
            for param in (*init.node.params.params, *init.node.params.kwonly_params):
                if param.default is not None:
                    defaults.setdefault(param.name.value, param.default)
    return defaults


class PassedOtherwise(RunFact):
    """Whether some file of the project passes `name=<value>` by keyword (`Unet(self_condition=True)`): a flag
    built both ways is not decided by its default. A text search of the project's sources (a match on anything else
    only keeps a flag undecided), not counting a `name=<value>` inside a comment or a string other than a dict key
    (a docstring's usage example: `` ``gather_distributed=True`` to also gather... ``)."""

    @classmethod
    def compute(cls, project, owner, name: str, value: bool) -> bool:
        keyword = re.compile(rf"\b{re.escape(name)}\s*=\s*{value}\b")
        key = re.compile(rf"['\"]{re.escape(name)}['\"]\s*:\s*{value}\b")
        for module in list(project.modules.values()):
            text = module.text
            if text is None or key.search(text):
                return True
            found = [match.start() for match in keyword.finditer(text)]
            if found and not _all_in_strings(text, found):
                return True
        return False


def _all_in_strings(text: str, offsets: list[int]) -> bool:
    """Whether every offset of `text` falls inside a string literal or a comment (False when `text` does not
    tokenize: then nothing is known)."""
    import io
    import tokenize

    starts = [0]
    for line in text.splitlines(keepends=True):
        starts.append(starts[-1] + len(line))
    spans = []
    try:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.type in (tokenize.STRING, tokenize.COMMENT, getattr(tokenize, "FSTRING_MIDDLE", -1)):
                (row, col), (end_row, end_col) = token.start, token.end
                spans.append((starts[row - 1] + col, starts[end_row - 1] + end_col))
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return False
    return all(any(start <= offset < end for start, end in spans) for offset in offsets)


class NamedFlag(RunFact):
    """The default of the flag `self.<name>` over every module class of the project that sets it in `__init__` (the
    value a wrapper copies from the network it wraps, whichever it is); None when they differ or one is undecided."""

    @classmethod
    def compute(cls, project, owner, name: str) -> bool | None:
        found: set[bool | None] = set()
        needle = f".{name}"
        for module in list(project.modules.values()):
            if module.text is not None and needle not in module.text:
                continue
            for info in module.classes.values():
                if name in info.own_attributes and project.is_module_class(info):
                    found.add(class_flag(project, info, name, depth=1))
        found.discard(_COPIED)  # the other wrappers that copy it
        return found.pop() if len(found) == 1 else None


def _reads_attribute(node: cst.CSTNode, name: str) -> bool:
    found: list[cst.Attribute] = []

    class Find(cst.CSTVisitor):
        def visit_Attribute(self, attribute: cst.Attribute) -> None:
            if attribute.attr.value == name:
                found.append(attribute)

    walk(node, Find())
    return bool(found)


_COPIED = "copied"  # a flag copied from another object's, seen while deciding that flag over the project


def class_flag(project, cls: ClassInfo, name: str, depth: int = 0) -> bool | str | None:
    """The bool `self.<name>` holds in `cls` built with its `__init__` defaults, or None when that is not decided."""
    info = project.attributes(cls).get(name)
    if info is None or not info.init_values or not info.assigned_in <= {"__init__"} or info.registered:
        return None
    defaults = _init_defaults(project, cls)
    found: set[bool | None] = set()
    for value in info.init_values:
        node = value.node
        if isinstance(node, cst.Name) and node.value in defaults:
            default = _bool(defaults[node.value])
            if default is None or run_fact(project, PassedOtherwise, project, node.value, not default):
                return None
            found.add(default)
        elif isinstance(node, cst.Attribute) and node.attr.value == name and depth == 0:
            found.add(run_fact(project, NamedFlag, project, name))
        elif depth and _reads_attribute(node, name):
            found.add(_COPIED)  # another wrapper, deriving it from the object it wraps
        else:
            found.add(_bool(node))
    return found.pop() if len(found) == 1 else None


def flag_test(project, owners, self_name: str, test: cst.BaseExpression) -> bool | None:
    """The value of `test` in a method of `owners` (its instance `self_name`) when it is decided by configuration
    flags alone (`self.flag`, and `not`/`and`/`or` of such tests and of literals), else None."""
    if (isinstance(test, cst.Attribute) and isinstance(test.value, cst.Name) and test.value.value == self_name
            and test.attr.value != "training"):
        values = {class_flag(project, owner, test.attr.value) for owner in owners}
        return values.pop() if len(values) == 1 else None
    folded = fold_logic(test, lambda part: flag_test(project, owners, self_name, part))
    return None if folded is NOT_LOGIC else folded


class OffByDefault(Fact):
    """The ids of the calls of a traced method that run only when a configuration flag of its module holds that is
    False in the default-configured module (`if self.flag: ...`, `self.flag and f()`, the other side for `not`,
    `or`): Dynamo decides the flag while tracing and never traces them there."""

    @classmethod
    def compute(cls, ctx: RuleContext, node: cst.FunctionDef) -> frozenset[int]:
        function = ctx.function
        if function is None or function.info.node is not node or function.info.bound_first_param != "instance":
            return frozenset()
        self_name = first_param_name(node)
        owners = function.owners
        if self_name is None or not owners:
            return frozenset()
        project = ctx.project

        def value_of(test: cst.BaseExpression) -> bool | None:
            return flag_test(project, owners, self_name, test)

        off: set[int] = set()

        class Guarded(cst.CSTVisitor):
            def __init__(self) -> None:
                self.depth = 0

            def visit_FunctionDef(self, inner: cst.FunctionDef) -> bool:
                return inner is node

            def visit_Lambda(self, inner: cst.Lambda) -> bool:
                return False

            def visit_ClassDef(self, inner: cst.ClassDef) -> bool:
                return False

            def visit_Call(self, call: cst.Call) -> None:
                if self.depth:
                    off.add(id(call))

            def _dead(self, part: cst.CSTNode | None) -> None:
                if part is not None:
                    self.depth += 1
                    part.visit(self)
                    self.depth -= 1

            def _branches(self, test, body, orelse) -> bool:
                test.visit(self)
                value = value_of(test)
                (self._dead if value is False else lambda part: part.visit(self))(body)
                if orelse is not None:
                    (self._dead if value is True else lambda part: part.visit(self))(orelse)
                return False

            def visit_If(self, branch: cst.If) -> bool:
                return self._branches(branch.test, branch.body, branch.orelse)

            def visit_IfExp(self, branch: cst.IfExp) -> bool:
                return self._branches(branch.test, branch.body, branch.orelse)

            def visit_BooleanOperation(self, operation: cst.BooleanOperation) -> bool:
                operation.left.visit(self)
                left = value_of(operation.left)
                short = left is False if isinstance(operation.operator, cst.And) else left is True
                (self._dead if short else lambda part: part.visit(self))(operation.right)
                return False

        walk(node.body, Guarded())
        return frozenset(off)
