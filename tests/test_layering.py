"""Target-neutral modules do not depend on a capture target: targets plug into them, not the other way round."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

import jitlint

SRC = str(Path(jitlint.__file__).resolve().parent.parent)  # the tree under test, whatever is installed


@pytest.mark.parametrize("module", ["jitlint.project", "jitlint.facts.flow", "jitlint.literals", "jitlint.pruning",
                                    "jitlint.facts.config_flags"])
def test_target_neutral_module_imports_no_target(module):
    code = f"import sys, {module}; print(sorted(m for m in sys.modules if m.startswith('jitlint.targets')))"
    env = {**os.environ, "PYTHONPATH": SRC}
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env)
    assert result.stdout.strip() == "[]"
