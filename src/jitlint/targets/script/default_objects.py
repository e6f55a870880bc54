"""Defaults that are Python objects and no Tensor, as torch sees them on a parameter with no annotation: a dtype
(`torch.bool`), a device (`torch.device("cpu")`), a module (`nn.ReLU()`) or an instance of a project class
(`RandomNormal(0, 0.01)`). torch converts a default to the parameter's type, the inferred Tensor (`toIValue`), and
fails at the `def` ("Expected a default value of type Tensor (inferred)")."""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from jitlint.facts.torch_api import is_torch_module_base
from jitlint.targets.script.typing.annotations import class_type, default_value

if TYPE_CHECKING:
    from jitlint.names import ImportTable
    from jitlint.project import ProjectIndex


def object_default(default: cst.BaseExpression, imports: "ImportTable", project: "ProjectIndex",
                   torch: str) -> tuple[str, str | None] | None:
    """(what the default is, in words; the type to annotate it with, spelled with `torch`, the module's name for
    torch, or None), or None when the default is none of these (or unknown)."""
    if default_value(default, imports, project) == "dtype":
        return "a dtype", f"{torch}.dtype"
    if not isinstance(default, cst.Call):
        return None
    qualified = imports.qualify(default.func)
    if qualified is None:
        return None
    if qualified == "torch.device":
        return "a device", f"{torch}.device"
    if is_torch_module_base(qualified):
        return f"a `{qualified.rpartition('.')[2]}` module", None
    cls = project.resolve_class(qualified)
    # a project class: a module, or a class of its own (one derived from a library class, a Tensor subclass among
    # them, is left alone)
    if cls is not None and (project.is_module_class(cls) or class_type(cls, project) is not None):
        return f"a `{cls.name}` instance", None
    return None
