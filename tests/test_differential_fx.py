"""The differential bench for symbolic_trace (bench/differential_fx.py) on a small batch: programs are reproducible
from the seed, torch traces them in the worker pool, jitlint lints them, and the two agree (no jitlint error on a
program torch traces; torch's line flagged on the programs it rejects)."""

import importlib.util
import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _bench():
    """The bench module, importable by name (its pool's workers unpickle their task from it)."""
    spec = importlib.util.spec_from_file_location("differential_fx", ROOT / "bench" / "differential_fx.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["differential_fx"] = module
    spec.loader.exec_module(module)
    return module


def test_programs_are_reproducible_and_valid_python():
    bench = _bench()
    for index in range(30):
        source = bench.generate(11, index)
        assert source == bench.generate(11, index)
        compile(source, f"prog_{index}.py", "exec")
    assert bench.generate(11, 0) != bench.generate(12, 0)


@pytest.mark.torch
def test_a_small_batch_agrees(tmp_path, monkeypatch):
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(ROOT / "bench"), os.environ.get("PYTHONPATH")])))
    bench = _bench()
    summary = bench.run(seed=5, count=40, workers=2, timeout=60, jitlint=[sys.executable, "-m", "jitlint"],
                        out=tmp_path / "out", keep=tmp_path / "programs")
    assert summary["count"] == 40 and 0 < summary["traced"] < 40
    assert summary["errors_on_traced"] == 0, (tmp_path / "out" / "report.md").read_text()
    assert summary["agreement"] >= 0.9, (tmp_path / "out" / "report.md").read_text()
    assert (tmp_path / "out" / "report.md").exists()
