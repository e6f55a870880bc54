"""JIT637: a compiled function or method that calls itself, directly or through other compiled code.

TorchScript compiles a function the first time compiled code calls it, while it compiles the caller
(`FunctionValue::call` and `MethodValue::call` in `sugared_value.cpp` call `ensure_defined()` on the callee). A
callee still being compiled is on that stack, and torch rejects the call that reaches it again: "function 'f' is
called recursively" (a method: "method 'f' is called recursively"), at that call. Free functions are compiled
from Python (`_recursive.try_compile_fn`), and a call of one that is not compiled yet compiles it anew: two free
functions that call each other recurse in Python until "maximum recursion depth exceeded", with no line.

A call through another module object (`self.tree1(x)`, `self.sub.f(x)`) is not such a call even when that
module is of the caller's own class: torch scripts each submodule as its own module type before the methods that
call it (`_recursive.create_script_module`), so a tree of modules of one class compiles.

So, from each root of the capture (a scripted function, a module's `forward` or exported method, a TorchScript
class's method), the calls are followed depth-first in the order they stand in each body, as torch emits them; a
call whose callee is on the stack is the one torch names. A function that calls itself is named at that call from
any root.
"""

from __future__ import annotations

import libcst as cst

from jitlint.capture import reached_by_call
from jitlint.names import first_param_name
from jitlint.rules.base import RuleContext
from jitlint.targets.script.rules import ScriptRule


class RecursiveCall(ScriptRule):
    code = "JIT637"
    name = "recursive-call"
    severity = "error"
    summary = "compiled code that calls a function or method being compiled: itself, or one that called it"
    message = "a recursive call, which TorchScript does not support"
    file_hooks_report_visits = True  # `begin_file` only resets the walk's cache

    def begin_file(self, ctx: RuleContext) -> None:
        self._back_edges: dict[int, object] | None = None

    def visit_Call(self, node: cst.Call, ctx: RuleContext) -> None:
        if ctx.function is None or ctx.in_pruned_branch or ctx.in_signature:
            return
        found = ctx.captured.callee_of(node)
        if found is None:
            return
        callee, _bound = found
        if not _compiled_on_the_callers_stack(node, callee, ctx.function.info.node, ctx.project):
            return
        if callee.node is not ctx.function.info.node:
            if self._back_edges is None:
                self._back_edges = _back_edges(ctx)
            if id(node) not in self._back_edges:
                return
        if callee.cls is None and callee.node is not ctx.function.info.node:
            # Free functions are compiled from Python (`_recursive.try_compile_fn`), each call of one not yet
            # compiled compiling it anew: a cycle of them recurses in Python until it overflows.
            said = "maximum recursion depth exceeded"
        else:
            said = f"{'method' if callee.cls is not None else 'function'} '{callee.name}' is called recursively"
        ctx.report(node, (
            f"`{callee.name}` is still being compiled when this call reaches it again, and TorchScript does not "
            f"support recursion (torch: \"{said}\"); write it as a loop"))


def _compiled_on_the_callers_stack(call: cst.Call, callee, caller: cst.FunctionDef, project) -> bool:
    """Whether torch compiles `callee` for this call on the caller's compilation stack: a free function, a method of
    a class that is not a module, or a module's method called on the caller's own instance (`self.f(x)`,
    `super().f(x)`); not a method of another module object, which torch scripts as that submodule's own type."""
    if callee.cls is None or not project.is_module_class(callee.cls):
        return True
    func = call.func
    if not isinstance(func, cst.Attribute) or func.attr.value != callee.name:
        return False  # calling a module object: its `forward`
    receiver = func.value
    if isinstance(receiver, cst.Call) and isinstance(receiver.func, cst.Name) and receiver.func.value == "super":
        return True
    return isinstance(receiver, cst.Name) and receiver.value == first_param_name(caller)


def _back_edges(ctx: RuleContext) -> dict[int, object]:
    """The calls (by id) that reach a function on the stack of a depth-first walk from each root of the capture,
    through the calls of captured code this process explored, in each caller's order."""
    captured = ctx.captured
    calls: dict[int, list] = {}  # id of the caller's node -> [(ordinal, call, callee node)]
    nodes: dict[int, cst.FunctionDef] = {}
    for sites in captured.call_sites.values():
        for site in sites:
            if site.caller is None or site.call is None or site.ordinal < 0 or not site.caller.parsed:
                continue
            found = captured.callee_of(site.call)
            if found is None:
                continue
            caller, callee = site.caller.node, found[0].node
            if not _compiled_on_the_callers_stack(site.call, found[0], caller, ctx.project):
                continue
            nodes[id(caller)] = caller
            nodes[id(callee)] = callee
            calls.setdefault(id(caller), []).append((site.ordinal, site.call, callee))
    called = {id(callee) for edges in calls.values() for _o, _c, callee in edges}
    roots = []
    for key, node in nodes.items():
        entry = captured.get(node)
        reason = entry.reason if entry is not None else ""
        if key not in called or (reason and not reached_by_call(reason)):
            roots.append(node)
    back: dict[int, object] = {}
    for root in roots:
        on_stack: set[int] = set()
        done: set[int] = set()

        def visit(function: cst.FunctionDef) -> None:
            on_stack.add(id(function))
            for _ordinal, call, callee in sorted(calls.get(id(function), ()), key=lambda edge: edge[0]):
                if id(callee) in on_stack:
                    back[id(call)] = call
                elif id(callee) not in done:
                    visit(callee)
            on_stack.discard(id(function))
            done.add(id(function))

        visit(root)
    return back
