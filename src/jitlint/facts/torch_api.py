"""Facts about torch's Python API that every target reads: one table, by qualified name (as `ImportTable.qualify`
spells them). What a name means to one compiler only (TorchScript's unsupported builtins, torch.fx's Graph
methods) stays in that target's data; this is what torch itself says, whatever captures the model.
`tests/test_torch_api.py` checks the tables against the pinned torch.
"""

from __future__ import annotations

# The annotations that mean a Tensor: `torch.Tensor` and the dtype-specific legacy classes, which TorchScript takes
# for a plain Tensor (`torch.jit.annotations.is_tensor`) and which eager code, tracing and export see as tensors.
TENSOR_CLASSES = frozenset({
    "torch.Tensor", "torch.LongTensor", "torch.DoubleTensor", "torch.FloatTensor", "torch.IntTensor",
    "torch.ShortTensor", "torch.HalfTensor", "torch.CharTensor", "torch.ByteTensor", "torch.BoolTensor",
})
# Annotations of a sequence whose elements are the subscript's type (`List[Tensor]`, `Sequence[Tensor]`).
SEQUENCE_ANNOTATIONS = frozenset({"typing.List", "typing.Tuple", "typing.Sequence", "builtins.list", "builtins.tuple",
                                  "collections.abc.Sequence"})
# Annotations of a Python scalar or string: never a tensor.
SCALAR_ANNOTATIONS = frozenset({"builtins.int", "builtins.float", "builtins.bool", "builtins.str"})
# What a module attribute constructed by one of these holds a tensor registered on the module (a parameter or a
# buffer: `self.w = nn.Parameter(...)`, `self.b = nn.Buffer(...)`).
PARAMETER_CLASSES = frozenset({"torch.nn.Parameter", "torch.nn.parameter.Parameter", "torch.nn.Buffer",
                               "torch.nn.parameter.Buffer"})
# torch.nn classes that are not nn.Modules although their names are capitalised: in torch.nn, and those defined in
# files under torch/nn/modules/ (an autograd Function, a mixin), spelled as `ImportTable.qualify` spells a name of
# those files (`torch.nn.modules.lazy.LazyModuleMixin` is `torch.nn.LazyModuleMixin`).
NN_NON_MODULES = frozenset({
    "torch.nn.Parameter", "torch.nn.UninitializedParameter", "torch.nn.UninitializedBuffer", "torch.nn.Buffer",
    "torch.nn.LinearCrossEntropyOptions", "torch.nn.LazyModuleMixin", "torch.nn.BackwardHookFunction",
})
# The nn.Module classes that torch.nn does not export: the private bases of its layers, which code imports from the
# file that defines them (`from torch.nn.modules.loss import _Loss`, `nn.modules.batchnorm._BatchNorm`), spelled as
# `ImportTable.qualify` spells them (`torch.nn._Loss`).
NN_PRIVATE_MODULE_BASES = frozenset(f"torch.nn.{name}" for name in """
_BatchNorm _LazyNormBase _NormBase _ConvNd _ConvTransposeMixin _ConvTransposeNd _DropoutNd _InstanceNorm _Loss
_WeightedLoss _CircularPadNd _ConstantPadNd _ReflectionPadNd _ReplicationPadNd _AdaptiveAvgPoolNd _AdaptiveMaxPoolNd
_AvgPoolNd _LPPoolNd _MaxPoolNd _MaxUnpoolNd
""".split())


def is_torch_module_base(qualified: str) -> bool:
    """Whether a qualified name (as `ImportTable.qualify` spells it) is one of torch's nn.Module classes: a
    capitalised name of torch.nn (`torch.nn.Conv2d`) or a private base (`torch.nn._Loss`)."""
    if qualified in NN_NON_MODULES:
        return False
    if qualified == "torch.nn.Module" or qualified in NN_PRIVATE_MODULE_BASES:
        return True
    head, _, last = qualified.rpartition(".")
    return head == "torch.nn" and last[:1].isupper()


# The nn containers, by the kind the project index records for an attribute holding one.
CONTAINER_KINDS = {
    "torch.nn.ModuleList": "ModuleList",
    "torch.nn.Sequential": "Sequential",
    "torch.nn.ModuleDict": "ModuleDict",
    "torch.nn.ParameterList": "ParameterList",
    "torch.nn.ParameterDict": "ParameterDict",
}
INDEXED_BY_INT = frozenset({"ModuleList", "Sequential", "ParameterList"})
INDEXED_BY_STR = frozenset({"ModuleDict", "ParameterDict"})
MODULE_CONTAINERS = frozenset({"ModuleList", "Sequential", "ModuleDict"})
# What every nn.Module has (`dir(torch.nn.Module())` on torch 2.13, less the dunder names).
NN_MODULE_NAMES = frozenset("""
T_destination _apply _backward_hooks _backward_pre_hooks _buffers _call_impl _compiled_call_impl _forward_hooks
_forward_hooks_always_called _forward_hooks_with_kwargs _forward_pre_hooks _forward_pre_hooks_with_kwargs
_get_backward_hooks _get_backward_pre_hooks _get_name _is_full_backward_hook _load_from_state_dict
_load_state_dict_post_hooks _load_state_dict_pre_hooks _maybe_warn_non_full_backward_hook _modules _named_members
_non_persistent_buffers_set _parameters _register_load_state_dict_pre_hook _register_state_dict_hook
_replicate_for_data_parallel _save_to_state_dict _slow_forward _state_dict_hooks _state_dict_pre_hooks _version
_wrapped_call_impl add_module apply bfloat16 buffers call_super_init children compile cpu cuda double dump_patches
eval extra_repr float forward get_buffer get_extra_state get_parameter get_submodule half ipu load_state_dict
modules mtia named_buffers named_children named_modules named_parameters parameters register_backward_hook
register_buffer register_forward_hook register_forward_pre_hook register_full_backward_hook
register_full_backward_pre_hook register_load_state_dict_post_hook register_load_state_dict_pre_hook
register_module register_parameter register_state_dict_post_hook register_state_dict_pre_hook requires_grad_
set_extra_state set_submodule share_memory state_dict to to_empty train training type xpu zero_grad
""".split())
# The dunder names of an nn.Module instance (`dir(torch.nn.Module())` on torch 2.13, the dunder names only).
NN_MODULE_DUNDER_NAMES = frozenset("""
__annotations__ __call__ __class__ __delattr__ __dict__ __dir__ __doc__ __eq__ __format__ __ge__ __getattr__
__getattribute__ __getstate__ __gt__ __hash__ __init__ __init_subclass__ __le__ __lt__ __module__ __ne__ __new__
__reduce__ __reduce_ex__ __repr__ __setattr__ __setstate__ __sizeof__ __str__ __subclasshook__ __weakref__
""".split())
# The names of torch's dtypes (`torch.float32`, `torch.half`, ...).
DTYPE_NAMES = frozenset(
    "float float16 float32 float64 half double bfloat16 int int8 int16 int32 int64 long short uint8 bool "
    "complex64 complex128 cfloat cdouble".split()
)
