"""From paths to sorted findings: the entry points of a run (`lint_run`, and `lint_share` for the cache's partial
runs), which `jitlint.pipeline` carries out, and what a run records for the cache."""

from __future__ import annotations

import dataclasses
import gc
import multiprocessing
import time
from dataclasses import dataclass
from pathlib import Path

from jitlint import layout, pipeline
from jitlint.capture import CaptureMap
from jitlint.config import Config
from jitlint.discovery import discover  # noqa: F401  (re-exported: callers import it from here)
from jitlint.finding import Finding
from jitlint.linting import UNUSED_NOQA, in_lint_thread, lint_module  # noqa: F401  (re-exported)
from jitlint.names import resolved
from jitlint.noqa import Suppressions  # noqa: F401  (re-exported)
from jitlint.pipeline import load_quietly, policy_settings  # noqa: F401  (re-exported)
from jitlint.prefilter import PerTarget, Prefilter
from jitlint.project import ProjectIndex
from jitlint.records import contributions_of, graph_of, received_of, union_of  # noqa: F401  (re-exported)
from jitlint.rules import RULES
from jitlint.targets import policy_class


@dataclass
class StdinSource:
    display_name: str
    data: bytes


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
    # With `record=True`: per file read in phase one, (content hash, `cache.interface`), for the cache to write.
    interfaces: dict[str, tuple[str, str]] = dataclasses.field(default_factory=dict)


def lint(paths: list[Path], config: Config, enabled: set[str], **options) -> list[Finding]:
    return lint_run(paths, config, enabled, **options).findings


def lint_run(*args, **kwargs) -> LintRun:
    """Lint in a thread with a large stack and recursion limit: LibCST's native parser and the visitors recurse
    once per nesting level, and deeply nested (often generated) code would otherwise overflow the C stack."""
    return in_lint_thread(_lint_run, *args, **kwargs)


def _words(rules) -> tuple[str, ...]:
    """What phase one looks for in each file's text: every rule's text hints, and `script` (the prefilter's)."""
    from jitlint.rules import RULES as ALL

    return tuple(sorted({hint for rule in ALL for hint in rule.text_hints} | {"script"}))


def _summaries(files: list[Path], buffers: dict, rules, jobs: int, summary_cache: Path | None,
               max_size: int | None = None, index: bool = True, limits=None) -> list:
    """Phase one. Without `index` (a run in one process that parses every file with LibCST up front, so that no
    file's index comes from its summary), only empty summaries: reading every file with `ast` too would be work
    the run never reads."""
    from jitlint.summaries import Summary, SummaryCache, summaries, summarize

    if not index:
        return [Summary(path, 0, None, False) for path in files]
    words = _words(rules)
    cache = SummaryCache(summary_cache, words) if summary_cache is not None else None
    on_disk = [path for path in files if resolved(path) not in buffers]
    since = time.time() - 1.0  # (a second's slack for the file system's clock: an entry kept too long is harmless)
    found = dict(zip(on_disk, summaries(on_disk, words, cache, jobs, max_size, limits)))
    if cache is not None:
        cache.evict_other_builds()
        cache.evict_unused(since)
    result = []
    for path in files:
        buffer = buffers.get(resolved(path))
        result.append(found[path] if buffer is None else summarize(buffer[0], buffer[2], words))
    return result


