"""Module attributes that only some configurations of a module have: `__init__` sets them under an `if` only."""

from __future__ import annotations

import libcst as cst

from jitlint.facts import RunFact, run_fact
from jitlint.facts.syntax import ASSIGNMENTS, OneScope, bound_names
from jitlint.facts.torch_api import NN_MODULE_NAMES
from jitlint.names import first_param_name
from jitlint.project import ClassInfo
from jitlint.rules.base import PendingFix, RuleContext
from jitlint.targets.script.members import guarded_by_hasattr, module_owners, plain_class_body, self_attribute_name
from jitlint.targets.script.policy import constant_names
from jitlint.targets.script.rewrite import final_flag
from jitlint.targets.script.rules import ScriptRule
from jitlint.walk import walk


class _ReceiverAttributes(cst.CSTVisitor):
    """Adds to `names` the `<name>` of every `<receiver>.<name>` (a class at module level: a class defined per
    call costs its creation and the walk's hook table each time)."""

    def __init__(self, receiver: str, names: set[str]) -> None:
        self.receiver = receiver
        self.names = names

    def visit_Attribute(self, node: cst.Attribute) -> None:
        if isinstance(node.value, cst.Name) and node.value.value == self.receiver:
            self.names.add(node.attr.value)


class _Stores(OneScope):
    """The attribute names `self.<name>` a statement stores (assignment, loop, `with` and walrus targets, tuple
    unpacking), not looking into nested functions or classes."""

    def __init__(self, receiver: str) -> None:
        self.receiver = receiver
        self.names: set[str] = set()

    def _collect(self, target: cst.CSTNode) -> None:
        walk(target, _ReceiverAttributes(self.receiver, self.names))

    def visit_AssignTarget(self, node: cst.AssignTarget) -> None:
        self._collect(node.target)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        self._collect(node.target)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        if node.value is not None:
            self._collect(node.target)

    def visit_For(self, node: cst.For) -> None:
        self._collect(node.target)

    def visit_AsName(self, node: cst.AsName) -> None:
        self._collect(node.name)

    def visit_NamedExpr(self, node: cst.NamedExpr) -> None:
        self._collect(node.target)


def _stores(node: cst.CSTNode, receiver: str) -> set[str]:
    finder = _Stores(receiver)
    walk(node, finder)
    return finder.names


class MethodStores(RunFact):
    """`_stores` of a method's body on its first parameter, once per method (JIT232 asks it for every method of
    every class in the MRO of each conditional attribute read)."""

    @classmethod
    def compute(cls, project, node: cst.FunctionDef) -> set[str]:
        return _stores(node.body, first_param_name(node) or "self")


def _method_stores(method, project) -> set[str]:
    return run_fact(project, MethodStores, method.node)


def _suite(block: cst.BaseSuite | None) -> list[cst.BaseStatement]:
    if block is None:
        return []
    return list(block.body) if isinstance(block, cst.IndentedBlock) else [cst.SimpleStatementLine(block.body)]


class _InitSets:
    """For one `__init__`: the attributes it sets on every path (`definite`) and, for the others, the `if`
    statements (outermost) that set them on some path only (`sites`)."""

    def __init__(self, function: cst.FunctionDef) -> None:
        self.receiver = first_param_name(function) or "self"
        self.sites: dict[str, list[cst.If]] = {}
        self.definite = self._block(_suite(function.body), None)

    def _block(self, statements: list[cst.BaseStatement], site: cst.If | None) -> set[str]:
        """What the statements set on every path through them; records the names set on some paths only."""
        definite: set[str] = set()
        for statement in statements:
            if isinstance(statement, cst.SimpleStatementLine):
                if any(isinstance(small, (cst.Return, cst.Raise)) or _always_fails(small) for small in statement.body):
                    return {"*"}  # the path ends here: it sets everything that matters (silent)
                definite |= _stores(statement, self.receiver)
            elif isinstance(statement, cst.If):
                outer = site or statement
                body = self._block(_suite(statement.body), outer)
                orelse = statement.orelse
                if orelse is None:
                    other: set[str] = set()
                elif isinstance(orelse, cst.If):
                    other = self._block([orelse], outer)
                else:
                    other = self._block(_suite(orelse.body), outer)
                if "*" in body and "*" in other:
                    return {"*"}  # both paths end
                if "*" in body or "*" in other:
                    definite |= (other if "*" in body else body) - {"*"}  # only the other path goes on
                    continue
                for name in (body | other) - (body & other):
                    sites = self.sites.setdefault(name, [])
                    if outer not in sites:
                        sites.append(outer)
                definite |= body & other
            elif isinstance(statement, (cst.FunctionDef, cst.ClassDef)):
                continue
            else:
                # Loops, `with`, `try`, `match`: whatever they may set counts as set (silent).
                definite |= _stores(statement, self.receiver)
        return definite


