"""How much of the code `torch.jit.script` compiles the typer types (a benchmark, not a test).

    python bench/type_coverage.py /work/corpus/timm/timm /work/corpus/torchvision/torchvision ...

For each library (a package directory) it builds the `script` capture map as `jitlint check` does, types every
compiled function with the TorchScript typer (`jitlint.targets.script.typing`), and counts the expressions the
typer reaches in them (the code torch compiles: not branches torch drops, not what follows a `return`): the share
that gets a type (a TorchScript type, or a value torch knows that is no first-class value: a module, a function, a
method) rather than unknown. The reasons for the unknown ones are counted too (`--reasons N` prints the N most
common), which says what to model next. `--origins N` groups the unknown expressions by the construct they come
from instead: an expression unknown because an operand, a callee, a receiver or a variable is unknown is counted
under the root of that chain (a variable: the construct that bound it before the use, a parameter, an assignment's
value, an unpacked tuple, a loop or comprehension target), which says what typing one construct would gain.
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


def coverage(path: Path, examples: str | None = None, shown: int = 0, origin_examples: int = 0) -> dict:
    codes = {code for code, target in TARGET_OF.items() if target == "script"}
    run = lint_run([path], Config(root=path.parent), codes, keep_model=True)
    project, captured = run.project, run.captured["script"]
    typed = unknown = functions = 0
    reasons: Counter = Counter()
    origins: Counter = Counter()
    origin_shown: dict = {}
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
        for origin, example in Origins(entry, result, project).each():
            origins[origin] += 1
            if len(origin_shown.setdefault(origin, [])) < origin_examples:
                origin_shown[origin].append(example)
    total = typed + unknown
    return {"functions": functions, "expressions": total, "typed": typed,
            "share": typed / total if total else 1.0, "reasons": reasons, "origins": origins,
            "origin_examples": origin_shown}


class Origins:
    """The construct each unknown expression of one compiled function comes from (see the module's docstring)."""

    def __init__(self, entry, result, project) -> None:
        import libcst as cst

        self.cst = cst
        self.entry, self.result, self.project = entry, result, project
        self.code = entry.info.module.tree.code_for_node
        self.order: dict[int, int] = {}
        self.bindings: dict[str, list[tuple[int, str, object]]] = {}  # name -> (order, construct, value node)
        self.params: dict[str, str] = {}
        self.memo: dict[int, tuple[str, str]] = {}
        self._index(entry.info.node)

    def _index(self, function) -> None:
        cst = self.cst
        outer = self

        for param in [*function.params.params, *function.params.kwonly_params, *function.params.posonly_params]:
            self.params[param.name.value] = "parameter " + ("annotated" if param.annotation else "unannotated")
        for star, kind in ((function.params.star_arg, "*args"), (function.params.star_kwarg, "**kwargs")):
            if isinstance(star, cst.Param):
                self.params[star.name.value] = f"parameter {kind}"

        class Walk(cst.CSTVisitor):
            # a binding counts from the end of its statement (`x = x + 1` reads the earlier `x`), a loop target from
            # the loop's start, a comprehension target from the comprehension's start (its element comes first)
            def __init__(self) -> None:
                super().__init__()
                self.comprehensions: list[int] = []

            def on_visit(self, node) -> bool:
                outer.order[id(node)] = len(outer.order)
                if isinstance(node, (cst.FunctionDef, cst.Lambda, cst.ClassDef)) and node is not function:
                    return False
                if isinstance(node, (cst.ListComp, cst.SetComp, cst.GeneratorExp, cst.DictComp)):
                    self.comprehensions.append(outer.order[id(node)])
                return super().on_visit(node)

            def on_leave(self, node) -> None:
                if isinstance(node, (cst.ListComp, cst.SetComp, cst.GeneratorExp, cst.DictComp)):
                    self.comprehensions.pop()
                super().on_leave(node)

            def bind(self, target, construct: str, value, at: int) -> None:
                if isinstance(target, cst.Name):
                    outer.bindings.setdefault(target.value, []).append((at, construct, value))
                elif isinstance(target, (cst.Tuple, cst.List)) and isinstance(value, (cst.Tuple, cst.List)) and len(
                        target.elements) == len(value.elements) and not any(
                        isinstance(e, cst.StarredElement) for e in (*target.elements, *value.elements)):
                    for element, part in zip(target.elements, value.elements):
                        self.bind(element.value, construct, part.value, at)
                elif isinstance(target, (cst.Tuple, cst.List)):
                    for element in target.elements:
                        self.bind(element.value, construct if construct != "assign" else "unpack", value, at)
                elif isinstance(target, cst.StarredElement):
                    self.bind(target.value, construct, value, at)

            def leave_Assign(self, node) -> None:
                for target in node.targets:
                    self.bind(target.target, "assign", node.value, len(outer.order))

            def leave_AnnAssign(self, node) -> None:
                self.bind(node.target, "annotated", node.value, len(outer.order))

            def leave_AugAssign(self, node) -> None:
                self.bind(node.target, "augmented", node.value, len(outer.order))

            def visit_For(self, node) -> None:
                self.bind(node.target, "for-target", node.iter, outer.order[id(node)])

            def visit_CompFor(self, node) -> None:
                self.bind(node.target, "comprehension-target", node.iter, self.comprehensions[-1])

            def leave_WithItem(self, node) -> None:
                if node.asname is not None:
                    self.bind(node.asname.name, "with-target", node.item, len(outer.order))

            def leave_NamedExpr(self, node) -> None:
                self.bind(node.target, "assign", node.value, len(outer.order))

        function.visit(Walk())

    def each(self):
        for node_id, value in self.result.types.items():
            if value is None and node_id in self.order:
                yield self.origin(node_id)

    def origin(self, node_id: int) -> tuple[str, str]:
        if node_id in self.memo:
            return self.memo[node_id]
        self.memo[node_id] = ("(cycle)", "")
        found = self._origin(node_id)
        self.memo[node_id] = found
        return found

    def _unknown(self, node) -> bool:
        return id(node) in self.result.types and self.result.types[id(node)] is None

    def _origin(self, node_id: int) -> tuple[str, str]:
        cst = self.cst
        node = self._by_id[node_id]
        reason = self.result.unknown.get(node_id, "?")
        where = f"{self.entry.info.module.path.name}:{self.entry.info.display_name}: {self.code(node)[:90]!r}"
        if isinstance(node, cst.Name) and reason == "variable":
            return self._variable(node, where)
        # an expression unknown because a part it is built from is: the part's origin
        for child in self._parts(node):
            if self._unknown(child):
                return self.origin(id(child))
        if reason == "module-attribute" and isinstance(node, cst.Attribute):
            reason = f"{reason}: {self._attribute_kind(node.attr.value)}"
        return reason, where

    def _attribute_kind(self, name: str) -> str:
        """What the index knows of `self.<name>` in the classes the function is compiled for."""
        project = self.project
        found = set()
        for owner in self.entry.owners:
            info = project.attributes(owner).get(name)
            if info is None:
                found.add("not assigned")
                continue
            kinds = sorted(str(kind) if isinstance(kind, str) else type(kind).__name__ for kind in info.kinds)
            others = "+methods" if info.assigned_in - {"__init__"} else ""
            found.add(f"{'/'.join(kinds) or 'no value'}{others}{'+registered' * info.registered}")
        return " | ".join(sorted(found))

    def _parts(self, node) -> list:
        cst = self.cst
        if isinstance(node, cst.Call):
            return [node.func, *(argument.value for argument in node.args)]
        if isinstance(node, cst.Attribute):
            return [node.value]
        if isinstance(node, cst.Subscript):
            return [node.value]
        if isinstance(node, cst.BinaryOperation):
            return [node.left, node.right]
        if isinstance(node, cst.UnaryOperation):
            return [node.expression]
        if isinstance(node, cst.IfExp):
            return [node.body, node.orelse]
        if isinstance(node, cst.Comparison):
            return [node.left, *(target.comparator for target in node.comparisons)]
        return []

    def _variable(self, node, where: str) -> tuple[str, str]:
        at = self.order[id(node)]
        before = [b for b in self.bindings.get(node.value, []) if b[0] < at]
        if not before:
            if node.value in self.params:
                return self.params[node.value], where
            return "variable bound later or outside", where
        _, construct, value = before[-1]
        if construct == "assign" and len(before) > 1 and value is not None and not self._unknown(value):
            return "variable re-bound (a join)", where
        if value is None or not self._unknown(value):
            return f"{construct} of a typed value", where
        inner, example = self.origin(id(value))
        return (f"{construct} <- {inner}" if construct != "assign" else inner), example

    @property
    def _by_id(self) -> dict:
        if not hasattr(self, "_ids"):
            cst = self.cst
            ids: dict = {}

            class Collect(cst.CSTVisitor):
                def on_visit(self, node) -> bool:
                    ids[id(node)] = node
                    return True

            self.entry.info.node.visit(Collect())
            self._ids = ids
        return self._ids


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
    parser.add_argument("--origins", type=int, default=0, help="print this many constructs unknown values come from")
    parser.add_argument("--origin-examples", type=int, default=2, help="examples printed per construct")
    options = parser.parse_args()
    shares = []
    for path in options.paths:
        start = time.perf_counter()
        found = coverage(path.resolve(), options.examples, options.shown,
                         options.origin_examples if options.origins else 0)
        shares.append(found["share"])
        print(f"{path.name}: {found['share']:.3f} of {found['expressions']} expressions typed in "
              f"{found['functions']} compiled functions ({time.perf_counter() - start:.0f} s)")
        for reason, count in found["reasons"].most_common(options.reasons):
            print(f"    {count:6d}  {reason}")
        if options.origins:
            print("  unknown values by the construct they come from:")
            for origin, count in found["origins"].most_common(options.origins):
                print(f"    {count:6d}  {origin}")
                for example in found["origin_examples"].get(origin, []):
                    print(f"              {example}")
    if len(shares) > 1:
        print(f"lowest {min(shares):.3f}, mean {sum(shares) / len(shares):.3f} over {len(shares)} libraries")
    return 0


if __name__ == "__main__":
    sys.exit(main())
