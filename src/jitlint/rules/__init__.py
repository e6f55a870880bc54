"""The rule registry: every rule class of every target, discovered, not listed by hand.

A rule declares its code, name, severity, target, capture policy and fix once, on its class
(`jitlint.rules.base.Rule`); defining the class registers it. Here the shared file rules (JIT001-003) and every
module of each target's `rules` package are imported (and JIT900, the shared unused-noqa code), and the registered classes are checked: codes and names
unique, each code carrying its target's prefix.
"""

from __future__ import annotations

import importlib
import pkgutil

from jitlint.rules import files  # noqa: F401  (the shared file codes register themselves)
from jitlint.rules import noqa  # noqa: F401  (JIT900, also shared)
from jitlint.rules.base import REGISTERED, Rule
from jitlint.targets import all_targets

SHARED_CODES = frozenset({"JIT001", "JIT002", "JIT003", "JIT004", "JIT005", "JIT900"})


def _discover() -> list[type[Rule]]:
    for target in all_targets().values():
        package = importlib.import_module(target.rules_package)
        for info in sorted(pkgutil.iter_modules(package.__path__), key=lambda info: info.name):
            importlib.import_module(f"{target.rules_package}.{info.name}")
    rules = sorted(REGISTERED, key=lambda rule: rule.code)
    targets = all_targets()
    for rule in rules:
        if rule.target is None:
            if rule.code not in SHARED_CODES:
                raise TypeError(f"{rule.code} belongs to no target")
        elif rule.target not in targets or not rule.code.startswith(targets[rule.target].prefix):
            raise TypeError(f"{rule.code} does not carry the prefix of its target {rule.target!r}")
        elif rule.policy is not None and rule.policy not in targets[rule.target].policies:
            raise TypeError(f"{rule.code}: target {rule.target!r} declares no capture policy {rule.policy!r}")
    return rules


RULES: list[type[Rule]] = _discover()
RULES_BY_CODE: dict[str, type[Rule]] = {rule.code: rule for rule in RULES}
RULES_BY_NAME: dict[str, type[Rule]] = {rule.name: rule for rule in RULES}
if not len(RULES_BY_CODE) == len(RULES) == len(RULES_BY_NAME):
    raise TypeError("two rules share a code or a name")
