"""The one shared run over a project that exercises the host and the script strategy together (each run starts
torch in its children, so most scenarios share it)."""

import json
import textwrap
import time

import pytest

from .project import SHARED_PROJECT, pages_files, run_jitlint, write_project


@pytest.fixture(scope="session")
def shared_run(tmp_path_factory):
    """One `jitlint check --dynamic` (the script target) over `SHARED_PROJECT` and every script page's examples:
    (root, the completed process, its JSON findings, how long it took)."""
    root = tmp_path_factory.mktemp("project")
    write_project(root, {name: textwrap.dedent(text) if name.endswith((".toml", "factories.py")) else text
                         for name, text in {**SHARED_PROJECT, **pages_files()}.items()})
    started = time.monotonic()
    result = run_jitlint("--dynamic", "--output-format", "json", ".", cwd=root)
    elapsed = time.monotonic() - started
    findings = json.loads(result.stdout)  # must be valid JSON whatever the user's code printed
    return root, result, findings, elapsed
