"""The fx dynamic checker's child process: import user code, build modules, run `torch.fx.symbolic_trace`, report
every failure, not only the first.

Run as a script (`python dynamic_worker.py LOG`) by the interpreter that has torch: the standard library and torch
only. JSON lines over private copies of stdin/stdout, as the script checker's worker (`jitlint/dynamic/worker.py`).

One request per linted file:
    {"file", "module", "root", "classes": [names], "factories": {"mod:Cls": "mod:fn"}, "user_roots": [dirs],
     "leaf_modules": [qualified], "autowrap_functions": [qualified], "library_leaves": bool, "max_attempts": int}
One response each:
    {"import_error": str | null, "classes": {name: {"built": bool, "reason": str, "traced": bool,
     "errors": [{"message", "kind", "file", "line", "opaque"}], "opaque": [what was made opaque]}}}

symbolic_trace stops at the first error and its messages carry no location (pytorch/pytorch#47151): the location
is the innermost traceback frame in the user's files. After each error the function of that frame is wrapped
(`torch.fx.wrap` semantics: recorded as one call) or, for a method of a submodule, the submodule's class is made a
leaf, and the model is traced again, so one run finds each failure in turn.
"""

from __future__ import annotations

import importlib
import inspect
import json
import math
import os
import sys
import traceback
import warnings


