"""torch.jit.trace's policy for the shared data-dependence fact (`jitlint.facts.datadep`).

`torch.jit.trace` runs forward once and records the tensor operations. While it runs (verified on torch 2.13):

- `x.size(i)`, `x.shape[i]` and `x.numel()` are 0-dim tensors, recorded values of the program: an op that takes
  them (`view`, `zeros`, `pad`, slicing, `interpolate(size=)`) stays dynamic, arithmetic on them is recorded
  ("size");
- `x.dim()`, `x.ndim`, `len(x.shape)` and `x.dtype` are plain Python values ("prop"): whatever Python decides with
  them is frozen, and torch says nothing;
- a Python conversion of a tensor or a size (`if`, `while`, `bool`, `int`, `float`, `.item()`, `.tolist()`,
  `len(t)`, `math.*`, NumPy, the `min`/`max` builtins, `range`, indexing a Python list) computes a Python value once:
  the branch, loop count or value of this example becomes a constant of the traced program. torch warns
  (`TracerWarning`) for most of them, not for `range()`, `operator.index` or list indexing; a warning issued inside
  torch (`Tensor.split`'s `int()`, `np.*` through `Tensor.__array__`, `torch._assert`), or in a module whose name
  matches `torch.(?!jit)` (`torchvision.*`, `torchaudio.*`), is hidden by torch's default filter.

The policy records each such place once, as a typed result (`Frozen`); the rules of `jitlint.targets.trace.rules`
word them. Values follow into the helpers forward calls (`follow_calls`).
"""

from __future__ import annotations

from dataclasses import dataclass

import libcst as cst

from jitlint.facts.datadep import RECORDED, TENSORISH, DatadepDomain, DatadepPolicy
from jitlint.facts.datadep_tables import METHOD_SIZE_CONVERSIONS, SIZE_CONVERSIONS, SizeConversion
from jitlint.facts.datadep_tuples import flat, is_tuple, may_join, same
from jitlint.facts.flow import Frame, Reads
from jitlint.facts.syntax import OneScope
from jitlint.walk import walk

# torch's TracerWarning texts, by what converts (the start of each text, up to the kind of value).
WARN_BOOL = "Converting a tensor to a Python boolean"
WARN_INT = "Converting a tensor to a Python integer"
WARN_FLOAT = "Converting a tensor to a Python float"
WARN_NUMBER = "Converting a tensor to a Python number"
WARN_LIST = "Converting a tensor to a Python list"
WARN_NUMPY = "Converting a tensor to a NumPy array"
WARN_LEN = "Using len to get tensor shape"
WARN_ITER = "Iterating over a tensor"
_CONVERSION_WARNING = {"int": WARN_INT, "float": WARN_FLOAT, "bool": WARN_BOOL, "complex": WARN_NUMBER}
# Builtins that iterate their tensor arguments (`Tensor.__iter__`: the example's leading size is the count of items).
_ITERATING = frozenset(f"builtins.{name}" for name in (
    "enumerate", "zip", "reversed", "map", "filter", "list", "tuple", "sorted", "sum",
))
# Builtins that need a Python number's own protocol (`__round__`, `__divmod__`), which a traced size, a 0-dim tensor
# under trace, does not have: torch.jit.trace raises a TypeError there.
_NUMBER_ONLY = frozenset({"builtins.round", "builtins.divmod"})
# Checks that are only what a later export-era remedy needs: they do not trace.
_EXPORT_REMEDIES = frozenset({"torch.cond", "torch._higher_order_ops.cond.cond"})
_CHECKS = frozenset({"torch._check", "torch._check_is_size", "torch._check_with"})
# Values that are constants of the program once computed from a recorded size.
_CONVERTING = ("data", "baked")
# Kinds a value keeps where paths merge with one of unknown kind (`join`).
_MAY_REACH = frozenset({"size"})


def _reexported(domain: DatadepDomain, qualified: str) -> str:
    """The name a project module's import re-exports (`from .trace_utils import _assert`, where trace_utils does
    `from torch import _assert` in a `try`): the torch or NumPy function the call runs."""
    project = domain.ctx.project
    for _ in range(8):
        if not qualified or qualified.startswith(("torch.", "builtins.", "numpy.", "math.")):
            return qualified
        module_name, _, attr = qualified.rpartition(".")
        module = project.module(module_name) if module_name else None
        if module is None or attr in module.functions or attr in module.classes:
            return qualified
        target = module.imports.aliases.get(attr)
        if target is None or target == qualified:
            return qualified
        qualified = target
    return qualified