def _summaries_on_demand(files: list[Path], rules, summary_cache: Path | None, max_size: int | None):
    """Phase one for a partial run: each file's summary read when a name leads to it (`summaries.OnDemand`), from
    `summary_cache` where the last run kept it for the same content."""
    from jitlint.summaries import OnDemand, SummaryCache

    words = _words(rules)
    cache = SummaryCache(summary_cache, words) if summary_cache is not None else None
    return OnDemand(files, words, max_size, cache)


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
    started = time.process_time()
    pipeline.LOAD_LIMITS = dataclasses.replace(config.limits(), lint_generated=True)
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
    prefilter = (None if in_memory or keep_model or loader is not None
                 else Prefilter.for_run(rules, policies, enabled))
    # A run in one process whose prefilter is off (for one of its targets) runs each other target's rules on the
    # files its own prefilter and capture say (`PerTarget`), decided from each file's text and index once parsed.
    per_target = (PerTarget.for_run(rules, policies, enabled)
                  if prefilter is None and not split and not (in_memory or keep_model or loader is not None) else None)
    summaries = _summaries(run_files, replaced, rules, max(jobs, 1), summary_cache, config.limits().max_file_size,
                           index=split or prefilter is not None, limits=config.limits() if record else None)
    job = pipeline.Job(run_files, summaries, rules, policies, config, enabled, prefilter=prefilter,
                       per_target=per_target, buffers=replaced, record=record, loader=loader)
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
            return LintRun(findings, None, {}, sorted(outcome.loaded), outcome.contrib, outcome.graph, stats=stats,
                           interfaces=_interfaces(summaries))
    if progress is not None:
        job.tell = lambda phase, done, total: progress(done, total, f"{phase} {done}/{total}")
    worker, outcome = pipeline.run_here(job)
    findings = outcome.findings
    findings.extend(error.finding() for error in errors if error.code in enabled)
    findings.sort(key=Finding.sort_key)
    outcome.parses = [outcome.parses]
    stats = stats_of(outcome, time.process_time() - started, before_workers, summaries, in_process=True)
    return LintRun(findings, worker.project, worker.maps, list(worker.project.loaded), outcome.contrib,
                   outcome.graph, notes=notes, stats=stats, interfaces=_interfaces(summaries))


def _interfaces(summaries) -> dict[str, tuple[str, str]]:
    return {str(item.path): item.interface for item in summaries if item.interface is not None}


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


def needs_one_process(policies) -> bool:
    """Whether a capture policy among `policies` follows values through call sites across files: its findings in one
    file depend on the bodies of its callers in others, so neither a worker's share nor a cached share is enough."""
    return any(getattr(policy_class(name), "needs_one_process", False) for name in policies)


def enabled_policies(enabled: set[str]) -> set[str]:
    return {rule.policy for rule in RULES if rule.code in enabled and not rule.engine_reported}


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
    started = time.process_time()
    pipeline.LOAD_LIMITS = dataclasses.replace(config.limits(), lint_generated=True)
    layout.PARSES.reset()
    rules = [rule() for rule in RULES if rule.code in enabled and not rule.engine_reported]
    policies = tuple(sorted({rule.policy for rule in rules} | set(policies)))
    summaries = _summaries_on_demand(files, rules, summary_cache, config.limits().max_file_size)
    order = {path: number for number, path in enumerate(files)}
    share = sorted(set(share), key=lambda path: order.get(path, len(order)))

    def tell(total: int):
        if progress is None:
            return None

        def told(phase: str, done: int, of: int) -> None:  # parse then lint: two steps a file
            where = f"(partial run: {total} of {len(files)} files)"
            count = {"parse": done, "lint": total + done}.get(phase, total)
            shown = f"{phase} {done}/{of} {where}" if phase in ("parse", "lint") else f"{phase} {where}"
            progress(count, 2 * total, shown)

        return told

    def explore(paths: list[Path], parsed: dict) -> tuple["pipeline.Worker", dict]:
        job = pipeline.Job(files, summaries, rules, policies, config, enabled, record=True, explore=paths,
                           received=recorded, tell=tell(len(paths)), parsed=parsed)
        worker = pipeline.Worker(job)
        worker.setup()
        worker.explore()
        worker.label()
        return worker, worker.records()

    worker, fresh = explore(share, {})
    again = {str(path) for path in share}  # the root files explored
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
    return LintRun(findings, worker.project, worker.maps, list(worker.project.loaded), contrib, outcome.graph, share,
                   stats=stats)  # (the outcome's graph is `graph_of(worker.project)`, not computed a second time)
