"""The names the TorchScript frontend gives a meaning of its own: Tensor and device properties, Tensor casts, dtype
and math constants, the operators binary operations and comparisons call, and the exception classes it knows
(`ir_emitter.cpp`, `sugared_value.cpp`, `python_sugared_value.cpp`)."""

from __future__ import annotations

import libcst as cst

from jitlint.targets.script.typing.types import BOOL, DEVICE, INT, STR, TENSOR, Type, list_of, optional_of

# Tensor properties the frontend reads as operators (`SimpleValue::attr`, `builtin_properties`).
TENSOR_PROPERTIES: dict[str, Type] = {
    "dtype": INT, "device": DEVICE, "grad": optional_of(TENSOR), "data": TENSOR, "shape": list_of(INT),
    "is_cuda": BOOL, "is_cpu": BOOL, "is_xla": BOOL, "is_xpu": BOOL, "is_sparse": BOOL, "is_sparse_csr": BOOL,
    "is_mkldnn": BOOL, "is_mps": BOOL, "is_mtia": BOOL, "is_quantized": BOOL, "is_vulkan": BOOL, "is_ipu": BOOL,
    "is_meta": BOOL, "is_leaf": BOOL, "is_nested": BOOL, "requires_grad": BOOL, "layout": INT, "T": TENSOR,
    "H": TENSOR, "mT": TENSOR, "mH": TENSOR, "is_maia": BOOL, "itemsize": INT, "nbytes": INT, "ndim": INT,
    "name": optional_of(STR), "real": TENSOR, "imag": TENSOR, "retains_grad": BOOL,
}
DEVICE_PROPERTIES: dict[str, Type] = {"type": STR, "index": optional_of(INT)}
# `x.float()` and friends (`builtin_cast_method_to_scalar_type`): Tensor casts.
TENSOR_CASTS = frozenset("byte char double float cfloat cdouble half int long short".split())
DTYPES = frozenset(
    "float32 float float64 double float16 half bfloat16 complex32 chalf complex64 cfloat complex128 cdouble uint8 "
    "uint16 uint32 uint64 int8 int16 short int32 int int64 long bool quint8 qint8 qint32 quint4x2 quint2x4 "
    "float8_e4m3fn float8_e5m2 float8_e4m3fnuz float8_e5m2fnuz bits8 bits16 "
    "strided sparse_coo sparse_csr sparse_csc sparse_bsr sparse_bsc _mkldnn contiguous_format channels_last "
    "channels_last_3d preserve_format per_tensor_affine per_channel_affine per_tensor_symmetric "
    "per_channel_symmetric per_channel_affine_float_qparams".split())
MATH_CONSTANTS = frozenset({"math.pi", "math.e", "math.inf", "math.nan", "math.tau", "torch.pi", "torch.e",
                             "torch.inf", "torch.nan"})
BINARY_OPERATORS = {
    cst.Add: ("aten::add", "__add__", "+"), cst.Subtract: ("aten::sub", "__sub__", "-"),
    cst.Multiply: ("aten::mul", "__mul__", "*"), cst.Divide: ("aten::div", "__truediv__", "/"),
    cst.Modulo: ("aten::remainder", "__mod__", "%"), cst.Power: ("aten::pow", "__pow__", "**"),
    cst.FloorDivide: ("aten::floordiv", None, "//"), cst.MatrixMultiply: ("aten::matmul", None, "@"),
    cst.LeftShift: ("aten::__lshift__", "__lshift__", "<<"), cst.RightShift: ("aten::__rshift__", "__rshift__", ">>"),
    cst.BitAnd: ("aten::__and__", "__and__", "&"), cst.BitOr: ("aten::__or__", "__or__", "|"),
    cst.BitXor: ("aten::__xor__", "__xor__", "^"),
}
COMPARISONS = {
    cst.Equal: ("aten::eq", "__eq__"), cst.NotEqual: ("aten::ne", "__ne__"), cst.LessThan: ("aten::lt", "__lt__"),
    cst.GreaterThan: ("aten::gt", "__gt__"), cst.LessThanEqual: ("aten::le", "__le__"),
    cst.GreaterThanEqual: ("aten::ge", "__ge__"), cst.In: ("aten::__contains__", "__contains__"),
    cst.NotIn: ("aten::__contains__", "__contains__"),
}
# Python's builtin exception classes (`BaseException` and its subclasses): torch's frontend gives any subclass of
# `BaseException` a value that builds an exception message (`raise ValueError(...)`), and never compiles the class.
EXCEPTIONS = frozenset(
    f"builtins.{name}" for name in (
        "ArithmeticError", "AssertionError", "AttributeError", "BaseException", "BaseExceptionGroup",
        "BlockingIOError", "BrokenPipeError", "BufferError", "BytesWarning", "ChildProcessError",
        "ConnectionAbortedError", "ConnectionError", "ConnectionRefusedError", "ConnectionResetError",
        "DeprecationWarning", "EOFError", "EncodingWarning", "EnvironmentError", "Exception", "ExceptionGroup",
        "FileExistsError", "FileNotFoundError", "FloatingPointError", "FutureWarning", "GeneratorExit", "IOError",
        "ImportError", "ImportWarning", "IndentationError", "IndexError", "InterruptedError", "IsADirectoryError",
        "KeyError", "KeyboardInterrupt", "LookupError", "MemoryError", "ModuleNotFoundError", "NameError",
        "NotADirectoryError", "NotImplementedError", "OSError", "OverflowError", "PendingDeprecationWarning",
        "PermissionError", "ProcessLookupError", "RecursionError", "ReferenceError", "ResourceWarning",
        "RuntimeError", "RuntimeWarning", "StopAsyncIteration", "StopIteration", "SyntaxError", "SyntaxWarning",
        "SystemError", "SystemExit", "TabError", "TimeoutError", "TypeError", "UnboundLocalError",
        "UnicodeDecodeError", "UnicodeEncodeError", "UnicodeError", "UnicodeTranslateError", "UnicodeWarning",
        "UserWarning", "ValueError", "Warning", "ZeroDivisionError"))

