"""What torch's tensor methods and functions give, in the kinds of the data-dependence fact
(`jitlint.facts.datadep`): which give static Python values, masks, tensors of data-dependent size, sequences of
tensors, or something that is not a tensor at all; and which torch.nn layers' calls are one tensor; how an optional
annotation reads; and which library functions convert a size they are given to a Python int."""

from __future__ import annotations

from dataclasses import dataclass

import libcst as cst

# Tensor methods that give Python values known at trace time (static or symbolic): not tensors, not data.
STATIC_METHODS = frozenset({
    "dim", "ndimension", "element_size", "is_contiguous", "is_floating_point", "is_complex", "get_device",
    "stride", "storage_offset", "data_ptr", "type", "register_hook", "backward", "retain_grad", "requires_grad_",
    "is_shared", "is_pinned", "untyped_storage", "storage", "has_names", "is_same_size", "is_set_to", "dim_order",
    "is_sparse", "is_signed", "__len__", "apply_", "map_", "share_memory_", "numel", "nelement",
})
# Of those, the ones that describe an input's rank, dtype or layout (a policy's `rank`/`dtype` gives their kind).
RANK_METHODS = frozenset({"dim", "ndimension"})
DTYPE_METHODS = frozenset({"is_floating_point", "is_complex", "is_signed", "element_size"})
MASK_METHODS = frozenset({
    "eq", "ne", "gt", "lt", "ge", "le", "logical_and", "logical_or", "logical_not", "logical_xor", "isnan", "isinf",
    "isfinite", "isposinf", "isneginf", "any", "all", "bool", "isclose",
})
DD_METHODS = frozenset({"nonzero", "unique", "unique_consecutive", "masked_select", "argwhere"})
SEQUENCE_METHODS = frozenset({"split", "chunk", "unbind", "tensor_split", "split_with_sizes", "hsplit", "vsplit"})
# Methods that keep the receiver's shape (a data-dependent shape stays one).
SHAPE_KEEPING = frozenset({
    "cpu", "cuda", "to", "float", "double", "half", "bfloat16", "long", "int", "short", "byte", "char", "detach",
    "clone", "contiguous", "abs", "neg", "sigmoid", "relu", "exp", "log", "sqrt", "clamp", "clamp_min",
    "clamp_max", "round", "floor", "ceil", "type_as", "mul", "add", "sub", "div", "pow", "argsort", "sign", "flip",
    "cumsum", "softmax", "log_softmax", "tanh", "masked_fill",
})
# torch functions whose output has the shape of their first argument (`torch.argsort(t)`, `torch.zeros_like(t)`).
TORCH_SHAPE_KEEPING = frozenset({f"torch.{name}" for name in (
    "argsort", "abs", "neg", "sigmoid", "relu", "exp", "log", "sqrt", "clamp", "round", "floor", "ceil", "sign",
    "flip", "cumsum", "softmax", "log_softmax", "tanh", "masked_fill", "clone", "detach", "zeros_like", "ones_like",
    "empty_like", "full_like", "rand_like", "randn_like",
)})

