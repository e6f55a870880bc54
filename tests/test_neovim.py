"""A real editor as the client: Neovim, headless, with its built-in LSP client, opens a file, reads jitlint's
diagnostics with `vim.diagnostic.get()` and applies a quick fix. Neovim converts the server's columns into byte
offsets with the position encoding the two agreed on, so a line holding characters outside ASCII and outside the
BMP checks the conversion end to end. `.ci/run` installs Debian's `neovim` where it is missing."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from test_integrations import BROKEN

HERE = Path(__file__).resolve().parent
NVIM = shutil.which("nvim")
pytestmark = pytest.mark.skipif(NVIM is None, reason="Neovim (`nvim`) is not installed: `apt-get install neovim` "
                                                     "(.ci/run installs it where it is missing)")

WIDE_LINE = '    def scale(self, x, tag: str = "\U0001F600\u00e9", factor=0.5):'
WIDE = BROKEN.replace("    def scale(self, x, factor=0.5):", WIDE_LINE)


def _neovim(tmp_path: Path, text: str, fix_code: str) -> dict:
    model = tmp_path / "model.py"
    model.write_text(text, encoding="utf-8")
    (tmp_path / "pyproject.toml").write_text("[tool.jitlint]\n")
    out = tmp_path / "neovim.json"
    env = {**os.environ, "JITLINT_PYTHON": sys.executable, "JITLINT_ROOT": str(tmp_path), "JITLINT_FILE": str(model),
           "JITLINT_OUT": str(out), "JITLINT_FIX_CODE": fix_code, "HOME": str(tmp_path)}
    env.setdefault("PYTHONPATH", str(HERE.parent / "src"))
    result = subprocess.run([NVIM, "--headless", "--clean", "-c", f"luafile {HERE / 'neovim_client.lua'}"],
                            cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert out.exists(), f"Neovim wrote nothing (exit {result.returncode}): {result.stderr[-2000:]}"
    return json.loads(out.read_text())


def test_neovim_shows_the_diagnostics_and_applies_a_quick_fix(tmp_path):
    seen = _neovim(tmp_path, WIDE, "JIT201")
    assert seen["received"] is True
    lines = WIDE.splitlines()
    row = lines.index(WIDE_LINE)
    byte = len(WIDE_LINE[:WIDE_LINE.index("factor")].encode("utf-8"))  # Neovim's columns are byte offsets
    found = {(d["code"], d["lnum"], d["col"]) for d in seen["diagnostics"]}
    assert ("JIT201", row, byte) in found, seen
    # The other four problems of the file, where `jitlint check` puts them (ASCII lines: bytes = code points).
    assert {code for code, _row, _col in found} == {"JIT401", "JIT301", "JIT106", "JIT201", "JIT102"}
    assert all(d["source"] == "jitlint" and d["severity"] == 1 for d in seen["diagnostics"])
    # The rule's fix first, then the server's generic actions (noqa, stop the capture, fix all).
    assert seen["actions"] == ["jitlint: annotate `factor: float`",
                               "jitlint: ignore JIT201 on this line (`# noqa: JIT201`)",
                               "jitlint: stop the script capture at `Pipeline.scale` (@torch.jit.ignore)",
                               "jitlint: fix all (safe fixes)"]
    assert seen["fixed_line"] == WIDE_LINE.replace("factor=0.5", "factor: float = 0.5")
