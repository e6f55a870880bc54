"""A run from its files to their findings, written once for the CLI, the cache, the editor server and the flake8
plugin.

1. Summaries (`jitlint.summaries`): every file read with `ast`, in parallel, kept per file content.
2. The files split across workers by cost (`split`); a worker owns its files: it is the only process that parses
   them with LibCST, explores the capture from the functions in them and lints them.
3. Each worker parses the files of its share that need it up front (all of them, or with the prefilter those that
   hold a root or what a rule outside captured code looks at), indexes every other file from its summary, and
   explores the capture maps from its roots. A call into a function of another worker's file goes to that worker
   as a message; the workers swap their messages in rounds (relayed by this process, which reads none of them)
   until none is left, and a file of the share that captured code reaches is parsed then. So each worker ends with
   the map one process would have built for its files, and no file is parsed twice.
4. With the cache recording, each worker marks what the roots of each root file reach (`CaptureMap.label`, more
   rounds), and sends the records of its files.
5. Each worker lints its parsed files, sending the findings as it goes.

One job runs the same steps in this process, with one worker. A partial run (`jitlint.cache`: some files changed)
is a run whose worker parses, explores and lints the files it is given, and receives what the last run recorded
about them from the other files.
"""

from __future__ import annotations

import dataclasses
import gc
import multiprocessing
import os
import pickle
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from jitlint import heap, layout
from jitlint.capture import CaptureMap
from jitlint.config import Config
from jitlint.finding import Finding
from jitlint.linting import UNUSED_NOQA, Sweeper, in_lint_thread, lint_module
from jitlint.progress import Teller, WorkersProgress
from jitlint.names import resolved
from jitlint.project import FROM_DISK, ModuleInfo, ProjectIndex, bind_stars_once
from jitlint.records import contributions_of, graph_of, merge_records, union_of
from jitlint.shares import split  # noqa: F401  (re-exported: the engine calls `pipeline.split`)
from jitlint.source import SourceError, SourceFile, parse_bytes, read_source
from jitlint.summaries import OnDemand, Summary, by_resolved_path
from jitlint.summary import adopt, summarize_file
from jitlint.targets import policy_class, target_of_policy

MIN_FILES_PER_JOB = 4


def load_quietly(path: Path) -> SourceFile | None:
    """A module read on demand with LibCST (where `ast` cannot read it): too large is skipped as in the run,
    generated is read (what it defines still resolves the names of the files that import it)."""
    source = read_source(path, limits=LOAD_LIMITS)
    return source if isinstance(source, SourceFile) else None


LOAD_LIMITS = dataclasses.replace(Config().limits(), lint_generated=True)  # the run's (set by `_lint_run`)


def policy_settings(name: str, config: Config):
    """The settings of the target that declares capture policy `name`, as the run configured them."""
    return config.settings(target_of_policy(name).name)


@dataclass
class Job:
    """What a run is asked to do. `summaries` are those of `files` (in order); `buffers` replace the files of the
    same resolved path (what an editor or a fix has not written: (display name, text)). `explore` lists the files
    whose roots a partial run explores, parses and lints (None: a whole run); `received` what the last run recorded
    about them (per file, per root file, per policy)."""

    files: list[Path]
    summaries: "list[Summary] | OnDemand"  # (a partial run reads them as its names lead to them)
    rules: list
    policies: tuple[str, ...]
    config: object
    enabled: set[str]
    prefilter: object = None
    per_target: object = None  # which files each target's rules run on, where `prefilter` is off (`PerTarget`)
    buffers: dict[Path, tuple[Path, str, bytes]] = field(default_factory=dict)
    record: bool = False
    explore: list[Path] | None = None
    received: dict[str, dict] = field(default_factory=dict)
    loader: object = None  # reads a module outside the run (default: its summary, or LibCST where `ast` fails)
    tell: object = None  # progress: tell(phase, done, total)
    # Files this process parsed already (a partial run explored again with more files), by resolved path: their
    # trees are taken, not parsed again.
    parsed: dict[Path, SourceFile] = field(default_factory=dict)


