"""The method-resolution order of a project class: Python's C3 linearization, the one order every rule reads.

A class's bases are project classes (resolved through the index, across files) or bases the project does not
define (torch's `nn.Module`, a library's class): those stand in the order as one opaque entry, their qualified
name, since what they inherit in turn is not linted. `object` and the `typing`/`abc` helpers (`Generic[T]`,
`ABC`) define nothing a rule looks for and are left out.

- `linearization(project, cls)`: the whole order, opaque entries included (torch's classes too, even where
  torch's own files are linted); None when Python's order cannot be known: a base that is neither a project class
  nor a torch class (it could define any name), a base expression that names nothing, a class that is its own
  base, or bases in an order C3 refuses (Python raises TypeError for that class). `strict=False` keeps going
  past all of these but the last (each unknown base an opaque entry, the unnamed ones left out).
- `project_mro(project, cls)`: the project classes of that order (what method lookup walks through the linted
  code). Where C3 has no answer (an inconsistent order, a hierarchy deeper than `MAX_DEPTH`), the project
  classes depth-first, left to right, each once.
"""

from __future__ import annotations

from typing import Any, Iterable, Protocol, Union


class ClassIndex(Protocol):
    """What the order needs of the project index (`jitlint.project.ProjectIndex`): a class by qualified name, and a
    class's project bases. A class is anything with `base_names` (`jitlint.project.ClassInfo`)."""

    def resolve_class(self, qualified: str | None) -> Any: ...

    def base_classes(self, cls: Any) -> Iterable[Any]: ...

INERT_BASES = frozenset({"builtins.object", "object"})
INERT_BASE_PREFIXES = ("typing.", "typing_extensions.", "abc.")
MAX_DEPTH = 24  # deeper hierarchies than this are taken to be cycles through re-exported names
MAX_CLASSES = 64  # the depth-first fallback stops after this many classes

Entry = Union[Any, str]  # a project class, or the qualified name of a class the project does not define


def is_inert(base: str) -> bool:
    return base in INERT_BASES or base.startswith(INERT_BASE_PREFIXES)


def linearization(project: ClassIndex, cls: Any, *, strict: bool = True) -> list[Entry] | None:
    """Python's C3 MRO of `cls` (see the module's docstring). `strict=False` keeps every non-project base as an
    opaque entry instead of giving up on one that is not torch's."""
    return _c3(project, cls, strict, 0, {})


def _c3(project, cls, strict: bool, depth: int, memo: dict) -> list | None:
    if depth > MAX_DEPTH:
        return None
    key = id(cls)
    if key in memo:
        return memo[key]
    sequences: list[list] = []
    direct: list = []
    for base in cls.base_names:
        if base is None:
            if strict:
                return None
            continue  # a base expression jitlint cannot name: it adds nothing it can look up
        if is_inert(base):
            continue
        # Strictly, a torch base is torch's class as torch sees it, even where torch's own files are linted.
        resolved = None if strict and base.startswith("torch.") else project.resolve_class(base)
        if resolved is None:
            if strict and not base.startswith("torch."):
                return None
            sequences.append([base])
            direct.append(base)
            continue
        if resolved is cls:
            if strict:
                return None
            continue
        line = _c3(project, resolved, strict, depth + 1, memo)
        if line is None:
            return None
        sequences.append(line)
        direct.append(resolved)
    sequences.append(direct)
    order: list = [cls]
    sequences = [list(sequence) for sequence in sequences if sequence]
    while sequences:
        for sequence in sequences:
            head = sequence[0]
            if not any(_contains(other[1:], head) for other in sequences):
                break
        else:
            return None  # no consistent order: Python would refuse the class
        order.append(head)
        sequences = [[item for item in sequence if not _same(item, head)] for sequence in sequences]
        sequences = [sequence for sequence in sequences if sequence]
    memo[key] = order
    return order


def _same(a, b) -> bool:
    return a is b or (isinstance(a, str) and a == b)


def _contains(sequence: list, item) -> bool:
    return any(_same(entry, item) for entry in sequence)


def project_mro(project: ClassIndex, cls: Any) -> list[Any]:
    """The project classes of `cls`'s MRO, in order (see the module's docstring)."""
    order = linearization(project, cls, strict=False)
    if order is not None:
        return [entry for entry in order if not isinstance(entry, str)]
    found: list = []
    stack = [cls]
    while stack:
        current = stack.pop(0)
        if current in found or len(found) > MAX_CLASSES:
            continue
        found.append(current)
        stack[0:0] = list(project.base_classes(current))
    return found


def abstract_in_abc(function: Any, owner: Any, order: list) -> bool:
    """Whether `function` (a FunctionDef of `owner`'s body) is marked `@abc.abstractmethod` in a class Python builds
    with `ABCMeta` (an `abc.ABC` base, or `metaclass=ABCMeta`, anywhere in its order `order`): no instance exists while
    it is abstract, and a class that can be built overrides it."""
    if not any(owner.module.imports.qualify(d.decorator) == "abc.abstractmethod" for d in function.decorators):
        return False
    for entry in order:
        if isinstance(entry, str):
            continue
        if "abc.ABC" in entry.base_names or any(
                keyword.keyword is not None and keyword.keyword.value == "metaclass"
                and entry.module.imports.qualify(keyword.value) == "abc.ABCMeta" for keyword in entry.node.keywords):
            return True
    return False
