"""torch.compile's policy for the shared data-dependence fact (`jitlint.facts.datadep`): where TorchDynamo breaks
the graph on a value read from tensor data (verified on torch 2.13, backend "eager").

Dynamo traces the model on fake tensors. Sizes are static or symbolic, so shape branches never break (they become
guards). What depends on the *values* in a tensor is unknown while tracing:

- a Python decision on a tensor (`if x.sum() > 0:`, `while`, a conditional expression, `and`/`or`, `bool(t)` in a
  test, `torch._assert`) breaks the graph in every mode ("Data-dependent branching", gb0170);
- reading a tensor's value into Python (`.item()`, `int(t)`, `float(t)`, `.tolist()`) breaks the graph ("Unsupported
  Tensor.item() call with capture_scalar_outputs=False", gb0124; `.tolist()`: gb0033) unless Dynamo captures
  scalars (`capture_scalar_outputs`, or `fullgraph=True`, which turns it on): then the value is a symbol, and only a
  Python decision on it breaks (`if v > 0.5:`, `range(v)`), as a decision on a tensor does;
- an op whose output size depends on the data (`nonzero`, a boolean mask index, `unique`, `masked_select`,
  one-argument `torch.where`, `bincount`, `repeat_interleave` by a tensor, torchvision's `nms`) breaks the graph
  ("Dynamic shape operator", gb0036) unless Dynamo captures such ops (`capture_dynamic_output_shape_ops`, or
  `fullgraph=True`): then the size is a symbol, and a decision on it breaks (`if y.shape[0] > 2:`, `for c in
  torch.unique(t):`).

In the default mode, what a breaking call returns reaches the rest of the function as a plain Python value (Dynamo
resumes after the break with it as an input), so a decision on it does not break again: the policy then gives
`.item()` results and the sizes of data-dependent tensors no kind, and records the break at the call instead.
`torch.equal`, `torch.allclose` and `Tensor.is_nonzero` break whatever the mode (gb0033: an op with a non-tensor
output that depends on the data). A tensor of one Python number (`torch.tensor(8.0)`) is a tensor like any other:
`float(torch.tensor(8.0).log2())` breaks.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import libcst as cst

from jitlint.facts.datadep import DEPENDENT, TENSORISH, DatadepDomain, DatadepPolicy
from jitlint.facts.flow import Frame, Reads
from jitlint.facts.syntax import OneScope
from jitlint.names import first_param_name
from jitlint.targets.compile.flags import flag_test
from jitlint.walk import walk

# Calls whose output size depends on the data: torch functions (qualified) and tensor methods.
DYNAMIC_SHAPE_FUNCTIONS = frozenset({
    "torch.nonzero", "torch.unique", "torch.unique_consecutive", "torch.masked_select", "torch.argwhere",
    "torch.bincount", "torch.ops.torchvision.nms", "torchvision.ops.nms", "torchvision.ops.batched_nms", "torchvision.ops.boxes.nms",
    "torchvision.ops.boxes.batched_nms", "torchvision.ops.remove_small_boxes",
    "torchvision.ops.boxes.remove_small_boxes",
})
DYNAMIC_SHAPE_METHODS = frozenset({"nonzero", "unique", "unique_consecutive", "masked_select", "argwhere", "bincount"})
# Functions and methods whose Python result is read from the data in every mode.
DATA_FUNCTIONS = frozenset({"torch.equal", "torch.allclose", "torch.is_nonzero"})
DATA_METHODS = frozenset({"equal", "allclose", "is_nonzero"})
# Builtins that take the truth value of each element they iterate (`all(mask)`: `bool()` of each element).
_ITERATING_TESTS = frozenset({"builtins.all", "builtins.any"})
# torch functions that make a tensor from sizes or data: given `requires_grad=True` in traced code, Dynamo refuses
# the call ("Attempted to use tensor creation function with requires_grad=True", torch/_dynamo/variables/torch.py).
_CREATION = frozenset(f"torch.{name}" for name in (
    "zeros", "ones", "empty", "full", "rand", "randn", "randint", "tensor", "arange", "linspace", "logspace", "eye",
    "zeros_like", "ones_like", "empty_like", "full_like", "rand_like", "randn_like", "randint_like", "randperm",
))
# NumPy's global random draws, by the position of their `size` argument (None: `rand(d0, d1, ...)`, sized by any
# positional argument): Dynamo traces them as torch ops, and one drawn without a size is a Python number read from
# that tensor ("Data dependent operator", gb0033; under fullgraph a guard on it fails). Verified on torch 2.13 with
# NumPy 2.4: each breaks without a size and is traced with one.
_NUMPY_DRAWS = {"numpy.random.randint": 2, "numpy.random.rand": None, "numpy.random.randn": None,
                "numpy.random.normal": 2, "numpy.random.uniform": 2, "numpy.random.random": 0,
                "numpy.random.choice": 1}
_CONVERSIONS = {"builtins.int": "int", "builtins.float": "float", "builtins.bool": "bool", "builtins.complex": "complex"}


@dataclass(frozen=True)
class Break:
    """A graph break on tensor data, in the mode the run judges; the rule of its `kind` reports it.

    kind: "branch" (a Python decision on a tensor or on a value read from one: DYN101), "scalar" (a tensor's value
    read into Python: DYN102), "shape" (an op whose output size depends on the data: DYN103), "text" (a tensor's
    value made into a string that Python then needs: DYN109), "refused" (a tensor call or attribute assignment
    Dynamo refuses in every mode: DYN114)."""

    kind: str
    node: cst.CSTNode
    what: str  # the code, as the message names it: "`if`", "`.item()`", "`torch.nonzero`"; for "refused", which
    # refusal: "requires-grad-creation", "inference-mode", "random_", "is_inference", "requires-grad-set", "data-ptr"
    value: str | None = None  # for a branch: "tensor", or "data" (a value read from a tensor)
    always: bool = False  # for a scalar: breaks whatever the mode (`torch.equal`)
    eager: bool = False  # Dynamo gives up the whole function there (for text: `len()`, `+`, `%`)


class CompileDatadep(DatadepPolicy):
    follow_calls = True  # Dynamo inlines the helpers forward calls: a tensor passed in is traced there
    follow_calls_into_forward = True  # and a submodule's forward: `self.head(x[mask])` traces `head` on that tensor
    comprehension_kinds = True  # `[torch.unique(t) for t in ...]` is a list of tensors of data-dependent sizes
    carries_round_loops = True  # Dynamo unrolls loops: the second iteration sees what the first left
    constant_tensors = False
    plain_tensor_attributes = True  # `self.flags = torch.ones(n, dtype=torch.bool)`: lifted into the graph as a tensor
    type_comments = True  # a `# type: (Tensor, ...)` signature says which parameters are tensors
    settings: ClassVar = None  # the run's CompileSettings (`for_settings`)

    @classmethod
    def for_settings(cls, settings) -> type["CompileDatadep"]:
        """This policy for one run's `[tool.jitlint.compile]` settings."""
        return type(cls.__name__, (cls,), {"settings": settings})

    def __init__(self) -> None:
        super().__init__()
        self._seen: set[tuple[str, int]] = set()
        self._texts: set[str] = set()  # names bound to a string formatted from a tensor (`f"{x.sum()}"`)
        self.scalars = bool(self.settings is not None and self.settings.captures_scalars)
        self.shapes = bool(self.settings is not None and self.settings.captures_dynamic_shapes)

    # -- kinds ----------------------------------------------------------------------------------------------------
    def decided(self, test: cst.BaseExpression, domain) -> bool | None:
        """A test of configuration flags of the module (`if self.gather_distributed and ...:`): Dynamo guards such a
        bool attribute as a constant and traces only the branch it takes (`jitlint.targets.compile.flags`), so what
        the other branch binds never reaches the code after it."""
        entry = domain.entry
        if entry is None or domain.self_name is None or not entry.owners:
            return None
        if entry.info.bound_first_param != "instance":
            return None
        return flag_test(domain.ctx.project, entry.owners, domain.self_name, test)

    def size(self, receiver: str) -> str | None:
        return "data" if receiver == "ddtensor" and self.shapes else None

    def length(self, value: str | None) -> str | None:
        return "data" if value == "ddtensor" and self.shapes else None

    def scalar(self, method: str) -> str | None:
        if not self.scalars:
            return None  # the call breaks the graph; Dynamo resumes with the Python value
        return "datalist" if method == "tolist" else "data"

    def passed(self, kinds: frozenset) -> str | None:
        """Dynamo inlines a helper once for each call it traces: when some callers pass a tensor whose size depends
        on its data and the others a plain tensor, the helper's decisions on that size break for the former, at the
        helper's line."""
        if "ddtensor" in kinds and kinds <= {"tensor", "ddtensor"}:
            return "ddtensor"
        return super().passed(kinds)

    def parameter(self, annotated: str | None, passed: str) -> str | None:
        """A parameter annotated `Tensor` holds what the callers pass: a tensor whose size depends on its data, or
        a mask, is one."""
        if annotated == "tensor" and passed in TENSORISH:
            return passed
        return super().parameter(annotated, passed)

    def carried(self, before, after):
        """Dynamo unrolls a loop: a name that is a plain tensor before it and a tensor of data-dependent size at the
        end of the body (`x = x[mask]`) holds the latter from the second iteration on."""
        if {before, after} == {"tensor", "ddtensor"}:
            return "ddtensor"
        return super().carried(before, after)

    def arithmetic(self, left: str | None, right: str | None) -> str | None:
        """A tensor combined with a value read from data (`x * v`) is a tensor: a decision on it is a decision on a
        tensor."""
        if TENSORISH & {left, right} and "data" in (left, right):
            return "ddtensor" if "ddtensor" in (left, right) else "tensor"
        return None

    def model_input(self, function: cst.FunctionDef, name: str) -> str | None:
        """A tensor, unless the forward slices with it (`x[..., -n:]`, alone or in arithmetic of such parameters):
        a bound Python must have as an int says the callers pass one (a submodule given sizes, `rel_pos(i, j)`),
        which Dynamo treats as a number, not tensor data."""
        return None if name in _slice_bound_parameters(function) else "tensor"

    def extremum(self, kinds: list) -> str | None:
        """`max(t, 0)`, `min(a, b)` with a tensor among them: Dynamo makes it `torch.clamp` or `torch.maximum`
        (`BuiltinVariable._call_min_max_binary`), a tensor of the tensor operand's shape."""
        return "ddtensor" if "ddtensor" in kinds else "tensor"

    def conversion(self, name: str, value: str | None) -> str | None:
        if name == "math":
            return None
        if value in TENSORISH:
            return "data" if self.scalars else None
        return "data" if value == "data" else None

    # -- events ---------------------------------------------------------------------------------------------------
    def _record(self, event: Break) -> None:
        key = (event.kind, id(event.node))
        if key not in self._seen:
            self._seen.add(key)
            self.events.append(event)

    def _decision(self, domain: DatadepDomain, test: cst.BaseExpression, frame: Frame, where: str,
                  node: cst.CSTNode | None = None) -> None:
        if _reads_data_function(domain, test):
            return  # `if torch.equal(a, b):` breaks at the call (DYN102), and the branch resumes on a Python bool
        value = domain.kind(test, frame)
        if value in TENSORISH:
            self._record(Break("branch", node or test, where, "tensor"))
        elif value in DEPENDENT:
            self._record(Break("branch", node or test, where, "data"))

    def read(self, domain: DatadepDomain, reads: Reads, statement: cst.CSTNode, frame: Frame) -> None:
        self._text(domain, reads, statement, frame)
        self._refused(domain, reads, statement, frame)
        for call in reads.calls:
            self._call(domain, call, frame)
        for comprehension in reads.comprehensions:
            self._element_tests(domain, comprehension, frame)
            if not self.shapes:
                self._shape_calls_in(domain, comprehension, frame)
        for subscript in reads.subscripts:
            if not self.scalars and self._tensor_bound(domain, subscript, frame):
                self._record(Break("scalar", subscript, "a slice bound that is a tensor (its `__index__`)"))
            if self.shapes or domain.kind(subscript.value, frame) not in TENSORISH:
                continue
            for element in subscript.slice:
                index = element.slice
                if isinstance(index, cst.Index) and domain.kind(index.value, frame) == "mask":
                    self._record(Break("shape", subscript, "indexing with a boolean mask"))
                    break
        for operation in reads.boolean:
            self._decision(domain, operation.left, frame, f"`{_operator(operation)}`", operation)
        for expression in reads.if_expressions:
            self._decision(domain, expression.test, frame, "a conditional expression")
        if isinstance(statement, cst.If):
            self._decision(domain, statement.test, frame, "`if`")
        elif isinstance(statement, cst.While):
            self._decision(domain, statement.test, frame, "`while`")

    @staticmethod
    def _tensor_bound(domain: DatadepDomain, subscript: cst.Subscript, frame: Frame) -> bool:
        """`t[a:b]` with a bound that is a tensor: Python calls its `__index__`, which reads its value (Dynamo:
        `.item()`, a break unless scalars are captured; verified on torch 2.13)."""
        if domain.kind(subscript.value, frame) not in TENSORISH:
            return False
        for element in subscript.slice:
            part = element.slice
            if isinstance(part, cst.Slice) and any(
                    bound is not None and domain.kind(bound, frame) in TENSORISH
                    for bound in (part.lower, part.upper, part.step)):
                return True
        return False

    # -- strings made from tensors -------------------------------------------------------------------------------
    def _formats_tensor(self, domain: DatadepDomain, node: cst.BaseExpression, frame: Frame) -> bool:
        """An f-string or `"...".format(...)` with a tensor among its values: Dynamo keeps it unformatted (a lazy
        string) until Python needs the text."""
        if isinstance(node, cst.Name):
            return node.value in self._texts
        if isinstance(node, cst.FormattedString):
            return any(isinstance(part, cst.FormattedStringExpression) and domain.kind(part.expression, frame)
                       in TENSORISH for part in node.parts)
        if (isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.func.attr.value == "format"
                and isinstance(node.func.value, (cst.SimpleString, cst.ConcatenatedString))):
            return any(domain.kind(arg.value, frame) in TENSORISH for arg in node.args)
        return False

    def _text(self, domain: DatadepDomain, reads: Reads, statement: cst.CSTNode, frame: Frame) -> None:
        for call in reads.calls:
            qualified = domain.imports.qualify(call.func) or ""
            args = [arg.value for arg in call.args if not arg.star]
            if qualified in ("builtins.str", "builtins.repr") and args and domain.kind(args[0], frame) in TENSORISH:
                self._record(Break("text", call, f"`{qualified[9:]}()` of a tensor"))
            elif qualified == "builtins.len" and args and self._formats_tensor(domain, args[0], frame):
                self._record(Break("text", call, "`len()` of a string formatted from a tensor", eager=True))
            elif (isinstance(call.func, cst.Attribute) and call.func.attr.value != "format"
                  and self._formats_tensor(domain, call.func.value, frame)):
                self._record(Break("text", call, f"`.{call.func.attr.value}()` of a string formatted from a tensor"))
        for operation in reads.binary:
            if isinstance(operation.operator, cst.Modulo) and isinstance(
                    operation.left, (cst.SimpleString, cst.ConcatenatedString, cst.FormattedString)):
                right = operation.right
                values = [element.value for element in right.elements] if isinstance(right, cst.Tuple) else [right]
                if any(domain.kind(value, frame) in TENSORISH for value in values):
                    self._record(Break("text", operation, "`%`-formatting a tensor", eager=True))
            elif isinstance(operation.operator, cst.Add) and (self._formats_tensor(domain, operation.left, frame)
                                                              or self._formats_tensor(domain, operation.right, frame)):
                self._record(Break("text", operation, "`+` on a string formatted from a tensor", eager=True))
        tests = [expression.test for expression in reads.if_expressions]
        if isinstance(statement, (cst.If, cst.While)):
            tests.append(statement.test)
        elif isinstance(statement, (cst.Assign, cst.Return)) and statement.value is not None:
            tests.append(statement.value)
        for test in tests:
            if isinstance(test, cst.Comparison) and any(
                    self._formats_tensor(domain, side, frame)
                    for side in (test.left, *(target.comparator for target in test.comparisons))):
                self._record(Break("text", test, "a comparison of a string formatted from a tensor"))
        if isinstance(statement, cst.Assign):
            formatted = self._formats_tensor(domain, statement.value, frame)
            for target in statement.targets:
                if isinstance(target.target, cst.Name):
                    (self._texts.add if formatted else self._texts.discard)(target.target.value)

    def _refused(self, domain: DatadepDomain, reads: Reads, statement: cst.CSTNode, frame: Frame) -> None:
        """`t.requires_grad = ...` on a tensor (Dynamo: "setattr() on Tensor.requires_grad"), and `==`/`!=` of the
        `data_ptr()`s of two different tensor expressions ("Data pointer comparison": Dynamo decides it only when it
        proves both are the same storage, the same expression here)."""
        if isinstance(statement, cst.Assign):
            for target in statement.targets:
                node = target.target
                if (isinstance(node, cst.Attribute) and node.attr.value == "requires_grad"
                        and domain.kind(node.value, frame) in TENSORISH):
                    self._record(Break("refused", statement, "requires-grad-set"))
        if not reads.comprehensions and all(attribute.attr.value != "data_ptr" for attribute in reads.attributes):
            return  # (no `.data_ptr` the statement reads: no comparison below can be of two)
        tests = [expression.test for expression in reads.if_expressions]
        if isinstance(statement, (cst.If, cst.While)):
            tests.append(statement.test)
        elif isinstance(statement, (cst.Assign, cst.Return, cst.Expr)) and statement.value is not None:
            tests.append(statement.value)
        for test in tests:
            for comparison in _comparisons(test):
                sides = (comparison.left, *(target.comparator for target in comparison.comparisons))
                pointers = [side for side in sides if _data_ptr_of_tensor(domain, side, frame)]
                if len(pointers) == 2 and not pointers[0].deep_equals(pointers[1]) and all(
                        isinstance(target.operator, (cst.Equal, cst.NotEqual)) for target in comparison.comparisons):
                    self._record(Break("refused", comparison, "data-ptr"))

    def _call(self, domain: DatadepDomain, call: cst.Call, frame: Frame) -> None:
        func = call.func
        qualified = domain.imports.qualify(func) or ""
        args = [arg for arg in call.args if not arg.star]
        method = func.attr.value if isinstance(func, cst.Attribute) and not qualified else ""
        receiver = domain.kind(func.value, frame) if method else None
        if qualified in _CREATION and any(
                arg.keyword is not None and arg.keyword.value == "requires_grad" and isinstance(arg.value, cst.Name)
                and arg.value.value == "True" for arg in call.args):
            self._record(Break("refused", call, "requires-grad-creation"))
        elif qualified == "torch.is_inference_mode_enabled":
            self._record(Break("refused", call, "inference-mode"))
        elif method in ("random_", "is_inference") and receiver in TENSORISH:
            self._record(Break("refused", call, method))
        if qualified in _CONVERSIONS and args:
            if domain.kind(args[0].value, frame) in TENSORISH and not self.scalars:
                self._record(Break("scalar", call, f"`{_CONVERSIONS[qualified]}()` of a tensor"))
        elif method == "item" and not call.args:
            if not self.scalars and receiver not in ("shape", "ddshape", "device"):
                self._record(Break("scalar", call, "`.item()`"))
        elif method == "tolist" and not call.args:
            if not self.scalars and receiver in TENSORISH | {None}:
                self._record(Break("scalar", call, "`.tolist()`"))
        elif qualified in _NUMPY_DRAWS and _unsized(call, _NUMPY_DRAWS[qualified]):
            self._record(Break("scalar", call, f"`{qualified}(...)` without a size", "random", always=True))
        elif qualified in DATA_FUNCTIONS or (method in DATA_METHODS and receiver in TENSORISH):
            self._record(Break("scalar", call, f"`{qualified or '.' + method + '()'}`", always=True))
        elif qualified in _ITERATING_TESTS and len(args) == 1:
            iterated = args[0].value
            if domain.kind(iterated, frame) in TENSORISH:
                self._record(Break("branch", call, f"`{qualified[9:]}()` over a tensor (the truth value of each "
                                   "element)", "tensor"))
            elif isinstance(iterated, (cst.GeneratorExp, cst.ListComp)) and \
                    domain.element_kind(iterated, frame) in TENSORISH:
                # Dynamo's polyfill (torch/_dynamo/polyfills/builtins.py) takes `if not item` of each item.
                self._record(Break("branch", call, f"`{qualified[9:]}()` over tensors (the truth value of each "
                                   "one)", "tensor"))
        elif qualified == "torch.nn.functional.one_hot" and _classes_from_data(call):
            self._record(Break("shape", call, "`torch.nn.functional.one_hot` without `num_classes`", always=True))
        elif qualified == "torch._assert" and args:
            self._decision(domain, args[0].value, frame, "`torch._assert`", call)
        elif qualified == "builtins.range" and self.scalars | self.shapes:
            if any(domain.kind(arg.value, frame) == "data" for arg in args):
                self._record(Break("branch", call, "`range()`", "data"))
        elif not self.shapes:
            self._shape_call(domain, call, qualified, method, receiver, args, frame)

    def _shape_call(self, domain: DatadepDomain, call: cst.Call, qualified: str, method: str,
                    receiver: str | None, args: list[cst.Arg], frame: Frame) -> None:
        if qualified in DYNAMIC_SHAPE_FUNCTIONS:
            self._record(Break("shape", call, f"`{qualified}`"))
        elif qualified == "torch.where" and len(args) == 1:
            self._record(Break("shape", call, "one-argument `torch.where`"))
        elif qualified == "torch.repeat_interleave" and len(args) >= 2:
            if domain.kind(args[1].value, frame) in TENSORISH:
                self._record(Break("shape", call, "`torch.repeat_interleave` by a tensor of repeats"))
        elif method in DYNAMIC_SHAPE_METHODS and receiver in TENSORISH:
            self._record(Break("shape", call, f"`.{method}()`"))
        elif method == "repeat_interleave" and receiver in TENSORISH and args:
            if domain.kind(args[0].value, frame) in TENSORISH:
                self._record(Break("shape", call, "`.repeat_interleave()` by a tensor of repeats"))

    def _element_tests(self, domain: DatadepDomain, comprehension: cst.BaseExpression, frame: Frame) -> None:
        """A comprehension's `if` on an element of a tensor it iterates (`[t for t in x if t > 0]`, `[l for (l, d)
        in zip(layers, mask) if not d]`): iterating a tensor yields tensors, so the test is a decision on a tensor.
        Only one `for` clause, whose iterable is read in the enclosing scope; the names it binds from a tensor are
        the iterated tensor itself, or the tensors at their place in a `zip(...)` or `enumerate(...)`."""
        clause = comprehension.for_in
        if clause.inner_for_in is not None:
            return
        elements: set[str] = set()
        if domain.kind(clause.iter, frame) in TENSORISH and isinstance(clause.target, cst.Name):
            elements.add(clause.target.value)
        else:
            parts = domain.zipped(clause.iter, clause.target, frame) or []
            for element, kind in zip(getattr(clause.target, "elements", ()), parts):
                if isinstance(element.value, cst.Name) and kind in TENSORISH:
                    elements.add(element.value.value)
        for condition in clause.ifs:
            if _tests_element(condition.test, elements):
                self._record(Break("branch", condition.test, "a comprehension's `if`", "tensor"))

    def _shape_calls_in(self, domain: DatadepDomain, comprehension: cst.BaseExpression, frame: Frame) -> None:
        """A comprehension's calls of torch functions whose output size depends on the data: Dynamo traces the
        comprehension's body like any other code, so the call breaks wherever it sits. Only the qualified functions,
        whose break does not depend on what the comprehension's own names hold."""
        calls: list[cst.Call] = []

        class Calls(cst.CSTVisitor):
            def visit_Lambda(self, node: cst.Lambda) -> bool:
                return False

            def visit_Call(self, node: cst.Call) -> None:
                calls.append(node)

        comprehension.visit(Calls())
        for call in calls:
            qualified = domain.imports.qualify(call.func) or ""
            args = [arg for arg in call.args if not arg.star]
            if qualified in DYNAMIC_SHAPE_FUNCTIONS:
                self._record(Break("shape", call, f"`{qualified}`"))
            elif qualified == "torch.where" and len(args) == 1 and not any(arg.keyword for arg in call.args):
                self._record(Break("shape", call, "one-argument `torch.where`"))

    def loop(self, domain: DatadepDomain, node: cst.For, iterable: str | None, frame: Frame) -> None:
        if self.shapes and iterable in ("ddtensor", "ddtensors"):
            self._record(Break("branch", node.iter, "a `for` loop over a tensor whose size depends on its data",
                               "data"))

    def asserted(self, domain: DatadepDomain, node: cst.Assert, frame: Frame) -> None:
        """`assert <tensor>` is traced as a runtime assertion (`torch._assert_async`, no break) only when the
        statement's bytecode is Python's plain assert: the jump on the test's truth followed by the raise, with no
        message or one constant (`_detect_and_normalize_assert_statement`, torch/_dynamo/symbolic_convert.py). A
        message Python computes (`.format(...)`, an f-string with fields, `%`, a name) or a negated test (`assert not
        t`: the jump tests falsity) leaves an ordinary jump on a tensor: "Data-dependent branching" at the assert.
        (`and`/`or` in the test are decisions of their own, read with the statement.)"""
        test = node.test
        negated = isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not)
        if not negated and _constant_message(node.msg):
            items = _unfoldable_sequence(domain, test, frame)
            if items is not None:
                self._record(Break("refused", node, f"assert-{items}"))
            return
        if isinstance(test, cst.BooleanOperation) or _reads_data_function(domain, test):
            return
        if domain.kind(test.expression if negated else test, frame) in TENSORISH:
            what = "`assert not`" if negated else "`assert` with a message Python computes"
            self._record(Break("branch", node, what, "tensor"))


