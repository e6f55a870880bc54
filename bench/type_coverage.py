"""How much of the code `torch.jit.script` compiles the typer types (a benchmark, not a test).

    python bench/type_coverage.py /work/corpus/timm/timm /work/corpus/torchvision/torchvision ...

For each library (a package directory) it builds the `script` capture map as `jitlint check` does, types every
compiled function with the TorchScript typer (`jitlint.targets.script.typing`), and counts the expressions the
typer reaches in them (the code torch compiles: not branches torch drops, not what follows a `return`): the share
that gets a type (a TorchScript type, or a value torch knows that is no first-class value: a module, a function, a
method) rather than unknown. The reasons for the unknown ones are counted too (`--reasons N` prints the N most
common), which says what to model next.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from jitlint.codes import TARGET_OF  # noqa: E402
from jitlint.config import Config  # noqa: E402
from jitlint.engine import lint_run  # noqa: E402
from jitlint.targets.script.typing.analysis import captured_types  # noqa: E402


def coverage(path: Path, examples: str | None = None, shown: int = 0) -> dict:
    codes = {code for code, target in TARGET_OF.items() if target == "script"}
    run = lint_run([path], Config(root=path.parent), codes, keep_model=True)
    project, captured = run.project, run.captured["script"]
    typed = unknown = functions = 0
    reasons: Counter = Counter()
    for entry in list(captured.functions.values()):
        if not entry.body_captured or not project.in_run(entry.info.module):
            continue
        result = captured_types(project, captured, entry)
        functions += 1
        for node_id, value in result.types.items():
            if value is None:
                unknown += 1
                reason = result.unknown.get(node_id, "?")
                reasons[reason] += 1
                if reason == examples and shown > 0:
                    shown -= 1
                    _example(entry, node_id)
            else:
                typed += 1
    total = typed + unknown
    return {"functions": functions, "expressions": total, "typed": typed,
            "share": typed / total if total else 1.0, "reasons": reasons}


def _example(entry, node_id: int) -> None:
    import libcst as cst

    code = entry.info.module.tree.code_for_node

    class Find(cst.CSTVisitor):
        def on_visit(self, node) -> bool:
            if id(node) == node_id:
                print(f"      {entry.info.module.path}:{entry.info.display_name}: {code(node)[:100]!r}")
                return False
            return True

    entry.info.node.visit(Find())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("paths", nargs="+", type=Path)
    parser.add_argument("--reasons", type=int, default=8, help="print this many reasons for unknown types")
    parser.add_argument("--examples", help="print expressions left unknown for this reason")
    parser.add_argument("--shown", type=int, default=20, help="how many examples to print")
    options = parser.parse_args()
    shares = []
    for path in options.paths:
        start = time.perf_counter()
        found = coverage(path.resolve(), options.examples, options.shown)
        shares.append(found["share"])
        print(f"{path.name}: {found['share']:.3f} of {found['expressions']} expressions typed in "
              f"{found['functions']} compiled functions ({time.perf_counter() - start:.0f} s)")
        for reason, count in found["reasons"].most_common(options.reasons):
            print(f"    {count:6d}  {reason}")
    if len(shares) > 1:
        print(f"lowest {min(shares):.3f}, mean {sum(shares) / len(shares):.3f} over {len(shares)} libraries")
    return 0


if __name__ == "__main__":
    sys.exit(main())
