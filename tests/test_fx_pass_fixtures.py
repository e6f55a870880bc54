"""The FX graph-pass fixtures (fixtures/fxpass/, the seed articles' patterns): jitlint flags exactly the marked lines,
the README demo is a committed snapshot, and torch 2.13 fails each marked line (or, for a silent hazard, shows the
wrong behaviour)."""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "fixtures" / "fxpass"
SNAPSHOT = ROOT / "tests" / "snapshots" / "check-fxpass.txt"
MARK = re.compile(r"# (FX1\d\d):")


def marks(path: Path) -> list[tuple[str, int]]:
    return [(m.group(1), row) for row, line in enumerate(path.read_text().splitlines(), 1) if (m := MARK.search(line))]


def demo_output() -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "jitlint", "check", "--target", "fx", "--select", "FX1", "fixtures/fxpass/"],
        capture_output=True, text=True, cwd=ROOT,
    )


def test_jitlint_flags_exactly_the_marked_lines():
    result = subprocess.run(
        [sys.executable, "-m", "jitlint", "check", "--target", "fx", "--select", "FX1", "--output-format", "json",
         "fixtures/fxpass/"], capture_output=True, text=True, cwd=ROOT,
    )
    found = sorted((Path(f["filename"]).name, f["code"], f["location"]["row"]) for f in json.loads(result.stdout))
    expected = sorted((path.name, code, row) for path in FIXTURES.glob("*.py") for code, row in marks(path))
    assert len(expected) >= 12
    assert found == expected


def test_readme_demo_matches_the_snapshot():
    """What the README's FX demo prints; regenerate with JITLINT_UPDATE_SNAPSHOTS=1 and review the diff."""
    result = demo_output()
    assert result.returncode == 1, result.stderr
    if os.environ.get("JITLINT_UPDATE_SNAPSHOTS"):
        SNAPSHOT.write_text(result.stdout)
    assert result.stdout == SNAPSHOT.read_text()
    readme = (ROOT / "README.md").read_text()
    assert result.stdout.strip() in readme.replace("\r", ""), "the README's FX demo is stale"


# Each scenario: what to run with the fixture's names (and `trace()`, a fresh GraphModule of its Net), and the
# line it must raise at (a substring of that line), or None: it runs, its asserts showing the silent hazard.
SCENARIOS = {
    "node_kwargs_article.py": [
        ("[is_relu(n) for n in trace().graph.nodes]", "# FX105"),
        ("make_relu_inplace(trace())", "# FX101"),
        ("relu_node(next(iter(trace().graph.nodes)))", "# FX102"),
        ("gm = trace(); insert(gm, next(iter(gm.graph.nodes)))", "# FX106: Graph has no insert_node"),
        ("target_type()", "# FX106: torch.fx has no Target"),
    ],
    "erase_node_article.py": [
        ("relu_to_gelu(trace())", "# FX114"),
        ("finish(trace())", "# FX106: recompile"),
        ("optimize(trace())", "# FX106: no such function"),
        ("first_node(trace())", "# FX106: the node list"),
    ],
    "docs_graph_manipulation.py": [
        ("wrap_relu_in_neg(trace())", "graph.lint()  # raises"),
        ("names = [n.name for n in add_sigmoid_of_neg(trace()).graph.nodes]\n"
         "assert names.index('sigmoid') < names.index('neg')", None),
        ("assert add_to_mul(torch.tensor([3.0])).tolist() == [4.0]", None),
        ("run_boxed_tuple(trace(), torch.ones(1))", "# FX112"),
        ("run_boxed_twice(trace(), torch.ones(1))", "# FX113"),
    ],
}

_CHILD = r"""
import json, runpy, sys, traceback, warnings
warnings.simplefilter("ignore")
path, scenarios = sys.argv[1], json.loads(sys.argv[2])
results = []
for code in scenarios:
    namespace = runpy.run_path(path)
    namespace["trace"] = lambda: namespace["fx"].symbolic_trace(namespace["Net"]())
    try:
        exec(code, namespace)
        results.append(None)
    except BaseException as error:
        lines = [f.lineno for f in traceback.extract_tb(error.__traceback__) if f.filename == path]
        results.append([type(error).__name__, str(error).splitlines()[0] if str(error) else "", lines[-1] if lines else None])
print(json.dumps(results))
"""


@pytest.mark.torch
@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_torch_fails_the_marked_lines(name):
    path = FIXTURES / name
    scenarios = SCENARIOS[name]
    process = subprocess.run([sys.executable, "-c", _CHILD, str(path), json.dumps([code for code, _ in scenarios])],
                             capture_output=True, text=True, timeout=300)
    assert process.returncode == 0, process.stderr
    results = json.loads(process.stdout.splitlines()[-1])
    lines = path.read_text().splitlines()
    for (code, expected), result in zip(scenarios, results):
        if expected is None:
            assert result is None, f"{name}: {code!r} should run, but raised {result}"
            continue
        rows = [row for row, line in enumerate(lines, 1) if expected in line]
        assert len(rows) == 1, f"{name}: {expected!r} names no single line"
        assert result is not None, f"{name}: {code!r} should raise at line {rows[0]}, but ran"
        assert result[2] == rows[0], f"{name}: {code!r} raised {result[0]}: {result[1]} at line {result[2]}, not {rows[0]}"
    marked = {row for _, row in marks(path)}
    covered = {row for row, line in enumerate(lines, 1) for _, expected in scenarios if expected and expected in line}
    silent = marked - covered
    assert all(re.search(r"# FX1(09|10|15):", lines[row - 1]) for row in silent), (
        f"{name}: marked lines no scenario runs: {sorted(silent)}"
    )
