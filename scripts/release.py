"""The release step: check that the version is ready, and tag it.

    python scripts/release.py          # tags v<version> (annotated), from a clean work tree
    python scripts/release.py --check  # only checks

The version is `jitlint.__version__` (src/jitlint/__init__.py); CHANGELOG.md must have a `## <version>` section
with its date. The tag `v<version>` is what the README's pre-commit snippet names as `rev:` (pre-commit also takes a
commit hash); push it with `git push origin v<version>`.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def version() -> str:
    text = (ROOT / "src" / "jitlint" / "__init__.py").read_text()
    return re.search(r'^__version__ = "([^"]+)"', text, re.M).group(1)


def problems(current: str) -> list[str]:
    found = []
    changelog = ROOT / "CHANGELOG.md"
    if not changelog.is_file() or not re.search(rf"^## {re.escape(current)} \(\d{{4}}-\d{{2}}-\d{{2}}\)$",
                                                  changelog.read_text(), re.M):
        found.append(f"CHANGELOG.md has no `## {current} (YYYY-MM-DD)` section")
    readme = (ROOT / "README.md").read_text()
    if f"rev: v{current}" not in readme:
        found.append(f"the README's pre-commit snippet does not name `rev: v{current}`")
    status = subprocess.run(["git", "status", "--porcelain"], cwd=ROOT, capture_output=True, text=True)
    if status.returncode != 0 or status.stdout.strip():
        found.append("the work tree is not clean (or not a git repository)")
    tags = subprocess.run(["git", "tag", "--list", f"v{current}"], cwd=ROOT, capture_output=True, text=True)
    if tags.stdout.strip():
        found.append(f"the tag v{current} exists already")
    return found


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--check", action="store_true", help="only check; create no tag")
    args = parser.parse_args()
    current = version()
    found = problems(current)
    for problem in found:
        print(f"release: {problem}", file=sys.stderr)
    if found:
        return 1
    if args.check:
        print(f"release: v{current} is ready to tag")
        return 0
    subprocess.run(["git", "tag", "-a", f"v{current}", "-m", f"jitlint {current}"], cwd=ROOT, check=True)
    print(f"release: tagged v{current}; push it with `git push origin v{current}`")
    return 0


if __name__ == "__main__":
    sys.exit(main())
