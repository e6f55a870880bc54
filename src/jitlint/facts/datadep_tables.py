"""What torch's tensor methods and functions give, in the kinds of the data-dependence fact
(`jitlint.facts.datadep`): which give static Python values, masks, tensors of data-dependent size, sequences of
tensors, or something that is not a tensor at all; and which torch.nn layers' calls are one tensor; and how an optional annotation reads."""

from __future__ import annotations

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
TORCH_DD = frozenset({
    "torch.nonzero", "torch.unique", "torch.unique_consecutive", "torch.masked_select", "torch.argwhere",
    "torchvision.ops.nms", "torchvision.ops.batched_nms", "torchvision.ops.boxes.nms",
    "torchvision.ops.boxes.batched_nms", "torchvision.ops.remove_small_boxes", "torchvision.ops.boxes.remove_small_boxes",
})
TORCH_SEQUENCE = frozenset({
    "torch.split", "torch.chunk", "torch.unbind", "torch.tensor_split", "torch.meshgrid", "torch.broadcast_tensors",
})
TORCH_MASK = frozenset(f"torch.{name}" for name in MASK_METHODS)
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
