"""The kinds of calls in the data-dependence fact (`jitlint.facts.datadep`): what a torch function, a tensor method,
a Python builtin, a project function (the kind its body returns: `follow_returns`) or a submodule gives. A mixin of
`DatadepDomain`, which supplies `kind`, `policy`, `ctx`, `imports`, `entry` and `self_name`."""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from jitlint.facts import FactStore, RunFact, run_fact
from jitlint.facts.datadep_policy import TENSORISH
from jitlint.facts.datadep_tables import (
    BOOL_DTYPES, DD_METHODS, DTYPE_KEEPING, DTYPE_KEYWORD_METHODS, DTYPE_METHODS, DTYPE_POSITIONAL_METHODS,
    EINOPS_LAYERS, EINOPS_TENSOR, INDEX_SHAPED_METHODS, MASK_METHODS, NOT_TENSOR_LAYERS, PAD_SEQUENCE, RANK_METHODS,
    SEQUENCE_METHODS, SHAPE_KEEPING, STATIC_METHODS, TENSOR_NAMESPACES, TENSOR_ONLY_METHODS, TORCH_DATA, TORCH_DD,
    TORCH_INDEX_SHAPED, TORCH_MASK, TORCH_NOT_TENSOR, TORCH_SEQUENCE, TORCH_SHAPE_KEEPING,
)
from jitlint.facts.datadep_tuples import flat, is_tuple
from jitlint.facts.flow import FlowWalker, Frame
from jitlint.facts.signature import passed_to

if TYPE_CHECKING:
    from jitlint.rules.base import RuleContext


def torch_tensor_call(qualified: str | None) -> bool:
    """A torch function (by qualified name) that returns one tensor: `torch.ones`, `torch.nn.functional.relu`."""
    if not qualified:
        return False
    if qualified.startswith(TENSOR_NAMESPACES):
        return True
    if not qualified.startswith("torch.") or qualified.count(".") != 1:
        return False
    name = qualified[len("torch."):]
    return not (name in TORCH_NOT_TENSOR or name.startswith(("is_", "get_", "set_", "are_", "use_", "_"))
                or qualified in TORCH_SEQUENCE or qualified in TORCH_DATA)


def made_by_torch(infos) -> bool:
    """Every assignment of a module attribute (its `AttributeInfo`s) makes it with a torch function returning a
    tensor (`self.flags = torch.ones(n, dtype=torch.bool)`)."""
    return all(info.kinds and all(torch_tensor_call(getattr(kind, "qualified", None)) for kind in info.kinds)
               for info in infos)


class MethodNames(RunFact):
    """The method names of every class of the project (a value whose method is one of them may be such an object)."""

    @classmethod
    def compute(cls, project, owner) -> frozenset[str]:
        return frozenset(m for module in list(project.modules.values()) for klass in module.classes.values()
                         for m in klass.methods)


