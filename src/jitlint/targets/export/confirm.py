"""The export target's confirmer strategy: `torch.export.export` on the linted module classes with their declared
example inputs, and each export finding marked.

Export needs example inputs, which the source does not hold: `[tool.jitlint.dynamic] inputs` maps a class
("pkg.models:Net") to a function returning them ("pkg.examples:net_inputs": a tuple of positional arguments, one
tensor, or {"args": ..., "dynamic_shapes": ...}). Each such class that an export finding reaches is exported in a
child process of its own (`isolate_roots`), with the time limit of `[tool.jitlint.dynamic] timeout`.

A finding of the export target is then:
- `confirmed` when torch's error names a line of its statement (in the message or the traceback, of export,
  draft_export or a submodule's export), or, for errors that name no line (a scripted submodule, `.data`), when a
  class that reaches it fails with its page's error text;
- `not-reproduced` (an error finding) when every class that reaches it exported; `unverified` with the reason
  otherwise: "needs example inputs" for a class without declared inputs, "masked" when torch stopped at another
  error first, and for silent changes (warnings) and TorchScript-only constructs (infos) "silent", since export
  accepting the model is what they say.
"""

from __future__ import annotations

import re
from pathlib import Path

from jitlint import pages
from jitlint.codes import TARGET_OF
from jitlint.confirm import Root, Strategy, file_request, marked, module_roots, reached_roots, real
from jitlint.finding import Finding


def _shape(text: str) -> str:
    text = re.sub(r"'[^']*'", "''", text)
    text = re.sub(r"\w+\.forward\(\)", "forward()", text)
    return " ".join(re.sub(r"\d+", "0", text).split())


def _page_error_in(code: str, text: str) -> bool:
    expected = _shape(pages.torch_error(code))
    return bool(expected) and expected in _shape(text)


def _names_no_line(code: str) -> bool:
    """The rule's page says torch's error names no line of the model (a scripted submodule, `.data`)."""
    return "- **Torch location**: none" in (pages.read(code) or "")


def _strict(config) -> bool:
    """`[tool.jitlint.export] strict`: judge strict-mode torch.export."""
    return config.settings("export").strict


def _ours(run) -> list[Finding]:
    return [f for f in run.findings if TARGET_OF.get(f.code) == "export" and f.context is not None]


class ExportStrategy(Strategy):
    name = "export"
    child = Path(__file__).with_name("confirm_child.py")
    # Each model in a fresh interpreter with its own time limit: export's state (dynamo's caches, the fake kernels
    # it registers) is per process.
    isolate_roots = True

    def requests(self, run, settings):
        """The module classes with declared example inputs that an export finding reaches."""
        roots = module_roots(run.project)
        captured = run.captured["export"]
        wanted = sorted({key for finding in _ours(run) for key in reached_roots(finding, captured, roots)
                         if roots[key].key in settings.inputs})
        return [file_request(run.project, roots[key].module,
                             [Root(roots[key].name, inputs=settings.inputs[roots[key].key])]) for key in wanted]

    def options(self, run, settings):
        return {"strict": _strict(settings.config),
                "user_files": sorted(real(m.path) for m in run.project.modules.values() if m.linted)}

    def mark(self, run, results, torch_version, settings):
        roots = module_roots(run.project)
        captured = run.captured["export"]
        ours = {id(finding) for finding in _ours(run)}
        # no model exported: torch's version played no part
        version = torch_version if results.roots else "n/a"
        marked_findings = []
        for finding in run.findings:
            if id(finding) not in ours:
                marked_findings.append(finding)
                continue
            status, detail = _judge(finding, reached_roots(finding, captured, roots), roots, results.roots, version)
            marked_findings.append(marked(finding, status, detail, version))
        marked_findings.sort(key=Finding.sort_key)
        return marked_findings


def _short(text: str, limit: int = 90) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _judge(finding: Finding, reached: set, roots: dict, answers: dict, torch_version: str) -> tuple[str, str]:
    if not reached:
        return "unverified", "no module class of the linted files reaches this code"
    missing = sorted(roots[key].key for key in reached if key not in answers)
    checked = [key for key in sorted(reached) if key in answers]
    if not checked:
        return "unverified", (f"needs example inputs: name a function returning them for `{missing[0]}` in "
                              "[tool.jitlint.dynamic] inputs")
    path = real(finding.context.path)
    # The flagged node's own lines: torch names the line of the test, call or attribute (a finding's statement may
    # be the whole function or class its rule visited).
    first, last = finding.location.row, finding.end_location.row
    for key in checked:
        for error in answers[key].observations:
            at = [line for file, line in error.details.get("lines", []) if file == path and first <= line <= last]
            if at:
                return "confirmed", (f"torch {torch_version} ({error.details['source']}): {_short(error.message)} "
                                     f"(line {at[0]})")
    for key in checked:
        for error in answers[key].observations:
            if _names_no_line(finding.code) and _page_error_in(finding.code, error.details.get("text", "")):
                return "confirmed", (f"torch {torch_version} ({error.details['source']}) exporting {roots[key].name}: "
                                     f"{_short(error.message)}")
    for key in checked:
        answer = answers[key]
        if not answer.built:
            return "unverified", answer.reason or f"{roots[key].name} was not exported"
    failed = [key for key in checked if not answers[key].passed]
    if finding.severity != "error":
        if failed:
            error = answers[failed[0]].observations[0]
            return "unverified", f"silent change; torch.export of {roots[failed[0]].name} failed elsewhere: " \
                                 f"{_short(error.message)}"
        names = ", ".join(roots[key].name for key in checked)
        return "unverified", f"silent: torch {torch_version} exported {names} without an error, as expected"
    if failed:
        error = answers[failed[0]].observations[0]
        lines = error.details.get("lines")
        where = f" (line {lines[0][1]})" if lines else ""
        return "unverified", f"masked: torch.export stopped at another error first: {_short(error.message)}{where}"
    if missing:
        return "unverified", f"needs example inputs for `{missing[0]}` ([tool.jitlint.dynamic] inputs)"
    names = ", ".join(roots[key].name for key in checked)
    return "not-reproduced", f"torch {torch_version} exported {names} with the declared inputs"