@dataclass
class Outcome:
    """What a worker hands back: its findings, the files read on demand, the records of its files and the graph of
    what names read (with `record`), the files it linted, what it parsed and its CPU seconds by phase."""

    findings: list[Finding] = field(default_factory=list)
    loaded: list[Path] = field(default_factory=list)
    contrib: dict[str, dict] = field(default_factory=dict)
    graph: dict[str, dict] = field(default_factory=dict)
    linted: list[Path] = field(default_factory=list)
    parses: dict = field(default_factory=dict)
    seconds: dict[str, float] = field(default_factory=dict)
    costs: dict[str, float] = field(default_factory=dict)  # CPU seconds per file parsed and linted


class _Kept:
    """A module for `ProjectIndex`'s loader: the index is already built (a summary)."""

    __slots__ = ("module",)

    def __init__(self, module: ModuleInfo) -> None:
        self.module = module

    def module_info(self, _path: Path, project: ProjectIndex | None = None) -> ModuleInfo:
        return bind_stars_once(self.module, project) if project is not None else self.module


def read_outside(path: Path):
    """A module outside the run, for `ProjectIndex`'s loader: its summary (`ast`), or its LibCST tree where `ast`
    cannot read it; None when it cannot be read at all."""
    try:
        data = path.read_bytes()
    except OSError:
        return None
    if len(data) > LOAD_LIMITS.max_file_size:
        return None
    from jitlint.source import decode

    try:
        text = decode(data)
    except (UnicodeDecodeError, SyntaxError, LookupError):
        return None
    module = summarize_file(path, text) if "\x00" not in text else None
    return _Kept(module) if module is not None else load_quietly(path)