@dataclass(frozen=True)
class Frozen:
    """A place where torch.jit.trace evaluates Python once and records the result as a constant (or rejects).

    - `kind`: "branch" (an `if`, conditional expression, `assert`, `bool()`, or a `min`/`max` comparison),
      "loop" (a loop count: `range()`, `while`, iterating a tensor or `.tolist()`), "value" (a Python number:
      `.item()`, `int()`, `float()`, `len()`, `math.*`, list indexing), "numpy", "library" (a conversion inside a
      library function: torch's `split`, einx's operations), "rejected" (a traced size where Python or torch needs a
      number: `round()`, `divmod()`, a lone 2-d adaptive pool size: torch.jit.trace raises), "data-attribute" (`x.data`), "device" (a device or dtype taken from a value), "remedy" (an
      export-era construct that does not trace);
    - `value`: what was converted: "tensor" (a tensor's value), "size" (a recorded size), "data" (a Python value
      read from tensor data), "prop" (the input's rank, dtype or device);
    - `how`: the construct (`if`, `while`, `range`, `item`, `math.sqrt`, `split`...);
    - `warning`: the start of torch's TracerWarning for it, or "" when torch says nothing;
    - `inside_torch`: the warning is issued inside torch's own code (hidden by torch's default filter);
    - `library`: for a conversion inside a library function, its entry of the shared table (where it converts,
      where torch's warning is issued).
    """

    kind: str
    node: cst.CSTNode
    value: str
    how: str
    warning: str = ""
    inside_torch: bool = False
    library: SizeConversion | None = None


@dataclass(frozen=True)
class Returned:
    """A `return` and the kind of each value it returns (one, or the elements of a returned tuple/list)."""

    node: cst.Return
    kinds: tuple


def _calls_in(node: cst.CSTNode) -> list[cst.Call]:
    found: list[cst.Call] = []

    class Calls(cst.CSTVisitor):
        def visit_Call(self, call: cst.Call) -> None:
            found.append(call)

        def visit_Lambda(self, lambda_: cst.Lambda) -> bool:
            return False

    walk(node, Calls())
    return found


