"""From paths to sorted findings: the entry points of a run (`lint_run`, and `lint_share` for the cache's partial
runs), which `jitlint.pipeline` carries out, and what a run records for the cache."""

from __future__ import annotations

import dataclasses
import gc
import json
import multiprocessing
import os
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from jitlint import heap, layout
from jitlint.cache import SharedRows
from jitlint.capture import CaptureMap
from jitlint.config import Config
from jitlint.discovery import discover  # noqa: F401  (re-exported: callers import it from here)
from jitlint.finding import Finding
from jitlint.linting import UNUSED_NOQA, lint_module  # noqa: F401  (re-exported)
from jitlint.names import resolved
from jitlint.noqa import Suppressions  # noqa: F401  (re-exported)
from jitlint.prefilter import Prefilter
from jitlint.project import ProjectIndex
from jitlint.rules import RULES
from jitlint.source import SourceFile, read_source
from jitlint.targets import policy_class, target_of_policy


@dataclass
class StdinSource:
    display_name: str
    data: bytes


def load_quietly(path: Path) -> SourceFile | None:
    """A module read on demand with LibCST (where `ast` cannot read it): too large is skipped as in the run,
    generated is read (what it defines still resolves the names of the files that import it)."""
    source = read_source(path, limits=LOAD_LIMITS)
    return source if isinstance(source, SourceFile) else None


LOAD_LIMITS = dataclasses.replace(Config().limits(), lint_generated=True)  # the run's (set by `_lint_run`)


@dataclass
class LintRun:
    findings: list[Finding]
    # The project index and the capture map of each policy, for the dynamic checker: None and {} after a run split
    # across workers (ask for them with `keep_model=True`).
    project: ProjectIndex | None
    captured: dict[str, CaptureMap]
    loaded: list[Path] = dataclasses.field(default_factory=list)  # files read on demand: what the results depend on
    # With `record=True`, for the dependency-aware cache: per linted file, per root file, per policy, what the roots
    # of that root file capture in it (`contributions_of`); and per module parsed, the files its names may lead to
    # (`ProjectIndex.reads`).
    contrib: dict[str, dict] = dataclasses.field(default_factory=dict)
    graph: dict[str, dict] = dataclasses.field(default_factory=dict)
    linted: list[Path] = dataclasses.field(default_factory=list)  # after `lint_share`: the files linted again
    notes: list[str] = dataclasses.field(default_factory=list)  # what the user should know (a worker failed)
    # What the run cost, by phase and by process, and what it parsed with LibCST (`stats_of`).
    stats: dict = dataclasses.field(default_factory=dict)


def lint(paths: list[Path], config: Config, enabled: set[str], **options) -> list[Finding]:
    return lint_run(paths, config, enabled, **options).findings


STACK_BYTES = 512 * 1024 * 1024
RECURSION_LIMIT = 100_000


def lint_run(*args, **kwargs) -> LintRun:
    """Lint in a thread with a large stack and recursion limit: LibCST's native parser and the visitors recurse
    once per nesting level, and deeply nested (often generated) code would otherwise overflow the C stack."""
    return in_lint_thread(_lint_run, *args, **kwargs)


def in_lint_thread(function, *args, **kwargs):
    result: list = []
    failure: list[BaseException] = []

    def work() -> None:
        try:
            result.append(function(*args, **kwargs))
        except BaseException as error:  # re-raised in the caller's thread
            failure.append(error)

    # The trees are large and acyclic: Python's cyclic collector would rescan them again and again as they grow
    # (which made parsing a large library much slower), and would free nothing.
    gc_was_enabled = gc.isenabled()
    gc.disable()
    previous_stack = threading.stack_size(STACK_BYTES)
    previous_limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(previous_limit, RECURSION_LIMIT))
    try:
        thread = threading.Thread(target=work, name="jitlint-lint")
        thread.start()
        thread.join()
    finally:
        threading.stack_size(previous_stack)
        sys.setrecursionlimit(previous_limit)
        gc.unfreeze()  # what `Sweeper` froze goes back to the collector's oldest generation
        if gc_was_enabled:
            gc.enable()
    if failure:
        raise failure[0]
    return result[0]


