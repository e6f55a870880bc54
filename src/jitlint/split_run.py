"""A run split by capture policy: the rules whose policy needs one process (`needs_one_process`: the analysis follows
values through call sites across files, `trace`, `compile`, fx's tracing) are linted in one forked process over the
whole run, while the other rules (`script`, `export`...) are split across the usual workers, at the same time.

Without it, one such policy keeps the whole run in one process (`jitlint.engine.lint_run`): `--target script,trace`
then loses the parallelism `--target script` has, and its wall time grows more than its CPU time. The findings are
the same either way: each rule sees the same files, capture maps and run targets (`engine.RUN_TARGETS`: advice that
must not steer a user of two targets into the other's error knows both), only in another process.
"""

from __future__ import annotations

import multiprocessing
from pathlib import Path

from jitlint.cache import merge_graph
from jitlint.config import Config
from jitlint import engine
from jitlint.engine import RUN_TARGETS, UNUSED_NOQA, LintRun, needs_one_process
from jitlint.finding import Finding
from jitlint.rules import RULES


def lint_run_split(paths: list[Path], config: Config, enabled: set[str], *, jobs: int = 1, keep_model: bool = False,
                   policies: tuple[str, ...] = (), stdin=None, **options) -> LintRun:
    """`lint_run`, with the rules of one-process policies in a process of their own when the rest of the run is
    split across workers; a plain `lint_run` when nothing would run in parallel (one job, an in-memory file, the
    model kept for the dynamic checker, unused-noqa checks, which need every rule's findings of a file at once)."""
    together = _together(enabled)
    rest_rules = [rule for rule in RULES if rule.code in enabled - together and not rule.engine_reported]
    if (jobs < 2 or keep_model or policies or stdin is not None or options.get("buffers") or UNUSED_NOQA in enabled
            or not together or not rest_rules or "fork" not in multiprocessing.get_all_start_methods()
            or len(paths) == 0):
        return engine.lint_run(paths, config, enabled, jobs=jobs, keep_model=keep_model, policies=policies, stdin=stdin,
                        **options)
    targets = frozenset(rule.target for rule in RULES
                        if rule.code in enabled and not rule.engine_reported and rule.target is not None)
    context = multiprocessing.get_context("fork")
    receiving, sending = context.Pipe(duplex=False)
    RUN_TARGETS.append(targets)
    try:
        worker = context.Process(target=_lint_together, args=(sending, paths, config, together, options), daemon=True)
        try:
            worker.start()
        except OSError:
            worker = None
        sending.close()
        rest = engine.lint_run(paths, config, enabled - together, jobs=jobs, **options)
        if worker is None:
            found = None
        else:
            try:
                found = receiving.recv()
            except (EOFError, OSError):
                found = None
            worker.join(timeout=5)
        notes = list(rest.notes)
        if found is None or found[0] != "ok":
            notes.append(f"the one-process rules' process failed ({found[1] if found else 'no result'}); "
                         "linting them in this process instead")
            options = {key: value for key, value in options.items() if key not in ("progress", "apart")}
            run = engine.lint_run(paths, config, together, jobs=1, **options)
            found = ("ok", run.findings, run.loaded, run.contrib, run.graph, run.notes)
    finally:
        RUN_TARGETS.pop()
        receiving.close()
    _status, findings, loaded, contrib, graph, more_notes = found
    merged: dict[tuple, Finding] = {}
    for finding in [*rest.findings, *findings]:  # an error about the file itself may come from both sides
        merged.setdefault(finding.sort_key(), finding)
    combined_graph = dict(rest.graph)
    merge_graph(combined_graph, graph)
    return LintRun(sorted(merged.values(), key=Finding.sort_key), None, {},
                   [*rest.loaded, *(path for path in loaded if path not in rest.loaded)],
                   {**rest.contrib, **contrib}, combined_graph, notes=[*notes, *more_notes])


def _together(enabled: set[str]) -> set[str]:
    """The enabled codes whose rules' capture policy needs one process."""
    return {rule.code for rule in RULES if rule.code in enabled and rule.policy is not None
            and needs_one_process((rule.policy,))}


def _lint_together(connection, paths: list[Path], config: Config, codes: set[str], options: dict) -> None:
    options = {key: value for key, value in options.items() if key not in ("progress", "apart")}
    try:
        run = engine.lint_run(paths, config, codes, jobs=1, **options)
        connection.send(("ok", run.findings, run.loaded, run.contrib, run.graph, run.notes))
    except BaseException as error:  # reported by the parent, which lints these rules itself then
        connection.send(("failed", f"{type(error).__name__}: {error}"))
    finally:
        connection.close()
