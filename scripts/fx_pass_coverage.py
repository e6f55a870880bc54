"""How much of a code base's FX pass code the FX1xx rules can see: for each FX method name, how many calls there are
and how many have a receiver whose FX type jitlint knows (the rules fire only on those).

    PYTHONPATH=src python scripts/fx_pass_coverage.py PATH...
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

import libcst as cst

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from jitlint.names import ImportTable, module_name_for  # noqa: E402
from jitlint.targets.fx.fxtypes import FxTypes  # noqa: E402
from jitlint.walk import walk  # noqa: E402

METHODS = {
    "erase_node": "Graph", "inserting_after": "Graph", "inserting_before": "Graph", "call_function": "Graph",
    "create_node": "Graph", "replace_all_uses_with": "Node", "replace_input_with": "Node", "update_arg": "Node",
    "boxed_run": "Interpreter",
}


def main(paths: list[str]) -> None:
    total: Counter = Counter()
    typed: Counter = Counter()
    files = 0
    for root in paths:
        for path in sorted(Path(root).rglob("*.py")) if Path(root).is_dir() else [Path(root)]:
            text = path.read_text(encoding="utf-8", errors="replace")
            if not any(name in text for name in METHODS):
                continue
            try:
                tree = cst.parse_module(text)
            except Exception:
                continue
            files += 1
            name, _ = module_name_for(path)
            types = FxTypes(tree, ImportTable.from_module(tree, name, path.name == "__init__.py"))

            class Calls(cst.CSTVisitor):
                def __init__(self) -> None:
                    self.stack: list[cst.FunctionDef | None] = [None]

                def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
                    self.stack.append(node)

                def leave_FunctionDef(self, node: cst.FunctionDef) -> None:
                    self.stack.pop()

                def visit_Call(self, node: cst.Call) -> None:
                    func = node.func
                    if isinstance(func, cst.Attribute) and func.attr.value in METHODS:
                        method = func.attr.value
                        total[method] += 1
                        kind = types.type_of(func.value, types.scope_of(self.stack[-1])) or ""
                        if kind.startswith(METHODS[method]) or (METHODS[method] == "Interpreter" and kind):
                            typed[method] += 1

            walk(tree, Calls())
    print(f"{files} files with FX pass calls")
    for method in METHODS:
        print(f"  {method:24} {typed[method]:5} of {total[method]:5} calls on a receiver of known FX type")
    print(f"  {'all':24} {sum(typed.values()):5} of {sum(total.values()):5}")


if __name__ == "__main__":
    main(sys.argv[1:])
