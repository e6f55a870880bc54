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


def body_start(function) -> int | None:
    """The line of the first statement of a function's body (its signature's lines come before), or None."""
    import ast
    import textwrap

    try:
        function = inspect.unwrap(function)
        lines, start = inspect.getsourcelines(function)
        tree = ast.parse(textwrap.dedent("".join(lines)))
    except (OSError, TypeError, SyntaxError):
        return None
    definition = next((node for node in tree.body if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))), None)
    return start + definition.body[0].lineno - 1 if definition is not None and definition.body else None


_LINE = re.compile(r"line (\d+)")


class Relaxed:
    """While active, torch's frontend compiles a function whose signature has `*args`, `**kwargs` or keyword-only
    parameters with defaults as if the variadic parameters were not there (the defaults still come from the
    function's signature), and leaves out each statement whose own line (a simple statement's lines, a compound
    one's header) is one of `drop` ((real path, line)), and a return annotation on such a line (inferred instead).
    The names left out (parameters, and names the left-out statements bind) are collected: a use of one is then
    "undefined value NAME"."""

    def __init__(self, torch, drop: set[tuple[str, int]]) -> None:
        self.frontend = torch.jit.frontend
        self.originals = (self.frontend.build_param_list, self.frontend.build_stmts, self.frontend.build_def)
        self.drop = drop
        self.left_out: set[str] = set()

    def __enter__(self) -> set[str]:
        import ast

        build_param_list, build_stmts, build_def = self.originals
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

        def bare_def(ctx, py_def, *args, **kwargs):
            # a return annotation on a line to leave out (torch cannot compile the class it names): inferred
            returns = getattr(py_def, "returns", None)
            path = os.path.realpath(ctx.filename or "")
            lines = {line for file, line in drop if file == path}
            shift = offset(ctx) if lines and returns is not None else None
            if shift is not None and any(returns.lineno + shift <= line <= returns.end_lineno + shift
                                         for line in lines):
                py_def = copy.copy(py_def)
                py_def.returns = None
            return build_def(ctx, py_def, *args, **kwargs)

        self.frontend.build_param_list = relaxed_params
        self.frontend.build_stmts = kept_stmts
        self.frontend.build_def = bare_def
        return left_out

    def __exit__(self, *exc) -> None:
        self.frontend.build_param_list, self.frontend.build_stmts, self.frontend.build_def = self.originals


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
    if message.startswith("Unknown type annotation:"):
        # torch types an ignored function's call from its Python signature with no resolution of names: a string
        # annotation (`from __future__ import annotations`) is unknown, at each call of a function jitlint ignored
        # (a submodule's call, `self.norm(x)`, calls its `forward`)
        callee = underlined(parsed.get("text") or "")
        return callee is not None and any(callee.rsplit(".", 1)[-1] == name.rsplit(".", 1)[-1] or (
            name.endswith(".forward") and callee.startswith("self.")) for name in ignored)
    return any(message.startswith(f"{name}(") for name in ignored) and bool(
        NOT_PROVIDED.search(parsed.get("text") or ""))


def underlined(text: str) -> str | None:
    """The source text torch's first `~~~` marker underlines in an error text (for a call, its callee), or None."""
    lines = text.splitlines()
    for number, line in enumerate(lines[1:], 1):
        marker = line.rstrip()
        if marker.lstrip().startswith("~"):
            start = len(marker) - len(marker.lstrip())
            end = start + len(marker.lstrip().split(" ", 1)[0])
            shown = lines[number - 1][start:end].strip()
            return shown or None
    return None


def functions_only(result: dict) -> dict:
    """A unit's retry result with only the functions it ignored as `opaque`: the attributes and properties left out
    of the types mask none of its own code."""
    typed_out = {error.get("opaque") for error in result["observations"]
                 if error.get("attribute") or error.get("property")}
    result["opaque"] = [name for name in result["opaque"] if name not in typed_out]
    return result
