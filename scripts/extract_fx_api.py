"""Write `src/jitlint/data/fx_api.json`: the real attribute names of torch.fx's classes and of the `torch.fx` /
`torch.jit` modules, read from the installed torch (the FX1xx rules flag any other name on an FX-typed receiver).

    python scripts/extract_fx_api.py           # rewrite the table from the installed torch
    python scripts/extract_fx_api.py --check   # exit 1 if the table differs from what the installed torch gives

Class tables are `dir()` of a real instance (so attributes set in `__init__` count), built on a tiny traced module.
Module tables are `dir()` of the module plus the names of its submodules (importable as attributes once imported).
Run it with the torch version the rules are verified on; the table records that version.
"""

from __future__ import annotations

import argparse
import json
import pkgutil
import sys
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TABLE = ROOT / "src" / "jitlint" / "data" / "fx_api.json"


def _module_names(module) -> list[str]:
    names = set(dir(module))
    names.update(info.name for info in pkgutil.iter_modules(module.__path__))
    return sorted(names)


def build() -> dict:
    import torch
    import torch.fx as fx
    from torch.fx.passes.shape_prop import ShapeProp

    class _M(torch.nn.Module):
        def forward(self, x):
            return torch.relu(x) + 1

    gm = fx.symbolic_trace(_M())
    graph = gm.graph
    node = next(iter(graph.nodes))
    # The GraphModule's own submodules and attributes belong to the traced model, not to the class: take the names
    # of an instance that has none beyond what every GraphModule has.
    classes = {
        "Graph": sorted(dir(graph)),
        "Node": sorted(dir(node)),
        "GraphModule": sorted(dir(gm)),
        "Interpreter": sorted(dir(fx.Interpreter(gm))),
        "Transformer": sorted(dir(fx.Transformer(gm))),
        "ShapeProp": sorted(dir(ShapeProp(gm))),
        "NodeList": sorted(dir(graph.nodes)),
        "Tracer": sorted(dir(fx.Tracer())),
    }
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        modules = {"torch.fx": _module_names(torch.fx), "torch.jit": _module_names(torch.jit)}
    return {"torch": torch.__version__.split("+")[0], "classes": classes, "modules": modules}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    text = json.dumps(build(), indent=1, sort_keys=True) + "\n"
    if args.check:
        if not TABLE.is_file() or TABLE.read_text() != text:
            print(f"{TABLE.relative_to(ROOT)} is stale: run python scripts/extract_fx_api.py", file=sys.stderr)
            return 1
        return 0
    TABLE.write_text(text)
    print(f"wrote {TABLE.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
