"""The script strategy's child side, continued: what it changes in torch's frontend to compile past an error (a
signature's `*args`/`**kwargs`, a failing statement left out), and how it tells its own ignoring's consequences from
the user's errors. Standard library and torch only: loaded by path from `confirm_child.py` in the user's
interpreter."""

from __future__ import annotations

import copy
import inspect
import os
import re
import sys
import time

NOT_PROVIDED = re.compile(r"^Argument \w+ not provided\.$", re.MULTILINE)
_UNDEFINED = re.compile(r"undefined value (\w+)")
TENSOR_INFERRED = re.compile(r"^Expected a value of type 'Tensor \(inferred\)' for argument '(\w+)'", re.MULTILINE)


def lines_of(function):
    """(real path, first line, last line) of a function's source, or None."""
    if function is None:
        return None
    try:
        function = inspect.unwrap(function)
        lines, start = inspect.getsourcelines(function)
        return os.path.realpath(inspect.getsourcefile(function)), start, start + len(lines) - 1
    except (OSError, TypeError):
        return None


def body_start(function) -> int | None:
    """The line of the first statement of a function's body (its signature's lines come before), or None."""
    import ast
    import textwrap

    try:
        function = inspect.unwrap(function)
        lines, start = inspect.getsourcelines(function)
        tree = ast.parse(textwrap.dedent("".join(lines)))
    except (OSError, TypeError, SyntaxError):
        return None
    definition = next((node for node in tree.body if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))), None)
    return start + definition.body[0].lineno - 1 if definition is not None and definition.body else None


def parameter_line(function, name: str) -> int | None:
    """The line a parameter `name` of `function` (a function, or a method, staticmethod or property) is declared
    at, or None."""
    import ast
    import textwrap

    function = getattr(function, "__func__", function)
    if not inspect.isfunction(function):
        return None
    try:
        function = inspect.unwrap(function)
        lines, start = inspect.getsourcelines(function)
        tree = ast.parse(textwrap.dedent("".join(lines)))
    except (OSError, TypeError, SyntaxError):
        return None
    definition = next((node for node in tree.body if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))), None)
    if definition is None:
        return None
    arguments = definition.args
    found = next((arg for arg in [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs] if arg.arg == name),
                 None)
    return start + found.lineno - 1 if found is not None else None


_LINE = re.compile(r"line (\d+)")


