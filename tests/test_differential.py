"""The differential bench (bench/differential.py) works end to end: programs are generated deterministically, torch
judges each one, its verdicts and lines are parsed, jitlint's findings are mapped to them, and the report is written.

No agreement figure is asserted: the bench measures jitlint, it does not pin it.
"""

from __future__ import annotations

import ast
import json
import sys
import warnings
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[1] / "bench"
sys.path.insert(0, str(BENCH))

import differential  # noqa: E402
from differential_programs import Generator, generate  # noqa: E402


def test_programs_are_deterministic_and_independent_of_the_batch():
    first = generate(4, 25)
    again = generate(4, 25)
    assert [p.source for p in first] == [p.source for p in again]
    # program i depends on (seed, i) only: a batch that starts later holds the same program
    assert Generator(4, 17).program().source == first[17].source
    other = generate(5, 25)
    assert sum(a.source != b.source for a, b in zip(first, other)) >= 20
    assert len({p.source for p in first}) == len(first)


def test_programs_parse_and_cover_both_roots():
    programs = generate(9, 1000)
    for p in programs:
        tree = ast.parse(p.source, filename=p.name)
        defined = {node.name for node in tree.body if isinstance(node, (ast.ClassDef, ast.FunctionDef))}
        assert p.root in defined, p.name
        assert 'if __name__ == "__main__":' in p.source
    kinds = {p.kind for p in programs}
    assert kinds == {"module", "function"}
    assert any(f.startswith("mistake:") for p in programs for f in p.features)
    assert any(not any(f.startswith("mistake:") for f in p.features) for p in programs)


@pytest.mark.torch
def test_the_python_part_of_every_program_runs():
    """Importing a program and building its root (what happens before torch.jit.script) never raises: an error
    there would be the generator's bug, not a verdict."""
    import torch  # noqa: F401  (imported once here, before the programs import it)

    for p in generate(11, 120):
        _build(p)


def _build(p) -> None:
    """Import a program and build its root, as the bench does before `torch.jit.script`."""
    namespace = {"__name__": p.name}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        exec(compile(p.source, p.name, "exec"), namespace)
        root = namespace[p.root]
        if p.kind == "module":
            root()
        else:
            assert callable(root)


GRAMMAR_FEATURES = ("raise_refine:", "exception_class:", "moduledict:", "flagged_attr:", "union:",
                    "param:Union[int, float]", "param:Union[torch.Tensor, List[torch.Tensor]]")


def _with_features(seed: int, count: int) -> list:
    """Programs of a batch that carry a feature the grammar emits for exceptions, Union refinement, ModuleDict use
    and attributes set under a constructor flag, with every such feature seen at least once."""
    programs = generate(seed, count)
    seen = {prefix: [p for p in programs if any(f.startswith(prefix) for f in p.features)] for prefix in GRAMMAR_FEATURES}
    assert all(seen.values()), [prefix for prefix, found in seen.items() if not found]
    return [p for p in programs if any(p in found for found in seen.values())]


def test_the_grammar_emits_exceptions_unions_moduledicts_and_flagged_attributes():
    """Each of these features comes from the grammar in varied forms (not one fixed program): several styles each."""
    programs = _with_features(21, 600)
    styles = {f for p in programs for f in p.features if f.startswith(GRAMMAR_FEATURES)}
    assert len({f for f in styles if f.startswith("flagged_attr:")}) >= 10
    assert len({f for f in styles if f.startswith("moduledict:")}) >= 3
    assert {f.split(":")[1] for f in styles if f.startswith("raise_refine:")} == {
        "none_raises", "else_raises", "not_none_then_use"}
    for p in programs:
        ast.parse(p.source)


@pytest.mark.torch
def test_programs_with_the_new_features_build():
    """Importing and building a program with these features never raises (a generator bug, not a verdict)."""
    import torch  # noqa: F401

    for p in _with_features(23, 400)[:60]:
        _build(p)


def _finding(code: str, row: int, severity: str = "error") -> dict:
    return {"code": code, "severity": severity, "message": "m", "location": {"row": row, "column": 1}}


