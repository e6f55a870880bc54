"""Do jitlint's fixes break real models? Applies `--fix`, and separately `--fix --unsafe-fixes`, to copies of real
libraries, then imports every changed module, builds each module class of it that builds with default arguments,
runs it on random inputs, and compares the eager outputs with the unfixed library's.

    python bench/fix_safety.py --jitlint /work/venvs/user/bin/jitlint --python /work/venvs/user-bench/bin/python \\
        --work /tmp/fix-safety efficientnet_pytorch vit_pytorch ...

`--python` is an interpreter that can import the libraries (a virtualenv with `--system-site-packages` over the
pinned torch, plus what the libraries import, installed with `pip install --no-deps`); each variant of a library is
imported in a child process of it, with the copy first on `sys.path`. torchvision's operators are declared from
`bench/agreement_torchvision_ops.py` (its CUDA `_C.so` does not load with the CPU torch).

Per library, the table says: the files each fix run changed, the model classes built from the changed modules (with
an input found that runs them unfixed), the outputs compared (deterministic across two unfixed runs), how many
models broke (safe fixes: any output that changed, or a module that stopped importing, building or running; unsafe
fixes: a module that stopped importing, building or running; output changes are listed), and how many of the built
models `torch.jit.script` compiles before and after.
"""

from __future__ import annotations

import argparse
import difflib
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
# where the unpacked libraries other than timm and torchvision are (`<dir>/<name>/<package>`); JITLINT_FIX_SAFETY_MORE
# names another directory laid out the same way
MORE = Path(os.environ.get("JITLINT_FIX_SAFETY_MORE", "/work/corpus/more"))

# name -> (the directory that holds the packages, the packages to copy and fix, extra directories to copy)
LIBRARIES = {
    "timm": (Path("/work/corpus/timm"), ["timm"], []),
    "torchvision": (Path("/work/corpus/torchvision"), ["torchvision"], ["torchvision.libs"]),
    **{name: (MORE / name, [package], []) for name, package in (
        ("efficientnet_pytorch", "efficientnet_pytorch"),
        ("pretrainedmodels", "pretrainedmodels"),
        ("vit_pytorch", "vit_pytorch"),
        ("perceiver_pytorch", "perceiver_pytorch"),
        ("x_transformers", "x_transformers"),
        ("facenet_pytorch", "facenet_pytorch"),
        ("pytorchcv", "pytorchcv"),
        ("torchdiffeq", "torchdiffeq"),
        ("encodec", "encodec"),
        ("openai_whisper", "whisper"),
        ("e3nn", "e3nn"),
        ("denoising_diffusion_pytorch", "denoising_diffusion_pytorch"),
        ("ultralytics", "ultralytics"),
        ("yolov5", "yolov5"),
        ("rwkv", "rwkv"),
        ("asteroid", "asteroid"),
        ("x_unet", "x_unet"),
        ("tab_transformer_pytorch", "tab_transformer_pytorch"),
        ("timesformer_pytorch", "timesformer_pytorch"),
    )},
}
VARIANTS = ("safe", "unsafe")


def _copy(library: str, destination: Path) -> list[str]:
    source, packages, extra = LIBRARIES[library]
    destination.mkdir(parents=True, exist_ok=True)
    for name in packages + extra:
        shutil.copytree(source / name, destination / name, symlinks=True,
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    return packages


def _python_files(root: Path, packages: list[str]) -> dict[str, str]:
    out = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            try:
                out[str(path.relative_to(root))] = path.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError):
                continue
    return out


