"""The version a user can pin: the release step tags `v<version>`, the README's pre-commit snippet names that tag,
and the real `pre-commit` installs the hook from a repository at that tag and runs it."""

import os
import re
import subprocess
import sys
from pathlib import Path

from jitlint import __version__

from test_integrations import BROKEN, CLEAN, _git_repo

ROOT = Path(__file__).resolve().parents[1]


def test_the_readme_names_the_tag_of_this_version_and_the_changelog_has_it():
    readme = (ROOT / "README.md").read_text()
    assert re.findall(r"^\s+rev: (\S+)", readme, re.M) == [f"v{__version__}"]
    assert re.search(rf"^## {re.escape(__version__)} \(\d{{4}}-\d{{2}}-\d{{2}}\)$",
                     (ROOT / "CHANGELOG.md").read_text(), re.M)


def test_pre_commit_runs_the_hook_from_the_tag_the_release_step_creates(tmp_path):
    source = tmp_path / "jitlint"
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@t"}
    # The repository as committed, as a user's clone of it (what pre-commit fetches is committed history).
    subprocess.run(["git", "clone", "-q", str(ROOT), str(source)], check=True, env=env)
    released = subprocess.run([sys.executable, "scripts/release.py"], cwd=source, capture_output=True, text=True,
                              env=env)
    assert released.returncode == 0, released.stderr
    tags = subprocess.run(["git", "tag"], cwd=source, capture_output=True, text=True).stdout.split()
    assert tags == [f"v{__version__}"]
    rev = re.findall(r"^\s+rev: (\S+)", (source / "README.md").read_text(), re.M)[0]
    repo, env = _git_repo(tmp_path)
    (repo / ".pre-commit-config.yaml").write_text(
        f"repos:\n  - repo: {source}\n    rev: {rev}\n    hooks:\n      - id: jitlint\n")
    (repo / "model.py").write_text(BROKEN)
    (repo / "clean.py").write_text(CLEAN)
    subprocess.run(["git", "add", "."], cwd=repo, check=True)
    run = [sys.executable, "-m", "pre_commit", "run", "--files"]
    failing = subprocess.run([*run, "model.py"], cwd=repo, capture_output=True, text=True, env=env, timeout=900)
    assert failing.returncode == 1, failing.stdout + failing.stderr
    assert "model.py:27:17: JIT301" in failing.stdout
    passing = subprocess.run([*run, "clean.py"], cwd=repo, capture_output=True, text=True, env=env, timeout=900)
    assert passing.returncode == 0 and "Passed" in passing.stdout, passing.stdout + passing.stderr
