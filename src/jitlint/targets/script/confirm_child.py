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

import importlib
import importlib.util
import inspect
import os
import re
import sys
import time
import warnings



def _sibling(name: str):
    """The child-side module `name` next to this file, loaded by its path (the user's interpreter has no jitlint)."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), f"{name}.py")
    spec = importlib.util.spec_from_file_location(f"_jitlint_script_{name}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_leave_out = _sibling("confirm_leave_out")
_locate = _sibling("confirm_locate")
_state = _sibling("confirm_state")
_reset_torch_state = _state.reset_torch_state
_unbuilt = _sibling("confirm_unbuilt")
_CHECKER = None


class Checker:
    def __init__(self, torch) -> None:
        self.torch = torch
        _state.keep_overloads(torch)
        _state.place_resolver_errors(torch)
        self.is_user_file = lambda path: False
        self.patches: list[tuple[object, str, object, bool]] = []
        self.module = None  # the module of the file whose roots are being scripted
        # when leaving failing statements out stops, for this file (`time.process_time()`: the host's deadlines are
        # this process's CPU seconds)
        self.leave_out_until: float | None = None
        self.type_patches: list[tuple[object, str, object]] = []  # the lists of torch's below, as they were
        self.opaque_attributes: set[str] = set()  # attributes and properties left out of the types
        self.units_done: set[str] = set()  # the units of this file already scripted on their own (for a root)
        self.unwrap_own = False  # a unit is compiled from the function its decorators wrap, not their wrapper
        self.own_is_method = False  # the unit being scripted on its own is a module's method
        self.unit_until: float | None = None  # when leaving failing statements out stops, for the current unit
        # the module methods the root's run ignored, (class, name, method): a unit's submodules that fail the same
        # way are ignored before the unit is scripted (`_failing_submodule_methods`)
        self.root_ignored: list[tuple[object, str, object]] = []
        self.unit_instance = None  # the module a method unit is scripted on

    def parse_error(self, error: BaseException) -> dict:
        parsed = _locate.parse_error(error, self.is_user_file)
        default = _DEFAULT_TYPE.match(parsed["message"])
        if default is not None and parsed["file"] and parsed["line"]:
            # torch checks a default against its parameter's type after compiling the body, and names the whole
            # `def` (its first line): the parameter it names is declared at its own line, where the error is
            found = self.function_at(parsed["file"], parsed["line"])
            line = _leave_out.parameter_line(found[2], default.group(1)) if found is not None else None
            if line is not None:
                parsed["line"], parsed["parameter"] = line, default.group(1)
        return parsed

    def function_at(self, path: str, line: int):
        """(owner, attribute name, function object) of the innermost user function whose source holds the line."""
        best = None
        for module in list(sys.modules.values()):
            if os.path.realpath(getattr(module, "__file__", "") or "") != path:
                continue
            candidates = []
            for name, value in list(vars(module).items()):
                if inspect.isfunction(value) and value.__module__ == module.__name__:
                    candidates.append((module, name, value, value))
                elif inspect.isclass(value) and value.__module__ == module.__name__:
                    for attr, member in vars(value).items():
                        # a property's getter and setter (torch compiles both)
                        functions = [member.fget, member.fset] if isinstance(member, property) else [
                            getattr(member, "__func__", member)]
                        candidates.extend((value, attr, member, function) for function in functions
                                          if inspect.isfunction(function))
            for owner, name, member, function in candidates:
                try:
                    lines, start = inspect.getsourcelines(inspect.unwrap(function))
                except (OSError, TypeError):
                    continue
                if start <= line < start + len(lines) and (best is None or len(lines) < best[0]):
                    best = (len(lines), owner, name, member)
        return best[1:] if best else None

    # -- ignoring what failed -------------------------------------------------------------------------------------
    def _add_to_list(self, owner, list_name: str, name: str) -> bool:
        """Add `name` to the class's `list_name` (torch's own lists of what not to compile), remembered to undo.
        Torch reads the list off the compiled object's class, so a subclass that has a list of its own (which hides
        this one) gets the name too."""
        changed = False
        for cls in [owner, *(sub for sub in _leave_out.subclasses(owner) if list_name in vars(sub))]:
            current = list(getattr(cls, list_name, []) or [])
            if name in current:
                continue
            self.type_patches.append((cls, list_name, vars(cls).get(list_name, _ABSENT)))
            setattr(cls, list_name, [*current, name])
            changed = True
        if changed:
            self.opaque_attributes.add(name)
        return changed

    def ignore_attribute(self, owner, name: str) -> str | None:
        """Leave a module attribute out of its concrete type, as `__jit_ignored_attributes__` does."""
        return f"{owner.__name__}.{name}" if self._add_to_list(owner, "__jit_ignored_attributes__", name) else None

    def ignore(self, owner, name: str, member) -> str | None:
        torch = self.torch
        if isinstance(member, property):
            # torch compiles every property of a class it scripts, unless `__jit_unused_properties__` lists it
            if inspect.isclass(owner) and self._add_to_list(owner, "__jit_unused_properties__", name):
                return f"{owner.__name__}.{name}"
            return None
        if isinstance(member, classmethod):
            return None  # torch.jit.ignore takes no classmethod (and compiled code does not call one)
        if inspect.isclass(owner):
            if isinstance(member, staticmethod):
                replacement = staticmethod(self._marked(torch.jit.ignore, member.__func__))
            elif not issubclass(owner, torch.nn.Module):
                # a TorchScript class compiles every method it defines, ignored or not; an unused one is compiled
                # as its signature only
                replacement = self._marked(torch.jit.unused, member)
            else:
                replacement = self._marked(torch.jit.ignore, member)
            self.patches.append((owner, name, member, True))
            setattr(owner, name, replacement)
            if issubclass(owner, torch.nn.Module) and not isinstance(member, staticmethod):
                self.root_ignored.append((owner, name, member))
            return f"{owner.__name__}.{name}"
        # A free function: torch resolves it through each caller's globals, so patch every user module.
        replacement = self._marked(torch.jit.ignore, member)
        for module in list(sys.modules.values()):
            namespace = getattr(module, "__dict__", {})
            for key, value in list(namespace.items()):
                if value is member:
                    self.patches.append((module, key, value, False))
                    setattr(module, key, replacement)
        return name

    def _marked(self, decorator, function):
        """`decorator(function)` (torch.jit.ignore or unused), which marks the function object itself: its mark as
        it was is kept, to put back (or later roots, other files' too, would find it still ignored)."""
        self.patches.append((function, "_torchscript_modifier", vars(function).get("_torchscript_modifier", _ABSENT),
                             False))
        annotations = getattr(function, "__annotations__", None)
        if annotations and any(isinstance(value, str) for value in annotations.values()):
            # torch types a call of an ignored function from its Python signature, resolving no names: a string
            # annotation (`from __future__ import annotations`) would stop every caller ("Unknown type annotation").
            # Evaluated in the function's module, as the compiled function's own annotations are.
            try:
                resolved = inspect.get_annotations(function, eval_str=True)
            except Exception:  # a name only imported for type checkers: the call stays untyped, an artifact
                resolved = None
            # only plain classes: torch may refuse an evaluated union or generic with no place named ("Can not
            # create tuple with None type"), which would stop the whole root; left a string, the call is an artifact
            if resolved is not None and all(value is None or inspect.isclass(value) for value in resolved.values()):
                self.patches.append((function, "__annotations__", annotations, False))
                function.__annotations__ = resolved
        return decorator(function)

    def restore(self, keep_types: bool = False) -> None:
        """Undo the ignoring; with `keep_types`, only the functions ignored (what torch could not type stays out)."""
        for owner, name, value, _ in reversed(self.patches):
            if value is _ABSENT:
                vars(owner).pop(name, None)
            else:
                setattr(owner, name, value)
        self.patches.clear()
        if keep_types:
            return
        for owner, name, value in reversed(self.type_patches):
            if value is _ABSENT:
                delattr(owner, name)
            else:
                setattr(owner, name, value)
        self.type_patches.clear()
        self.opaque_attributes.clear()

    def culprit(self, parsed: dict, error: BaseException):
        """What to make opaque after `error`: a callable returning its name, or None. The function holding the line
        torch names (ignored), else the module attribute torch failed to type (left out of the module's type)."""
        target = self.function_at(parsed["file"], parsed["line"]) if parsed["file"] else None
        if target is not None:
            return self.ignoring(parsed, target)
        attribute = _locate.attribute_at(error, self.torch)
        if attribute is not None:
            parsed["attribute"] = True
            return lambda: self.ignore_attribute(*attribute)
        return None

    def ignoring(self, parsed: dict, target):
        """What ignores `target` (owner, name, member); a property is left out of the type, and said so."""
        if isinstance(target[2], property):
            parsed["property"] = True
        return lambda: self.ignore(*target)

    def is_artifact(self, parsed: dict, ignored) -> bool:
        """An error caused by jitlint's own ignoring: a stub's (see `_stub_artifact`), or a use of an attribute or
        property it left out of the type."""
        if (_leave_out.stub_artifact(parsed, ignored) or _leave_out.bound_where_undefined(parsed)
                or _leave_out.refused_default(parsed, ignored, self.patches, self.torch)
                or _leave_out.attribute_of_unused_init(parsed, ignored)):
            return True
        return any(f"has no attribute '{name}'" in parsed["message"] for name in self.opaque_attributes)

    # -- one root -----------------------------------------------------------------------------------------------
    def script_until_clean(self, obj, ctx) -> dict:
        """Script; on each error, ignore the function it is in and retry."""
        torch = self.torch

        def attempt():
            _reset_torch_state(torch)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                torch.jit.script(obj)
            _state.raise_unplaced()

        def explain(error, ignored):
            parsed = self.parse_error(error)
            # An ignored function's stub is built from its Python signature, without defaults: once jitlint
            # has ignored something, a stub error at a call is an artifact of that, not the user's error.
            parsed["artifact"] = self.is_artifact(parsed, ignored)
            return parsed, self.culprit(parsed, error)

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
    def script_units(self, target, units: list[dict], ctx, root_observations: list[dict] = ()) -> list[dict]:
        """Script each unit (a free function, a method of a module class built inside `target`, a TorchScript class)
        on its own, with nothing of the model's run ignored, ignore-and-retry inside it: what the model's first
        errors masked. One outcome per unit: {"unit", "found", "passed", "opaque", "observations"}."""
        outcomes = []
        # only what failed for the user's code: a function ignored for an error its stand-ins caused (an artifact)
        # may compile on its own, and the unit compiles it afresh
        failed = {error.get("opaque") for error in root_observations
                  if error.get("opaque") and not error.get("artifact")}
        root_ignored = [entry for entry in self.root_ignored if f"{entry[0].__name__}.{entry[1]}" in failed]
        for number, unit in enumerate(units):
            if ctx.out_of_time():
                break  # the rest stay masked, rather than the whole file unanswered
            if unit["id"] in self.units_done:
                continue  # scripted on its own for another root of the file, which reaches it too: said there
            # the file's time for leaving failing statements out, less a reserve for each unit after this one (half
            # of an even share): the first units of a file do not spend all of the last ones' time, and what a unit
            # did not need goes to the next
            self.unit_until = None
            if self.leave_out_until is not None:
                reserve = ctx.options.get("leave_out_seconds", 0) / (2 * len(units))
                self.unit_until = self.leave_out_until - reserve * (len(units) - number - 1)
            # the functions the model's run ignored are compiled again; the attributes and properties torch could
            # not type stay out of the types (no unit is one, and each would stop every unit again)
            self.restore(keep_types=True)
            compile_it, own = self._unit(target, unit, ctx)
            outcome = {"unit": unit["id"], "found": compile_it is not None, "passed": False, "opaque": [],
                       "observations": []}
            outcomes.append(outcome)
            if compile_it is None:
                continue
            self.units_done.add(unit["id"])
            # what the unit compiles whatever it calls, and the root's run saw fail: ignored from the start (the
            # unit's run would ignore each after its error again, one more compile each), and counted as ignored
            failing = _state.failing_submodule_methods(self.torch, self.unit_instance, own, root_ignored)
            pre = [self.ignore(*method) for method in failing]
            pre = [name for name in pre if name is not None]

            def attempt(compile_it=compile_it):
                _reset_torch_state(self.torch)
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    compile_it()
                _state.raise_unplaced()

            def explain(error, ignored, own=own, pre=pre):
                parsed = self.parse_error(error)
                parsed["artifact"] = self.is_artifact(parsed, [*pre, *ignored])
                parsed["unit"] = unit["id"]
                culprit = self.function_at(parsed["file"], parsed["line"]) if parsed["file"] else None
                if culprit is None:
                    return parsed, self.culprit(parsed, error)
                if culprit[2] is own or getattr(culprit[2], "__func__", None) is own:
                    return parsed, None  # the unit's own body: nothing further to learn by ignoring it
                return parsed, self.ignoring(parsed, culprit)

            outcome.update(_leave_out.functions_only(ctx.until_clean(attempt, explain)))
            self.own_is_method = unit["kind"] == "method"
            self._past_own_errors(outcome, own, attempt, explain, ctx, _leave_out.Pending(unit, own))
            if pre:
                outcome["opaque"] = [*pre, *(name for name in outcome["opaque"] if name not in pre)]
                outcome["pre_ignored"] = pre
        self.restore(keep_types=True)
        return outcomes

    def _past_own_errors(self, outcome: dict, own, attempt, explain, ctx, pending: "_leave_out.Pending") -> None:
        """A unit that fails in its own function hides the rest of that function: compile it again with what failed
        left out (the signature's `*args`, `**kwargs` and keyword-only defaults; a parameter whose default torch
        refused, annotated with the default's type; a statement of its own body, while a static error of the unit
        lies after it and within the unit's share of time: `pending`), so that its later errors show. What is
        seen so is marked `relaxed` (with a statement left out, `dropped`; the errors its absence causes, a use of a
        name it bound, `artifact`)."""
        span = _leave_out.lines_of(own)
        # a decorated function is handed to torch as its wrapper, whose globals are the decorator's module: the
        # names of its own annotations are unknown there (the function's signature fails)
        body = _leave_out.body_start(own) if own is not None and inspect.unwrap(own) is not own else None
        dropped_lines: set[tuple[str, int]] = set()
        named_lines: set[tuple[str, int]] = set()  # the same lines, under the file name torch gave them
        try:
            self._relax_past(outcome, own, span, body, dropped_lines, named_lines, attempt, explain, ctx, pending)
        finally:
            self.unwrap_own = False

    def _relax_past(self, outcome, own, span, body, dropped_lines, named_lines, attempt, explain, ctx,
                    pending) -> None:
        typed: set[tuple[str, int, str]] = set()  # parameters annotated from their defaults: (file, line, name)
        # the `if`/`while` statements whose failing condition was replaced, keeping their bodies, in order; and those
        # left out whole after all (their body failed in a way no statement of it can be left out for)
        kept_bodies: list[tuple[str, int]] = []
        whole: set[tuple[str, int]] = set()
        refused = _leave_out.Refused()  # what torch underlined at each line left out (an annotation it refused)
        while not outcome["passed"] and outcome["observations"]:
            pending.seen(outcome["observations"])
            last = outcome["observations"][-1]
            variadic = _VARIADIC in last["message"] and not outcome.get("relaxed")
            in_body = span is not None and last["file"] == span[0] and span[1] <= (last["line"] or 0) <= span[2]
            if span is not None and not in_body and not variadic:
                # an error in code its own body calls (torch compiling a callee for it): the statement of its own
                # body the error is reached through is the one to leave out
                through = next((frame for frame in _locate.call_stack(last.get("text") or "", self.is_user_file)
                                if frame[0] == span[0] and span[1] <= frame[1] <= span[2]), None)
                if through is not None:
                    last = {**last, "file": through[0], "line": through[1], "named_file": through[2]}
                    in_body = True
            # a default torch refused for its parameter's type (checked after the body): the parameter annotated
            # with its default's type, as the user would, so that the signature's next refused default shows
            where = (last["file"], last["line"])
            typing = bool(last.get("parameter")) and in_body and (*where, last.get("parameter")) not in typed
            # an error in the signature of a function a decorator wraps: compile the function it wraps, with its own
            # module's names (the wrapper is not left out of the code torch checks otherwise)
            unwrap = in_body and body is not None and (last["line"] or 0) < body and not self.unwrap_own and not typing
            # why the unit's later statements stay unseen, if they do (the marking says so)
            later = pending.after(last["line"], len(dropped_lines), anywhere=bool(last.get("frontend")))
            why = _leave_out.stop_reason(self.unit_until, in_body, not later, where in dropped_lines,
                                         outcome.get("out_of_time"))
            outcome["stopped"] = {"line": last["line"], "message": last["message"][:120], "why": why}
            if outcome.get("out_of_time"):
                return
            if typing:
                typed.add((*where, last["parameter"]))
                if last.get("named_file"):
                    typed.add((last["named_file"], last["line"], last["parameter"]))
                outcome["typed"] = True
            elif unwrap:
                self.unwrap_own = outcome["unwrapped"] = True
            elif not variadic:
                if self.unit_until is not None and time.process_time() > self.unit_until:
                    return  # the signature is still relaxed past the unit's share of time, no statement left out
                if last.get("parameter"):  # a default that has no literal type to annotate with
                    return
                # another annotation torch refused on a signature line left out: relaxed too, in the next retry
                refusal = in_body and later and where in dropped_lines and refused.note(last)
                if (not in_body or not later or where in dropped_lines) and not refusal:
                    # stuck inside a body kept under a replaced condition: that statement is left out whole, as
                    # any other failing statement, so that what follows it is seen
                    fallback = where if where in kept_bodies and where not in whole else next(
                        (line for line in reversed(kept_bodies) if line not in whole), None)
                    if fallback is None or not pending.after(fallback[1], len(dropped_lines)):
                        return
                    whole.add(fallback)
                    outcome["stopped"]["why"] = "a statement kept in a changed form (a body, a stand-in) failed"
                elif not refusal:
                    dropped_lines.add((last["file"], last["line"]))
                    refused.note(last)
                    if last.get("named_file"):  # torch's frontend reads the wrapped lines under the wrapper's name
                        named_lines.add((last["named_file"], last["line"]))
                    if last.get("frontend"):
                        # the frontend's refusals are the syntax's, independent of each other: the function's
                        # others are found by its frontend alone (no compile) and left out in the same retry
                        outcome["observations"] += self._frontend_refusals(
                            own, span, dropped_lines, named_lines, _leave_out.MAX_LEFT_OUT - len(dropped_lines))
            relaxed = _leave_out.Relaxed(self.torch, dropped_lines | named_lines, typed, whole, refused)
            with relaxed:
                again = _leave_out.functions_only(ctx.until_clean(attempt, explain))
            kept_bodies.extend(line for line in relaxed.kept_bodies if line not in kept_bodies)
            for error in again["observations"]:
                error.update(relaxed=True, dropped=bool(dropped_lines),
                             artifact=error["artifact"] or relaxed.is_artifact(error, own, span))
            outcome["observations"] += again["observations"]
            outcome.update(passed=again["passed"], opaque=again["opaque"], relaxed=True,
                           dropped=sorted(line for _file, line in dropped_lines), out_of_time=again.get("out_of_time"))

    def _frontend_refusals(self, own, span, dropped_lines, named_lines, bound: int) -> list[dict]:
        """Run torch's frontend alone (`get_jit_def`: source to TorchScript's syntax tree, nothing compiled) on the
        unit's own function with what is left out so far, leaving out each statement of its body it refuses, at most
        `bound`: what torch would report at them one compile at a time. Each refusal is an observation (`relaxed`,
        `dropped`) and its line is added to `dropped_lines`."""
        frontend = self.torch.jit.frontend
        function = self._own(own)
        found = []
        for _ in range(max(bound, 0)):
            with _leave_out.Relaxed(self.torch, dropped_lines | named_lines):
                try:
                    frontend.get_jit_def(function, function.__name__,
                                         self_name="RecursiveScriptModule" if self.own_is_method else None)
                    return found
                except frontend.FrontendError as error:
                    parsed = self.parse_error(error)
                except Exception:  # the source cannot be read or parsed: the compile says why
                    return found
            where = (parsed["file"], parsed["line"])
            if not (where[0] == span[0] and span[1] <= (where[1] or 0) <= span[2]) or where in dropped_lines:
                return found
            found.append({**parsed, "artifact": False, "relaxed": True, "dropped": True, "frontend": True})
            dropped_lines.add(where)
            if parsed.get("named_file"):
                named_lines.add((parsed["named_file"], parsed["line"]))
        return found

    def _unit(self, target, unit: dict, ctx):
        """(what compiles the unit, its own function object), or (None, None) when it is not there. A method unit's
        instance is `unit_instance` (else None)."""
        torch = self.torch
        self.unit_instance = None
        from torch.jit import _recursive

        try:
            module = importlib.import_module(unit["module"])
        except Exception:
            return None, None
        if unit["kind"] == "function":
            function = getattr(module, unit["name"], None)
            if not inspect.isfunction(function):
                return None, None
            return (lambda: torch.jit.script(self._own(function))), function
        cls = getattr(module, unit["class"], None)
        if not inspect.isclass(cls):
            return None, None
        if unit["kind"] == "class":
            return (lambda: torch.jit.script(cls)), None
        static = inspect.getattr_static(cls, unit["name"], None)
        if static is None or isinstance(static, (property, classmethod)):
            return None, None
        if isinstance(static, staticmethod):
            return (lambda: torch.jit.script(self._own(static.__func__))), static.__func__
        try:
            modules = list(target.modules()) if isinstance(target, torch.nn.Module) else []
        except AttributeError:  # a module class whose __init__ never called nn.Module's: it has no submodules
            modules = []
        # the first instance of the class the method is defined in (a subclass's instance when it inherits it)
        instance = next((m for m in modules if type(m) is cls), None) or next(
            (m for m in modules if isinstance(m, cls) and inspect.getattr_static(type(m), unit["name"], None) is static),
            None)
        if instance is None:
            return None, None
        self.unit_instance = instance
        name = unit["name"]

        def stubs(module, name=name, instance=instance):
            if module is instance and self.unwrap_own:
                return [_recursive.make_stub(self._own(static).__get__(instance, type(instance)), name)]
            if module is instance:
                return [_recursive.make_stub_from_method(module, name)]
            return _recursive.infer_methods_to_compile(module)

        return (lambda: _recursive.create_script_module(instance, stubs)), static

    def _own(self, function):
        """The unit's own function as torch is handed it, or, while `unwrap_own`, the function its decorators wrap."""
        return inspect.unwrap(function) if self.unwrap_own else function

    def _attempt(self, compile_it, ignored: list[str] = ()) -> list[dict]:
        _reset_torch_state(self.torch)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                compile_it()
            _state.raise_unplaced()
        except Exception as error:
            parsed = self.parse_error(error)
            parsed["artifact"] = self.is_artifact(parsed, ["lazy_bind", *ignored])
            return [parsed]
        return []


_VARIADIC = "Compiled functions can't take variable number of arguments"
_DEFAULT_TYPE = re.compile(r'Expected a default value of type .* on parameter "(\w+)"')
_ABSENT = object()  # a class attribute that was not there before a patch


def setup(torch) -> None:
    global _CHECKER
    _CHECKER = Checker(torch)


def _enter(ctx) -> Checker:
    """The checker, set for the root's file."""
    checker = _CHECKER
    checker.is_user_file = ctx.is_user_file
    if checker.module is not ctx.module:  # a new file: what the last one left out of the types is put back
        checker.restore()
        checker.module = ctx.module
        checker.units_done = set()
        # leaving failing statements out stops past this share of the file's time limit, so that the file's other
        # roots are still checked in time (CPU seconds of this process, the host's clock of every deadline)
        budget = ctx.options.get("leave_out_seconds")
        checker.leave_out_until = time.process_time() + budget if budget else None
    if ctx.options.get("last") and checker.leave_out_until is not None and ctx.deadline is not None:
        # the file's last module class: no root after it needs the time its units may take
        checker.leave_out_until = max(checker.leave_out_until, ctx.deadline)
    return checker


def run_unbuilt(cls, ctx) -> dict:
    """A module class no instance of which could be built (`confirm_unbuilt.run_unbuilt`)."""
    return _unbuilt.run_unbuilt(cls, ctx, lambda: _enter(ctx))


def run(target, inputs, ctx) -> dict:
    """Script one root: a built module (then, if something had to be ignored, each of its compiled methods and the
    file's compiled free functions on their own), or a function."""
    checker = _enter(ctx)
    if ctx.kind == "function" and isinstance(target, ctx.torch.jit.ScriptFunction):
        return {"passed": True, "observations": []}  # @torch.jit.script already compiled it at import
    try:
        checker.root_ignored = []
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
            # (an artifact, of a retry's stand-ins, does not hide the same error seen as the user's)
            seen = {(e["file"], e["line"], e["message"]) for e in result["observations"] if not e.get("artifact")}
            result["units"] = checker.script_units(target, ctx.options["units"], ctx, result["observations"])
            for outcome in result["units"]:
                for error in outcome.pop("observations"):
                    if (error["file"], error["line"], error["message"]) not in seen:
                        seen.update([] if error.get("artifact") else [(error["file"], error["line"], error["message"])])
                        result["observations"].append(error)
        return result
    finally:
        # What torch could not type stays out for the file's next roots: each would stop at it again (a library's
        # base class holds the same properties for every model), costing an attempt each.
        checker.restore(keep_types=True)
