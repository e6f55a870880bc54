"""What a rule is, and what it sees.

A rule is a small class with `visit_<Node>` / `leave_<Node>` methods taking `(node, ctx)`. The engine calls them
only for code that torch.jit.script compiles (per the CompiledCodeMap), so a rule never re-derives that; it calls
`ctx.report(node)` once per problem.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, Literal

import libcst as cst

from jitlint import layout
from jitlint.finding import Severity
from jitlint.names import first_param_name
from jitlint.project import AttributeInfo

if TYPE_CHECKING:
    from jitlint.compiled import CompiledCodeMap, CompiledFunction
    from jitlint.project import ModuleInfo, ProjectIndex

Scope = Literal["compiled", "signature", "anywhere"]


class Rule:
    code: ClassVar[str]
    name: ClassVar[str]
    severity: ClassVar[Severity]
    message: ClassVar[str]
    # Frontend (syntax) rules still fire inside `is_scripting()` dead branches: torch converts the whole
    # function before it prunes. Semantic rules stay silent there.
    syntax: ClassVar[bool] = False
    # "compiled": bodies and signatures of compiled functions. "signature": also the signatures of
    # @torch.jit.ignore/unused functions that compiled code calls. "anywhere": every node of the file.
    scope: ClassVar[Scope] = "compiled"
    # Rules that explain why other findings exist (a guard that does not prune) rather than find code torch rejects.
    explains_other_findings: ClassVar[bool] = False
    # Words one of which the file's text must contain for the rule to fire at all (a cheap pre-filter, so that an
    # "anywhere" rule does not make the engine walk every line of every file). Empty: no pre-filter.
    text_hints: ClassVar[tuple[str, ...]] = ()
    # For an "anywhere" rule: the node types it must see outside compiled functions (None: all it handles).
    outside_handlers: ClassVar[frozenset[str] | None] = None

    _handlers: list | None = None

    def handlers(self) -> list:
        """("visit" or "leave", node type name, bound method) for each hook, found once per instance: a run lints
        every file with the same instances (`dir()` per rule per file cost 0.45 s on timm)."""
        if self._handlers is None:
            self._handlers = [
                (attribute[:5], attribute[6:], getattr(self, attribute))
                for attribute in dir(self)
                if attribute.startswith(("visit_", "leave_"))
            ]
        return self._handlers

    def begin_file(self, ctx: "RuleContext") -> None:
        """Reset per-file state."""

    def end_file(self, ctx: "RuleContext") -> None:
        """Report what needs the whole file seen."""


@dataclass
class PendingEdit:
    """Replace the source of `node` (its position range) with `content`; positions are known only later."""

    node: cst.CSTNode
    content: str
    insert_after: bool = False  # insert `content` at the end of `node` instead of replacing it
    insert_before: bool = False  # insert `content` at the start of `node`
    until: cst.CSTNode | None = None  # replace from the start of `node` to the start of `until` instead

    def __post_init__(self) -> None:
        for node in (self.node, self.until):
            if layout.is_shared(node):  # it has no position of its own: edit the node that holds it instead
                raise ValueError(f"a fix edits a shared layout node ({type(node).__name__})")


@dataclass
class PendingFix:
    applicability: str  # "safe" (applied by --fix) or "unsafe" (also needs --unsafe-fixes)
    message: str
    edits: list[PendingEdit]


@dataclass
class RawFinding:
    rule: type[Rule]
    node: cst.CSTNode
    message: str
    fix: PendingFix | None = None
    statement: cst.CSTNode | None = None  # the smallest enclosing statement
    function: "CompiledFunction | None" = None

    def __post_init__(self) -> None:
        if layout.is_shared(self.node):  # it has no position of its own: report the node that holds it instead
            raise ValueError(f"a finding points at a shared layout node ({type(self.node).__name__})")


class RuleContext:
    def __init__(self, module: "ModuleInfo", project: "ProjectIndex", compiled: "CompiledCodeMap") -> None:
        self.module = module
        self.project = project
        self.compiled = compiled
        self.function: CompiledFunction | None = None
        self.in_dead_branch = False
        self.in_signature = False
        self.findings: list[RawFinding] = []
        self._rule: type[Rule] | None = None
        self.ancestors: list[cst.CSTNode] = []
        self.flow_events: dict[int, list] = {}  # rules.flow: each compiled function's analysis, shared by its rules

    # The engine sets the reporting rule before each call.
    def _set_rule(self, rule: type[Rule]) -> None:
        self._rule = rule

    def report(self, node: cst.CSTNode, message: str | None = None, *, fix: PendingFix | None = None) -> None:
        assert self._rule is not None
        text = message or self._rule.message
        if self._rule.syntax and self.in_dead_branch:
            text += " (torch parses the whole function, including this `is_scripting()` branch)"
        statement = next(
            (a for a in reversed(self.ancestors) if isinstance(a, (cst.SimpleStatementLine, cst.BaseCompoundStatement))),
            None,
        )
        self.findings.append(RawFinding(self._rule, node, text, fix, statement, self.function))

    def code(self, node: cst.CSTNode) -> str:
        """Source text for a (new or existing) node, as LibCST prints it."""
        return self.module.tree.code_for_node(node)

    def statement_code(self, old: cst.CSTNode, new: cst.CSTNode, indent: str) -> str:
        """Source for `new` replacing statement `old` in place: without the leading blank lines and final newline
        (outside `old`'s position range), and with `indent` before every line after the first."""
        if hasattr(new, "leading_lines"):
            new = new.with_changes(leading_lines=())
        lines = self.code(new).rstrip("\n").split("\n")
        return "\n".join([lines[0], *[(indent + line) if line.strip() else line for line in lines[1:]]])

    def indent_of(self, statement: cst.CSTNode) -> str:
        """The indentation of a statement, from the enclosing blocks (as LibCST tracks it)."""
        depth = ""
        for ancestor in self.ancestors:
            if ancestor is statement:
                break
            if isinstance(ancestor, cst.IndentedBlock):
                depth += ancestor.indent if ancestor.indent is not None else self.module.tree.default_indent
        return depth

    def qualify(self, node: cst.BaseExpression) -> str | None:
        return self.module.imports.qualify(node)

    @property
    def torch_name(self) -> str | None:
        """What this file calls the `torch` module (`torch`, or an alias), if it imports it: fixes spell it so."""
        return next((local for local, target in self.module.imports.aliases.items() if target == "torch"), None)

    def module_class(self, node: cst.ClassDef):
        """The ClassInfo of a top-level class of this file when it is an nn.Module, else None."""
        cls = self.module.classes.get(node.name.value)
        if cls is None or cls.node is not node or not self.project.is_module_class(cls):
            return None
        return cls

    @property
    def parent(self) -> cst.CSTNode | None:
        """The parent of the node being visited."""
        return self.ancestors[-2] if len(self.ancestors) >= 2 else None

    def self_attribute(self, node: cst.BaseExpression) -> tuple[str, AttributeInfo] | None:
        """For `self.<name>` inside a method of a class: what the attribute holds (see `attribute_named`)."""
        function = self.function
        if function is None or function.info.is_static:
            return None
        if not (isinstance(node, cst.Attribute) and isinstance(node.value, cst.Name)):
            return None
        if node.value.value != first_param_name(function.info.node):
            return None
        info = self.attribute_named(node.attr.value)
        return (node.attr.value, info) if info is not None else None

    def attribute_named(self, name: str) -> AttributeInfo | None:
        """What attribute `name` holds, merged over the classes whose compilation includes the current method
        (a base-class method is compiled once per subclass)."""
        if self.function is None or not self.function.owners:
            return None
        merged = AttributeInfo()
        found = False
        for owner in self.function.owners:
            info = self.project.attributes(owner).get(name)
            if info is None:
                continue
            found = True
            merged.kinds |= info.kinds
            merged.init_kinds |= info.init_kinds
            merged.constant = merged.constant or info.constant
            merged.constructors |= info.constructors
            merged.filled_in_init = merged.filled_in_init or info.filled_in_init
        return merged if found else None
