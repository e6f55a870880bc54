"""The case files: `tests/cases/<target>/<topic>/<name>.py`, each checked against jitlint and against the real tool.

A case is plain Python. Its first lines are header comments:

- `# case: <what it shows>` (required);
- `# torch: accepts | rejects | changes | breaks | recompiles` (required): what the real tool of the pinned torch
  does with it (`tests/oracles`);
- `# torch-error: <text>`: a part of the tool's message (up to whitespace and addresses);
- `# torch-line: none`: the tool names no line of the file (a whole-class rejection);
- `# settings: key = value, ...`: the target's settings for the run (`[tool.jitlint.<target>]`, TOML values);
- `# inputs: <expression>`: the example inputs (export, trace); a target's own headers follow the same form.

A value goes on over the next comment lines indented by at least two spaces after the `#`.

A line where jitlint reports ends with a mark: a comment holding `<severity>: <code>[, <code>...]` (severity
`error`, `warning` or `info`; several groups may follow each other). The jitlint check lints the case with every
code of its target (and the shared file codes): every finding must be marked, every mark found, with the
severity it says. The tool check (`@pytest.mark.torch`) runs the target's oracle: a case that `accepts` must go
through; one that `rejects` must be rejected by the tool itself, with its message when the header quotes it, at
one of the marked lines (the smallest statement around it, as `oracles.points_at` says), or at no line when the
header says so.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

CASES = Path(__file__).parent / "cases"
HEADER = re.compile(r"#\s*([a-z][a-z0-9-]*):\s*(.*)$")
CONTINUED = re.compile(r"#\s{2,}(\S.*)$")
MARK = re.compile(r"\b(error|warning|info):\s*([A-Z]+\d{3}(?:\s*,\s*[A-Z]+\d{3})*)")


class Case:
    """One case file: its target (the first folder under `root`), header values and marks."""

    def __init__(self, path: Path, root: Path = CASES) -> None:
        self.path = path
        self.target = path.relative_to(root).parts[0]
        self.source = path.read_text(encoding="utf-8")
        self.header: dict[str, str] = {}
        key = None
        for line in self.source.splitlines():
            match = HEADER.match(line)
            if match is None:
                continued = CONTINUED.match(line)
                if continued is None or key is None:
                    break
                self.header[key] += " " + continued.group(1).strip()  # an indented line goes on with the value
                continue
            key = match.group(1)
            self.header[key] = match.group(2).strip()
        self.marks: set[tuple[int, str, str]] = set()  # (row, code, severity)
        for row, line in enumerate(self.source.splitlines(), 1):
            if "#" not in line or HEADER.match(line):
                continue
            comment = line[line.index("#"):]
            for severity, codes in MARK.findall(comment):
                self.marks.update((row, code.strip(), severity) for code in codes.split(","))

    def settings(self) -> dict:
        text = self.header.get("settings", "")
        return tomllib.loads("\n".join(part.strip() for part in text.split(","))) if text else {}


    def get(self, key: str) -> str:
        """A header's value, or "" when the case has none."""
        return self.header.get(key, "")

    def marked(self, prefix: str = "") -> list[tuple[str, int]]:
        """(code, row) of each mark whose code starts with `prefix`, sorted."""
        return sorted((code, row) for row, code, _severity in self.marks if code.startswith(prefix))

    def rows_saying(self, text: str) -> set[int]:
        """The rows whose comment holds `text` (`# unreported:`)."""
        return {row for row, line in enumerate(self.source.splitlines(), 1)
                if "#" in line and text in line[line.index("#"):]}


def all_cases(target: str | None = None) -> list[Path]:
    return sorted((CASES / target if target else CASES).rglob("*.py"))


def case_id(path: Path) -> str:
    return str(path.relative_to(CASES).with_suffix(""))
