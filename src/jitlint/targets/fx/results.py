"""The typed results of the tracing model (`jitlint.targets.fx.tracing`): what symbolic_trace does at a node of
traced code. Each FX2xx rule turns the results of its type into findings with its own message."""

from __future__ import annotations

from dataclasses import dataclass, field

import libcst as cst


@dataclass(frozen=True, eq=False)
class TraceResult:
    """Something symbolic_trace does at `node` (the expression or statement torch's traceback points at)."""

    node: cst.CSTNode
    # The class whose forward reaches this failure only when that class is traced on its own (a part of other
    # modules, which call it with other values); None: a trace of the model it belongs to reaches it.
    alone: str | None = field(default=None, kw_only=True)
    exception = "Exception"  # what torch raises there (a handler catching it makes the failure not one)
    raises = True  # symbolic_trace stops there (False: it goes on, tracing something else than eager runs)


@dataclass(frozen=True, eq=False)
class ProxyAsBool(TraceResult):
    """`bool()` of a Proxy: `TraceError: symbolically traced variables cannot be used as inputs to control flow`.
    `construct`: "if", "while", "assert", "ternary", "and/or", "not", "bool()", "comprehension", "chained
    comparison", "in", "builtin", "validation" (a torch function's own test of its argument), "module-method"
    (`module.to(<Proxy>)` and the like), "torch-forward" (torch.nn's own forward, inherited by a project class)."""

    construct: str = "if"
    exception = "TraceError"


@dataclass(frozen=True, eq=False)
class BuiltinOnProxy(TraceResult):
    """A builtin (or torch constructor) that needs a concrete value, given a Proxy. `builtin`: "len", "int",
    "float", "complex", "range", "index" (hex/oct/bin/chr), "round", "divmod", "max", "min", "sorted", "any",
    "all", "torch.tensor" (of a Proxy), "torch.tensor-list" (of a list holding one), "torch.Size"."""

    builtin: str = "len"

    @property
    def exception(self) -> str:  # type: ignore[override]
        if self.builtin in ("len", "torch.tensor-list"):
            return "RuntimeError"
        if self.builtin in ("max", "min", "sorted", "any", "all"):
            return "TraceError"
        return "TypeError"


@dataclass(frozen=True, eq=False)
class ProxyIterated(TraceResult):
    """A Proxy iterated: `TraceError: Proxy object cannot be iterated...`. `construct`: "for", "comprehension",
    "star" (`*p`), "double-star" (`**p`), "star-target" (`a, *b = p`), "in" (`v in p`), or a builtin's name."""

    construct: str = "for"
    exception = "TraceError"


@dataclass(frozen=True, eq=False)
class IndexedByProxy(TraceResult):
    """A concrete container indexed or sliced by a Proxy. `container`: "list", "tuple", "str", "dict",
    "module-list", "module-dict", "tensor-slice" (a buffer sliced), "sequence-slice"."""

    container: str = "list"

    @property
    def exception(self) -> str:  # type: ignore[override]
        return "KeyError" if self.container in ("dict", "module-dict") else "TypeError"


@dataclass(frozen=True, eq=False)
class ProxyItemAssigned(TraceResult):
    """`p[i] = v`: `TypeError: 'Proxy' object does not support item assignment`; `deleted`: `del p[i]` ("doesn't
    support item deletion": a Proxy defines neither `__setitem__` nor `__delitem__`)."""

    deleted: bool = False
    exception = "TypeError"


@dataclass(frozen=True, eq=False)
class VarargsFactory(TraceResult):
    """`torch.zeros(p, 3)`: sizes as separate arguments with a Proxy first."""

    factory: str = "torch.zeros"
    exception = "TypeError"


@dataclass(frozen=True, eq=False)
class FinfoOfProxy(TraceResult):
    function: str = "torch.finfo"
    exception = "TypeError"


@dataclass(frozen=True, eq=False)
class ModuleBuiltInTrace(TraceResult):
    """A module built in traced code and called: `NameError: module is not installed as a submodule`."""

    exception = "NameError"


@dataclass(frozen=True, eq=False)
class StaticForwardModule(TraceResult):
    """A root whose `forward` is a staticmethod: symbolic_trace binds the module itself to its first parameter
    (`Tracer.create_args_for_root` passes the root where `self` would be), and here the module is an operand of an
    operator or an argument of a torch function, which raise TypeError. `name`: that parameter."""

    name: str = ""
    exception = "TypeError"


@dataclass(frozen=True, eq=False)
class AbsentAttribute(TraceResult):
    """`self.<name>` read in traced code of a module built with its defaults, which `__init__` sets only under a
    test those defaults decide against (`skipped_by`): `nn.Module.__getattr__` raises AttributeError."""

    name: str = ""
    skipped_by: str = ""
    when: bool = True  # `__init__` sets it where `skipped_by` is this
    exception = "AttributeError"


@dataclass(frozen=True, eq=False)
class ScriptFunctionCalled(TraceResult):
    """A `@torch.jit.script` function given a Proxy."""

    exception = "RuntimeError"


@dataclass(frozen=True, eq=False)
class NumpyOnProxy(TraceResult):
    function: str = "numpy"


@dataclass(frozen=True, eq=False)
class ProxyDictKey(TraceResult):
    """A dict with a Proxy key given to a recorded operation: `RuntimeError: Keys for dictionaries used as an
    argument cannot contain a Node`."""

    exception = "RuntimeError"


@dataclass(frozen=True, eq=False)
class TypeCheckRaises(TraceResult):
    """A `raise` or failing assertion reached because a Proxy failed a type check (`isinstance(x, torch.Tensor)`
    is False for it). `raised`: the exception class raised, if known; `check`: the test a Proxy decided;
    `statement`: "raise", "assert" or "torch._assert"."""

    raised: str | None = None
    check: cst.CSTNode | None = None
    statement: str = "raise"

    @property
    def exception(self) -> str:  # type: ignore[override]
        if self.statement != "raise":
            return "AssertionError"
        return (self.raised or "Exception").rpartition(".")[2]


@dataclass(frozen=True, eq=False)
class ExternalRejects(TraceResult):
    """A callable of an installed library that raises when given a Proxy, as the table of external callables
    (`jitlint.targets.fx.external`) says: `callable` (its qualified name), `raised` (the exception class) and `says`
    (a part of its message)."""

    callable: str = ""
    raised: str = "Exception"
    says: str = ""

    @property
    def exception(self) -> str:  # type: ignore[override]
        return self.raised


@dataclass(frozen=True, eq=False)
class IsinstanceOfProxy(TraceResult):
    """`isinstance(p, ...)` of a Proxy: fixed at trace time (`outcome`), the other branch is dropped."""

    outcome: bool = False
    raises = False


@dataclass(frozen=True, eq=False)
class ParameterNoneCheck(TraceResult):
    """`param is None` / `is not None` on a root forward's parameter: a Proxy, never None while tracing."""

    name: str = ""
    raises = False
