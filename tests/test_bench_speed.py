"""bench/speed.py times runs and prints figures: a run that failed must stop it before any figure of that run."""

import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def speed():
    spec = importlib.util.spec_from_file_location("bench_speed", ROOT / "bench" / "speed.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_run_that_fails_gives_no_figure(tmp_path):
    bench = speed()
    assert bench.measure("ok", [sys.executable, "-c", "pass"], tmp_path, 0)["name"] == "ok"
    with pytest.raises(SystemExit, match="crash failed"):
        bench.measure("crash", [sys.executable, "-c", "raise RuntimeError('boom')"], tmp_path, 0)
    with pytest.raises(SystemExit, match="findings failed"):  # (exit 1: jitlint is always given --exit-zero)
        bench.measure("findings", [sys.executable, "-c", "raise SystemExit(1)"], tmp_path, 0)
    assert bench.measure("tool", [sys.executable, "-c", "raise SystemExit(1)"], tmp_path, 0, succeeded=(0, 1))


def test_the_run_measuring_itself_keeps_jitlints_exit_status(tmp_path):
    bench = speed()
    (tmp_path / "m.py").write_text("import torch.nn as nn\n\n\nclass M(nn.Module):\n    def forward(self, x):\n"
                                   "        return x\n")
    stats = tmp_path / "stats.json"
    command = [sys.executable, "-c", bench.RUN_WITH_STATS, str(stats), "--exit-zero", "--no-cache"]
    assert bench.measure("run", [*command, "m.py"], tmp_path, 0) and stats.is_file()
    stats.unlink()
    with pytest.raises(SystemExit, match=r"bad failed \(2\)"):
        bench.measure("bad", [*command, "--target", "nothing", "m.py"], tmp_path, 0)
    assert not stats.exists()


def test_an_editor_server_that_does_not_answer_in_time_leaves_the_other_figures(monkeypatch, capsys):
    """On a loaded machine the server may not answer the open in time: the bench says so and goes on to the
    one-process run and the edits, where it used to stop with the timeout."""
    bench = speed()

    def late(tree, path):
        raise TimeoutError("no message from the server")

    monkeypatch.setattr(bench, "editor_latency", late)
    assert bench.editor_or_none(Path("tree")) is None
    assert "editor: not measured (no message from the server)" in capsys.readouterr().err
