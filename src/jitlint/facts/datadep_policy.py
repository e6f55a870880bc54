"""The policy half of the data-dependence fact (`jitlint.facts.datadep`): the kinds every policy speaks of, and
`DatadepPolicy`, the base each target subclasses to say what its capture makes of values and what it records."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

import libcst as cst

if TYPE_CHECKING:
    from jitlint.facts.datadep import DatadepDomain
    from jitlint.facts.flow import Frame, Reads

TENSORISH = frozenset({"tensor", "mask", "ddtensor"})
# What Python cannot use as a bool while export traces: the truth value of a tensor, or of a value read from its data.
DEPENDENT = TENSORISH | {"data"}
# Values a capture records as part of the program (a policy that has sizes adds "size").
RECORDED = TENSORISH | {"size"}


class DatadepPolicy:
    """What one capture makes of values: how it sees sizes, ranks and dtypes, and what it records as events.

    The base is torch.export's view of sizes (symbols: a size is unknown only when the tensor's shape depends on its
    data) and records nothing; a target subclasses it in its own package and names the subclass on its capture policy
    (`datadep = ExportDatadep`). An instance serves one analysis of one function: it may keep state (its events)."""

    # Helper parameters take the kinds their captured callers pass, in any file (a traced value stays traced there):
    # the target's capture policy then says `needs_one_process`, so that every caller is in the run's process.
    follow_calls: ClassVar[bool] = False
    # With `follow_calls`, a submodule's `forward` also takes what its captured callers pass (`self.head(y)`): its
    # unannotated parameters are tensors, and a caller's data-dependent tensor or mask stays one there. False: a
    # `forward` sees plain tensors whatever its callers pass.
    follow_calls_into_forward: ClassVar[bool] = False
    # A call to a project function (or to a submodule) has the kind its body returns: the join of its `return`
    # values, analysed with its parameters as annotated (a `forward`'s unannotated ones are tensors), and a call of
    # a torch.nn layer held in `self.<name>` is a tensor.
    follow_returns: ClassVar[bool] = False
    # `Tensor | None` (PEP 604) is read as `Optional[Tensor]`. Off for export until its findings with it are
    # checked against torch.export.
    union_annotations: ClassVar[bool] = False
    # A tensor of one Python number (`torch.tensor(2.0)`) and torch ops on it are "const": the capture knows their
    # values (fake tensors propagate them). False: they are tensors like any other.
    constant_tensors: ClassVar[bool] = True
    # A module attribute that every assignment makes with a torch function returning a tensor (`self.flags =
    # torch.ones(n, dtype=torch.bool)`, not registered as a buffer) is a tensor of the capture's input: Dynamo lifts
    # such an attribute into the graph as a tensor whose values it does not know. False: such an attribute is unknown.
    plain_tensor_attributes: ClassVar[bool] = False
    # A tuple display has the kinds of its elements (`jitlint.facts.datadep_tuples`): sizes carried, passed,
    # returned and unpacked in tuples keep what they are. False: a tuple display is unknown.
    tuple_kinds: ClassVar[bool] = False
    # `.shape` and `.size()` of a value of unknown kind (what a submodule of unknown class returns) are a tensor's:
    # what else has a `.shape` in model code is a NumPy array, whose kind is known where it is made (`.numpy()`,
    # `np.*`), and has no `.size()` method (a project class that defines one keeps its objects' calls unknown).
    shape_of_unknown: ClassVar[bool] = False
    # A list comprehension or generator expression whose element is a recorded size is a sequence of them ("sizes":
    # `[b.size(0) for b in boxes]`, `(s < m for s in x.shape[-2:])`), one of tensors is "tensors"; its items, when
    # iterated, indexed or unpacked, are what its element is. False: a comprehension is unknown.
    comprehension_kinds: ClassVar[bool] = False
    # A `for` body is walked again with what the first walk carries round (`carried`): a capture that unrolls loops
    # sees, from the second iteration on, what the body left (`x = x[mask]`). False: one walk.
    carries_round_loops: ClassVar[bool] = False
    # An unannotated function's `# type: (Tensor, int) -> Tensor` signature comment types its parameters as
    # annotations would (torchvision writes TorchScript's signatures so). False: such parameters are unannotated.
    type_comments: ClassVar[bool] = False

    def __init__(self) -> None:
        self.events: list = []

    # -- kinds ----------------------------------------------------------------------------------------------------
    def decided(self, test: cst.BaseExpression, domain: "DatadepDomain") -> bool | None:
        """The value an `if`/`while` test of the function `domain` analyses has while the tool
        captures it, when the tool decides it then (only that branch is captured), else None."""
        return None

    def size(self, receiver: str) -> str | None:
        """`t.size(i)`, `t.shape[i]`, `t.numel()` (and the items of `t.shape`) of a tensor of kind `receiver`."""
        return "data" if receiver == "ddtensor" else None

    def rank(self) -> str | None:
        """`t.dim()`, `t.ndim`, `len(t.shape)`."""
        return None

    def dtype(self) -> str | None:
        """`t.dtype`, `t.is_floating_point()`..."""
        return None

    def arithmetic(self, left: str | None, right: str | None) -> str | None:
        """`left <op> right` when the policy decides it (None: the shared rules: data wins, then tensors)."""
        return None

    def compared(self, kinds: set) -> str | None:
        """A comparison of values of these kinds (none of them a tensor) when the policy decides it (None: the
        shared rules: data, else unknown)."""
        return None

    def loop_item(self, iterable: str | None) -> str | None:
        """What a `for` loop over a value of kind `iterable` binds to its target."""
        return {"datalist": "data", "tensor": "tensor", "tensors": "tensor", "ddtensor": "ddtensor",
                "ddtensors": "ddtensor", "sizes": "size", "mask": "mask"}.get(iterable or "")

    def model_input(self, function: cst.FunctionDef, name: str) -> str | None:
        """An unannotated parameter of a `forward` with no default, whose callers are not known: an input of the
        captured model (the base: a tensor)."""
        return "tensor"

    def extremum(self, kinds: list) -> str | None:
        """`min(...)`/`max(...)` of values of these kinds, one of them a tensor (the base: unknown)."""
        return None

    def length(self, value: str | None) -> str | None:
        """`len(value)`."""
        return "data" if value == "ddtensor" else None

    def scalar(self, method: str) -> str | None:
        """`t.item()` ("item") and `t.tolist()` ("tolist") of a tensor: what the capture has for their value."""
        return "datalist" if method == "tolist" else "data"

    def conversion(self, name: str, value: str | None) -> str | None:
        """`int(value)`, `float(value)`, `bool(value)`, `complex(value)`, and `math.<name>(value)` (name "math")."""
        if name == "math":
            return None
        return "data" if value in DEPENDENT else None

    def passed(self, kinds: frozenset) -> str | None:
        """The kind of a helper's parameter, from the known kinds its callers pass (the base: the kind every one of
        them passes)."""
        return next(iter(kinds)) if len(kinds) == 1 else None

    def parameter(self, annotated: str | None, passed: str) -> str | None:
        """The kind of a helper's parameter whose annotation gives `annotated` (None: no kind) and whose callers pass
        `passed` (the base: the annotation's kind when it has one)."""
        return passed if annotated is None else annotated

    def join(self, first, second):
        """The kind of a value where paths that give it these kinds merge (the base: the kind of every path)."""
        return first if first == second else None

    def carried(self, before, after):
        """The kind of a name at the top of a loop's body, from its kind before the loop and at the end of the body
        (the base: `join`)."""
        return self.join(before, after)

    # -- events ---------------------------------------------------------------------------------------------------
    def read(self, domain: "DatadepDomain", reads: Reads, statement: cst.CSTNode, frame: Frame) -> None:
        """The expressions a statement evaluates (see `FlowDomain.read`)."""

    def asserted(self, domain: "DatadepDomain", node: cst.Assert, frame: Frame) -> None:
        """An `assert` (its test has been read)."""

    def returned(self, domain: "DatadepDomain", node: cst.Return, frame: Frame) -> None:
        """A `return` (its value has been read)."""

    def loop(self, domain: "DatadepDomain", node: cst.For, iterable: str | None, frame: Frame) -> None:
        """A `for` loop over a value of kind `iterable`."""