# Tensor methods no Python builtin type has (lists, dicts, strings and numbers have `count`, `index`, `split`,
# `sort`, `copy`, `real`...): called on a value of unknown kind (a submodule's output), the value is a tensor.
TENSOR_ONLY_METHODS = frozenset({
    "sigmoid", "softmax", "log_softmax", "relu", "tanh", "exp", "log", "sqrt", "rsqrt", "abs", "sum", "mean",
    "amax", "amin", "argmax", "argmin", "any", "all", "norm", "std", "var", "prod", "cumsum", "matmul", "mm", "bmm",
    "view", "reshape", "flatten", "unsqueeze", "squeeze", "permute", "transpose", "contiguous", "float", "long",
    "half", "double", "bool", "cpu", "cuda", "detach", "clone", "masked_fill", "clamp", "clamp_min", "clamp_max",
    "topk", "gather", "scatter", "index_select", "nonzero", "unique", "numel", "dim", "tolist", "new_zeros",
    "new_ones", "new_full", "new_empty", "new_tensor", "expand", "expand_as", "repeat", "chunk", "unbind", "eq",
    "ne", "gt", "lt", "ge", "le", "type_as", "floor", "ceil", "flip", "roll", "narrow", "masked_select", "isnan",
    "isinf", "isfinite", "logical_and", "logical_or", "logical_not", "sigmoid_", "softmax", "max", "min", "argsort",
})
TORCH_DATA = frozenset({"torch.equal", "torch.allclose", "torch.is_nonzero"})
# The dtype of a boolean tensor (Python's `bool` is accepted as a dtype): a tensor made with it is a mask.
BOOL_DTYPES = frozenset({"torch.bool", "builtins.bool"})
# Tensor methods that make a tensor of a dtype they are given: by the keyword `dtype`, or positionally too
# (`.to(torch.bool)`, `.type(torch.bool)`).
DTYPE_POSITIONAL_METHODS = frozenset({"to", "type"})
DTYPE_KEYWORD_METHODS = frozenset({"new_ones", "new_zeros", "new_full", "new_empty", "new_tensor"})
# Tensor methods that keep their receiver's dtype (they move or pick its elements): of a mask, a mask.
DTYPE_KEEPING = frozenset({
    "triu", "tril", "t", "view", "reshape", "transpose", "permute", "flip", "clone", "contiguous", "expand",
    "expand_as", "repeat", "unsqueeze", "squeeze", "flatten", "roll", "detach", "cpu", "cuda", "diag", "diagonal",
})
TORCH_DD = frozenset({
    "torch.nonzero", "torch.unique", "torch.unique_consecutive", "torch.masked_select", "torch.argwhere",
    "torchvision.ops.nms", "torchvision.ops.batched_nms", "torchvision.ops.boxes.nms",
    "torchvision.ops.boxes.batched_nms", "torchvision.ops.remove_small_boxes", "torchvision.ops.boxes.remove_small_boxes",
})
TORCH_SEQUENCE = frozenset({
    "torch.split", "torch.chunk", "torch.unbind", "torch.tensor_split", "torch.meshgrid", "torch.broadcast_tensors",
})
TORCH_MASK = frozenset(f"torch.{name}" for name in MASK_METHODS)
# Ops whose output has the shape of an index argument (its keyword, its position): gathered by indices of
# data-dependent length, the output's size is data too.
TORCH_INDEX_SHAPED = {"torch.gather": ("index", 2), "torch.take_along_dim": ("indices", 1)}
INDEX_SHAPED_METHODS = {"gather": ("index", 1), "take_along_dim": ("indices", 0)}
# Pads a sequence of tensors to the longest: of tensors of data-dependent sizes, its size is data.
PAD_SEQUENCE = frozenset({"torch.nn.utils.rnn.pad_sequence"})
# torch functions that return something other than a tensor.
TORCH_NOT_TENSOR = frozenset({
    "Size", "device", "dtype", "no_grad", "enable_grad", "inference_mode", "set_grad_enabled", "numel", "typename",
    "result_type", "promote_types", "can_cast", "finfo", "iinfo", "Generator", "manual_seed", "seed",
    "initial_seed", "autocast", "compile", "sym_int", "sym_float", "sym_max", "sym_min", "sym_not", "layout",
    "memory_format", "get_default_dtype", "Tensor", "export", "fx", "jit", "library", "ops", "cond", "vmap",
})
TENSOR_NAMESPACES = ("torch.nn.functional.", "torch.linalg.", "torch.fft.", "torch.special.")
# einops on torch tensors: functions that give one tensor (made of torch ops on their input), `unpack`'s list of
# tensors, `pack`'s tensor and list of shapes; its torch layers, whose call gives one tensor.
EINOPS_TENSOR = frozenset({"einops.rearrange", "einops.repeat", "einops.reduce", "einops.einsum"})
EINOPS_LAYERS = frozenset({"einops.layers.torch.Rearrange", "einops.layers.torch.Reduce",
                           "einops.layers.torch.Repeat", "einops.layers.torch.EinMix"})


