"""The script strategy's child side: `torch.jit.script` each built module (or function), ignore-and-retry.

Loaded by the confirmer host's child process (`jitlint/confirm/child.py`) in the user's interpreter: the standard
library and torch only. For each root it scripts; on each error it parses torch's error text into a file and line,
marks the function holding that line `torch.jit.ignore` and scripts again, so one run finds several errors; once
something was ignored it also compiles each remaining method and free function on its own (torch's error stops at
the first failing method), so errors behind a caller that failed earlier show; and it scripts each unit the parent
lists (`ctx.options["units"]`: a free function, a method of a module class built inside the root, a TorchScript
class) on its own, with nothing of the root's run ignored, so errors in code reached only through an ignored
function show, and code that compiles is known to (`result["units"]`).

Each observation: {"message", "text", "file", "line", "function", "kind", "artifact", "opaque"}; `artifact` marks an
error caused by the ignoring itself, `opaque` the function ignored after it.
"""

from __future__ import annotations

import copy
import importlib
import inspect
import os
import re
import sys
import warnings

_FRAME = re.compile(r'File "([^"]+)", line (\d+)')
_COMPILED_FROM = re.compile(r"'([\w.<>]+)' is being compiled since it was called from")
_NOT_PROVIDED = re.compile(r"^Argument \w+ not provided\.$", re.MULTILINE)

_SPENT_OVERLOADS: dict[str, list] = {}
_CHECKER = None


def _reset_torch_state(torch) -> None:
    """Forget what earlier attempts compiled, or torch refuses to redefine methods."""
    from torch.jit import _recursive

    _recursive.concrete_type_store = _recursive.ConcreteTypeStore()
    torch.jit._state._python_cu = torch._C.CompilationUnit()
    torch.jit._state._clear_class_state()
    # The function caches name functions of the compilation unit just dropped: a cached overload would resolve to
    # None ("_create_methods_and_properties(): incompatible function arguments" when a class that calls an
    # `@torch.jit._overload` function is scripted a second time). Torch forgets an overload's declarations once it
    # compiled them, so they are kept aside (`_keep_overloads`) and registered again with the new unit.
    torch.jit._state._jit_caching_layer.clear()
    torch.jit._state._jit_function_overload_caching.clear()
    for qual_name, overloads in _SPENT_OVERLOADS.items():
        torch._jit_internal._overloaded_fns.setdefault(qual_name, overloads)
    _SPENT_OVERLOADS.clear()


def _keep_overloads(torch) -> None:
    internal = torch._jit_internal
    clear = internal._clear_fn_overloads

    def keeping(qual_name):
        _SPENT_OVERLOADS[qual_name] = internal._overloaded_fns.get(qual_name)
        clear(qual_name)

    internal._clear_fn_overloads = keeping


