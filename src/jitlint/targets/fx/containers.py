"""The class of each module a container's constructor expression holds (`nn.ModuleList([A(), B()])`), for the
tracing model's container values (`jitlint.targets.fx.tracing`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from jitlint.facts.torch_api import CONTAINER_KINDS, is_torch_module_base
from jitlint.targets.fx.external import external_callable

if TYPE_CHECKING:
    from jitlint.project import ClassInfo, ProjectIndex


def element_class(project: "ProjectIndex", item: cst.BaseExpression | None,
                  imports) -> "ClassInfo | str | frozenset | None":
    """The class of the module a container's element expression builds (a project ClassInfo or a torch.nn
    qualified name); for `A(...) if c else B(...)`, both (a frozenset); None when not known."""
    if isinstance(item, cst.IfExp):
        both = (element_class(project, item.body, imports), element_class(project, item.orelse, imports))
        if any(found is None for found in both):
            return None
        return frozenset(c for found in both for c in (found if isinstance(found, frozenset) else (found,)))
    if not isinstance(item, cst.Call):
        return None
    qualified = imports.qualify(item.func) or ""
    if qualified.startswith("torch.nn.") and is_torch_module_base(qualified):
        return None if qualified in CONTAINER_KINDS else qualified
    external = external_callable(qualified)
    if external is not None and external.kind == "module":
        return None if external.built_to_trace(item) else qualified
    target = project.resolve_class(qualified)
    return target if target is not None and project.is_module_class(target) else None
