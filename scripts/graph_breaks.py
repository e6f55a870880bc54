"""TorchDynamo's graph-break sites that user code reaches, as a checked table: src/jitlint/targets/compile/graph_breaks.toml.

    python scripts/graph_breaks.py              # render rules/compile/graph-breaks.md from the table
    python scripts/graph_breaks.py --refresh    # rewrite the table's [registry] summary from the installed torch
    python scripts/graph_breaks.py --probe [KEY ...]   # compile the rows' cases, print torch's break and jitlint's codes

Torch 2.13 lists every graph break it can raise in `torch/_dynamo/graph_break_registry.json` (an id, `GBnnnn`, per
`unimplemented(gb_type=...)` call). The table has one row per way user code reaches one of them: the id, torch's
message (its `gb_type`), where torch raises it, what user code does to reach it, the jitlint rule that reports it
at torch's line (or `rule = "no"` and why not), and a minimal case that torch 2.13 breaks on (`# graph-break` marks
the line torch names; `check = "eager"` rows also fall back to eager there, `check = "limit"` rows hit the recompile
limit, marked `# recompile`). tests/test_graph_breaks.py checks the table against torch and jitlint.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import re
import sys
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TABLE = ROOT / "src" / "jitlint" / "targets" / "compile" / "graph_breaks.toml"
PAGE = ROOT / "rules" / "compile" / "graph-breaks.md"
_FIELDS = ("key", "id", "type", "where", "reached_by", "rule", "why", "case", "settings", "inputs", "calls",
           "check", "no_case")


@dataclass
class Row:
    key: str
    id: str
    type: str
    where: str
    reached_by: str
    rule: str
    why: str = ""
    case: str = ""
    settings: str = ""
    inputs: str = ""
    calls: int = 2
    check: str = "break"  # "break", "eager" (a break that gives up the function), "limit" (the recompile limit)
    no_case: str = ""

    @property
    def modelled(self) -> bool:
        return self.rule != "no"

    @property
    def marked_line(self) -> int | None:
        marker = "# recompile" if self.check == "limit" else "# graph-break"
        rows = [n for n, line in enumerate(self.case.splitlines(), 1) if line.rstrip().endswith(marker)]
        return rows[0] if rows else None


@dataclass
class Table:
    rows: list[Row]
    registry: dict = field(default_factory=dict)
    meta: dict = field(default_factory=dict)


def load(path: Path = TABLE) -> Table:
    with path.open("rb") as handle:
        data = tomllib.load(handle)
    return Table([Row(**row) for row in data.get("break", [])], data.get("registry", {}), data.get("meta", {}))


def problems(table: Table, codes: set[str]) -> list[str]:
    """What is wrong with the table itself (no torch needed)."""
    found = []
    keys = [row.key for row in table.rows]
    if len(keys) != len(set(keys)):
        found.append("two rows share a key")
    for row in table.rows:
        if not re.fullmatch(r"GB\d{4}", row.id):
            found.append(f"{row.key}: id {row.id!r} is not GBnnnn")
        if row.rule != "no" and row.rule not in codes:
            found.append(f"{row.key}: rule {row.rule!r} is not a compile code")
        if row.rule == "no" and not row.why:
            found.append(f"{row.key}: not modelled, and no `why`")
        if not row.case and not row.no_case:
            found.append(f"{row.key}: no case and no `no_case` reason")
        if row.case and row.marked_line is None:
            found.append(f"{row.key}: the case marks no line")
        if row.check not in ("break", "eager", "limit"):
            found.append(f"{row.key}: check {row.check!r}")
    return found


def _torch_dir() -> Path:
    spec = importlib.util.find_spec("torch")
    return Path(spec.origin).parent


def registry_summary() -> dict:
    """The installed torch's graph-break registry, by the file of torch/_dynamo that raises each id."""
    dynamo = _torch_dir() / "_dynamo"
    entries = json.loads((dynamo / "graph_break_registry.json").read_text())
    sources = {path: path.read_text() for path in dynamo.rglob("*.py")}
    by_file: dict[str, int] = {}
    for identifier, versions in entries.items():
        gb_type = versions[0]["Gb_type"]
        where = "elsewhere (a message built at run time)"
        for path, text in sources.items():
            if f'gb_type="{gb_type}"' in text or f"gb_type='{gb_type}'" in text:
                where = str(path.relative_to(dynamo.parent.parent))
                break
        by_file[where] = by_file.get(where, 0) + 1
    return {"ids": len(entries), "by_file": dict(sorted(by_file.items(), key=lambda item: (-item[1], item[0])))}


