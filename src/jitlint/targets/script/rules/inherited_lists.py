"""Class attributes torch.jit.script reads from a module class whose library base sets them too: a subclass's own
`__jit_unused_properties__` replaces its base's (torch reads the attribute, `getattr(cls, ...)`, and joins nothing).

The base's list is known for the library module classes of `jitlint.facts.external_bases` (whose property bodies
jitlint never reads): the table records which of the properties a library lists torch 2.13 fails to compile.
"""

from __future__ import annotations

import libcst as cst

from jitlint.facts.mro import linearization
from jitlint.rules.base import RuleContext
from jitlint.targets.script.rules import ScriptRule

_LIST = "__jit_unused_properties__"


def _own_list(cls) -> tuple[cst.CSTNode, frozenset[str] | None] | None:
    """The statement of `cls`'s own body that sets `__jit_unused_properties__` (its last), and the names of its
    value when that is a list or tuple of strings (None: a value jitlint does not read); None: not set there."""
    found = None
    body = cls.node.body.body if isinstance(cls.node.body, cst.IndentedBlock) else ()
    for statement in body:
        if not isinstance(statement, cst.SimpleStatementLine):
            continue
        for small in statement.body:
            targets = ([target.target for target in small.targets] if isinstance(small, cst.Assign)
                       else [small.target] if isinstance(small, cst.AnnAssign) and small.value is not None else [])
            if any(isinstance(target, cst.Name) and target.value == _LIST for target in targets):
                value = small.value
                names = None
                if isinstance(value, (cst.List, cst.Tuple)) and all(
                        isinstance(element.value, cst.SimpleString) for element in value.elements):
                    names = frozenset(element.value.evaluated_value for element in value.elements)
                found = (small, names)
    return found


class UnusedPropertiesReplaced(ScriptRule):
    code = "JIT636"
    name = "unused-properties-replaced"
    severity = "error"
    summary = ("a module class whose own `__jit_unused_properties__` leaves out properties its library base "
               "(LightningModule) lists: torch.jit.script reads the subclass's list alone and compiles those "
               "properties, which it cannot")
    message = "this list replaces the base's `__jit_unused_properties__`; torch compiles the properties it drops"
    scope = "anywhere"
    outside_handlers = frozenset({"ClassDef"})
    whole_class = "any-error"  # torch fails in the library's property, before it compiles the class's code
    reports_only_in = "module-class"
    checked_handlers = frozenset({("visit", "ClassDef")})

    def visit_ClassDef(self, node: cst.ClassDef, ctx: RuleContext) -> None:
        cls = ctx.module_class(node)
        if cls is None:
            return
        if ctx.project.find_method(cls, "__prepare_scriptable__") is not None:
            return
        own = _own_list(cls)
        if own is None or own[1] is None:
            return
        statement, kept = own
        order = linearization(ctx.project, cls, strict=False)
        if order is None:
            return
        defined: set[str] = set()  # names a class before the library's defines: its own property or attribute
        for entry in order[1:]:
            if not isinstance(entry, str):
                if _own_list(entry) is not None:
                    return  # a project base sets the list first: not a library's
                defined.update(entry.methods)
                continue
            external = ctx.project.external_base(entry)
            if external is None or external.unused_properties is None:
                continue
            dropped = sorted(external.unscriptable - kept - defined - set(cls.methods))
            if dropped:
                base = external.name.rpartition(".")[2]
                shown = ", ".join(f"`{name}`" for name in dropped[:4]) + (", ..." if len(dropped) > 4 else "")
                ctx.report(statement, f"`{cls.name}.__jit_unused_properties__` replaces the list `{base}` sets "
                                      f"(torch.jit.script reads the class attribute; it joins no lists), so torch "
                                      f"compiles `{base}`'s properties {shown}, which it cannot compile; extend "
                                      f"the inherited list: `{base}.__jit_unused_properties__ + [...]`")
            return