class CallKinds:
    """How `DatadepDomain` gives the kind of a call."""

    def _call(self, node: cst.Call, frame: Frame) -> str | None:
        func = node.func
        if self.policy.follow_returns:
            returned = self._project_call(node, frame)
            if returned is not None:
                return returned
        qualified = self.imports.qualify(func)
        if isinstance(func, cst.Attribute) and qualified is None:  # a method of a value (not of an imported module)
            receiver = self.kind(func.value, frame)
            return self._method(func.attr.value, receiver, node, frame)
        qualified = qualified or ""
        if self.policy.follow_returns and qualified.startswith("einops."):
            return self._einops(qualified)
        if qualified.startswith("numpy."):
            return "ndarray"
        if qualified.startswith("math."):
            return self.policy.conversion("math", self._first_argument(node, frame))
        if qualified.startswith("builtins."):
            return self._builtin(qualified[len("builtins."):], node, frame)
        if qualified == "torch.jit.annotate" and len(node.args) == 2:
            return self.kind(node.args[1].value, frame)
        if qualified in ("torch.tensor", "torch.as_tensor", "torch.scalar_tensor"):
            # A tensor of one Python number is a constant to fake tensors (its value propagates through ops):
            # `float(torch.tensor(s).log2())` exports (torchvision's `_infer_scale`). A list of them is not.
            first = node.args[0].value if node.args else None
            if isinstance(first, (cst.List, cst.Tuple)) or self.kind(first, frame) in TENSORISH | {"shape", "size"}:
                return "tensor"  # several numbers (`torch.tensor(x.shape[-2:])`): values unknown to fake tensors
            return "const" if self.policy.constant_tensors else "tensor"
        if qualified in TORCH_DATA:
            return "data"
        if qualified in TORCH_DD:
            return "ddtensor"
        if qualified in TORCH_SEQUENCE:
            return "tensors"
        if qualified in TORCH_MASK:
            return "mask"
        if qualified.startswith("torch.") and self._bool_dtype(node, positional=False):
            return "mask"  # `torch.eye(n, dtype=torch.bool)`: indexing with it calls `nonzero`, as with a comparison
        if qualified in TORCH_SHAPE_KEEPING and self._first_argument(node, frame) == "ddtensor":
            return "ddtensor"
        if qualified in TORCH_INDEX_SHAPED and self._argument(node, *TORCH_INDEX_SHAPED[qualified], frame) == "ddtensor":
            return "ddtensor"
        if qualified in PAD_SEQUENCE and self._first_argument(node, frame) == "ddtensors":
            return "ddtensor"
        arguments = {self.kind(arg.value, frame) for arg in node.args}
        if "const" in arguments and not arguments & TENSORISH and qualified.startswith(("torch.", "torchvision.")):
            return "const"  # torch ops on a constant one-number tensor stay constant (fake tensors propagate it)
        if qualified.startswith(TENSOR_NAMESPACES):
            return "tensor"
        if qualified.startswith("torch.") and qualified.count(".") == 1:
            name = qualified[len("torch."):]
            if name in TORCH_NOT_TENSOR or name.startswith(("is_", "get_", "set_", "are_", "use_", "_")):
                return None
            if name == "where" and len(node.args) == 1:
                return "ddtensors"  # `torch.where(cond)`: the indices where cond holds, one tensor per dimension
            return "tensor"
        return None

    def _project_call(self, node: cst.Call, frame: Frame) -> str | None:
        """The kind a call of a project function or a submodule returns (`follow_returns`), None if unknown. Under
        a policy that follows calls, the callee's parameters hold what this call passes (a traced value passed
        to a helper is traced there, and so is what it computes from it and returns: `divisible_by(h, p)`)."""
        callee = self.ctx.captured.callee_of(node)
        if callee is not None:
            passed = self._passed(callee[0].node, node, callee[1], frame) if self.policy.follow_calls else {}
            return returned_kind(self.ctx, callee[0], type(self), passed)
        func = node.func
        if (isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and self.self_name is not None
                and func.value.value == self.self_name and self.entry is not None and self.entry.owners):
            constructors = set()
            for owner in self.entry.owners:
                info = self.ctx.project.attributes(owner).get(func.attr.value)
                if info is None or not info.constructors:
                    return None
                constructors |= info.constructors
            if all(name in EINOPS_LAYERS or (name.startswith("torch.nn.") and name.count(".") in (2, 4)
                                              and name.rsplit(".", 1)[-1] not in NOT_TENSOR_LAYERS)
                   for name in constructors):
                return "tensor"  # `self.norm(x)`: a torch.nn (or einops) layer's output
        return None

    def _einops(self, qualified: str):
        """What an einops function gives on torch tensors (`follow_returns`)."""
        if qualified in EINOPS_TENSOR:
            return "tensor"
        if qualified == "einops.unpack":
            return "tensors"
        if qualified == "einops.pack" and self.policy.tuple_kinds:
            return ("tensor", None)  # the packed tensor, and the shapes it packed
        return None

    def _passed(self, function: cst.FunctionDef, call: cst.Call, bound: bool, frame: Frame) -> dict:
        """The known kinds `call` passes to the parameters of `function`, by name (`passed_to`: its first one
        skipped when the call binds it; no positional argument after a starred one, whose place is unknown)."""
        passed: dict = {}
        for name, index in passed_to(function, call, bound).items():
            kind = self.kind(call.args[index].value, frame)
            if kind is not None:
                passed[name] = kind
        return passed

    def _argument(self, node: cst.Call, keyword: str, position: int, frame: Frame) -> str | None:
        """The kind of the argument passed as `keyword` or at `position` (None when starred arguments hide it)."""
        if any(arg.star for arg in node.args):
            return None
        for arg in node.args:
            if arg.keyword is not None and arg.keyword.value == keyword:
                return self.kind(arg.value, frame)
        positional = [arg for arg in node.args if arg.keyword is None]
        return self.kind(positional[position].value, frame) if position < len(positional) else None

    def _bool_dtype(self, node: cst.Call, positional: bool) -> bool:
        """The call passes the boolean dtype as `dtype=`, or (`positional`) as a positional argument."""
        return any(self.imports.qualify(arg.value) in BOOL_DTYPES for arg in node.args
                   if (arg.keyword is not None and arg.keyword.value == "dtype")
                   or (positional and arg.keyword is None and not arg.star))

    def _first_argument(self, node: cst.Call, frame: Frame) -> str | None:
        args = [arg for arg in node.args if not arg.star]
        return self.kind(args[0].value, frame) if args else None

    def _method(self, name: str, receiver: str | None, node: cst.Call, frame: Frame) -> str | None:
        if receiver in ("const", "ndarray"):
            return None if name in ("item", "tolist") else receiver
        if name == "item":
            return self.policy.scalar("item")  # a Python scalar read from a tensor (or a NumPy value)
        if receiver is None and name in TENSOR_ONLY_METHODS and not self._project_object(node):
            receiver = "tensor"
        if (receiver is None and name == "size" and self.policy.shape_of_unknown
                and not self._project_object(node)):
            receiver = "tensor"  # `.size(i)` of what a submodule of unknown class returns, as its `.shape`
        if receiver not in TENSORISH:
            return None
        if ((name in DTYPE_POSITIONAL_METHODS and self._bool_dtype(node, positional=True))
                or (name in DTYPE_KEYWORD_METHODS and self._bool_dtype(node, positional=False))):
            return "mask"
        if receiver == "mask" and name in DTYPE_KEEPING:
            return "mask"
        if name == "tolist":
            return self.policy.scalar("tolist")
        if name == "size":
            if node.args:
                return self.policy.size(receiver)
            return "ddshape" if receiver == "ddtensor" else "shape"
        if name in ("numel", "nelement"):
            return self.policy.size(receiver)
        if name == "numpy":
            return "ndarray"
        if name in RANK_METHODS:
            return self.policy.rank()
        if name in DTYPE_METHODS:
            return self.policy.dtype()
        if name in STATIC_METHODS:
            return None
        if name in ("equal", "allclose", "is_nonzero"):
            return "data"
        if name in MASK_METHODS:
            return "mask"
        if name in DD_METHODS:
            return "ddtensor"
        if name in SEQUENCE_METHODS:
            return "tensors"
        if name in SHAPE_KEEPING and receiver == "ddtensor":
            return "ddtensor"
        if name in INDEX_SHAPED_METHODS and self._argument(node, *INDEX_SHAPED_METHODS[name], frame) == "ddtensor":
            return "ddtensor"
        return "tensor"

    def _project_object(self, node: cst.Call) -> bool:
        """`obj.method()` where the project defines a class with such a method: not assumed to be a tensor."""
        name = node.func.attr.value if isinstance(node.func, cst.Attribute) else ""
        return name in run_fact(self.ctx.project, MethodNames, self.ctx.project)

    def _builtin(self, name: str, node: cst.Call, frame: Frame) -> str | None:
        args = [self.kind(arg.value, frame) for arg in node.args if not arg.star]
        if name in ("int", "float", "bool", "complex"):
            return self.policy.conversion(name, args[0] if args else None)
        if name == "len":
            if args and args[0] in ("shape", "ddshape"):
                return self.policy.rank()
            return self.policy.length(args[0] if args else None)
        if name in ("list", "tuple") and args and (args[0] in ("shape", "ddshape") or is_tuple(args[0])):
            return args[0]  # the sizes, in a list
        if name in ("min", "max", "sum") and args == ["sizes"]:
            return "size"  # of a sequence of recorded sizes: one of them, or their recorded sum
        if name in ("min", "max", "abs", "round", "sum", "divmod", "pow"):
            args = flat(args)
            if "data" in args:
                return "data"
            if "size" in args and name in ("min", "max", "abs"):
                return "size"  # the operand picked is still the recorded size
            if name in ("min", "max") and len(args) > 1 and TENSORISH & set(args):
                return self.policy.extremum(args)
            return None
        return None