# Annotations of a `*args` parameter whose items Dynamo holds as Python constants (the tuple is then one too).
_CONSTANT_ITEMS = frozenset({"int", "float", "str", "bool", "bytes", "None", "complex", "torch.Size", "torch.dtype",
                             "torch.device"})


def _unfoldable_sequence(domain: DatadepDomain, test: cst.BaseExpression, frame: Frame) -> str | None:
    """The test of a plain `assert` that is a sequence Dynamo can neither fold to a constant nor trace as a tensor.
    Dynamo rewrites such an assert into `torch._assert_async(torch.scalar_tensor(test))`
    (`generic_jump`, torch/_dynamo/symbolic_convert.py): a sequence of tensors fails the fake tensor call ("TypeError
    when making fake tensor call"), one of other objects has no proxy ("Failed to convert args/kwargs to proxy").
    Read here: a sequence of tensors (`List[Tensor]`, `split`, a comprehension of tensors), and the function's own
    `*args` tuple annotated with a class that is not a constant's (`*transforms: Transform`).
    Returns "tensors" or "objects" (what the sequence holds), or None."""
    if domain.kind(test, frame) in ("tensors", "ddtensors"):
        return "tensors"
    star = domain.function.params.star_arg
    if not (isinstance(test, cst.Name) and isinstance(star, cst.Param) and star.name.value == test.value):
        return None
    annotation = star.annotation.annotation if star.annotation is not None else None
    if not isinstance(annotation, (cst.Name, cst.Attribute)):  # none, or a string or a subscript: not read
        return None
    qualified = domain.imports.qualify(annotation) or (annotation.value if isinstance(annotation, cst.Name) else "")
    if not qualified or qualified in _CONSTANT_ITEMS or qualified.rpartition(".")[2] in _CONSTANT_ITEMS:
        return None
    return "tensors" if qualified in ("torch.Tensor", "Tensor") else "objects"