class Worker:
    """One share of a run (see the module's docstring); `owner` maps each file of the run (resolved) to the worker
    that owns it (None: every file is this worker's)."""

    def __init__(self, job: Job, index: int = 0, owner: dict[Path, int] | None = None,
                 share: list[Path] | None = None) -> None:
        self.job = job
        self.index = index
        self.owner = owner
        self.share = share if share is not None else list(job.files)
        self.by_key = by_resolved_path(job.summaries)
        self.outside: dict[Path, object] = {}  # modules outside the run, read on demand
        self.project = ProjectIndex(loader=self.load, module_bases=job.config.module_bases)
        self.sources: dict[Path, SourceFile] = {}  # the files parsed here, by resolved path
        self.order: dict[Path, int] = {resolved(path): number for number, path in enumerate(job.files)}
        self.errors: list[SourceError] = []
        self.maps: dict[str, CaptureMap] = {}
        self.seconds: dict[str, float] = {}
        self.costs: dict[str, float] = {}
        self.exploring = job.explore is not None
        self.mine = {resolved(path) for path in (job.explore if self.exploring else self.share)}
        self.promoted: set[Path] = set()  # files of the share captured code reached (parsed then, or tried)
        self._parsing: set[Path] = set()  # files being parsed and indexed up front, now

    # -- the index --------------------------------------------------------------------------------------------
    def load(self, path: Path):
        """`ProjectIndex`'s loader: a file of the run from its summary; another from its own (read now, or with
        LibCST where `ast` cannot read it)."""
        key = resolved(path)
        found = self.by_key.get(key)
        if found is not None and key not in self.job.buffers:
            module = found.module
            if module is None:
                parsed = self._parse_upfront(found.path, key) if self._parses_upfront(key) else None
                return _Kept(parsed) if parsed is not None else self._load_with_libcst(path)
            module.text = FROM_DISK  # (a run's file: its text is there when asked for)
            module.worker = self.owner.get(key, self.index) if self.owner is not None else self.index
            if found.chains:
                module.chains = found.chains
            return _Kept(module)
        if key not in self.outside:
            self.outside[key] = self._outside(path)
        return self.outside[key]

    def _parses_upfront(self, key: Path) -> bool:
        """Whether setup parses this file, not parsed yet nor now (a cycle of star imports reads it as before)."""
        if key in self.sources or key in self.promoted or key in self._parsing or key not in self.mine:
            return False
        return self.job.buffers.get(key) is not None or self.exploring or self.upfront(key)

    def _outside(self, path: Path):
        if self.job.loader is not None:
            return self.job.loader(path)
        return read_outside(path)

    def _load_with_libcst(self, path: Path):
        return load_quietly(path)

    def route(self, function) -> int | None:
        """Which worker explores `function` (None: this one), parsing a file of this share that it reaches."""
        module = function.module
        worker = getattr(module, "worker", None)
        if worker is None or self.exploring:
            return None  # outside the run, or a partial run explores what it reaches itself
        if worker != self.index:
            return worker
        key = resolved(module.path)
        if key not in self.sources and key not in self.promoted:
            self.promoted.add(key)
            self.promote(module)
        return None

    def promote(self, module: ModuleInfo) -> None:
        """Parse a file of this share that captured code reached (it was left unparsed up front) and lint it. A file
        whose whole tree something read already (`ModuleInfo.tree` of a summarized module) keeps that tree."""
        key = resolved(module.path)
        path = self.by_key[key].path
        started = time.process_time()
        source = self.job.parsed.get(key)
        if source is None and module.parsed:
            from jitlint.source import decode

            source = SourceFile(path, str(path), decode(path.read_bytes()), module.tree)
        if source is None:
            source = read_source(path, limits=self.job.config.limits())
        if isinstance(source, SourceFile):
            adopt(module, source.tree, source.text)
            self.sources[resolved(path)] = source
            self.project.linted.append(module)
            self.project._attributes_cache.clear()  # (merged attributes may hold nodes parsed from pieces)
        else:
            self.errors.append(source)
        self.costs[str(path)] = self.costs.get(str(path), 0.0) + time.process_time() - started

    # -- the steps --------------------------------------------------------------------------------------------
    def setup(self) -> None:
        """Parse the files this worker parses up front and index them; every other file is indexed from its summary
        when a name leads to it."""
        started = time.process_time()
        job = self.job
        self.project.seed(job.files)
        wanted = job.explore if self.exploring else self.share
        total = len(wanted)
        for done, path in enumerate(wanted):
            if job.tell is not None:
                job.tell("parse", done, total)
            key = resolved(path)
            if key in self.sources or key in self.promoted:
                continue  # (parsed already, when the index asked for it: a star import of a file before it)
            if job.buffers.get(key) is None and not self.exploring and not self.upfront(key):
                continue
            self._parse_upfront(path, key)
        self.project.linted.sort(key=lambda module: self.order.get(resolved(module.path), len(self.order)))  # (run's)
        self.seconds["parse"] = time.process_time() - started

    def _parse_upfront(self, path: Path, key: Path) -> ModuleInfo | None:
        """Parse and index one file this worker parses up front (in setup's loop, or earlier when the index asks
        for it: each file is parsed once); its module, None when it cannot be read (an error of the run)."""
        job, file_started = self.job, time.process_time()
        self._parsing.add(key)
        try:
            buffer = job.buffers.get(key)
            if buffer is not None:
                source = parse_bytes(buffer[0], buffer[1], buffer[2], job.config.limits())
            else:
                source = job.parsed.get(key) or read_source(path, limits=job.config.limits())
            if not isinstance(source, SourceFile):
                self.errors.append(source)
                self.promoted.add(key)  # (reported once: not read again when captured code reaches it)
                return None
            summary = self.by_key.get(key)
            module = summary.module if summary is not None and buffer is None else None
            if module is None:
                if buffer is not None:
                    module = summarize_file(source.path, source.text, source.display_name)
                if module is None:
                    module = ModuleInfo.build(source.path, source.display_name, source.tree, linted=True,
                                              text=source.text, project=self.project)
                    module.stars_bound = True  # (`build` bound them)
                else:
                    adopt(module, source.tree, source.text)
            else:
                module.display_name = source.display_name
                adopt(module, source.tree, source.text)
                bind_stars_once(module, self.project)
            module.worker = self.index
            self.project.add(module)
            self.sources[key] = source
            self.costs[str(path)] = time.process_time() - file_started
            return module
        finally:
            self._parsing.discard(key)

    def upfront(self, key: Path) -> bool:
        """Whether a file of this share is parsed up front (`jitlint.prefilter`)."""
        prefilter = self.job.prefilter
        summary = self.by_key.get(key)
        if prefilter is None or summary is None:
            return True
        return prefilter.needs(summary, self.project, self.job.config.limits())

    def explore(self) -> dict[int, list]:
        """Build each policy's map from the roots of the files parsed here; what goes to other workers."""
        started = time.process_time()
        if self.job.tell is not None:
            self.job.tell("capture maps", 0, 0)
        per_target = self.job.per_target
        self.maps = {name: CaptureMap.build(self.project, policy_class(name), finalize=False,
                                            settings=policy_settings(name, self.job.config),
                                            route=per_target.noting(name, self.route) if per_target else self.route)
                     for name in self.job.policies}
        self.seconds["capture"] = time.process_time() - started
        return self.outbox()

    def outbox(self) -> dict[int, list]:
        out: dict[int, list] = {}
        for name, captured in self.maps.items():
            for worker, messages in captured.outbox.items():
                out.setdefault(worker, []).append((name, messages))
            captured.outbox = {}
        return out

    def take(self, batches: list) -> dict[int, list]:
        """Take in what the other workers sent this round; what goes out in turn."""
        started = time.process_time()
        by_policy: dict[str, list] = {}
        for name, messages in batches:
            by_policy.setdefault(name, []).extend(messages)
        for name, messages in by_policy.items():
            self.maps[name].take(messages)
        self.seconds["capture"] = self.seconds.get("capture", 0.0) + time.process_time() - started
        return self.outbox()

    def label(self) -> dict[int, list]:
        started = time.process_time()
        for captured in self.maps.values():
            captured.label()
        self.seconds["records"] = self.seconds.get("records", 0.0) + time.process_time() - started
        return self.outbox()

    def receive(self) -> None:
        """A partial run: what the last run recorded about the explored files from the other root files."""
        explored = {str(path) for path in self.job.explore}
        local = lambda function: resolved(function.module.path) in self.sources  # noqa: E731
        for name, captured in self.maps.items():
            entries, sites = [], []
            for path in self.job.explore:
                kept = {root: part for root, part in self.job.received.get(str(path), {}).items()
                        if root not in explored}
                part_entries, part_sites = union_of(kept, name)
                entries.extend(part_entries)
                sites.extend(part_sites)
            captured.receive(entries, sites, local)

    def records(self) -> dict[str, dict]:
        started = time.process_time()
        found = contributions_of(self.maps, self.job.files)
        self.seconds["records"] = self.seconds.get("records", 0.0) + time.process_time() - started
        return found

    def finalize(self) -> None:
        for captured in self.maps.values():
            captured.finalize()

    def lint(self, send=None) -> list[Finding]:
        """Lint the files parsed here, in the run's order (each file's findings to `send` as it goes, if given)."""
        started = time.process_time()
        job = self.job
        findings = [error.finding() for error in self.errors if error.code in job.enabled]
        if send is not None and findings:
            send(findings)
            findings = []
        modules = sorted(((key, source) for key, source in self.sources.items()),
                         key=lambda item: self.order.get(item[0], len(self.order)))
        sweep = Sweeper(len(modules))
        unused_noqa = UNUSED_NOQA in job.enabled
        by_path = {resolved(module.path): module for module in self.project.linted}
        targets = frozenset(rule.target for rule in job.rules if rule.target is not None)
        for done, (key, source) in enumerate(modules):
            if job.tell is not None:
                job.tell("lint", done, len(modules))
            file_started = time.process_time()
            rules = job.rules if job.per_target is None else job.per_target.rules_for(
                key, source, by_path[key], self.by_key.get(key), self.project, job.config.limits(), job.rules)
            file_findings = lint_module(source, by_path[key], self.project, self.maps, rules, job.config,
                                        unused_noqa, getattr(self.by_key.get(key), "lines", None), targets)
            self.costs[str(source.path)] = self.costs.get(str(source.path), 0.0) + time.process_time() - file_started
            if send is not None:
                if file_findings:
                    send(file_findings)
            else:
                findings.extend(file_findings)
            sweep()
        self.seconds["lint"] = time.process_time() - started
        return findings

    def graph(self) -> dict[str, dict]:
        """What resolving names read, per module in this process, and for each file of the share never parsed nor
        loaded here, from its summary."""
        found = graph_of(self.project)
        if self.exploring:
            return found
        present = set(found)
        for path in self.share:
            summary = self.by_key.get(resolved(path))
            if str(path) in present or summary is None or summary.module is None:
                continue
            module = summary.module
            module.chains = summary.chains
            found[str(path)] = self.project.reads(module)
        return found

    def outcome(self, findings: list[Finding]) -> Outcome:
        return Outcome(findings, list(self.project.loaded), {}, self.graph() if self.job.record else {},
                       [source.path for source in self.sources.values()], layout.PARSES.snapshot(),
                       dict(self.seconds), dict(self.costs))


