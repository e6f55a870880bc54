"""Worker for bench/fix_share.py: script a library's nn.Module classes as the agreement builds them, one by one.

    python bench/script_built.py ROOT LIBRARY [--labels FILE] [--modules M ...] > results.json

Run by the interpreter that has the library's dependencies, with ROOT (the directory holding the package, fixed or
not) first on sys.path, so the copy under ROOT is what gets imported. Classes are built the way
`bench/agreement_factories.py` builds them for the agreement, with the library's own builders and nothing invented:

- timm: `timm.create_model(name)` for the first model name of each model module;
- torchvision: every builder of `torchvision.models.list_models()`, `weights=None`;
- pytorchcv: the first builder of each model module of `pytorchcv.model_provider`;
- transformers: every `PreTrainedModel` subclass of the families given with `--families` (its `config_class()`);
- vit_pytorch, x_transformers: the constructor calls of their READMEs, sized down (`BUILDERS` below);
- every library: a class of the given modules whose constructor needs no argument, built with none.

Models are built on the meta device (on the CPU when that fails). For each class of the library found in a built
model (its first instance, in the builders' order), a fresh child process (`os.fork` of this one, which has
scripted nothing) runs `torch.jit.script` on that instance, so a class torch fails on cannot poison the next one.
Prints {"module.Class": {"status": "ok" | "rejected: <type>: <torch's first line>" | "timeout", "built": label}}.
`--labels FILE` (a JSON list) builds only those labels; `--modules` keeps only classes of those modules.
"""

from __future__ import annotations

import argparse
import importlib
import inspect
import json
import os
import pkgutil
import select
import signal
import sys
import warnings

SCRIPT_SECONDS = 90
BUILD_SECONDS = 120


class Timeout(Exception):
    pass


def _alarm(signum, frame):
    raise Timeout()


# -- builders: each label -> a callable building one model --------------------------------------------------------
def _timm_labels(families):
    import timm

    for module in sorted(timm.list_modules()):
        names = timm.list_models(module=module)
        if names:
            yield f"timm:{names[0]}", lambda name=names[0]: timm.create_model(name, pretrained=False)


def _torchvision_labels(families):
    import torchvision.models as models

    def make(name):
        try:
            return models.get_model(name, weights=None, weights_backbone=None)
        except TypeError:
            return models.get_model(name, weights=None)

    for name in sorted(models.list_models()):
        yield f"torchvision:{name}", lambda name=name: make(name)


def _pytorchcv_labels(families):
    from pytorchcv.model_provider import _models

    first: dict[str, str] = {}
    for name, builder in sorted(_models.items()):
        first.setdefault(builder.__module__, name)
    for module, name in sorted(first.items()):
        yield f"pytorchcv:{name}", lambda name=name: _models[name]()


def _transformers_labels(families):
    import transformers
    from transformers import PreTrainedModel

    root = os.path.join(os.path.dirname(transformers.__file__), "models")
    for family in sorted(families or os.listdir(root)):
        if not os.path.exists(os.path.join(root, family, f"modeling_{family}.py")):
            continue
        try:
            module = importlib.import_module(f"transformers.models.{family}.modeling_{family}")
        except Exception:
            continue
        for name, cls in sorted(vars(module).items()):
            if (inspect.isclass(cls) and issubclass(cls, PreTrainedModel) and cls.__module__ == module.__name__
                    and getattr(cls, "config_class", None) is not None and not inspect.isabstract(cls)):
                yield f"transformers:{family}:{name}", lambda cls=cls: cls(cls.config_class())


def _vit_pytorch_labels(families):
    import vit_pytorch

    small = dict(image_size=32, patch_size=8, num_classes=10, dim=32, depth=1, heads=2, mlp_dim=64)
    yield "vit_pytorch:ViT", lambda: vit_pytorch.ViT(**small)
    yield "vit_pytorch:SimpleViT", lambda: vit_pytorch.SimpleViT(**small)
    from vit_pytorch.cait import CaiT

    yield "vit_pytorch:CaiT", lambda: CaiT(cls_depth=1, **small)
    from vit_pytorch.deepvit import DeepViT

    yield "vit_pytorch:DeepViT", lambda: DeepViT(**small)


def _x_transformers_labels(families):
    from x_transformers import Decoder, Encoder, TransformerWrapper

    yield "x_transformers:decoder", lambda: TransformerWrapper(
        num_tokens=99, max_seq_len=32, attn_layers=Decoder(dim=32, depth=1, heads=2))
    yield "x_transformers:encoder", lambda: TransformerWrapper(
        num_tokens=99, max_seq_len=32, attn_layers=Encoder(dim=32, depth=1, heads=2))


BUILDERS = {"timm": _timm_labels, "torchvision": _torchvision_labels, "pytorchcv": _pytorchcv_labels,
            "transformers": _transformers_labels, "vit_pytorch": _vit_pytorch_labels,
            "x_transformers": _x_transformers_labels}


