"""The share of rule-page bad examples that `--fix` (and `--fix --unsafe-fixes`) turns into code torch scripts.

Usage: python bench/fix_share.py   (needs torch; prints one line per mode and the codes that now script)
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from jitlint import pages  # noqa: E402
from torch_oracle import script_file  # noqa: E402


def main() -> None:
    rejected = [page for page in pages.all_pages() if page.torch_verdict == "rejects"]
    for label, flags in (("--fix", ["--fix"]), ("--fix --unsafe-fixes", ["--fix", "--unsafe-fixes"])):
        scripts = []
        with tempfile.TemporaryDirectory() as directory:
            for page in rejected:
                path = Path(directory) / f"{page.code.lower()}.py"
                path.write_text(page.bad)
                subprocess.run([sys.executable, "-m", "jitlint", "check", "-q", *flags, str(path)], capture_output=True)
                if path.read_text() != page.bad and script_file(path).ok:
                    scripts.append(page.code)
        print(f"{label}: {len(scripts)}/{len(rejected)} bad examples now script ({100 * len(scripts) / len(rejected):.0f}%): "
              f"{' '.join(scripts)}")


if __name__ == "__main__":
    main()
