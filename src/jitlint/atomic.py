"""Replacing a file atomically: readers see the old content or the new, never a partial write.

Imports only the standard library's `os`: the cache writes through it, and a cached run never imports LibCST.
"""

from __future__ import annotations

import os
from pathlib import Path

_ATTEMPTS = 100  # temporary names tried before giving up, as tempfile does


def write_atomically(
    path: Path,
    data: bytes | str,
    *,
    encoding: str = "utf-8",
    create_mode: int = 0o600,
    mode: int | None = None,
    fsync: bool = False,
    suffix: str = ".tmp",
) -> None:
    """Write `data` to `path` through a temporary file in the same directory (`.<name>.<random><suffix>`) and
    `os.replace`. A str is written in text mode with `encoding` (newlines translated as `open(path, "w")` does),
    bytes as they are.

    The temporary file is created with `create_mode` less the umask (0o600, what `tempfile.mkstemp` gives; 0o666
    for what a plain `open(path, "w")` gives); `mode`, when given, then sets the permission bits exactly (pass
    those of the file being replaced to keep them). `fsync` flushes the data to disk before the rename, so a crash
    cannot leave an empty file in place of the old one. On any error the temporary file is removed and the error
    raised; `path` is then unchanged."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
    for _ in range(_ATTEMPTS):
        temporary = path.parent / f".{path.name}.{os.urandom(6).hex()}{suffix}"
        try:
            descriptor = os.open(temporary, flags, create_mode)
            break
        except FileExistsError:
            continue
    else:
        raise FileExistsError(f"no free temporary name for {path}")
    try:
        try:
            if isinstance(data, str):
                stream = os.fdopen(descriptor, "w", encoding=encoding)
            else:
                stream = os.fdopen(descriptor, "wb")
        except BaseException:
            os.close(descriptor)
            raise
        with stream:
            stream.write(data)
            if fsync:
                stream.flush()
                os.fsync(stream.fileno())
        if mode is not None:
            os.chmod(temporary, mode)
        os.replace(temporary, path)
    except BaseException:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        raise
