"""From paths to sorted findings: discover, parse, index the project, map what each capture policy captures, run
the rules."""

from __future__ import annotations

import dataclasses
import gc
import json
import multiprocessing
import re
import sys
import threading
from dataclasses import dataclass
from pathlib import Path

import libcst as cst

from jitlint.baseline import normalise_statement
from jitlint import apart as apart_module, heap
from jitlint.apart import Apart, ApartFailed, forked_child
from jitlint.cache import SharedRows, merge_graph
from jitlint.capture import CaptureMap
from jitlint.config import Config
from jitlint.discovery import discover  # noqa: F401  (re-exported: callers import it from here)
from jitlint.facts import FactStore
from jitlint.finding import Edit, Finding, FindingContext, Fix, Location
from jitlint.names import resolved
from jitlint.positions import positions as positions_of
from jitlint.noqa import Suppressions, directives, removal  # noqa: F401  (Suppressions: re-exported)
from jitlint.prefilter import Prefilter, has_module_class
from jitlint.project import ModuleInfo, ProjectIndex
from jitlint.rules import RULES, RULES_BY_CODE
from jitlint.rules.base import RawFinding, Rule, RuleContext
from jitlint.targets import policy_class, target_of_policy
from jitlint.source import SourceError, SourceFile, parse_bytes, read_source
from jitlint.walk import children, walk
from jitlint import pages



@dataclass
class StdinSource:
    display_name: str
    data: bytes


# -- rule dispatch ----------------------------------------------------------------------------------------------
# What the dispatcher's traversal tells apart, per node class (asked once per class: `isinstance` on LibCST's
# classes, whose metaclass is ABCMeta, is a Python call, and the traversal asks at every node).
_FUNCTION, _LAMBDA, _CLASS, _PARAMETERS, _LINE, _OTHER = "function", "lambda", "class", "parameters", "line", "other"
_KINDS: dict[type, str] = {}


def _kind(node_class: type) -> str:
    for base, kind in ((cst.FunctionDef, _FUNCTION), (cst.Lambda, _LAMBDA), (cst.ClassDef, _CLASS),
                       (cst.Parameters, _PARAMETERS), (cst.SimpleStatementLine, _LINE)):
        if issubclass(node_class, base):
            break
    else:
        kind = _OTHER
    _KINDS[node_class] = kind
    return kind


class _Dispatcher(cst.CSTVisitor):
    """Runs the enabled rules of one capture policy in one traversal, calling a rule only where its scope says
    the policy captures.

    When no active rule looks at code outside captured functions (other than class definitions), the traversal
    skips what cannot matter: statements at module and class level, and the bodies of functions that are not
    captured. Captured functions are only ever top-level functions or methods of top-level classes, so nothing
    captured hides inside a skipped body."""

    # Node types that "anywhere" rules may handle without making the walk visit everything.
    _STRUCTURAL = frozenset({"ClassDef"})

    def __init__(self, ctx: RuleContext, rules: list[Rule], text: str | None = None) -> None:
        self.ctx = ctx
        self.failed: dict[str, str] = {}  # rule code -> what it raised (that rule is off for the rest of the file)
        self.visit_handlers: dict[str, list] = {}
        self.leave_handlers: dict[str, list] = {}
        outside: set[str] = set()  # node types that rules need to see outside captured functions
        for rule in rules:
            if text is not None and rule.text_hints and not any(hint in text for hint in rule.text_hints):
                continue
            for kind, node_type, method in rule.handlers():
                table = self.visit_handlers if kind == "visit" else self.leave_handlers
                table.setdefault(node_type, []).append((rule, method))
                if rule.scope == "anywhere" and (rule.outside_handlers is None or node_type in rule.outside_handlers):
                    outside.add(node_type)
        self.prune = outside <= self._STRUCTURAL
        self.frames: list[tuple] = []
        self.pruned_depth = 0
        self.body_id: int | None = None
        self.params_id: int | None = None  # the parameters of a function whose parameters are not captured

    def _allowed(self, rule: Rule) -> bool:
        if rule.scope == "anywhere":
            return True
        function = self.ctx.function
        if function is None:
            return False
        if not function.body_captured:
            return rule.scope == "signature" and self.ctx.in_signature
        return rule.fires_in_pruned or self.pruned_depth == 0

    def _dispatch(self, table: dict, node: cst.CSTNode) -> None:
        handlers = table.get(type(node).__name__)
        if not handlers:
            return
        ctx = self.ctx
        pruned = ctx.in_pruned_branch = self.pruned_depth > 0
        failed = self.failed
        function = ctx.function
        for rule, method in handlers:
            if failed and rule.code in failed:
                continue
            # `_allowed`, inlined: this runs for every handler at every node.
            scope = rule.scope
            if scope != "anywhere":
                if function is None:
                    continue
                if not function.body_captured:
                    if scope != "signature" or not ctx.in_signature:
                        continue
                elif pruned and not rule.fires_in_pruned:
                    continue
            ctx._rule = type(rule)
            try:
                method(node, ctx)
            except RecursionError:
                raise
            except Exception as error:  # a bug in one rule must not cost the other rules' findings
                failed[rule.code] = f"{type(error).__name__}: {error}"

    def _push(self, function) -> None:
        ctx = self.ctx
        self.frames.append((ctx.function, self.pruned_depth, ctx.in_signature, self.body_id))
        ctx.function = function
        self.pruned_depth = 0
        ctx.in_signature = function is not None
        self.body_id = None

    def on_visit(self, node: cst.CSTNode) -> bool:
        ctx = self.ctx
        ctx.ancestors.append(node)
        kind = _KINDS.get(type(node)) or _kind(type(node))
        if kind is _FUNCTION:
            captured = ctx.captured.get(node)
            if captured is None:
                self._dispatch(self.visit_handlers, node)
                self._push(None)
                return not self.prune
            self._push(captured)
            self.body_id = id(node.body)
            self._dispatch(self.visit_handlers, node)
            return True
        if kind is _LAMBDA or kind is _CLASS:
            outside = ctx.function is None
            self._dispatch(self.visit_handlers, node)
            self._push(None)
            return not (self.prune and outside and kind is _LAMBDA)
        if id(node) == self.body_id:
            ctx.in_signature = False
            if self.prune and not ctx.function.body_captured:
                return False  # an @torch.jit.ignore/unused body: only its signature matters
        elif (
            kind is _PARAMETERS
            and ctx.function is not None
            and not ctx.function.params_captured
            and ctx.function.info.node.params is node
        ):
            ctx.in_signature = False  # only the return annotation is captured
            self.params_id = id(node)
        elif self.prune and ctx.function is None and kind is _LINE:
            self._dispatch(self.visit_handlers, node)
            return False
        if ctx.function is not None and id(node) in ctx.function.pruned:
            self.pruned_depth += 1
        self._dispatch(self.visit_handlers, node)
        return True

    def on_leave(self, original_node: cst.CSTNode) -> None:
        ctx = self.ctx
        kind = _KINDS.get(type(original_node)) or _kind(type(original_node))
        if kind is _FUNCTION or kind is _LAMBDA or kind is _CLASS:
            previous = self.frames.pop()
            inner_captured = ctx.function is not None
            if inner_captured:
                self._dispatch(self.leave_handlers, original_node)
            ctx.function, self.pruned_depth, ctx.in_signature, self.body_id = previous
            if not inner_captured:
                self._dispatch(self.leave_handlers, original_node)
        else:
            self._dispatch(self.leave_handlers, original_node)
            if ctx.function is not None and id(original_node) in ctx.function.pruned:
                self.pruned_depth -= 1
            if id(original_node) == self.body_id:
                ctx.in_signature = True
            if id(original_node) == self.params_id:
                ctx.in_signature = True
                self.params_id = None
        ctx.ancestors.pop()


