"""The confirmer's child process: import the user's files, build their modules, hand them to a strategy.

Run as a script (`python child.py LOG STRATEGY_FILE`) by the interpreter that has torch, which need not have jitlint:
it uses only the standard library and torch, and loads the strategy's child side (`STRATEGY_FILE`, which defines
`run(target, inputs, ctx)` and may define `setup(torch)`) by its path. It speaks JSON lines over private copies of
its stdin/stdout; fds 0, 1 and 2 then point at /dev/null and the log, so nothing the user's code reads or prints can
reach jitlint's protocol or output.

One request per file (or per root, for a strategy that isolates them):
    {"file", "module", "root": sys.path entry, "roots": [{"name", "kind": "class" | "function", "inputs": spec | null,
     "options": {...}, "constructions": [{"args", "kwargs", "refs"?, "lets"?, "where"}],
     "hosts": [{"class", "constructions"}]}], "factories": {"mod:Cls": "mod:fn"},
     "user_roots": [dirs], "options": {...}}
One response each:
    {"import_error": str | null, "roots": {name: {"built": bool, "reason": str, "passed": bool,
     "observations": [{"file", "line", "message", "kind", ...}], "opaque": [names], ...}}}
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import inspect
import json
import os
import sys
import time
import traceback
import warnings
from typing import Callable, NamedTuple

# How many times a strategy's retry loop captures one root: each failure makes its culprit opaque and tries again.
MAX_ATTEMPTS = 20
# The share of a request's time limit after which its child starts no new root and no new capture: what was seen
# by then is answered, rather than nothing when the limit kills the child.
DEADLINE_SHARE = 0.85
# CPU seconds past a request's limit at which the system stops the child (`RLIMIT_CPU`), if nothing ended it first.
CPU_GRACE_SECONDS = 2.0


def clock() -> float:
    """The clock of every time limit and deadline of a request: this process's CPU seconds (every thread's, user and
    system), so that a loaded machine, which slows the wall clock's work, does not shorten what a file gets done."""
    return time.process_time()


def limit_cpu(seconds: float | None) -> None:
    """Have the system stop this process (SIGXCPU) once it spent `seconds` more CPU time (and the grace): the
    request's limit holds even when the user's code never returns to the checker. The soft limit only; where the
    system has no such limit, the parent's watch is the only one."""
    try:
        import resource
    except ImportError:
        return
    try:
        _soft, hard = resource.getrlimit(resource.RLIMIT_CPU)
        soft = resource.RLIM_INFINITY if seconds is None else int(clock() + seconds + CPU_GRACE_SECONDS) + 1
        if hard != resource.RLIM_INFINITY and (soft == resource.RLIM_INFINITY or soft > hard):
            soft = hard
        resource.setrlimit(resource.RLIMIT_CPU, (soft, hard))
    except (ValueError, OSError):
        pass


class Inputs(NamedTuple):
    """The example inputs a root was declared with: positional arguments, for export dynamic shapes, and keyword
    arguments."""

    args: tuple
    dynamic_shapes: object = None
    kwargs: dict | None = None


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


def resolve(spec: str):
    """The object a "module:attribute.path" names (factories and inputs, as the configuration writes them)."""
    module_name, _, attribute = spec.partition(":")
    target = importlib.import_module(module_name)
    for part in attribute.split("."):
        target = getattr(target, part)
    return target


def missing_arguments(cls) -> list[str]:
    """The constructor parameters of `cls` that have no default."""
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