def _module_name(relative: str) -> str:
    parts = list(Path(relative).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _fix(jitlint: str, root: Path, packages: list[str], unsafe: bool, log: Path) -> dict:
    command = [jitlint, "check", "--no-cache", "--fix", "--exit-zero", "-q",
               *(["--unsafe-fixes"] if unsafe else []), *packages]
    started = time.monotonic()
    done = subprocess.run(command, cwd=root, capture_output=True, text=True)
    log.write_text(done.stdout + "\n--- stderr ---\n" + done.stderr)
    refused = [line for line in done.stderr.splitlines() if " not fixed: " in line]
    return {"seconds": round(time.monotonic() - started, 1), "returncode": done.returncode, "refused": len(refused)}


def _child(python: str, root: Path, modules: list[str], out: Path, inputs: Path | None, timeout: float) -> dict:
    out.mkdir(parents=True, exist_ok=True)
    command = [python, str(Path(__file__).resolve()), "--child", str(root), "--out", str(out),
               "--modules", ",".join(modules)]
    if inputs is not None:
        command += ["--inputs", str(inputs)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
    result = out / "result.json"
    if not result.exists():
        return {"crashed": done.stderr[-2000:]}
    return json.loads(result.read_text())


def run_library(library: str, args) -> dict:
    work = Path(args.work) / library
    shutil.rmtree(work, ignore_errors=True)
    packages = _copy(library, work / "before")
    for variant in VARIANTS:
        _copy(library, work / variant)
    original = _python_files(work / "before", packages)
    report: dict = {"library": library}
    changed: dict[str, list[str]] = {}
    for variant in VARIANTS:
        report[f"fix_{variant}"] = _fix(args.jitlint, work / variant, packages, variant == "unsafe",
                                        work / f"{variant}.log")
        now = _python_files(work / variant, packages)
        changed[variant] = sorted(name for name, text in now.items() if original.get(name) != text)
        with open(work / f"{variant}.diff", "w") as diff:
            for name in changed[variant]:
                diff.writelines(difflib.unified_diff(original[name].splitlines(keepends=True),
                                                     now[name].splitlines(keepends=True), f"a/{name}", f"b/{name}"))
        report[f"files_{variant}"] = len(changed[variant])
    modules = sorted({_module_name(name) for variant in VARIANTS for name in changed[variant]})
    report["modules"] = len(modules)
    if not modules:
        return report
    before = _child(args.python, work / "before", modules, work / "out" / "before", None, args.timeout)
    (work / "inputs.json").write_text(json.dumps(before.get("models", {})))
    report["before"] = _summary(before)
    for variant in VARIANTS:
        variant_modules = sorted({_module_name(name) for name in changed[variant]})
        after = _child(args.python, work / variant, variant_modules, work / "out" / variant, work / "inputs.json",
                       args.timeout)
        report[variant] = _compare(before, after, variant_modules, work / "out" / "before", work / "out" / variant,
                                   strict=variant == "safe")
    return report


def _summary(result: dict) -> dict:
    models = result.get("models", {})
    return {
        "import_failed": sorted(result.get("import_failed", {})),
        "built": sum(1 for m in models.values() if m.get("ran")),
        "scripted": sum(1 for m in models.values() if m.get("ran") and m.get("scripted")),
        "crashed": result.get("crashed", ""),
    }


def _compare(before: dict, after: dict, modules: list[str], before_out: Path, after_out: Path, strict: bool) -> dict:
    import torch

    models_before = {name: m for name, m in before.get("models", {}).items()
                     if m.get("ran") and name.rsplit(".", 1)[0] in modules}
    models_after = after.get("models", {})
    broken, changed_outputs = [], []
    compared = scripted_before = scripted_after = 0
    for name, model in sorted(models_before.items()):
        scripted_before += bool(model.get("scripted"))
        module = name.rsplit(".", 1)[0]
        if module in after.get("import_failed", {}):
            broken.append((name, "import: " + after["import_failed"][module]))
            continue
        now = models_after.get(name)
        if now is None or not now.get("built"):
            broken.append((name, "build: " + (now or {}).get("error", "not built")))
            continue
        if not now.get("ran"):
            broken.append((name, "run: " + now.get("error", "")))
            continue
        scripted_after += bool(now.get("scripted"))
        if not model.get("deterministic"):
            continue
        compared += 1
        old = torch.load(before_out / f"{name}.pt")
        new = torch.load(after_out / f"{name}.pt")
        if not _same(old, new):
            changed_outputs.append(name)
            if strict:
                broken.append((name, "output changed"))
    for module, error in sorted(after.get("import_failed", {}).items()):
        if module not in before.get("import_failed", {}) and not any(b[0].startswith(module + ".") for b in broken):
            broken.append((module, "import: " + error))
    return {"built": len(models_before), "compared": compared, "broken": broken, "changed_outputs": changed_outputs,
            "scripted_before": scripted_before, "scripted_after": scripted_after,
            "crashed": after.get("crashed", "")}


def _same(old, new) -> bool:
    import torch

    if len(old) != len(new):
        return False
    for a, b in zip(old, new):
        if isinstance(a, torch.Tensor) and isinstance(b, torch.Tensor):
            if a.shape != b.shape or a.dtype != b.dtype:
                return False
            if a.is_floating_point() or a.is_complex():
                if not torch.allclose(a, b, rtol=1e-5, atol=1e-6, equal_nan=True):
                    return False
            elif not torch.equal(a, b):
                return False
        elif a != b:
            return False
    return True


# -- the child: import, build, run, script ------------------------------------------------------------------------
INPUTS = [  # candidate positional arguments, tried in order until the unfixed model runs
    ("image 64", lambda t: (t.randn(2, 3, 64, 64),)),
    ("image 224", lambda t: (t.randn(1, 3, 224, 224),)),
    ("image 32", lambda t: (t.randn(2, 3, 32, 32),)),
    ("features 16", lambda t: (t.randn(2, 16),)),
    ("sequence 8x16", lambda t: (t.randn(2, 8, 16),)),
    ("tokens", lambda t: (t.randint(0, 100, (2, 8)),)),
    ("audio", lambda t: (t.randn(1, 1, 16000),)),
    ("feature map 64", lambda t: (t.randn(2, 64, 16, 16),)),
    ("two images 64", lambda t: (t.randn(2, 3, 64, 64), t.randn(2, 3, 64, 64))),
    ("two sequences", lambda t: (t.randn(2, 8, 16), t.randn(2, 8, 16))),
    ("time and state", lambda t: (t.tensor(0.5), t.randn(2, 16))),
]


def _flatten(value, out: list) -> list:
    import torch

    if isinstance(value, torch.Tensor):
        out.append(value.detach().clone())
    elif isinstance(value, (list, tuple)):
        out.append(f"seq{len(value)}")
        for item in value:
            _flatten(item, out)
    elif isinstance(value, dict):
        out.append(f"dict{sorted(map(str, value))}")
        for key in sorted(value, key=str):
            _flatten(value[key], out)
    elif hasattr(value, "__dataclass_fields__") or hasattr(value, "to_tuple"):
        items = value.to_tuple() if hasattr(value, "to_tuple") else tuple(vars(value).values())
        _flatten(items, out)
    elif isinstance(value, (int, float, bool, str, type(None))):
        out.append(value)
    else:
        out.append(type(value).__name__)
    return out


class _Timeout(Exception):
    pass


def _alarm(seconds: int):
    import signal

    def raise_timeout(*_):
        raise _Timeout(f"over {seconds} s")

    signal.signal(signal.SIGALRM, raise_timeout)
    signal.alarm(seconds)


def _buildable(cls) -> bool:
    import inspect

    try:
        signature = inspect.signature(cls.__init__)
    except (TypeError, ValueError):
        return False
    return all(p.default is not p.empty or p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
               for p in list(signature.parameters.values())[1:])


def _seed(seed: int) -> None:
    import random

    import numpy
    import torch

    random.seed(seed)
    numpy.random.seed(seed)
    torch.manual_seed(seed)


def child(root: str, out: str, modules: list[str], inputs_path: str | None) -> None:
    import importlib
    import inspect
    import signal
    import warnings

    warnings.filterwarnings("ignore")
    sys.path.insert(0, str(HERE))
    import agreement_torchvision_ops  # noqa: F401  (declares torchvision's operators before it is imported)

    sys.path.insert(0, root)
    sys.path.append(str(LIBRARIES["torchvision"][0]))  # what the libraries import torchvision from (a copy wins)
    import torch

    torch.set_num_threads(1)
    chosen = json.loads(Path(inputs_path).read_text()) if inputs_path else None
    result: dict = {"import_failed": {}, "models": {}}
    output = Path(out)
    for name in modules:
        try:
            _alarm(120)
            module = importlib.import_module(name)
        except BaseException as error:  # noqa: BLE001  (a library's import may raise anything, SystemExit too)
            result["import_failed"][name] = f"{type(error).__name__}: {str(error)[:200]}"
            continue
        finally:
            signal.alarm(0)
        for attribute, cls in sorted(vars(module).items()):
            if not (inspect.isclass(cls) and issubclass(cls, torch.nn.Module) and cls.__module__ == name):
                continue
            key = f"{name}.{attribute}"
            if chosen is not None and key not in chosen:
                continue
            if chosen is None and (inspect.isabstract(cls) or not _buildable(cls)):
                continue
            entry = result["models"][key] = {"built": False, "ran": False}
            try:
                _alarm(60)
                _seed(0)
                model = cls().eval()
                entry["built"] = True
            except BaseException as error:  # noqa: BLE001
                entry["error"] = f"{type(error).__name__}: {str(error)[:200]}"
                continue
            finally:
                signal.alarm(0)
            candidates = range(len(INPUTS)) if chosen is None else (
                [chosen[key]["input"]] if chosen[key].get("ran") else [])
            for index in candidates:
                try:
                    _alarm(60)
                    runs = []
                    for _ in range(1 if chosen is not None else 2):
                        _seed(1)
                        arguments = INPUTS[index][1](torch)
                        with torch.no_grad():
                            runs.append(_flatten(model(*arguments), []))
                    entry.update(ran=True, input=index)
                    entry["deterministic"] = len(runs) == 1 or _same(runs[0], runs[1])
                    torch.save(runs[0], output / f"{key}.pt")
                    break
                except BaseException as error:  # noqa: BLE001
                    entry["error"] = f"{type(error).__name__}: {str(error)[:200]}"
                finally:
                    signal.alarm(0)
            if entry["ran"]:
                entry.pop("error", None)
                try:
                    _alarm(60)
                    torch.jit.script(model)
                    entry["scripted"] = True
                except BaseException:  # noqa: BLE001
                    entry["scripted"] = False
                finally:
                    signal.alarm(0)
            del model
    (output / "result.json").write_text(json.dumps(result, indent=1))


def markdown(reports: list[dict]) -> str:
    lines = ["| library | files changed (safe / unsafe) | models built | outputs compared | broken (safe / unsafe) "
             "| unsafe output changes | script before → after (safe / unsafe) | fixes refused (safe / unsafe) |",
             "|---|---|---|---|---|---|---|---|"]
    for r in reports:
        safe, unsafe = r.get("safe", {}), r.get("unsafe", {})
        lines.append(
            f"| {r['library']} | {r.get('files_safe', 0)} / {r.get('files_unsafe', 0)} | "
            f"{r.get('before', {}).get('built', 0)} | {safe.get('compared', 0)} / {unsafe.get('compared', 0)} | "
            f"{len(safe.get('broken', []))} / {len(unsafe.get('broken', []))} | "
            f"{len(unsafe.get('changed_outputs', []))} | "
            f"{safe.get('scripted_before', 0)} → {safe.get('scripted_after', 0)} / "
            f"{unsafe.get('scripted_before', 0)} → {unsafe.get('scripted_after', 0)} | "
            f"{r.get('fix_safe', {}).get('refused', 0)} / {r.get('fix_unsafe', {}).get('refused', 0)} |")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("libraries", nargs="*")
    parser.add_argument("--jitlint", default="jitlint")
    parser.add_argument("--python", default=sys.executable)
    parser.add_argument("--work", default="/tmp/fix-safety")
    parser.add_argument("--timeout", type=float, default=3600)
    parser.add_argument("--json", help="write the reports here")
    parser.add_argument("--child")
    parser.add_argument("--out")
    parser.add_argument("--modules")
    parser.add_argument("--inputs")
    args = parser.parse_args()
    if args.child:
        child(args.child, args.out, args.modules.split(","), args.inputs)
        return
    reports = []
    for library in args.libraries or list(LIBRARIES):
        started = time.monotonic()
        report = run_library(library, args)
        report["seconds"] = round(time.monotonic() - started)
        reports.append(report)
        print(json.dumps(report), flush=True)
        if args.json:
            Path(args.json).write_text(json.dumps(reports, indent=1))
    print(markdown(reports))


if __name__ == "__main__":
    main()