def run_here(job: Job) -> tuple[Worker, Outcome]:
    """A run (or a partial run) in this process, one worker."""
    worker = Worker(job)
    worker.setup()
    worker.explore()
    if job.explore is not None:
        worker.receive()
    contrib = {}
    if job.record:
        worker.label()
        contrib = worker.records()
    worker.finalize()
    findings = worker.lint()
    outcome = worker.outcome(findings)
    outcome.contrib = contrib
    return worker, outcome


class WorkerFailed(Exception):
    pass


_STATE: tuple | None = None


def run_split(job: Job, shares: list[list[Path]], progress=None) -> Outcome:
    """A whole run across forked workers, one per share; `WorkerFailed` if they could not do it (the caller then
    runs in this process)."""
    global _STATE
    owner = {resolved(path): index for index, share in enumerate(shares) for path in share}
    context = multiprocessing.get_context("fork")
    pipes = [context.Pipe() for _ in shares]
    _STATE = (job, shares, owner, progress is not None)
    processes = []
    try:
        for index in range(len(shares)):
            process = context.Process(target=_worker_main, args=(index, pipes[index][1]), daemon=True)
            process.start()
            processes.append(process)
    except OSError as error:
        for process in processes:
            process.kill()
        raise WorkerFailed(f"could not start the workers ({error})") from None
    finally:
        _STATE = None
    connections = [parent for parent, _child in pipes]
    for _parent, child in pipes:
        child.close()
    shown = WorkersProgress(progress, shares) if progress is not None else None
    outcome = Outcome()
    try:
        for phase in ("explored", "labelled") if job.record else ("explored",):
            rounds = 0
            while True:
                outs = _gather(connections, "round", shown, outcome)
                rounds += 1
                inboxes: list[list[bytes]] = [[] for _ in connections]
                for out in outs:
                    for worker, blob in out.items():
                        inboxes[worker].append(blob)
                if not any(inboxes):
                    for connection in connections:
                        connection.send((phase, None))
                    break
                for connection, inbox in zip(connections, inboxes):
                    connection.send(("take", inbox))
            outcome.seconds[f"rounds {phase}"] = rounds
        done = _gather(connections, "done", shown, outcome)
    finally:
        for connection in connections:
            connection.close()
        for process in processes:
            process.join(timeout=5)
            if process.is_alive():
                process.kill()
    for part in done:
        outcome.loaded.extend(path for path in part.loaded if path not in outcome.loaded)
        merge_records(outcome.contrib, part.contrib)
        from jitlint.cache import merge_graph

        merge_graph(outcome.graph, part.graph)
        outcome.linted.extend(part.linted)
        outcome.costs.update(part.costs)
    outcome.parses = [part.parses for part in done]
    outcome.seconds["workers"] = [part.seconds for part in done]
    return outcome