@dataclass(frozen=True)
class SizeConversion:
    """A library function that converts a size it is given to a Python int: under torch.jit.trace, where sizes are
    recorded 0-dim tensors, the example's value becomes a constant.

    - `argument`: the position of the converted size argument (counting the receiver out for a method), or None:
      the function converts the shape of every tensor argument, and each keyword argument's value;
    - `keywords`: the keyword spellings of that argument;
    - `warns`: where the TracerWarning of the conversion is issued: "torch" (in torch's own file, where torch's
      default filter hides it), "library" (in the library's file: shown, at the library's line, not the caller's),
      "" (nowhere: torch reads the value as a plain number and says nothing);
    - `where`: the conversion in the library's source;
    - `instead`: what keeps the size traced;
    - `outcome`: "baked" (the example's value is a constant of the trace) or "rejects" (the function needs a Python
      number where the tracer gives a 0-dim tensor: torch.jit.trace raises).
    """

    argument: int | None
    keywords: tuple[str, ...]
    warns: str
    where: str
    instead: str = ""
    outcome: str = "baked"


_SPLIT = SizeConversion(1, ("split_size_or_sections", "split_size"), "torch",
                        "`Tensor.split` calls `int(split_size)` (torch/_tensor.py)",
                        "split into a constant number of parts (`x.chunk(2, dim)`)")
# torch's argument parser (torch/csrc/utils/python_arg_parser.cpp) records a traced size given inside a list or tuple
# to an integer-list parameter (`int[2] kernel_size`, `SymInt[1] shifts`): the op takes the recorded value. One size
# given alone, which the parser repeats to the list's length, is read as a plain number, silently; so is the count of
# `chunk` and `tensor_split(x, sections)`, which compute their parts' sizes from it in C++. Verified on torch 2.13:
# each of these traced with a lone size gives the example's result shape on another input (or fails there), and
# with a tuple of sizes (`(n,)`) stays right.
_LONE = "torch reads one size given alone to an integer-list argument as a plain number"
_KERNEL = SizeConversion(1, ("kernel_size",), "", _LONE, "give a tuple of sizes (`(h, w)`, `(n,)`), which torch records")
_OUTPUT = SizeConversion(1, ("output_size",), "", _LONE, "give a tuple of sizes (`(n,)`), which torch records")
_ROLL = SizeConversion(1, ("shifts",), "", _LONE, "give the shifts as a tuple (`shifts=(n,), dims=(d,)`), which torch "
                       "records")
_COUNT = "torch computes the parts' sizes from the count as a plain number"
_CHUNK = SizeConversion(1, ("chunks",), "", _COUNT, "split by a size (`x.split(x.shape[d] // k, d)` keeps it a "
                        "number too: use a constant count)")
_SECTIONS = SizeConversion(1, ("sections", "indices_or_sections"), "", _COUNT,
                           "give the split indices as a list (`[n]`), which torch records")
# The 2-d and 3-d adaptive pools pass `output_size` to `_list_with_default` (torch/nn/functional.py), which takes
# `len()` of a lone size: a 0-dim tensor under trace ("len() of a 0-d tensor").
_ADAPTIVE = SizeConversion(1, ("output_size",), "", "`_list_with_default` takes `len()` of a lone output size "
                           "(torch/nn/functional.py): \"len() of a 0-d tensor\"",
                           "give a tuple of sizes (`(h, w)`), which torch records", outcome="rejects")
# einx 0.4: every operation (`einx._src.frontend.ops`, re-exported as `einx.<name>`) builds its graph from the
# shapes of its tensor arguments, read by the torch backend's `get_shape` (`tuple(int(x) for x in tensor.shape)`,
# einx/_src/frontend/impl/torch.py), and its axis-length keywords are solved as Python numbers: the traced graph
# reshapes and broadcasts by the example's sizes.
_EINX = SizeConversion(None, (), "library",
                       "einx reads each tensor argument's shape with `int()` (`get_shape`, "
                       "einx/_src/frontend/impl/torch.py)",
                       "use torch operations (broadcasting, `einops.rearrange`/`repeat`, whose sizes stay traced)")
