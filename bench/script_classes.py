"""Worker for bench/fix_share.py: build and script every nn.Module class of some modules, one by one.

    python bench/script_classes.py ROOT MODULE [MODULE ...] > results.json

Run by the interpreter that has the library's dependencies, with ROOT (the directory holding the package, fixed or
not) first on sys.path. A class is built with no arguments when its constructor needs none, with a small
configuration object when its first parameter is `config` (a transformers model: the `PretrainedConfig` subclass of
its package, sized down), and otherwise with 8 for every required parameter (0 for `*_idx`/`*index`). A class that
does not build, or whose `forward` is nn.Module's own, is no case. Prints {"module.Class": "ok" | "rejected: ..."}.
"""

from __future__ import annotations

import importlib
import inspect
import json
import os
import signal
import sys
import warnings

SMALL_CONFIG = dict(hidden_size=32, num_attention_heads=4, num_key_value_heads=2, intermediate_size=37,
                    num_hidden_layers=2, vocab_size=99, max_position_embeddings=64, head_dim=8, d_model=32,
                    encoder_layers=1, decoder_layers=1, encoder_attention_heads=4, decoder_attention_heads=4,
                    encoder_ffn_dim=37, decoder_ffn_dim=37, num_layers=2, num_heads=4, d_ff=37, d_kv=8,
                    image_size=32, patch_size=8, num_channels=3)


class Timeout(Exception):
    pass


def _alarm(signum, frame):
    raise Timeout()


def _config_for(module):
    from transformers import PretrainedConfig

    package = module.__name__.rsplit(".", 1)[0]
    for name in sorted(os.listdir(os.path.dirname(module.__file__))):
        if name.startswith("configuration_") and name.endswith(".py"):
            config_module = importlib.import_module(f"{package}.{name[:-3]}")
            for value in vars(config_module).values():
                if isinstance(value, type) and issubclass(value, PretrainedConfig) and value.__module__ == config_module.__name__:
                    config = value()
                    for key, setting in SMALL_CONFIG.items():
                        if hasattr(config, key):
                            setattr(config, key, setting)
                    return config
    return None


def _build(cls, module):
    parameters = [p for p in list(inspect.signature(cls.__init__).parameters.values())[1:]
                  if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY) and p.default is p.empty]
    if not parameters:
        return cls()
    if parameters[0].name == "config":
        config = _config_for(module)
        if config is None:
            return None
        rest = {p.name: (0 if p.name.endswith(("idx", "index")) else 8) for p in parameters[1:]}
        return cls(config, **rest)
    return cls(**{p.name: (0 if p.name.endswith(("idx", "index")) else 8) for p in parameters})


def main() -> None:
    root, names = sys.argv[1], sys.argv[2:]
    sys.path.insert(0, root)
    warnings.simplefilter("ignore")
    import torch

    torch.manual_seed(0)
    signal.signal(signal.SIGALRM, _alarm)
    results: dict[str, str] = {}
    for name in names:
        try:
            module = importlib.import_module(name)
        except BaseException as error:  # noqa: BLE001 - a module that does not import holds no case
            print(f"script_classes: {name} does not import: {type(error).__name__}: {error}"[:300], file=sys.stderr)
            continue
        for attribute, cls in sorted(vars(module).items()):
            if not (isinstance(cls, type) and issubclass(cls, torch.nn.Module) and cls.__module__ == name):
                continue
            if inspect.isabstract(cls) or getattr(cls, "forward", None) is getattr(torch.nn.Module, "forward"):
                continue
            signal.alarm(20)
            try:
                instance = _build(cls, module)
            except BaseException:  # noqa: BLE001 - a class we cannot build is no case
                instance = None
            finally:
                signal.alarm(0)
            if instance is None:
                continue
            signal.alarm(60)
            try:
                torch.jit.script(instance)
                results[f"{name}.{attribute}"] = "ok"
            except Timeout:
                results[f"{name}.{attribute}"] = "timeout"
            except BaseException as error:  # noqa: BLE001
                first = (str(error).strip().splitlines() or [type(error).__name__])[0]
                results[f"{name}.{attribute}"] = f"rejected: {type(error).__name__}: {first}"[:300]
            finally:
                signal.alarm(0)
    json.dump(results, sys.stdout, indent=1, sort_keys=True)


if __name__ == "__main__":
    main()
