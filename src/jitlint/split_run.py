"""The lint phase of a run kept in one process, in two parts at the same time.

A run with a capture policy that follows values through call sites across files (`needs_one_process`: trace,
compile, fx tracing) is not split across workers (`jitlint.engine.lint_run`): `--target script,trace` then loses
the parallelism `--target script` has, and its wall time grows more than its CPU time. Once the files are parsed and
the capture maps built, the rules of those policies and the other rules (script, export...) need nothing from each
other: the other rules lint in this process while a forked child, which shares the parsed run copy-on-write, lints
the one-process rules (no file is parsed twice). The findings are the same: each part sees the same trees, maps and
run targets (`RUN_TARGETS`: advice that must not steer a user of two targets into the other's error knows both).
"""

from __future__ import annotations

import multiprocessing
from pathlib import Path
from typing import Any, Callable

from jitlint.targets import policy_class

# The whole run's targets while its rules are linted in parts (read by `jitlint.engine`'s per-file lint).
RUN_TARGETS: list[frozenset[str]] = []


def lint_in_parts(rules: list, lint_all: Callable, progress, loaded: list[Path], notes: list[str],
                  parts: bool) -> list:
    """The findings of `lint_all(rules)` (`lint_all(group, progress)` lints every module with a group of rules);
    with `parts`, those of the one-process policies' rules in a forked child at the same time as the others here
    (the files the child read on demand are added to `loaded`)."""
    together = [rule for rule in rules if rule.policy is not None
                and getattr(policy_class(rule.policy), "needs_one_process", False)]
    if not parts or not together or len(together) == len(rules):
        return lint_all(rules, progress)
    rest = [rule for rule in rules if rule not in together]
    targets = frozenset(rule.target for rule in rules if rule.target is not None)
    mine, (theirs, read) = in_two_parts(lambda: lint_all(rest, progress),
                                        lambda: (lint_all(together), list(loaded)), targets, notes)
    loaded.extend(path for path in read if path not in loaded)
    return mine + theirs


def in_two_parts(here: Callable[[], Any], there: Callable[[], Any], targets: frozenset[str],
                 notes: list[str]) -> tuple[Any, Any]:
    """(here(), there()): `there` in a forked child while `here` runs in this process, its (picklable) result sent
    back; in this process after `here` when the child cannot be started or fails (said in `notes`)."""
    RUN_TARGETS.append(targets)
    try:
        if "fork" not in multiprocessing.get_all_start_methods():
            return here(), there()
        context = multiprocessing.get_context("fork")
        receiving, sending = context.Pipe(duplex=False)
        child = context.Process(target=_child, args=(sending, there), daemon=True)
        try:
            child.start()
        except OSError as error:
            notes.append(f"could not start the process for the one-process rules ({error}); linting them here")
            return here(), there()
        finally:
            sending.close()
        try:
            mine = here()
            try:
                status, theirs = receiving.recv()
            except (EOFError, OSError) as error:
                status, theirs = "failed", f"no result ({type(error).__name__})"
        finally:
            receiving.close()
            child.join(timeout=5)
        if status != "ok":
            notes.append(f"the process for the one-process rules failed ({theirs}); linting them here")
            theirs = there()
        return mine, theirs
    finally:
        RUN_TARGETS.pop()


def _child(connection, work: Callable[[], Any]) -> None:
    try:
        result = ("ok", work())
    except BaseException as error:  # reported by the parent, which does the work itself then
        result = ("failed", f"{type(error).__name__}: {error}")
    try:
        connection.send(result)
    finally:
        connection.close()
