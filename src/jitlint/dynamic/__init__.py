"""The dynamic checker (`--dynamic`): run torch.jit.script on the linted modules and mark every finding.

It executes the user's code: in child processes, with time limits, never by default.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path

from jitlint import __version__
from jitlint.dynamic.confirm import confirm_findings
from jitlint.dynamic.runner import DynamicError, FileRequest, probe_torch, run_requests
from jitlint.names import module_name_for
from jitlint.targets.script.policy import is_script

__all__ = ["DynamicError", "DynamicSettings", "run_dynamic"]


@dataclass
class DynamicSettings:
    timeout: float = 60.0
    factories: dict[str, str] = field(default_factory=dict)
    python: str = sys.executable
    jobs: int = 2
    cache_dir: Path | None = None
    log_path: Path = Path(".jitlint_cache") / "dynamic" / "user-output.log"
    strict: bool = False
    # For the export target's confirmer: example inputs per class ("pkg.mod:Class" -> "pkg.mod:make_inputs") and
    # the export mode (`[tool.jitlint.export] strict`).
    inputs: dict[str, str] = field(default_factory=dict)
    export_strict: bool = False
    config: object = None  # the run's Config: where a target's confirmer reads its settings (`config.settings(name)`)


def build_requests(project, compiled) -> tuple[list[FileRequest], list[str]]:
    """One request per linted file that defines something torch scripts on its own: module classes and
    `@torch.jit.script` functions."""
    requests = []
    roots: set[str] = set()
    for module in project.modules.values():
        if not module.linted:
            continue
        classes = [name for name, cls in module.classes.items() if project.is_module_class(cls)]
        functions = [name for name, function in module.functions.items() if is_script(function)]
        if not classes and not functions:
            continue
        dotted, root = module_name_for(module.path)
        roots.add(str(root.resolve()))
        dependencies = [
            other.path for other in project.modules.values()
            if other is not module and other.linted and other.name.split(".")[0] == dotted.split(".")[0]
        ]
        methods = {
            name: [m for m, method in module.classes[name].methods.items()
                   if (entry := compiled.get(method.node)) is not None and entry.body_captured]
            for name in classes
        }
        free = [name for name, f in module.functions.items() if (entry := compiled.get(f.node)) is not None and entry.body_captured]
        requests.append(FileRequest(module.path.resolve(), dotted, str(root.resolve()), classes, functions,
                                    dependencies, methods, free))
    return requests, sorted(roots)


def run_dynamic(run, settings: DynamicSettings):
    """Confirm `run.findings` with torch; DynamicError (exit 2) when torch is missing."""
    torch_version = probe_torch(settings.python)
    requests, roots = build_requests(run.project, run.captured["script"])
    results = run_requests(
        requests,
        python=settings.python,
        torch_version=torch_version,
        jitlint_version=__version__,
        timeout=settings.timeout,
        factories=settings.factories,
        user_roots=roots,
        jobs=settings.jobs,
        cache_dir=settings.cache_dir,
        log_path=settings.log_path,
    )
    return confirm_findings(run.findings, results, run.captured["script"], run.project, torch_version, settings.strict)
