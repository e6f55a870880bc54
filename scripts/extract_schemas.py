#!/usr/bin/env python3
"""Extract the operator schemas TorchScript resolves calls against from the installed torch into
`src/jitlint/data/schemas.json`, the data the static call check (`jitlint.targets.script.schemas`) reads.

    python scripts/extract_schemas.py            # writes the data file
    python scripts/extract_schemas.py --check    # exits 1 when the file differs from what this torch gives

What is extracted (torch 2.13.0 is the reference; the file records the version):
- every `aten::` and `prim::` schema of `torch._C._jit_get_all_schemas()` (Tensor methods resolve to `aten::<name>`
  with the receiver as `self`; `torch.<name>` and the builtin functions resolve through torch's builtin table);
- `calls`: the Python callables TorchScript maps to a builtin operator (`torch.jit._builtins._find_builtin`) in
  `torch`, `torch.nn.functional`, `torch.linalg`, `torch.special`, `torch.fft` and `math`, by qualified name;
- the `torch.nn.functional` functions TorchScript compiles from Python source: their TorchScript signature, as
  `torch.jit.script(fn).schema` gives it, or each `@_overload` declaration's (and both halves of a boolean
  dispatch), stored under `py::torch.nn.functional.<name>`;
- the functions the frontend defines in TorchScript source next to operators (`1 - x` is `aten::sub(int a,
  Tensor b)`), appended to the operator's overloads, and the other callables of `torch.jit._builtins._builtin_ops`
  (`torch.nn.modules.utils._pair`, `warnings.warn`, ...) in `calls`;
- `modules`: the `forward` signature of each `torch.nn` module class (its `_overload_method` declarations');
- `dispatch`: the `torch.nn.functional` functions that dispatch on a bool argument (`boolean_dispatch`): the
  argument's name, index and default; their two overloads are the True half's and the False half's.

An overload is `[name, arguments, returns, vararg]`, plus the return fields' names when it returns a named tuple.
An argument is `[name, type, N, kwarg_only]` plus the default's text when it has one; `type` is TorchScript's
spelling (`Scalar` is `number`, `ScalarType` is `int`), `N` the fixed length of a list (`int[2]`), else 0.
"""

from __future__ import annotations

import argparse
import inspect
import json
import math
import sys
import warnings
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "src" / "jitlint" / "data" / "schemas.json"
NAMESPACES = ("aten::", "prim::")
MODULES = ("torch", "torch.nn.functional", "torch.linalg", "torch.special", "torch.fft", "math")


def _argument(arg) -> list:
    entry = [arg.name, str(arg.type), arg.N or 0, int(arg.kwarg_only)]
    if arg.has_default_value():
        entry.append(_default(arg.default_value))
    return entry


def _default(value) -> str:
    if isinstance(value, str):
        return repr(value)
    text = str(value)
    return text if len(text) <= 24 else "..."


def _overload(schema) -> list:
    returns = ", ".join(str(r.type) for r in schema.returns)
    if len(schema.returns) > 1:
        returns = f"Tuple[{returns}]"
    entry = [schema.overload_name, [_argument(a) for a in schema.arguments], returns or "None",
             int("..." in str(schema).split("->")[0])]
    names = [r.name for r in schema.returns]
    if len(names) > 1 and all(names):  # a named tuple (`torch.max(x, 1).values`)
        entry.append(names)
    return entry