def _build(make):
    import torch

    signal.alarm(BUILD_SECONDS)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for device in ("meta", "cpu"):
                try:
                    with torch.device(device):
                        return make()
                except Timeout:
                    raise
                except Exception:  # a builder that reads its tensors' values: build it for real
                    if device == "cpu":
                        raise
    finally:
        signal.alarm(0)


# -- scripting one instance in a fresh child ----------------------------------------------------------------------
def _script_in_child(instance) -> str:
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: script, report, leave without running any cleanup of the parent's
        os.close(read)
        import torch

        try:
            torch.jit.script(instance)
            status = "ok"
        except BaseException as error:  # noqa: BLE001
            first = (str(error).strip().splitlines() or [type(error).__name__])[0]
            status = f"rejected: {type(error).__name__}: {first}"[:300]
        os.write(write, status.encode("utf-8", "replace"))
        os._exit(0)
    os.close(write)
    ready, _, _ = select.select([read], [], [], SCRIPT_SECONDS)
    if not ready:
        os.kill(pid, signal.SIGKILL)
        status = "timeout"
    else:
        chunks = []
        while chunk := os.read(read, 4096):
            chunks.append(chunk)
        status = b"".join(chunks).decode("utf-8", "replace") or "crashed"
    os.close(read)
    os.waitpid(pid, 0)
    return status


def _library_modules(library: str) -> list[str]:
    package = importlib.import_module(library)
    names = []
    for info in pkgutil.walk_packages(package.__path__, library + "."):
        if ".test" not in info.name and not info.ispkg:
            names.append(info.name)
    return names


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("root")
    parser.add_argument("library")
    parser.add_argument("--labels", help="a JSON list of the labels to build (default: all)")
    parser.add_argument("--modules", nargs="*", help="keep only classes of these modules")
    parser.add_argument("--families", nargs="*", default=[], help="transformers model families")
    parser.add_argument("--no-noargs", action="store_true", help="skip the classes built with no arguments")
    args = parser.parse_args()
    sys.path.insert(0, args.root)
    warnings.simplefilter("ignore")
    out, sys.stdout = sys.stdout, sys.stderr  # what the library prints while it imports is not the result
    import torch

    torch.set_num_threads(1)
    signal.signal(signal.SIGALRM, _alarm)
    wanted_labels = set(json.load(open(args.labels))) if args.labels else None
    wanted_modules = set(args.modules) if args.modules is not None else None
    prefix = args.library + "."
    results: dict[str, dict] = {}

    def consider(instance, label):
        cls = type(instance)
        name = f"{cls.__module__}.{cls.__qualname__}"
        if (not cls.__module__.startswith(prefix) or "." in cls.__qualname__ or name in results
                or (wanted_modules is not None and cls.__module__ not in wanted_modules)):
            return
        if getattr(cls, "forward", None) is getattr(torch.nn.Module, "forward"):
            return
        results[name] = {"status": _script_in_child(instance), "built": label}
        print(f"script_built: {name}: {results[name]['status'][:100]}", file=sys.stderr, flush=True)

    builders = BUILDERS.get(args.library)
    if builders is not None:
        try:
            labels = list(builders(args.families))
        except Exception as error:  # noqa: BLE001
            print(f"script_built: the {args.library} builders fail: {type(error).__name__}: {error}"[:300],
                  file=sys.stderr)
            labels = []
        for label, make in labels:
            if wanted_labels is not None and label not in wanted_labels:
                continue
            try:
                model = _build(make)
            except BaseException as error:  # noqa: BLE001 - a model that does not build holds no case
                print(f"script_built: {label} does not build: {type(error).__name__}: {error}"[:300], file=sys.stderr)
                continue
            for _, sub in model.named_modules():
                consider(sub, label)
    if not args.no_noargs:
        if wanted_modules is not None:
            modules = sorted(wanted_modules)
        elif args.library == "transformers":  # too big to import whole: the families' modeling modules
            modules = [f"transformers.models.{f}.modeling_{f}" for f in args.families]
        else:
            modules = _library_modules(args.library)
        for module_name in modules:
            try:
                module = importlib.import_module(module_name)
            except BaseException:  # noqa: BLE001
                continue
            for attribute, cls in sorted(vars(module).items()):
                if not (isinstance(cls, type) and issubclass(cls, torch.nn.Module) and cls.__module__ == module_name):
                    continue
                if f"{module_name}.{cls.__qualname__}" in results or inspect.isabstract(cls):
                    continue
                try:
                    needed = [p for p in list(inspect.signature(cls.__init__).parameters.values())[1:]
                              if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD) and p.default is p.empty]
                except (TypeError, ValueError):
                    continue
                if needed:
                    continue
                try:
                    instance = _build(cls)
                except BaseException:  # noqa: BLE001
                    continue
                consider(instance, "noargs")
    json.dump(results, out, indent=1, sort_keys=True)


if __name__ == "__main__":
    main()
