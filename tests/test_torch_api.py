"""`jitlint.facts.torch_api` says what the pinned torch says: each table is checked against torch itself."""

from __future__ import annotations

import importlib
import warnings

import torch

from jitlint.facts import torch_api


def resolve(qualified: str):
    module, _, name = qualified.rpartition(".")
    return getattr(importlib.import_module(module), name)


def test_nn_module_names_are_what_an_nn_module_has():
    names = set(dir(torch.nn.Module()))
    assert torch_api.NN_MODULE_NAMES == {name for name in names if not name.startswith("__")}
    assert torch_api.NN_MODULE_DUNDER_NAMES == {name for name in names if name.startswith("__")}


def test_tensor_classes_are_what_torchscript_takes_for_a_tensor():
    from torch.jit.annotations import is_tensor

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # TorchScript warns that a dtype-specific class is a plain Tensor
        assert all(is_tensor(resolve(name)) for name in torch_api.TENSOR_CLASSES)
    legacy = {f"torch.{name}" for name in dir(torch) if name.endswith("Tensor") and name[:-6] in (
        "Long", "Double", "Float", "Int", "Short", "Half", "Char", "Byte", "Bool")}
    assert legacy | {"torch.Tensor"} == torch_api.TENSOR_CLASSES


def test_parameter_and_container_classes_exist_and_are_what_they_say():
    for name in torch_api.PARAMETER_CLASSES:
        assert issubclass(resolve(name), torch.Tensor), name
    for name, kind in torch_api.CONTAINER_KINDS.items():
        assert issubclass(resolve(name), torch.nn.Module) and resolve(name).__name__ == kind
    assert torch_api.INDEXED_BY_INT | torch_api.INDEXED_BY_STR == set(torch_api.CONTAINER_KINDS.values())
    assert torch_api.MODULE_CONTAINERS <= set(torch_api.CONTAINER_KINDS.values())


def test_annotation_names_exist():
    for name in torch_api.SEQUENCE_ANNOTATIONS | torch_api.SCALAR_ANNOTATIONS:
        resolve(name)


def test_module_bases_are_torchs_nn_module_classes_however_imported():
    """Every class torch.nn exports or a file under torch/nn/modules/ defines is a module base exactly when it is
    an nn.Module subclass, spelled as `ImportTable.qualify` spells it."""
    import inspect
    import pkgutil

    import torch.nn.modules

    from jitlint.names import normalize

    exported = {name: value for name, value in vars(torch.nn).items() if inspect.isclass(value)}
    seen = set()
    for info in pkgutil.iter_modules(torch.nn.modules.__path__):
        module = importlib.import_module(f"torch.nn.modules.{info.name}")
        for name, value in vars(module).items():
            if not inspect.isclass(value) or value.__module__ != module.__name__:
                continue
            if name in exported and exported[name] is not value:
                continue  # autograd Functions named as torch.nn's module classes (`_functions.SyncBatchNorm`)
            qualified = normalize(f"{module.__name__}.{name}")
            assert torch_api.is_torch_module_base(qualified) == issubclass(value, torch.nn.Module), qualified
            seen.add(qualified)
    for name, value in exported.items():
        assert torch_api.is_torch_module_base(f"torch.nn.{name}") == issubclass(value, torch.nn.Module), name
    assert len(seen) > 150
    assert torch_api.NN_PRIVATE_MODULE_BASES | torch_api.NN_NON_MODULES <= seen | {f"torch.nn.{name}" for name in exported}
    assert not torch_api.is_torch_module_base("torch.nn.functional.Conv2d")
    assert not torch_api.is_torch_module_base("torch.Tensor")
