"""What a run records for the dependency-aware cache (`jitlint.cache`): per file, per root file, per capture policy,
what that root file's roots capture in the file; per module, what resolving its names read; and a record read back
as a worker receives it."""

from __future__ import annotations

import json
from pathlib import Path

from jitlint.cache import SharedRows
from jitlint.capture import CaptureMap, CallSite
from jitlint.paths import resolved
from jitlint.project import ProjectIndex


def received_of(recorded: dict[str, dict], policy: str) -> tuple[list, list]:
    entries, sites = [], []
    for per_policy in recorded.values():
        file_entries, file_sites = per_policy.get(policy, ([], []))
        entries.extend((tuple(address), tuple(owner) if owner is not None else None, reason)
                       for address, owner, reason in file_entries)
        sites.extend((tuple(address), CallSite((file, display), ordinal, bound, positional, frozenset(keywords), star))
                     for address, (file, display, ordinal, bound, positional, keywords, star) in file_sites)
    return entries, sites

def contributions_of(maps: dict[str, CaptureMap], files: list[Path]) -> dict[str, dict]:
    """Per file of the run (by str), per root file whose reach this process explored, per policy: what that root
    file's roots capture in the file, as (entries, sites): entries [function address, owner class address or None,
    reason], sites [callee address, [caller's file, its display name, ordinal, bound, positional, keywords, star]],
    plain lists sorted as their JSON texts sort, each once. (Across workers, the maps were labelled in rounds
    first: `CaptureMap.label`; the parts of one file and root file that two workers hold are merged by
    `merge_records`.)

    The records repeat themselves (a base class's property is captured for each of its subclasses, in the part
    of each root file): each distinct address, reason and caller's file is one object (`SharedRows`), which
    pickle then sends once, and the parent holds once."""
    keys = {resolved(path): str(path) for path in files}
    known: dict[Path, str | None] = {}

    def target(path: Path) -> str | None:
        if path not in known:
            known[path] = keys.get(resolved(path))
        return known[path]

    shared = SharedRows()
    address, string = shared.address, shared.string
    out: dict[str, dict] = {}
    for name, captured in maps.items():
        captured.label()
        for where, by_root in captured.contributions(target).items():
            for root, (entries, sites) in by_root.items():
                entry_rows = {json.dumps([function, owner, reason]): (function, owner, reason)
                              for function, owner, reason in entries}
                site_rows = {}
                for callee, site in sites:
                    row = [*site.caller_key, site.ordinal, site.bound, site.positional, sorted(site.keywords),
                           site.star]
                    site_rows[json.dumps([callee, row])] = (callee, row)
                out.setdefault(where, {}).setdefault(root, {})[name] = [
                    [[address(function), address(owner), string(reason)]
                     for function, owner, reason in map(entry_rows.__getitem__, sorted(entry_rows))],
                    [[address(callee), [string(row[0]), string(row[1]), *row[2:]]]
                     for callee, row in map(site_rows.__getitem__, sorted(site_rows))]]
    return out

def graph_of(project: ProjectIndex) -> dict[str, dict[str, list[str]]]:
    """Per module parsed or indexed in this process (linted or read on demand), what resolving its names read
    (`ProjectIndex.reads`)."""
    modules = {str(module.path): module for module in [*project.modules.values(), *project._by_path.values()]}
    return {path: project.reads(module) for path, module in modules.items()}

def union_of(recorded: dict[str, dict], policy: str) -> tuple[list, list]:
    """The parts of a file's record (root file -> policy -> (entries, sites)) as one (entries, sites), as a worker
    receives them: a function captured for some classes is not also received without one (see `export`). (A root
    file's own roots keep their reason in the record, and `CaptureMap` gives the reasons a rule reads precedence in
    whatever order they arrive: `CapturePolicy.primary_reasons`.)"""
    entries, sites = [], []
    for per_policy in recorded.values():
        file_entries, file_sites = per_policy.get(policy, ([], []))
        entries.extend(file_entries)
        sites.extend(file_sites)
    owned = {repr(address) for address, owner, _reason in entries if owner is not None}
    entries = [entry for entry in entries if entry[1] is not None or repr(entry[0]) not in owned]
    return received_of({"": {policy: [entries, sites]}}, policy)


def merge_records(into: dict[str, dict], more: dict[str, dict]) -> None:
    """Add one worker's records to the run's: a part (file, root file, policy) that two workers hold (the entries
    from the file's worker, calls into it from others') is their union, sorted and each row once, as
    `contributions_of` makes them."""
    for target, by_root in more.items():
        held = into.setdefault(target, {})
        for root, by_policy in by_root.items():
            if root not in held:
                held[root] = by_policy
                continue
            for policy, (entries, sites) in by_policy.items():
                if policy not in held[root]:
                    held[root][policy] = [entries, sites]
                    continue
                old_entries, old_sites = held[root][policy]
                held[root][policy] = [
                    [row for _key, row in sorted({json.dumps(row): row for row in [*old_entries, *entries]}.items())],
                    [row for _key, row in sorted({json.dumps(row): row for row in [*old_sites, *sites]}.items())]]
