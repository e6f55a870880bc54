"""The compile target's table of calls (`targets/compile/calls.toml`) against torch.compile: each `[[breaks]]` row
breaks the graph with its graph-break id, each `[[traced]]` row compiles in one graph."""

import json
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

import jitlint

TABLE = Path(jitlint.__file__).resolve().parent / "targets" / "compile" / "calls.toml"

# Runs every row in one child: `forward(x)` calls it between two tensor operations, compiled with
# `torch._dynamo.explain` (backend "eager"); prints, per row, the graph breaks and whether the row's id is named.
CHILD = r'''
import importlib, json, sys, tomllib, warnings
warnings.simplefilter("ignore")
import torch, torch._dynamo

table = tomllib.load(open(sys.argv[1], "rb"))
names = {  # the values some rows take: built outside the compiled function
    "packed": torch.nn.utils.rnn.pack_padded_sequence(torch.ones(2, 3), torch.tensor([3, 2]), batch_first=True),
    "state": torch.get_rng_state(),
}
found = []
for kind in ("breaks", "traced"):
    for row in table[kind]:
        scope = {"torch": torch, **names}
        for module in {row["name"].split(".")[0], "operator", "math"}:
            scope[module] = importlib.import_module(module)
        exec("def forward(x):\n    x = x + 1\n    " + row["call"] + "\n    return x * 2\n", scope)
        torch._dynamo.reset()
        explained = torch._dynamo.explain(scope["forward"])(torch.randn(2))
        reasons = " ".join(str(reason.reason) for reason in explained.break_reasons).lower()
        found.append([kind, row["call"], explained.graph_break_count, row.get("gb", "").lower() in reasons])
json.dump(found, sys.stdout)
'''


@pytest.mark.torch
def test_each_row_of_the_calls_table_does_what_it_says_on_torch(tmp_path):
    pytest.importorskip("torch")
    table = tomllib.loads(TABLE.read_text())
    child = tmp_path / "child.py"
    child.write_text(CHILD)
    result = subprocess.run([sys.executable, str(child), str(TABLE)], capture_output=True, text=True, timeout=900,
                            cwd=tmp_path)
    assert result.returncode == 0, result.stderr[-2000:]
    found = json.loads(result.stdout)
    assert len(found) == len(table["breaks"]) + len(table["traced"])
    wrong = [(kind, call, breaks, named) for kind, call, breaks, named in found
             if (kind == "breaks" and (breaks < 1 or not named)) or (kind == "traced" and breaks != 0)]
    assert wrong == [], "rows torch does not agree with: (kind, call, graph breaks, id named)"
