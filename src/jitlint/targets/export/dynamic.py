"""The export target's dynamic confirmer (`--dynamic --target export`): run `torch.export.export` on the linted
module classes with their declared example inputs, and mark each export finding.

Export needs example inputs, which the source does not hold: `[tool.jitlint.dynamic] inputs` maps a class
("pkg.models:Net") to a function returning them ("pkg.examples:net_inputs": a tuple of positional arguments, one
tensor, or {"args": ..., "dynamic_shapes": ...}). Each such class is exported in its own child process (the user's
interpreter, `worker.py`), with the time limit of `[tool.jitlint.dynamic] timeout`.

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

import dataclasses
import json
import os
import re
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from jitlint import pages
from jitlint.codes import TARGET_OF
from jitlint.finding import Confirmation, Finding
from jitlint.names import module_name_for

WORKER = Path(__file__).with_name("worker.py")
MARKER = "@@JITLINT-EXPORT@@"


def _real(path) -> str:
    return os.path.realpath(str(path))


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


def _version(python: str) -> str:
    try:
        done = subprocess.run([python, "-c", "import importlib.metadata as m, sys; "
                               "sys.stdout.write(m.version('torch').split('+')[0])"],
                              capture_output=True, text=True, timeout=120)
    except (OSError, subprocess.SubprocessError):
        done = None
    if done is None or done.returncode != 0 or not done.stdout.strip():
        from jitlint.dynamic import DynamicError

        raise DynamicError(f"--dynamic --target export: torch is not installed in {python}")
    return done.stdout.strip()


@dataclasses.dataclass
class Root:
    """A module class of the linted files, as export sees it."""

    path: str
    name: str
    key: str  # "pkg.module:Class", as `inputs` and `factories` name it
    module: str
    root: str


def _roots(project) -> dict[tuple[str, str], Root]:
    found = {}
    for module in project.modules.values():
        if not module.linted:
            continue
        dotted, root = module_name_for(module.path)
        for name, cls in module.classes.items():
            if project.is_module_class(cls):
                found[(_real(module.path), name)] = Root(_real(module.path), name, f"{dotted}:{name}", dotted,
                                                         str(Path(root).resolve()))
    return found


def _reaching(finding: Finding, captured, project, roots: dict) -> set[tuple[str, str]]:
    """The linted module classes whose export traces the finding's code (or, for a class-level finding, holds it)."""
    context = finding.context
    function = getattr(context, "function", None)
    path = _real(context.path)
    if function is None:
        name = (context.scope or "").split(".")[0]
        return {(path, name)} if (path, name) in roots else set()
    reached: set[tuple[str, str]] = set()
    for current in captured.upstream(function.info):
        entry = captured.get(current.node)
        for owner in entry.owners if entry else []:
            key = (_real(owner.module.path), owner.name)
            if key in roots:
                reached.add(key)
    return reached


def _export(root: Root, settings, user_files: list[str], strict: bool) -> dict:
    job = {"module": root.module, "cls": root.name, "root": root.root, "inputs": settings.inputs[root.key],
           "factory": settings.factories.get(root.key), "strict": strict, "user_files": user_files}
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([root.root, *filter(None, [env.get("PYTHONPATH")])])
    try:
        done = subprocess.run([settings.python, str(WORKER)], input=json.dumps(job), capture_output=True, text=True,
                              timeout=settings.timeout, env=env, cwd=root.root)
    except subprocess.TimeoutExpired:
        return {"stage": "timeout", "errors": [], "reason": f"exporting {root.name} took over {settings.timeout:g} s"}
    if MARKER not in done.stdout:
        tail = (done.stderr.strip().splitlines() or ["no output"])[-1]
        return {"stage": "crash", "errors": [], "reason": f"the export worker for {root.name} died: {tail}"}
    return json.loads(done.stdout.split(MARKER, 1)[1])


def run_dynamic(run, settings) -> list[Finding]:
    """Mark the export findings of `run` with what `torch.export.export` says (see the module docstring)."""
    captured = run.captured["export"]
    project = run.project
    inputs = settings.inputs
    strict = settings.export_strict
    ours = [f for f in run.findings if TARGET_OF.get(f.code) == "export" and f.context is not None]
    roots = _roots(project)
    reaching = {id(f): _reaching(f, captured, project, roots) for f in ours}
    wanted = sorted({key for keys in reaching.values() for key in keys if roots[key].key in inputs})
    torch_version = _version(settings.python) if wanted else ""
    user_files = sorted(_real(m.path) for m in project.modules.values() if m.linted)
    with ThreadPoolExecutor(max_workers=max(1, min(settings.jobs, len(wanted) or 1))) as pool:
        answers = dict(zip(wanted, pool.map(lambda key: _export(roots[key], settings, user_files, strict), wanted)))
    marked = []
    for finding in run.findings:
        if id(finding) not in reaching:
            marked.append(finding)
            continue
        status, detail = _judge(finding, reaching[id(finding)], roots, answers, torch_version)
        version = torch_version or "n/a"
        marked.append(dataclasses.replace(finding, confirmation=Confirmation(status, detail, version)))
    marked.sort(key=Finding.sort_key)
    return marked


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
    path = _real(finding.context.path)
    # The flagged node's own lines: torch names the line of the test, call or attribute (a finding's statement may
    # be the whole function or class its rule visited).
    first, last = finding.location.row, finding.end_location.row
    for key in checked:
        for error in answers[key].get("errors", []):
            at = [line for file, line in error.get("lines", []) if file == path and first <= line <= last]
            if at:
                return "confirmed", f"torch {torch_version} ({error['source']}): {_short(error['message'])} (line {at[0]})"
    for key in checked:
        for error in answers[key].get("errors", []):
            if _names_no_line(finding.code) and _page_error_in(finding.code, error.get("text", "")):
                return "confirmed", (f"torch {torch_version} ({error['source']}) exporting {roots[key].name}: "
                                     f"{_short(error['message'])}")
    for key in checked:
        answer = answers[key]
        if answer.get("stage") not in ("done", "export"):
            return "unverified", answer.get("reason") or f"{roots[key].name} was not exported"
    failed = [key for key in checked if answers[key].get("stage") == "export"]
    if finding.severity != "error":
        if failed:
            error = answers[failed[0]]["errors"][0]
            return "unverified", f"silent change; torch.export of {roots[failed[0]].name} failed elsewhere: " \
                                 f"{_short(error['message'])}"
        names = ", ".join(roots[key].name for key in checked)
        return "unverified", f"silent: torch {torch_version} exported {names} without an error, as expected"
    if failed:
        error = answers[failed[0]]["errors"][0]
        where = f" (line {error['lines'][0][1]})" if error.get("lines") else ""
        return "unverified", f"masked: torch.export stopped at another error first: {_short(error['message'])}{where}"
    if missing:
        return "unverified", f"needs example inputs for `{missing[0]}` ([tool.jitlint.dynamic] inputs)"
    names = ", ".join(roots[key].name for key in checked)
    return "not-reproduced", f"torch {torch_version} exported {names} with the declared inputs"
