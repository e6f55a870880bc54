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


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    """Keep on one xdist worker the tests that share a module- or session-scoped fixture of this suite.

    Those fixtures are the suite's batches (one torch child process, or one `jitlint --dynamic` run, for all the
    cases of a file): with xdist's default `--dist load` each worker that receives one of their tests builds the
    batch again. Here each such test gets an `xdist_group` mark (`--dist loadgroup`, set in pyproject.toml) named
    after the batch; tests sharing two batches join both into one group. Every other test is still balanced one by
    one."""
    parent: dict[str, str] = {}

    def find(key: str) -> str:
        while parent.setdefault(key, key) != key:
            parent[key] = parent[parent[key]]
            key = parent[key]
        return key

    keys_of = {}
    for item in items:
        keys = []
        info = getattr(item, "_fixtureinfo", None)  # doctests and other non-function items have none
        for name, definitions in (info.name2fixturedefs.items() if info else ()):
            definition = definitions[-1]
            if definition.scope == "function" or not _defined_in_suite(definition.func):
                continue
            # a module-scoped fixture is built once per module that uses it, a session one once for the run
            scope_id = item.module.__name__ if definition.scope in ("module", "class") else "session"
            keys.append(f"{scope_id}:{name}")
        for key in keys[1:]:
            parent[find(key)] = find(keys[0])
        if keys:
            keys_of[item] = keys[0]
    for item, key in keys_of.items():
        item.add_marker(pytest.mark.xdist_group(find(key)))


def _defined_in_suite(function) -> bool:
    try:
        return Path(function.__code__.co_filename).resolve().is_relative_to(Path(__file__).parent)
    except AttributeError:
        return False