def _gather(connections: list, expected: str, shown, outcome: Outcome) -> list:
    """Each worker's `expected` message, in the workers' order, showing their progress and keeping the findings
    they send before it."""
    from multiprocessing.connection import wait

    results: dict[int, object] = {}
    waiting = {connection: index for index, connection in enumerate(connections)}
    while waiting:
        for connection in wait(list(waiting)):
            index = waiting[connection]
            try:
                message = connection.recv()
            except (EOFError, OSError) as error:
                raise WorkerFailed(f"a worker stopped: {error}") from None
            kind = message[0]
            if kind == "progress":
                if shown is not None:
                    shown(index, *message[1])
                continue
            if kind == "findings":
                outcome.findings.extend(message[1])
                continue
            if kind == "recorded":
                merge_records(outcome.contrib, message[1])
                continue
            if kind != expected:
                raise WorkerFailed(f"a worker failed ({message[1]})")
            results[index] = message[1]
            del waiting[connection]
    return [results[index] for index in range(len(connections))]


@contextmanager
def forked_child(connection):
    """The body of a forked process that reports to `connection`: an exception goes to the parent as ("failed",
    what), and the process then ends with `os._exit` (its trees die with it: freeing them one by one would take
    seconds)."""
    try:
        yield
    except BaseException as error:  # the parent runs in its own process instead
        try:
            connection.send(("failed", f"{type(error).__name__}: {error}"))
        except Exception:
            pass
    finally:
        connection.close()
        os._exit(0)


