"""The dynamic confirmer host (`--dynamic`): run the real tool on the linted modules and mark every finding.

It executes the user's code: in child processes (the configured interpreter, which needs torch but not jitlint),
with a time limit per request, never by default. The host does what every target needs alike:

- plans nothing itself: a target's **strategy** says which roots (module classes, or functions) of which files to
  build, with which options and example inputs;
- runs the requests in a pool of children (`pool.py`): each imports torch once; a request that hangs, crashes or
  exits costs only its own child, and becomes a failure naming why; whatever the user's code prints goes to
  `.jitlint_cache/dynamic/user-output.log`; answers are cached by the file's content and that of the linted files
  of its package, the torch version, the interpreter, jitlint's version and the strategy's options;
- in the child (`child.py`): imports each file as part of its package (or standalone), builds each class root (a
  declared factory, else a constructor whose parameters all have defaults, else or when that raises the
  arguments (literals, the library's own functions and classes) of a construction site of the class in the project (`constructions.py`: calls and doctest examples);
  "needs constructor arguments: ..." otherwise), calls its example-inputs function when one is declared (`[tool.jitlint.dynamic] inputs`), and hands
  the result to the strategy's child side; offers it the retry loop (`ctx.until_clean`) that makes the failing part
  opaque and captures again, so one run finds several errors;
- reads the answers back (`results.py`: `Results`, `Observation`) and gives the strategy the helpers to mark each
  finding `confirmed` | `not-reproduced` | `unverified` with a detail and the torch version (`marked`), to find the
  roots whose capture reaches a finding (`reaching`) and to report what torch rejected that no finding explains
  (`unexplained`).

A strategy lives in its target's package and is named by `Target(confirmer="jitlint.targets.<name>.confirm:<Class>")`.
It has two sides, because the child runs in the user's interpreter, which may lack jitlint's dependencies:

- the parent side, a `Strategy` subclass: `requests(run, settings)` (what to build, file by file), `options(run,
  settings)` (JSON the child side reads; part of the cache key), `mark(run, results, torch_version, settings)`
  (the findings, marked); `isolate_roots = True` gives each root its own request, child process and time limit;
- the child side, the file `child` names, standard library and torch only: `run(target, inputs, ctx)`, called with
  the built module (or function), its `Inputs(args, dynamic_shapes)` or None, and a `Context` (`torch`, `module`,
  `name`, `options`, `is_user_file`, `example_inputs` for another set, `until_clean`); it returns `{"passed": bool, "observations": [{"file", "line",
  "message", "kind", ...}], ...}`. An optional `setup(torch)` runs once per child; an optional
  `run_unbuilt(cls, ctx)` is called with a class root that needs constructor arguments, and returns the
  observations the strategy can make of the class without an instance (`{"observations": [...]}`). `ctx.until_clean(attempt,
  explain)` is the retry loop: at most `max_attempts` captures (20; an option of that name changes it).

A strategy that runs each module class with declared inputs through `torch.jit.trace` and confirms a finding when
a TracerWarning names its line (a sketch: the real one also compares traced with eager outputs):

    # targets/trace/confirm_child.py: the user's interpreter, standard library and torch only
    import warnings

    def run(module, inputs, ctx):
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            try:
                ctx.torch.jit.trace(module.eval(), inputs.args)
            except Exception as error:
                return {"passed": False, "observations": [
                    {"file": None, "line": None, "message": str(error)[:300], "kind": "error"}]}
        return {"passed": True, "observations": [
            {"file": w.filename, "line": w.lineno, "message": str(w.message), "kind": "warning"}
            for w in seen if ctx.is_user_file(w.filename)]}

    # targets/trace/confirm.py
    class TraceStrategy(Strategy):
        name = "trace"
        child = Path(__file__).with_name("confirm_child.py")

        def requests(self, run, settings):
            project, requests = run.project, []
            for module in project.modules.values():
                dotted = module_name_for(module.path)[0]
                roots = [Root(name, inputs=settings.inputs[f"{dotted}:{name}"])
                         for name, cls in module.classes.items()
                         if project.is_module_class(cls) and f"{dotted}:{name}" in settings.inputs]
                if module.linted and roots:
                    requests.append(file_request(project, module, roots))
            return requests

        def mark(self, run, results, torch_version, settings):
            said = {(real(o.file), o.line): o.message for o in results.observations if o.file}
            return [marked(f, "confirmed", said[key], torch_version)
                    if f.code.startswith("TRC") and (key := (real(f.context.path), f.location.row)) in said else f
                    for f in run.findings]
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar

from jitlint import __version__
from jitlint.confirm.constructions import add_constructions
from jitlint.confirm.pool import ConfirmError, FileRequest, FileResult, Root, probe_torch, run_requests
from jitlint.confirm.results import (ModuleRoot, Observation, Results, RootOutcome, definition_line, marked,
                                     module_roots, reached_roots, reaching, real, unexplained)
from jitlint.names import module_name_for

__all__ = [
    "ConfirmError", "ConfirmSettings", "FileRequest", "FileResult", "ModuleRoot", "Observation", "Results", "Root",
    "RootOutcome", "Strategy", "confirm", "definition_line", "file_request", "marked", "module_roots", "reached_roots",
    "reaching", "real", "unexplained",
]


@dataclass
class ConfirmSettings:
    timeout: float = 60.0
    factories: dict[str, str] = field(default_factory=dict)  # "pkg.mod:Class" -> "pkg.factories:make"
    python: str = sys.executable
    jobs: int = 2
    cache_dir: Path | None = None
    log_path: Path = Path(".jitlint_cache") / "dynamic" / "user-output.log"
    strict: bool = False  # an error torch did not reproduce stays an error
    inputs: dict[str, str] = field(default_factory=dict)  # "pkg.mod:Class" -> "pkg.examples:make_inputs"
    config: object = None  # the run's Config: where a strategy reads its target's settings

    @classmethod
    def from_config(cls, config, *, jobs: int, cache_dir: Path, no_cache: bool = False,
                    strict: bool = False) -> "ConfirmSettings":
        """`[tool.jitlint.dynamic]` of `config`; results cached under `cache_dir` unless `no_cache`."""
        return cls(
            timeout=config.dynamic_timeout, factories=config.dynamic_factories,
            python=config.dynamic_python or sys.executable, jobs=jobs, cache_dir=None if no_cache else cache_dir,
            log_path=cache_dir / "dynamic" / "user-output.log", strict=strict, inputs=config.dynamic_inputs,
            config=config,
        )


class Strategy:
    """How one target confirms its findings (see the module docstring)."""

    name: ClassVar[str]  # the target's name
    child: ClassVar[Path]  # the file of its child side: `run(target, inputs, ctx)`, optionally `setup(torch)`
    isolate_roots: ClassVar[bool] = False  # each root in a child process and a time limit of its own

    def requests(self, run, settings: ConfirmSettings) -> list[FileRequest]:
        raise NotImplementedError

    def options(self, run, settings: ConfirmSettings) -> dict:
        return {}

    def mark(self, run, results: Results, torch_version: str, settings: ConfirmSettings) -> list:
        raise NotImplementedError


def file_request(project, module, roots: list[Root]) -> FileRequest:
    """A request for `roots` of the linted `module`, imported as part of its package (or standalone), keyed in the
    cache by its content and that of the linted files of the same top-level package."""
    dotted, root = module_name_for(module.path)
    dependencies = [
        other.path for other in project.modules.values()
        if other is not module and other.linted and other.name.split(".")[0] == dotted.split(".")[0]
    ]
    return FileRequest(module.path.resolve(), dotted, str(root.resolve()), roots, dependencies)


def confirm(strategy: Strategy, run, settings: ConfirmSettings) -> list:
    """`run.findings`, marked by `strategy` with what torch does; ConfirmError (exit 2) when torch is missing."""
    requests = strategy.requests(run, settings)
    add_constructions(run.project, requests, settings.factories)
    torch_version = probe_torch(settings.python)
    if strategy.isolate_roots:
        requests = [request.only(root) for request in requests for root in request.roots]
    answers = run_requests(
        requests, strategy=strategy.name, strategy_file=strategy.child, options=strategy.options(run, settings),
        python=settings.python, torch_version=torch_version, jitlint_version=__version__, timeout=settings.timeout,
        factories=settings.factories, jobs=settings.jobs, cache_dir=settings.cache_dir, log_path=settings.log_path,
        fresh_child=strategy.isolate_roots,
    )
    return strategy.mark(run, Results(answers), torch_version, settings)