EINX_OPERATIONS = (
    "id", "sum", "mean", "var", "std", "prod", "count_nonzero", "any", "all", "max", "min", "logsumexp", "dot", "add",
    "subtract", "multiply", "true_divide", "floor_divide", "divide", "logical_and", "logical_or", "where", "maximum",
    "minimum", "less", "less_equal", "greater", "greater_equal", "equal", "not_equal", "logaddexp", "get_at",
    "set_at", "add_at", "subtract_at", "softmax", "log_softmax", "sort", "argsort", "flip", "roll", "argmax",
    "argmin",
)
# Library functions that convert a size to a Python int, by qualified name. Not here, because they keep a traced
# size traced (verified on torch 2.13 with einops 0.8.2): einops' `rearrange`/`repeat`/`reduce` give their axis
# lengths and the input's shape to `reshape`/`expand` as they are (`_reconstruct_from_shape` multiplies them, its
# `isinstance(length, int)` checks skip recorded sizes); `einops.unpack` takes `int(x == -1)` and the truth of
# `-1 in shape` of its recorded sizes (warned inside einops), which are the same for every size; `parse_shape`
# returns the recorded sizes; the `einops.layers.torch` layers take constants. torch's 2-d pools given a list of
# sizes (`F.avg_pool2d(x, x.shape[2:])`), `view`/`reshape`/`expand`/`zeros`/`pad`/`narrow`/`topk`/`unflatten` and
# `split` with a list of sizes record them.
SIZE_CONVERSIONS: dict[str, SizeConversion] = {
    "torch.split": _SPLIT,
    "torch.functional.split": _SPLIT,
    **{f"torch.nn.functional.{name}": _KERNEL for name in ("avg_pool1d", "avg_pool2d", "max_pool1d", "max_pool2d")},
    **{f"torch.nn.functional.{name}": _OUTPUT for name in ("adaptive_avg_pool1d", "adaptive_max_pool1d")},
    **{f"torch.nn.functional.adaptive_{kind}_pool{n}d": _ADAPTIVE for kind in ("avg", "max") for n in (2, 3)},
    "torch.roll": _ROLL,
    "torch.chunk": _CHUNK,
    "torch.tensor_split": _SECTIONS,
    **{f"einx.{name}": _EINX for name in EINX_OPERATIONS},
}
# Tensor methods that convert a size argument (the receiver a tensor).
METHOD_SIZE_CONVERSIONS: dict[str, SizeConversion] = {
    "split": SizeConversion(0, ("split_size",), "torch", _SPLIT.where, _SPLIT.instead),
    "roll": SizeConversion(0, _ROLL.keywords, "", _LONE, _ROLL.instead),
    "chunk": SizeConversion(0, _CHUNK.keywords, "", _COUNT, _CHUNK.instead),
    "tensor_split": SizeConversion(0, _SECTIONS.keywords, "", _COUNT, _SECTIONS.instead),
}

TENSOR_ANNOTATIONS = frozenset({"torch.Tensor", "torch.FloatTensor", "torch.LongTensor", "torch.BoolTensor"})
SEQUENCE_ANNOTATIONS = frozenset({"typing.List", "typing.Tuple", "builtins.list", "builtins.tuple"})
OPTIONAL = frozenset({"typing.Optional"})
# torch.nn modules whose call is not one tensor (containers, recurrent layers, attention with weights, pools that
# may return indices, the identity of whatever it is given).
NOT_TENSOR_LAYERS = frozenset({
    "Module", "ModuleList", "ModuleDict", "Sequential", "ParameterList", "ParameterDict", "Identity", "RNN", "LSTM",
    "GRU", "RNNBase", "MultiheadAttention", "MaxPool1d", "MaxPool2d", "MaxPool3d", "AdaptiveMaxPool1d",
    "AdaptiveMaxPool2d", "AdaptiveMaxPool3d", "FractionalMaxPool2d", "FractionalMaxPool3d", "Parameter", "Buffer",
    "Transformer", "Unflatten",
})


def without_none(annotation: cst.BaseExpression) -> cst.BaseExpression:
    """`X | None` and `None | X` as `X` (the value is X whenever it is not None)."""
    if isinstance(annotation, cst.BinaryOperation) and isinstance(annotation.operator, cst.BitOr):
        if isinstance(annotation.right, cst.Name) and annotation.right.value == "None":
            return annotation.left
        if isinstance(annotation.left, cst.Name) and annotation.left.value == "None":
            return annotation.right
    return annotation