class InitSets(RunFact):
    """What a class's own `__init__` sets (`_InitSets`), None without one."""

    @classmethod
    def compute(cls, project, owner: ClassInfo) -> _InitSets | None:
        init = owner.methods.get("__init__")
        return _InitSets(init.node) if init is not None else None


class ClassStrings(RunFact):
    """Every string literal of a class's code."""

    @classmethod
    def compute(cls, project, owner: ClassInfo) -> frozenset[str]:
        strings: set[str] = set()

        class Strings(cst.CSTVisitor):
            def visit_SimpleString(self, node: cst.SimpleString) -> None:
                value = node.evaluated_value
                if isinstance(value, str):
                    strings.add(value)

        walk(owner.node, Strings())
        return frozenset(strings)


def _init_sets(cls: ClassInfo, project) -> _InitSets | None:
    return run_fact(project, InitSets, cls)


def _literal_strings(cls: ClassInfo, project) -> frozenset[str]:
    return run_fact(project, ClassStrings, cls)


class AttributeSetConditionally(ScriptRule):
    code = "JIT232"
    name = "attribute-set-conditionally"
    severity = "warning"
    summary = ("`self.bn` read in compiled code when `__init__` sets it only under an `if` (`if normalize: self.bn = "
               "...`): a module built without it does not script")
    message = "a module attribute that `__init__` sets on some paths only, read by compiled code"
    fix = "safe"

    def visit_Attribute(self, node: cst.Attribute, ctx: RuleContext) -> None:
        name = self_attribute_name(node, ctx)
        if name is None or name.startswith("__") or name in NN_MODULE_NAMES:
            return
        parent = ctx.parent
        if isinstance(parent, (cst.AssignTarget, cst.AugAssign, cst.AnnAssign, cst.Del)):
            return
        if not any(isinstance(ancestor, (cst.If, cst.While, cst.IfExp, cst.BooleanOperation))
                   for ancestor in ctx.ancestors):
            return  # read on every path: a module built without it fails in Python too, not only when scripted
        owners = module_owners(ctx)
        if not owners:
            return
        sites: list[cst.If] = []
        for owner in owners:
            found = self._conditional_sites(owner, name, ctx)
            if not found:
                return
            sites.extend(site for site in found if site not in sites)
        if _under_constant_flag(owners, ctx):
            return  # `if self.flag:` with `flag` Final or in `__constants__`: torch drops the branch per instance
        if guarded_by_hasattr(name, ctx) or _under_attribute_none_test(ctx, node) or _asks_hasattr(
                _stores(sites[0], "self") | {name}, ctx):
            return  # torch folds `hasattr(self, "name")` and `self.other is None` and drops the branch
        test = sites[0].test
        condition = cst.Module([]).code_for_node(test)
        when = f" (`if {condition}:`)" if condition and len(condition) <= 60 and "\n" not in condition else ""
        ctx.report(
            node,
            f"`__init__` sets `self.{name}` only under an `if`{when}: a module built without taking that branch has "
            f"no attribute `{name}`, and torch.jit.script rejects such a module here (\"Module '...' has no "
            f"attribute '{name}'\"); set it on every path (`self.{name} = nn.Identity()` or `None`, tested with "
            f"`is not None`)",
            fix=_final_flag_fix(node, sites[0], ctx),
        )

    @staticmethod
    def _conditional_sites(owner: ClassInfo, name: str, ctx: RuleContext) -> list[cst.If]:
        """The `if` statements of `__init__` that set the attribute on some paths only, when nothing else in the
        class or its bases may set it; empty when it is set on every path or jitlint cannot tell."""
        project = ctx.project
        mro = project.mro(owner)
        if any(cls.dynamic_attributes or not plain_class_body(cls) or "__getattr__" in cls.methods
               or cls.node.decorators for cls in mro):
            return []
        if project.torch_bases(owner) - {"torch.nn.Module"}:
            return []
        resolved = {id(cls) for cls in mro}
        for cls in mro:
            for base in cls.base_names:
                if base is None:
                    return []
                if base.startswith("torch.") or base == "builtins.object":
                    continue
                found = project.resolve_class(base)
                if found is None or id(found) not in resolved:
                    return []
        info = project.attributes(owner).get(name)
        if info is not None and (info.class_value is not None or info.annotation is not None or info.registered):
            return []
        sites: list[cst.If] = []
        for cls in mro:
            if name in cls.methods or name in _literal_strings(cls, project):
                return []  # a method, or a name spelled as a string (`setattr`, `register_buffer`, ...)
            for method_name, method in cls.methods.items():
                if method_name == "__init__":
                    continue
                if name in _method_stores(method, project):
                    return []  # another method sets it (it may be called from `__init__`)
            sets = _init_sets(cls, project)
            if sets is None:
                continue
            if name in sets.definite:
                return []
            sites.extend((cls, site) for site in sets.sites.get(name, ()))
        if len(sites) != 1:
            return []  # never set (JIT628's), or set by several `if`s that may together cover every path
        cls, site = sites[0]
        if _mentions_hasattr(site.test):
            return []
        return [site]