class Relaxed:
    """While active, torch's frontend compiles a function whose signature has `*args`, `**kwargs` or keyword-only
    parameters with defaults as if the variadic parameters were not there (the defaults still come from the
    function's signature), and leaves out each statement whose own line (a simple statement's lines, a compound
    one's header) is one of `drop` ((real path, line)), and a return annotation on such a line (inferred instead);
    an `if` or `while` whose header is such a line keeps its body, its condition replaced by one torch cannot
    decide while compiling (`opaque_condition`).
    An unannotated parameter named in `typed` ((real path, line, name): where it is declared) is annotated with the
    type of its literal default (what torch's "Expected a default value of type Tensor (inferred)" asks for).
    An assignment to plain names (`a = f(x)`, `a, b = f(x)`) keeps its names bound, each to a stand-in Tensor
    (`torch.empty(0)`), so that the statements using them are still compiled (`standins`; their lines go to
    `kept_bodies` too, and one that fails again is left out whole once its line is in `whole`); an error whose
    underlined code names a stand-in, or a name computed from one, is the stand-in's, not the user's (`is_artifact`).
    The names left out (parameters, and names the left-out statements bind) are collected: a use of one is then
    "undefined value NAME"."""

    def __init__(self, torch, drop: set[tuple[str, int]], typed: set[tuple[str, int, str]] = frozenset(),
                 whole: set[tuple[str, int]] = frozenset(), refused: dict | None = None) -> None:
        self.frontend = torch.jit.frontend
        self.originals = (self.frontend.build_param_list, self.frontend.build_stmts, self.frontend.build_def)
        self.drop = drop
        self.typed = typed
        self.whole = whole  # lines of `drop` whose `if`/`while` is left out whole all the same
        self.refused = refused or {}  # (path, line) -> the code torch underlined there (an annotation it refused)
        self.kept_bodies: list[tuple[str, int]] = []  # lines of `drop` whose statement kept its body, in order
        self.left_out: set[str] = set()
        self.standins: set[str] = set()  # names bound to a stand-in instead of a failing statement's value
        # functions a parameter of which lost the annotation torch refused: (path, first line, last line, the
        # parameters, the function's syntax tree)
        self.relaxed_annotations: list[tuple[str, int, int, set[str], object]] = []

    def __enter__(self) -> set[str]:
        import ast

        build_param_list, build_stmts, build_def = self.originals
        left_out, drop, typed, whole, kept_bodies = self.left_out, self.drop, self.typed, self.whole, self.kept_bodies
        standins = self.standins

        def relaxed_params(ctx, py_args, self_name, pdt_arg_types=None):
            relaxed = copy.copy(py_args)
            for name in ("vararg", "kwarg"):
                if getattr(py_args, name) is not None:
                    left_out.add(getattr(py_args, name).arg)
                    setattr(relaxed, name, None)
            relaxed.kw_defaults = []
            path = os.path.realpath(ctx.filename or "")
            chosen = {(line, name) for file, line, name in typed if file == path}
            shift = offset(ctx) if chosen else None
            if shift is not None:
                relaxed.args = annotated_from_defaults(py_args, lambda arg: (arg.lineno + shift, arg.arg) in chosen)
            return build_param_list(ctx, relaxed, self_name, pdt_arg_types)

        def offset(ctx) -> int | None:
            found = _LINE.search(ctx.make_range(1, 0, 1).highlight())
            return int(found.group(1)) - 1 if found else None

        def kept_stmts(ctx, stmts):
            path = os.path.realpath(ctx.filename or "")
            lines = {line for file, line in drop if file == path}
            shift = offset(ctx) if lines and stmts else None
            if shift is not None:
                kept = []
                for stmt in stmts:
                    body = getattr(stmt, "body", None)
                    last = (body[0].lineno - 1) if isinstance(body, list) and body else stmt.end_lineno
                    matched = [line for line in lines if stmt.lineno + shift <= line <= last + shift]
                    if matched:
                        kept_body = None if any((path, line) in whole for line in matched) else (
                            opaque_condition(stmt) or standin_assignment(stmt))
                        if kept_body is not None:
                            if isinstance(stmt, ast.Assign):
                                standins.update(bound_names(stmt))
                            # an `if`/`while` whose condition failed: its body is still compiled; an assignment
                            # that failed: its names are still bound
                            kept_bodies.extend((path, line) for line in matched if (path, line) not in kept_bodies)
                            kept.append(kept_body)
                            continue
                        left_out.update(node.id for node in ast.walk(stmt)
                                        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store))
                        continue
                    kept.append(stmt)
                stmts = kept
            return build_stmts(ctx, stmts)

        def bare_def(ctx, py_def, *args, **kwargs):
            # a return annotation on a line to leave out (torch cannot compile the class it names): inferred
            returns = getattr(py_def, "returns", None)
            path = os.path.realpath(ctx.filename or "")
            lines = {line for file, line in drop if file == path}
            shift = offset(ctx) if lines else None
            if shift is not None and returns is not None and any(
                    returns.lineno + shift <= line <= returns.end_lineno + shift for line in lines):
                py_def = copy.copy(py_def)
                py_def.returns = None
            if shift is not None:
                py_def = self._relax_annotations(py_def, path, shift, lines)
            return build_def(ctx, py_def, *args, **kwargs)

        self.frontend.build_param_list = relaxed_params
        self.frontend.build_stmts = kept_stmts
        self.frontend.build_def = bare_def
        return left_out

    def __exit__(self, *exc) -> None:
        self.frontend.build_param_list, self.frontend.build_stmts, self.frontend.build_def = self.originals

    def _relax_annotations(self, py_def, path: str, shift: int, lines: set[int]):
        """`py_def` with each parameter whose annotation torch refused (what it underlined on a line to leave out:
        `Sequence[Tensor]`, `nn.Module`; `refused`) unannotated instead: a stand-in Tensor (with a `None` default, torch
        takes it as an undefined Tensor, which `is None` tests still refine); a parameter with another default keeps
        its annotation (the default's own type would be a guess). The parameters so changed are recorded
        (`relaxed_annotations`)."""
        import ast

        arguments = py_def.args
        positional = [*arguments.posonlyargs, *arguments.args]
        defaults = dict(zip([arg.arg for arg in positional[len(positional) - len(arguments.defaults):]],
                            arguments.defaults))
        defaults.update((arg.arg, default) for arg, default in zip(arguments.kwonlyargs, arguments.kw_defaults)
                        if default is not None)
        changed: set[str] = set()
        for arg in [*positional, *arguments.kwonlyargs]:
            annotation = arg.annotation
            if annotation is None:
                continue
            # the annotation torch underlined at a line left out (another annotation on that line is kept)
            span = range(annotation.lineno + shift, annotation.end_lineno + shift + 1)
            shown = {"".join(text.split()) for line in span if line in lines
                     for text in self.refused.get((path, line), ())}
            if "".join(ast.unparse(annotation).split()) not in shown:
                continue
            default = defaults.get(arg.arg)
            if default is None or (isinstance(default, ast.Constant) and default.value is None):
                changed.add(arg.arg)
        if not changed:
            return py_def

        def relaxed(args):
            result = []
            for arg in args:
                if arg.arg in changed:
                    arg = copy.copy(arg)
                    arg.annotation = None
                result.append(arg)
            return result

        py_def = copy.copy(py_def)
        py_def.args = copy.copy(arguments)
        py_def.args.posonlyargs = relaxed(arguments.posonlyargs)
        py_def.args.args = relaxed(arguments.args)
        py_def.args.kwonlyargs = relaxed(arguments.kwonlyargs)
        self.relaxed_annotations.append((path, py_def.lineno + shift, py_def.end_lineno + shift, changed, py_def))
        return py_def

    def _relaxed_annotation_artifact(self, error: dict) -> bool:
        """An error a parameter's stand-in annotation caused: a value passed for such a parameter (torch names the
        argument), or an error in its function whose underlined code names it or a name computed from it (or
        underlines nothing)."""
        import ast

        for path, first, last, names, py_def in self.relaxed_annotations:
            if any(f"argument '{name}'" in error["message"] for name in names):
                return True
            if error.get("file") == path and first <= (error.get("line") or 0) <= last:
                shown = underlined(error.get("text") or "")
                tainted = computed_from(ast.Module(body=[py_def], type_ignores=[]), names)
                if shown is None or set(re.findall(r"[A-Za-z_]\w*", shown)) & tainted:
                    return True
        return False

    def is_artifact(self, error: dict, own, span) -> bool:
        """An error of a compile with statements left out that they caused: a use of a name left out, or an error in
        the unit's own function (`span`: (path, first, last line)) whose underlined code names a stand-in or a name
        computed from one (its type is the stand-in's). An error in a function it calls is that function's own
        (torch compiles a callee from its own signature, whatever the call passes)."""
        if any(error["message"].startswith(f"undefined value {name}") for name in self.left_out):
            return True
        if self.relaxed_annotations and self._relaxed_annotation_artifact(error):
            return True
        inside = span is not None and error.get("file") == span[0] and span[1] <= (error.get("line") or 0) <= span[2]
        # a refused default is checked against its parameter's declared type, whatever the body binds
        if not self.standins or (error.get("file") is not None and not inside) or error.get("parameter"):
            return False
        shown = underlined(error.get("text") or "")
        tainted = computed_from(own, self.standins)
        return shown is None or bool(set(re.findall(r"[A-Za-z_]\w*", shown)) & tainted)


