"""Reading and parsing one file: every failure becomes a message for that file, never an exception."""

from __future__ import annotations

import io
import stat
import tokenize
import warnings
from dataclasses import dataclass
from pathlib import Path

import libcst as cst

from jitlint import heap, layout
from jitlint.compact import CompactText
from jitlint.limits import (  # noqa: F401  (re-exported)
    DEFAULT_LIMITS, DEFAULT_MAX_FILE_BYTES, GENERATED_MARKERS, MAX_FILE_BYTES, MAX_NESTING, MAX_STATEMENT_TOKENS,
    Limits, generated_marker, structure_problem as _structure_problem,
)
from jitlint.source_error import SourceError, cannot_read  # noqa: F401  (re-exported)


@dataclass
class SourceFile:
    path: Path
    display_name: str
    text: str = CompactText()  # (held for the run: 4 bytes a character in a file with one emoji, else)
    tree: cst.Module


def decode(data: bytes) -> str:
    """Decode like Python does: a BOM or PEP 263 cookie, else UTF-8. Raises UnicodeDecodeError/SyntaxError."""
    encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    text = data.decode("utf-8-sig" if encoding == "utf-8-sig" else encoding)
    return text


def parse_text(path: Path, display_name: str, text: str, limits: Limits = DEFAULT_LIMITS) -> SourceFile | SourceError:
    if "\x00" in text:
        return SourceError(path, display_name, "JIT002", "file contains NUL bytes; not Python source")
    if not limits.lint_generated:
        marker = generated_marker(text)
        if marker is not None:
            return SourceError(path, display_name, "JIT005",
                               f"skipped: the file declares itself generated (`{marker}`); set `lint-generated = true` "
                               "to lint it")
    problem = _structure_problem(text)
    if problem is not None:
        code = "JIT001" if problem[0].startswith("cannot parse") else "JIT004"
        return SourceError(path, display_name, code, problem[0], problem[1])
    try:
        tree = layout.parse_module(text, path=path)
    except cst.ParserSyntaxError as error:
        return _syntax_error(path, display_name, text, error)
    except RecursionError:
        return SourceError(path, display_name, "JIT001", "cannot parse: expression nested too deeply")
    except Exception as error:  # LibCST's native parser raises a few other types on odd input
        return SourceError(path, display_name, "JIT001", f"cannot parse: {type(error).__name__}: {error}")
    finally:
        heap.settle()
    return SourceFile(path, display_name, text, tree)


def _syntax_error(path: Path, display_name: str, text: str, error: cst.ParserSyntaxError) -> SourceError:
    """CPython's message and position when it agrees the file is invalid (LibCST's are often a line off);
    compiling never runs the code."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # SyntaxWarnings about the user's code are not jitlint's to print
            compile(text, display_name, "exec", dont_inherit=True)
    except SyntaxError as python_error:
        row = python_error.lineno or 1
        return SourceError(path, display_name, "JIT001", f"cannot parse: {python_error.msg}", row, python_error.offset or 1)
    except (RecursionError, MemoryError, ValueError):
        pass
    message = str(error.message).strip().splitlines()[0] if error.message else "syntax error"
    if len(message) > 120:
        message = message[:117] + "..."
    return SourceError(path, display_name, "JIT001", f"cannot parse: {message}", error.editor_line, error.editor_column)


def too_large(path: Path, display_name: str, size: int, limits: Limits) -> SourceError:
    return SourceError(path, display_name, "JIT004", f"skipped: the file is {size} bytes, over the `max-file-size` of "
                       f"{limits.max_file_size} bytes")


def read_source(path: Path, display_name: str | None = None, limits: Limits = DEFAULT_LIMITS) -> SourceFile | SourceError:
    display_name = display_name or str(path)
    try:
        status = path.stat()
        if not stat.S_ISREG(status.st_mode):  # a directory named x.py, a named pipe (a read would block), a device
            kind = "a directory" if stat.S_ISDIR(status.st_mode) else "not a regular file"
            return SourceError(path, display_name, "JIT002", f"cannot read: {kind}")
        size = status.st_size
        if size > limits.max_file_size:
            return too_large(path, display_name, size, limits)
        data = path.read_bytes()
    except OSError as error:
        return SourceError(path, display_name, "JIT002", cannot_read(path, error))
    return parse_bytes(path, display_name, data, limits)


def parse_bytes(path: Path, display_name: str, data: bytes, limits: Limits = DEFAULT_LIMITS) -> SourceFile | SourceError:
    if len(data) > limits.max_file_size:
        return too_large(path, display_name, len(data), limits)
    try:
        text = decode(data)
    except (UnicodeDecodeError, SyntaxError, LookupError) as error:
        reason = error.reason if isinstance(error, UnicodeDecodeError) else str(error)
        return SourceError(path, display_name, "JIT002", f"cannot decode: {reason}")
    return parse_text(path, display_name, text, limits)