def _mentions_hasattr(test: cst.BaseExpression) -> bool:
    found = False

    class Find(cst.CSTVisitor):
        def visit_Name(self, node: cst.Name) -> None:
            nonlocal found
            if node.value in ("hasattr", "getattr"):
                found = True

    walk(test, Find())
    return found



def _always_fails(small: cst.BaseSmallStatement) -> bool:
    """`assert False, ...` (or `assert 0`): the path ends there."""
    if not isinstance(small, cst.Assert):
        return False
    test = small.test
    return (isinstance(test, cst.Name) and test.value == "False") or (isinstance(test, cst.Integer) and test.value == "0")


def _under_attribute_none_test(ctx: RuleContext, node: cst.CSTNode) -> bool:
    """Inside an `if`/`while`/if-expression/boolean operation whose test compares an attribute with None
    (`if self.qkv is None:`): torch folds it from the module's state, so the branch may be dropped. The test itself
    is read all the same (`if self.proj is not None:` fails when the module has no `proj`)."""
    found = False

    class Find(cst.CSTVisitor):
        def visit_Comparison(self, node: cst.Comparison) -> None:
            nonlocal found
            parts = [node.left, *(c.comparator for c in node.comparisons)]
            if (any(isinstance(c.operator, (cst.Is, cst.IsNot)) for c in node.comparisons)
                    and any(isinstance(p, cst.Name) and p.value == "None" for p in parts)
                    and any(isinstance(p, cst.Attribute) for p in parts)):
                found = True

    for ancestor in ctx.ancestors:
        test = getattr(ancestor, "test", None) if isinstance(ancestor, (cst.If, cst.While, cst.IfExp)) else None
        if isinstance(ancestor, cst.BooleanOperation):
            test = ancestor.left
        if test is not None and not _holds(test, node):
            walk(test, Find())
            if found:
                return True
    return False


def _holds(tree: cst.CSTNode, node: cst.CSTNode) -> bool:
    """Whether `node` is `tree` or inside it."""
    inside = False

    class Find(cst.CSTVisitor):
        def on_visit(self, current: cst.CSTNode) -> bool:
            nonlocal inside
            inside = inside or current is node
            return not inside

    walk(tree, Find())
    return inside


