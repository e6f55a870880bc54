"""A project function's `@torch.jit._overload` group (`overloads.overload_group`), found without parsing the whole
file when its text declares none: in a run split across workers, the file may be one another worker parses."""

from __future__ import annotations

from pathlib import Path

from jitlint.targets.script.overloads import OverloadGroup, overload_group


def overload_group_of(function) -> OverloadGroup | None:
    """The overload group a project function (`FunctionInfo`) declares or implements, if any. A declaration's
    decorator ends in `_overload` or `_overload_method`: a file whose text spells neither has no group."""
    text = function.module.text
    if text is None:  # (a module read only to resolve names)
        try:
            text = Path(function.module.path).read_text(encoding="utf-8", errors="replace")
        except OSError:
            text = "_overload"
    if "_overload" not in text:
        return None
    return overload_group(function.node, function.module.tree)


def implements_overloads(function) -> bool:
    """Whether a project function implements `@torch.jit._overload` declarations (`overloads.is_overload_implementation`)."""
    group = overload_group_of(function)
    return group is not None and group.implementation is function.node