class Refused(dict):
    """(path, line) -> the code torch underlined in its errors at that line (under the file name torch gave it too):
    on a signature line, the annotations it refused."""

    def note(self, error: dict) -> bool:
        """Record what `error` underlined; whether that was new."""
        shown = underlined(error.get("text") or "")
        if not shown or shown in self.get((error["file"], error["line"]), ()):
            return False
        for key in [(error["file"], error["line"])] + ([(error["named_file"], error["line"])]
                                                          if error.get("named_file") else []):
            self.setdefault(key, set()).add(shown)
        return True


def bound_names(stmt) -> set[str]:
    import ast

    return {node.id for target in stmt.targets for node in ast.walk(target) if isinstance(node, ast.Name)}


def standin_assignment(stmt):
    """A copy of an assignment to plain names (`a = ...`, `a, b = ...`) whose value is a stand-in Tensor for each name
    (`torch.empty(0)`), or None for another statement."""
    import ast

    if not isinstance(stmt, ast.Assign):
        return None
    shapes = []
    for target in stmt.targets:
        names = target.elts if isinstance(target, (ast.Tuple, ast.List)) else [target]
        if not names or not all(isinstance(name, ast.Name) for name in names):
            return None
        shapes.append(len(names) if isinstance(target, (ast.Tuple, ast.List)) else None)
    if len(set(shapes)) != 1:
        return None

    def standin():
        return ast.Call(func=ast.Attribute(value=ast.Name(id="torch", ctx=ast.Load()), attr="empty", ctx=ast.Load()),
                        args=[ast.Constant(value=0)], keywords=[])

    value = standin() if shapes[0] is None else ast.Tuple(elts=[standin() for _ in range(shapes[0])], ctx=ast.Load())
    for node in ast.walk(value):
        ast.copy_location(node, stmt.value)
    replaced = copy.copy(stmt)
    replaced.value = value
    return replaced