class TraceDatadep(DatadepPolicy):
    follow_calls = True
    follow_returns = True
    union_annotations = True
    tuple_kinds = True
    shape_of_unknown = True
    comprehension_kinds = True

    def __init__(self) -> None:
        super().__init__()
        self._done: set[int] = set()  # nodes already explained by an event (a conversion inside a frozen test)

    # -- kinds ----------------------------------------------------------------------------------------------------
    def size(self, receiver: str) -> str | None:
        return "size"

    def rank(self) -> str | None:
        return "prop"

    def dtype(self) -> str | None:
        return "dtype"

    def length(self, value: str | None) -> str | None:
        return "baked" if value in TENSORISH else None

    def conversion(self, name: str, value: str | None) -> str | None:
        if value in RECORDED:
            return "baked"
        if value in _CONVERTING:
            return value
        return None

    def arithmetic(self, left: str | None, right: str | None) -> str | None:
        kinds = {left, right}
        if kinds & TENSORISH:
            return "ddtensor" if "ddtensor" in kinds else "tensor"
        if "size" in kinds:
            return "size"  # a Python number with a recorded size is a recorded size (the number a constant)
        return None

    def compared(self, kinds: set) -> str | None:
        if kinds & {"size", "shape"}:
            return "size"  # a comparison of recorded sizes is a recorded bool
        if kinds & {"prop", "dtype", "device"}:
            return "prop"
        if "baked" in kinds:
            return "baked"
        return None

    def loop_item(self, iterable: str | None) -> str | None:
        if iterable in ("shape", "ddshape"):
            return "size"
        if is_tuple(iterable):
            return same(iterable)
        return super().loop_item(iterable)

    def join(self, first, second):
        # A recorded size on some of the paths that reach a place is frozen there whenever the model takes one of
        # them (a size the example's configuration computes in a branch: `if self.pool: x, hw = self.pool(x, hw)`).
        return may_join(first, second, _MAY_REACH)

    # -- events ---------------------------------------------------------------------------------------------------
    def _event(self, kind: str, node: cst.CSTNode, value: str, how: str, warning: str = "",
               inside_torch: bool = False, library: SizeConversion | None = None) -> None:
        if id(node) in self._done:
            return
        self._done.add(id(node))
        self.events.append(Frozen(kind, node, value, how, warning, inside_torch, library))

    def _conversion(self, domain: DatadepDomain, call: cst.Call, frame: Frame) -> tuple[str, str, str] | None:
        """(value, how, warning) when `call` converts a recorded value to a Python one, else None."""
        func = call.func
        qualified = domain.imports.qualify(func) or ""
        args = [arg for arg in call.args if not arg.star and arg.keyword is None]
        first = domain.kind(args[0].value, frame) if args else None
        if isinstance(func, cst.Attribute) and not qualified:
            receiver = domain.kind(func.value, frame)
            if receiver in TENSORISH and func.attr.value == "item" and not call.args:
                return "tensor", "item", WARN_NUMBER
            if receiver in TENSORISH and func.attr.value == "tolist" and not call.args:
                return "tensor", "tolist", WARN_LIST
            return None
        if qualified.startswith("builtins."):
            name = qualified[len("builtins."):]
            if name in _CONVERSION_WARNING and first in RECORDED:
                return _value(first), name, _CONVERSION_WARNING[name]
            if name == "len" and first in TENSORISH:
                return "tensor", "len", WARN_LEN
            return None
        if qualified.startswith("math.") and any(domain.kind(arg.value, frame) in RECORDED for arg in args):
            value = next(domain.kind(arg.value, frame) for arg in args if domain.kind(arg.value, frame) in RECORDED)
            return _value(value), qualified, WARN_FLOAT
        if qualified == "operator.index" and first in RECORDED:
            return _value(first), "operator.index", ""
        return None

    def _truth_parts(self, domain: DatadepDomain, test: cst.BaseExpression, frame: Frame) -> list:
        """The operands whose truth value Python takes in a test (`a and not b`: `a` and `b`)."""
        if isinstance(test, cst.BooleanOperation):
            return self._truth_parts(domain, test.left, frame) + self._truth_parts(domain, test.right, frame)
        if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
            return self._truth_parts(domain, test.expression, frame)
        return [test]

    def _branch(self, domain: DatadepDomain, test: cst.BaseExpression, how: str, frame: Frame,
                kind: str = "branch") -> None:
        found = None
        for part in self._truth_parts(domain, test, frame):
            value = domain.kind(part, frame)
            if value in RECORDED:
                found = (_value(value), WARN_BOOL)
                break
            converted = [c for call in _calls_in(part) if (c := self._conversion(domain, call, frame))]
            if value in _CONVERTING and converted:
                found = (converted[0][0], converted[0][2])
                break
            if value == "prop" and found is None:
                found = ("prop", "")
        if found is None:
            return
        self._event(kind, test, found[0], how, found[1])
        for call in _calls_in(test):  # the conversions in the test are this event
            self._done.add(id(call))
        for part in self._truth_parts(domain, test, frame):
            self._done.add(id(part))

    def _calls(self, domain: DatadepDomain, reads: Reads, frame: Frame, statement: cst.CSTNode) -> None:
        returned = _returned_elements(statement)
        for call in reads.calls:
            if id(call) in self._done:
                continue
            func = call.func
            qualified = _reexported(domain, domain.imports.qualify(func) or "")
            args = [arg for arg in call.args if not arg.star]
            positional = [arg for arg in args if arg.keyword is None]
            kinds = [domain.kind(arg.value, frame) for arg in args]
            if qualified == "builtins.range":
                self._range(domain, call, frame)
                continue
            if qualified in ("builtins.min", "builtins.max") and flat(kinds) & (RECORDED | {"sizes"}):
                value = next(k for k in flat(kinds) if k in RECORDED | {"sizes"})
                self._event("branch", call, _value(value), qualified[len("builtins."):], WARN_BOOL)
                continue
            if qualified in ("builtins.any", "builtins.all") and kinds == ["sizes"]:
                # the truth of each recorded size (or comparison of one) the sequence yields
                self._event("branch", call, "size", qualified[len("builtins."):], WARN_BOOL)
                continue
            if qualified in _NUMBER_ONLY and kinds and kinds[0] == "size":
                # a Python protocol the 0-dim tensor of a traced size lacks (`Tensor` has no `__round__`)
                self._event("rejected", call, "size", qualified[len("builtins."):])
                continue
            if qualified in _ITERATING and any(k in TENSORISH for k in kinds):
                self._event("loop", call, "tensor", "iterate", WARN_ITER)
                continue
            if qualified in _EXPORT_REMEDIES:
                self._event("remedy", call, "tensor", qualified)
                continue
            if qualified in _CHECKS and kinds and kinds[0] in RECORDED:
                self._event("remedy", call, _value(kinds[0]), qualified)
                continue
            if qualified == "torch._assert" and kinds and kinds[0] in RECORDED:
                self._event("branch", call, _value(kinds[0]), "torch._assert", WARN_BOOL, inside_torch=True)
                continue
            if qualified.startswith("numpy.") and any(k in RECORDED for k in kinds):
                value = next(k for k in kinds if k in RECORDED)
                self._event("numpy", call, _value(value), qualified, WARN_NUMPY, inside_torch=True)
                continue
            if isinstance(func, cst.Attribute) and not qualified and func.attr.value == "numpy" and not call.args:
                if domain.kind(func.value, frame) in TENSORISH:
                    self._event("numpy", call, "tensor", ".numpy()", WARN_NUMPY)
                continue
            if self._library(domain, call, qualified, positional, frame):
                continue
            if self._device(domain, call, qualified, frame):
                continue
            converted = self._conversion(domain, call, frame)
            if converted is not None and not any(call is element for element in returned):
                value, how, warning = converted
                self._event("value", call, value, how, warning)

    def _range(self, domain: DatadepDomain, call: cst.Call, frame: Frame) -> None:
        found = None
        for arg in call.args:
            value = domain.kind(arg.value, frame)
            converted = [c for inner in _calls_in(arg.value) if (c := self._conversion(domain, inner, frame))]
            if converted:
                found = (converted[0][0], converted[0][2])
                break
            if value in RECORDED:
                found = (_value(value), "")
                break
            if value == "data" and found is None:
                found = ("data", "")
        if found is None:
            return
        self._event("loop", call, found[0], "range", found[1])
        for inner in _calls_in(call):
            self._done.add(id(inner))

    def _library(self, domain: DatadepDomain, call: cst.Call, qualified: str, positional, frame: Frame) -> bool:
        """A library function that converts a recorded size to a Python int in its own code (the shared table
        `SIZE_CONVERSIONS`): `torch.split(x, x.size(1) // 2)`, `einx.subtract('i, j -> i j', a, b)` on tensors whose
        shapes are traced."""
        func = call.func
        conversion = SIZE_CONVERSIONS.get(qualified)
        if conversion is None and isinstance(func, cst.Attribute) and not qualified:
            method = METHOD_SIZE_CONVERSIONS.get(func.attr.value)
            if method is not None and domain.kind(func.value, frame) in TENSORISH:
                conversion = method
        if conversion is None:
            return False
        value = self._converted(domain, call, conversion, positional, frame)
        if value is None:
            return False
        how = qualified or f".{func.attr.value}()"
        if conversion.outcome == "rejects":
            self._event("rejected", call, value, how, library=conversion)
            return True
        self._event("library", call, value, how, WARN_INT if conversion.warns else "", conversion.warns == "torch",
                    library=conversion)
        return True

    @staticmethod
    def _converted(domain: DatadepDomain, call: cst.Call, conversion: SizeConversion, positional,
                   frame: Frame) -> str | None:
        """What of the call's arguments the library converts that is traced: "size" (a size argument, or an axis
        length given by keyword), "tensor" (a traced tensor whose shape it reads), or None."""
        if conversion.argument is None:
            if any(domain.kind(arg.value, frame) == "size" for arg in call.args if arg.keyword is not None):
                return "size"
            if any(domain.kind(arg.value, frame) in TENSORISH and not _of_self(domain, arg.value)
                   for arg in positional):  # a parameter's or buffer's shape is the same for every input
                return "tensor"
            return None
        size = positional[conversion.argument].value if len(positional) > conversion.argument else None
        if size is None:
            size = next((arg.value for arg in call.args if arg.keyword and arg.keyword.value in conversion.keywords),
                        None)
        return "size" if size is not None and domain.kind(size, frame) == "size" else None

    def _device(self, domain: DatadepDomain, call: cst.Call, qualified: str, frame: Frame) -> bool:
        """A device or dtype taken from a value (`device=x.device`, `.to(x.device)`, `dtype=x.dtype`), or a fixed
        device (`.cuda()`, `.cpu()`, a device literal): recorded as a constant of the graph."""
        func = call.func
        method = func.attr.value if isinstance(func, cst.Attribute) and not qualified else None
        if method in ("cuda", "cpu") and domain.kind(func.value, frame) in TENSORISH:
            self._event("device", call, "prop", f".{method}()")
            return True
        for arg in call.args:
            keyword = arg.keyword.value if arg.keyword is not None else None
            if keyword == "device" or (method == "to" and keyword is None):
                if self._device_value(domain, arg.value, frame):
                    self._event("device", call, "prop", "device")
                    return True
            if keyword == "dtype" and domain.kind(arg.value, frame) == "dtype" and not _of_self(domain, arg.value):
                self._event("device", call, "prop", "dtype")
                return True
        return False

    def _device_value(self, domain: DatadepDomain, value: cst.BaseExpression, frame: Frame) -> bool:
        if domain.kind(value, frame) == "device":
            return True
        if isinstance(value, cst.Call) and (domain.imports.qualify(value.func) or "") == "torch.device":
            return True
        return isinstance(value, cst.SimpleString) and value.evaluated_value in ("cuda", "cpu") or (
            isinstance(value, cst.SimpleString) and str(value.evaluated_value).startswith("cuda:"))

    def _attributes(self, domain: DatadepDomain, reads: Reads, frame: Frame) -> None:
        for attribute in reads.attributes:
            if attribute.attr.value != "data" or _of_self(domain, attribute.value):
                continue
            if domain.kind(attribute.value, frame) in TENSORISH:
                self._event("data-attribute", attribute, "tensor", ".data")

    def _subscripts(self, domain: DatadepDomain, reads: Reads, frame: Frame) -> None:
        for subscript in reads.subscripts:
            if not _python_sequence(domain, subscript.value):
                continue
            for element in subscript.slice:
                parts = [element.slice.value] if isinstance(element.slice, cst.Index) else [
                    part for part in (element.slice.lower, element.slice.upper, element.slice.step) if part is not None]
                if any(domain.kind(part, frame) == "size" for part in parts):
                    self._event("value", subscript, "size", "index")
                    break

    def _comprehensions(self, domain: DatadepDomain, statement: cst.CSTNode, frame: Frame) -> None:
        """Loops of comprehensions (which the walker does not enter): `[x[:, i] for i in range(x.size(1))]`."""
        fors: list[cst.CompFor] = []

        class Fors(cst.CSTVisitor):
            def visit_CompFor(self, node: cst.CompFor) -> None:
                fors.append(node)

            def visit_Lambda(self, node: cst.Lambda) -> bool:
                return False

            def visit_IndentedBlock(self, node: cst.IndentedBlock) -> bool:
                return False

        header = statement.test if isinstance(statement, (cst.If, cst.While)) else (
            statement.iter if isinstance(statement, cst.For) else statement)
        walk(header, Fors())
        for comp in fors:
            iterable = comp.iter
            if isinstance(iterable, cst.Call) and domain.imports.qualify(iterable.func) == "builtins.range":
                if id(iterable) not in self._done:
                    self._range(domain, iterable, frame)
            elif domain.kind(iterable, frame) in TENSORISH:
                self._event("loop", iterable, "tensor", "iterate", WARN_ITER)

    def _implicit_truths(self, domain: DatadepDomain, statement: cst.CSTNode, frame: Frame) -> None:
        """Truth values Python takes outside tests: every operand of `and`/`or` but the last, the operand of
        `not`, and the links of a chained comparison (`a == b <= c` takes the truth of `a == b`)."""
        # (the operand whose truth is taken, the node of the source that shows it, how)
        found: list[tuple[cst.BaseExpression, cst.BaseExpression, str]] = []

        class Truths(OneScope):
            def visit_BooleanOperation(self, node: cst.BooleanOperation) -> None:
                found.append((node.left, node.left, "and" if isinstance(node.operator, cst.And) else "or"))

            def visit_UnaryOperation(self, node: cst.UnaryOperation) -> None:
                if isinstance(node.operator, cst.Not):
                    found.append((node.expression, node.expression, "not"))

            def visit_Comparison(self, node: cst.Comparison) -> None:
                if len(node.comparisons) > 1:  # its first link, a node of its own (reported at the comparison)
                    found.append((node.with_changes(comparisons=node.comparisons[:1]), node, "chained comparison"))
                first = node.comparisons[0]
                if isinstance(first.operator, (cst.In, cst.NotIn)) and (
                        isinstance(first.comparator, (cst.Tuple, cst.List)) or _python_sequence(domain,
                                                                                               first.comparator)):
                    # `n in (4, 5)` compares `n` with each item by `==` and takes each result's truth
                    found.append((node.left, node, "in"))

            def visit_IndentedBlock(self, node) -> bool:
                return False

        header = statement.test if isinstance(statement, (cst.If, cst.While)) else (
            statement.iter if isinstance(statement, cst.For) else statement)
        walk(header, Truths())
        for operand, shown, how in found:
            if id(shown) in self._done:
                continue
            value = domain.kind(operand, frame)
            if value in RECORDED:
                self._event("branch", shown, _value(value), how, WARN_BOOL)

    def read(self, domain: DatadepDomain, reads: Reads, statement: cst.CSTNode, frame: Frame) -> None:
        if isinstance(statement, cst.If):
            self._branch(domain, statement.test, "if", frame)
        elif isinstance(statement, cst.While):
            self._branch(domain, statement.test, "while", frame, kind="loop")
        elif isinstance(statement, cst.For):
            self._loop_header(domain, statement, frame)
        for expression in reads.if_expressions:
            self._branch(domain, expression.test, "conditional expression", frame)
        self._comprehensions(domain, statement, frame)
        self._implicit_truths(domain, statement, frame)
        self._calls(domain, reads, frame, statement)
        self._attributes(domain, reads, frame)
        self._subscripts(domain, reads, frame)

    def _loop_header(self, domain: DatadepDomain, node: cst.For, frame: Frame) -> None:
        iterable = node.iter
        value = domain.kind(iterable, frame)
        if value in TENSORISH:
            self._event("loop", iterable, "tensor", "iterate", WARN_ITER)
        elif value == "datalist" and isinstance(iterable, cst.Call):
            self._event("loop", iterable, "tensor", "tolist", WARN_LIST)
            for inner in _calls_in(iterable):
                self._done.add(id(inner))

    def asserted(self, domain: DatadepDomain, node: cst.Assert, frame: Frame) -> None:
        self._branch(domain, node.test, "assert", frame)

    def returned(self, domain: DatadepDomain, node: cst.Return, frame: Frame) -> None:
        elements = _returned_elements(node)
        self.events.append(Returned(node, tuple(domain.kind(element, frame) for element in elements)))