def declared_arguments(cls, missing: list[str]) -> dict | None:
    """The missing constructor arguments of `cls` that its own declarations say how to build: a parameter annotated
    with a class of the user's whose every constructor parameter has a default (`config: BertConfig`), or, for a
    `config` parameter with no such annotation, the class's declared `config_class`. {"built": {name: class},
    "where": text} when every missing argument is so declared, else None (no value is guessed)."""
    try:
        signature = inspect.signature(cls.__init__, eval_str=True)
    except Exception:  # an annotation that does not evaluate: only what is not a string is read
        try:
            signature = inspect.signature(cls.__init__)
        except (TypeError, ValueError):
            return None
    built = {}
    for name in missing:
        parameter = signature.parameters.get(name)
        annotation = parameter.annotation if parameter is not None else inspect.Parameter.empty
        candidate = annotation if _buildable(annotation) else None
        if candidate is None and name == "config":
            declared = getattr(cls, "config_class", None)
            candidate = declared if _buildable(declared) else None
        if candidate is None:
            return None
        built[name] = candidate
    where = ", ".join(f"{name}={value.__name__}()" for name, value in built.items())
    return {"built": built, "where": where}


def _buildable(annotation) -> bool:
    """A class of the user's (not a builtin, typing or torch type) that builds with no arguments."""
    if not inspect.isclass(annotation) or annotation is inspect.Parameter.empty:
        return False
    module = getattr(annotation, "__module__", "") or ""
    if module.split(".")[0] in ("builtins", "typing", "torch", "collections", "numpy"):
        return False
    return not missing_arguments(annotation)


def inputs_from(value) -> Inputs:
    """What an inputs function returned: a tuple or list of arguments, one value, or {"args": ..., "kwargs": ...,
    "dynamic_shapes": ...} (each key optional)."""
    if isinstance(value, dict) and ("args" in value or "kwargs" in value):
        args, shapes, kwargs = value.get("args", ()), value.get("dynamic_shapes"), dict(value.get("kwargs") or {})
    else:
        args, shapes, kwargs = value, None, {}
    if not isinstance(args, (tuple, list)):
        args = (args,)
    return Inputs(tuple(args), shapes, kwargs)


def _first_line(error: BaseException, limit: int) -> str:
    detail = f"exit({error.code})" if isinstance(error, SystemExit) else f"{type(error).__name__}: {error}"
    return detail.strip().splitlines()[0][:limit] if detail.strip() else type(error).__name__


class Context:
    """What the host gives a strategy's `run` for one root: torch, the imported module, the strategy's options, which
    files are the user's, more example inputs, and the retry loop."""

    def __init__(self, torch, module, name: str, kind: str, options: dict, user_roots: list[str],
                 inputs: str | None = None, deadline: float | None = None) -> None:
        self.torch = torch
        self.module = module
        self.name = name
        self.kind = kind
        self.options = options
        self.user_roots = user_roots
        self.inputs = inputs  # the root's declared inputs function ("module:function"), if any
        self.max_attempts = options.get("max_attempts", MAX_ATTEMPTS)  # a run may bound it (one attempt: no retry)
        self.deadline = deadline  # `clock()` past which nothing new is started (None: no limit)

    def out_of_time(self) -> bool:
        """Whether the request's time is nearly out: a strategy starts no new capture then (`until_clean` stops by
        itself, with `out_of_time` in its result)."""
        return self.deadline is not None and clock() > self.deadline

    def is_user_file(self, path: str) -> bool:
        """Whether `path` is one of the user's files (under a root of the linted files, not an installed package)."""
        real = os.path.realpath(path)
        return any(real.startswith(root + os.sep) for root in self.user_roots) and "site-packages" not in real

    def example_inputs(self, *args, **kwargs) -> Inputs:
        """The declared inputs function called again (with `args`): another set, for a strategy that runs the model
        more than once."""
        return inputs_from(resolve(self.inputs)(*args, **kwargs))

    def until_clean(self, attempt: Callable[[], object], explain: Callable) -> dict:
        """Run `attempt()` until it passes, so that one run finds several errors: after each failure,
        `explain(error, opaque)` (`opaque`: the names made opaque so far) returns the observation and a callable that
        makes the culprit opaque (ignores it, wraps it, makes it a leaf) and returns its name, or None when nothing can
        be. The loop stops when nothing new was made opaque."""
        observations: list[dict] = []
        opaque: list[str] = []
        for attempt_number in range(self.max_attempts):
            if attempt_number and self.out_of_time():
                return {"passed": False, "observations": observations, "opaque": opaque, "out_of_time": True}
            try:
                attempt()
                return {"passed": True, "observations": observations, "opaque": opaque}
            except Exception as error:  # torch raises RuntimeError, NotSupportedError and plain Python errors
                observation, make_opaque = explain(error, opaque)
                observations.append(observation)
                name = make_opaque() if make_opaque is not None else None
                if name is None or name in opaque:
                    break
                opaque.append(name)
                observation["opaque"] = name
        return {"passed": False, "observations": observations, "opaque": opaque}