# The functions the frontend defines in TorchScript source next to the operators of the same name
# (torch/csrc/jit/frontend/builtin_functions.cpp: `getAllBuiltinFunctionsFor`), tried after them: a number on the
# left of a Tensor (`1 - x`), `//` of Tensors, `_pair`/`_single`/..., `str in str`, `Tensor.type(dtype)`, and the
# `ndim`/`T`/`shape` Tensor properties. The sources are the frontend's; torch compiles them here, so the schemas
# are torch's own.
_SCALAR_OPERATORS = """
def mul(a : ${Scalar}, b : Tensor) -> Tensor:
  return b * a
def add(a : ${Scalar}, b : Tensor) -> Tensor:
  return b + a
def ne(a : ${Scalar}, b : Tensor) -> Tensor:
  return b != a
def eq(a : ${Scalar}, b : Tensor) -> Tensor:
  return b == a
def lt(a : ${Scalar}, b : Tensor) -> Tensor:
  return b > a
def le(a : ${Scalar}, b : Tensor) -> Tensor:
  return b >= a
def gt(a : ${Scalar}, b : Tensor) -> Tensor:
  return b < a
def ge(a : ${Scalar}, b : Tensor) -> Tensor:
  return b <= a
def sub(a : ${Scalar}, b : Tensor) -> Tensor:
  return torch.neg(b) + a
def div(a : ${Scalar}, b : Tensor) -> Tensor:
  return torch.reciprocal(b) * a
"""
_NTUPLE = """
def _${name}(x: BroadcastingList${Length}[${Scalar}]) -> List[${Scalar}]:
  return x
"""
_FLOORDIV = """
def floordiv(self : Tensor, other : ${Rhs_Type}) -> Tensor:
  return torch.floor_divide(self, other)
"""
_ATEN_OPS = """
def _assert_int_or_pair(vals: List[int], name: str, message: str):
  pass
def list_with_default(out_size: List[int], defaults: List[int]):
  assert len(defaults) > len(out_size)
  return out_size
def _assert(condition : bool, message : str):
  assert condition, message
def type(self: Tensor, dtype: int, non_blocking: bool=False, copy: bool=False) -> Tensor:
  return self.to(dtype, non_blocking, copy)
"""
_ATEN_OPS_ADDITIONAL = """
def _assert(condition : Tensor, message : str):
  assert bool(condition), message
def __contains__(self: str, key: str):
    return self.find(key, 0, len(self)) != -1
"""
_TENSOR_PROPERTIES = """
def ndim(a : Tensor) -> int:
  return a.dim()
def T(a : Tensor) -> Tensor:
  return a.numpy_T()
def shape(a : Tensor) -> List[int]:
  return a.size()
"""


def _builtin_functions(torch) -> dict[str, list]:
    from string import Template

    sources: list[tuple[str, str]] = []
    for scalar in ("float", "int"):
        sources.append((Template(_SCALAR_OPERATORS).substitute(Scalar=scalar), "aten"))
    for scalar in ("float", "int"):
        for name, length in (("single", 1), ("pair", 2), ("triple", 3), ("quadruple", 4)):
            sources.append((Template(_NTUPLE).substitute(Scalar=scalar, name=name, Length=length), "aten"))
    for rhs in ("number", "Tensor"):
        sources.append((Template(_FLOORDIV).substitute(Rhs_Type=rhs), "aten"))
    sources += [(_ATEN_OPS, "aten"), (_ATEN_OPS_ADDITIONAL, "aten"), (_TENSOR_PROPERTIES, "prim")]
    found: dict[str, list] = {}
    for source, namespace in sources:
        unit = torch.jit.CompilationUnit(source)
        for function in unit.get_functions():
            entry = _overload(function.schema)
            entry[0] = ""
            found.setdefault(f"{namespace}::{function.name}", []).append(entry)
    return found


def _module_forwards(torch) -> dict[str, list]:
    """The `forward` signatures of the `torch.nn` module classes, as the frontend reads them when it compiles a
    submodule's forward: each `@torch.jit._overload_method` declaration's, else the method's own."""
    from torch._jit_internal import _get_overloaded_methods

    found: dict[str, list] = {}
    for name in sorted(dir(torch.nn)):
        cls = getattr(torch.nn, name)
        if not (isinstance(cls, type) and issubclass(cls, torch.nn.Module)) or cls is torch.nn.Module:
            continue
        forward = cls.__dict__.get("forward") or getattr(cls, "forward", None)
        if forward is None or forward is torch.nn.Module.forward:
            continue
        try:
            declared = _get_overloaded_methods(forward, cls) or []
        except Exception:
            declared = []
        signatures = [_python_signature(fn, torch, method=True) for fn in declared] or [
            _python_signature(forward, torch, method=True)]
        if signatures and all(s is not None for s in signatures):
            found[f"torch.nn.{name}"] = signatures
    return found