def _constant_message(message: cst.BaseExpression | None) -> bool:
    """No message, or one Python compiles to a single constant: a string (implicit concatenation included) or an
    f-string without fields."""
    if message is None or isinstance(message, cst.SimpleString):
        return True
    if isinstance(message, cst.ConcatenatedString):
        return _constant_message(message.left) and _constant_message(message.right)
    if isinstance(message, cst.FormattedString):
        return not any(isinstance(part, cst.FormattedStringExpression) for part in message.parts)
    return False


def _slice_bound_parameters(function: cst.FunctionDef) -> set[str]:
    """The unannotated parameters of `function` that bound one of its slices, alone or in arithmetic of them and of
    attributes of its instance (`x[..., self.pad : self.pad + length]`: the module's own sizes)."""
    params = function.params
    names = {param.name.value for param in (*params.posonly_params, *params.params, *params.kwonly_params)
             if param.annotation is None}
    found: set[str] = set()
    self_name = first_param_name(function)

    class Slices(OneScope):
        scope = function

        def visit_Slice(self, part: cst.Slice) -> None:
            for bound in (part.lower, part.upper, part.step):
                read = _names_in(bound, self_name) if bound is not None else set()
                if read and read <= names:
                    found.update(read)

    walk(function, Slices())
    return found