class Checker:
    def __init__(self, torch) -> None:
        self.torch = torch
        _keep_overloads(torch)
        self.is_user_file = lambda path: False
        self.patches: list[tuple[object, str, object, bool]] = []

    # -- locating errors ----------------------------------------------------------------------------------------
    def _source_match(self, text: str, start: int) -> tuple[str, int] | None:
        """A decorator can make torch name the wrapper's file: find the shown source line in the user's files."""
        shown = [line.strip() for line in text[start:].splitlines()[1:4] if line.strip() and "~" not in line]
        if not shown:
            return None
        for module in list(sys.modules.values()):
            path = getattr(module, "__file__", None)
            if not path or not self.is_user_file(path):
                continue
            try:
                with open(path, encoding="utf-8") as handle:
                    lines = [line.strip() for line in handle]
            except (OSError, UnicodeDecodeError):
                continue
            for number, line in enumerate(lines, 1):
                if line == shown[-1] and len(shown[-1]) > 8:
                    return path, number
        return None

    @staticmethod
    def _shown_before_marker(text: str, start: int) -> list[str]:
        """The source lines torch shows after the frame at `start`, up to the one its `~~~` marker underlines
        (the frame's line number is that last line's)."""
        shown = []
        for line in text[start:].splitlines()[1:]:
            if line.strip().startswith("~"):
                return shown
            shown.append(line.strip())
        return []

    def _file_holding(self, text: str, start: int, number: int) -> str | None:
        """A function wrapped with `functools.wraps` is compiled from its own source (torch unwraps it), but torch
        names the wrapper's file with the wrapped function's line number (transformers' `__init_subclass__`
        wrapping every layer's `forward`, a decorator module): the one user file whose lines up to `number` are the
        shown ones, if exactly one."""
        shown = self._shown_before_marker(text, start)
        if not shown or not shown[-1]:
            return None
        found = []
        for module in list(sys.modules.values()):
            path = getattr(module, "__file__", None)
            if not path or not self.is_user_file(path):
                continue
            real = os.path.realpath(path)
            if any(real == other for other in found):
                continue
            try:
                with open(path, encoding="utf-8") as handle:
                    lines = handle.read().splitlines()
            except (OSError, UnicodeDecodeError):
                continue
            first = number - len(shown)
            if first < 0 or number > len(lines):
                continue
            if [line.strip() for line in lines[first:number]] == shown:
                found.append(real)
        return found[0] if len(found) == 1 else None

    def _holds(self, path: str, text: str, start: int, number: int) -> bool:
        """Whether line `number` of `path` is the line torch's marker underlines (True when nothing is shown)."""
        shown = self._shown_before_marker(text, start)
        if not shown:
            return True
        try:
            with open(path, encoding="utf-8") as handle:
                lines = handle.read().splitlines()
        except (OSError, UnicodeDecodeError):
            return True
        return 0 < number <= len(lines) and lines[number - 1].strip() == shown[-1]

    def parse_error(self, error: BaseException) -> dict:
        text = str(error)
        message = text.strip().splitlines()[0] if text.strip() else type(error).__name__
        location = None
        for match in _FRAME.finditer(text):
            if self.is_user_file(match.group(1)):
                number = int(match.group(2))
                location = (os.path.realpath(match.group(1)), number)
                if not self._holds(match.group(1), text, match.start(), number):
                    # torch named a wrapper's file: the wrapped function's file has the shown lines at that number
                    holder = self._file_holding(text, match.start(), number)
                    if holder is not None:
                        location = (holder, number)
                break
        if location is None:
            first = _FRAME.search(text)
            if first is not None:
                holder = self._file_holding(text, first.start(), int(first.group(2)))
                location = (holder, int(first.group(2))) if holder else self._source_match(text, first.start())
        compiled = _COMPILED_FROM.findall(text)
        return {
            "message": message,
            "text": text[:4000],
            "file": location[0] if location else None,
            "line": location[1] if location else None,
            "function": compiled[0] if compiled else None,
            "kind": type(error).__name__,
        }

    def function_at(self, path: str, line: int):
        """(owner, attribute name, function object) of the innermost user function whose source holds the line."""
        best = None
        for module in list(sys.modules.values()):
            if os.path.realpath(getattr(module, "__file__", "") or "") != path:
                continue
            candidates = []
            for name, value in list(vars(module).items()):
                if inspect.isfunction(value) and value.__module__ == module.__name__:
                    candidates.append((module, name, value))
                elif inspect.isclass(value) and value.__module__ == module.__name__:
                    for attr, member in vars(value).items():
                        function = member.fget if isinstance(member, property) else getattr(member, "__func__", member)
                        if inspect.isfunction(function):
                            candidates.append((value, attr, member))
            for owner, name, member in candidates:
                function = member.fget if isinstance(member, property) else getattr(member, "__func__", member)
                try:
                    lines, start = inspect.getsourcelines(inspect.unwrap(function))
                except (OSError, TypeError):
                    continue
                if start <= line < start + len(lines) and (best is None or len(lines) < best[0]):
                    best = (len(lines), owner, name, member)
        return best[1:] if best else None

    # -- ignoring what failed -------------------------------------------------------------------------------------
    def ignore(self, owner, name: str, member) -> str | None:
        torch = self.torch
        if isinstance(member, property):
            return None  # a property cannot be ignored; torch compiles every one
        if isinstance(member, classmethod):
            return None  # torch.jit.ignore takes no classmethod (and compiled code does not call one)
        if inspect.isclass(owner):
            if isinstance(member, staticmethod):
                replacement = staticmethod(torch.jit.ignore(member.__func__))
            else:
                replacement = torch.jit.ignore(member)
            self.patches.append((owner, name, member, True))
            setattr(owner, name, replacement)
            return f"{owner.__name__}.{name}"
        # A free function: torch resolves it through each caller's globals, so patch every user module.
        replacement = torch.jit.ignore(member)
        for module in list(sys.modules.values()):
            namespace = getattr(module, "__dict__", {})
            for key, value in list(namespace.items()):
                if value is member:
                    self.patches.append((module, key, value, False))
                    setattr(module, key, replacement)
        return name

    def restore(self) -> None:
        for owner, name, value, _ in reversed(self.patches):
            setattr(owner, name, value)
        self.patches.clear()

    # -- one root -----------------------------------------------------------------------------------------------
    def script_until_clean(self, obj, ctx) -> dict:
        """Script; on each error, ignore the function it is in and retry."""
        torch = self.torch

        def attempt():
            _reset_torch_state(torch)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                torch.jit.script(obj)

        def explain(error, ignored):
            parsed = self.parse_error(error)
            # An ignored function's stub is built from its Python signature, without defaults: once jitlint
            # has ignored something, a stub error at a call is an artifact of that, not the user's error.
            parsed["artifact"] = _stub_artifact(parsed, ignored)
            target = self.function_at(parsed["file"], parsed["line"]) if parsed["file"] else None
            return parsed, (lambda: self.ignore(*target)) if target else None

        return ctx.until_clean(attempt, explain)

    def compile_separately(self, instance, methods: list[str], functions: list, max_attempts: int,
                           ignored: list[str] = ()) -> list[dict]:
        """Compile each method on its own (torch's error stops at the first failing method) and each free function
        with torch.jit.script, with the failing functions still ignored (named `ignored`), so errors behind a caller
        that failed earlier show."""
        torch = self.torch
        from torch.jit import _recursive

        errors = []
        for name in methods[:max_attempts]:
            if not hasattr(instance, name) or isinstance(inspect.getattr_static(type(instance), name, None), property):
                continue
            static = inspect.getattr_static(type(instance), name, None)
            if isinstance(static, staticmethod):
                # Compiled code calling `self.create(x)` compiles a staticmethod as a free function; a method stub
                # would bind the module to its first parameter ("Module 'M' has no attribute 'size'").
                errors.extend(self._attempt(lambda function=static.__func__: torch.jit.script(function)))
                continue

            def stubs(module, name=name):
                if module is instance:
                    return [_recursive.make_stub_from_method(module, name)]
                return _recursive.infer_methods_to_compile(module)

            errors.extend(self._attempt(lambda stubs=stubs: _recursive.create_script_module(instance, stubs), ignored))
        for function in functions[:max_attempts]:
            errors.extend(self._attempt(lambda function=function: torch.jit.script(function), ignored))
        return errors

    # -- what the model's error masks, scripted on its own --------------------------------------------------------
    def script_units(self, target, units: list[dict], ctx) -> list[dict]:
        """Script each unit (a free function, a method of a module class built inside `target`, a TorchScript class)
        on its own, with nothing of the model's run ignored, ignore-and-retry inside it: what the model's first
        errors masked. One outcome per unit: {"unit", "found", "passed", "opaque", "observations"}."""
        outcomes = []
        for unit in units:
            self.restore()
            compile_it, own = self._unit(target, unit, ctx)
            outcome = {"unit": unit["id"], "found": compile_it is not None, "passed": False, "opaque": [],
                       "observations": []}
            outcomes.append(outcome)
            if compile_it is None:
                continue

            def attempt(compile_it=compile_it):
                _reset_torch_state(self.torch)
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    compile_it()

            def explain(error, ignored, own=own):
                parsed = self.parse_error(error)
                parsed["artifact"] = _stub_artifact(parsed, ignored)
                parsed["unit"] = unit["id"]
                culprit = self.function_at(parsed["file"], parsed["line"]) if parsed["file"] else None
                if culprit is None or culprit[2] is own or getattr(culprit[2], "__func__", None) is own:
                    return parsed, None  # the unit's own body: nothing further to learn by ignoring it
                return parsed, (lambda: self.ignore(*culprit))

            outcome.update(ctx.until_clean(attempt, explain))
            if not outcome["passed"] and outcome["observations"] and _VARIADIC in outcome["observations"][-1]["message"]:
                # torch refuses the unit's signature (`*args`, `**kwargs`, keyword-only defaults) before its body:
                # compiled again with those left out of the signature, its body's own errors show
                with _relaxed_signatures(self.torch) as dropped:
                    relaxed = ctx.until_clean(attempt, explain)
                for error in relaxed["observations"]:
                    error["relaxed"] = True
                    error["artifact"] = error["artifact"] or any(
                        error["message"].startswith(f"undefined value {name}") for name in dropped)
                outcome["observations"] += relaxed["observations"]
                outcome.update(passed=relaxed["passed"], opaque=relaxed["opaque"], relaxed=True)
        self.restore()
        return outcomes

    def _unit(self, target, unit: dict, ctx):
        """(what compiles the unit, its own function object), or (None, None) when it is not there."""
        torch = self.torch
        from torch.jit import _recursive

        try:
            module = importlib.import_module(unit["module"])
        except Exception:
            return None, None
        if unit["kind"] == "function":
            function = getattr(module, unit["name"], None)
            if not inspect.isfunction(function):
                return None, None
            return (lambda: torch.jit.script(function)), function
        cls = getattr(module, unit["class"], None)
        if not inspect.isclass(cls):
            return None, None
        if unit["kind"] == "class":
            return (lambda: torch.jit.script(cls)), None
        static = inspect.getattr_static(cls, unit["name"], None)
        if static is None or isinstance(static, (property, classmethod)):
            return None, None
        if isinstance(static, staticmethod):
            return (lambda: torch.jit.script(static.__func__)), static.__func__
        modules = list(target.modules()) if isinstance(target, torch.nn.Module) else []
        # the first instance of the class the method is defined in (a subclass's instance when it inherits it)
        instance = next((m for m in modules if type(m) is cls), None) or next(
            (m for m in modules if isinstance(m, cls) and inspect.getattr_static(type(m), unit["name"], None) is static),
            None)
        if instance is None:
            return None, None
        name = unit["name"]

        def stubs(module, name=name, instance=instance):
            if module is instance:
                return [_recursive.make_stub_from_method(module, name)]
            return _recursive.infer_methods_to_compile(module)

        return (lambda: _recursive.create_script_module(instance, stubs)), static

    def _attempt(self, compile_it, ignored: list[str] = ()) -> list[dict]:
        _reset_torch_state(self.torch)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                compile_it()
        except Exception as error:
            parsed = self.parse_error(error)
            parsed["artifact"] = _stub_artifact(parsed, ["lazy_bind", *ignored])
            return [parsed]
        return []