def _calls():
    """`confirm_calls.py` next to this file, loaded by its path (the user's interpreter has no jitlint)."""
    import importlib.util

    name = "_jitlint_script_confirm_calls"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                                         "confirm_calls.py"))
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        sys.modules[name] = module
    return sys.modules[name]


def computed_from(function, seeds: set[str]) -> set[str]:
    """`seeds` and every name of `function` (or of a syntax tree) assigned (or iterated) from an expression that names one of them, to a
    fixed point, flow-insensitively (a name computed from a stand-in anywhere has the stand-in's type somewhere).
    The arguments of a call of a Python function or method (`typed_by_itself`) are not what its result is computed
    from: torch types that result from the callee's own signature and body, whatever the call passes."""
    import ast
    import textwrap

    try:
        tree = function if isinstance(function, ast.AST) else ast.parse(
            textwrap.dedent(inspect.getsource(inspect.unwrap(function))))
    except (OSError, TypeError, SyntaxError):
        return set(seeds)
    by_itself = _calls().typed_by_itself(function) if not isinstance(function, ast.AST) else (lambda call: False)

    def names_in(value):
        """The names `value` computes its result from: all its names, less the arguments of calls typed by themselves."""
        stack = [value]
        while stack:
            node = stack.pop()
            if isinstance(node, ast.Call) and by_itself(node):
                stack.append(node.func)
                continue
            if isinstance(node, ast.Name):
                yield node.id
            stack.extend(ast.iter_child_nodes(node))
    flows = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign):
            flows.append((node.value, node.targets))
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)) and node.value is not None:
            flows.append((node.value, [node.target]))
        elif isinstance(node, (ast.For, ast.comprehension)):
            flows.append((node.iter, [node.target]))
        elif isinstance(node, ast.NamedExpr):
            flows.append((node.value, [node.target]))
    tainted = set(seeds)
    changed = True
    while changed:
        changed = False
        for value, targets in flows:
            if any(name in tainted for name in names_in(value)):
                for node in (node for target in targets for node in ast.walk(target)):
                    if isinstance(node, ast.Name) and node.id not in tainted:
                        tainted.add(node.id)
                        changed = True
    return tainted


def annotated_from_defaults(py_args, chosen) -> list:
    """`py_args.args` (an `ast.arguments`), each unannotated parameter `chosen(arg)` picks that has a literal default
    annotated with the default's type (`method='mean'`: `method: str`); the others as they are."""
    import ast

    positional = [*py_args.posonlyargs, *py_args.args]
    first_default = len(positional) - len(py_args.defaults)
    result = []
    for index, arg in enumerate(py_args.args, len(py_args.posonlyargs)):
        annotation = None
        if arg.annotation is None and index >= first_default and chosen(arg):
            annotation = literal_type(py_args.defaults[index - first_default])
        if annotation is not None:
            for node in ast.walk(annotation):
                ast.copy_location(node, arg)
            arg = copy.copy(arg)
            arg.annotation = annotation
        result.append(arg)
    return result


