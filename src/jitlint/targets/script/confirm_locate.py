"""The script strategy's child side, continued: where in the user's files torch's error is, read from its text (and,
when the text names no place, from the frames of the compile). Standard library only: loaded by path from
`confirm_child.py` in the user's interpreter."""

from __future__ import annotations

import inspect
import os
import re
import sys

_FRAME = re.compile(r'File "([^"]+)", line (\d+)')
_COMPILED_FROM = re.compile(r"'([\w.<>]+)' is being compiled since it was called from")


def _source_match(is_user_file, text: str, start: int) -> tuple[str, int] | None:
    """A decorator can make torch name the wrapper's file: find the shown source line in the user's files."""
    shown = [line.strip() for line in text[start:].splitlines()[1:4] if line.strip() and "~" not in line]
    if not shown:
        return None
    for module in list(sys.modules.values()):
        path = getattr(module, "__file__", None)
        if not path or not is_user_file(path):
            continue
        try:
            with open(path, encoding="utf-8") as handle:
                lines = [line.strip() for line in handle]
        except (OSError, UnicodeDecodeError):
            continue
        for number, line in enumerate(lines, 1):
            if line == shown[-1] and len(shown[-1]) > 8:
                return path, number
    return None


def _shown_before_marker(text: str, start: int) -> list[str]:
    """The source lines torch shows after the frame at `start`, up to the one its `~~~` marker underlines
    (the frame's line number is that last line's)."""
    shown = []
    for line in text[start:].splitlines()[1:]:
        if line.strip().startswith("~"):
            return shown
        shown.append(line.strip())
    return []


def _file_holding(is_user_file, text: str, start: int, number: int) -> str | None:
    """A function wrapped with `functools.wraps` is compiled from its own source (torch unwraps it), but torch
    names the wrapper's file with the wrapped function's line number (transformers' `__init_subclass__`
    wrapping every layer's `forward`, a decorator module): the one user file whose lines up to `number` are the
    shown ones, if exactly one."""
    shown = _shown_before_marker(text, start)
    if not shown or not shown[-1]:
        return None
    found = []
    for module in list(sys.modules.values()):
        path = getattr(module, "__file__", None)
        if not path or not is_user_file(path):
            continue
        real = os.path.realpath(path)
        if any(real == other for other in found):
            continue
        try:
            with open(path, encoding="utf-8") as handle:
                lines = handle.read().splitlines()
        except (OSError, UnicodeDecodeError):
            continue
        first = number - len(shown)
        if first < 0 or number > len(lines):
            continue
        if [line.strip() for line in lines[first:number]] == shown:
            found.append(real)
    return found[0] if len(found) == 1 else None


def _holds(path: str, text: str, start: int, number: int) -> bool:
    """Whether line `number` of `path` is the line torch's marker underlines (True when nothing is shown)."""
    shown = _shown_before_marker(text, start)
    if not shown:
        return True
    try:
        with open(path, encoding="utf-8") as handle:
            lines = handle.read().splitlines()
    except (OSError, UnicodeDecodeError):
        return True
    return 0 < number <= len(lines) and lines[number - 1].strip() == shown[-1]


# The frames of torch's that are handed the source range (`loc`) of the user's code they compile something for: a
# class an annotation names, a function a call names.
_HANDED_A_RANGE = frozenset({"_recursive_compile_class", "try_compile_fn"})


def _range_on_stack(is_user_file, error: BaseException) -> tuple[str, int] | None:
    """Where in the user's files torch was when it failed, when its message names no place: compiling a class an
    annotation names (`_recursive_compile_class`, handed the annotation's source range `loc`), failing on that
    class (its methods have no source, ...): the annotation, which is what to make opaque; compiling a function a
    call names (`try_compile_fn`, handed the call's range), failing on that function ("Can't get source for
    <function makedirs>"): the call. The innermost such range in a user's file."""
    found = None
    traceback = error.__traceback__
    while traceback is not None:
        frame = traceback.tb_frame
        where = frame.f_locals.get("loc") if frame.f_code.co_name in _HANDED_A_RANGE else None
        if where is not None and frame.f_code.co_name == "try_compile_fn" and _users(is_user_file,
                                                                                    frame.f_locals.get("fn")):
            # a function of the user's failed, somewhere in it: not at the call (its own frames are deeper, when
            # torch kept them)
            where = None
        if where is not None and hasattr(where, "highlight"):
            try:
                match = _FRAME.search(where.highlight())
            except Exception:  # a range with no source: nothing to read
                match = None
            if match is not None and is_user_file(match.group(1)):
                found = (os.path.realpath(match.group(1)), int(match.group(2)))
        traceback = traceback.tb_next
    return found


