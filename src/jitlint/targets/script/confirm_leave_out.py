"""The script strategy's child side, continued: what it changes in torch's frontend to compile past an error (a
signature's `*args`/`**kwargs`, a failing statement left out), and how it tells its own ignoring's consequences from
the user's errors. Standard library and torch only: loaded by path from `confirm_child.py` in the user's
interpreter."""

from __future__ import annotations

import copy
import inspect
import os
import re

NOT_PROVIDED = re.compile(r"^Argument \w+ not provided\.$", re.MULTILINE)


def lines_of(function):
    """(real path, first line, last line) of a function's source, or None."""
    if function is None:
        return None
    try:
        function = inspect.unwrap(function)
        lines, start = inspect.getsourcelines(function)
        return os.path.realpath(inspect.getsourcefile(function)), start, start + len(lines) - 1
    except (OSError, TypeError):
        return None


_LINE = re.compile(r"line (\d+)")


class Relaxed:
    """While active, torch's frontend compiles a function whose signature has `*args`, `**kwargs` or keyword-only
    parameters with defaults as if the variadic parameters were not there (the defaults still come from the
    function's signature), and leaves out each statement whose own line (a simple statement's lines, a compound
    one's header) is one of `drop` ((real path, line)). The names left out (parameters, and names the left-out
    statements bind) are collected: a use of one is then "undefined value NAME"."""

    def __init__(self, torch, drop: set[tuple[str, int]]) -> None:
        self.frontend = torch.jit.frontend
        self.originals = (self.frontend.build_param_list, self.frontend.build_stmts)
        self.drop = drop
        self.left_out: set[str] = set()

    def __enter__(self) -> set[str]:
        import ast

        build_param_list, build_stmts = self.originals
        left_out, drop = self.left_out, self.drop

        def relaxed_params(ctx, py_args, self_name, pdt_arg_types=None):
            relaxed = copy.copy(py_args)
            for name in ("vararg", "kwarg"):
                if getattr(py_args, name) is not None:
                    left_out.add(getattr(py_args, name).arg)
                    setattr(relaxed, name, None)
            relaxed.kw_defaults = []
            return build_param_list(ctx, relaxed, self_name, pdt_arg_types)

        def offset(ctx) -> int | None:
            found = _LINE.search(ctx.make_range(1, 0, 1).highlight())
            return int(found.group(1)) - 1 if found else None

        def kept_stmts(ctx, stmts):
            path = os.path.realpath(ctx.filename or "")
            lines = {line for file, line in drop if file == path}
            shift = offset(ctx) if lines and stmts else None
            if shift is not None:
                kept = []
                for stmt in stmts:
                    body = getattr(stmt, "body", None)
                    last = (body[0].lineno - 1) if isinstance(body, list) and body else stmt.end_lineno
                    if any(stmt.lineno + shift <= line <= last + shift for line in lines):
                        left_out.update(node.id for node in ast.walk(stmt)
                                        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store))
                        continue
                    kept.append(stmt)
                stmts = kept
            return build_stmts(ctx, stmts)

        self.frontend.build_param_list = relaxed_params
        self.frontend.build_stmts = kept_stmts
        return left_out

    def __exit__(self, *exc) -> None:
        self.frontend.build_param_list, self.frontend.build_stmts = self.originals


def subclasses(cls) -> list:
    found, pending = [], [cls]
    while pending:
        for sub in type.__subclasses__(pending.pop()):
            if sub not in found:
                found.append(sub)
                pending.append(sub)
    return found


def stub_artifact(parsed: dict, ignored) -> bool:
    """An error caused by jitlint's own ignoring: torch builds the stub of an ignored function from its Python
    signature without the defaults (torch 2.13: calling an `@torch.jit.ignore` function without a defaulted
    argument fails with "Argument a not provided."). A method's stub is named `lazy_bind...` (any error at a call of
    it counts, as before); a staticmethod's or free function's is named as jitlint reported it ignored
    (`Cls.name(...)`, `name(...)`): there only the missing-default error counts, which the compiled function would
    not give."""
    if not ignored:
        return False
    message = parsed["message"]
    if message.startswith("lazy_bind"):
        return True
    return any(message.startswith(f"{name}(") for name in ignored) and bool(
        NOT_PROVIDED.search(parsed.get("text") or ""))


def functions_only(result: dict) -> dict:
    """A unit's retry result with only the functions it ignored as `opaque`: the attributes and properties left out
    of the types mask none of its own code."""
    typed_out = {error.get("opaque") for error in result["observations"]
                 if error.get("attribute") or error.get("property")}
    result["opaque"] = [name for name in result["opaque"] if name not in typed_out]
    return result
