"""Capture targets: the ways of capturing a model that jitlint checks, each a package of this one.

A target bundles a name (`script`), the prefix of its rule codes (`JIT`), the capture policies its rules use, its
typed settings (`[tool.jitlint.<name>]`, see `jitlint.settings`), its rules (the modules of its `rules`
subpackage), its rule pages (`rules/<name>/` in the repository) and its dynamic confirmer. Adding a target is adding a package `jitlint/targets/<name>/` whose `__init__.py` defines `TARGET`; the
engine, the CLI and the registry find it there. A target's `__init__.py` must not import LibCST (or its rules):
a run served from the cache reads the targets but never LibCST.
"""

from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass, field
from functools import lru_cache

DEFAULT_TARGETS = ("script",)


@dataclass(frozen=True)
class Target:
    name: str  # what `--target` and `target = [...]` say
    prefix: str  # the prefix of its rule codes (the file codes JIT001-003 are shared by every target)
    description: str
    # Capture policies by name -> "module:Class"; a rule names the one whose map says where it fires.
    policies: dict[str, str] = field(default_factory=dict)
    # Its confirmer strategy, "module:Class" (a `jitlint.confirm.Strategy`): how `--dynamic` runs the real capture and
    # marks the target's findings ("" for none yet).
    confirmer: str = ""
    # Its `[tool.jitlint.<name>]` table: "module:Class" of a `jitlint.settings.TargetSettings` subclass ("" for none:
    # the target takes no table). The module must not import LibCST.
    settings: str = ""

    @property
    def rules_package(self) -> str:
        return f"{__name__}.{self.name}.rules"

    def settings_class(self):
        """The target's settings class (`jitlint.settings.TargetSettings` itself when it declares none)."""
        if not self.settings:
            from jitlint.settings import TargetSettings

            return TargetSettings
        module, _, cls = self.settings.partition(":")
        return getattr(importlib.import_module(module), cls)


@lru_cache(maxsize=1)
def all_targets() -> dict[str, Target]:
    """Every target package of this installation, by name."""
    found: dict[str, Target] = {}
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda info: info.name):
        if not info.ispkg:
            continue
        target = getattr(importlib.import_module(f"{__name__}.{info.name}"), "TARGET", None)
        if isinstance(target, Target):
            if target.name != info.name:
                raise TypeError(f"the target in package {info.name!r} calls itself {target.name!r}")
            found[target.name] = target
    prefixes = [target.prefix for target in found.values()]
    if len(set(prefixes)) != len(prefixes):
        raise TypeError(f"two targets share a code prefix: {sorted(prefixes)}")
    return found


def confirmers(names: list[str]) -> list[Target]:
    """The targets among `names` that have a dynamic confirmer, in the order given."""
    known = all_targets()
    return [known[name] for name in names if name in known and known[name].confirmer]


def confirm(target: Target, run, settings):
    """`run.findings`, marked with what the target's confirmer strategy reproduces (see `jitlint.confirm`)."""
    from jitlint.confirm import confirm as run_strategy

    module, _, name = target.confirmer.partition(":")
    return run_strategy(getattr(importlib.import_module(module), name)(), run, settings)


def target_of_policy(name: str) -> Target:
    """The target that declares the capture policy `name`."""
    for target in all_targets().values():
        if name in target.policies:
            return target
    raise KeyError(f"no target declares the capture policy {name!r}")


def policy_class(name: str):
    """The capture policy class a name refers to, looked up in the targets that declare it."""
    for target in all_targets().values():
        if name in target.policies:
            module, _, cls = target.policies[name].partition(":")
            return getattr(importlib.import_module(module), cls)
    raise KeyError(f"no target declares the capture policy {name!r}")
