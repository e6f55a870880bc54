"""Factories for bench/agreement.py: build the module classes of timm, torchvision and transformers that need
constructor arguments, through the libraries' own builders.

The dynamic checker builds a class only when its constructor takes no arguments or a factory is declared
(`[tool.jitlint.dynamic] factories = {"pkg.mod:Class" = "pkg.factories:make"}`). Most classes of a model library
need arguments, so `bench/agreement.py --factories LIB` first runs `discover` (in a child process of the measuring
interpreter): it builds models with the library's builders, on the meta device (no memory, no weights), walks
`named_modules()`, and for every class of the library found in a model records where an instance lives
(model, submodule path). The factory for that class then rebuilds the model and returns that submodule, so the
class is scripted with real constructor arguments. Builders per library:

- timm: `timm.create_model(name)` for the first model name of each model module (`timm.list_modules()`);
- torchvision: every builder of `torchvision.models.list_models()` (classification, detection, segmentation,
  video, optical flow, quantization), `weights=None`;
- transformers: for each model family given (default: all), every `PreTrainedModel` subclass of its
  `modeling_*.py`, built with its `config_class()` defaults.

A class that no built model contains stays unverified, as before. In the worker, `agreement_factories:f<N>`
resolves through the module's `__getattr__` and the JSON written by `discover` (environment variable
JITLINT_AGREEMENT_FACTORIES).
"""

from __future__ import annotations

import functools
import importlib
import inspect
import json
import os
import sys
import time
import warnings

ENV = "JITLINT_AGREEMENT_FACTORIES"


# -- builders ---------------------------------------------------------------------------------------------------
def _timm_models(families):
    import timm

    for module in sorted(timm.list_modules()):
        if families and module not in families:
            continue
        names = timm.list_models(module=module)
        if names:  # the first name: on a 2-core machine one model per module is what a run can afford
            yield f"timm:{names[0]}"


def _torchvision_models(families):
    import torchvision.models as models

    for name in sorted(models.list_models()):
        if families and name not in families:
            continue
        yield f"torchvision:{name}"


def _transformers_models(families):
    import transformers

    root = os.path.join(os.path.dirname(transformers.__file__), "models")
    for family in sorted(os.listdir(root)):
        if families and family not in families:
            continue
        if not os.path.exists(os.path.join(root, family, f"modeling_{family}.py")):
            continue
        try:
            module = importlib.import_module(f"transformers.models.{family}.modeling_{family}")
        except Exception:
            continue
        for name in _pretrained_classes(module):
            yield f"transformers:{family}:{name}"


def _pretrained_classes(module) -> list[str]:
    from transformers import PreTrainedModel

    return [
        name for name, cls in sorted(vars(module).items())
        if inspect.isclass(cls) and issubclass(cls, PreTrainedModel) and cls.__module__ == module.__name__
        and getattr(cls, "config_class", None) is not None and not inspect.isabstract(cls)
    ]


def build(label: str):
    """[the model] a label names, built on the meta device (on the CPU if that fails)."""
    try:
        return _build(label, "meta")
    except Exception:  # a builder that reads its tensors' values (`.item()`, copies): build it for real
        return _build(label, "cpu")


def _build(label: str, device: str):
    import torch

    library, _, name = label.partition(":")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with torch.device(device):
            if library == "timm":
                import timm

                return [timm.create_model(name, pretrained=False)]
            if library == "torchvision":
                import torchvision.models as models

                try:  # no downloads: detection builders fetch a backbone's weights unless told not to
                    return [models.get_model(name, weights=None, weights_backbone=None)]
                except TypeError:
                    return [models.get_model(name, weights=None)]
            if library == "transformers":
                family, _, class_name = name.partition(":")
                cls = getattr(importlib.import_module(f"transformers.models.{family}.modeling_{family}"), class_name)
                return [cls(cls.config_class())]
    raise ValueError(f"unknown library in {label}")


# -- discovery (run in a child process of the measuring interpreter) --------------------------------------------
def discover(library: str, families: list[str], out: str) -> None:
    prefix = library + "."
    models = {"timm": _timm_models, "torchvision": _torchvision_models, "transformers": _transformers_models}[library]
    found: dict[str, list] = {}
    failed = []
    started = time.perf_counter()
    for label in models(set(families)):
        try:
            built = build(label)
        except Exception as error:
            failed.append(f"{label}: {type(error).__name__}: {str(error)[:120]}")
            continue
        for index, model in enumerate(built):
            if model is None:
                continue
            for path, sub in model.named_modules():
                cls = type(sub)
                key = f"{cls.__module__}:{cls.__qualname__}"
                if cls.__module__.startswith(prefix) and "." not in cls.__qualname__ and key not in found:
                    found[key] = [label, index, path]
    with open(out, "w", encoding="utf-8") as handle:
        json.dump({"factories": found, "failed": failed, "seconds": time.perf_counter() - started}, handle)


# -- in the dynamic checker's worker ----------------------------------------------------------------------------
@functools.lru_cache(maxsize=1)
def _table() -> list:
    with open(os.environ[ENV], encoding="utf-8") as handle:
        return json.load(handle)["table"]


def make(number: int):
    label, index, path = _table()[number]
    # Built anew each time: torch.jit.script fails on a second scripting of the same instance after the checker
    # resets torch's compilation state ("_create_methods_and_properties(): incompatible function arguments").
    return build(label)[index].get_submodule(path)


def __getattr__(name: str):
    if name.startswith("f") and name[1:].isdigit():
        return functools.partial(make, int(name[1:]))
    raise AttributeError(name)


if __name__ == "__main__":
    discover(sys.argv[1], sys.argv[3:], sys.argv[2])
