"""What a rule is, and what it sees.

A rule is a small class with `visit_<Node>` / `leave_<Node>` methods taking `(node, ctx)`. The engine calls them
only for code its target captures (per the capture map of the rule's policy), so a rule never re-derives that; it
calls `ctx.report(node)` once per problem.

Everything about a rule is declared once, on its class: defining a class with a `code` registers it (see
`jitlint.rules`, which discovers the rule modules of every target), and the codes table, the README's rule table
and fix lists are generated from these declarations (`scripts/generate.py`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, Literal

import libcst as cst

from jitlint import layout
from jitlint.facts import FactStore, read_fact
from jitlint.facts.syntax import enclosing
from jitlint.finding import Severity
from jitlint.names import first_param_name
from jitlint.project import AttributeInfo
from jitlint.settings import TargetSettings

if TYPE_CHECKING:
    from jitlint.capture import CaptureMap, CapturedFunction
    from jitlint.project import ModuleInfo, ProjectIndex

Scope = Literal["compiled", "signature", "anywhere"]
FixAvailability = Literal["safe", "unsafe"] | None

_SEVERITIES = ("error", "warning", "info")
_KEBAB = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
_CODE = re.compile(r"^[A-Z]+[0-9]{3}$")
# Every rule class with a code, in definition order; `jitlint.rules` imports the rule modules and sorts them.
REGISTERED: list[type["Rule"]] = []


class Rule:
    code: ClassVar[str]
    name: ClassVar[str]  # kebab-case
    severity: ClassVar[Severity]
    message: ClassVar[str]
    # One line for the README's rule table: what the rule flags.
    summary: ClassVar[str] = ""
    # The capture target whose code prefix the code carries (`script`), or None for the file codes every
    # target shares (JIT001-003). Target base classes (`ScriptRule`) set it and `policy`.
    target: ClassVar[str | None] = None
    # The capture policy whose map says where the rule fires (None: files the engine reports itself).
    policy: ClassVar[str | None] = None
    # Whether the rule's findings carry a fix, and how safe it is: `ctx.report(fix=...)` takes this applicability.
    fix: ClassVar[FixAvailability] = None
    # Frontend (syntax) rules still fire inside pruned branches (`is_scripting()` dead code): torch converts the
    # whole function before it prunes. Semantic rules stay silent there.
    fires_in_pruned: ClassVar[bool] = False
    # What the message says when it fires in a pruned branch (the target's words for why that still fails).
    pruned_note: ClassVar[str] = ""
    # "compiled": bodies and signatures of captured functions. "signature": also the signatures of functions
    # whose body the policy does not capture (`@torch.jit.ignore`) that captured code calls. "anywhere": every
    # node of the file.
    scope: ClassVar[Scope] = "compiled"
    # Rules that explain why other findings exist (a guard that does not prune) rather than find code torch rejects.
    explains_other_findings: ClassVar[bool] = False
    # The rule predicts that torch refuses a whole class before naming any line of it (JIT630-639): the dynamic
    # checker confirms its finding by an error torch gave no line for while scripting the class that holds it,
    # with the page's error text ("same-error"), or with any text when the error is the user's own ("any-error":
    # what a `__prepare_scriptable__` raises).
    whole_class: ClassVar[Literal["same-error", "any-error"] | None] = None
    # Reported by the engine or the dynamic checker, not by visiting code (unreadable files, compiler errors).
    engine_reported: ClassVar[bool] = False
    # False: off unless a selector names it (`--select JIT900`, `--extend-select JIT9`, `select = ["ALL"]`); the
    # default selection leaves it out, as ruff's default leaves RUF100 out. `Config.enabled_codes` honours it.
    default_enabled: ClassVar[bool] = True
    # Words one of which the file's text must contain for the rule to fire at all (a cheap pre-filter, so that an
    # "anywhere" rule does not make the engine walk every line of every file). Empty: no pre-filter.
    text_hints: ClassVar[tuple[str, ...]] = ()
    # For an "anywhere" rule: the node types it must see outside compiled functions (None: all it handles).
    outside_handlers: ClassVar[frozenset[str] | None] = None
    # For an "anywhere" rule without `text_hints`: the only places it reports outside compiled code, which lets the
    # engine leave unparsed a file that holds none (`jitlint.prefilter`). "module-class": inside a top-level class
    # of the file that is an nn.Module subclass (each handler returns at once otherwise); "wrapper-factory": on a
    # module-level function that returns a nested function taking a variable signature.
    reports_only_in: ClassVar[Literal["module-class", "wrapper-factory"] | None] = None
    # With `reports_only_in`: the handlers ("visit"/"leave", node type) the rule had when that was checked. A rule
    # whose handlers differ is not trusted (the prefilter is off) until it is checked again.
    checked_handlers: ClassVar[frozenset[tuple[str, str]]] = frozenset()
    # The class's own `begin_file`/`end_file` only reset per-file state and report what its visits collected in
    # compiled code (a class that defines them without saying so turns the prefilter off).
    file_hooks_report_visits: ClassVar[bool] = False
    # The facts the rule reads with `ctx.fact(...)` (`jitlint.facts`), added to those its base classes declare:
    # reading any other raises UndeclaredFact.
    facts: ClassVar[tuple[type, ...]] = ()
    declared_facts: ClassVar[frozenset[type]] = frozenset()  # `facts` over the class and its bases

    def __init_subclass__(cls, **kwargs) -> None:
        super().__init_subclass__(**kwargs)
        cls.declared_facts = frozenset(fact for klass in cls.__mro__ for fact in klass.__dict__.get("facts", ()))
        if "code" in cls.__dict__:
            _check_declaration(cls)
            REGISTERED.append(cls)

    _handlers: list | None = None

    def handlers(self) -> list:
        """("visit" or "leave", node type name, bound method) for each hook, found once per instance: a run lints
        every file with the same instances (`dir()` per rule per file was a measurable share of a run)."""
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


def _check_declaration(rule: type[Rule]) -> None:
    """A rule's declaration is complete and consistent, or the import that defines it fails (tests import all)."""
    where = f"{rule.__module__}.{rule.__qualname__}"
    for attribute in ("name", "severity", "message"):
        if attribute not in rule.__dict__:
            raise TypeError(f"{where} declares `code` but not `{attribute}`")
    if not _CODE.match(rule.code):
        raise TypeError(f"{where}: code {rule.code!r} is not a prefix and three digits")
    if not _KEBAB.match(rule.name):
        raise TypeError(f"{where}: name {rule.name!r} is not kebab-case")
    if rule.severity not in _SEVERITIES:
        raise TypeError(f"{where}: severity {rule.severity!r} is not one of {_SEVERITIES}")
    if rule.fix not in ("safe", "unsafe", None):
        raise TypeError(f"{where}: fix {rule.fix!r} is not 'safe', 'unsafe' or None")
    if not rule.engine_reported and rule.policy is None:
        raise TypeError(f"{where}: a rule that visits code needs a capture policy")


