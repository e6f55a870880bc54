"""Signature facts: which parameter of a function each argument of a call binds, as Python binds it.

`passed_to(function, call, bound)` maps the parameters a call's arguments certainly reach to the index of the
argument in `call.args`. Positional arguments fill the positional parameters in order (the first one skipped when
the call binds it: a method called on an object); a keyword argument names its parameter (a positional-only one
cannot be named; a name the function does not have goes to its `**kwargs`, not a parameter of its own). After a
`*xs` argument the positions are unknown (its length is a runtime value), so no later positional argument is
mapped; keywords still are. `**d` names no parameter the source shows.

`signature_comment(function)` reads a function's `# type: (T1, T2) -> R` signature comment, the types TorchScript
(and a reader of types) takes for an unannotated function's parameters.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

import libcst as cst

__all__ = ["SignatureComment", "comment_types", "passed_to", "signature_comment"]


def passed_to(function: cst.FunctionDef, call: cst.Call, bound: bool = False) -> dict[str, int]:
    """{parameter name: index in `call.args` of the argument bound to it} for the arguments whose parameter the
    source decides."""
    params = function.params
    positional = [*params.posonly_params, *params.params][1 if bound else 0:]
    by_keyword = {param.name.value for param in (*params.params, *params.kwonly_params)}
    if bound and params.params and not params.posonly_params:
        by_keyword.discard(params.params[0].name.value)
    passed: dict[str, int] = {}
    position: int | None = 0  # None once a `*xs` has made the positions unknown
    for index, arg in enumerate(call.args):
        if arg.star == "*":
            position = None
        elif arg.star == "**":
            continue
        elif arg.keyword is not None:
            if arg.keyword.value in by_keyword:
                passed[arg.keyword.value] = index
        elif position is not None:
            if position < len(positional):
                passed[positional[position].name.value] = index
            position += 1
    return passed


@dataclass(frozen=True)
class SignatureComment:
    """A `# type: (int, Tensor) -> Tensor` signature, read the way `torch.jit.annotations.get_type_line` and
    `parse_type_line` read it: TorchScript uses it when the function has no annotation at all. `params` holds the
    parameter types (None when the text does not parse), `error` torch's complaint when it rejects the comment."""

    params: tuple[cst.BaseExpression, ...] | None
    returns: cst.BaseExpression | None
    error: str | None = None


_IGNORE = re.compile(r"# type:\ ignore(\[[a-zA-Z-]+\])?$")
_EMPTY_MODULE = cst.Module([])


def _type_lines(function: cst.FunctionDef) -> list[str]:
    """The lines of the function's source (decorators to the end of its body, as `inspect.getsource` gives it)
    that hold `# type:`, less `# type: ignore` ones: `get_type_line` searches the whole text."""
    source = _EMPTY_MODULE.code_for_node(function.with_changes(leading_lines=()))
    return [line.strip() for line in source.split("\n") if "# type:" in line and not _IGNORE.search(line)]


@lru_cache(maxsize=4096)
def signature_comment(function: cst.FunctionDef) -> SignatureComment | None:
    """The function's `# type:` signature, as `torch.jit.frontend.get_jit_def` finds it: any line of the function's
    source holding `# type:` (one line alone is the signature; several are PEP 484's split form, whose
    `# type: (...) -> T` line gathers the others). When there is one, its types replace the annotations
    (`merge_type_from_type_comment`). `params` is None when torch cannot parse it (a comment after code on its
    line, an assignment's `x = []  # type: List[int]`, a missing `(...) -> T` line: `error` then says why)."""
    lines = _type_lines(function)
    if not lines:
        return None
    if len(lines) == 1:
        line = lines[0]
    else:
        returns = next((i for i, text in enumerate(lines) if "# type: (...) -> " in text), None)
        if returns is None:
            return SignatureComment(None, None, "Return type line '# type: (...) -> ...' not found on multiline type "
                                                "annotation")
        parameters = ", ".join(text[text.find("# type:") + 7:].strip() for text in lines[:returns])
        line = lines[returns].replace("...", parameters)
    if not line.startswith("# type:"):
        return SignatureComment(None, None, "expected type comment")  # code before the comment on its line
    start = line.find("# type:") + 7
    arrow = line.find("->")
    try:
        arguments = cst.parse_expression(line[start:arrow if arrow >= 0 else len(line)].strip())
        returned = cst.parse_expression(line[arrow + 2:].strip()) if arrow >= 0 else None
    except cst.ParserSyntaxError:
        return SignatureComment(None, None, "unparsable type comment")
    if isinstance(arguments, cst.Tuple):
        if any(not isinstance(element, cst.Element) for element in arguments.elements):
            return SignatureComment(None, returned)
        types = tuple(element.value for element in arguments.elements)
    else:
        types = (arguments,)
    return SignatureComment(types, returned)


def comment_types(function: cst.FunctionDef, is_method: bool) -> dict[str, cst.BaseExpression]:
    """{parameter name: its type expression} from the function's signature comment, when it has one that parses and
    gives one type per parameter (less `self`, for a method) and the function has no annotation."""
    params = function.params
    every = [*params.posonly_params, *params.params, *params.kwonly_params]
    if function.returns is not None or any(param.annotation is not None for param in every):
        return {}
    comment = signature_comment(function)
    if comment is None or comment.params is None:
        return {}
    named = every[1:] if is_method and every else every
    if len(named) != len(comment.params):
        return {}
    return {param.name.value: annotation for param, annotation in zip(named, comment.params)}
