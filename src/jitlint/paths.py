"""Path helpers that need nothing heavy (the cached path of a run imports these)."""

from __future__ import annotations

import functools
import os
from pathlib import Path
from typing import Callable


def resolved(path: Path) -> Path:
    """`path.resolve()`, which raises on a symlink loop: then the absolute path (reading it reports the loop)."""
    try:
        return path.resolve()
    except (OSError, RuntimeError):
        return path.absolute()


# A directory holding one of these is where a project's imports start (a `sys.path` entry), never a package.
PROJECT_MARKERS = ("pyproject.toml", "setup.py", "setup.cfg", ".git")


def module_name_of(real: str, is_package: Callable[[str], bool],
                   is_project_root: Callable[[str], bool]) -> tuple[str, str]:
    """The dotted module name of the file at the resolved path `real`, and the directory imports of it start from,
    as Python's import system resolves it (PEP 420): up through the directories that hold an `__init__.py`, and
    through the directories without one (namespace packages) that lie inside such a package, up to the topmost
    package below a project root. Directories without one above the topmost package are namespace packages too
    when the directory above them is where installed distributions live (`is_install_root`: `pyannote/audio/`
    in site-packages is `pyannote.audio`). A directory without `__init__.py` and no package above it is where
    imports start (a script's directory). The one definition of module names: the static analysis
    (`names.module_name_for`), the cache's layout and the dynamic checker (which imports the file by this name,
    from that directory) share it."""
    directory, base = os.path.split(real)
    stem = os.path.splitext(base)[0]
    parts = [stem] if stem != "__init__" else []
    top = None
    pending: list[str] = []  # namespace directories above the last package found
    current = directory
    while os.path.dirname(current) != current:
        if is_package(current):
            parts.extend(pending)
            parts.append(os.path.basename(current))
            pending = []
            top = current
        elif is_project_root(current):
            break
        elif top is not None and 0 < len(pending) <= _NAMESPACE_DEPTH and is_install_root(current):
            parts.extend(pending)
            top = os.path.join(current, pending[-1])
            break
        else:
            pending.append(os.path.basename(current))
        current = os.path.dirname(current)
    root = os.path.dirname(top) if top is not None else directory
    return ".".join(reversed(parts)) or os.path.basename(directory), root


def has_init(directory: str) -> bool:
    return os.path.isfile(os.path.join(directory, "__init__.py"))


_NAMESPACE_DEPTH = 2  # top-level namespace packages nest at most this deep (`google/cloud/<package>`)


@functools.lru_cache(maxsize=1024)
def is_install_root(directory: str) -> bool:
    """Whether installed distributions live in the directory (a `sys.path` entry such as site-packages): it holds
    a `*.dist-info` or `*.egg-info` folder. Cached for the process (a server sees such a folder made later only
    after a restart)."""
    try:
        return any(name.endswith((".dist-info", ".egg-info")) for name in os.listdir(directory))
    except OSError:
        return False


def is_project_root(directory: str) -> bool:
    return any(os.path.exists(os.path.join(directory, marker)) for marker in PROJECT_MARKERS)

