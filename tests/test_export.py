"""The export target end to end: configuration, target-aware advice, the migration view, the fixture."""

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from conftest import codes_for, lint_files
from jitlint.config import Config, ConfigError, load_config
from jitlint.targets.export.settings import ExportSettings

ROOT = Path(__file__).resolve().parents[1]
FIXTURE = ROOT / "fixtures" / "export" / "postprocess.py"

NUMPY_IN_IGNORE = """
import torch
import torch.nn as nn


class Stats(nn.Module):
    @torch.jit.ignore
    def spread(self, x):
        return torch.from_numpy(x.numpy().std(0))

    def forward(self, x):
        if not torch.jit.is_scripting():
            x = x + torch.from_numpy(x.numpy())
        return x / self.spread(x)
"""


def jitlint(*args, cwd=ROOT):
    return subprocess.run([sys.executable, "-m", "jitlint", *args], capture_output=True, text=True, cwd=cwd,
                          env={"PYTHONPATH": str(ROOT / "src"), "PATH": "/usr/bin:/bin"})


def write_config(tmp_path, text: str) -> Path:
    path = tmp_path / "pyproject.toml"
    path.write_text(textwrap.dedent(text))
    return path


def test_export_options_load(tmp_path):
    config = load_config(write_config(tmp_path, """
        [tool.jitlint]
        target = ["export"]
        [tool.jitlint.export]
        strict = true
        [tool.jitlint.dynamic]
        inputs = { "pkg.models:Net" = "pkg.examples:net_inputs" }
    """))
    assert config.targets == ["export"] and config.settings("export").strict is True
    assert config.dynamic_inputs == {"pkg.models:Net": "pkg.examples:net_inputs"}


@pytest.mark.parametrize("table, message", [
    ("[tool.jitlint.export]\nstrict = \"yes\"", "`strict` in [tool.jitlint.export] must be true or false"),
    ("[tool.jitlint.export]\nmode = \"strict\"", "unknown key in [tool.jitlint.export]: `mode`"),
    ("[tool.jitlint.dynamic]\ninputs = { \"Net\" = \"make\" }", "`inputs` in [tool.jitlint.dynamic] maps"),
])
def test_bad_export_options_are_one_line_errors(tmp_path, table, message):
    write_config(tmp_path, "[tool.jitlint]\n" + table + "\n")
    with pytest.raises(ConfigError, match=message.replace("[", r"\[").replace("]", r"\]").replace("(", r"\(")):
        load_config(tmp_path / "pyproject.toml")
    (tmp_path / "m.py").write_text("x = 1\n")
    result = jitlint("check", "--target", "export", "m.py", cwd=tmp_path)
    assert result.returncode == 2 and "Traceback" not in result.stderr and len(result.stderr.splitlines()) == 1


def codes_rows(findings):
    return sorted((f.code, f.location.row) for f in findings)


def test_jit401_advice_depends_on_the_targets(tmp_path):
    script_only = lint_files({"m.py": NUMPY_IN_IGNORE}, tmp_path, codes=codes_for("script"))
    both = lint_files({"m.py": NUMPY_IN_IGNORE}, tmp_path, codes=codes_for("script", "export"))
    # TorchScript prunes the is_scripting branch and skips the ignored body: nothing for JIT401 there.
    assert [f for f in script_only if f.code == "JIT401"] == []
    source = NUMPY_IN_IGNORE.replace("x / self.spread(x)", "x.numpy() / self.spread(x)")
    alone = [f for f in lint_files({"m.py": source}, tmp_path, codes=codes_for("script")) if f.code == "JIT401"]
    together = [f for f in lint_files({"m.py": source}, tmp_path, codes=codes_for("script", "export"))
                if f.code == "JIT401"]
    assert "@torch.jit.ignore" in alone[0].message
    # With export enabled too, the advice no longer sends NumPy where export traces it.
    assert "is_scripting()` branch; keep the value a Tensor" in together[0].message
    # Nor does the fix that moves a NumPy statement into a new `@torch.jit.ignore` method.
    dump = "import torch\nimport torch.nn as nn\n\n\nclass M(nn.Module):\n    def forward(self, x):\n" \
           "        print(x.numpy())\n        return x\n"
    fixes = {tuple(targets): [f.fix for f in lint_files({"d.py": dump}, tmp_path, codes=codes_for(*targets))
                              if f.code == "JIT401"]
             for targets in (("script",), ("script", "export"))}
    assert fixes[("script",)][0] is not None and fixes[("script", "export")] == [None]
    # export flags the NumPy that TorchScript's escape hatches hid, in both places.
    assert [row for code, row in codes_rows(both) if code == "EXP104"] == [9, 13]


def test_torchscript_only_constructs_only_without_the_script_target(tmp_path):
    alone = lint_files({"m.py": NUMPY_IN_IGNORE}, tmp_path, codes=codes_for("export"))
    both = lint_files({"m.py": NUMPY_IN_IGNORE}, tmp_path, codes=codes_for("script", "export"))
    assert [row for code, row in codes_rows(alone) if code == "EXP301"] == [7, 12]
    assert [f for f in both if f.code == "EXP301"] == []


def test_strict_mode_judges_strict_export(tmp_path):
    config = Config(root=tmp_path, target_settings={"export": ExportSettings(strict=True)})
    findings = lint_files({"m.py": NUMPY_IN_IGNORE}, tmp_path, codes=codes_for("export"), config=config)
    assert [f for f in findings if f.code == "EXP104"] == []  # TorchDynamo traces NumPy


def test_migration_view_of_the_fixture():
    """`--target export` on TorchScript-ready code: what export rejects, what it silently changes, and what is no
    longer needed, with the counts in the summary line. The fixture itself is TorchScript-clean."""
    assert jitlint("check", "--no-cache", str(FIXTURE)).stdout == "All checks passed!\n"
    result = jitlint("check", "--no-cache", "--target", "export", "--output-format", "json", str(FIXTURE))
    found = sorted((f["code"], f["location"]["row"]) for f in json.loads(result.stdout))
    assert found == [("EXP101", 43), ("EXP101", 46), ("EXP104", 30), ("EXP105", 25), ("EXP201", 40),
                     ("EXP203", 37), ("EXP205", 46), ("EXP207", 32), ("EXP301", 28), ("EXP301", 39)]
    text = jitlint("check", "--no-cache", "--target", "export", str(FIXTURE))
    assert text.returncode == 1
    assert text.stdout.splitlines()[-1] == (
        "Found 10 findings in 1 file (4 errors, 4 warnings, 2 infos). torch.export: 4 rejected, 4 silent changes, "
        "2 TorchScript-only constructs no longer needed.")


def test_rules_listing_knows_the_target():
    result = jitlint("rules", "--target", "export")
    codes = [line.split()[0] for line in result.stdout.splitlines()]
    assert "EXP101" in codes and not any(code.startswith("JIT1") for code in codes)