def _asks_hasattr(names: set[str], ctx: RuleContext) -> bool:
    """The compiled function asks `hasattr(..., "name")` somewhere for the attribute or one set under the same `if`
    (`if not hasattr(self, "cross"): raise ...` before reading `self.ln_cross`): torch folds it, and compiles
    nothing after a raise it takes statically."""
    function = ctx.function.info.node if ctx.function is not None else None
    if function is None:
        return False
    found = False

    class Find(cst.CSTVisitor):
        def visit_Call(self, node: cst.Call) -> None:
            nonlocal found
            if (isinstance(node.func, cst.Name) and node.func.value == "hasattr" and len(node.args) == 2
                    and isinstance(node.args[1].value, cst.SimpleString)
                    and node.args[1].value.evaluated_value in names):
                found = True

    walk(function, Find())
    return found


def _self_flag(test: cst.BaseExpression, receiver: str) -> str | None:
    """`flag` when `test` is `self.flag`."""
    if (isinstance(test, cst.Attribute) and isinstance(test.value, cst.Name) and test.value.value == receiver
            and not test.lpar):
        return test.attr.value
    return None


def _final_flag_fix(node: cst.Attribute, site: cst.If, ctx: RuleContext):
    """The fix: declare the flag `torch.jit.Final[bool]` (final_flag), so that torch drops the branch that
    reads the attribute when the flag is false. Offered only when that is exact: the read sits in the body of an
    `if self.flag:`, `__init__` sets the attribute under `if self.flag:` or under `if p:` after `self.flag = p`
    (a parameter it never rebinds), the class is this file's own, and no method but `__init__` sets the flag."""
    receiver = node.value.value if isinstance(node.value, cst.Name) else "self"
    flag = None
    for index, ancestor in enumerate(ctx.ancestors[:-1]):
        if isinstance(ancestor, cst.If) and ctx.ancestors[index + 1] is ancestor.body:
            flag = _self_flag(ancestor.test, receiver) or flag
    if flag is None:
        return None
    cls = ctx.enclosing(cst.ClassDef)
    if cls is None or not isinstance(cls.body, cst.IndentedBlock):
        return None
    methods = [s for s in cls.body.body if isinstance(s, cst.FunctionDef)]
    init = next((m for m in methods if m.name.value == "__init__"), None)
    if init is None or not isinstance(init.body, cst.IndentedBlock) or not any(s is site for s in init.body.body):
        return None  # the `if` that sets the attribute is in a base class's `__init__`, or nested
    init_self = first_param_name(init) or "self"
    if _self_flag(site.test, init_self) != flag:
        parameter = site.test.value if isinstance(site.test, cst.Name) else None
        if parameter is None or parameter not in {p.name.value for p in (*init.params.params, *init.params.kwonly_params)}:
            return None
        if parameter in bound_names(init.body, ASSIGNMENTS):
            return None  # the parameter is rebound: its value at the `if` may not be the flag's
        copies = [s for s in init.body.body[:next(i for i, s in enumerate(init.body.body) if s is site)] if isinstance(s, cst.SimpleStatementLine)
                  and any(isinstance(small, cst.Assign) and len(small.targets) == 1
                          and _self_flag(small.targets[0].target, init_self) == flag
                          and isinstance(small.value, cst.Name) and small.value.value == parameter
                          for small in s.body)]
        if not copies:
            return None
    for method in methods:
        if method is not init and flag in _stores(method.body, first_param_name(method) or "self"):
            return None  # the flag changes after `__init__`: not a constant
    declared = final_flag(flag, cls, ctx)
    if declared is None:
        return None
    final, edits = declared
    return PendingFix(f"declare `{flag}` a constant (`{final}[bool]`)", edits)



def _under_constant_flag(owners: list[ClassInfo], ctx: RuleContext) -> bool:
    """Whether an enclosing test reads `self.flag` where `flag` is a constant of the module (`Final`, or in
    `__constants__`, in the class or a base): torch folds such a test for each instance it scripts."""
    constants: set[str] = set()
    for owner in owners:
        constants |= constant_names(ctx.project, owner)
    if not constants:
        return False
    found = False

    class Flags(cst.CSTVisitor):
        def visit_Attribute(self, node: cst.Attribute) -> None:
            nonlocal found
            if isinstance(node.value, cst.Name) and node.value.value == "self" and node.attr.value in constants:
                found = True

    for ancestor in ctx.ancestors:
        if isinstance(ancestor, (cst.If, cst.While, cst.IfExp)):
            walk(ancestor.test, Flags())
            if found:
                return True
    return False
