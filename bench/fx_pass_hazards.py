"""The FX graph-pass hazards of the shared catalog, as cases (`tests/data/fx_pass_hazards/`), against torch and jitlint.

    python bench/fx_pass_hazards.py                  # run every case with torch, lint them, print the table
    python bench/fx_pass_hazards.py --silence DIR... # also lint DIR (torch's own pass code) with --select FX1

A hazard case (`hNN_*.py`) says in its header what torch 2.13 does (`# torch-error: <text>` or `# torch: silent`)
and marks the line a rule should flag (`# hazard: FXnnn`, or `# hazard` where no rule does yet). A correct case (`cNN_*.py`) runs cleanly and must not
be flagged. torch's side: each case runs as a script in a child process (an error with the header's text, or none
for silent and correct cases). jitlint's side: `jitlint check --target fx --select FX1` on the cases. Found = an
FX1 finding on the marked line (any FX1 code; the expected one is reported too).
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CASES = ROOT / "tests" / "data" / "fx_pass_hazards"
MARK = re.compile(r"^\s*[^#\s].*  # hazard(?:: (FX\d{3}))?")

_RUNNER = r"""
import json, runpy, sys, traceback, warnings
warnings.simplefilter("ignore")
results = {}
for path in sys.argv[1:]:
    try:
        runpy.run_path(path, run_name="__main__")
        results[path] = {"ok": True}
    except BaseException as error:
        results[path] = {"ok": False, "type": type(error).__name__, "message": str(error)}
print(json.dumps(results))
"""


def cases() -> list[Path]:
    return sorted(CASES.glob("[hc]*.py"))


def header(path: Path) -> dict:
    text = path.read_text()
    error = re.search(r"^# torch-error: (.*)$", text, re.M)
    return {"error": error.group(1).strip() if error else None,
            "marks": [(row, m.group(1)) for row, line in enumerate(text.splitlines(), 1) if (m := MARK.search(line))],
            "hazard": path.name.startswith("h")}


def run_torch(paths: list[Path]) -> dict[str, dict]:
    completed = subprocess.run([sys.executable, "-c", _RUNNER, *map(str, paths)], capture_output=True, text=True,
                               timeout=600)
    if completed.returncode != 0:
        raise RuntimeError(completed.stderr[-2000:])
    return json.loads(completed.stdout.strip().splitlines()[-1])


def lint(paths: list[Path]) -> list[dict]:
    completed = subprocess.run([sys.executable, "-m", "jitlint", "check", "--target", "fx", "--select", "FX1",
                                "--no-cache", "--output-format", "json", "--exit-zero", *map(str, paths)],
                               capture_output=True, text=True, cwd=ROOT)
    return json.loads(completed.stdout or "[]")


def torch_agrees(info: dict, result: dict) -> bool:
    if info["error"] is None:
        return result["ok"]
    return not result["ok"] and info["error"] in result["message"]


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--silence", nargs="*", default=[], help="pass code to lint with FX1 (expected: silent)")
    arguments = parser.parse_args()
    paths = cases()
    torch_results = run_torch(paths)
    findings = lint(paths)
    by_file: dict[str, list[dict]] = {}
    for finding in findings:
        by_file.setdefault(Path(finding["filename"]).name, []).append(finding)
    hazards = found = exact = 0
    correct = quiet = 0
    torch_ok = 0
    for path in paths:
        info = header(path)
        agrees = torch_agrees(info, torch_results[str(path)])
        torch_ok += agrees
        got = by_file.get(path.name, [])
        if info["hazard"]:
            hazards += 1
            (row, code), = info["marks"]
            code = code or "no rule"
            at = [f["code"] for f in got if f["location"]["row"] == row]
            found += bool(at)
            exact += code in at
            status = "FOUND" if at else "miss "
            print(f"{status} {path.name}: expected {code} at {row}; jitlint {sorted(at) or '-'}; "
                  f"others {[(f['code'], f['location']['row']) for f in got if f['location']['row'] != row]}"
                  f"{'' if agrees else '  TORCH DISAGREES: ' + str(torch_results[str(path)])}")
        else:
            correct += 1
            quiet += not got
            print(f"{'quiet' if not got else 'NOISY'} {path.name}: {[(f['code'], f['location']['row']) for f in got]}"
                  f"{'' if agrees else '  TORCH DISAGREES: ' + str(torch_results[str(path)])}")
    print(f"\nhazard cases found: {found} of {hazards} ({exact} with the expected rule); correct passes silent: "
          f"{quiet} of {correct}; torch agrees with {torch_ok} of {len(paths)} case headers")
    for directory in arguments.silence:
        files = [p for p in Path(directory).rglob("*.py")]
        result = lint(files) if files else []
        print(f"{directory}: {len(files)} files, FX1 findings: {len(result)}")
        for finding in result:
            print(f"   {finding['filename']}:{finding['location']['row']} {finding['code']} {finding['message'][:100]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