class Sweeper:
    """Frees the cyclic garbage the rules leave per file, without the collector scanning the trees. The run keeps
    Python's collector off (see `in_lint_thread`), but a file's rules leave reference cycles behind: kept, they
    made up much of a worker's memory on a large library during the lint phase. Everything that exists before the
    lint phase (the trees, the index, the maps) is frozen, so each collection after a file scans only what that
    file's rules allocated, a small share of the lint's time, and the oldest young generation every 50 files. After
    each file it also lets `jitlint.heap` hand the C heap's free pages back. Does nothing for one file (nothing
    accumulates: the editor server's keystroke) or where the collector is on (a caller's own thread)."""

    def __init__(self, files: int) -> None:
        self.active = files > 1 and not gc.isenabled()
        self.count = 0
        if self.active:
            gc.freeze()
            heap.release()  # the parse's and the index's garbage, before the lint phase adds its own

    def __call__(self) -> None:
        if self.active:
            self.count += 1
            gc.collect(1 if self.count % 50 == 0 else 0)
            heap.settle()


def _words(rules) -> tuple[str, ...]:
    """What phase one looks for in each file's text: every rule's text hints, and `script` (the prefilter's)."""
    from jitlint.rules import RULES as ALL

    return tuple(sorted({hint for rule in ALL for hint in rule.text_hints} | {"script"}))


def _summaries(files: list[Path], buffers: dict, rules, jobs: int, summary_cache: Path | None,
               max_size: int | None = None) -> list:
    from jitlint.summaries import SummaryCache, summaries, summarize

    words = _words(rules)
    cache = SummaryCache(summary_cache, words) if summary_cache is not None else None
    on_disk = [path for path in files if resolved(path) not in buffers]
    found = dict(zip(on_disk, summaries(on_disk, words, cache, jobs, max_size)))
    if cache is not None:
        cache.evict_other_builds()
    result = []
    for path in files:
        buffer = buffers.get(resolved(path))
        result.append(found[path] if buffer is None else summarize(buffer[0], buffer[2], words))
    return result