# -- the run ----------------------------------------------------------------------------------------------------
def _finding_for_error(error: SourceError) -> Finding:
    return error.finding()


def load_quietly(path: Path) -> SourceFile | None:
    """A module read on demand (where a name leads): too large is skipped as in the run, generated is read (what it
    defines still resolves the names of the files that import it)."""
    source = read_source(path, limits=dataclasses.replace(_LIMITS, lint_generated=True))
    return source if isinstance(source, SourceFile) else None


_LIMITS = Config().limits()  # the run's (set by `_lint_run`)


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


def lint(paths: list[Path], config: Config, enabled: set[str], **options) -> list[Finding]:
    return lint_run(paths, config, enabled, **options).findings


STACK_BYTES = 512 * 1024 * 1024
RECURSION_LIMIT = 100_000


def lint_run(*args, **kwargs) -> LintRun:
    """Lint in a thread with a large stack and recursion limit: LibCST's native parser and the visitors recurse
    once per nesting level, and deeply nested (often generated) code would otherwise overflow the C stack."""
    return _in_lint_thread(_lint_run, *args, **kwargs)


def _in_lint_thread(function, *args, **kwargs):
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
        gc.unfreeze()  # what `_Sweeper` froze goes back to the collector's oldest generation
        if gc_was_enabled:
            gc.enable()
    if failure:
        raise failure[0]
    return result[0]


