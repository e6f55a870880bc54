"""Score the compile target against what torch.compile did on real models (bench/compile_truth.py's records).

    python bench/compile_accuracy.py --truth truth-torchvision.json --lint lint-torchvision.json \
        --package /work/corpus/torchvision/torchvision [--json scores.json]

`--lint` is `jitlint check --no-cache --target compile --output-format json --exit-zero <package>` on the same
version of the library (the truth's paths are relative to the installed package, the lint's to `--package`).

- **break lines**: the distinct lines where Dynamo broke the graph, each as the innermost frame of the library in
  the break's user-code traceback (for a break inside torch or the standard library, the library's call site).
  Found when a compile finding's statement covers that line (`found`), or only a line further out in the same
  traceback (`found outside`: the finding names a caller);
- **fullgraph lines**: the same for the error `fullgraph=True` raised (torch stops at the first, one per model);
- **recompile lines**: where a failed guard was installed (reported, not scored: they name the line of the guard,
  and the guard of a frame resumed after a break is Dynamo's bookkeeping, not the user's pattern);
- **clean**: models that compiled in one graph (no break, no fullgraph error); every compile finding at a line
  one of them ran (the eager forward's lines, which is what Dynamo traced) is counted against jitlint, except at a
  line of a break's traceback in another model (the same helper called with other values);
- findings at lines that ran in a model that broke but not on any break's traceback, listed for reading (a model
  that fell back to eager early never reached the later lines under Dynamo).
"""

from __future__ import annotations

import argparse
import json
import os
from collections import defaultdict


def _lint(path: str, package: str) -> dict[str, list[dict]]:
    """Compile findings by file relative to the package."""
    found = defaultdict(list)
    for finding in json.load(open(path)):
        if not finding["code"].startswith("DYN"):
            continue
        relative = os.path.relpath(os.path.realpath(finding["filename"]), os.path.realpath(package))
        found[relative].append(finding)
    return found


def _covers(finding: dict, line: int) -> bool:
    return finding["location"]["row"] <= line <= finding["end_location"]["row"]


def _at(findings: dict, file: str, line: int) -> list[dict]:
    return [f for f in findings.get(file, []) if _covers(f, line)]