def _worker_main(index: int, connection) -> None:
    """One worker of a split run (in the forked child)."""
    job, shares, owner, tell = _STATE
    with forked_child(connection):
        in_lint_thread(_worker, job, shares, owner, tell, index, connection)


def _worker(job: Job, shares, owner, tell, index: int, connection) -> None:
    job.tell = Teller(connection) if tell else None
    layout.PARSES.reset()
    worker = Worker(job, index, owner, shares[index])
    worker.setup()

    def send(out: dict[int, list]) -> None:
        connection.send(("round", {target: pickle.dumps(batches, protocol=pickle.HIGHEST_PROTOCOL)
                                   for target, batches in out.items()}))

    def rounds(out: dict[int, list]) -> None:
        while True:
            send(out)
            kind, inbox = connection.recv()
            if kind != "take":
                return
            out = worker.take([batch for blob in inbox for batch in pickle.loads(blob)])

    rounds(worker.explore())
    if job.record:
        rounds(worker.label())
        connection.send(("recorded", worker.records()))
    worker.finalize()
    gc.collect()
    heap.release()
    worker.lint(lambda findings: connection.send(("findings", [_detached(finding) for finding in findings])))
    if job.tell is not None:
        job.tell("done", 0, 0)
    outcome = worker.outcome([])
    connection.send(("done", outcome))


def _detached(finding: Finding) -> Finding:
    """A finding without its captured function (which holds trees), to send to the parent."""
    import dataclasses

    from jitlint.finding import FindingContext

    context = finding.context
    if isinstance(context, FindingContext) and context.function is not None:
        return dataclasses.replace(finding, context=dataclasses.replace(context, function=None))
    return finding


def cpu_seconds() -> float:
    return time.process_time()


def worker_count(job: Job, jobs: int) -> int:
    return max(1, min(jobs, len(job.files) // MIN_FILES_PER_JOB, os.cpu_count() or 1 if jobs <= 0 else jobs))
