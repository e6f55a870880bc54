"""The dynamic checker's child process: import user code, build modules, run torch.jit.script, report errors.

Run as a script (`python worker.py LOG`) by the interpreter that has torch, so it uses only the standard library
and torch. It speaks JSON lines over private copies of its stdin/stdout; fds 0, 1 and 2 then point at /dev/null
and the log, so nothing the user's code reads or prints can reach jitlint's protocol or output.

One request per linted file:
    {"file", "module", "root", "classes": [names], "functions": [names], "factories": {"mod:Cls": "mod:fn"},
     "user_roots": [dirs], "max_attempts": int}
One response each:
    {"import_error": str | null, "classes": {name: {"built": bool, "reason": str, "scripted": bool,
     "errors": [error], "ignored": [qualname]}}, "functions": {name: {...same...}}}
error = {"message", "text", "file", "line", "function", "kind"}.
"""

from __future__ import annotations

import importlib
import inspect
import json
import os
import re
import sys
import traceback
import warnings

_FRAME = re.compile(r'File "([^"]+)", line (\d+)')
_COMPILED_FROM = re.compile(r"'([\w.<>]+)' is being compiled since it was called from")


def _redirect(log_path: str):
    """Keep the protocol on private fds; send the user's stdin/stdout/stderr elsewhere."""
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


_SPENT_OVERLOADS: dict[str, list] = {}


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
        self.user_roots: list[str] = []
        self.patches: list[tuple[object, str, object, bool]] = []

    # -- locating errors ----------------------------------------------------------------------------------------
    def is_user_file(self, path: str) -> bool:
        real = os.path.realpath(path)
        return any(real.startswith(root + os.sep) for root in self.user_roots) and "site-packages" not in real

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
    def script_until_clean(self, obj, max_attempts: int) -> dict:
        """Script; on each error, ignore the function it is in and retry, so one run finds several errors."""
        torch = self.torch
        errors: list[dict] = []
        ignored: list[str] = []
        scripted = False
        for _attempt in range(max_attempts):
            _reset_torch_state(torch)
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    torch.jit.script(obj)
                scripted = True
                break
            except Exception as error:  # torch raises RuntimeError, NotSupportedError and plain Python errors
                parsed = self.parse_error(error)
                # An ignored function's stub is built from its Python signature, without defaults: once jitlint
                # has ignored something, a stub error at a call is an artifact of that, not the user's error.
                parsed["artifact"] = _stub_artifact(parsed, ignored)
                errors.append(parsed)
                target = self.function_at(parsed["file"], parsed["line"]) if parsed["file"] else None
                name = self.ignore(*target) if target else None
                if name is None or name in ignored:
                    break
                ignored.append(name)
                parsed["ignored"] = name
        return {"scripted": scripted, "errors": errors, "ignored": ignored}

    def compile_separately(self, instance, methods: list[str], functions: list, max_attempts: int,
                           ignored: list[str] = ()) -> list[dict]:
        """Compile each method on its own (torch's error stops at the first failing method) and each free function with torch.jit.script, with
        the failing functions still ignored (named `ignored`), so errors behind a caller that failed earlier show."""
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


_NOT_PROVIDED = re.compile(r"^Argument \w+ not provided\.$", re.MULTILINE)


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


def _factory(spec: str):
    module_name, _, attribute = spec.partition(":")
    target = importlib.import_module(module_name)
    for part in attribute.split("."):
        target = getattr(target, part)
    return target


def _missing_arguments(cls) -> list[str]:
    try:
        signature = inspect.signature(cls.__init__)
    except (TypeError, ValueError):
        return []
    return [
        name
        for name, parameter in list(signature.parameters.items())[1:]
        if parameter.default is inspect.Parameter.empty
        and parameter.kind not in (parameter.VAR_POSITIONAL, parameter.VAR_KEYWORD)
    ]


def check_file(checker: Checker, request: dict) -> dict:
    torch = checker.torch
    checker.user_roots = [os.path.realpath(root) for root in request["user_roots"]]
    root = request["root"]
    if root not in sys.path:
        sys.path.insert(0, root)
    response: dict = {"import_error": None, "classes": {}, "functions": {}}
    try:
        module = importlib.import_module(request["module"])
    except BaseException as error:  # SystemExit and KeyboardInterrupt from user code included
        detail = f"exit({error.code})" if isinstance(error, SystemExit) else f"{type(error).__name__}: {error}"
        response["import_error"] = detail.strip().splitlines()[0][:300] if detail.strip() else type(error).__name__
        return response
    factories = request.get("factories", {})
    attempts = request.get("max_attempts", 20)
    for name in request["classes"]:
        cls = getattr(module, name, None)
        result: dict = {"built": False, "reason": "", "scripted": False, "errors": [], "ignored": []}
        response["classes"][name] = result
        if cls is None:
            result["reason"] = "not defined when the module is imported"
            continue
        key = f"{request['module']}:{name}"
        try:
            if key in factories:
                instance = _factory(factories[key])()
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
            result.update(checker.script_until_clean(instance, attempts))
            if result["ignored"]:
                ignored = set(result["ignored"])
                methods = [m for m in request.get("methods", {}).get(name, []) if f"{name}.{m}" not in ignored]
                functions = [
                    getattr(module, f) for f in request.get("free_functions", [])
                    if f not in ignored and callable(getattr(module, f, None))
                ]
                seen = {(e["file"], e["line"]) for e in result["errors"]}
                for error in checker.compile_separately(instance, methods, functions, attempts, result["ignored"]):
                    if (error["file"], error["line"]) not in seen:
                        seen.add((error["file"], error["line"]))
                        result["errors"].append(error)
        finally:
            checker.restore()
    for name in request["functions"]:
        function = getattr(module, name, None)
        result = {"built": function is not None, "reason": "", "scripted": False, "errors": [], "ignored": []}
        response["functions"][name] = result
        if function is None or isinstance(function, torch.jit.ScriptFunction):
            result["scripted"] = function is not None  # @torch.jit.script already compiled it at import
            continue
        try:
            result.update(checker.script_until_clean(function, attempts))
        finally:
            checker.restore()
    return response


def main() -> None:
    protocol_in, protocol_out = _redirect(sys.argv[1])
    warnings.filterwarnings("ignore", category=DeprecationWarning)
    try:
        import torch
    except ImportError as error:
        protocol_out.write(json.dumps({"ready": False, "error": str(error)}) + "\n")
        protocol_out.flush()
        return
    protocol_out.write(json.dumps({"ready": True, "torch": torch.__version__.split("+")[0]}) + "\n")
    protocol_out.flush()
    checker = Checker(torch)
    directory = os.getcwd()
    # User code may delete entries of sys.modules; the checker's own modules are put back after each file.
    ours = {name: module for name, module in sys.modules.items() if name.split(".")[0] in ("torch", "json", "re")}
    for line in protocol_in:
        request = json.loads(line)
        try:
            response = check_file(checker, request)
        except BaseException:  # never let one file take the worker down silently
            response = {"import_error": "checker failed: " + traceback.format_exc(limit=3)[-300:], "classes": {}, "functions": {}}
        finally:
            checker.restore()
            os.chdir(directory)  # user code may have changed the working directory
            for name, module in ours.items():
                sys.modules.setdefault(name, module)
        protocol_out.write(json.dumps(response) + "\n")
        protocol_out.flush()


if __name__ == "__main__":
    main()
