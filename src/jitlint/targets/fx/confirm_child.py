"""The fx strategy's child side: `torch.fx.symbolic_trace` each built module, wrap-and-retry.

Loaded by the confirmer host's child process (`jitlint/confirm/child.py`) in the user's interpreter: the standard
library and torch only. The tracer has the configured leaves and autowrap functions (`ctx.options`: "leaf_modules",
"autowrap_functions", "library_leaves"). symbolic_trace stops at the first error and its messages carry no location
(pytorch/pytorch#47151): the location is the innermost traceback frame in the user's files. After each error the
function of that frame is wrapped (`torch.fx.wrap` semantics: recorded as one call) or, for a method of a submodule,
the submodule's class is made a leaf, and the model is traced again, so one run finds each failure in turn.

Each observation: {"message", "kind", "file", "line", "opaque"}.
"""

from __future__ import annotations

import importlib
import inspect
import math
import os
import sys
import warnings


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


class Tracing:
    def __init__(self, ctx) -> None:
        import torch.fx as fx
        from torch.fx import _symbolic_trace

        self.ctx = ctx
        self.fx = fx
        self.registry = _symbolic_trace._wrapped_fns_to_patch
        options = ctx.options
        self.leaf_classes: list[type] = [
            c for c in map(_resolve, options.get("leaf_modules", [])) if isinstance(c, type)]
        self.functions = [f for f in map(_resolve, options.get("autowrap_functions", [])) if callable(f)]
        self.modules = [math]
        if options.get("library_leaves"):
            self._library_leaves()
        self.added: list[tuple[int, str]] = []  # our entries in torch.fx's wrap registry, removed after each root

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
            if not path or not self.ctx.is_user_file(path):
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

    def trace_until_clean(self, instance) -> dict:
        torch = self.ctx.torch
        leaves: list[type] = []

        def attempt():
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                self.tracer(leaves).trace(instance)

        def explain(error, _opaque):
            text = str(error)
            message = text.strip().splitlines()[0] if text.strip() else type(error).__name__
            frames = [(frame, line) for frame, line in _frames(error)
                      if self.ctx.is_user_file(frame.f_code.co_filename)]
            entry = {"message": f"{type(error).__name__}: {message}"[:300], "kind": type(error).__name__,
                     "file": None, "line": None, "opaque": None}
            if not frames:
                return entry, None
            frame, line = frames[-1]
            entry["file"], entry["line"] = os.path.realpath(frame.f_code.co_filename), line
            return entry, lambda: self._make_opaque(frame, instance, leaves, torch)

        return self.ctx.until_clean(attempt, explain)

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


def setup(torch) -> None:
    import torch.fx  # noqa: F401

    warnings.filterwarnings("ignore")


def run(module, inputs, ctx) -> dict:
    """Trace one built module class until nothing more can be made opaque."""
    tracing = Tracing(ctx)
    try:
        module.eval()
        return tracing.trace_until_clean(module)
    finally:
        tracing.restore()
