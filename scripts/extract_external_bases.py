"""Write `src/jitlint/data/external_bases.json`: the nn.Module classes of libraries a project installs but does not
lint (Lightning's `LightningModule`, torchmetrics' `Metric`, ...), read from the installed libraries, the way type
checkers read a library's stubs instead of its code. jitlint never imports them: a class of the linted code whose
bases reach `torch.nn.Module` only through one of these is a module class because this table says so.

    python scripts/extract_external_bases.py           # rewrite the table from the installed libraries
    python scripts/extract_external_bases.py --check   # exit 1 if an installed library differs from the table

For each library, every class reachable as an attribute of one of its modules (each module imported: those that fail
to import for a missing optional dependency are left out) that derives from `torch.nn.Module`, and every class of
their method-resolution orders outside torch, is recorded by its defining name with:

- `mro`: its method-resolution order, outside torch by defining name, then the torch classes as `ImportTable.qualify`
  spells them (`torch.nn.Module`, `torch.nn.ModuleDict`, `torch.nn._Loss`); `object`, `abc` and `typing` left out;
- `names`: the attributes its own body defines (methods, properties, class attributes), and `properties` those of
  them that are properties (torch.jit.script compiles every property of a module it scripts);
- `unused_properties`: `__jit_unused_properties__` where its own body sets it (what torch.jit.script skips), and
  `unscriptable_properties` those of them torch 2.13 fails to compile: a subclass whose list leaves out that one
  name, built without arguments, is scripted through the class's own entry point when it has one
  (`to_torchscript()`, which sets what the library needs while scripting) or `torch.jit.script`; recorded only when
  the same subclass leaving out nothing scripts.

`aliases` maps every public spelling (`lightning.LightningModule`, `pytorch_lightning.LightningModule`) to the
defining name. Run it with the library versions the table names (`libraries`); `--check` skips, saying so, a library
that is not installed.
"""

from __future__ import annotations

import argparse
import importlib
import inspect
import json
import pkgutil
import sys
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TABLE = ROOT / "src" / "jitlint" / "data" / "external_bases.json"
# The libraries the table covers: module-class bases that projects import from a package they do not lint.
LIBRARIES = ("lightning", "pytorch_lightning", "torchmetrics")
_SKIPPED_BASES = {"builtins.object", "abc.ABC", "typing.Generic", "typing.Protocol"}


def torch_spelling(cls) -> str:
    """A torch class as `ImportTable.qualify` spells it: torch.nn's files collapse to `torch.nn.<Name>`."""
    import torch

    module = cls.__module__
    if module.startswith("torch.nn.modules.") or getattr(torch.nn, cls.__name__, None) is cls:
        return f"torch.nn.{cls.__name__}"
    for public in ("torch.jit", "torch"):
        if getattr(importlib.import_module(public), cls.__name__, None) is cls:
            return f"{public}.{cls.__name__}"
    return f"{module}.{cls.__qualname__}"


def defining_name(cls) -> str:
    return f"{cls.__module__}.{cls.__qualname__}"


def _is_torch(cls) -> bool:
    return cls.__module__ == "torch" or cls.__module__.startswith("torch.")


def _modules(package: str) -> list:
    top = importlib.import_module(package)
    found = [top]
    for info in pkgutil.walk_packages(top.__path__, prefix=f"{package}.", onerror=lambda _name: None):
        try:
            found.append(importlib.import_module(info.name))
        except Exception:  # an optional dependency missing, a module that refuses to import alone: not recorded
            continue
    return found


