"""The trace target's confirmer (`--dynamic --target trace`): `torch.jit.trace` on the linted module classes with
their declared example inputs, compared with eager on a second set, and each trace finding marked.

Tracing needs example inputs, which the source does not hold: `[tool.jitlint.trace] inputs` (or the shared
`[tool.jitlint.dynamic] inputs`) maps a class ("pkg.models:Net") to a function returning them, and
`compare-inputs` to one returning the second set (without it, the inputs function is called again). Each such
class is traced in a child process of its own (the user's interpreter), with the time limit of
`[tool.jitlint.dynamic] timeout`; the child side is `confirm_child.py` (see there what it observes).

A finding of the trace target is then, for the classes whose trace runs its code:
- `confirmed` when torch issued a TracerWarning at a line of the finding (also one its default filter hides: the
  detail says so), or the graph traced from the second set differs there, or the traced module fails there; for an
  error (TRC1xx), when torch.jit.trace failed with the text the rule's page quotes;
- `not-reproduced` when every such class traced and equalled eager on both sets with no warning at its lines (for
  an error: traced at all);
- `unverified` otherwise, with the reason: no class with declared inputs reaches it, a class was not built, the
  traced module differs from eager elsewhere, or the finding is advice (TRC3xx).

What torch said that no finding explains is reported: TRC010 at the line of a TracerWarning or of a difference
(or at the class when the difference names no line), TRC000 for a trace error (at the class: torch names no line).

`TraceStrategy` is the parent side of a strategy of the confirmer host (`jitlint.confirm`); `confirm_child.py`
(`run(module, inputs, ctx)`) its child side.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from jitlint import pages
from jitlint.codes import TARGET_OF
from jitlint.confirm import (Observation, Results, Root, Strategy, definition_line, file_request, module_roots,
                             reached_roots, real)
from jitlint.finding import Confirmation, Finding, Location

TRACE_ERROR = "TRC000"
TRACE_WARNING = "TRC010"


def _trace_settings(settings):
    config = getattr(settings, "config", None)
    if config is None:
        from jitlint.targets.trace.settings import TraceSettings

        return TraceSettings()
    return config.settings("trace")


def _inputs(settings) -> dict[str, str]:
    return {**getattr(settings, "inputs", {}), **_trace_settings(settings).inputs}


class TraceStrategy(Strategy):
    """How the trace target confirms its findings: what to trace, with which options, and how to mark."""

    name = "trace"
    child = Path(__file__).with_name("confirm_child.py")
    # Each class traced in a fresh interpreter with its own time limit, as a user's trace script would run it.
    isolate_roots = True

    def requests(self, run, settings):
        """Every linted module class with declared example inputs (what no rule saw is reported too), each with the
        function of its second set of inputs, if declared."""
        inputs = _inputs(settings)
        compare = _trace_settings(settings).compare_inputs
        return [file_request(run.project, root.module, [Root(root.name, inputs=inputs[root.key],
                                                             options={"compare": {root.name: compare.get(root.key)}})])
                for _key, root in sorted(module_roots(run.project).items()) if root.key in inputs]

    def options(self, run, settings) -> dict:
        return {"strict": _trace_settings(settings).strict}

    def mark(self, run, results: Results, torch_version: str, settings) -> list[Finding]:
        roots = module_roots(run.project)
        answers = results.roots
        captured = run.captured.get("trace")
        version = torch_version if answers else "n/a"
        out = []
        explained: set[tuple[str, str]] = set()  # roots where a finding was confirmed
        for finding in run.findings:
            if TARGET_OF.get(finding.code) != "trace" or finding.context is None:
                out.append(finding)
                continue
            reached = reached_roots(finding, captured, roots)
            status, detail = _judge(finding, reached, roots, answers, version)
            if status == "confirmed":
                explained |= reached
            out.append(dataclasses.replace(finding, confirmation=Confirmation(status, detail, version)))
        out.extend(_unexplained(answers, run.project, roots, version, explained))
        out.sort(key=Finding.sort_key)
        return out


def _short(text: str, limit: int = 110) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _page_error_in(code: str, text: str) -> bool:
    expected = " ".join(pages.torch_error(code).split())
    return bool(expected) and expected[:60] in " ".join(text.split())


def _verdict(outcome) -> str | None:
    """What the child side concluded of the trace ("accepts", "changes", "breaks", "rejects"); None when it did not
    trace."""
    return outcome.details.get("verdict")


def _judge(finding: Finding, reached: set, roots: dict, answers: dict, version: str) -> tuple[str, str]:
    if finding.severity == "info":
        return "unverified", "advice: nothing for torch to reproduce"
    if not reached:
        return "unverified", "no module class of the linted files reaches this code"
    checked = [key for key in sorted(reached) if key in answers]
    if not checked:
        name = roots[sorted(reached)[0]].key
        return "unverified", f"needs example inputs: name a function returning them for `{name}` in " \
                             "[tool.jitlint.trace] inputs"
    path = real(finding.context.path)
    rows = _rows(finding)
    here: list[tuple[tuple[str, str], Observation]] = [
        (key, observation) for key in checked for observation in answers[key].observations
        if observation.file is not None and real(observation.file) == path and observation.line in rows]
    for _key, observation in here:
        observation.used = True
    here.sort(key=lambda item: item[1].kind != "warning")  # torch's own warning first
    if here:
        key, observation = here[0]
        if observation.kind == "warning":
            hidden = " (hidden by torch's default filter)" if observation.details.get("hidden") else ""
            return "confirmed", (f"torch {version} warns here tracing {roots[key].name}{hidden}: "
                                 f"{_short(observation.message)}")
        return "confirmed", f"torch {version}, tracing {roots[key].name}: {_short(observation.message)}"
    if finding.severity == "error":
        for key in checked:
            for observation in answers[key].observations:
                if observation.kind == "error" and _page_error_in(finding.code, observation.message):
                    observation.used = True
                    return "confirmed", (f"torch {version} tracing {roots[key].name}: "
                                         f"{_short(observation.message)}")
    for key in checked:
        outcome = answers[key]
        if not outcome.built:
            return "unverified", outcome.reason or f"{roots[key].name} was not built"
        if _verdict(outcome) is None:
            return "unverified", outcome.reason or f"{roots[key].name} was not traced"
    if finding.severity == "error":
        traced = [key for key in checked if _verdict(answers[key]) != "rejects"]
        if traced:
            return "not-reproduced", f"torch {version} traced {', '.join(roots[k].name for k in traced)}"
        return "unverified", "masked: torch.jit.trace failed with another error first"
    wrong = [key for key in checked if _verdict(answers[key]) in ("changes", "breaks", "rejects")]
    if wrong:
        return "unverified", (f"the trace of {roots[wrong[0]].name} is wrong or failed, at lines no observation "
                              "ties to this one")
    names = ", ".join(roots[key].name for key in checked)
    return "not-reproduced", (f"torch {version} traced {names} with no warning here, and the traced module equals "
                              "eager on the second inputs")


def _rows(finding: Finding) -> set[int]:
    """The lines where torch's observations belong to the finding: its own, and for a frozen branch or loop
    (TRC201, TRC202 on a statement's header) the block below the header, where the frozen side's operations are."""
    rows = set(range(finding.location.row, finding.end_location.row + 1))
    if finding.code not in ("TRC201", "TRC202"):
        return rows
    lines = (finding.context.line_text and _source_lines(finding.context.path)) or []
    start = finding.context.statement_lines[1]
    if not lines or start > len(lines):
        return rows
    header = lines[finding.context.statement_lines[0] - 1]
    if not header.rstrip().endswith(":"):
        return rows
    indent = len(header) - len(header.lstrip())
    for number in range(start + 1, len(lines) + 1):
        text = lines[number - 1]
        if text.strip() and len(text) - len(text.lstrip()) <= indent:
            break
        rows.add(number)
    return rows


def _source_lines(path) -> list[str]:
    try:
        return Path(path).read_text(encoding="utf-8").splitlines()
    except OSError:
        return []


def _unexplained(answers: dict, project, roots: dict, version: str, explained: set) -> list[Finding]:
    """What torch said that no finding explains: TRC010 (warnings, differences), TRC000 (trace errors). A wrong
    result that names no line is explained by any confirmed finding of its class."""
    from jitlint.rules import RULES_BY_CODE

    linted = {real(m.path): m for m in project.modules.values() if m.linted}
    found: dict[tuple, Finding] = {}
    for key, outcome in sorted(answers.items()):
        for observation in outcome.observations:
            if observation.used:
                continue
            kind = observation.kind
            if kind in ("mismatch", "breaks") and observation.file is None and (key in explained or any(
                    o.kind in ("diverges", "breaks") and o.file for o in outcome.observations)):
                continue  # a confirmed finding, or the lines where it diverges, explain it
            rule = RULES_BY_CODE[TRACE_ERROR if kind == "error" else TRACE_WARNING]
            file = observation.file
            if file is not None and real(file) in linted:
                module, row, where = linted[real(file)], observation.line or 1, ""
            else:
                module = roots[key].module
                row = definition_line(module, key[1])
                where = f" (torch names no line; it was tracing `{key[1]}`)"
            hidden = " (hidden by torch's default filter)" if observation.details.get("hidden") else ""
            what = {"warning": f"torch.jit.trace warns here{hidden}", "error": "torch.jit.trace rejects this",
                    "diverges": "the traced graph depends on the example here",
                    "breaks": "the traced module fails here", "mismatch": "the traced module is wrong"}[kind]
            location = Location(row, 1)
            finding = Finding(rule.code, rule.name, f"{what}: {observation.message}{where}; no static rule "
                              "explains it yet", rule.severity, module.display_name, location, location,
                              url=pages.url(rule.code),
                              confirmation=Confirmation("confirmed", f"torch {version}: {_short(observation.message)}",
                                                        version))
            found.setdefault((finding.filename, row, rule.code), finding)
    return list(found.values())
