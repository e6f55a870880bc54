"""Why a finding's code is captured: every finding in captured code carries the chain from its root through the
calls that reach its function (JSON `captured_from`, `--output-format full`, SARIF related locations, the cache),
and the summary names the call through which many findings come, with what would stop the capture there."""

import json
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

from jitlint.cli import main

SCHEMA = Path(__file__).resolve().parent / "data" / "sarif-schema-2.1.0.json"

CHAIN = textwrap.dedent("""\
    import torch
    import torch.nn as nn


    def load(x):
        return helper(x)


    def helper(x):
        return x.numpy()


    class Noise(nn.Module):
        def forward(self, x):
            y = load(x)
            return y
""")

# Many findings in code one call reaches (data loading called from `forward`).
HELPERS = "\n\n".join(f"def step{i}(x):\n    return x.numpy() + {i}" for i in range(6))
MANY = textwrap.dedent("""\
    import torch
    import torch.nn as nn


    {helpers}


    def load_noise(x):
        return {calls}


    class AddNoise(nn.Module):
        def forward(self, x):
            return load_noise(x)
""").format(helpers=HELPERS, calls=" + ".join(f"step{i}(x)" for i in range(6)))


def _run(*args, cwd=None):
    return CliRunner().invoke(main, ["check", *args])


def test_json_carries_the_chain(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("m.py").write_text(CHAIN)
    [finding] = json.loads(_run("--no-cache", "--output-format", "json", "m.py").stdout)
    assert [(s["function"], s["filename"], s["row"]) for s in finding["captured_from"]] == [
        ("Noise.forward", "m.py", 14), ("load", "m.py", 15), ("helper", "m.py", 6)]
    assert finding["captured_from"][0]["reason"] == "forward of Noise"
    assert finding["captured_from"][2]["defined_at"] == {"filename": "m.py", "row": 9}


def test_full_format_shows_the_chain(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("m.py").write_text(CHAIN)
    text = _run("--no-cache", "--output-format", "full", "m.py").stdout
    assert "  = captured: `Noise.forward` (forward of Noise, m.py:14)\n" in text
    assert "  = captured: calls `load` at m.py:15\n  = captured: calls `helper` at m.py:6\n" in text


def test_sarif_related_locations(tmp_path, monkeypatch):
    jsonschema = pytest.importorskip("jsonschema")
    monkeypatch.chdir(tmp_path)
    Path("m.py").write_text(CHAIN)
    log = json.loads(_run("--no-cache", "--output-format", "sarif", "m.py").stdout)
    jsonschema.validate(log, json.loads(SCHEMA.read_text()))
    related = log["runs"][0]["results"][0]["relatedLocations"]
    assert [r["physicalLocation"]["region"]["startLine"] for r in related] == [14, 15, 6]


def test_a_cached_run_carries_the_chain(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("m.py").write_text(CHAIN)
    args = ("--cache-dir", str(tmp_path / "cache"), "--output-format", "json", "m.py")
    cold, warm = json.loads(_run(*args).stdout), json.loads(_run(*args).stdout)
    assert cold == warm and len(cold[0]["captured_from"]) == 3


def test_the_summary_names_the_call_through_which_many_findings_come(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("m.py").write_text(MANY)
    text = _run("--no-cache", "m.py").stdout
    assert ("6 findings are in code `AddNoise.forward` reaches through one call, `load_noise` at m.py:"
            in text)
    assert "@torch.jit.ignore on `load_noise` would stop the script capture there." in text


def test_the_summary_names_fx_wrap_for_fx(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("m.py").write_text(MANY.replace("x.numpy() + ", "x.numpy() + int(x.sum()) + "))
    result = _run("--no-cache", "--target", "fx", "--output-format", "json", "m.py")
    findings = json.loads(result.stdout)
    text = _run("--no-cache", "--target", "fx", "m.py").stdout
    if sum(1 for f in findings if len(f["captured_from"]) >= 2) >= 5:
        assert "torch.fx.wrap on `load_noise` would stop the fx capture there." in text
    else:
        pytest.skip("fx reports fewer than five findings here")
