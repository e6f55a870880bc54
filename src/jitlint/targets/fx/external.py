"""What callables of installed libraries do when symbolic_trace gives them a Proxy: the table in `external.toml`,
and torch's own functions that check their arguments in Python before any dispatch: `torch_checks.toml`.

The tracing model never reads a library the project does not contain; for one it calls, this table says what its
own code does with a Proxy (raise which exception, or trace), verified on torch 2.13 and the library version the
table names. A callable the table does not list is unknown: the model assumes nothing of it and reports nothing at
its call.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from jitlint.project import ProjectIndex

TABLE = Path(__file__).with_name("external.toml")
TORCH_TABLE = Path(__file__).with_name("torch_checks.toml")


@dataclass(frozen=True)
class ExternalCallable:
    """One entry of the table: `name` (its first qualified name), `kind` ("function" or "module"), `proxy`
    ("raises" or "traces"), and for "raises" the exception class, a substring of its message (`says`), and the argument
    whose Proxy triggers it (`argument`: a positional index or "any"; `keyword`: its name when passed by keyword)."""

    name: str
    kind: str
    proxy: str
    library: str
    exception: str | None = None
    says: str | None = None
    argument: int | str | None = None
    keyword: str | None = None
    any_keyword: bool = False
    silenced_by: str | None = None

    def triggering(self, positional: list, keywords: dict) -> list:
        """The argument values whose Proxy makes this callable raise (none when a keyword that changes its checks,
        `silenced_by`, is passed)."""
        if self.silenced_by is not None and self.silenced_by in keywords:
            return []
        if self.argument == "any":
            return list(positional) + (list(keywords.values()) if self.any_keyword else [])
        found = []
        if isinstance(self.argument, int) and self.argument < len(positional):
            found.append(positional[self.argument])
        if self.keyword is not None and self.keyword in keywords:
            found.append(keywords[self.keyword])
        return found


def _entry(entry: dict, names: list[str], library: str) -> ExternalCallable:
    return ExternalCallable(names[0], entry["kind"], entry["proxy"], library, entry.get("exception"),
                            entry.get("message"), entry.get("argument"), entry.get("keyword"),
                            entry.get("keywords") == "any", entry.get("silenced_by"))


@lru_cache(maxsize=1)
def table() -> dict[str, ExternalCallable]:
    """Every qualified name the tables list, to its entry."""
    data = tomllib.loads(TABLE.read_text(encoding="utf-8"))
    libraries = {library["name"] for library in data.get("library", [])}
    found: dict[str, ExternalCallable] = {}
    for entry in data.get("callable", []):
        names = entry["names"]
        library = names[0].partition(".")[0]
        if library not in libraries:
            raise ValueError(f"{TABLE.name}: {names[0]} belongs to no [[library]]")
        callable_ = _entry(entry, names, library)
        for name in names:
            found[name] = callable_
    torch_data = tomllib.loads(TORCH_TABLE.read_text(encoding="utf-8"))
    for entry in torch_data.get("callable", []):
        callable_ = _entry(entry, entry["names"], "torch")
        for name in entry["names"]:
            found[name] = callable_
    for entry in torch_data.get("distribution", []):
        for qualified in entry["classes"]:
            exported = f"torch.distributions.{qualified.rpartition('.')[2]}"
            callable_ = _entry(entry, [exported, qualified], "torch")
            found[exported] = found[qualified] = callable_
    return found


@dataclass(frozen=True)
class TorchForward:
    """A torch.nn class whose own `forward` fails on a Proxy input when it runs as traced code, which it does for a
    subclass defined outside torch.nn (only torch.nn's own classes are leaves). `hook`: the method of `self` that
    forward calls first with the input (a subclass may override it); `fails`: "hook" when the failure is in that
    method (an override decides instead), "forward" when forward itself fails after it."""

    name: str
    hook: str | None
    fails: str
    exception: str
    says: str


@lru_cache(maxsize=1)
def torch_forwards() -> dict[str, TorchForward]:
    """Every torch.nn class the [[forward]] entries of `torch_checks.toml` list (as `ImportTable.qualify` spells it)."""
    data = tomllib.loads(TORCH_TABLE.read_text(encoding="utf-8"))
    found: dict[str, TorchForward] = {}
    for entry in data.get("forward", []):
        for name in entry["classes"]:
            found[name] = TorchForward(name, entry.get("hook"), entry["fails"], entry["exception"], entry["message"])
    return found


def external_callable(qualified: str) -> ExternalCallable | None:
    """The table's entry for a qualified name, or None (unknown)."""
    return table().get(qualified)


def outside_name(project: ProjectIndex, qualified: str) -> str:
    """The name outside the project that a qualified name spells through project modules' imports
    (`pkg.dists.Normal` is `torch.distributions.Normal` when `pkg/__init__.py` did `import torch.distributions
    as dists`), or the name itself when a project module defines it or nothing re-exports it."""
    for _depth in range(8):
        if qualified.startswith(("builtins.", "torch.", "typing.")):
            return qualified
        parts = qualified.split(".")
        module = None
        cut = len(parts) - 1
        while cut > 0:
            module = project.module(".".join(parts[:cut]))
            if module is not None:
                break
            cut -= 1
        if module is None:
            return qualified
        attr = parts[cut]
        if attr in module.classes or attr in module.functions or attr in module.globals:
            return qualified
        target = module.imports.aliases.get(attr)
        following = ".".join([target, *parts[cut + 1:]]) if target is not None else None
        if following is None or following == qualified:
            return qualified
        qualified = following
    return qualified
