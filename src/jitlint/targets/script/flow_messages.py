"""ADAPTER: what the message of a flow event (`jitlint.targets.script.typeflow`) suggests, read back from its text.

The type domain of the flow walk reports events with their message already written; a few fixes need what the
message names (the annotation it advises, the variable it is about). Until the events carry that as typed data,
these functions read it from the text, in this one place: each is named for what it reads, and the fixes call
nothing else to look into a message.
"""

from __future__ import annotations

import re


def suggested_annotation(message: str, pattern: str) -> re.Match | None:
    """The annotation a flow finding's message suggests, in its last backquoted span."""
    spans = re.findall(r"`([^`]*)`", message)
    return re.fullmatch(pattern, spans[-1]) if spans else None


def named_variable(message: str) -> str | None:
    """The variable a message is about, when it opens with it in backquotes (JIT702's "`x` is set in one branch")."""
    match = re.match(r"`([A-Za-z_][A-Za-z_0-9]*)`", message)
    return match.group(1) if match else None


def int_becomes_float(message: str) -> bool:
    """A loop-carried change from an int to a float (JIT706's "... is an int ... a float ...")."""
    return "is an int" in message and "a float" in message


def int_assigned_to_float(message: str) -> bool:
    """An int assigned to a variable annotated float (JIT221)."""
    return "annotated float and this assigns an int" in message


def wrapping_number_type(message: str) -> str | None:
    """The number type a message advises wrapping the value in ("wrap it: `int(...)`", JIT708): "int" or "float"."""
    match = re.search(r"wrap it: `(int|float)\(", message)
    return match.group(1) if match else None
