"""Reading and parsing one file: every failure becomes a message for that file, never an exception."""

from __future__ import annotations

import io
import tokenize
from dataclasses import dataclass
from pathlib import Path

import libcst as cst

MAX_FILE_BYTES = 8 * 1024 * 1024


@dataclass
class SourceFile:
    path: Path
    display_name: str
    text: str
    tree: cst.Module


@dataclass
class SourceError:
    path: Path
    display_name: str
    code: str  # JIT001 (cannot parse) or JIT002 (cannot read or decode)
    message: str
    row: int = 1
    column: int = 1


def decode(data: bytes) -> str:
    """Decode like Python does: a BOM or PEP 263 cookie, else UTF-8. Raises UnicodeDecodeError/SyntaxError."""
    encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    text = data.decode("utf-8-sig" if encoding == "utf-8-sig" else encoding)
    return text


def parse_text(path: Path, display_name: str, text: str) -> SourceFile | SourceError:
    if "\x00" in text:
        return SourceError(path, display_name, "JIT002", "file contains NUL bytes; not Python source")
    try:
        tree = cst.parse_module(text)
    except cst.ParserSyntaxError as error:
        message = str(error.message).strip().splitlines()[0] if error.message else "syntax error"
        return SourceError(path, display_name, "JIT001", f"cannot parse: {message}", error.raw_line, error.raw_column + 1)
    except RecursionError:
        return SourceError(path, display_name, "JIT001", "cannot parse: expression nested too deeply")
    except Exception as error:  # LibCST's native parser raises a few other types on odd input
        return SourceError(path, display_name, "JIT001", f"cannot parse: {type(error).__name__}: {error}")
    return SourceFile(path, display_name, text, tree)


def read_source(path: Path, display_name: str | None = None) -> SourceFile | SourceError:
    display_name = display_name or str(path)
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            return SourceError(path, display_name, "JIT002", f"file is {size} bytes, over the {MAX_FILE_BYTES}-byte limit")
        data = path.read_bytes()
    except OSError as error:
        return SourceError(path, display_name, "JIT002", f"cannot read: {error.strerror or error}")
    return parse_bytes(path, display_name, data)


def parse_bytes(path: Path, display_name: str, data: bytes) -> SourceFile | SourceError:
    try:
        text = decode(data)
    except (UnicodeDecodeError, SyntaxError, LookupError) as error:
        reason = error.reason if isinstance(error, UnicodeDecodeError) else str(error)
        return SourceError(path, display_name, "JIT002", f"cannot decode: {reason}")
    return parse_text(path, display_name, text)
