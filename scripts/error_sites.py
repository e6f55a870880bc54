"""The TorchScript frontend's error sites: load the table, render its page, and (for development) probe the cases.

    python scripts/error_sites.py            # rewrite rules/script/error-sites.md from the table
    python scripts/error_sites.py --check    # exit 1 if the page is stale
    python scripts/error_sites.py --probe [ID ...]   # run torch and jitlint on the cases, print what each says

The table is `src/jitlint/targets/script/error_sites.toml`: one row per distinct error message torch 2.13's
TorchScript frontend can raise, with where torch raises it, whether user code can reach it through
`torch.jit.script`, the jitlint rule that reports it (or why none does), and a case verified on torch 2.13.
`tests/test_error_sites.py` keeps the cases and the claimed rules true.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TABLE = ROOT / "src" / "jitlint" / "targets" / "script" / "error_sites.toml"
PAGE = ROOT / "rules" / "script" / "error-sites.md"

ERROR_MARK = "# torch-error-line"  # the line torch's message names
SITE_MARK = "# site-line"  # where the error is caused, for a message that names no line of the file
_CODE = re.compile(r"^[A-Z]{2,3}\d{3}$")
_ID = re.compile(r"^[a-z_]+\.[a-z0-9-]+$")
_FIELDS = {"id", "file", "function", "line", "other_lines", "template", "pattern", "reachable", "rule", "why",
           "case", "no_case", "located", "stage", "note"}
# When torch raises: "script" (a torch.jit.script call, the module's own or the oracle's) or "import" (a TorchScript
# decorator that compiles while the module is imported: `torch.jit.interface`, `torch.jit._overload`, ...).
STAGES = ("script", "import")


@dataclass(frozen=True)
class Site:
    id: str
    file: str  # the source file in pytorch/pytorch (C++) or in the installed torch (Python)
    function: str
    line: int | None
    template: str
    reachable: bool
    rule: str  # a jitlint code, or "no"
    why: str = ""  # why not reachable, or what jitlint would need to know to model it
    case: str = ""
    no_case: str = ""  # why there is no case yet (a reachable row only)
    located: bool = True  # torch's message names a line of the case
    stage: str = "script"
    pattern: str = ""  # a regex, when the template alone does not find the message
    other_lines: tuple[int, ...] = ()
    note: str = ""

    @property
    def modelled(self) -> bool:
        return self.rule != "no"

    @property
    def regex(self) -> re.Pattern:
        return re.compile(self.pattern or template_regex(self.template), re.DOTALL)

    @property
    def marked_line(self) -> int | None:
        """The line of the case marked with the marker its row needs (torch's line, or the causing line)."""
        mark = ERROR_MARK if self.located else SITE_MARK
        rows = [n for n, text in enumerate(self.case.splitlines(), 1) if text.rstrip().endswith(mark)]
        return rows[0] if len(rows) == 1 else None


@dataclass
class Table:
    meta: dict
    sites: list[Site] = field(default_factory=list)

    @property
    def reachable(self) -> list[Site]:
        return [site for site in self.sites if site.reachable]

    @property
    def modelled(self) -> list[Site]:
        return [site for site in self.reachable if site.modelled]


def template_regex(template: str) -> str:
    """`{placeholder}` matches anything, runs of whitespace match any whitespace, the rest is literal."""
    parts = re.split(r"(\{[^{}]*\})", template)
    out = []
    for part in parts:
        if part.startswith("{") and part.endswith("}"):
            out.append(".*?")
        else:
            out.append(r"\s+".join(re.escape(chunk) for chunk in part.split()) if part.strip() else r"\s*")
            if part[:1].isspace() and part.strip():
                out[-1] = r"\s*" + out[-1]
            if part[-1:].isspace() and part.strip():
                out[-1] = out[-1] + r"\s*"
    return "".join(out)


def normalise(text: str) -> str:
    return " ".join(text.split())


def load(path: Path = TABLE) -> Table:
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    sites = []
    for raw in data.get("site", []):
        unknown = set(raw) - _FIELDS
        if unknown:
            raise ValueError(f"{raw.get('id')}: unknown fields {sorted(unknown)}")
        sites.append(Site(
            id=raw["id"], file=raw["file"], function=raw["function"], line=raw.get("line"),
            template=raw["template"], reachable=raw["reachable"], rule=raw["rule"], why=raw.get("why", ""),
            case=raw.get("case", ""), no_case=raw.get("no_case", ""), located=raw.get("located", True),
            pattern=raw.get("pattern", ""), stage=raw.get("stage", "script"), other_lines=tuple(raw.get("other_lines", ())), note=raw.get("note", ""),
        ))
    return Table(data.get("meta", {}), sites)


def problems(table: Table, known_codes: set[str]) -> list[str]:
    """What makes the table inconsistent (checked by the tests; empty when it is sound)."""
    found = []
    seen = set()
    for site in table.sites:
        where = site.id
        if not _ID.match(site.id):
            found.append(f"{where}: an id is `file_stem.kebab-name`")
        if site.id in seen:
            found.append(f"{where}: duplicate id")
        seen.add(site.id)
        if site.rule != "no" and site.rule not in known_codes:
            found.append(f"{where}: rule {site.rule!r} is not a script code")
        if not site.reachable:
            if not site.why:
                found.append(f"{where}: an unreachable row says why")
            if site.rule != "no":
                found.append(f"{where}: an unreachable row claims no rule")
            continue
        if site.stage not in STAGES:
            found.append(f"{where}: stage is one of {STAGES}")
        if site.rule == "no" and not site.why:
            found.append(f"{where}: an unmodelled row says what jitlint would need")
        if not site.case and not site.no_case:
            found.append(f"{where}: a reachable row has a case or says why not (`no_case`)")
        if site.case and site.marked_line is None:
            mark = ERROR_MARK if site.located else SITE_MARK
            found.append(f"{where}: the case marks exactly one line with `{mark}`")
        if site.rule != "no" and not site.case:
            found.append(f"{where}: a modelled row has a case")
        try:
            re.compile(site.pattern or template_regex(site.template))
        except re.error as error:
            found.append(f"{where}: bad pattern: {error}")
    return found


# ---------------------------------------------------------------------------------------------------------------
# The page

def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _code(text: str) -> str:
    """A code span that holds backticks too (Markdown: a longer fence, padded with spaces)."""
    text = _cell(text)
    return f"`` {text} ``" if "`" in text else f"`{text}`"


def page_text(table: Table | None = None) -> str:
    table = table or load()
    reachable, modelled = table.reachable, table.modelled
    with_case = [site for site in reachable if site.case]
    meta = table.meta
    lines = [
        "# The TorchScript frontend's error sites",
        "",
        "GENERATED by `scripts/error_sites.py` from `src/jitlint/targets/script/error_sites.toml`: do not edit.",
        "",
        f"Every error message the TorchScript frontend of torch {meta.get('torch', '2.13.0')} raises on user code, "
        "where torch raises it, whether `torch.jit.script` can reach it from user code, and the jitlint rule that "
        "reports it on the row's case (or what jitlint would need to know). Each reachable row has a case of its own "
        "that torch rejects with that message at the marked line; `tests/test_error_sites.py` checks the cases "
        "against torch and each claimed rule against jitlint.",
        "",
        f"- C++ sources read: {meta.get('cpp_source', '')}",
        f"- Python sources read: {meta.get('python_source', '')}",
        f"- Rows: **{len(table.sites)}**; reachable from user code: **{len(reachable)}**; with a verified case: "
        f"**{len(with_case)}**; without a case yet: **{len(reachable) - len(with_case)}**",
        f"- **Coverage: {len(modelled)} / {len(reachable)} reachable rows are modelled by a rule "
        f"({100 * len(modelled) / max(1, len(reachable)):.0f}%)**",
        "",
    ]
    by_file: dict[str, list[Site]] = {}
    for site in table.sites:
        by_file.setdefault(site.file, []).append(site)
    lines.append("| source file | rows | reachable | modelled |")
    lines.append("| --- | --- | --- | --- |")
    for path, sites in by_file.items():
        reach = [s for s in sites if s.reachable]
        lines.append(f"| `{path}` | {len(sites)} | {len(reach)} | {sum(1 for s in reach if s.modelled)} |")
    for path, sites in by_file.items():
        lines += ["", f"## `{path}`", "", "| id | message | where | reachable | modelled by |",
                  "| --- | --- | --- | --- | --- |"]
        for site in sites:
            where = site.function + (f" (line {site.line})" if site.line else "")
            reach = "yes" if site.reachable else f"no: {site.why}"
            if not site.reachable:
                model = ""
            elif site.modelled:
                model = f"[{site.rule}]({site.rule}.md)"
            else:
                model = f"no: {site.why}"
            if site.reachable and not site.case:
                model += f" (no case yet: {site.no_case})"
            lines.append(f"| `{site.id}` | {_code(site.template)} | {_cell(where)} | {_cell(reach)} "
                         f"| {_cell(model)} |")
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------------------------------------------
# Running the cases: torch in child processes, jitlint in this one

_CHILD = r"""
import json, sys, traceback
sys.path.insert(0, sys.argv[1])
from pathlib import Path
from oracles.script import script_file
directory = Path(sys.argv[2])
for line in sys.stdin:
    job = json.loads(line)
    path = directory / f"{job['name']}.py"
    path.write_text(job["source"])
    try:
        result = script_file(path)
        out = {"id": job["id"], "ok": result.ok, "stage": result.stage, "line": result.line,
               "message": result.message_full, "error_type": result.error_type}
    except BaseException as error:
        out = {"id": job["id"], "ok": False, "stage": "runner", "line": None,
               "message": "".join(traceback.format_exception(error)), "error_type": type(error).__name__}
    print(json.dumps(out), flush=True)
"""


def _module_name(site_id: str) -> str:
    return "site_" + re.sub(r"[^a-z0-9]", "_", site_id)


def run_torch(sites: list[Site], workers: int = 2, timeout: float = 600) -> dict[str, dict]:
    """Script each site's case with torch in child processes (a crash costs one case, not the run)."""
    pending = [site for site in sites if site.case]
    results: dict[str, dict] = {}
    with tempfile.TemporaryDirectory(prefix="error-sites-") as tmp:
        chunks = [pending[i::workers] for i in range(workers)]
        procs = []
        for chunk in chunks:
            if not chunk:
                continue
            procs.append((chunk, _start_child(tmp, chunk)))
        for chunk, proc in procs:
            _collect(proc, chunk, tmp, results, timeout)
    return results


def _start_child(tmp: str, chunk: list[Site]) -> subprocess.Popen:
    env = dict(os.environ, PYTHONWARNINGS="ignore", PYTHONDONTWRITEBYTECODE="1")
    proc = subprocess.Popen([sys.executable, "-c", _CHILD, str(ROOT / "tests"), tmp], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env, cwd=tmp)
    jobs = "".join(json.dumps({"id": s.id, "name": _module_name(s.id), "source": s.case}) + "\n" for s in chunk)
    proc.stdin.write(jobs)
    proc.stdin.close()
    return proc


def _collect(proc: subprocess.Popen, chunk: list[Site], tmp: str, results: dict, timeout: float) -> None:
    done = set()
    for line in proc.stdout:
        out = json.loads(line)
        results[out["id"]] = out
        done.add(out["id"])
    proc.wait(timeout=timeout)
    rest = [site for site in chunk if site.id not in done]
    if rest:  # the child died on rest[0]: record that, go on with the others in a fresh child
        results[rest[0].id] = {"id": rest[0].id, "ok": False, "stage": "crash", "line": None,
                               "message": f"the child process died (exit {proc.returncode})", "error_type": ""}
        if rest[1:]:
            _collect(_start_child(tmp, rest[1:]), rest[1:], tmp, results, timeout)


def torch_says(site: Site, result: dict) -> list[str]:
    """Why torch's result does not bear the row out (empty when it does)."""
    wrong = []
    # The oracle counts what a compiling decorator (`torch.jit.interface`, `torch.jit._overload`) raises while the
    # module is imported as the tool's own stage, "script".
    stages = {site.stage, "script"} if site.stage == "import" else {site.stage}
    if result.get("stage") not in stages:
        wrong.append(f"not rejected at stage {site.stage}: {result.get('stage')}: {result.get('message', '')[:300]}")
        return wrong
    if not site.regex.search(normalise(result["message"])) and not site.regex.search(result["message"]):
        wrong.append(f"message does not match the template: {result['message'][:400]!r}")
    if site.located and result.get("line") != site.marked_line:
        wrong.append(f"torch names line {result.get('line')}, the case marks {site.marked_line}")
    if not site.located and result.get("line") is not None:
        wrong.append(f"torch names line {result.get('line')}, but the row says it names none")
    return wrong


def lint_case(site: Site) -> list[tuple[str, int, str]]:
    """jitlint's script findings on the case: (code, row, message)."""
    sys.path.insert(0, str(ROOT / "src"))
    from jitlint.codes import TARGET_OF
    from jitlint.config import Config
    from jitlint.engine import lint

    codes = {code for code, target in TARGET_OF.items() if target in ("script", None)}
    with tempfile.TemporaryDirectory(prefix="error-site-lint-") as tmp:
        path = Path(tmp) / f"{_module_name(site.id)}.py"
        path.write_text(site.case)
        findings = lint([path], Config(root=Path(tmp)), codes)
    return [(f.code, f.location.row, f.message) for f in findings]


def covered(source: str, finding_row: int, line: int) -> bool:
    """Does a finding on `finding_row` point at `line` (the same line, or the statement header that holds it)?"""
    sys.path.insert(0, str(ROOT / "tests"))
    from oracles import covered_lines

    return finding_row == line or line in covered_lines(source, finding_row)


def probe(ids: list[str]) -> int:
    table = load()
    sites = [s for s in table.sites if s.reachable and s.case and (not ids or s.id in ids or
                                                                   any(s.id.startswith(i) for i in ids))]
    results = run_torch(sites)
    bad = 0
    for site in sites:
        result = results.get(site.id, {})
        wrong = torch_says(site, result)
        line = site.marked_line
        findings = lint_case(site)
        at_line = sorted({code for code, row, _ in findings if line and covered(site.case, row, line)})
        status = "OK " if not wrong else "BAD"
        bad += bool(wrong)
        claim = site.rule
        mark = "" if claim == "no" or claim in at_line else f"  <-- claims {claim}, not found"
        print(f"{status} {site.id}: torch line {result.get('line')} (marked {line}); jitlint at line: "
              f"{','.join(at_line) or '-'}; rule={claim}{mark}")
        for problem in wrong:
            print("      " + problem)
        if os.environ.get("PROBE_VERBOSE"):
            print("      torch: " + normalise(result.get("message", ""))[:200])
            for code, row, message in findings:
                if line and covered(site.case, row, line):
                    print(f"      {code} {row}: {message[:200]}")
    print(f"{len(sites) - bad}/{len(sites)} cases bear their rows out")
    return 1 if bad else 0


def reached_by(paths: list[str]) -> int:
    """The reachable rows whose message some differential program's torch verdict matched (its first line)."""
    messages = []
    for path in paths:
        with open(path, encoding="utf-8") as stream:
            for line in stream:
                verdict = json.loads(line)["torch"]
                if verdict["status"] == "rejected":
                    messages.append(normalise(verdict["message"]))
    rows = load().reachable
    never = [site for site in rows if not any(site.regex.search(message) for message in messages)]
    print(f"{len(messages)} rejected programs; {len(rows) - len(never)} of {len(rows)} reachable rows matched")
    for site in never:
        print(f"  never: {site.id} ({site.rule})")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 if the page is stale")
    parser.add_argument("--probe", nargs="*", metavar="ID", help="run torch and jitlint on the cases (ids or prefixes)")
    parser.add_argument("--reached-by", nargs="+", metavar="JSONL",
                        help="which reachable rows torch's first message line matched in differential runs "
                             "(their programs.jsonl); print the count and the rows never matched")
    args = parser.parse_args()
    if args.probe is not None:
        return probe(args.probe)
    if args.reached_by:
        return reached_by(args.reached_by)
    text = page_text()
    current = PAGE.read_text(encoding="utf-8") if PAGE.exists() else ""
    if args.check:
        if current != text:
            print(f"stale: {PAGE.relative_to(ROOT)} (run `python scripts/error_sites.py`)")
            return 1
        return 0
    if current != text:
        PAGE.write_text(text, encoding="utf-8")
        print(f"wrote {PAGE.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