def _users(is_user_file, function) -> bool:
    """Whether `function` is defined in one of the user's files."""
    try:
        path = inspect.getsourcefile(inspect.unwrap(function))
    except (TypeError, ValueError):
        return False
    return bool(path) and os.path.isfile(path) and is_user_file(path)  # not "<frozen os>"


def parse_error(error: BaseException, is_user_file) -> dict:
    """What torch said: its message, the place in the user's files it is at (`file`, `line`), the function it was
    compiling (`function`), and where a decorator's wrapper named a file (`named_file`, `wrapped`)."""
    text = str(error)
    message = text.strip().splitlines()[0] if text.strip() else type(error).__name__
    location = named = wrapped = None  # where the error is; the file torch named, when that is a wrapper's
    first = _FRAME.search(text)
    caller = _COMPILED_FROM.search(text)
    if first is not None and caller is not None and caller.start() < first.start():
        # torch gave the error no place of its own, only the calls it was compiling the function for: where the
        # function it failed on was named, when torch was handed that (`try_compile_fn`), is the error's place
        location = _range_on_stack(is_user_file, error)
        if location is not None:
            first = None
    if first is not None and not is_user_file(first.group(1)):
        # The error's own frame names a file outside the user's (a decorator's wrapper, `@torch.no_grad()`'s
        # `_contextlib.py`) with the wrapped function's line numbers; the frames after it are the call stack.
        # The error is at the user's line holding the shown lines (`wrapped`); it is placed at the first frame
        # in a user file (the call), which is where a retry can go on past it.
        holder = _file_holding(is_user_file, text, first.start(), int(first.group(2)))
        if holder is not None:
            wrapped = [holder, int(first.group(2))]
    for match in _FRAME.finditer(text) if location is None else ():
        if is_user_file(match.group(1)):
            number = int(match.group(2))
            location = (os.path.realpath(match.group(1)), number)
            if not _holds(match.group(1), text, match.start(), number):
                # torch named a wrapper's file: the wrapped function's file has the shown lines at that number
                holder = _file_holding(is_user_file, text, match.start(), number)
                if holder is not None:
                    location, named = (holder, number), os.path.realpath(match.group(1))
            break
    if location is None and first is not None:
        location = tuple(wrapped) if wrapped else _source_match(is_user_file, text, first.start())
        named = os.path.realpath(first.group(1)) if wrapped else None
        wrapped = None
    if location is None:
        location = _range_on_stack(is_user_file, error)
    compiled = _COMPILED_FROM.findall(text)
    return {
        "message": message,
        "text": text[:4000],
        "file": location[0] if location else None,
        "line": location[1] if location else None,
        "function": compiled[0] if compiled else None,
        "kind": type(error).__name__,
        # refused by torch's frontend (the syntax, before any type): `torch.jit.frontend.FrontendError`
        "frontend": any(cls.__name__ == "FrontendError" for cls in type(error).__mro__),
        "named_file": named,
        **({"wrapped": wrapped} if wrapped else {}),
    }


def call_stack(text: str, is_user_file) -> list[tuple[str, int, str | None]]:
    """The places in the user's files torch's error text names, in its order (the error's own place, then each
    caller torch was compiling it for): (real path, line, the wrapper's file torch named instead, if it did)."""
    found = []
    for match in _FRAME.finditer(text):
        path, number = match.group(1), int(match.group(2))
        if is_user_file(path) and _holds(path, text, match.start(), number):
            found.append((os.path.realpath(path), number, None))
            continue
        holder = _file_holding(is_user_file, text, match.start(), number)
        if holder is not None:
            found.append((holder, number, os.path.realpath(path)))
    return found


_RECURSIVE = os.path.join("jit", "_recursive.py")


def attribute_at(error: BaseException, torch):
    """(module class, attribute name) when torch failed inferring the type of a module's attribute (an annotation
    naming a class it cannot compile, such as a configuration object whose generated `__init__` has no source): the
    `infer_type(name, ...)` frame of `torch.jit._recursive`, under the builder of that module's concrete type. Such an
    error names no line; the attribute is what to make opaque."""
    traceback = error.__traceback__
    while traceback is not None:
        frame = traceback.tb_frame
        code = frame.f_code
        if code.co_name == "infer_type" and code.co_filename.endswith(_RECURSIVE) and frame.f_back is not None:
            module = frame.f_back.f_locals.get("nn_module")
            name = frame.f_locals.get("name")
            if isinstance(module, torch.nn.Module) and isinstance(name, str):
                # the class that declares the annotation, so that its other subclasses go on without it too
                declaring = next((cls for cls in type(module).__mro__
                                  if name in vars(cls).get("__annotations__", {})), type(module))
                return declaring, name
        traceback = traceback.tb_next
    return None
