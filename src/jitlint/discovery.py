"""Which files a run lints: the paths given, walked in sorted order, minus what is excluded. No LibCST here: a
cached run discovers files too."""

from __future__ import annotations

import errno
import os
from pathlib import Path

from jitlint.config import Config, is_default_excluded
from jitlint.gitignore import GitIgnore
from jitlint.paths import resolved
from jitlint.source_error import SourceError, cannot_read

PYTHON_SUFFIXES = (".py", ".pyi")


# -- discovery --------------------------------------------------------------------------------------------------
def discover(paths: list[Path], config: Config, force_exclude: bool = False) -> tuple[list[Path], list[SourceError]]:
    """Python files under `paths`, sorted; explicit files are kept unless `force_exclude` (pre-commit's case)."""
    found: dict[Path, Path] = {}
    errors: list[SourceError] = []
    for path in paths:
        if path.is_dir():
            for file in _walk(path, config):
                found.setdefault(resolved(file), file)
        elif path.is_file() or path.exists():
            if force_exclude and (config.is_excluded(path) or any(is_default_excluded(p) for p in path.parts[:-1])):
                continue
            found.setdefault(resolved(path), path)
        elif os.path.lexists(path):  # a broken or looping link: reading it says which, as for a walked one
            found.setdefault(resolved(path), path)
        else:
            errors.append(SourceError(path, str(path), "JIT002", cannot_read(path, FileNotFoundError(
                errno.ENOENT, os.strerror(errno.ENOENT)))))
    return sorted(found.values(), key=lambda p: str(p)), errors


def any_file(paths: list[Path], config: Config, force_exclude: bool = False) -> bool:
    """Whether `discover` finds anything (a file, or a path it reports as unreadable), stopping at the first."""
    for path in paths:
        if path.is_dir():
            if next(_walk(path, config), None) is not None:
                return True
        elif not (force_exclude and path.exists() and (config.is_excluded(path) or any(
                is_default_excluded(p) for p in path.parts[:-1]))):
            return True
    return False


def _walk(root: Path, config: Config):
    ignore = GitIgnore(root) if config.respect_gitignore else None
    for directory, dirnames, filenames in os.walk(root):
        current = Path(directory)
        dirnames[:] = sorted(
            name
            for name in dirnames
            if not is_default_excluded(name)
            and not (current / name / "pyvenv.cfg").exists()
            and not config.is_excluded(current / name)
            and not (ignore is not None and ignore.ignored(current / name, is_dir=True))
        )
        for name in sorted(filenames):
            file = current / name
            if (name.endswith(PYTHON_SUFFIXES) and not config.is_excluded(file)
                    and not (ignore is not None and ignore.ignored(file, is_dir=False))):
                yield file