def _names_in(node: cst.BaseExpression, self_name: str | None = None) -> set[str]:
    """The names `node` reads, but for the instance `self_name` in its attributes (`self.pad`)."""
    read: set[str] = set()

    class Names(cst.CSTVisitor):
        def visit_Attribute(self, attribute: cst.Attribute) -> bool:
            return not (self_name is not None and isinstance(attribute.value, cst.Name)
                        and attribute.value.value == self_name)

        def visit_Name(self, name: cst.Name) -> None:
            read.add(name.value)

    node.visit(Names())
    return read


def _reads_data_function(domain: DatadepDomain, test: cst.BaseExpression) -> bool:
    """The test calls `torch.equal`, `torch.allclose` or `Tensor.is_nonzero` (or their methods)."""
    found = []

    class Calls(cst.CSTVisitor):
        def visit_Call(self, node: cst.Call) -> None:
            func = node.func
            if (domain.imports.qualify(func) or "") in DATA_FUNCTIONS or (
                    isinstance(func, cst.Attribute) and func.attr.value in DATA_METHODS):
                found.append(node)

    test.visit(Calls())
    return bool(found)


def _comparisons(node: cst.BaseExpression) -> list[cst.Comparison]:
    found: list[cst.Comparison] = []

    class Collect(cst.CSTVisitor):
        def visit_Lambda(self, lambda_: cst.Lambda) -> bool:
            return False

        def visit_Comparison(self, comparison: cst.Comparison) -> None:
            found.append(comparison)

    node.visit(Collect())
    return found