def score(truth: dict, findings: dict) -> dict:
    measured = {name: item for name, item in truth.items() if "failed" not in item}
    breaks: dict[tuple, dict] = {}
    fullgraph: dict[tuple, dict] = {}
    recompiles: dict[tuple, set] = defaultdict(set)
    for name, item in measured.items():
        for brk in item["breaks"]:
            if not brk["frames"]:
                continue
            file, line = brk["frames"][-1]
            entry = breaks.setdefault((file, line), {"models": set(), "reason": brk["reason"], "id": brk["id"],
                                                     "outer": set()})
            entry["models"].add(name)
            entry["outer"].update(tuple(frame) for frame in brk["frames"][:-1])
        error = item.get("fullgraph")
        if error and error.get("frames"):
            file, line = error["frames"][-1]
            entry = fullgraph.setdefault((file, line), {"models": set(), "reason": error["message"], "outer": set()})
            entry["models"].add(name)
            entry["outer"].update(tuple(frame) for frame in error["frames"][:-1])
        for recompile in item["recompiles"]:
            if recompile["frames"]:
                recompiles[tuple(recompile["frames"][-1])].add(name)

    def judge(table: dict) -> list[dict]:
        rows = []
        for (file, line), entry in sorted(table.items()):
            here = _at(findings, file, line)
            outside = [f for frame in sorted(entry["outer"]) for f in _at(findings, *frame)]
            rows.append({"file": file, "line": line, "reason": entry["reason"][:160], "id": entry.get("id"),
                         "models": sorted(entry["models"]),
                         "found": sorted({f["code"] for f in here}),
                         "found_outside": sorted({f"{f['code']}@{f['location']['row']}" for f in outside})})
        return rows

    # Every line of a break's (or fullgraph error's) user-code traceback: a finding at a caller names the same break.
    break_lines = {key for table in (breaks, fullgraph) for key, entry in table.items()
                   for key in (key, *entry["outer"])}
    clean = [name for name, item in measured.items() if not item["breaks"] and not item.get("fullgraph")]
    clean_lines = {tuple(pair) for name in clean for pair in measured[name]["executed"]}
    false = []
    for file, items in findings.items():
        for finding in items:
            lines = range(finding["location"]["row"], finding["end_location"]["row"] + 1)
            if any((file, line) in break_lines for line in lines):
                continue
            if any((file, line) in clean_lines for line in lines):
                false.append({"file": file, "line": finding["location"]["row"], "code": finding["code"],
                              "message": finding["message"][:160]})
    broken_lines = {tuple(pair) for name, item in measured.items() if name not in clean for pair in item["executed"]}
    unconfirmed = []
    for file, items in findings.items():
        for finding in items:
            lines = range(finding["location"]["row"], finding["end_location"]["row"] + 1)
            if any((file, line) in break_lines for line in lines):
                continue
            if any((file, line) in broken_lines for line in lines) and not any(
                    (file, line) in clean_lines for line in lines):
                unconfirmed.append({"file": file, "line": finding["location"]["row"], "code": finding["code"],
                                    "message": finding["message"][:160]})
    return {
        "models": len(measured), "failed": sorted(set(truth) - set(measured)), "clean": sorted(clean),
        "breaks": judge(breaks), "fullgraph": judge(fullgraph),
        "recompile_lines": [{"file": f, "line": n, "models": sorted(m)} for (f, n), m in sorted(recompiles.items())],
        "false_on_clean": false, "ran_in_broken_models_not_breaking": unconfirmed,
    }


def _summary(result: dict) -> str:
    def count(rows):
        return (len(rows), sum(1 for r in rows if r["found"]),
                sum(1 for r in rows if not r["found"] and r["found_outside"]))

    lines = [f"models measured: {result['models']} (failed to build/run: {', '.join(result['failed']) or 'none'}); "
             f"compiled in one graph: {len(result['clean'])}"]
    for name in ("breaks", "fullgraph"):
        total, found, outside = count(result[name])
        lines.append(f"{name} lines: {total}; found at the line: {found}; found only at an outer frame: {outside}")
        for row in result[name]:
            mark = "found " + ",".join(row["found"]) if row["found"] else (
                "outer " + ",".join(row["found_outside"]) if row["found_outside"] else "MISSED")
            lines.append(f"  {row['file']}:{row['line']} [{row.get('id') or '-'}] {mark}: {row['reason'][:100]} "
                         f"({len(row['models'])} model(s))")
    lines.append(f"recompile guard lines: {len(result['recompile_lines'])}")
    for row in result["recompile_lines"]:
        lines.append(f"  {row['file']}:{row['line']} ({len(row['models'])} model(s))")
    lines.append(f"findings on lines a one-graph model ran: {len(result['false_on_clean'])}")
    for row in result["false_on_clean"]:
        lines.append(f"  {row['file']}:{row['line']} {row['code']}: {row['message'][:110]}")
    lines.append(f"findings on lines only broken models ran, not a break line: "
                 f"{len(result['ran_in_broken_models_not_breaking'])}")
    for row in result["ran_in_broken_models_not_breaking"]:
        lines.append(f"  {row['file']}:{row['line']} {row['code']}: {row['message'][:110]}")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--truth", required=True, nargs="+")
    parser.add_argument("--lint", required=True)
    parser.add_argument("--package", required=True)
    parser.add_argument("--json")
    options = parser.parse_args()
    truth = {}
    for path in options.truth:
        truth.update(json.load(open(path)))
    result = score(truth, _lint(options.lint, options.package))
    print(_summary(result))
    if options.json:
        with open(options.json, "w") as out:
            json.dump(result, out, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
