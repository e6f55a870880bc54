"""The values compiled code can hold in a name: a TorchScript type, or a sugared value (what the frontend keeps for
a name that is no first-class value), or None when unknown."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from jitlint.targets.script.typing.types import Type


@dataclass(frozen=True)
class Sugared:
    """A value compiled code can name but that is no first-class value (`SugaredValue`): a Python module
    ("python-module", `name` its qualified name), a callable ("builtin": a Python callable by qualified name;
    "function": a project function, `info` its FunctionInfo), a class ("class": a project class `info`, or a
    Python class by `name`), a module ("module": `info` a `modules.Submodule`), a bound method ("method": `name`
    on `receiver`), an iterable of the frontend ("range", "zip", "enumerate": `receiver` the element type), an
    exception ("exception"), or a Python value torch cannot use ("python-value")."""

    kind: str
    name: str = ""
    info: Any = field(default=None, compare=False)
    receiver: Any = field(default=None, compare=False)


Value = Type | Sugared | None