def _lint_run(
    paths: list[Path],
    config: Config,
    enabled: set[str],
    *,
    stdin: StdinSource | None = None,
    buffers: "list[StdinSource]" = (),
    force_exclude: bool = False,
    progress=None,
    jobs: int = 1,
    keep_model: bool = False,
    policies: tuple[str, ...] = (),
    record: bool = False,
    loader=None,
    summary_cache: Path | None = None,
) -> LintRun:
    """`progress(done, total, phase)`, if given, is called as files are read and as they are linted (`phase` says
    what each worker is doing). With `jobs` > 1 and enough files, the files are split across forked workers
    (`jitlint.pipeline`), unless `keep_model` asks for the project index and capture maps in this process (the
    dynamic checker needs them). The maps built are those of the enabled rules' capture policies, and `policies`
    (what a dynamic confirmer needs). `stdin` and `buffers` (the text `--fix` has not written yet) are linted in place
    of the files of the same path on disk. `loader` reads a module outside the run on demand; `record` fills
    `LintRun.contrib` and `graph` (for the cache); `summary_cache`, a directory where phase one keeps its summaries."""
    from jitlint import pipeline

    global LOAD_LIMITS
    started = time.process_time()
    LOAD_LIMITS = dataclasses.replace(config.limits(), lint_generated=True)
    layout.PARSES.reset()
    files, errors = discover(paths, config, force_exclude) if paths else ([], [])
    rules = [rule() for rule in RULES if rule.code in enabled and not rule.engine_reported]
    policies = tuple(sorted({rule.policy for rule in rules} | set(policies)))
    in_memory = [*buffers, *([stdin] if stdin is not None else [])]
    in_memory = [b for b in in_memory if not (force_exclude and config.is_excluded(Path(b.display_name)))]
    # The same file on disk is replaced by what the editor sent (or what a fix made of it): it is not even read.
    replaced = {resolved(Path(b.display_name)): (Path(b.display_name), b.display_name, b.data) for b in in_memory}
    run_files = [path for path in files if resolved(path) not in replaced]
    run_files.extend(path for path, _name, _data in replaced.values())
    one_process = needs_one_process(policies)
    workers = min(jobs, len(run_files) // pipeline.MIN_FILES_PER_JOB)
    split = (workers > 1 and not in_memory and not keep_model and not one_process
             and "fork" in multiprocessing.get_all_start_methods())
    if progress is not None:
        progress(0, 2 * max(len(run_files), 1), "summaries")
    summaries = _summaries(run_files, replaced, rules, max(jobs, 1), summary_cache, config.limits().max_file_size)
    prefilter = (None if in_memory or keep_model or loader is not None
                 else Prefilter.for_run(rules, policies, enabled))
    job = pipeline.Job(run_files, summaries, rules, policies, config, enabled, prefilter=prefilter,
                       buffers=replaced, record=record, loader=loader)
    notes: list[str] = []
    before_workers = time.process_time() - started
    if split:
        try:
            outcome = pipeline.run_split(job, pipeline.split(job, workers), progress)
        except pipeline.WorkerFailed as failure:  # a bug: the run is still right, linted in this process
            notes = [f"{failure}; linting the run in one process instead"]
        else:
            findings = outcome.findings
            findings.extend(error.finding() for error in errors if error.code in enabled)
            findings.sort(key=Finding.sort_key)
            stats = stats_of(outcome, time.process_time() - started, before_workers, summaries)
            return LintRun(findings, None, {}, sorted(outcome.loaded), outcome.contrib, outcome.graph, stats=stats)
    if progress is not None:
        job.tell = lambda phase, done, total: progress(done, total, f"{phase} {done}/{total}")
    worker, outcome = pipeline.run_here(job)
    findings = outcome.findings
    findings.extend(error.finding() for error in errors if error.code in enabled)
    findings.sort(key=Finding.sort_key)
    outcome.parses = [outcome.parses]
    stats = stats_of(outcome, time.process_time() - started, before_workers, summaries, in_process=True)
    return LintRun(findings, worker.project, worker.maps, list(worker.project.loaded), outcome.contrib,
                   outcome.graph, notes=notes, stats=stats)


def stats_of(outcome, seconds: float, before_workers: float, summaries: list, in_process: bool = False) -> dict:
    """What the run cost: this process's CPU seconds (all of it, for a run in this process), phase one's (in the
    processes that read the summaries; kept summaries cost nothing), each worker's by phase, each file's (what
    splitting a run by measured cost reads), and what each worker parsed with LibCST."""
    workers = outcome.seconds.get("workers", [outcome.seconds]) if not in_process else [outcome.seconds]
    return {"parent_cpu_s": round(seconds, 3), "parent_before_workers_cpu_s": round(before_workers, 3),
            "in_process": in_process, "summaries_cpu_s": round(sum(item.seconds for item in summaries), 3),
            "workers": workers, "rounds": {key: value for key, value in outcome.seconds.items()
                                           if key.startswith("rounds")},
            "costs": outcome.costs, "parses": outcome.parses}


# -- re-linting part of a run -----------------------------------------------------------------------------------
# What the capture maps hold about a file's functions (captured, for which classes, why; the calls to them) is all
# that the rest of the run contributes to that file's findings; the rest comes from the file itself and from the
# modules its names lead to. A run records it per file and per root file (`record=True`, `contributions_of`); a
# later run in which only some files changed in ways invisible to other files (see `jitlint.cache`) re-lints just
# those, as a worker whose share they are, receiving the recorded part instead of exploring the other files.
def received_of(recorded: dict[str, dict], policy: str) -> tuple[list, list]:
    from jitlint.capture import CallSite

    entries, sites = [], []
    for per_policy in recorded.values():
        file_entries, file_sites = per_policy.get(policy, ([], []))
        entries.extend((tuple(address), tuple(owner) if owner is not None else None, reason)
                       for address, owner, reason in file_entries)
        sites.extend((tuple(address), CallSite((file, display), ordinal, bound, positional, frozenset(keywords), star))
                     for address, (file, display, ordinal, bound, positional, keywords, star) in file_sites)
    return entries, sites


def policy_settings(name: str, config: Config):
    """The settings of the target that declares capture policy `name`, as the run configured them."""
    return config.settings(target_of_policy(name).name)


def needs_one_process(policies) -> bool:
    """Whether a capture policy among `policies` follows values through call sites across files: its findings in one
    file depend on the bodies of its callers in others, so neither a worker's share nor a cached share is enough."""
    return any(getattr(policy_class(name), "needs_one_process", False) for name in policies)


def enabled_policies(enabled: set[str]) -> set[str]:
    return {rule.policy for rule in RULES if rule.code in enabled and not rule.engine_reported}


def contributions_of(maps: dict[str, CaptureMap], files: list[Path]) -> dict[str, dict]:
    """Per file of the run (by str), per root file whose reach this process explored, per policy: what that root
    file's roots capture in the file, as (entries, sites): entries [function address, owner class address or None,
    reason], sites [callee address, [caller's file, its display name, ordinal, bound, positional, keywords, star]],
    plain lists sorted as their JSON texts sort, each once. (Across workers, the maps were labelled in rounds
    first: `CaptureMap.label`; the parts of one file and root file that two workers hold are merged by
    `pipeline.merge_records`.)

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


def lint_share(*args, **kwargs) -> LintRun:
    """`_lint_share` with a large stack (see `lint_run`)."""
    return in_lint_thread(_lint_share, *args, **kwargs)


def _lint_share(files: list[Path], share: list[Path], recorded: dict[str, dict], config: Config, enabled: set[str],
                policies: tuple[str, ...] = (), also: list[Path] = (), progress=None,
                summary_cache: Path | None = None) -> LintRun:
    """The findings of the files of a run of `files` that an edit may have changed, given what the last run
    recorded (`recorded`: per file of the run, `contributions_of`'s value; see `jitlint.cache`).

    `share` is what must be explored again: the edited files and the files whose names lead to a file whose
    interface changed. Their roots are explored afresh; every other root file's part of each file's record is
    what was recorded. A file outside `share` whose parts from the files of `share` come out different (a new call
    into it, a call that went) is linted too, and so is each file of `also`: the share grows by those files and is
    explored again. Each linted file receives its record in place of the others being explored. `LintRun.linted`
    lists the files linted and `LintRun.contrib` holds their new records. `progress(done, total, phase)` as for
    `lint_run`."""
    from jitlint import pipeline

    global LOAD_LIMITS
    started = time.process_time()
    LOAD_LIMITS = dataclasses.replace(config.limits(), lint_generated=True)
    layout.PARSES.reset()
    rules = [rule() for rule in RULES if rule.code in enabled and not rule.engine_reported]
    policies = tuple(sorted({rule.policy for rule in rules} | set(policies)))
    summaries = _summaries(files, {}, rules, 1, summary_cache, config.limits().max_file_size)
    order = {path: number for number, path in enumerate(files)}
    share = sorted(set(share), key=lambda path: order.get(path, len(order)))

    def tell(total: int):
        if progress is None:
            return None
        return lambda phase, done, _total: progress(done, total, f"{phase} (partial run: {total} of {len(files)} "
                                                                   "files)")

    def explore(paths: list[Path], parsed: dict) -> tuple["pipeline.Worker", dict]:
        job = pipeline.Job(files, summaries, rules, policies, config, enabled, record=True, explore=paths,
                           received=recorded, tell=tell(len(paths)), parsed=parsed)
        worker = pipeline.Worker(job)
        worker.setup()
        worker.explore()
        worker.label()
        return worker, worker.records()

    worker, fresh = explore(share, {})
    again = {str(path) for path in share}
    also = {str(path) for path in also}
    moved = [path for path in files if str(path) not in again and (str(path) in also or any(
        fresh.get(str(path), {}).get(root) != recorded.get(str(path), {}).get(root) for root in again))]
    if moved:  # what the edited files capture elsewhere changed: those files are linted too, with both passes' parts
        share = sorted([*share, *moved], key=order.__getitem__)
        again = {str(path) for path in share}
        parsed = dict(worker.sources)
        worker = fresh = None
        gc.collect()
        worker, fresh = explore(share, parsed)
    contrib: dict[str, dict] = {}
    for path in share:
        kept = {root: part for root, part in recorded.get(str(path), {}).items() if root not in again}
        contrib[str(path)] = {**kept, **fresh.get(str(path), {})}
    worker.receive()
    worker.finalize()
    findings = worker.lint()
    findings.sort(key=Finding.sort_key)
    outcome = worker.outcome(findings)
    outcome.parses = [outcome.parses]
    stats = stats_of(outcome, time.process_time() - started, 0.0, summaries, in_process=True)
    return LintRun(findings, worker.project, worker.maps, list(worker.project.loaded), contrib,
                   graph_of(worker.project), share, stats=stats)