def _redirect(log_path: str):
    protocol_in = os.fdopen(os.dup(0), "r", encoding="utf-8")
    protocol_out = os.fdopen(os.dup(1), "w", encoding="utf-8")
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    log = os.open(log_path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    os.dup2(log, 1)
    os.dup2(log, 2)
    sys.stdout = os.fdopen(1, "w", buffering=1, encoding="utf-8", errors="replace", closefd=False)
    sys.stderr = os.fdopen(2, "w", buffering=1, encoding="utf-8", errors="replace", closefd=False)
    sys.stdin = open(os.devnull, encoding="utf-8")
    return protocol_in, protocol_out


def _resolve(qualified: str):
    """`pkg.mod.Name` (or `pkg.mod:Name`) to the object, or None."""
    module_name, _, attribute = qualified.replace(":", ".").rpartition(".")
    while module_name:
        try:
            target = importlib.import_module(module_name)
        except Exception:
            attribute = module_name.rpartition(".")[2] + "." + attribute
            module_name = module_name.rpartition(".")[0]
            continue
        try:
            for part in attribute.split("."):
                target = getattr(target, part)
        except AttributeError:
            return None
        return target
    return None


def _missing_arguments(cls) -> list[str]:
    try:
        signature = inspect.signature(cls.__init__)
    except (TypeError, ValueError):
        return []
    return [
        name for name, parameter in list(signature.parameters.items())[1:]
        if parameter.default is inspect.Parameter.empty
        and parameter.kind not in (parameter.VAR_POSITIONAL, parameter.VAR_KEYWORD)
    ]


class Tracing:
    def __init__(self, torch, request: dict) -> None:
        import torch.fx as fx
        from torch.fx import _symbolic_trace

        self.torch = torch
        self.fx = fx
        self.registry = _symbolic_trace._wrapped_fns_to_patch
        self.user_roots = [os.path.realpath(root) for root in request["user_roots"]]
        self.leaf_classes: list[type] = [c for c in map(_resolve, request.get("leaf_modules", [])) if isinstance(c, type)]
        self.functions = [f for f in map(_resolve, request.get("autowrap_functions", [])) if callable(f)]
        self.modules = [math]
        if request.get("library_leaves"):
            self._library_leaves()
        self.added: list[tuple[int, str]] = []  # our entries in torch.fx's wrap registry, removed after each file

    def _library_leaves(self) -> None:
        """What `create_feature_extractor` and timm's tracer add: torchvision.ops modules as leaves and its
        functions autowrapped; timm's registered notrace modules and functions."""
        try:
            import torchvision.ops
            from torchvision.models.feature_extraction import _get_leaf_modules_for_ops

            self.leaf_classes += list(_get_leaf_modules_for_ops())
            self.modules.append(torchvision.ops)
        except Exception:
            pass
        fx_module = sys.modules.get("timm.layers._fx")
        if fx_module is not None:
            self.leaf_classes += list(getattr(fx_module, "_leaf_modules", ()))
            self.functions += [f for f in getattr(fx_module, "_autowrap_functions", ()) if callable(f)]

    def is_user_file(self, path: str) -> bool:
        real = os.path.realpath(path)
        return any(real.startswith(root + os.sep) for root in self.user_roots) and "site-packages" not in real

    def tracer(self, extra_leaves: list[type]):
        leaves = tuple(self.leaf_classes + extra_leaves)
        base = self.fx.Tracer

        class LeafTracer(base):
            def is_leaf_module(self, module, qualname):
                return isinstance(module, leaves) or super().is_leaf_module(module, qualname)

        return LeafTracer(autowrap_modules=tuple(self.modules), autowrap_functions=tuple(self.functions))

    def wrap(self, function) -> bool:
        """Record calls of a user function as one node from now on, in every user module that names it."""
        done = False
        for module in list(sys.modules.values()):
            path = getattr(module, "__file__", None)
            if not path or not self.is_user_file(path):
                continue
            namespace = module.__dict__
            for name, value in list(namespace.items()):
                if value is function:
                    key = (id(namespace), name)
                    if key not in self.registry:
                        self.registry[key] = namespace
                        self.added.append(key)
                        done = True
        return done

    def restore(self) -> None:
        for key in self.added:
            self.registry.pop(key, None)
        self.added.clear()

    def trace_until_clean(self, instance, max_attempts: int) -> dict:
        torch = self.torch
        errors: list[dict] = []
        opaque: list[str] = []
        leaves: list[type] = []
        traced = False
        for _attempt in range(max_attempts):
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    self.tracer(leaves).trace(instance)
                traced = True
                break
            except Exception as error:
                text = str(error)
                message = text.strip().splitlines()[0] if text.strip() else type(error).__name__
                frames = [(frame, line) for frame, line in _frames(error) if self.is_user_file(frame.f_code.co_filename)]
                entry = {"message": f"{type(error).__name__}: {message}"[:300], "kind": type(error).__name__,
                         "file": None, "line": None, "opaque": None}
                errors.append(entry)
                if not frames:
                    break
                frame, line = frames[-1]
                entry["file"], entry["line"] = os.path.realpath(frame.f_code.co_filename), line
                made = self._make_opaque(frame, instance, leaves, torch)
                if made is None or made in opaque:
                    break
                opaque.append(made)
                entry["opaque"] = made
        return {"traced": traced, "errors": errors, "opaque": opaque}

    def _make_opaque(self, frame, root, leaves: list[type], torch) -> str | None:
        code = frame.f_code
        owner = frame.f_locals.get(code.co_varnames[0]) if code.co_argcount else None
        if isinstance(owner, torch.nn.Module):
            if owner is root:
                return None  # the traced module itself cannot be a leaf
            cls = type(owner)
            if cls not in leaves:
                leaves.append(cls)
                return f"{cls.__module__}.{cls.__qualname__}"
            return None
        function = frame.f_globals.get(code.co_name)
        if inspect.isfunction(function) and function.__code__ is code and self.wrap(function):
            return f"{function.__module__}.{function.__qualname__}"
        return None


def _frames(error: BaseException):
    tb = error.__traceback__
    while tb is not None:
        yield tb.tb_frame, tb.tb_lineno
        tb = tb.tb_next


def check_file(torch, request: dict) -> dict:
    root = request["root"]
    if root not in sys.path:
        sys.path.insert(0, root)
    response: dict = {"import_error": None, "classes": {}}
    try:
        module = importlib.import_module(request["module"])
    except BaseException as error:
        detail = f"exit({error.code})" if isinstance(error, SystemExit) else f"{type(error).__name__}: {error}"
        response["import_error"] = detail.strip().splitlines()[0][:300] if detail.strip() else type(error).__name__
        return response
    tracing = Tracing(torch, request)
    factories = request.get("factories", {})
    try:
        for name in request["classes"]:
            cls = getattr(module, name, None)
            result: dict = {"built": False, "reason": "", "traced": False, "errors": [], "opaque": []}
            response["classes"][name] = result
            if cls is None:
                result["reason"] = "not defined when the module is imported"
                continue
            key = f"{request['module']}:{name}"
            try:
                if key in factories:
                    instance = _resolve(factories[key])()
                else:
                    missing = _missing_arguments(cls)
                    if missing:
                        result["reason"] = f"needs constructor arguments: {', '.join(missing)} (declare a factory)"
                        continue
                    instance = cls()
            except BaseException as error:
                result["reason"] = f"building it raised {type(error).__name__}: {str(error)[:200]}"
                continue
            result["built"] = True
            try:
                instance.eval()
                result.update(tracing.trace_until_clean(instance, request.get("max_attempts", 20)))
            finally:
                tracing.restore()
    finally:
        tracing.restore()
    return response


def main() -> None:
    protocol_in, protocol_out = _redirect(sys.argv[1])
    warnings.filterwarnings("ignore")
    try:
        import torch
        import torch.fx  # noqa: F401
    except ImportError as error:
        protocol_out.write(json.dumps({"ready": False, "error": str(error)}) + "\n")
        protocol_out.flush()
        return
    protocol_out.write(json.dumps({"ready": True, "torch": torch.__version__.split("+")[0]}) + "\n")
    protocol_out.flush()
    directory = os.getcwd()
    ours = {name: module for name, module in sys.modules.items() if name.split(".")[0] in ("torch", "json")}
    for line in protocol_in:
        request = json.loads(line)
        try:
            response = check_file(torch, request)
        except BaseException:
            response = {"import_error": "checker failed: " + traceback.format_exc(limit=3)[-300:], "classes": {}}
        finally:
            os.chdir(directory)
            for name, module in ours.items():
                sys.modules.setdefault(name, module)
        protocol_out.write(json.dumps(response) + "\n")
        protocol_out.flush()


if __name__ == "__main__":
    main()
