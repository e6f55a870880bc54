"""The script oracle: what torch.jit.script of the pinned torch says about a source file (in the test process).

Imports the file as a fresh module, instantiates every nn.Module subclass it defines (no-argument constructors),
and scripts each. The result says which stage failed, so that only torch.jit.script itself counts as a rejection:

- "import": executing the module raised (an ImportError, a NameError, ...);
- "build": the file defines nothing to script, or a module's constructor raised;
- "script": the exception was raised by a `torch.jit.script(...)` call: ours, or one the file makes itself
  (a module-level `@torch.jit.script`, a `torch.jit.script(...)` in a constructor). Decided by the traceback: the
  exception propagated out of `torch.jit.script`'s own frame.

The result carries torch's first line in that file (where a user would look first).
"""

from __future__ import annotations

import importlib.util
import itertools
import re
import sys
import warnings
from dataclasses import dataclass
from pathlib import Path

from oracles import Verdict, normalise

_counter = itertools.count()

STAGES = ("import", "build", "script")


@dataclass
class ScriptResult(Verdict):
    tool_stage = "script"

    def says(self, quoted: str) -> bool:
        """Does torch's whole message contain `quoted` (a page's error text), up to whitespace, memory addresses
        (a page writes `0x...`) and the oracle's module name (torch says `__torch__.Add` for a class of a file
        run as a script, `__torch__._jitlint_oracle_7.Add` here)?"""
        text = self.message_full if self.message_full.strip() else self.error_type  # `StopIteration` has no text
        if self.module:
            text = text.replace(f"__torch__.{self.module}.", "__torch__.").replace(f"'{self.module}.", "'")
        return bool(quoted.strip()) and normalise(quoted) in normalise(text)

    def describe(self) -> str:
        return "scripted" if self.ok else super().describe()


def _raised_by_script(error: BaseException) -> bool:
    """Did `error` propagate out of a `torch.jit.script` call, or out of a TorchScript decorator that compiles or
    checks its declaration when the module is imported (`torch.jit.interface`, `torch.jit._overload`)?"""
    import torch

    codes = {torch.jit._script.script.__code__, torch.jit._script.interface.__code__,
             torch._jit_internal._overload.__code__, torch._jit_internal._overload_method.__code__}
    tb = error.__traceback__
    while tb is not None:
        if tb.tb_frame.f_code in codes:
            return True
        tb = tb.tb_next
    return False


def _failure(stage: str, error: BaseException, path: Path, module: str) -> ScriptResult:
    if stage != "script" and _raised_by_script(error):
        stage = "script"  # a torch.jit.script call the file itself makes, while importing or constructing
    text = str(error)
    match = re.search(rf'File "{re.escape(str(path))}", line (\d+)', text)
    first = text.strip().splitlines()[0] if text.strip() else type(error).__name__
    return ScriptResult(False, stage, type(error).__name__, first, text, int(match.group(1)) if match else None,
                        module=module)


def script_file(path: Path, package_root: Path | None = None) -> ScriptResult:
    """Script every module class `path` defines. With `package_root`, import it as part of its package (so
    relative imports work) from that directory."""
    import importlib

    import torch
    import torch.nn as nn

    if package_root is not None:
        relative = path.relative_to(package_root).with_suffix("")
        name = ".".join(relative.parts)
        sys.path.insert(0, str(package_root))
    else:
        name = f"_jitlint_oracle_{next(_counter)}"
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                if package_root is not None:
                    module = importlib.import_module(name)
                else:
                    spec = importlib.util.spec_from_file_location(name, path)
                    module = importlib.util.module_from_spec(spec)
                    sys.modules[name] = module
                    spec.loader.exec_module(module)
            except Exception as error:
                return _failure("import", error, path, name)
            classes = [
                value for value in vars(module).values()
                if isinstance(value, type) and issubclass(value, nn.Module) and value.__module__ == name
                and not hasattr(value, "__torch_script_interface__")  # a `@torch.jit.interface`: a type, not a module
            ]
            if not classes and not any(isinstance(v, torch.jit.ScriptFunction) for v in vars(module).values()):
                return ScriptResult(False, "build", "", "the example defines nothing to script",
                                    "the example defines nothing to script", module=name)
            for cls in classes:
                try:
                    instance = cls()
                except Exception as error:
                    return _failure("build", error, path, name)
                try:
                    # A class that brings its own entry point (Lightning's `to_torchscript`, which sets what its
                    # properties need while torch reads them) is scripted through it, as its users script it.
                    scripting = getattr(instance, "to_torchscript", None)
                    scripting() if callable(scripting) else torch.jit.script(instance)
                except Exception as error:  # RuntimeError, NotSupportedError, and a few Python errors
                    return _failure("script", error, path, name)
    finally:
        if package_root is not None:
            sys.path.remove(str(package_root))
        else:
            sys.modules.pop(name, None)
    return ScriptResult(True)


def script_source(source: str, directory: Path, filename: str = "example.py") -> ScriptResult:
    path = directory / filename
    path.write_text(source)
    return script_file(path)


def run(source: str, directory: Path) -> ScriptResult:
    """The verdict of torch.jit.script on every module class of `source` (see `script_file`)."""
    return script_source(source, directory)