def literal_type(node):
    """The TorchScript type of a literal default, as an annotation expression (`int`, `Tuple[int, int]`,
    `List[float]`), or None when it is not a literal of one."""
    import ast

    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        node = node.operand
        if not isinstance(node, ast.Constant) or type(node.value) not in (int, float):
            return None
    if isinstance(node, ast.Constant) and type(node.value) in (bool, int, float, str):
        return ast.Name(id=type(node.value).__name__, ctx=ast.Load())
    if isinstance(node, (ast.Tuple, ast.List)) and node.elts:
        items = [literal_type(element) for element in node.elts]
        if any(item is None for item in items):
            return None
        if isinstance(node, ast.Tuple):
            return ast.Subscript(value=ast.Name(id="Tuple", ctx=ast.Load()),
                                 slice=ast.Tuple(elts=items, ctx=ast.Load()), ctx=ast.Load())
        if len({ast.dump(item) for item in items}) != 1:
            return None
        return ast.Subscript(value=ast.Name(id="List", ctx=ast.Load()), slice=items[0], ctx=ast.Load())
    return None


# The calls in a condition that TorchScript decides while compiling (`isinstance`, `hasattr`, `is_scripting`...):
# one branch of such an `if` is never compiled, so it is not replaced by a condition that compiles both.
_STATIC_CALLS = frozenset({"isinstance", "hasattr", "is_scripting", "is_tracing", "_get_tracing_state",
                           "is_compiling", "is_dynamo_compiling"})


def opaque_condition(stmt):
    """A copy of an `if` or `while` statement whose condition is replaced by one torch types as a bool and cannot
    decide while compiling (`len([0]) == 1`), so that both branches are compiled as they would be once the user's
    condition compiled; None for another statement, or a condition torch decides itself (an `is None` test refines
    a type, an `isinstance` test skips a branch): the statement is left out whole then."""
    import ast

    if not isinstance(stmt, (ast.If, ast.While)):
        return None
    for node in ast.walk(stmt.test):
        if isinstance(node, ast.Compare) and any(isinstance(op, (ast.Is, ast.IsNot)) for op in node.ops):
            return None
        if isinstance(node, ast.Call):
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", None)
            if name in _STATIC_CALLS:
                return None
        if isinstance(node, ast.NamedExpr):
            return None
    test = ast.Compare(
        left=ast.Call(func=ast.Name(id="len", ctx=ast.Load()),
                      args=[ast.List(elts=[ast.Constant(value=0)], ctx=ast.Load())], keywords=[]),
        ops=[ast.Eq()], comparators=[ast.Constant(value=1)])
    for node in ast.walk(test):
        ast.copy_location(node, stmt.test)
    replaced = copy.copy(stmt)
    replaced.test = test
    return replaced


def subclasses(cls) -> list:
    found, pending = [], [cls]
    while pending:
        for sub in type.__subclasses__(pending.pop()):
            if sub not in found:
                found.append(sub)
                pending.append(sub)
    return found


def stub_artifact(parsed: dict, ignored) -> bool:
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
    if message.startswith("Unknown type annotation:"):
        # torch types an ignored function's call from its Python signature with no resolution of names: a string
        # annotation (`from __future__ import annotations`) is unknown, at each call of a function jitlint ignored
        # (a submodule's call, `self.norm(x)`, calls its `forward`)
        callee = underlined(parsed.get("text") or "")
        return callee is not None and any(callee.rsplit(".", 1)[-1] == name.rsplit(".", 1)[-1] or (
            name.endswith(".forward") and callee.startswith("self.")) for name in ignored)
    return any(message.startswith(f"{name}(") for name in ignored) and bool(
        NOT_PROVIDED.search(parsed.get("text") or ""))


def bound_where_undefined(parsed: dict) -> bool:
    """"undefined value NAME" where NAME is bound in the module of the file torch names: torch resolves a compiled
    function's globals in its module, so only a compile jitlint arranged (a unit's wrapper, a callee it set aside)
    can miss it; the user's code would find it. (A decorator's wrapper, whose module torch names, is the user's.)"""
    match = _UNDEFINED.match(parsed["message"])
    path = parsed.get("named_file") or parsed.get("file")
    if match is None or not path:
        return False
    return any(os.path.realpath(getattr(module, "__file__", "") or "") == path and match.group(1) in vars(module)
               for module in list(sys.modules.values()))


_NO_CLASS_ATTRIBUTE = re.compile(r"^'__torch__\.(?:[\w.]+\.)?(\w+) \(of Python compilation unit at: [^)]*\)' object has "
                                 r"no attribute or method '\w+'")


