"""Data dependence: which values of a traced function are computed from tensor *data*, as opposed to shapes.

torch.export runs the model on fake tensors. Shapes are symbols it can reason about (a branch on `x.shape[0]`
specialises or guards); values read from tensor data (`.item()`, `.tolist()`, a reduction used as a bool,
`int(tensor)`) are unknown at trace time: export stops when Python needs them as a bool or a concrete int
(verified on torch 2.13). This module is the export target's value domain for the shared flow walker
(`jitlint.facts.flow`); it records events that the rules of `jitlint.targets.export.rules` report.

The kinds of value (strings, None when nothing is known):

- "tensor": a Tensor (a parameter annotated `Tensor` or, TorchScript-style, an unannotated `forward` parameter; a
  torch function's result; a tensor method's result; arithmetic with a tensor);
- "mask": a boolean tensor made by a comparison (`x > 0`): indexing with it gives a data-dependent shape;
- "ddtensor": a tensor whose *shape* depends on data (`x[mask]`, `nonzero`, `unique`, `nms`): its sizes are data;
- "tensors": a sequence of tensors (`split`, `chunk`, `unbind`, `List[Tensor]`): its items are tensors, its
  truth value and length are not data; "ddtensors": the same of data-dependent size (`torch.where(cond)`);
- "data": a Python number or bool computed from tensor data (`.item()`, a size of a "ddtensor", arithmetic on
  data);
- "datalist": `.tolist()` (its items are data);
- "shape": `x.shape` / `x.size()` of a tensor (symbolic: fine); "ddshape": the same of a "ddtensor" (its items
  are data);
- "device": `x.device`, `x.is_cuda` (specialised by export: the device rule reads it);
- "ndarray": a NumPy array (`x.numpy()`, `np.*(...)`): its methods are not tensor methods;
- "const": a tensor of one Python number (`torch.tensor(2.0)`) and torch ops on it: fake tensors keep its value,
  so `.item()` and `float()` of it are fine (torchvision's `_infer_scale` and `MultiScaleRoIAlign` rely on it).

Joins of different kinds give None (unknown): a finding needs the kind on every path, so that code export accepts
is not flagged on a guess.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import libcst as cst

from jitlint.facts.torch_api import PARAMETER_CLASSES, SEQUENCE_ANNOTATIONS, TENSOR_CLASSES
from jitlint.facts.flow import FlowDomain, FlowWalker, Frame, Reads
from jitlint.names import first_param_name

if TYPE_CHECKING:
    from jitlint.rules.base import RuleContext

TENSORISH = frozenset({"tensor", "mask", "ddtensor"})
# What Python cannot use as a bool under export: the truth value of a tensor, or of a value read from its data.
DEPENDENT = TENSORISH | {"data"}

# Tensor methods that give Python values known at trace time (static or symbolic): not tensors, not data.
_STATIC_METHODS = frozenset({
    "dim", "ndimension", "element_size", "is_contiguous", "is_floating_point", "is_complex", "get_device",
    "stride", "storage_offset", "data_ptr", "type", "register_hook", "backward", "retain_grad", "requires_grad_",
    "is_shared", "is_pinned", "untyped_storage", "storage", "has_names", "is_same_size", "is_set_to", "dim_order",
    "is_sparse", "is_signed", "__len__", "apply_", "map_", "share_memory_", "numel", "nelement",
})
_MASK_METHODS = frozenset({
    "eq", "ne", "gt", "lt", "ge", "le", "logical_and", "logical_or", "logical_not", "logical_xor", "isnan", "isinf",
    "isfinite", "isposinf", "isneginf", "any", "all", "bool", "isclose",
})
_DD_METHODS = frozenset({"nonzero", "unique", "unique_consecutive", "masked_select", "argwhere"})
_SEQUENCE_METHODS = frozenset({"split", "chunk", "unbind", "tensor_split", "split_with_sizes", "hsplit", "vsplit"})
# Methods that keep the receiver's shape (a data-dependent shape stays one).
_SHAPE_KEEPING = frozenset({
    "cpu", "cuda", "to", "float", "double", "half", "bfloat16", "long", "int", "short", "byte", "char", "detach",
    "clone", "contiguous", "abs", "neg", "sigmoid", "relu", "exp", "log", "sqrt", "clamp", "clamp_min",
    "clamp_max", "round", "floor", "ceil", "type_as", "mul", "add", "sub", "div", "pow",
})

# Tensor methods no Python builtin type has (lists, dicts, strings and numbers have `count`, `index`, `split`,
# `sort`, `copy`, `real`...): called on a value of unknown kind (a submodule's output), the value is a tensor.
_TENSOR_ONLY_METHODS = frozenset({
    "sigmoid", "softmax", "log_softmax", "relu", "tanh", "exp", "log", "sqrt", "rsqrt", "abs", "sum", "mean",
    "amax", "amin", "argmax", "argmin", "any", "all", "norm", "std", "var", "prod", "cumsum", "matmul", "mm", "bmm",
    "view", "reshape", "flatten", "unsqueeze", "squeeze", "permute", "transpose", "contiguous", "float", "long",
    "half", "double", "bool", "cpu", "cuda", "detach", "clone", "masked_fill", "clamp", "clamp_min", "clamp_max",
    "topk", "gather", "scatter", "index_select", "nonzero", "unique", "numel", "dim", "tolist", "new_zeros",
    "new_ones", "new_full", "new_empty", "new_tensor", "expand", "expand_as", "repeat", "chunk", "unbind", "eq",
    "ne", "gt", "lt", "ge", "le", "type_as", "floor", "ceil", "flip", "roll", "narrow", "masked_select", "isnan",
    "isinf", "isfinite", "logical_and", "logical_or", "logical_not", "sigmoid_", "softmax", "max", "min", "argsort",
})
_TORCH_DATA = frozenset({"torch.equal", "torch.allclose", "torch.is_nonzero"})
_TORCH_DD = frozenset({
    "torch.nonzero", "torch.unique", "torch.unique_consecutive", "torch.masked_select", "torch.argwhere",
    "torchvision.ops.nms", "torchvision.ops.batched_nms", "torchvision.ops.boxes.nms",
    "torchvision.ops.boxes.batched_nms", "torchvision.ops.remove_small_boxes", "torchvision.ops.boxes.remove_small_boxes",
})
_TORCH_SEQUENCE = frozenset({
    "torch.split", "torch.chunk", "torch.unbind", "torch.tensor_split", "torch.meshgrid", "torch.broadcast_tensors",
})
_TORCH_MASK = frozenset(f"torch.{name}" for name in _MASK_METHODS)
# torch functions that return something other than a tensor.
_TORCH_NOT_TENSOR = frozenset({
    "Size", "device", "dtype", "no_grad", "enable_grad", "inference_mode", "set_grad_enabled", "numel", "typename",
    "result_type", "promote_types", "can_cast", "finfo", "iinfo", "Generator", "manual_seed", "seed",
    "initial_seed", "autocast", "compile", "sym_int", "sym_float", "sym_max", "sym_min", "sym_not", "layout",
    "memory_format", "get_default_dtype", "Tensor", "export", "fx", "jit", "library", "ops", "cond", "vmap",
})
_TENSOR_NAMESPACES = ("torch.nn.functional.", "torch.linalg.", "torch.fft.", "torch.special.")
_OPTIONAL = frozenset({"typing.Optional"})


@dataclass(frozen=True)
class Event:
    """Something a rule reports: `kind` names the rule (see `jitlint.targets.export.rules.flow`)."""

    kind: str  # "branch", "assert", "python-number", "numpy", "data-attribute"
    node: cst.CSTNode
    message: str
    # The export modes that reject it (measured on torch 2.13): strict mode traces `int(tensor)` and `assert`
    # (as `_assert_async`), but not `range(<data>)`, `len(<data-sized tensor>)` nor `torch._assert`.
    modes: tuple[str, ...] = ("default", "strict")


def _join(first, second):
    return first if first == second else None


class DataDependence(FlowDomain):
    unknown = None

    def __init__(self, function: cst.FunctionDef, ctx: "RuleContext", is_forward: bool) -> None:
        self.function = function
        self.ctx = ctx
        self.imports = ctx.module.imports
        self.is_forward = is_forward
        self.self_name = first_param_name(function) if ctx.function and ctx.function.info.bound_first_param else None
        self.events: list[Event] = []
        self.frame: Frame | None = None
        self._reported: set[int] = set()

    # -- the value of an expression -----------------------------------------------------------------------------
    def kind(self, node: cst.BaseExpression | None, frame: Frame | None = None) -> str | None:
        frame = frame or self.frame
        if node is None or frame is None:
            return None
        if isinstance(node, cst.Name):
            return frame.values.get(node.value)
        if isinstance(node, cst.Attribute):
            return self._attribute(node, frame)
        if isinstance(node, cst.Subscript):
            return self._subscript(node, frame)
        if isinstance(node, cst.Call):
            return self._call(node, frame)
        if isinstance(node, cst.BinaryOperation):
            left, right = self.kind(node.left, frame), self.kind(node.right, frame)
            if isinstance(node.operator, cst.MatrixMultiply):
                return "tensor" if TENSORISH & {left, right} else None
            if "data" in (left, right):
                return "data"
            if "ndarray" in (left, right) and not TENSORISH & {left, right}:
                return "ndarray"
            if "const" in (left, right) and not TENSORISH & {left, right}:
                return "const"
            if "ddtensor" in (left, right):
                return "ddtensor"
            if TENSORISH & {left, right}:
                return "tensor"
            return None
        if isinstance(node, cst.Comparison):
            if any(isinstance(target.operator, (cst.Is, cst.IsNot, cst.In, cst.NotIn)) for target in node.comparisons):
                return None
            kinds = {self.kind(node.left, frame)} | {self.kind(target.comparator, frame) for target in node.comparisons}
            if TENSORISH & kinds:
                return "mask"
            if "data" in kinds or "ddshape" in kinds:
                return "data"
            return None
        if isinstance(node, cst.UnaryOperation):
            inner = self.kind(node.expression, frame)
            if isinstance(node.operator, cst.Not):
                return "data" if inner in DEPENDENT else None
            return inner if inner in DEPENDENT | {"ndarray", "const"} else None
        if isinstance(node, cst.BooleanOperation):
            kinds = {self.kind(node.left, frame), self.kind(node.right, frame)}
            return "data" if DEPENDENT & kinds else None
        if isinstance(node, cst.IfExp):
            return _join(self.kind(node.body, frame), self.kind(node.orelse, frame))
        if isinstance(node, cst.NamedExpr):
            return self.kind(node.value, frame)
        return None

    def _attribute(self, node: cst.Attribute, frame: Frame) -> str | None:
        attr = node.attr.value
        if isinstance(node.value, cst.Name) and node.value.value == self.self_name and self.self_name is not None:
            return self._self_attribute(attr)
        base = self.kind(node.value, frame)
        if base in TENSORISH:
            if attr == "shape":
                return "ddshape" if base == "ddtensor" else "shape"
            if attr in ("T", "mT", "H", "mH", "data", "real", "imag"):
                return "tensor" if base == "mask" else base
            if attr in ("device", "is_cuda", "is_cpu", "is_mps"):
                return "device"
            return None
        if base == "device" and attr in ("type", "index"):
            return "device"
        return None

    def _self_attribute(self, name: str) -> str | None:
        from jitlint.targets.export.rules import registered

        if registered(self.ctx, name):
            return "tensor"
        info = self.ctx.attribute_named(name)
        if info is None:
            return None
        if info.constructors & PARAMETER_CLASSES:
            return "tensor"
        if any(getattr(kind, "qualified", None) in PARAMETER_CLASSES for kind in info.kinds):
            return "tensor"
        return None

    def _subscript(self, node: cst.Subscript, frame: Frame) -> str | None:
        base = self.kind(node.value, frame)
        if base in TENSORISH:
            for element in node.slice:
                # A boolean mask, or indices of data-dependent length: the result's size depends on data.
                if isinstance(element.slice, cst.Index) and self.kind(element.slice.value, frame) in ("mask", "ddtensor"):
                    return "ddtensor"
            return "ddtensor" if base == "ddtensor" else "tensor"
        if base in ("shape", "ddshape") and any(isinstance(element.slice, cst.Slice) for element in node.slice):
            return base
        if base in ("ddshape", "datalist"):
            return "data"
        if base == "tensors":
            return "tensor"
        if base == "ddtensors":
            return "ddtensor"
        return None

    def _call(self, node: cst.Call, frame: Frame) -> str | None:
        func = node.func
        qualified = self.imports.qualify(func)
        if isinstance(func, cst.Attribute) and qualified is None:  # a method of a value (not of an imported module)
            receiver = self.kind(func.value, frame)
            return self._method(func.attr.value, receiver, node, frame)
        qualified = qualified or ""
        if qualified.startswith("numpy."):
            return "ndarray"
        if qualified.startswith("builtins."):
            return self._builtin(qualified[len("builtins."):], node, frame)
        if qualified == "torch.jit.annotate" and len(node.args) == 2:
            return self.kind(node.args[1].value, frame)
        if qualified in ("torch.tensor", "torch.as_tensor", "torch.scalar_tensor"):
            # A tensor of one Python number is a constant to fake tensors (its value propagates through ops):
            # `float(torch.tensor(s).log2())` exports (torchvision's `_infer_scale`). A list of them is not.
            first = node.args[0].value if node.args else None
            if isinstance(first, (cst.List, cst.Tuple)) or self.kind(first, frame) in TENSORISH | {"shape"}:
                return "tensor"  # several numbers (`torch.tensor(x.shape[-2:])`): values unknown to fake tensors
            return "const"
        if qualified in _TORCH_DATA:
            return "data"
        if qualified in _TORCH_DD:
            return "ddtensor"
        if qualified in _TORCH_SEQUENCE:
            return "tensors"
        if qualified in _TORCH_MASK:
            return "mask"
        arguments = {self.kind(arg.value, frame) for arg in node.args}
        if "const" in arguments and not arguments & TENSORISH and qualified.startswith(("torch.", "torchvision.")):
            return "const"  # torch ops on a constant one-number tensor stay constant (fake tensors propagate it)
        if qualified.startswith(_TENSOR_NAMESPACES):
            return "tensor"
        if qualified.startswith("torch.") and qualified.count(".") == 1:
            name = qualified[len("torch."):]
            if name in _TORCH_NOT_TENSOR or name.startswith(("is_", "get_", "set_", "are_", "use_", "_")):
                return None
            if name == "where" and len(node.args) == 1:
                return "ddtensors"  # `torch.where(cond)`: the indices where cond holds, one tensor per dimension
            return "tensor"
        return None

    def _method(self, name: str, receiver: str | None, node: cst.Call, frame: Frame) -> str | None:
        if receiver in ("const", "ndarray"):
            return None if name in ("item", "tolist") else receiver
        if name == "item":
            return "data"  # a Python scalar read from a tensor (or a NumPy value, which is one too under export)
        if receiver is None and name in _TENSOR_ONLY_METHODS and not self._project_object(node):
            receiver = "tensor"
        if receiver not in TENSORISH:
            return None
        if name == "tolist":
            return "datalist"
        if name == "size":
            if receiver == "ddtensor":
                return "data" if node.args else "ddshape"
            return None if node.args else "shape"
        if name in ("numel", "nelement"):
            return "data" if receiver == "ddtensor" else None
        if name == "numpy":
            return "ndarray"
        if name in _STATIC_METHODS:
            return None
        if name in ("equal", "allclose", "is_nonzero"):
            return "data"
        if name in _MASK_METHODS:
            return "mask"
        if name in _DD_METHODS:
            return "ddtensor"
        if name in _SEQUENCE_METHODS:
            return "tensors"
        if name in _SHAPE_KEEPING and receiver == "ddtensor":
            return "ddtensor"
        return "tensor"

    def _project_object(self, node: cst.Call) -> bool:
        """`obj.method()` where the project defines a class with such a method: not assumed to be a tensor."""
        name = node.func.attr.value if isinstance(node.func, cst.Attribute) else ""
        methods = self.ctx.project.derived.setdefault("export.method_names", None)
        if methods is None:
            methods = {m for module in self.ctx.project.modules.values() for cls in module.classes.values()
                       for m in cls.methods}
            self.ctx.project.derived["export.method_names"] = methods
        return name in methods

    def _builtin(self, name: str, node: cst.Call, frame: Frame) -> str | None:
        args = [self.kind(arg.value, frame) for arg in node.args if not arg.star]
        if name in ("int", "float", "bool", "complex"):
            return "data" if args and args[0] in DEPENDENT else None
        if name == "len":
            return "data" if args and args[0] == "ddtensor" else None
        if name in ("min", "max", "abs", "round", "sum", "divmod", "pow"):
            return "data" if "data" in args else None
        return None

    # -- events --------------------------------------------------------------------------------------------------
    def _event(self, kind: str, node: cst.CSTNode, message: str, modes=("default", "strict")) -> None:
        if id(node) not in self._reported:
            self._reported.add(id(node))
            self.events.append(Event(kind, node, message, modes))

    def _truth(self, test: cst.BaseExpression, frame: Frame, where: str) -> None:
        value = self.kind(test, frame)
        if value in DEPENDENT:
            self._event("branch", test, _branch_message(where, value))

    def _calls(self, reads: Reads, frame: Frame) -> None:
        for call in reads.calls:
            func = call.func
            qualified = self.imports.qualify(func) or ""
            args = [arg for arg in call.args if not arg.star]
            if qualified in ("builtins.int", "builtins.float") and args:
                value = self.kind(args[0].value, frame)
                if value in DEPENDENT:
                    what = "tensor" if value in TENSORISH else "<value read from tensor data>"
                    self._event("python-number", call, (
                        f"`{qualified[9:]}({what})` needs a concrete value, which export does not have while tracing "
                        "(\"Could not extract specialized integer from data-dependent expression\"); keep it a tensor, "
                        "or use `.item()` with `torch._check(...)` bounds where a size is needed"), ("default",))
            elif qualified == "builtins.bool" and args:
                if self.kind(args[0].value, frame) in TENSORISH:
                    self._event("branch", call, _branch_message("`bool(...)`", "tensor"))
            elif qualified == "builtins.len" and args:
                if self.kind(args[0].value, frame) == "ddtensor":
                    self._event("python-number", call, (
                        "`len()` of a tensor whose size depends on its data (a mask, `nonzero`, `unique`, `nms`) needs "
                        "a Python int export does not have; use `t.shape[0]` (a symbolic size) instead"), ("default",))
            elif qualified == "builtins.range":
                if any(self.kind(arg.value, frame) == "data" for arg in args):
                    self._event("python-number", call, (
                        "`range()` over a value read from tensor data needs a Python int export does not have "
                        "while tracing; loop over a tensor (`for row in t:`) or vectorise the loop"))
            elif qualified == "torch._assert" and args:
                if self.kind(args[0].value, frame) in DEPENDENT:
                    self._event("assert", call, _assert_message("`torch._assert`"))
            elif qualified.startswith("numpy.") and any(self.kind(arg.value, frame) in TENSORISH for arg in args):
                self._event("numpy", call, (
                    f"`{qualified}` on a tensor fails under torch.export (\".numpy() is not supported for tensor "
                    "subclasses\": export traces with fake tensors); use the torch equivalent"))
            elif isinstance(func, cst.Attribute) and func.attr.value == "numpy" and not call.args:
                if self.kind(func.value, frame) not in ("shape", "ddshape", "device", "datalist", "data"):
                    self._event("numpy", call, (
                        "`.numpy()` fails under torch.export (\".numpy() is not supported for tensor subclasses\": "
                        "export traces with fake tensors), also inside `@torch.jit.ignore` bodies and "
                        "`is_scripting()`-False branches, which export traces; keep the computation in torch ops"))

    def _attributes(self, reads: Reads, frame: Frame) -> None:
        for attribute in reads.attributes:
            if attribute.attr.value == "data" and self.kind(attribute.value, frame) in TENSORISH:
                self._event("data-attribute", attribute, (
                    "`.data` under torch.export lifts the traced value as a constant (\"We found a fake tensor in "
                    "the exported program constant's list\"); use the tensor itself, or `.detach()`"))

    # -- the walker's hooks --------------------------------------------------------------------------------------
    def initial(self) -> dict[str, str | None]:
        values: dict[str, str | None] = {}
        params = self.function.params
        everything = [*params.posonly_params, *params.params, *params.kwonly_params]
        for index, param in enumerate(everything):
            name = param.name.value
            if index == 0 and self.self_name == name:
                continue
            values[name] = self._param_kind(param)
        for star in (params.star_arg, params.star_kwarg):
            if isinstance(star, cst.Param):
                values[star.name.value] = None
        return values

    def _param_kind(self, param: cst.Param) -> str | None:
        if param.annotation is None:
            # TorchScript types an unannotated parameter as a Tensor; export's inputs are tensors: forward only.
            return "tensor" if self.is_forward and param.default is None else None
        annotation = param.annotation.annotation
        outer = annotation.value if isinstance(annotation, cst.Subscript) else annotation
        qualified = self.imports.qualify(outer) or ""
        if qualified in TENSOR_CLASSES:
            return "tensor"
        if isinstance(annotation, cst.Subscript) and qualified in _OPTIONAL | SEQUENCE_ANNOTATIONS:
            inner = annotation.slice[0].slice
            if isinstance(inner, cst.Index) and (self.imports.qualify(inner.value) or "") in TENSOR_CLASSES:
                return "tensor" if qualified in _OPTIONAL else "tensors"
        return None

    def read(self, reads: Reads, statement: cst.CSTNode, frame: Frame) -> None:
        self.frame = frame
        self._calls(reads, frame)
        self._attributes(reads, frame)
        for expression in reads.if_expressions:
            self._truth(expression.test, frame, "a conditional expression")
        if isinstance(statement, cst.If):
            self._truth(statement.test, frame, "`if`")
        elif isinstance(statement, cst.While):
            self._truth(statement.test, frame, "`while`")

    def deferred(self, item, name: cst.Name) -> None:
        pass

    def _bind_target(self, target: cst.BaseExpression, value: str | None, frame: Frame) -> None:
        if isinstance(target, cst.Name):
            frame.bind(target.value, value)
        elif isinstance(target, (cst.Tuple, cst.List)):
            item = {"tensors": "tensor", "ddtensors": "ddtensor", "ddshape": "data", "datalist": "data"}.get(value or "")
            for element in target.elements:
                inner = element.value
                if isinstance(element, cst.StarredElement):
                    self._bind_target(inner, None, frame)
                else:
                    self._bind_target(inner, item, frame)
        else:
            frame.read_names(target)

    def assign(self, node: cst.Assign, frame: Frame) -> None:
        if (len(node.targets) == 1 and isinstance(node.targets[0].target, (cst.Tuple, cst.List))
                and isinstance(node.value, (cst.Tuple, cst.List))
                and len(node.targets[0].target.elements) == len(node.value.elements)
                and not any(isinstance(e, cst.StarredElement) for e in (*node.targets[0].target.elements,
                                                                        *node.value.elements))):
            # `a, b = x[keep], y[keep]`: each name gets its own value (all read before any is bound).
            values = [self.kind(element.value, frame) for element in node.value.elements]
            for element, value in zip(node.targets[0].target.elements, values):
                self._bind_target(element.value, value, frame)
            return
        value = self.kind(node.value, frame)
        for target in node.targets:
            self._bind_target(target.target, value, frame)

    def annotated_assign(self, node: cst.AnnAssign, frame: Frame) -> None:
        if not isinstance(node.target, cst.Name):
            frame.read_names(node.target)
            return
        outer = node.annotation.annotation
        qualified = self.imports.qualify(outer.value if isinstance(outer, cst.Subscript) else outer) or ""
        value = "tensor" if qualified in TENSOR_CLASSES else self.kind(node.value, frame)
        frame.bind(node.target.value, value)

    def augmented_assign(self, node: cst.AugAssign, frame: Frame) -> None:
        if isinstance(node.target, cst.Name):
            combined = cst.BinaryOperation(left=node.target, operator=cst.Add(), right=node.value)
            frame.bind(node.target.value, self.kind(combined, frame))
        else:
            frame.read_names(node.target)

    def for_target(self, node: cst.For, outer: Frame, body: Frame) -> None:
        iterable = self.kind(node.iter, outer)
        item = {"datalist": "data", "tensor": "tensor", "tensors": "tensor", "ddtensor": "ddtensor",
                "ddtensors": "ddtensor"}.get(iterable or "")
        self._bind_target(node.target, item, body)

    def with_target(self, item: cst.WithItem, frame: Frame) -> None:
        self._bind_target(item.asname.name, None, frame)

    def walrus(self, node: cst.NamedExpr, frame: Frame) -> None:
        if isinstance(node.target, cst.Name):
            frame.bind(node.target.value, self.kind(node.value, frame))

    def refine(self, test, body: Frame, orelse: Frame) -> None:
        pass

    def asserted(self, node: cst.Assert, frame: Frame) -> None:
        if self.kind(node.test, frame) in DEPENDENT:
            self._event("assert", node.test, _assert_message("`assert`"), ("default",))

    def returned(self, node: cst.Return, frame: Frame) -> None:
        pass

    def uncertain(self, test) -> bool:
        return False

    def join(self, name, first, second):
        return _join(first, second)

    def join_new(self, name, first, second, node, frame):
        return _join(first, second)

    def one_branch(self, name, in_body, node, frame) -> None:
        pass

    def uncertain_join(self, before, after):
        return _join(before, after)

    def loop_join(self, before, after):
        return _join(before, after)

    def first_set_in_loop(self, name, node, frame) -> None:
        pass


def _branch_message(where: str, value: str | None) -> str:
    what = "a value read from tensor data" if value == "data" else "a tensor's value"
    return (f"{where} on {what}: torch.export cannot decide it while tracing (\"Could not guard on data-dependent "
            "expression\"); use `torch.cond(pred, true_fn, false_fn, operands)` or branchless tensor code "
            "(`torch.where`, `clamp`)")


def _assert_message(where: str) -> str:
    return (f"{where} on a tensor's value: torch.export cannot evaluate it while tracing (\"Could not guard on "
            "data-dependent expression\"); use `torch._assert_async(cond, msg)` (checked when the program runs), or "
            "`torch._check(...)` on an `.item()` value")


def analyse(node: cst.FunctionDef, ctx: "RuleContext") -> list[Event]:
    """The data-dependence events of a function export traces."""
    captured = ctx.function
    is_forward = node.name.value == "forward" and captured is not None and captured.info.cls is not None
    domain = DataDependence(node, ctx, is_forward)
    FlowWalker(domain, captured.pruned if captured is not None else ()).run(node)
    return domain.events