def load_strategy(path: str):
    spec = importlib.util.spec_from_file_location("_jitlint_confirm_strategy", path)
    strategy = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(strategy)
    return strategy


def _build(module, root: dict, factories: dict, module_name: str, result: dict, deadline: float | None = None):
    """The object `root` names, built (a class) or looked up (a function), and its inputs; None with the reason in
    `result` when it cannot be. Past `deadline` (`clock()`), no further way of building it is tried."""
    value = getattr(module, root["name"], None)
    if value is None:
        result["reason"] = "not defined when the module is imported"
        return None, None
    if root.get("kind", "class") == "class":
        key = f"{module_name}:{root['name']}"
        if key in factories:
            try:
                value = resolve(factories[key])()
            except BaseException as error:  # SystemExit and KeyboardInterrupt from user code included
                result["reason"] = f"building it raised {type(error).__name__}: {str(error)[:200]}"
                return None, None
        else:
            value = _construct(value, root.get("constructions") or [], result, root.get("hosts") or [],
                               root.get("borrowed") or [], deadline)
            if value is None:
                return None, None
    inputs = None
    if root.get("inputs"):
        try:
            inputs = inputs_from(resolve(root["inputs"])())
        except BaseException as error:
            result["reason"] = f"the example inputs ({root['inputs']}) failed: {type(error).__name__}: {error}"
            return None, None
    return value, inputs


def import_qualified(qualified: str):
    """The object a qualified name ("pkg.losses.pairwise_neg_sisdr") names: its longest importable module prefix,
    then attributes."""
    parts = qualified.split(".")
    for end in range(len(parts), 0, -1):
        try:
            target = importlib.import_module(".".join(parts[:end]))
        except ImportError:
            continue
        for part in parts[end:]:
            target = getattr(target, part)
        return target
    raise ImportError(f"cannot import {qualified}")


def _site_value(text: str, namespace: dict):
    """A construction site's argument: a literal, or (with `namespace`, the objects its names were imported as) an
    expression of literals, those names, their attributes and calls of them, and arithmetic of such values
    (`constructions.py` checked its shape); a site's `lets` are evaluated the same way, in order, into `namespace`."""
    if not namespace:
        try:
            return ast.literal_eval(text)
        except ValueError:  # arithmetic (`2**16`): evaluated with no names at all
            pass
    return eval(compile(text, "<construction site>", "eval"), {"__builtins__": {}}, dict(namespace))


# The hosts built so far in this child (qualified name -> the instance, or None when it did not build): one model
# holds the blocks of several files.
_HOSTS: dict[str, object] = {}


def _past(deadline: float | None) -> bool:
    return deadline is not None and clock() > deadline


def _from_hosts(cls, hosts: list[dict], result: dict, deadline: float | None = None):
    """The first instance of exactly `cls` among the submodules of a host (a class whose own code builds it: the
    parent's `hosts`, nearest first) that builds with its defaults or its own construction sites; None if none.
    Past `deadline`, no further host is built (`result["out_of_time"]`)."""
    for host in hosts:
        qualified = host["class"]
        if qualified not in _HOSTS:
            if _past(deadline):
                result["out_of_time"] = True
                return None
            _HOSTS[qualified] = None
            try:
                host_cls = import_qualified(qualified)
            except BaseException:  # an import that fails, or a name that is not there
                continue
            scratch: dict = {}
            if inspect.isclass(host_cls):
                _HOSTS[qualified] = _construct(host_cls, host.get("constructions") or [], scratch, deadline=deadline)
                _HOSTS[f"{qualified}#how"] = scratch.get("built_with", "its defaults")
                if scratch.get("out_of_time"):  # not tried to the end: a later request may try it again
                    del _HOSTS[qualified]
                    result["out_of_time"] = True
                    return None
        instance = _HOSTS[qualified]
        submodules = getattr(instance, "modules", None)
        if instance is None or not callable(submodules):
            continue
        try:
            found = next((module for module in submodules() if type(module) is cls), None)
        except Exception:
            found = None
        if found is not None:
            how = _HOSTS[f"{qualified}#how"]
            how = f"the arguments at {os.path.basename(how)}" if os.sep in how else how
            result["built_with"] = f"the instance {qualified.rpartition('.')[2]} builds (with {how})"
            return found
    return None