class ResultRule(Rule):
    """A rule that reports results an analysis gives per function, one finding each: `results` yields those the rule
    owns, `render` words one (its message and a fix builder, or None to skip it) and `fix_in_context` runs the
    builder where the result is. Messages and fixes stay in the subclass's own module; this only reports them."""

    def visit_FunctionDef(self, node: cst.FunctionDef, ctx: "RuleContext") -> None:
        for result in self.results(node, ctx):
            rendered = self.render(result, ctx, node)
            if rendered is None:
                continue
            message, build = rendered
            fix = None
            if build is not None and self.fix is not None:
                fix = self.fix_in_context(ctx, node, result, build)
            ctx.report(result.node, message, fix=fix)

    def results(self, node: cst.FunctionDef, ctx: "RuleContext"):
        raise NotImplementedError

    def render(self, result, ctx: "RuleContext", function: cst.FunctionDef):
        raise NotImplementedError

    def fix_in_context(self, ctx: "RuleContext", function: cst.FunctionDef, result, build):
        return build()


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
    message: str
    edits: list[PendingEdit]
    # "safe" (applied by --fix) or "unsafe" (also needs --unsafe-fixes): the reporting rule's `fix`, set by report.
    applicability: str = ""


@dataclass
class RawFinding:
    rule: type[Rule]
    node: cst.CSTNode
    message: str
    fix: PendingFix | None = None
    statement: cst.CSTNode | None = None  # the smallest enclosing statement
    function: "CapturedFunction | None" = None
    top: cst.CSTNode | None = None  # the top-level statement being walked when it was reported (where it likely is)

    def __post_init__(self) -> None:
        if layout.is_shared(self.node):  # it has no position of its own: report the node that holds it instead
            raise ValueError(f"a finding points at a shared layout node ({type(self.node).__name__})")