def _value(kind: str | None) -> str:
    return "size" if kind in ("size", "sizes") else "tensor"


def _of_self(domain: DatadepDomain, node: cst.BaseExpression) -> bool:
    """`self.<attr>` (a parameter or buffer: not an input), or an attribute of one (`self.weight.dtype`)."""
    while isinstance(node, cst.Attribute):
        if isinstance(node.value, cst.Name) and node.value.value == domain.self_name and domain.self_name:
            return True
        node = node.value
    return False


def _python_sequence(domain: DatadepDomain, node: cst.BaseExpression) -> bool:
    """A module-level list, tuple or dict (`SCALES = [...]`), or a list held by `self`."""
    if isinstance(node, cst.Name):
        value = domain.ctx.module.globals.get(node.value)
        return isinstance(value, (cst.List, cst.Tuple, cst.Dict))
    if isinstance(node, cst.Attribute) and isinstance(node.value, cst.Name) and node.value.value == domain.self_name:
        for owner in domain.entry.owners if domain.entry is not None else ():
            info = domain.ctx.project.attributes(owner).get(node.attr.value)
            if info is not None and info.kinds & {"list", "tuple", "dict", "list-of-modules", "dict-of-modules"}:
                return True
    return False


def _returned_elements(statement: cst.CSTNode) -> list[cst.BaseExpression]:
    if not isinstance(statement, cst.Return) or statement.value is None:
        return []
    value = statement.value
    if isinstance(value, (cst.Tuple, cst.List)):
        return [element.value for element in value.elements]
    return [value]