def _site_call(site: dict) -> tuple[list, dict]:
    """The positional and keyword arguments of a construction site, evaluated afresh."""
    namespace = {name: import_qualified(qualified) for name, qualified in site.get("refs", {}).items()}
    for name, text in site.get("lets", []):  # the names the site's scope bound before it, in order
        namespace[name] = _site_value(text, namespace)
    args = [_site_value(text, namespace) for text in site.get("args", [])]
    kwargs = {name: _site_value(text, namespace) for name, text in site.get("kwargs", {}).items()}
    return args, kwargs


def _from_borrowed(cls, borrowed: list[dict], result: dict, deadline: float | None = None):
    """An instance of `cls` built with the values another class's construction site gives the parameters of the same
    names (matched by Python's own binding of the site's call to that class's signature), when they cover every
    parameter of `cls` without a default; None if no site does. Past `deadline`, no further site is tried
    (`result["out_of_time"]`)."""
    try:
        own = inspect.signature(cls)
    except (TypeError, ValueError):
        return None
    named = {p.name for p in own.parameters.values()
             if p.kind in (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)}
    required = [p.name for p in own.parameters.values() if p.default is p.empty and p.kind not in (
        inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD)]
    if not required or not set(required) <= named:
        return None
    for site in borrowed:
        if _past(deadline):
            result["out_of_time"] = True
            return None
        try:
            other = import_qualified(site["class"])
            args, kwargs = _site_call(site)
            bound = inspect.signature(other).bind_partial(*args, **kwargs).arguments
            if not all(name in bound for name in required):
                continue
            instance = cls(**{name: value for name, value in bound.items() if name in named})
        except BaseException:  # SystemExit and KeyboardInterrupt from user code included
            continue
        result["built_with"] = f"the arguments {site['class'].rpartition('.')[2]} is given at " \
                               f"{os.path.basename(site['where'])}, by parameter name"
        return instance
    return None


def _construct(cls, constructions: list[dict], result: dict, hosts: list[dict] = (), borrowed: list[dict] = (),
               deadline: float | None = None):
    """An instance of `cls`: built with its defaults (when every parameter has one), else (or when that raises)
    with the arguments of each construction site the parent found (`constructions.py`), in order, else the one a
    host builds (`_from_hosts`); None with the reason in `result` when none builds. `result["built_with"]` names
    the site used. Past `deadline` (`clock()`), no further way is tried: the reason says the time ran out."""
    missing = missing_arguments(cls)
    declared = declared_arguments(cls, missing) if missing else None
    attempts = ([] if missing else [None]) + ([declared] if declared else []) + list(constructions)
    first_error = None
    for number, site in enumerate(attempts):
        if number and _past(deadline):
            result["out_of_time"] = True
            break
        try:
            if site is None:
                return cls()
            if "built" in site:
                instance = cls(**{name: built() for name, built in site["built"].items()})
            else:
                namespace = {name: import_qualified(qualified) for name, qualified in site.get("refs", {}).items()}
                for name, text in site.get("lets", []):  # the names the site's scope bound before it, in order
                    namespace[name] = _site_value(text, namespace)
                args = [_site_value(text, namespace) for text in site.get("args", [])]
                kwargs = {name: _site_value(text, namespace) for name, text in site.get("kwargs", {}).items()}
                instance = cls(*args, **kwargs)
        except BaseException as error:  # SystemExit and KeyboardInterrupt from user code included
            first_error = first_error or error
            continue
        result["built_with"] = site["where"]
        return instance
    found = None
    if hosts and not result.get("out_of_time"):
        found = _from_hosts(cls, hosts, result, deadline)
    if found is None and borrowed and not result.get("out_of_time"):
        found = _from_borrowed(cls, borrowed, result, deadline)
    if found is not None:
        return found
    if result.get("out_of_time"):
        result["reason"] = "not built: the file's time limit ran out while trying the ways to build it " \
                           "(its construction sites, the classes that build it)"
        return None
    tried = f" (nor with the arguments of {len(constructions)} construction site(s) in the project)" \
        if constructions else ""
    if hosts:
        tried += f" (nor inside {len(hosts)} class(es) that build it)"
    if missing:
        result["reason"] = f"needs constructor arguments: {', '.join(missing)} (declare a factory){tried}"
    else:
        result["reason"] = f"building it raised {type(first_error).__name__}: {str(first_error)[:200]}{tried}"
    return None


