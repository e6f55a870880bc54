import sys
import textwrap
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from jitlint.config import Config  # noqa: E402
from jitlint.engine import lint  # noqa: E402
from jitlint.rules import RULES_BY_CODE  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
ALL_CODES = set(RULES_BY_CODE)


def lint_files(files: dict[str, str], root: Path, lint_only=None, codes=None, config=None):
    """Write `files` under `root`, lint `lint_only` (default: all of them), return findings."""
    for name, source in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(source))
    targets = [root / name for name in (lint_only or files)]
    return lint(targets, config or Config(root=root), set(codes or ALL_CODES))


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