def page_text(table: Table | None = None) -> str:
    table = table or load()
    rows = table.rows
    ids = sorted({row.id for row in rows})
    modelled_ids = sorted({row.id for row in rows if row.modelled})
    lines = [
        "# torch.compile graph-break sites reached by user code",
        "",
        "GENERATED by `python scripts/graph_breaks.py` from `src/jitlint/targets/compile/graph_breaks.toml`: do not edit.",
        "",
        f"Torch {table.meta.get('torch', '2.13.0')} lists {table.registry.get('ids', '?')} graph-break ids in "
        "`torch/_dynamo/graph_break_registry.json`. The rows below are the ways user code reaches one, each with a "
        "minimal case torch breaks on at the line it names (tests/test_graph_breaks.py runs them), and the rule that "
        "reports it there, or why none does.",
        "",
        f"**Coverage: {len(modelled_ids)} / {len(ids)} ids reached by user code are modelled; "
        f"{sum(1 for row in rows if row.modelled)} / {len(rows)} rows.**",
        "",
        "| id | torch's message | where torch raises it | reached by | rule |",
        "| --- | --- | --- | --- | --- |",
    ]
    for row in rows:
        rule = f"[{row.rule}]({row.rule}.md)" if row.modelled else f"no: {row.why}"
        lines.append(f"| {row.id} | {row.type} | `{row.where}` | {row.reached_by} | {rule} |")
    lines += ["", "## The other ids", "",
              "Where torch raises the registry's ids (most are reached only through features model code rarely uses "
              "in forward: higher-order ops, distributed, compiled autograd, export, tensor subclasses):", "",
              "| file | ids |", "| --- | --- |"]
    for where, count in table.registry.get("by_file", {}).items():
        lines.append(f"| `{where}` | {count} |")
    return "\n".join(lines) + "\n"


def _toml_string(value: str) -> str:
    if "\n" in value:
        return "'''\n" + value + "'''"
    return json.dumps(value)


def write_registry(summary: dict, path: Path = TABLE) -> None:
    text = path.read_text(encoding="utf-8")
    head = text.split("\n[registry]", 1)[0].rstrip("\n")
    block = ["", "", "[registry]", f"ids = {summary['ids']}", "", "[registry.by_file]"]
    block += [f"{json.dumps(where)} = {count}" for where, count in summary["by_file"].items()]
    path.write_text(head + "\n".join(block) + "\n", encoding="utf-8")


def probe(keys: list[str]) -> None:
    sys.path.insert(0, str(ROOT / "tests"))
    from compile_oracle import compile_sources

    table = load()
    rows = [row for row in table.rows if row.case and (not keys or row.key in keys)]
    results = compile_sources([job(row) for row in rows], Path("/tmp") / "graph-breaks-probe")
    for row, result in zip(rows, results):
        print(f"{row.key}: marked L{row.marked_line}; torch: {result}")


def job(row: Row) -> dict:
    settings = dict(item.strip().split("=") for item in row.settings.split(",") if item.strip())
    return {"source": row.case, "inputs": row.inputs, "calls": row.calls,
            "fullgraph": settings.get("fullgraph") == "true",
            "capture_scalar_outputs": settings.get("capture-scalar-outputs") == "true",
            "capture_dynamic_output_shape_ops": settings.get("capture-dynamic-output-shape-ops") == "true"}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--refresh", action="store_true")
    parser.add_argument("--probe", nargs="*")
    options = parser.parse_args()
    if options.probe is not None:
        probe(options.probe)
        return 0
    if options.refresh:
        write_registry(registry_summary())
    PAGE.write_text(page_text(), encoding="utf-8")
    print(f"wrote {PAGE.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
