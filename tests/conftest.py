import sys
import textwrap
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from jitlint.config import Config  # noqa: E402
from jitlint.engine import lint  # noqa: E402
from jitlint.codes import TARGET_OF  # noqa: E402
from jitlint.targets import DEFAULT_TARGETS  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
# What a default run enables: the default targets' codes and the shared file codes. A test of another target passes
# its codes (`codes_for("fx")`).
DEFAULT_CODES = {code for code, target in TARGET_OF.items() if target in (*DEFAULT_TARGETS, None)}


def codes_for(*targets: str) -> set[str]:
    return {code for code, target in TARGET_OF.items() if target in (*targets, None)}


def lint_files(files: dict[str, str], root: Path, lint_only=None, codes=None, config=None):
    """Write `files` under `root`, lint `lint_only` (default: all of them), return findings."""
    for name, source in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(source))
    targets = [root / name for name in (lint_only or files)]
    return lint(targets, config or Config(root=root), set(codes or DEFAULT_CODES))


@pytest.fixture
def lint_source(tmp_path):
    """Lint one module's source; returns the findings."""

    def run(source: str, codes=None, filename: str = "model.py"):
        return lint_files({filename: source}, tmp_path, codes=codes)

    return run


@pytest.fixture
def codes_of(lint_source):
    def run(source: str, **kwargs):
        return [(f.code, f.location.row) for f in lint_source(source, **kwargs)]

    return run
