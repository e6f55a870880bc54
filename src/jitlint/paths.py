"""Path helpers that need nothing heavy (the cached path of a run imports these)."""

from __future__ import annotations

from pathlib import Path


def resolved(path: Path) -> Path:
    """`path.resolve()`, which raises on a symlink loop: then the absolute path (reading it reports the loop)."""
    try:
        return path.resolve()
    except (OSError, RuntimeError):
        return path.absolute()