def check_file(torch, strategy, request: dict) -> dict:
    started = clock()
    root = request["root"]
    if root not in sys.path:
        sys.path.insert(0, root)
    response: dict = {"import_error": None, "roots": {}}
    try:
        module = importlib.import_module(request["module"])
    except BaseException as error:  # SystemExit and KeyboardInterrupt from user code included
        response["import_error"] = _first_line(error, 300)
        return response
    user_roots = [os.path.realpath(path) for path in request["user_roots"]]
    limit = request.get("time_limit")
    deadline = started + limit * DEADLINE_SHARE if limit else None
    for entry in request["roots"]:
        result: dict = {"built": False, "reason": "", "passed": False, "observations": [], "opaque": []}
        response["roots"][entry["name"]] = result
        if deadline is not None and clock() > deadline:
            result["reason"] = f"not checked: the file's time limit ({limit:g} s of CPU time) ran out before it"
            continue
        target, inputs = _build(module, entry, request.get("factories", {}), request["module"], result, deadline)
        options = {**request.get("options", {}), **entry.get("options", {})}
        context = Context(torch, module, entry["name"], entry.get("kind", "class"), options, user_roots,
                          entry.get("inputs"), deadline)
        if target is None:
            unbuilt = getattr(strategy, "run_unbuilt", None)
            cls = getattr(module, entry["name"], None)
            if unbuilt is not None and inspect.isclass(cls) and result["reason"].startswith("needs constructor"):
                # what the strategy can say of the class without an instance (it stays unbuilt, for the reason)
                said = unbuilt(cls, context)
                result.update({key: value for key, value in said.items() if key not in ("built", "reason", "passed")})
                result["observations"] = list(said.get("observations", []))
            continue
        result["built"] = True
        result.update(strategy.run(target, inputs, context))
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
    strategy = load_strategy(sys.argv[2])
    if hasattr(strategy, "setup"):
        strategy.setup(torch)
    protocol_out.write(json.dumps({"ready": True, "torch": torch.__version__.split("+")[0]}) + "\n")
    protocol_out.flush()
    directory = os.getcwd()
    # User code may delete entries of sys.modules; the child's own modules are put back after each file.
    ours = {name: module for name, module in sys.modules.items() if name.split(".")[0] in ("torch", "json", "re")}
    for line in protocol_in:
        request = json.loads(line)
        limit_cpu(request.get("time_limit"))
        try:
            response = check_file(torch, strategy, request)
        except BaseException:  # never let one file take the child down silently
            response = {"import_error": "checker failed: " + traceback.format_exc(limit=3)[-300:], "roots": {}}
        finally:
            limit_cpu(None)  # the next request's limit counts from its own start
            os.chdir(directory)  # user code may have changed the working directory
            for name, module in ours.items():
                sys.modules.setdefault(name, module)
        protocol_out.write(json.dumps(response) + "\n")
        protocol_out.flush()


if __name__ == "__main__":
    main()