class _Sweeper:
    """Frees the cyclic garbage the rules leave per file, without the collector scanning the trees. The run keeps
    Python's collector off (see `_in_lint_thread`), but a file's rules leave reference cycles behind: kept, they
    made up much of a worker's memory on a large library during the lint phase. Everything that exists before the
    lint phase (the trees, the index, the maps) is frozen, so each collection after a file scans only what that
    file's rules allocated, a small share of the lint's time, and the oldest young generation every 50 files. After each file it also lets `jitlint.heap` hand the C heap's free
    pages back. Does nothing for one file (nothing accumulates: the editor server's keystroke) or where the
    collector is on (a caller's own thread)."""

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
    apart: "Apart | None" = None,
) -> LintRun:
    """`progress(done, total, phase)`, if given, is called as files are read and as they are linted (`phase` says
    what each worker is doing). With `jobs` > 1 and enough files, the files are split across forked workers (see
    `_lint_sharded`), unless `keep_model` asks for the project index and capture maps in this process (the
    dynamic checker needs them). The maps built are those
    of the enabled rules' capture policies, and `policies` (what a dynamic confirmer needs). `stdin` and `buffers`
    (the text `--fix` has not written yet) are linted in place of the files of the same path on disk. `loader`
    reads a module on demand (default `load_quietly`); `record` fills `LintRun.contrib` and `graph` (for the cache)."""
    global _LIMITS
    _LIMITS = limits = config.limits()
    files, errors = discover(paths, config, force_exclude) if paths else ([], [])
    rules = [rule() for rule in RULES if rule.code in enabled and not rule.engine_reported]
    policies = tuple(sorted({rule.policy for rule in rules} | set(policies)))
    shards = min(jobs, len(files) // MIN_FILES_PER_JOB)
    in_memory = [*buffers, *([stdin] if stdin is not None else [])]
    # A policy whose analysis follows values through call sites across files (`needs_one_process`) sees all its
    # callers only in one process: the run is not split then, so the findings do not depend on `--jobs`.
    one_process = needs_one_process(policies)
    notes: list[str] = []
    if (shards > 1 and not in_memory and not keep_model and not one_process
            and "fork" in multiprocessing.get_all_start_methods()):
        try:
            findings, loaded, contrib, graph = _lint_sharded(files, rules, policies, config, enabled, shards,
                                                             progress, record, apart)
        except _WorkerFailed as failure:  # a bug: the run is still right, linted in this process (and says so)
            notes = [f"{failure}; linting the run in one process instead"]
        else:
            findings.extend(_finding_for_error(error) for error in errors if error.code in enabled)
            findings.sort(key=Finding.sort_key)
            return LintRun(findings, None, {}, sorted(loaded), contrib, graph)

    in_memory = [b for b in in_memory if not (force_exclude and config.is_excluded(Path(b.display_name)))]
    # The same file on disk is replaced by what the editor sent (or what a fix made of it): it is not even read.
    replaced = {resolved(Path(b.display_name)) for b in in_memory}
    sources: list[SourceFile] = []
    seeds: list[Path] = []
    prefilter = (None if in_memory or keep_model or loader is not None
                 else Prefilter.for_run(rules, policies, enabled))
    later = _Deferred(files, prefilter, limits)
    for index, path in enumerate(files):
        if progress is not None:
            progress(index, 2 * len(files), f"parse {index}/{len(files)}")
        if replaced and resolved(path) in replaced:
            continue
        seeds.append(path)
        if later.defer(path):
            continue
        source = read_source(path, limits=limits)
        (sources if isinstance(source, SourceFile) else errors).append(source)
    for buffer in in_memory:
        buffer_path = Path(buffer.display_name)
        source = parse_bytes(buffer_path, buffer.display_name, buffer.data, limits)
        (sources if isinstance(source, SourceFile) else errors).append(source)
        seeds.append(buffer_path)

    project = ProjectIndex(loader=loader or later.loader)  # the editor server's keeps modules between edits
    project.seed(seeds)
    modules = _index(project, sources)
    modules = later.decide(project, modules, errors)
    if progress is not None:
        progress(len(files), 2 * len(files), "capture maps")
    maps = {name: CaptureMap.build(project, policy_class(name), settings=policy_settings(name, config))
            for name in policies}
    modules = later.reached(project, modules, maps)
    # The maps are final: their records are made before linting, not on top of what it holds at its end.
    contrib = contributions_of(maps, files) if record else {}

    findings = [_finding_for_error(error) for error in errors if error.code in enabled]
    sweep = _Sweeper(len(modules))
    for done, (source, module) in enumerate(modules):
        if progress is not None:
            progress(len(files) + done, len(files) + len(modules), f"lint {done}/{len(modules)}")
        findings.extend(lint_module(source, module, project, maps, rules, config, UNUSED_NOQA in enabled))
        sweep()
    findings.sort(key=Finding.sort_key)
    graph = later.graph(project) if record else {}
    return LintRun(findings, project, maps, list(project.loaded), contrib, graph, notes=notes)


# -- re-linting part of a run -----------------------------------------------------------------------------------
# What the capture maps hold about a file's functions (captured, for which classes, why; the calls to them) is all
# that the rest of the run contributes to that file's findings; the rest comes from the file itself and from the
# modules its names lead to. A run records it per file and per root file (`record=True`, `contributions_of`); a
# later run in which only some files changed in ways invisible to other files (see `jitlint.cache`) re-lints just
# those, as a worker whose share they are, receiving the recorded part instead of exploring the other files.
def _received(recorded: dict[str, dict], policy: str) -> tuple[list, list]:
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
    """Per file of the run (by str), per root file explored in this process, per policy: what that root file's
    roots capture in the file, as (entries, sites): entries [function address, owner class address or None,
    reason], sites [callee address, [caller's file, its display name, ordinal, bound, positional, keywords, star]],
    plain lists sorted as their JSON texts sort, each once.

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
    """Per module parsed in this process (linted or read on demand), what resolving its names read
    (`ProjectIndex.reads`)."""
    modules = {str(module.path): module for module in [*project.modules.values(), *project._by_path.values()]}
    return {path: project.reads(module) for path, module in modules.items()}


def _union(recorded: dict[str, dict], policy: str) -> tuple[list, list]:
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
    return _received({"": {policy: [entries, sites]}}, policy)


def lint_share(*args, **kwargs) -> LintRun:
    """`_lint_share` with a large stack (see `lint_run`)."""
    return _in_lint_thread(_lint_share, *args, **kwargs)


def _lint_share(files: list[Path], share: list[Path], recorded: dict[str, dict], config: Config, enabled: set[str],
                policies: tuple[str, ...] = (), also: list[Path] = (), progress=None, apart: "Apart | None" = None,
                isolate: bool = True) -> LintRun:
    """The findings of the files of a run of `files` that an edit may have changed, given what the last run
    recorded (`recorded`: per file of the run, `contributions_of`'s value; see `jitlint.cache`).

    `share` is what must be explored again: the edited files and the files whose names lead to a file whose
    interface changed. Their roots are explored afresh; every other root file's part of each file's record is
    what was recorded. A file outside `share` whose parts from the files of `share` come out different (a new call
    into it, a call that went) is linted too. Each linted file receives its record in place of the others being
    explored, as a worker receives what the other workers found; so is each file of `also`. `LintRun.linted`
    lists the files linted and
    `LintRun.contrib` holds their new records. `progress(done, total, phase)` as for `lint_run` (each file of the
    share is parsed, then linted; the total grows if the share does)."""
    global _LIMITS
    _LIMITS = config.limits()
    rules = [rule() for rule in RULES if rule.code in enabled and not rule.engine_reported]
    policies = tuple(sorted({rule.policy for rule in rules} | set(policies)))
    # The process for the files that would make this one parse many more (`jitlint.apart`): the caller's, forked
    # before it read the cache, or one forked now, while this process holds no tree.
    own = Apart.start(files, config, enabled, lint_apart_job) if apart is None and isolate else None
    try:
        return _lint_share_with(apart or own if isolate else None, files, share, recorded, config, enabled, rules,
                                policies, also, progress)
    finally:
        if own is not None:
            own.close()


def _lint_share_with(apart: "Apart | None", files, share, recorded, config, enabled, rules, policies, also,
                     progress) -> LintRun:
    limits = config.limits()
    loaded: dict[Path, SourceFile | None] = {}

    def loader(path: Path) -> SourceFile | None:  # a module read on demand is parsed once for both passes
        key = resolved(path)
        if key not in loaded:
            source = load_quietly(path)
            # Kept for its tree: its index keeps no text (`_loaded_module`), and a file that joins the share is
            # read again. Its text would be held to the end (4 bytes a character in a file with one emoji).
            loaded[key] = dataclasses.replace(source, text="") if source is not None else None
        return loaded[key]

    linted: dict[Path, SourceFile | SourceError] = {}

    def report(done: int, total: int, phase: str) -> None:
        if progress is not None:
            progress(done, total, f"{phase} (partial run: {total // 2} of {len(files)} files)")

    def explore(paths: list[Path]):
        sources: list[SourceFile] = []
        errors: list[SourceError] = []
        for number, path in enumerate(paths):
            report(number, 2 * len(paths), f"parse {number}/{len(paths)}")
            if path not in linted:
                linted[path] = read_source(path, limits=limits)
            source = linted[path]
            (sources if isinstance(source, SourceFile) else errors).append(source)
        project = ProjectIndex(loader=loader)
        project.seed(files)
        modules = _index(project, sources)
        report(len(paths), 2 * len(paths), "capture maps")
        maps = {name: CaptureMap.build(project, policy_class(name), finalize=False,
                                       settings=policy_settings(name, config)) for name in policies}
        return project, modules, errors, maps, contributions_of(maps, files)

    order = {path: number for number, path in enumerate(files)}
    share = sorted(set(share), key=lambda path: order.get(path, len(order)))
    project, modules, errors, maps, fresh = explore(share)
    again = {str(path) for path in share}
    also = {str(path) for path in also}
    moved = [path for path in files if str(path) not in again and (str(path) in also or any(
        fresh.get(str(path), {}).get(root) != recorded.get(str(path), {}).get(root) for root in again))]
    if moved:  # what the edited files capture elsewhere changed: those files are linted too, with both passes' parts
        share = sorted([*share, *moved], key=order.__getitem__)
        again = {str(path) for path in share}
        # The first pass's index and maps are cycles, and the lint thread runs with the collector off: freed here,
        # before the second pass, or the run holds both (the trees are kept: `linted` and `loader` hold them).
        project = modules = errors = maps = fresh = None
        gc.collect()
        project, modules, errors, maps, fresh = explore(share)
    mine = {resolved(source.path) for source, _module in modules}
    contrib: dict[str, dict] = {}
    kept_of: dict[str, dict] = {}
    for path in share:
        kept_of[str(path)] = {root: part for root, part in recorded.get(str(path), {}).items() if root not in again}
        contrib[str(path)] = {**kept_of[str(path)], **fresh.get(str(path), {})}
    # A file whose record names classes of many files outside the share (a base class's methods, checked against
    # each subclass) is linted in the process forked at the start: this one would parse all those files on top of
    # the share's trees.
    heavy = [source.path for source, _module in modules if apart is not None and _is_heavy(
        kept_of[str(source.path)], again)]
    if heavy:
        # It explores their roots itself, and receives the other root files' parts as this process would have.
        batches = [("explored", part) for path in heavy for root, part in fresh.get(str(path), {}).items()
                   if root != str(path)]
        batches.extend(("kept", kept_of[str(path)]) for path in heavy)
        if not apart.send((files, heavy, policies, True, batches)):
            heavy = []
    elsewhere = {str(path) for path in heavy}

    def receive_kept(paths: list[Path]) -> None:
        for name, captured in maps.items():
            entries, sites = [], []
            for path in paths:
                part_entries, part_sites = _union(kept_of[str(path)], name)
                entries.extend(part_entries)
                sites.extend(part_sites)
            captured.receive(entries, sites, lambda function: resolved(function.module.path) in mine)
            captured.finalize()

    receive_kept([path for path in share if str(path) not in elsewhere])
    findings = [_finding_for_error(error) for error in errors if error.code in enabled]
    here = [(source, module) for source, module in modules if str(source.path) not in elsewhere]
    sweep = _Sweeper(len(here))
    for done, (source, module) in enumerate(here):
        report(len(share) + done, 2 * len(share), f"lint {done}/{len(here)}")
        findings.extend(lint_module(source, module, project, maps, rules, config, UNUSED_NOQA in enabled))
        sweep()
    paths_loaded, graph, notes = list(project.loaded), graph_of(project), []
    if heavy:
        report(len(share) + len(here), 2 * len(share), f"lint {len(heavy)} more in another process")
        try:
            more, more_loaded, more_graph = apart.result()
        except ApartFailed as failure:  # a bug: linted here after all (and said so)
            notes.append(f"{failure}; linting {len(heavy)} file(s) of the partial run in this process instead")
            receive_kept(heavy)
            for source, module in modules:
                if str(source.path) in elsewhere:
                    findings.extend(lint_module(source, module, project, maps, rules, config, UNUSED_NOQA in enabled))
            paths_loaded, graph = list(project.loaded), graph_of(project)
        else:
            findings.extend(more)
            known = set(paths_loaded)
            paths_loaded.extend(path for path in more_loaded if path not in known)
            merge_graph(graph, more_graph)
    findings.sort(key=Finding.sort_key)
    return LintRun(findings, project, maps, paths_loaded, contrib, graph, share, notes=notes)


def _owner_files(entries, local) -> dict[str, set[str]]:
    """Per file of the captured functions among `entries` ((function address, class address, reason) rows), the
    files of the classes they were captured for that `local(file)` says this process does not lint. A file with more
    than `HEAVY_OWNER_FILES` is linted apart (`jitlint.apart`)."""
    owners: dict[str, set[str]] = {}
    for address, owner, _reason in entries:
        if owner is not None and not local(owner[1]):
            owners.setdefault(address[1], set()).add(owner[1])
    return owners


def _is_heavy(parts: dict[str, dict], share: set[str]) -> bool:
    """Whether a file's recorded parts name classes of more than `HEAVY_OWNER_FILES` files outside `share`."""
    entries = [entry for per_policy in parts.values() for rows, _sites in per_policy.values() for entry in rows]
    owners = set().union(*_owner_files(entries, share.__contains__).values())
    return len(owners) > apart_module.HEAVY_OWNER_FILES


def lint_apart_job(job: tuple, config: Config, enabled: set[str]) -> tuple:
    """`lint_apart` with a large stack (see `lint_run`): what the process of `jitlint.apart` does with its job."""
    return _in_lint_thread(lint_apart, job, config, enabled)


def lint_apart(job: tuple, config: Config, enabled: set[str]) -> tuple:
    """Lint the files of `job` in a process of their own (`jitlint.apart`): (findings, files read on demand,
    graph). `job` is (the run's files, the files to lint, the capture policies, whether to explore their own
    roots, what the run found in them). What it found comes in batches, each received as the run would have:
    ("explored", {policy: rows}) a part of a record that the run explored afresh (each entry as it was reached),
    ("kept", {root file: {policy: rows}}) the parts of a record the run kept (`_union`), ("export", {policy:
    (entries, sites)}) what a worker exported."""
    global _LIMITS
    _LIMITS = limits = config.limits()
    files, paths, policies, explore, batches = job
    rules = [rule() for rule in RULES if rule.code in enabled and not rule.engine_reported]
    sources: list[SourceFile] = []
    errors: list[SourceError] = []
    for path in paths:
        source = read_source(path, limits=limits)
        (sources if isinstance(source, SourceFile) else errors).append(source)
    project = ProjectIndex(loader=load_quietly)
    project.seed(files)
    modules = _index(project, sources)
    mine = {resolved(source.path) for source, _module in modules}
    maps = {name: CaptureMap.build(project, policy_class(name), finalize=False, settings=policy_settings(name, config))
            if explore else CaptureMap(project, policy_class(name), policy_settings(name, config)) for name in policies}
    for name, captured in maps.items():
        entries, sites = [], []
        for kind, batch in batches:
            if kind == "explored":
                batch_entries, batch_sites = _received({"": batch}, name)
            elif kind == "kept":
                batch_entries, batch_sites = _union(batch, name)
            else:
                batch_entries, batch_sites = batch.get(name, ([], []))
            entries.extend(batch_entries)
            sites.extend(batch_sites)
        captured.receive(entries, sites, lambda function: resolved(function.module.path) in mine)
        captured.finalize()
    findings = [_finding_for_error(error) for error in errors if error.code in enabled]
    sweep = _Sweeper(len(modules))
    for source, module in modules:
        findings.extend(_detached(finding) for finding in lint_module(
            source, module, project, maps, rules, config, UNUSED_NOQA in enabled))
        sweep()
    return findings, list(project.loaded), graph_of(project)


def _index(project: ProjectIndex, sources: list[SourceFile]) -> list[tuple[SourceFile, ModuleInfo]]:
    """Add the parsed linted files to the project index: (source, module) pairs, in the run's order."""
    modules = []
    for source in sources:
        module = ModuleInfo.build(source.path, source.display_name, source.tree, linted=True, text=source.text)
        project.add(module)
        modules.append((source, module))
    return modules


class _Deferred:
    """The files of a share that are not parsed up front (`jitlint.prefilter`), and when they are after all: a
    file whose top-level class turns out to be a module class once the parsed files are indexed (`decide`), and a
    file in which compiled code reached a function once the capture maps are built (`reached`). A file that a
    name led to meanwhile was parsed on demand: it becomes a linted module as it is (`_promote`), the same tree
    the maps point into. Without a prefilter, nothing is deferred."""

    def __init__(self, share: list[Path], prefilter: "Prefilter | None", limits) -> None:
        self.order = {resolved(path): number for number, path in enumerate(share)}
        self.prefilter = prefilter
        self.limits = limits
        self.summaries: dict[Path, object] = {}  # resolved path -> prefilter.Summary, while deferred
        self.paths: dict[Path, Path] = {}  # resolved path -> the path as the run names it
        self.sources: dict[Path, SourceFile] = {}  # deferred files parsed on demand

    def defer(self, path: Path) -> bool:
        if self.prefilter is None:
            return False
        summary = self.prefilter.screen(path, self.limits)
        if summary is None:
            return False
        key = resolved(path)
        self.summaries[key] = summary
        self.paths[key] = path
        return True

    def loader(self, path: Path):
        """`load_quietly`; a deferred file's module keeps its text, as it would have parsed up front (rules that
        read a module's source use it, and otherwise generate the module's code again, once per use)."""
        source = load_quietly(path)
        if source is not None and self.summaries:
            key = resolved(path)
            if key in self.summaries:
                self.sources[key] = source
                return _WithText(source)
        return source

    def decide(self, project: ProjectIndex, modules: list, errors: list) -> list:
        if not self.summaries:
            return modules
        added = False
        for key in sorted(self.summaries, key=self.order.__getitem__):
            summary = self.summaries[key]
            module = project._by_path.get(key)
            if module is not None:  # parsed on demand meanwhile: decided as the capture maps will decide it
                needed = any(project.is_module_class(cls) for cls in module.classes.values())
            else:
                needed = has_module_class(summary, project)
                module = project._by_path.get(key)
            if not needed:
                continue
            added = True
            del self.summaries[key]
            if module is not None:
                modules.append(self._promote(project, key, module))
                continue
            source = read_source(self.paths[key], limits=self.limits)
            if not isinstance(source, SourceFile):
                errors.append(source)
                continue
            module = ModuleInfo.build(source.path, source.display_name, source.tree, linted=True, text=source.text)
            project.add(module)
            modules.append((source, module))
        if added:
            modules = self._in_order(project, modules)
        return modules

    def reached(self, project: ProjectIndex, modules: list, maps: dict) -> list:
        """`modules` and the deferred files in which compiled code reached a function, in the share's order."""
        if not self.summaries:
            return modules
        captured = {id(entry.info.module) for captured in maps.values() for entry in captured.functions.values()}
        added = False
        for key in sorted(self.summaries, key=self.order.__getitem__):
            module = project._by_path.get(key)
            if module is not None and id(module) in captured:
                del self.summaries[key]
                modules.append(self._promote(project, key, module))
                added = True
        return self._in_order(project, modules) if added else modules

    def _promote(self, project: ProjectIndex, key: Path, module: ModuleInfo) -> tuple:
        loaded = self.sources.pop(key)
        source = SourceFile(self.paths[key], str(self.paths[key]), loaded.text, loaded.tree)
        module.linted = True
        module.text = source.text
        project.linted.append(module)
        return source, module

    def _in_order(self, project: ProjectIndex, modules: list) -> list:
        position = lambda module: self.order.get(resolved(module.path), len(self.order))  # noqa: E731
        project.linted.sort(key=position)
        return sorted(modules, key=lambda pair: position(pair[1]))

    def graph(self, project: ProjectIndex) -> dict:
        """`graph_of(project)`, with what the names of each deferred file read (its summary's import table and
        the dotted names of its text, which the summary keeps in place of the text)."""
        graph = graph_of(project)
        for key, summary in self.summaries.items():
            graph[str(self.paths[key])] = project.reads(summary)
        return graph


class _WithText:
    """A source read on demand whose module keeps its text (see `ProjectIndex`'s `_loaded_module`)."""

    def __init__(self, source: SourceFile) -> None:
        self.source = source
        self.text, self.tree = source.text, source.tree

    def module_info(self, path: Path) -> ModuleInfo:
        module = ModuleInfo.build(path, str(path), self.tree, linted=False)
        module.text = self.text
        return module


# -- parallel workers -------------------------------------------------------------------------------------------
# A run split across workers: each forked worker reads and parses its share of the files (never all of them),
# indexes them, and explores the captured code from the roots in its share (for each capture policy), reading
# other files on demand where names lead (as a one-file run reads the modules it imports). The workers then swap
# what each found in the others' files (captured functions, the classes they were captured for, the calls to
# them), so that each ends with the capture maps one process would have built for its files, and runs the rules.
# A file whose captured functions name the classes of many files of other shares (a base class's methods, checked
# against each subclass) is handed to one more process (`jitlint.apart`) with what its worker and the others found
# in it. The parent holds no tree and sorts the findings: the output is the same, in the same order, as with one job.
MIN_FILES_PER_JOB = 4
_SHARD_STATE: tuple | None = None


def _split(files: list[Path], shards: int) -> list[list[Path]]:
    """Files into `shards` shares of about the same size, each share in the run's order. The files of one directory
    go to the same share (directories largest first to the smallest share): files import their neighbours
    (`modeling_x.py` from `configuration_x.py`, `modular_x.py` from `modeling_x.py`), and a worker parses the files
    of another share that its names lead to, so keeping a package together saves parsing it twice."""
    sizes = {}
    for path in files:
        try:
            sizes[path] = path.stat().st_size
        except OSError:
            sizes[path] = 0
    groups: dict[Path, list[Path]] = {}
    for path in files:
        groups.setdefault(path.parent, []).append(path)
    weight = {directory: sum(sizes[path] + 4096 for path in group)  # a file costs something however small
              for directory, group in groups.items()}
    total = sum(weight.values())
    units: list[tuple[int, list[Path]]] = []
    for directory, group in groups.items():
        if weight[directory] * shards > total:  # a directory too large to keep together: its files are spread
            units.extend((sizes[path] + 4096, [path]) for path in group)
        else:
            units.append((weight[directory], group))
    shares: list[list[Path]] = [[] for _ in range(shards)]
    totals = [0] * shards
    for size, group in sorted(units, key=lambda unit: (-unit[0], str(unit[1][0]))):
        smallest = totals.index(min(totals))
        shares[smallest].extend(group)
        totals[smallest] += size
    order = {path: index for index, path in enumerate(files)}
    return [sorted(share, key=order.__getitem__) for share in shares]


def _lint_sharded(files: list[Path], rules: list[Rule], policies: tuple[str, ...], config: Config, enabled: set[str],
                  shards: int, progress, record: bool = False, apart: "Apart | None" = None):
    """(findings, files read on demand, contributions, graph; the last two if `record`) from `shards`
    forked workers; `_WorkerFailed` if they could not do it (the caller then lints in this process). A file that
    would make its worker parse many more (`jitlint.apart`) is linted by `apart` (the caller's, or one forked here
    before the workers)."""
    own = Apart.start(files, config, enabled, lint_apart_job) if apart is None else None
    try:
        return _lint_sharded_with(apart or own, files, rules, policies, config, enabled, shards, progress, record)
    finally:
        if own is not None:
            own.close()


def _heavy_files(received: dict[str, tuple[list, list]], index: int, where) -> list[str]:
    """The files of worker `index` whose captured functions, in what it receives, name classes of more than
    `HEAVY_OWNER_FILES` files that other workers lint."""
    entries = [entry for rows, _sites in received.values() for entry in rows]
    owners = _owner_files(entries, lambda path: where(Path(path)) == index)
    return sorted(path for path, found in owners.items() if len(found) > apart_module.HEAVY_OWNER_FILES)


def _part_in(received: dict[str, tuple[list, list]], files: set[str], inside: bool) -> dict[str, tuple[list, list]]:
    """What `received` (by policy, (entries, sites)) holds about the functions of `files` (`inside`), or of the
    other files."""
    return {name: ([entry for entry in entries if (entry[0][1] in files) == inside],
                   [site for site in sites if (site[0][1] in files) == inside])
            for name, (entries, sites) in received.items()}


def _lint_sharded_with(apart: "Apart | None", files, rules, policies, config, enabled, shards, progress, record):
    global _SHARD_STATE
    shares = _split(files, shards)
    owner = {resolved(path): index for index, share in enumerate(shares) for path in share}
    context = multiprocessing.get_context("fork")
    pipes = [context.Pipe() for _ in shares]
    _SHARD_STATE = (files, shares, owner, rules, policies, config, enabled, record, progress is not None)
    workers = []
    try:
        for index in range(len(shares)):
            worker = context.Process(target=_shard_worker, args=(index, pipes[index][1]), daemon=True)
            worker.start()
            workers.append(worker)
    except OSError as error:
        for worker in workers:
            worker.kill()
        raise _WorkerFailed(f"could not start the workers ({error})") from None
    finally:
        _SHARD_STATE = None
    connections = [parent for parent, _child in pipes]
    for _parent, child in pipes:
        child.close()
    shown = _ShardProgress(progress, shares) if progress is not None else None
    try:
        found = _gather(connections, "found", shown)
        where = _Owner(owner)
        handed: dict[int, dict] = {}  # worker -> what the others found in its heavy files, by policy
        heavy: dict[int, list[str]] = {}
        for index, connection in enumerate(connections):
            received = {}
            for name in policies:
                entries, sites = [], []
                for other in found:
                    share_entries, share_sites = other[name].get(index, ([], []))
                    entries.extend(share_entries)
                    sites.extend(share_sites)
                received[name] = (entries, sites)
            heavy[index] = _heavy_files(received, index, where) if apart is not None else []
            if heavy[index]:  # what the others found there goes to `apart`, with what this worker found (below)
                files_of = set(heavy[index])
                handed[index] = _part_in(received, files_of, True)
                received = _part_in(received, files_of, False)
            connection.send((received, [Path(path) for path in heavy[index]]))
        apart_paths = [Path(path) for index in sorted(heavy) for path in heavy[index]]
        if apart_paths:
            batches = []
            for index, own_part in zip(sorted(handed), _gather([connections[i] for i in sorted(handed)], "handoff",
                                                                None)):
                batches.append(("export", own_part))  # as its worker explored it, then what the others found
                batches.append(("export", handed[index]))
            if not apart.send((files, apart_paths, policies, False, batches)):
                raise _WorkerFailed("the process for the heaviest files did not take them")
        findings: list[Finding] = []
        loaded: list[Path] = []
        contrib: dict[str, dict] = {}
        graph: dict[str, dict] = {}
        streamed = [_Streamed() for _ in connections]
        for early, (share_loaded, share_graph) in zip(streamed, _gather(connections, "done", shown, streamed)):
            findings.extend(early.findings)
            merge_graph(graph, share_graph)
            for target, by_root in early.recorded.items():  # each root file is in one share
                contrib.setdefault(target, {}).update(by_root)
            loaded.extend(path for path in share_loaded if path not in loaded)
        if apart_paths:
            try:
                more, more_loaded, more_graph = apart.result()
            except ApartFailed as failure:
                raise _WorkerFailed(str(failure)) from None
            findings.extend(more)
            merge_graph(graph, more_graph)
            loaded.extend(path for path in more_loaded if path not in loaded)
    finally:
        for connection in connections:
            connection.close()
        for worker in workers:
            worker.join(timeout=5)
            if worker.is_alive():
                worker.kill()
    return findings, loaded, contrib, graph


class _WorkerFailed(Exception):
    pass


class _Streamed:
    """What a worker sends before its last message: each file's findings once it is linted (in the worker's
    order), and the records of its capture maps (`contributions_of`) once they are final."""

    def __init__(self) -> None:
        self.findings: list[Finding] = []
        self.recorded: dict[str, dict] = {}


def _gather(connections: list, expected: str, shown: "_ShardProgress | None",
            streamed: "list[_Streamed] | None" = None) -> list:
    """Each worker's `expected` message, in the workers' order, showing their progress reports as they come, and
    keeping what each sends before it in its `_Streamed` of `streamed`."""
    from multiprocessing.connection import wait

    results: dict[int, object] = {}
    waiting = {connection: index for index, connection in enumerate(connections)}
    while waiting:
        for connection in wait(list(waiting)):
            index = waiting[connection]
            try:
                message = connection.recv()
            except (EOFError, OSError) as error:
                raise _WorkerFailed(f"a worker stopped: {error}") from None
            if message[0] == "progress":
                if shown is not None:
                    shown(index, *message[1])
                continue
            if message[0] == "findings" and streamed is not None:
                streamed[index].findings.extend(message[1])
                continue
            if message[0] == "recorded" and streamed is not None:
                streamed[index].recorded = message[1]
                continue
            if message[0] != expected:
                raise _WorkerFailed(f"a worker failed ({message[1]})")
            results[index] = message[1]
            del waiting[connection]
    return [results[index] for index in range(len(connections))]


class _ShardProgress:
    """The run's progress from the workers' reports: files parsed and linted out of all, and each worker's phase."""

    def __init__(self, progress, shares: list[list[Path]]) -> None:
        self.progress = progress
        self.total = sum(len(share) for share in shares)
        self.sizes = [len(share) for share in shares]
        self.states = [("start", 0, size) for size in self.sizes]

    def __call__(self, index: int, phase: str, done: int, _total: int) -> None:
        self.states[index] = (phase, done, self.sizes[index])
        count = sum({"start": 0, "parse": done, "lint": total + done, "done": 2 * total}.get(phase, total)
                    for phase, done, total in self.states)
        detail = " | ".join(f"{phase} {done}/{total}" if phase in ("parse", "lint") else phase
                            for phase, done, total in self.states)
        self.progress(min(count, 2 * self.total), 2 * self.total, detail)


class _Teller:
    """A worker's progress reports to the parent: a few a second at most, and at the end of each phase."""

    def __init__(self, connection) -> None:
        import time

        self.connection = connection
        self.clock = time.monotonic
        self.last = 0.0

    def __call__(self, phase: str, done: int, total: int, force: bool = False) -> None:
        now = self.clock()
        if force or now - self.last >= 0.2:
            self.last = now
            self.connection.send(("progress", (phase, done, total)))


def _shard_worker(index: int, connection) -> None:
    """One worker's share of a run (in the forked child; see `_lint_sharded`)."""
    files, shares, owner, rules, policies, config, enabled, record, tell = _SHARD_STATE
    tell = _Teller(connection) if tell else (lambda *args, **kwargs: None)
    with forked_child(connection):  # (a failure goes to the parent, which lints in its own process instead)
        sources: list[SourceFile] = []
        errors: list[SourceError] = []
        share = shares[index]
        later = _Deferred(share, Prefilter.for_run(rules, policies, enabled), config.limits())
        for done, path in enumerate(share):
            tell("parse", done, len(share))
            if later.defer(path):
                continue
            source = read_source(path, limits=config.limits())
            (sources if isinstance(source, SourceFile) else errors).append(source)
        tell("capture maps", 0, 0, force=True)
        project = ProjectIndex(loader=later.loader)
        project.seed(files)
        modules = _index(project, sources)
        modules = later.decide(project, modules, errors)
        maps = {name: CaptureMap.build(project, policy_class(name), finalize=False,
                                       settings=policy_settings(name, config)) for name in policies}
        tell("exchange", 0, 0, force=True)
        where = _Owner(owner)
        elsewhere = lambda path: None if where(path) == index else where(path)  # noqa: E731
        connection.send(("found", {name: captured.export(elsewhere) for name, captured in maps.items()}))
        received, heavy = connection.recv()
        if heavy:  # linted by another process (`jitlint.apart`): what this worker found in them goes there
            apart_files = {resolved(path) for path in heavy}
            handoff = lambda path: 0 if resolved(path) in apart_files else None  # noqa: E731
            connection.send(("handoff", {name: captured.export(handoff).get(0, ([], []))
                                         for name, captured in maps.items()}))
        for name, captured in maps.items():
            entries, sites = received[name]
            captured.receive(entries, sites, lambda function: where(function.module.path) == index)
            captured.finalize()
        modules = later.reached(project, modules, maps)
        if heavy:
            modules = [(source, module) for source, module in modules if resolved(source.path) not in apart_files]
        if record:  # the maps are final: their records go now, not on top of what linting holds at its end
            connection.send(("recorded", contributions_of(maps, files)))
        # The findings go to the parent as the files are linted: held here to the end, they were a sizeable part of
        # a worker's peak on a large library (the parent holds no tree).
        connection.send(("findings", [_finding_for_error(error) for error in errors if error.code in enabled]))
        sweep = _Sweeper(len(modules))
        for done, (source, module) in enumerate(modules):
            tell("lint", done + len(errors), len(share))
            file_findings = lint_module(source, module, project, maps, rules, config, UNUSED_NOQA in enabled)
            if file_findings:
                connection.send(("findings", [_detached(finding) for finding in file_findings]))
            sweep()
        tell("done", len(share), len(share), force=True)
        # (what names read includes the modules linting read on demand: known only now)
        connection.send(("done", (project.loaded, later.graph(project) if record else {})))


class _Owner:
    """Which worker lints a file (None for a file outside the run)."""

    def __init__(self, owner: dict[Path, int]) -> None:
        self.owner = owner
        self.cache: dict[Path, int | None] = {}

    def __call__(self, path: Path) -> int | None:
        if path not in self.cache:
            self.cache[path] = self.owner.get(resolved(path))
        return self.cache[path]


def _detached(finding: Finding) -> Finding:
    """A finding without its captured function (which holds trees), to send to the parent."""
    context = finding.context
    if isinstance(context, FindingContext) and context.function is not None:
        return dataclasses.replace(finding, context=dataclasses.replace(context, function=None))
    return finding


def _internal_error(source, what: str) -> Finding:
    rule = RULES_BY_CODE["JIT003"]
    location = Location(1, 1)
    return Finding(rule.code, rule.name, f"jitlint internal error ({what}); other findings for this file are still "
                   "reported, please report this one with the file", rule.severity, source.display_name, location,
                   location, url=pages.url(rule.code))


UNUSED_NOQA = "JIT900"


def lint_module(source, module, project, maps, rules, config, unused_noqa: bool = False) -> list[Finding]:
    """The findings of one file. `unused_noqa`: also report the `# noqa` codes that suppressed nothing (JIT900)."""
    try:
        findings, failed = _lint_module(source, module, project, maps, rules, config, unused_noqa)
    except RecursionError:
        return [_finding_for_error(SourceError(source.path, source.display_name, "JIT001",
                                               "cannot analyze: nested too deeply"))]
    except Exception as error:
        return [_internal_error(source, f"{type(error).__name__}: {error}")]
    return findings + [_internal_error(source, f"rule {code} ({RULES_BY_CODE[code].name}) raised {what}")
                       for code, what in sorted(failed.items())]


def _lint_module(source, module, project, maps, rules, config, unused_noqa=False) -> tuple[list[Finding], dict[str, str]]:
    raws: list[RawFinding] = []
    failed: dict[str, str] = {}
    targets = frozenset(rule.target for rule in rules if rule.target is not None)
    facts = FactStore()  # the file's facts, shared by the traversals of every policy and dropped after the file
    for policy in dict.fromkeys(rule.policy for rule in rules):  # one traversal per capture policy, in code order
        group = [rule for rule in rules if rule.policy == policy]
        ctx = RuleContext(module, project, maps[policy], policy=policy, facts=facts,
                          settings=maps[policy].policy.settings)
        ctx.targets = targets
        dispatcher = _Dispatcher(ctx, group, source.text)
        for rule in group:
            ctx._set_rule(type(rule))
            rule.begin_file(ctx)
        walk(source.tree, dispatcher)
        for rule in group:
            if rule.code in dispatcher.failed:
                continue
            ctx._set_rule(type(rule))
            try:
                rule.end_file(ctx)
            except Exception as error:
                dispatcher.failed[rule.code] = f"{type(error).__name__}: {error}"
        raws.extend(raw for raw in ctx.findings if raw.rule.code not in dispatcher.failed)
        failed.update(dispatcher.failed)
    ignore_noqa = getattr(config, "ignore_noqa", False)
    check_noqa = unused_noqa and not ignore_noqa and "noqa" in source.text.lower()
    if not raws and not check_noqa:
        return [], failed
    suppressions = Suppressions(source.text, ignore=ignore_noqa)
    if not raws:
        return _unused_noqa(source, suppressions, config), failed
    positions = positions_of(source.tree)
    per_file_ignored = config.ignored_for(source.path)
    results = []
    seen = set()
    lines = source.text.splitlines()
    where = _Where(source.tree, positions, source.text)
    for raw in raws:
        finding = _to_finding(raw, positions, source.display_name, source.path, lines, where)
        if any(finding.code.startswith(prefix) for prefix in per_file_ignored):
            continue
        if suppressions.suppressed(finding.code, finding.location.row):
            continue
        key = finding.sort_key()
        if key not in seen:
            seen.add(key)
            results.append(finding)
    if check_noqa:
        results.extend(_unused_noqa(source, suppressions, config))
    return results, failed


def _unused_noqa(source, suppressions: Suppressions, config) -> list[Finding]:
    """JIT900: the jitlint codes of `# noqa: CODES` comments that suppressed nothing in this run (ruff's RUF100).
    Codes of other tools (`E501`) are theirs; a bare `# noqa` and `# jitlint: noqa` are left alone."""
    from jitlint.codes import CODES

    rule = RULES_BY_CODE[UNUSED_NOQA]
    file_level = suppressions.file_level
    if file_level is None or UNUSED_NOQA in file_level:
        return []
    if any(UNUSED_NOQA.startswith(prefix) for prefix in config.ignored_for(source.path)):
        return []
    prefixes = tuple(sorted({code.rstrip("0123456789") for code in CODES}))
    lines = source.text.splitlines()
    findings = []
    for directive in directives(source.text):
        codes = [code for code, _start, _end in directive.codes]
        if UNUSED_NOQA in codes:
            continue  # `# noqa: JIT900, ...` keeps the directive as it is
        unused = [code for code in codes if code.startswith(prefixes) and (directive.row, code) not in suppressions.used]
        if not unused:
            continue
        line = lines[directive.row - 1]
        start, end, content = removal(line, directive, set(unused))
        detail = ", ".join(f"`{code}`" for code in unused)
        parts = [f"{kind}: " + ", ".join(f"`{code}`" for code in chosen) for kind, chosen in (
            ("unused", [code for code in unused if code in CODES]), ("unknown", [code for code in unused if code not in CODES]))
            if chosen]
        message = f"unused `noqa` directive ({'; '.join(parts)})"
        what = "remove the unused `noqa` directive" if len(unused) == len(codes) else f"remove {detail} from the `noqa` directive"
        location = Location(directive.row, directive.start + 1)
        fix = Fix("safe", what, (Edit(content, Location(directive.row, start + 1), Location(directive.row, end + 1)),))
        findings.append(Finding(
            rule.code, rule.name, message, rule.severity, source.display_name, location,
            Location(directive.row, directive.end + 1), fix=fix, url=pages.url(rule.code),
            context=FindingContext(source.path, (directive.row, directive.row), None, line,
                                   "", normalise_statement(line)),
        ))
    return findings


def _resolve_fix(pending, positions) -> Fix | None:
    if pending is None:
        return None
    edits = []
    for edit in pending.edits:
        span = positions[edit.node]
        start = Location(span.start.line, span.start.column + 1)
        end = Location(span.end.line, span.end.column + 1)
        if edit.until is not None:
            until = positions[edit.until].start
            end = Location(until.line, until.column + 1)
        elif edit.insert_after:
            start = end
        elif edit.insert_before:
            end = start
        edits.append(Edit(edit.content, start, end))
    return Fix(pending.applicability, pending.message, tuple(edits))


class _Where:
    """What a baseline matches a finding on (see `jitlint.baseline`): the enclosing function or class and the
    normalised text of its statement, computed only for files with findings."""

    def __init__(self, tree: cst.Module, positions, text: str) -> None:
        self.positions = positions
        self.text = text
        self.line_starts = [0]
        for line in text.splitlines(keepends=True):
            self.line_starts.append(self.line_starts[-1] + len(line))
        self.scopes: list[tuple[int, int, str]] | None = None
        self.tree = tree
        self.statements: dict[int, str] = {}

    def _offset(self, position) -> int:
        return self.line_starts[min(position.line - 1, len(self.line_starts) - 1)] + position.column

    def scope(self, row: int) -> str:
        if self.scopes is None:
            self.scopes = []
            self._collect(self.tree.body, "")
        best = ""
        best_start = -1
        for start, end, name in self.scopes:
            if start <= row <= end and start > best_start:
                best, best_start = name, start
        return best

    def _collect(self, body, prefix: str) -> None:
        for statement in body:
            if isinstance(statement, (cst.FunctionDef, cst.ClassDef)):
                name = prefix + statement.name.value
                span = self.positions.get(statement)
                if span is not None:
                    self.scopes.append((span.start.line, span.end.line, name))
                self._collect(_body_of(statement), name + ".")
            elif isinstance(statement, cst.BaseCompoundStatement):
                for block in _blocks_of(statement):
                    self._collect(block, prefix)

    def statement(self, node: cst.CSTNode | None) -> str:
        if node is None:
            return ""
        if id(node) not in self.statements:
            span = self.positions.get(node)
            text = ""
            if span is not None:
                end = span.end
                body = getattr(node, "body", None)
                if isinstance(node, cst.BaseCompoundStatement) and isinstance(body, cst.CSTNode):
                    body_span = self.positions.get(body)
                    if body_span is not None:  # the header only: a change in the body is not this statement's
                        end = body_span.start
                text = self.text[self._offset(span.start):self._offset(end)]
            self.statements[id(node)] = normalise_statement(text)
        return self.statements[id(node)]


    def statement_lines(self, node: cst.CSTNode, fallback: tuple[int, int]) -> tuple[int, int]:
        """The lines of the smallest statement around `node`, for the dynamic checker (a confirmation is torch
        rejecting these lines): a simple statement line whole (a call over several lines is one statement), a
        decorator whole, and for a compound statement (or an `else:`/`except`/`finally:`/`case` clause) only its
        header: a node in a `for`'s target gets the `for` line, not its body or its `else`. `fallback` (the
        node's own lines) when no statement holds it."""
        target = self.positions.get(node)
        if target is None:
            return fallback
        start, end = (target.start.line, target.start.column), (target.end.line, target.end.column)
        current, best = self.tree, None
        while True:
            inner = None
            for child in children(current):  # no layout node holds a finding (and shared ones have no position)
                span = self.positions.get(child)
                if span is None:
                    continue
                first = (span.start.line, span.start.column)
                decorators = getattr(child, "decorators", None)
                if isinstance(child, (cst.FunctionDef, cst.ClassDef)) and decorators:
                    first = min(first, self._start_of(decorators[0], first))
                if first <= start and end <= (span.end.line, span.end.column):
                    inner = child
                    break
            if isinstance(inner, (cst.SimpleStatementLine, cst.Decorator)):
                span = self.positions[inner]
                return span.start.line, span.end.line
            if isinstance(current, cst.FunctionDef) and isinstance(inner, (cst.Parameters, cst.Annotation)):
                # a parameter or the return annotation of a `def` over several lines: torch names its own line
                for param in _parameters(inner):
                    first, last = self._extent(param)
                    if first <= start and end <= last:
                        return first[0], last[0]
                span = self.positions[inner]
                return span.start.line, span.end.line
            if isinstance(inner, (cst.BaseCompoundStatement, *_CLAUSES)):
                best = current = inner
            elif isinstance(inner, (cst.IndentedBlock, cst.SimpleStatementSuite)):
                current = inner
            else:
                break
        return self._header(best) if best is not None else fallback

    def _extent(self, param: cst.Param) -> tuple[tuple[int, int], tuple[int, int]]:
        """A parameter's first and last positions: its name's, its annotation's and its default's (a `Param`'s own
        position covers only its name)."""
        spans = [self.positions.get(part) for part in (param, param.annotation, param.default) if part is not None]
        spans = [span for span in spans if span is not None]
        if not spans:
            return (0, 0), (0, 0)
        return (min((span.start.line, span.start.column) for span in spans),
                max((span.end.line, span.end.column) for span in spans))

    def _start_of(self, node: cst.CSTNode, default: tuple[int, int]) -> tuple[int, int]:
        span = self.positions.get(node)
        return (span.start.line, span.start.column) if span is not None else default

    def _header(self, statement: cst.CSTNode) -> tuple[int, int]:
        """The header lines of a compound statement or clause: from its keyword to the line of its colon and a
        `# type:` signature comment under it (other comments and blank lines before the body are not the header's)."""
        span = self.positions[statement]
        body = statement.cases[0] if isinstance(statement, cst.Match) and statement.cases else getattr(statement, "body", None)
        body_span = self.positions.get(body) if isinstance(body, cst.CSTNode) else None
        if body_span is None:
            return span.start.line, span.start.line
        text = self.text[self._offset(span.start):self._offset(body_span.start)].split("\n")
        while len(text) > 1 and (not text[-1].strip() or (text[-1].strip().startswith("#") and
                                                            not re.match(r"#\s*type:", text[-1].strip()))):
            text.pop()
        return span.start.line, span.start.line + len(text) - 1


def _parameters(node: cst.CSTNode) -> list:
    if not isinstance(node, cst.Parameters):
        return []
    star = [node.star_arg] if isinstance(node.star_arg, cst.Param) else []
    kwargs = [node.star_kwarg] if node.star_kwarg is not None else []
    return [*node.posonly_params, *node.params, *star, *node.kwonly_params, *kwargs]


_CLAUSES = (cst.Else, cst.ExceptHandler, cst.ExceptStarHandler, cst.Finally, cst.MatchCase)


def _body_of(statement) -> list:
    body = statement.body
    return list(body.body) if isinstance(body, cst.IndentedBlock) else []


def _blocks_of(statement) -> list[list]:
    """The statement lists nested in a compound statement (if/else, loops, try/except, with, match)."""
    blocks = []
    stack = [statement]
    while stack:
        node = stack.pop()
        for child in node.children:
            if isinstance(child, cst.IndentedBlock):
                blocks.append(list(child.body))
            elif isinstance(child, (cst.Else, cst.If, cst.ExceptHandler, cst.ExceptStarHandler, cst.Finally,
                                    cst.MatchCase)):
                stack.append(child)
    return blocks


def _to_finding(raw: RawFinding, positions, filename: str, path: Path, lines: list[str], where: _Where) -> Finding:
    code_range = positions[raw.node]
    rule = raw.rule
    # The dynamic checker confirms a finding by an error torch gives on these lines: the smallest statement around
    # the finding's own node, not around where the rule was when it reported (a flow rule reports from its
    # function's `def`, and any error in the function would confirm it).
    statement = where.statement_lines(raw.node, (code_range.start.line, code_range.end.line))
    return Finding(
        rule.code,
        rule.name,
        raw.message,
        rule.severity,
        filename,
        Location(code_range.start.line, code_range.start.column + 1),
        Location(code_range.end.line, code_range.end.column + 1),
        fix=_resolve_fix(raw.fix, positions),
        url=pages.url(rule.code),
        context=FindingContext(path, statement, raw.function,
                               lines[code_range.start.line - 1] if code_range.start.line <= len(lines) else "",
                               where.scope(code_range.start.line),
                               where.statement(raw.statement) or normalise_statement(
                                   lines[code_range.start.line - 1] if code_range.start.line <= len(lines) else "")),
    )
