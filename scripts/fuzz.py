"""A longer fuzz run than the test suite's: lint programs generated from Python's grammar (hypothesmith) and
check that jitlint never raises, never reports an internal error, and gives the same findings twice.

Usage: python scripts/fuzz.py [--examples N]   (prints how many programs ran; exits 1 on the first failure)
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path


def main() -> None:
    import hypothesmith
    from hypothesis import HealthCheck, given, settings

    from jitlint.config import Config
    from jitlint.engine import StdinSource, lint
    from jitlint.rules import RULES_BY_CODE

    parser = argparse.ArgumentParser()
    parser.add_argument("--examples", type=int, default=2000)
    args = parser.parse_args()
    directory = Path(tempfile.mkdtemp())
    count = 0

    @settings(max_examples=args.examples, deadline=None, suppress_health_check=list(HealthCheck))
    @given(hypothesmith.from_grammar(auto_target=False) | hypothesmith.from_node(auto_target=False))
    def check(source: str) -> None:
        nonlocal count
        source = "import torch\nimport torch.nn as nn\n" + source
        run = lambda: lint([], Config(root=directory), set(RULES_BY_CODE), stdin=StdinSource(str(directory / "f.py"), source.encode()))
        first, second = run(), run()
        assert [f.to_json() for f in first] == [f.to_json() for f in second], source
        assert all(f.code != "JIT003" for f in first), (source, [f.message for f in first])
        count += 1

    check()
    print(f"{count} generated programs linted twice: no exception, no internal error, same findings")


if __name__ == "__main__":
    sys.exit(main())