def describe(cls) -> dict:
    entry: dict = {"mro": [], "names": [], "properties": []}
    for base in cls.__mro__[1:]:
        spelled = torch_spelling(base) if _is_torch(base) else defining_name(base)
        if spelled in _SKIPPED_BASES or base.__module__ in ("abc", "typing", "typing_extensions", "builtins"):
            continue
        entry["mro"].append(spelled)
    own = vars(cls)
    entry["names"] = sorted(name for name in own if not (name.startswith("__") and name.endswith("__"))
                            or name.startswith("__jit_"))
    entry["properties"] = sorted(name for name, value in own.items() if isinstance(value, property))
    if isinstance(own.get("__jit_unused_properties__"), (list, tuple)):
        entry["unused_properties"] = sorted(own["__jit_unused_properties__"])
        failing = unscriptable(cls, list(own["__jit_unused_properties__"]))
        if failing is not None:
            entry["unscriptable_properties"] = failing
    return entry


def _scripts(cls, unused: list[str]) -> bool:
    import torch

    probe = type(f"Probe{cls.__name__}", (cls,), {"__jit_unused_properties__": unused, "__module__": __name__,
                                                   "forward": _identity})
    try:
        module = probe()
        module.to_torchscript() if hasattr(module, "to_torchscript") else torch.jit.script(module)
    except Exception:
        return False
    return True


def _identity(self, x):  # TorchScript takes an unannotated parameter for a Tensor
    return x


def unscriptable(cls, unused: list[str]) -> list[str] | None:
    """The names of `unused` whose property torch fails to compile (see the module's docstring); None: unknown."""
    if not _scripts(cls, unused):
        return None
    return sorted(name for name in unused if not _scripts(cls, [other for other in unused if other != name]))


def build(libraries=LIBRARIES) -> dict:
    import torch

    warnings.filterwarnings("ignore")
    table: dict = {"torch": torch.__version__.split("+")[0], "libraries": {}, "classes": {}, "aliases": {}}
    for package in libraries:
        try:
            top = importlib.import_module(package)
        except ImportError:
            continue
        table["libraries"][package] = getattr(top, "__version__", "unknown")
        for module in _modules(package):
            for name, value in sorted(vars(module).items()):
                if not (inspect.isclass(value) and issubclass(value, torch.nn.Module)) or _is_torch(value):
                    continue
                if not defining_name(value).split(".")[0] in libraries:
                    continue  # a class another library defines, imported here
                for cls in value.__mro__:
                    if _is_torch(cls) or cls.__module__ in ("abc", "typing", "typing_extensions", "builtins"):
                        continue
                    table["classes"].setdefault(defining_name(cls), describe(cls))
                alias = f"{module.__name__}.{name}"
                if alias != defining_name(value):
                    table["aliases"][alias] = defining_name(value)
    table["classes"] = dict(sorted(table["classes"].items()))
    table["aliases"] = dict(sorted(table["aliases"].items()))
    return table


def check(table: dict) -> list[str]:
    """What differs between the shipped table and the installed libraries (those not installed are skipped)."""
    problems = []
    installed = [package for package in table["libraries"] if importlib.util.find_spec(package) is not None]
    fresh = build(tuple(installed))
    for package in installed:
        if fresh["libraries"].get(package) != table["libraries"][package]:
            problems.append(f"{package}: installed {fresh['libraries'].get(package)}, table made from "
                            f"{table['libraries'][package]}")
    # With a library missing, what the others define (classes of their orders defined elsewhere left out).
    prefixes = tuple(f"{package}." for package in installed) if len(installed) < len(table["libraries"]) else ("",)
    for key in ("classes", "aliases"):
        shipped = {name: value for name, value in table[key].items() if name.startswith(prefixes)}
        made = {name: value for name, value in fresh[key].items() if name.startswith(prefixes)}
        if shipped != made:
            changed = sorted(set(shipped) ^ set(made)) or sorted(
                name for name in shipped if shipped[name] != made[name])
            problems.append(f"{key} differ, e.g. {changed[:3]}")
    return problems


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare the table with the installed libraries")
    args = parser.parse_args()
    if args.check:
        problems = check(json.loads(TABLE.read_text(encoding="utf-8")))
        for problem in problems:
            print(problem, file=sys.stderr)
        return 1 if problems else 0
    TABLE.write_text(json.dumps(build(), indent=1, sort_keys=False) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
