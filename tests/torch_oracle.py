"""The ground truth: what torch.jit.script of the pinned torch says about a source file.

Imports the file as a fresh module, instantiates every nn.Module subclass it defines (no-argument constructors),
and scripts each. The result carries torch's first line in that file (rules-catalog §0.2).
"""

from __future__ import annotations

import importlib.util
import itertools
import re
import sys
import warnings
from dataclasses import dataclass
from pathlib import Path

_counter = itertools.count()


@dataclass
class ScriptResult:
    ok: bool
    message: str = ""
    line: int | None = None
    message_full: str = ""


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
            if package_root is not None:
                module = importlib.import_module(name)
            else:
                spec = importlib.util.spec_from_file_location(name, path)
                module = importlib.util.module_from_spec(spec)
                sys.modules[name] = module
                spec.loader.exec_module(module)
            classes = [
                value for value in vars(module).values()
                if isinstance(value, type) and issubclass(value, nn.Module) and value.__module__ == name
            ]
            assert classes or any(isinstance(v, torch.jit.ScriptFunction) for v in vars(module).values()), (
                "the example defines nothing to script"
            )
            for cls in classes:
                torch.jit.script(cls())
    except Exception as error:  # torch raises RuntimeError, NotSupportedError, and a few Python errors
        text = str(error)
        match = re.search(rf'File "{re.escape(str(path))}", line (\d+)', text)
        return ScriptResult(False, text.strip().splitlines()[0] if text.strip() else type(error).__name__,
                            int(match.group(1)) if match else None, text)
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
