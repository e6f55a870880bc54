"""Facts: the analyses rules share, declared by the rules that read them and computed once by the engine.

A fact is a class with a `compute` classmethod. A rule says which facts it reads (`facts = (ScriptEvents,)` on its
class, added to what its base classes declare) and reads one with `ctx.fact(ScriptEvents, function_node)`; reading a fact the rule did not declare raises
`UndeclaredFact`, so the declarations stay true. A fact that reads another declares it in `requires`, and reads
it through the same context while it is computed. (LibCST's declared metadata dependencies are the model:
`libcst/metadata/dependent.py`.)

Scopes, by `per`:
- "function": one value per function node of the file (`ctx.fact(F, node)`; any node that holds code: a module's
  top level is read the same way);
- "file": one value for the file (`ctx.fact(F)`);
the engine keeps both in the file's `FactStore`, keyed by (fact, capture policy if `policy_dependent`, node), and
drops the store when the file is done.
- "run": one value per owner object for the whole run (`ctx.fact(F, owner, *key)`, or `run_fact(project, F,
  owner, *key)` from code that has no rule context, such as a capture policy): what is derived from a class or a
  method of one file and asked again from the files of every subclass. Its `compute(project, owner, *key)` sees
  the project index only (no capture policy, no file), and the value is kept on the index (`ProjectIndex.derived`).

This module imports no LibCST and no target: facts are defined in `jitlint.facts.*` (shared by targets) or in a
target's own package (its analysis).
"""

from __future__ import annotations

from typing import Any, ClassVar, Literal


class UndeclaredFact(TypeError):
    """A rule (or a fact) read a fact it does not declare."""


class Fact:
    """An analysis of one function or one file, computed on first read and kept for the file's lint."""

    per: ClassVar[Literal["file", "function"]] = "function"
    # The facts `compute` reads (through the context it is given); reading any other is an error.
    requires: ClassVar[tuple[type["Fact | RunFact"], ...]] = ()
    # The value depends on the capture map of the policy whose rules read it (pruned branches, what is captured):
    # kept once per policy. False: one value for every policy of the file.
    policy_dependent: ClassVar[bool] = True

    @classmethod
    def compute(cls, ctx, node) -> Any:  # ctx: jitlint.rules.base.RuleContext; node: a FunctionDef or None
        raise NotImplementedError(f"{cls.__qualname__} does not define compute()")


class RunFact:
    """An analysis of one owner object (a class's index, a method's node) kept for the whole run: what rules derive
    from a base class or its methods and ask again for every subclass, in whatever file that subclass is."""

    per: ClassVar[Literal["run"]] = "run"

    @classmethod
    def compute(cls, project: Any, owner: Any, *key: Any) -> Any:  # project: jitlint.project.ProjectIndex
        raise NotImplementedError(f"{cls.__qualname__} does not define compute()")


def run_fact(project: Any, fact: type[RunFact], owner: Any, *key: Any) -> Any:
    """The value of a run fact for `owner` (by identity) and `key`, computed once per run. The entry holds `owner`,
    so its id stays unique for as long as the entry is kept."""
    cache = project.derived.setdefault(fact, {})
    slot = (id(owner), *key)
    found = cache.get(slot)
    if found is None or found[0] is not owner:
        found = cache[slot] = (owner, fact.compute(project, owner, *key))
    return found[1]


class FactStore:
    """The facts of one file, shared by the traversals of every capture policy of that file; dropped after it."""

    def __init__(self) -> None:
        self.values: dict[tuple, tuple[Any, Any]] = {}


_IN_PROGRESS = object()


class CyclicFact(RuntimeError):
    """A fact's computation read itself (for the same node)."""


def read_fact(ctx, reader: Any, fact: type, node: Any, key: tuple) -> Any:
    """`fact` for `node` as `reader` (a rule class or a fact class) reads it through `ctx` (a RuleContext): checked
    against the reader's declaration, computed once per file (or run) and kept. `key` is for run facts only."""
    if reader is None:
        raise UndeclaredFact(f"{fact.__qualname__} read outside a rule")
    declared = reader.requires if issubclass(reader, Fact) else reader.declared_facts
    if fact not in declared:
        name = getattr(reader, "code", None) or reader.__qualname__
        raise UndeclaredFact(f"{name} reads the fact {fact.__qualname__} without declaring it")
    if issubclass(fact, RunFact):
        return run_fact(ctx.project, fact, node, *key)
    if key:
        raise TypeError(f"{fact.__qualname__} is kept per node: it takes no key")
    if fact.per == "file":
        if node is not None:
            raise TypeError(f"{fact.__qualname__} is a per-file fact: read it without a node")
    elif node is None:
        raise TypeError(f"{fact.__qualname__} is a per-function fact: read it for a function node")
    slot = (fact, ctx.policy if fact.policy_dependent else None, id(node))
    values = ctx.facts.values
    found = values.get(slot)
    if found is not None and found[0] is node:
        if found[1] is _IN_PROGRESS:
            raise CyclicFact(f"{fact.__qualname__} reads itself")
        return found[1]
    values[slot] = (node, _IN_PROGRESS)
    ctx.readers.append(fact)
    try:
        value = fact.compute(ctx, node)
    except BaseException:
        del values[slot]
        raise
    finally:
        ctx.readers.pop()
    values[slot] = (node, value)
    return value