def _python_signature(fn, torch, method: bool = False) -> list | None:
    """The TorchScript signature of a Python function (an overload declaration or a dispatch half), read the way
    the frontend reads it: annotations through `ann_to_type`, unannotated parameters are Tensor."""
    from torch._sources import fake_range
    from torch.jit.annotations import ann_to_type

    try:
        signature = inspect.signature(fn)
    except (TypeError, ValueError):
        return None
    args = []
    for index, param in enumerate(signature.parameters.values()):
        if method and index == 0:
            continue  # `self`
        if param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD):
            return None
        if param.annotation is inspect.Parameter.empty:
            kind = "Tensor"
        else:
            try:
                kind = str(ann_to_type(param.annotation, fake_range()))
            except Exception:
                return None
            if kind == "NoneType":
                kind = "Any"  # `BroadcastingList2[int]` evaluates to None: the frontend resolves it, not ann_to_type
        entry = [param.name, kind, 0, int(param.kind == param.KEYWORD_ONLY)]
        if param.default is not inspect.Parameter.empty:
            entry.append(_default(param.default))
        args.append(entry)
    returns = "Any"
    if signature.return_annotation is not inspect.Signature.empty:
        try:
            returns = str(ann_to_type(signature.return_annotation, fake_range()))
        except Exception:
            returns = "Any"
    return ["", args, returns, 0]


def _scripted(fn, torch) -> list | None:
    """The schema TorchScript gives a function it compiles on its own, or None."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return _overload(torch.jit.script(fn).schema)
    except Exception:
        return None


def extract() -> dict:
    import importlib

    import torch
    import torch.jit._builtins as builtins
    from torch._jit_internal import _get_fn_overloads, _qualified_name, boolean_dispatched

    ops: dict[str, list] = {}
    for schema in torch._C._jit_get_all_schemas():
        if schema.name.startswith(NAMESPACES):
            ops.setdefault(schema.name, []).append(_overload(schema))
    for name, entries in _builtin_functions(torch).items():
        ops.setdefault(name, []).extend(entries)
    calls: dict[str, str] = {}
    for value, symbol in list(builtins._builtin_ops):
        module_name = getattr(value, "__module__", None)
        module = sys.modules.get(module_name) if module_name else None
        if module is None or symbol not in ops:
            continue
        for name in sorted(dir(module)):  # the names the callable is bound to (`_pair` is `_ntuple(2)`)
            if getattr(module, name, None) is value:
                calls.setdefault(f"{module_name.lstrip('_')}.{name}", symbol)  # `_warnings.warn`: `warnings.warn`
    for module_name in MODULES:
        module = importlib.import_module(module_name)
        for name in sorted(dir(module)):
            if name.startswith("__"):
                continue
            try:
                value = getattr(module, name)
                symbol = builtins._find_builtin(value)
            except Exception:
                continue
            if symbol is not None and symbol in ops:
                calls[f"{module_name}.{name}"] = symbol
    functional = importlib.import_module("torch.nn.functional")
    dispatch: dict[str, list] = {}  # a boolean dispatch: [argument name, index, default]; overloads if_true, if_false
    for name in sorted(dir(functional)):
        qualified = f"torch.nn.functional.{name}"
        value = getattr(functional, name)
        if name.startswith("_") or qualified in calls or not inspect.isfunction(value):
            continue
        if getattr(value, "__module__", "") != "torch.nn.functional":
            continue
        overloads: list = []
        if value in boolean_dispatched:
            halves = boolean_dispatched[value]
            overloads = [_scripted(halves[half], torch) or _python_signature(halves[half], torch)
                         for half in ("if_true", "if_false")]
            dispatch[f"py::{qualified}"] = [halves["arg_name"], halves["index"], halves["default"]]
        elif _get_fn_overloads(_qualified_name(value)):
            overloads = [_python_signature(decl, torch) for decl in _get_fn_overloads(_qualified_name(value))]
        else:
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    overloads = [_overload(torch.jit.script(value).schema)]
            except Exception:
                continue  # TorchScript cannot compile it: calling it in compiled code fails elsewhere
        if overloads and all(o is not None for o in overloads):
            key = f"py::{qualified}"
            ops[key] = overloads
            calls[qualified] = key
    return {"torch": torch.__version__, "calls": dict(sorted(calls.items())), "ops": dict(sorted(ops.items())),
            "modules": _module_forwards(torch), "dispatch": dict(sorted(dispatch.items()))}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="compare with the committed file instead of writing")
    parser.add_argument("--output", type=Path, default=OUT)
    options = parser.parse_args()
    data = extract()
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=True) + "\n"
    if options.check:
        same = options.output.exists() and options.output.read_text(encoding="utf-8") == text
        print("schemas.json is up to date" if same else f"{options.output} differs from torch {data['torch']}")
        return 0 if same else 1
    options.output.write_text(text, encoding="utf-8")
    print(f"wrote {options.output}: {len(data['ops'])} operators, {len(data['calls'])} callables, "
          f"{len(text) // 1024} KiB (torch {data['torch']})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
