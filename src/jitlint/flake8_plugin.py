"""jitlint as a flake8 plugin (`JIT` codes): the same engine and rules, one file at a time.

flake8 hands each file over separately; the engine still reads the project modules it imports from disk, so base
classes and helpers in other files are seen. flake8 adds 1 to the column a plugin yields, so this yields the
0-based column and flake8 users see the same 1-based columns as `jitlint check`.
"""

from __future__ import annotations

from pathlib import Path

from jitlint import __version__


class JitlintChecker:
    name = "jitlint"
    version = __version__

    def __init__(self, tree, filename: str, lines: list[str]) -> None:
        self.filename = filename
        self.lines = lines

    def run(self):
        from jitlint.config import Config, load_config
        from jitlint.engine import StdinSource, lint
        from jitlint.rules import RULES_BY_CODE

        path = Path(self.filename)
        try:
            config = load_config(None, path.parent if path.parent.exists() else Path.cwd())
        except Exception:  # configuration problems are `jitlint check`'s to report, not flake8's
            config = Config()
        source = StdinSource(self.filename, "".join(self.lines).encode("utf-8"))
        # The plugin is registered for the `JIT` prefix: every rule of the script target and the shared file codes.
        codes = {code for code in RULES_BY_CODE if code.startswith("JIT")}
        for finding in lint([], config, codes, stdin=source):
            yield finding.location.row, finding.location.column - 1, f"{finding.code} {finding.message}", type(self)
