"""The words of JIT203 (`unsupported-annotation`): what to write instead of each annotation TorchScript rejects."""

from __future__ import annotations

from jitlint.targets.script.rules.bare_annotations import bare_message

_SUGGESTIONS = {
    "Sequence": "List[...]", "MutableSequence": "List[...]", "Iterable": "List[...]", "Iterator": "List[...]",
    "Collection": "List[...]", "Set": "List[...]", "AbstractSet": "List[...]", "FrozenSet": "List[...]",
    "set": "List[...]", "frozenset": "List[...]", "Mapping": "Dict[...]", "MutableMapping": "Dict[...]",
    "OrderedDict": "Dict[...]", "DefaultDict": "Dict[...]", "Deque": "List[...]", "Literal": "str or int",
    "Size": "List[int]", "object": "Any", "ndarray": "torch.Tensor",
}


def annotation_message(problem: str) -> str:
    """JIT203's message for a problem `UnsupportedAnnotation` found (`parser:`, `library-class:`, ... or a name)."""
    if problem.startswith("parser:"):
        return (f"TorchScript cannot read this annotation (torch: '{problem[7:]}'); write a type it knows: "
                "`List[T]`, `Dict[K, V]`, `Optional[T]`, `Tuple[A, B]`, a class")
    if problem.startswith("bare:"):
        return bare_message(problem)
    if problem == "Tuple[T, ...]":
        return (
            "variable-length `Tuple[T, ...]` is not a TorchScript type; use `List[T]` "
            "or a fixed-length `Tuple[T, T]`"
        )
    if problem.startswith("library-class:"):
        qualified = problem.split(":", 1)[1]
        return (f"`{qualified}` is a Python class that TorchScript compiles from its library's source when an "
                "annotation in compiled code names it, and it cannot (torch fails inside the class, naming this "
                "line); keep the object out of compiled code (a `@torch.jit.ignore` method that takes and returns "
                "tensors), or annotate with the tensors it holds")
    if problem.startswith("expression:"):
        symbol = problem.split(":", 1)[1]
        return (f"an `{symbol}` expression is not a type (torch: 'Expression of type {symbol} cannot be used in a "
                "type expression'); write the type itself")
    short = problem.rsplit(".", 1)[-1]
    suggestion = _SUGGESTIONS.get(short)
    hint = f"; use `{suggestion}`" if suggestion else ""
    return f"`{short}` is not a type TorchScript supports in annotations{hint}"