def test_judge_compares_verdicts_and_lines():
    program = Generator(1, 0).program()
    lines = program.source.splitlines()
    row = next(i for i, line in enumerate(lines, 1) if line.strip().startswith("def "))
    scripted = differential.TorchVerdict("scripted")
    rejected = differential.TorchVerdict("rejected", "boom", "boom", row)
    no_line = differential.TorchVerdict("rejected", "boom", "boom", None)
    assert differential.judge(program, scripted, []).verdict == "agree"
    assert differential.judge(program, scripted, [_finding("JIT201", row)]).verdict == "false-error"
    assert differential.judge(program, scripted, [_finding("JIT901", row, "warning")]).verdict == "agree"
    assert differential.judge(program, rejected, []).verdict == "miss"
    warned = differential.judge(program, rejected, [_finding("JIT232", row, "warning")])
    assert (warned.verdict, warned.warned) == ("miss", "JIT232")  # a miss still, counted by the warning's code
    assert differential.judge(program, rejected, [_finding("JIT232", len(lines), "warning")]).warned is None
    assert differential.judge(program, rejected, [_finding("JIT201", row)]).verdict == "agree"
    assert differential.judge(program, rejected, [_finding("JIT201", len(lines))]).verdict == "wrong-line"
    assert differential.judge(program, no_line, [_finding("JIT201", len(lines))]).verdict == "agree"
    built = differential.TorchVerdict("build-error", "TypeError")
    assert differential.judge(program, built, []).verdict == "not-judged"


def test_a_finding_in_the_same_statement_is_at_torchs_line():
    source = "def f(x):\n    y = g(\n        x)\n    for i in range(\n            3):\n        y = y\n    return y\n"
    key = differential.statement_key(source)
    assert key(2) == key(3)  # one call split over two lines
    assert key(4) == key(5)  # a `for` header
    assert key(6) != key(4)  # the loop's body is not its header
    assert key(7) != key(6)


def test_messages_are_grouped_with_names_and_numbers_masked():
    names = {"tmp1", "scale", "Model"}
    assert differential.mask("undefined value tmp1:", names) == "undefined value …:"
    assert differential.mask("Variable 'h' previously had type int but is now being assigned to a value of type float",
                             names) == ("Variable '…' previously had type int but is now being assigned to a value of "
                                        "type float")
    assert differential.mask("need 3 values to unpack but found only 2:") == "need N values to unpack but found only N:"
    assert differential.mask('Expected a default value of type float on parameter "scale".:', names) == \
        'Expected a default value of type float on parameter "…".:'
    # words torch itself uses stay even when a program also uses them as names
    assert differential.mask("cannot statically infer the expected size of a list in this context:", {"size"}) == \
        "cannot statically infer the expected size of a list in this context:"


@pytest.mark.torch
def test_a_small_batch_end_to_end(tmp_path):
    out = tmp_path / "out"
    summary, meta, outcomes = differential.run(seed=3, count=30, out=out, jobs=2, timeout=180.0)
    programs = {p.name: p for p in generate(3, 30)}

    assert summary["programs"] == len(outcomes) == 30
    torch = summary["torch"]
    # every program reached torch.jit.script: nothing failed in the import or the constructor (generator bugs)
    assert torch["import_errors"] == torch["build_errors"] == torch["no_answer"] == 0, \
        [(o.name, o.torch.message) for o in outcomes if not o.torch.judged]
    assert torch["scripted"] > 0 and torch["rejected"] > 0
    assert summary["judged"] == torch["scripted"] + torch["rejected"] == 30
    assert summary["agree"] + summary["false_errors"] + summary["misses"] + summary["wrong_lines"] == 30

    for o in outcomes:
        assert o.verdict in ("agree", "false-error", "miss", "wrong-line")
        if o.torch.status == "rejected":
            assert o.torch.message and o.torch.group
            if o.torch.line is not None:
                # the line parsed from torch's text is the program's line that torch shows
                source_lines = programs[o.name].source.splitlines()
                assert 1 <= o.torch.line <= len(source_lines)
                assert source_lines[o.torch.line - 1].strip() in o.torch.text, o.name
    assert any(o.torch.line is not None for o in outcomes if o.torch.status == "rejected")
    # jitlint ran on the batch and its findings were mapped to programs
    assert any(o.errors for o in outcomes), "no jitlint finding mapped to any program"
    assert meta["jitlint_internal_findings"] == []

    report = json.loads((out / "report.json").read_text())
    assert report["programs"] == 30 and report["meta"]["seed"] == 3
    assert len((out / "programs.jsonl").read_text().splitlines()) == 30
    disagreements = summary["false_errors"] + summary["misses"] + summary["wrong_lines"]
    assert sum(g["count"] for g in report["groups"]) == disagreements
    for group in report["groups"]:
        for name in group["examples"]:
            saved = Path(group["directory"]) / f"{name}.py"
            assert saved.read_text() == programs[name].source
            assert (Path(group["directory"]) / f"{name}.txt").exists()
    text = differential.render(summary, meta, top=10)
    assert "agreement:" in text and "false errors" in text