_VARIADIC = "Compiled functions can't take variable number of arguments"


class _relaxed_signatures:
    """While active, torch's frontend compiles a function whose signature has `*args`, `**kwargs` or keyword-only
    parameters with defaults as if the variadic parameters were not there (the defaults still come from the
    function's signature); the names left out are collected (a use of one is then "undefined value NAME")."""

    def __init__(self, torch) -> None:
        self.frontend = torch.jit.frontend
        self.original = self.frontend.build_param_list
        self.dropped: set[str] = set()

    def __enter__(self) -> set[str]:
        original, dropped = self.original, self.dropped

        def build_param_list(ctx, py_args, self_name, pdt_arg_types=None):
            relaxed = copy.copy(py_args)
            for name in ("vararg", "kwarg"):
                if getattr(py_args, name) is not None:
                    dropped.add(getattr(py_args, name).arg)
                    setattr(relaxed, name, None)
            relaxed.kw_defaults = []
            return original(ctx, relaxed, self_name, pdt_arg_types)

        self.frontend.build_param_list = build_param_list
        return dropped

    def __exit__(self, *exc) -> None:
        self.frontend.build_param_list = self.original


def _stub_artifact(parsed: dict, ignored) -> bool:
    """An error caused by jitlint's own ignoring: torch builds the stub of an ignored function from its Python
    signature without the defaults (torch 2.13: calling an `@torch.jit.ignore` function without a defaulted
    argument fails with "Argument a not provided."). A method's stub is named `lazy_bind...` (any error at a call of
    it counts, as before); a staticmethod's or free function's is named as jitlint reported it ignored
    (`Cls.name(...)`, `name(...)`): there only the missing-default error counts, which the compiled function would
    not give."""
    if not ignored:
        return False
    message = parsed["message"]
    if message.startswith("lazy_bind"):
        return True
    return any(message.startswith(f"{name}(") for name in ignored) and bool(
        _NOT_PROVIDED.search(parsed.get("text") or ""))