def returned_kind(ctx: "RuleContext", callee, domain_class: type, passed: dict | None = None) -> str | None:
    """The kind a project function returns under `ctx`'s capture policy (`follow_returns`): the policy's join of
    what its `return`s give (under the base join, one kind when every `return` gives it) when the end of the body
    is not reached, analysed once per run for each set of kinds a call passes (`passed`, by parameter name: the
    policy's `parameter` decides with the annotation), its other parameters as their annotations say. A function
    whose analysis is under way (recursion) returns nothing known."""
    cache = ctx.project.derived.setdefault(returned_kind, {})
    passed = passed or {}
    key = (ctx.policy, id(callee.node), tuple(sorted(passed.items())))
    found = cache.get(key)
    if found is not None and found[0] is callee.node:
        return found[1]
    cache[key] = (callee.node, None)  # while it is analysed: unknown
    other = type(ctx)(callee.module, ctx.project, ctx.captured, policy=ctx.policy, facts=FactStore(),
                      settings=ctx.settings)
    other.targets = ctx.targets
    entry = ctx.captured.get(callee.node)
    policy = ctx.captured.policy.datadep()
    domain = domain_class(callee.node, other, entry, policy, passed)
    domain.quiet = True
    kind = None
    try:
        falls_through = FlowWalker(domain, entry.pruned if entry is not None else ()).run(callee.node)
    except RecursionError:
        falls_through = True
    if domain.returns and not falls_through:
        kind = domain.returns[0]
        for other_kind in domain.returns[1:]:  # as paths that merge (a traced size on some of them: the policy's join)
            kind = policy.join(kind, other_kind)
    cache[key] = (callee.node, kind)
    return kind