def attribute_of_unused_init(parsed: dict, ignored) -> bool:
    """A read of an attribute of a TorchScript class whose `__init__` jitlint set aside: a class's ignored method is
    compiled as `@torch.jit.unused`, its signature only, so the attributes its `__init__` defines are gone from the
    class type ("object has no attribute or method 'x'"); the user's class, once its `__init__` compiles, has them."""
    found = _NO_CLASS_ATTRIBUTE.match(parsed["message"])
    return found is not None and f"{found.group(1)}.__init__" in ignored


def refused_default(parsed: dict, ignored, patches, torch) -> bool:
    """A call of a function jitlint ignored that gives a parameter with no annotation and a default that is no
    Tensor (`normalize=False`) something else than a Tensor: the stub, typed from the Python signature without its
    defaults, rejects the call, but the compiled function refuses that default at its own `def` first (torch:
    "Expected a default value of type Tensor (inferred)"), the error the user sees and fixes. `patches`: the
    child's (owner, name, original member, ...) of what it ignored."""
    found = TENSOR_INFERRED.search(parsed.get("text") or "")
    callee = parsed["message"].split("(", 1)[0].rsplit(".", 1)[-1]
    if found is None or not any(name.rsplit(".", 1)[-1] == callee for name in ignored):
        return False
    for _owner, key, member, *_rest in patches:
        function = getattr(member, "__func__", member)
        if key != callee or not callable(function):
            continue
        try:
            param = inspect.signature(function).parameters.get(found.group(1))
        except (TypeError, ValueError):
            continue
        default = param.default if param is not None else None
        if default is not None and default is not inspect.Parameter.empty and (
                param.annotation is inspect.Parameter.empty and not isinstance(default, torch.Tensor)):
            return True
    return False


def underlined(text: str) -> str | None:
    """The source text torch's first `~~~` marker underlines in an error text (for a call, its callee), or None."""
    lines = text.splitlines()
    for number, line in enumerate(lines[1:], 1):
        marker = line.rstrip()
        if marker.lstrip().startswith("~"):
            start = len(marker) - len(marker.lstrip())
            end = start + len(marker.lstrip().split(" ", 1)[0])
            shown = lines[number - 1][start:end].strip()
            return shown or None
    return None


def functions_only(result: dict) -> dict:
    """A unit's retry result with only the functions it ignored as `opaque`: the attributes and properties left out
    of the types mask none of its own code."""
    typed_out = {error.get("opaque") for error in result["observations"]
                 if error.get("attribute") or error.get("property")}
    result["opaque"] = [name for name in result["opaque"] if name not in typed_out]
    return result


def stop_reason(unit_until, in_body: bool, nothing_after: bool, again: bool, out_of_time) -> str:
    if out_of_time:
        return "the file's time limit was nearly out"
    if unit_until is not None and time.process_time() > unit_until:
        return "its share of the file's time for leaving failing statements out had passed"
    if not in_body:
        return "the error is outside its own body"
    if nothing_after:
        return "no static error of it lies after that statement"
    return "the statement left out failed again" if again else "no statement could be left out"


# At most this many statements of one unit are left out, whatever its static errors.
MAX_LEFT_OUT = 40


class Pending:
    """The static errors of a unit (`unit["lines"]`, the parent's) torch has not shown yet: a failing statement is
    left out only while one lies after it (torch compiles a body in order, so what is before it compiled), or in
    the signature (whose refused defaults torch reports after the body)."""

    def __init__(self, unit: dict, own) -> None:
        self.lines = set(unit.get("lines") or ())
        span = lines_of(own)
        self.path = span[0] if span is not None else None
        body = body_start(own)
        self.signature = range(span[1], body) if span is not None and body is not None else range(0)
        self.shown: set[int] = set()

    def seen(self, observations: list[dict]) -> None:
        self.shown.update(error["line"] for error in observations
                          if not error.get("artifact") and error["line"] and error["file"] == self.path)

    def after(self, line: int | None, left_out: int, anywhere: bool = False) -> bool:
        """Whether a static error not shown yet lies after `line` (or anywhere, for a refusal of torch's frontend:
        it reads the whole function before any type is checked, so the type errors before it are not seen yet)."""
        if left_out >= MAX_LEFT_OUT:
            return False
        return any((anywhere or other > (line or 0) or other in self.signature) and other not in self.shown
                   for other in self.lines)