def setup(torch) -> None:
    global _CHECKER
    _CHECKER = Checker(torch)


def run(target, inputs, ctx) -> dict:
    """Script one root: a built module (then, if something had to be ignored, each of its compiled methods and the
    file's compiled free functions on their own), or a function."""
    checker = _CHECKER
    checker.is_user_file = ctx.is_user_file
    if ctx.kind == "function" and isinstance(target, ctx.torch.jit.ScriptFunction):
        return {"passed": True, "observations": []}  # @torch.jit.script already compiled it at import
    try:
        result = checker.script_until_clean(target, ctx)
        if ctx.kind == "class" and result["opaque"]:
            ignored = set(result["opaque"])
            methods = [m for m in ctx.options.get("methods", []) if f"{ctx.name}.{m}" not in ignored]
            functions = [
                getattr(ctx.module, f) for f in ctx.options.get("free_functions", [])
                if f not in ignored and callable(getattr(ctx.module, f, None))
            ]
            seen = {(e["file"], e["line"]) for e in result["observations"]}
            for error in checker.compile_separately(target, methods, functions, ctx.max_attempts, result["opaque"]):
                if (error["file"], error["line"]) not in seen:
                    seen.add((error["file"], error["line"]))
                    result["observations"].append(error)
        if ctx.options.get("units") and (result["opaque"] or not result["passed"]):
            # what the model's errors masked: each unit that holds a static error, scripted on its own
            seen = {(e["file"], e["line"], e["message"]) for e in result["observations"]}
            result["units"] = checker.script_units(target, ctx.options["units"], ctx)
            for outcome in result["units"]:
                for error in outcome.pop("observations"):
                    if (error["file"], error["line"], error["message"]) not in seen:
                        seen.add((error["file"], error["line"], error["message"]))
                        result["observations"].append(error)
        return result
    finally:
        checker.restore()
