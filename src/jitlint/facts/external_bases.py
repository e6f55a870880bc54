"""The nn.Module classes of installed libraries that a run does not lint: what a project class derives from when its
bases reach `torch.nn.Module` only through such a library (`lightning.LightningModule`, `torchmetrics.Metric`).

jitlint never imports those libraries (the static path imports neither torch nor them). What it knows of their
classes is a table, `data/external_bases.json`, generated from the installed libraries by
scripts/extract_external_bases.py, as a type checker reads a library's stubs: each class by its defining name with
its method-resolution order (the torch classes in it spelled as `ImportTable.qualify` spells them), the names its
body defines, its properties, and its `__jit_unused_properties__`; and every public spelling of it. A user declares
more bases with `module-bases` in `[tool.jitlint]` (qualified names): each is taken for a `torch.nn.Module`
subclass whose other attributes are unknown.

A class of the linted code is always its own: the table is read only for a base name the run does not resolve.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

_TABLE = Path(__file__).resolve().parents[1] / "data" / "external_bases.json"


@dataclass(frozen=True)
class ExternalClass:
    """A class outside the run: `torch` the torch classes of its order (spelled as `ImportTable.qualify` spells
    them); `names` the attributes the classes of its order outside torch define (None: unknown, a class the user
    declared); `unused_properties` the `__jit_unused_properties__` torch.jit.script reads on it (None: not set), and
    `unscriptable` those of them torch fails to compile (what a subclass's own list must keep)."""

    name: str
    torch: tuple[str, ...]
    names: frozenset[str] | None
    properties: frozenset[str] | None
    unused_properties: tuple[str, ...] | None
    unscriptable: frozenset[str] = frozenset()


@lru_cache(maxsize=1)
def table() -> dict:
    """The generated table (see the module's docstring)."""
    with _TABLE.open(encoding="utf-8") as handle:
        return json.load(handle)


@lru_cache(maxsize=4096)
def external_class(qualified: str, declared: frozenset[str] = frozenset()) -> ExternalClass | None:
    """The library class a qualified name (as `ImportTable.qualify` spells it) names, when it is an nn.Module class
    of the table or one of the `declared` bases; None for any other name."""
    data = table()
    name = data["aliases"].get(qualified, qualified)
    entry = data["classes"].get(name)
    if entry is not None:
        order = [name, *entry["mro"]]
        torch = tuple(base for base in order if base.startswith("torch."))
        if "torch.nn.Module" not in torch:
            return None  # a mixin of a module class, not a module itself
        names: set[str] = set()
        properties: set[str] = set()
        unused, unscriptable = None, frozenset()
        for base in order:
            found = data["classes"].get(base)
            if found is None:
                continue
            names.update(found["names"])
            properties.update(found["properties"])
            if unused is None and "unused_properties" in found:
                unused = tuple(found["unused_properties"])  # torch reads the attribute: the first class setting it
                unscriptable = frozenset(found.get("unscriptable_properties", ()))
        return ExternalClass(name, torch, frozenset(names), frozenset(properties), unused, unscriptable)
    if qualified in declared:
        return ExternalClass(qualified, ("torch.nn.Module",), None, None, None)
    return None