class RuleContext:
    def __init__(self, module: "ModuleInfo", project: "ProjectIndex", captured: "CaptureMap", *,
                 policy: str | None = None, facts: FactStore | None = None, settings: TargetSettings | None = None,
                 ) -> None:
        self.module = module
        self.project = project
        self.captured = captured  # the capture map of the policy of the rules being run
        self.policy = policy if policy is not None else getattr(captured.policy, "name", None)  # that policy's name
        # The file's facts (`fact`): shared with the contexts of the file's other policies, dropped after the file.
        self.facts = facts if facts is not None else FactStore()
        self.readers: list[type] = []  # the facts being computed, innermost last (each reads as itself)
        # The typed settings of the rules' target (`[tool.jitlint.<target>]`, `jitlint.settings`).
        self.settings = settings if settings is not None else captured.policy.settings
        self.function: CapturedFunction | None = None
        self.in_pruned_branch = False
        self.in_signature = False
        self.findings: list[RawFinding] = []
        self._rule: type[Rule] | None = None
        self.ancestors: list[cst.CSTNode] = []
        # The run's enabled targets (advice that must not steer a user of two targets into the other's error): set
        # by the engine.
        self.targets: frozenset[str] = frozenset()

    # The engine sets the reporting rule before each call.
    def _set_rule(self, rule: type[Rule]) -> None:
        self._rule = rule

    def fact(self, fact: type, node: cst.CSTNode | None = None, *key: object):
        """The value of `fact` for `node` (a function, for a per-function fact; nothing, for a per-file one; the
        owner object and key, for a run fact), computed once and kept (see `jitlint.facts`). The rule reading it
        (or the fact being computed) must declare it."""
        return read_fact(self, self.readers[-1] if self.readers else self._rule, fact, node, key)

    def report(self, node: cst.CSTNode, message: str | None = None, *, fix: PendingFix | None = None) -> None:
        assert self._rule is not None
        rule = self._rule
        text = message or rule.message
        if rule.fires_in_pruned and self.in_pruned_branch and rule.pruned_note:
            text += f" ({rule.pruned_note})"
        if fix is not None:
            if rule.fix is None:
                raise TypeError(f"{rule.code} reports a fix but declares `fix = None`")
            fix.applicability = rule.fix
        statement = self.enclosing(cst.SimpleStatementLine, cst.BaseCompoundStatement)
        top = self.ancestors[1] if len(self.ancestors) > 1 else None
        self.findings.append(RawFinding(self._rule, node, text, fix, statement, self.function, top))

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

    def enclosing(self, *types: type) -> cst.CSTNode | None:
        """The innermost node of `types` around the node being visited (itself included)."""
        return enclosing(self.ancestors, *types)

    @property
    def parent(self) -> cst.CSTNode | None:
        """The parent of the node being visited."""
        return self.ancestors[-2] if len(self.ancestors) >= 2 else None

    def self_attribute(self, node: cst.BaseExpression) -> tuple[str, AttributeInfo] | None:
        """For `self.<name>` inside a method of a class: what the attribute holds (see `attribute_named`)."""
        function = self.function
        if function is None or function.info.bound_first_param != "instance":
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
            merged.final = merged.final or info.final
            merged.constructors |= info.constructors
            merged.filled_in_init = merged.filled_in_init or info.filled_in_init
        return merged if found else None