def _data_ptr_of_tensor(domain: DatadepDomain, node: cst.BaseExpression, frame: Frame) -> bool:
    return (isinstance(node, cst.Call) and not node.args and isinstance(node.func, cst.Attribute)
            and node.func.attr.value == "data_ptr" and domain.kind(node.func.value, frame) in TENSORISH)


def _classes_from_data(call: cst.Call) -> bool:
    """`F.one_hot(t)` or `F.one_hot(t, -1)`: the number of classes is the data's maximum. Dynamo refuses exactly these
    argument lists (`handle_one_hot`, torch/_dynamo/variables/torch.py), in every mode."""
    if any(arg.star for arg in call.args):
        return False
    if len(call.args) == 1:
        return True
    second = call.args[1] if len(call.args) == 2 else None
    return (second is not None and second.keyword is None and isinstance(second.value, cst.UnaryOperation)
            and isinstance(second.value.operator, cst.Minus) and isinstance(second.value.expression, cst.Integer)
            and second.value.expression.value == "1")


def _tests_element(test: cst.BaseExpression, elements: set[str]) -> bool:
    """The test takes the truth value of one of `elements` (tensors): the name itself, `not` it, or an ordering or
    equality comparison of it (`is`, `is not`, `in`, `not in` are Python's and do not read the data)."""
    if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
        return _tests_element(test.expression, elements)
    if isinstance(test, cst.Name):
        return test.value in elements
    if isinstance(test, cst.Comparison):
        if any(isinstance(target.operator, (cst.Is, cst.IsNot, cst.In, cst.NotIn)) for target in test.comparisons):
            return False
        sides = (test.left, *(target.comparator for target in test.comparisons))
        return any(isinstance(side, cst.Name) and side.value in elements for side in sides)
    return False


def _operator(node: cst.BooleanOperation) -> str:
    return "and" if isinstance(node.operator, cst.And) else "or"


def _unsized(call: cst.Call, position: int | None) -> bool:
    """A NumPy random draw given no `size` (by keyword, or at its position; any positional argument sizes `rand`)."""
    if any(arg.star or (arg.keyword is not None and arg.keyword.value == "size") for arg in call.args):
        return False
    positional = [arg for arg in call.args if arg.keyword is None]
    return not positional if position is None else len(positional) <= position
