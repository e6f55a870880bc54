"""Statements: the typer's walk over one compiled function, the way the frontend emits it (`ir_emitter.cpp`:
`emitStatements`, `Environment`, `emitIfElseBlocks`, `emitLoopCommon`, `emitUnrolledLoop`, `emitReturn`).

The environment is a stack of frames, one per block (the function body, a branch, a loop body):

- assigning a name binds it in the current frame; a name bound in an enclosing frame keeps its type: the value is
  converted to it (`tryConvertToType`) and must then be a subtype ("Variable 'x' previously had type A but is now
  being assigned to a value of type B"); in its own frame a name may take another type;
- `x: T = v` binds x to T (v must be a subtype of T, no conversion); an inner block may not re-annotate a name of an
  outer one;
- an `if` whose condition torch decides (`binder`) compiles one branch, inline in the current frame; otherwise each
  branch is a frame (with the condition's refinements bound in it), and after the `if` a name bound in both (or in
  one, when the other exits) is bound to the join of its types; a name bound in one branch only, or to types that do
  not join, is an error where it is read next;
- a loop body is a frame: what it binds first is gone after the loop; a loop over a module container or a tuple is
  unrolled (its body compiled once per element, in the current frame, where `break` and `continue` are errors);
- `return`, `raise` end a block (what follows is not compiled); an `if` both of whose branches end, ends too;
  `break` and `continue` do not; returns join into the function's return type, or convert to the declared one; a
  function declared to return a value must not reach its end;
- `with` items and bodies are compiled in the current frame; `try`, nested `def`s and classes are not walked (torch
  rejects them first).
"""

from __future__ import annotations

from collections import ChainMap
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import libcst as cst

from jitlint.targets.script import schemas
from jitlint.targets.script.policy import is_property_setter
from jitlint.targets.script.typing.annotations import Reader, named_params, signature
from jitlint.targets.script.typing.binder import Condition, condition
from jitlint.targets.script.typing.calls import Arg
from jitlint.targets.script.typing.checkexpr import ExpressionChecker, Scope, Sugared, Value
from jitlint.targets.script.typing.results import (
    AnnotatedMismatch, AttributeNoneAssigned, AttributeTypeChange, BranchMismatch, CannotUnpack, DeleteSlice,
    ClassProblem, ContainerSliceAssign, DeleteUndefined, TargetProblem, ValueProblem,
    EmptyContainerFilled, FunctionTypes, LoopOnly, MissingReturn, ModuleContainerProblem, NoMatchingCall,
    NoneThenValue, OneBranch, Result, ReturnJoin, ReturnMismatch, SugaredReassign, TupleMisuse,
    UnpackArity, VariableTypeChange,
)
from jitlint.targets.script.typing.statements import assigned_in, is_stub, reads_name
from jitlint.targets.script.typing.types import (
    ANY_LIST, BOOL, FLOAT, INT, NONE, NUMBER, STR, TENSOR, Type, convert, join, subtype,
)

if TYPE_CHECKING:
    pass

_ASSIGNMENT_OPERATORS = {
    cst.AddAssign: cst.Add, cst.SubtractAssign: cst.Subtract, cst.MultiplyAssign: cst.Multiply,
    cst.DivideAssign: cst.Divide, cst.ModuloAssign: cst.Modulo, cst.PowerAssign: cst.Power,
    cst.FloorDivideAssign: cst.FloorDivide, cst.MatrixMultiplyAssign: cst.MatrixMultiply,
    cst.LeftShiftAssign: cst.LeftShift, cst.RightShiftAssign: cst.RightShift, cst.BitAndAssign: cst.BitAnd,
    cst.BitOrAssign: cst.BitOr, cst.BitXorAssign: cst.BitXor,
}
_IN_PLACE = {cst.AddAssign: "aten::add_", cst.SubtractAssign: "aten::sub_", cst.MultiplyAssign: "aten::mul_",
             cst.DivideAssign: "aten::div_", cst.ModuloAssign: "aten::fmod_"}


class Frame:
    """One block of the environment: the names it binds and their values. An `inline` frame (a branch of an `if`
    torch may fold either way) binds into its own table but is not a block of its own: its names' enclosing frames
    are those of the block it sits in."""

    __slots__ = ("parent", "values", "inline", "level")

    def __init__(self, parent: "Frame | None", inline: bool = False) -> None:
        self.parent = parent
        self.values: dict[str, Value] = {}
        self.inline = inline
        self.level = 0 if parent is None else parent.level + (0 if inline else 1)

    def chain(self) -> ChainMap:
        maps = []
        frame: Frame | None = self
        while frame is not None:
            maps.append(frame.values)
            frame = frame.parent
        return ChainMap(*maps)

    def block(self) -> "Frame":
        """The frame of the block this one belongs to (itself, unless inline)."""
        frame = self
        while frame.inline and frame.parent is not None:
            frame = frame.parent
        return frame

    def in_parent(self, name: str) -> tuple[bool, Value]:
        """Whether an enclosing block binds `name` (`findInParentFrame`), and its value there."""
        frame = self.block().parent
        while frame is not None:
            if name in frame.values:
                return True, frame.values[name]
            frame = frame.parent
        return False, None

    def in_block(self, name: str) -> tuple[bool, Value]:
        """Whether this block (this frame and the inline frames it sits in) binds `name`, and its value there."""
        frame: Frame | None = self
        while frame is not None:
            if name in frame.values:
                return True, frame.values[name]
            if not frame.inline:
                return False, None
            frame = frame.parent
        return False, None

    def lookup(self, name: str) -> tuple[bool, Value]:
        frame: Frame | None = self
        while frame is not None:
            if name in frame.values:
                return True, frame.values[name]
            frame = frame.parent
        return False, None


@dataclass
class _Loop:
    unrolled: bool = False


@dataclass
class _State:
    """What the walk tracks across statements: the merged return type, deferred errors for names (reported
    where the name is read next), names first bound only inside a loop, and the unannotated empty containers."""

    returns: Type | None = None
    returned: bool = False
    return_unknown: bool = False
    exit_unknown: bool = False  # an exit inside an `if` torch may fold either way: whether the end is reached is unknown
    deferred: dict[str, Result] = field(default_factory=dict)
    loop_only: dict[str, cst.CSTNode] = field(default_factory=dict)
    uncertain: int = 0
    empty: dict[str, tuple[cst.CSTNode, str]] = field(default_factory=dict)  # name -> (assignment, "list"/"dict")
    starts: dict[str, tuple[cst.CSTNode, str]] = field(default_factory=dict)  # the same, kept after a re-binding
    filled: dict[str, list] = field(default_factory=dict)  # name -> types given to it
    failed_fill: dict[str, tuple[cst.CSTNode, Type | None, Type | None]] = field(default_factory=dict)
    fields: set[str] = field(default_factory=set)  # attributes a TorchScript class's `__init__` has assigned


class Checker:
    """Types one compiled function: its statements in order, its expressions through `ExpressionChecker`."""

    def __init__(self, scope: Scope, pruned: set[int] | frozenset[int] = frozenset()) -> None:
        self.scope = scope
        self.pruned = pruned
        self.out = FunctionTypes()
        self.exprs = ExpressionChecker(scope, self._report, self.out.types, self.out.unknown)
        self.exprs.on_undefined = self._undefined
        self.exprs.on_method_call = self._method_call
        self.state = _State()
        self.loops: list[_Loop] = []
        self.reader = Reader(scope.imports, scope.project)

    # -- results ------------------------------------------------------------------------------------------------
    def _report(self, result: Result) -> None:
        if self.state.uncertain:
            return  # inside an `if` torch may fold either way: which branch is compiled is unknown
        if isinstance(result, NoMatchingCall) and self._empty_container_call(result):
            return
        self.out.results.append(result)

    def _undefined(self, node: cst.Name) -> bool:
        """A name read that no frame binds: an error deferred on it (one branch, types that do not join), or a
        name first bound in a loop."""
        deferred = self.state.deferred.pop(node.value, None)
        if deferred is not None:
            self._report(deferred)
            return True
        loop = self.state.loop_only.pop(node.value, None)
        if loop is not None:
            self._report(LoopOnly(node, node.value, loop))
            return True
        return False

    # -- the function -------------------------------------------------------------------------------------------
    def run(self, params: dict[str, Value]) -> FunctionTypes:
        function = self.scope.function
        frame = Frame(None)
        frame.values.update(params)
        body = function.body
        # a one-line body (`def f(x): return x + 1`) holds small statements: one statement line to the walk
        statements = list(body.body) if isinstance(body, cst.IndentedBlock) else (
            [cst.SimpleStatementLine(body=body.body)] if isinstance(body, cst.SimpleStatementSuite) else [])
        exits = self.block(statements, frame)
        signature = self.scope.signature
        if not exits:
            declared = signature.returns
            if (signature.declared_return and declared != NONE and not self._pruned_anywhere()
                    and not self.state.exit_unknown):
                if not is_stub(statements) or self._compiled_stub(statements):
                    if declared is not None or signature.declared_return:
                        self._report(MissingReturn(function.name, declared))
            self._merge_return(None, NONE, None)
        self.out.returns = signature.returns if signature.declared_return else (
            None if self.state.return_unknown else self.state.returns)
        if not self.state.returned and not signature.declared_return:
            self.out.returns = NONE if not self.state.return_unknown else None
        self._finish_empty_containers()
        return self.out

    def _pruned_anywhere(self) -> bool:
        return bool(self.pruned)

    def _compiled_stub(self, statements: list) -> bool:
        """A `pass`/docstring body of an undecorated method of a module class: torch compiles it."""
        info = self.scope.info
        if info is None or info.cls is None or self.scope.function.decorators:
            return False
        if not self.scope.is_module:
            return False
        imports = info.cls.module.imports
        for decorator in info.cls.node.decorators:
            expr = decorator.decorator.func if isinstance(decorator.decorator, cst.Call) else decorator.decorator
            if imports.qualify(expr) in ("torch.jit.interface", "typing.runtime_checkable"):
                return False
        for statement in statements:
            for small in getattr(statement, "body", ()):
                if isinstance(small, cst.Expr) and isinstance(small.value, cst.Ellipsis):
                    return False
        return True

    # -- blocks -------------------------------------------------------------------------------------------------
    def block(self, statements, frame: Frame) -> bool:
        """Walk statements in `frame`; True when the block exits (a return or raise is reached)."""
        for statement in statements:
            if id(statement) in self.pruned:
                return True  # the capture drops what follows (after an `if` it folds that always leaves)
            if self.statement(statement, frame):
                return True
        return False

    def suite(self, suite, frame: Frame) -> bool:
        if suite is None:
            return False
        if isinstance(suite, cst.IndentedBlock):
            return self.block(suite.body, frame)
        if isinstance(suite, cst.SimpleStatementSuite):
            return self.smalls(suite.body, frame)
        if isinstance(suite, cst.Else):
            return self.suite(suite.body, frame)
        return False

    def smalls(self, smalls, frame: Frame) -> bool:
        for small in smalls:
            if self.small(small, frame):
                return True
        return False

    def statement(self, statement: cst.CSTNode, frame: Frame) -> bool:
        if isinstance(statement, cst.SimpleStatementLine):
            return self.smalls(statement.body, frame)
        if isinstance(statement, cst.If):
            return self.if_statement(statement, frame)
        if isinstance(statement, cst.For):
            self.for_loop(statement, frame)
            return False
        if isinstance(statement, cst.While):
            self.while_loop(statement, frame)
            return False
        if isinstance(statement, cst.With):
            for item in statement.items:
                value = self.exprs.expr(item.item, frame.chain())
                self._context_manager(item.item, value)
                if item.asname is not None:
                    self.bind(item.asname.name, self._entered(value), frame, item.asname.name)
            return self.suite(statement.body, frame)
        if isinstance(statement, (cst.Try, cst.TryStar, cst.Match)):
            # torch rejects them before typing their contents: what the function returns and whether its end is
            # reached are unknown
            self.state.return_unknown = True
            self.state.exit_unknown = True
        return False  # nested def and class: not walked

    def _context_manager(self, node: cst.BaseExpression, value: Value) -> None:
        """`emitWith`: the item is an object whose class defines `__enter__(self)` and `__exit__(self, a, b, c)`
        with the three annotated `Any`."""
        if not isinstance(value, Type) or not value.fully_known or value.name in ("Any",):
            return
        if value.name != "Class":
            self._report(ValueProblem(node, "with", value))
            return
        project = self.scope.project
        cls = project.resolve_class(value.qualname)
        if cls is None:
            return
        enter, exit_ = project.find_method(cls, "__enter__"), project.find_method(cls, "__exit__")
        if enter is None or exit_ is None:
            self._report(ClassProblem(node, cls.name, "with-methods"))
            return
        if len(named_params(enter.node.params)) != 1:
            self._report(ClassProblem(node, cls.name, "with-enter"))
            return
        exit_params = named_params(exit_.node.params)
        if len(exit_params) != 4:
            self._report(ClassProblem(node, cls.name, "with-exit"))
            return
        reader = Reader(exit_.module.imports, project)
        for index, param in enumerate(exit_params[1:], start=1):
            kind = reader.read(param.annotation.annotation) if param.annotation is not None else TENSOR
            if kind is not None and kind.name != "Any":
                self._report(ClassProblem(node, cls.name, "with-exit-any", str(index), kind))
                return

    def _entered(self, value: Value) -> Value:
        return None

    def small(self, small: cst.BaseSmallStatement, frame: Frame) -> bool:
        env = frame.chain()
        if isinstance(small, cst.Assign):
            self.assign(small, frame)
        elif isinstance(small, cst.AnnAssign):
            self.annotated_assign(small, frame)
        elif isinstance(small, cst.AugAssign):
            self.augmented_assign(small, frame)
        elif isinstance(small, cst.Expr):
            self.exprs.expr(small.value, env)
        elif isinstance(small, cst.Return):
            self.return_statement(small, frame)
            return True
        elif isinstance(small, cst.Raise):
            if small.exc is not None:
                raised = self.exprs.expr(small.exc, env)
                if isinstance(raised, Type) and raised.fully_known and raised.name not in ("Class", "Any"):
                    self._report(ValueProblem(small.exc, "raise", raised))  # no exception: a str, a number ...
            return True
        elif isinstance(small, cst.Assert):
            return self.assert_statement(small, frame)
        elif isinstance(small, cst.Del):
            self.delete(small.target, frame)
        elif isinstance(small, (cst.Break, cst.Continue)):
            return False  # not an exit to the frontend: what follows is still compiled
        return False

    # -- if ------------------------------------------------------------------------------------------------------
    def if_statement(self, node: cst.If, frame: Frame) -> bool:
        env = frame.chain()
        test = condition(node.test, env, self.exprs)
        body_dead = id(node.body) in self.pruned
        orelse_dead = node.orelse is not None and id(node.orelse) in self.pruned
        static = test.static
        if body_dead:
            static = False
        elif orelse_dead:
            static = True
        if static is True:
            self._refine(frame, test.true)
            return self.suite(node.body, frame)
        if static is False:
            self._refine(frame, test.false)
            return self._orelse(node.orelse, frame)
        if test.uncertain:
            return self._uncertain(node, test, frame)
        true_frame, false_frame = Frame(frame), Frame(frame)
        self._refine(true_frame, test.true)
        self._refine(false_frame, test.false)
        true_exits = self.suite(node.body, true_frame)
        false_exits = self._orelse(node.orelse, false_frame)
        if true_exits and false_exits:
            return True
        self._join_branches(node, frame, true_frame, false_frame, true_exits, false_exits)
        return False

    def _orelse(self, orelse, frame: Frame) -> bool:
        if orelse is None:
            return False
        if isinstance(orelse, cst.If):  # elif: an `if` inside the else branch
            return self.if_statement(orelse, frame)
        return self.suite(orelse.body, frame)

    def _refine(self, frame: Frame, refinements: dict) -> None:
        for name, kind in refinements.items():
            frame.values[name] = kind

    def _join_branches(self, node: cst.If, frame: Frame, true_frame: Frame, false_frame: Frame,
                       true_exits: bool, false_exits: bool) -> None:
        mutated: list[str] = []
        for name in true_frame.values:
            if false_exits or false_frame.lookup(name)[0]:
                mutated.append(name)
            elif not self.state.uncertain:
                self.state.deferred[name] = OneBranch(node.test, name, True, node)
        for name in false_frame.values:
            if name in mutated:
                continue
            if true_exits or true_frame.lookup(name)[0]:
                mutated.append(name)
            elif not self.state.uncertain:
                self.state.deferred[name] = OneBranch(node.test, name, False, node)
        for name in mutated:
            first = None if true_exits else true_frame.lookup(name)[1]
            second = None if false_exits else false_frame.lookup(name)[1]
            if true_exits:
                first = second
            if false_exits:
                second = first
            self.state.deferred.pop(name, None)
            self.state.loop_only.pop(name, None)
            if isinstance(first, Sugared) or isinstance(second, Sugared):
                frame.values[name] = first if first == second else None
                continue
            # where the name's type before the `if` is a Union, an Optional or a number, the branches' types join
            # into their Union (`x: Union[int, List[int]]` refined differently in each branch)
            found, before = frame.lookup(name)
            to_union = found and isinstance(before, Type) and (before.name in ("Union", "Optional")
                                                               or before == NUMBER)
            joined = join(first, second, to_union=to_union)
            if joined is False:
                in_parent = found
                result = BranchMismatch(node.test, name, first, second)
                if in_parent:
                    self._report(result)
                    frame.values[name] = None
                else:
                    self.state.deferred[name] = result
                    frame.values.pop(name, None)
                continue
            frame.values[name] = joined

    def _uncertain(self, node: cst.If, test: Condition, frame: Frame) -> bool:
        """An `if` torch folds in a way jitlint cannot tell: each branch as if compiled alone, in the current block;
        what either binds is bound after it (unknown where they differ), and neither exit counts."""
        self.state.uncertain += 1
        try:
            branches = []
            for suite, refinements in ((node.body, test.true), (node.orelse, test.false)):
                branch = Frame(frame, inline=True)
                self._refine(branch, refinements)
                if suite is node.body:
                    exits = self.suite(suite, branch)
                else:
                    exits = self._orelse(suite, branch)
                if exits:
                    self.state.exit_unknown = True
                branches.append(branch)
        finally:
            self.state.uncertain -= 1
        for branch in branches:
            for name, value in branch.values.items():
                found, before = frame.lookup(name)
                frame.values[name] = value if not found or before == value else None
                self.state.deferred.pop(name, None)
        return False

    # -- loops -----------------------------------------------------------------------------------------------------
    def for_loop(self, node: cst.For, frame: Frame) -> None:
        env = frame.chain()
        iterable = self.exprs.expr(node.iter, env)
        element = self.exprs.element_of(iterable, node.iter)
        unrolled = self._unrolled(iterable, node.iter)
        if isinstance(node.target, cst.List):
            self._report(TargetProblem(node.target, "list-target"))
        else:
            self._list_targets(node.target)
        self._module_loop(node, iterable)
        if unrolled:
            before = {name: frame.lookup(name) for name in assigned_in(node.body)}
            self.loops.append(_Loop(unrolled=True))
            try:
                self.bind(node.target, element, frame, node.target, loop=True)
                self.suite(node.body, frame)
            finally:
                self.loops.pop()
            for name, (found, value) in before.items():  # each element may give its own type
                if found and frame.lookup(name)[1] != value:
                    frame.values[name] = None
            return
        body = Frame(frame)
        self.loops.append(_Loop())
        try:
            self.bind(node.target, element, body, node.target, loop=True)
            self.suite(node.body, body)
        finally:
            self.loops.pop()
        self._after_loop(node, frame, body)

    def while_loop(self, node: cst.While, frame: Frame) -> None:
        env = frame.chain()
        condition(node.test, env, self.exprs)
        body = Frame(frame)
        self.loops.append(_Loop())
        try:
            self.suite(node.body, body)
        finally:
            self.loops.pop()
        self._after_loop(node, frame, body)

    def _after_loop(self, node: cst.For | cst.While, frame: Frame, body: Frame) -> None:
        for name in body.values:
            if frame.lookup(name)[0]:
                continue
            if node.orelse is not None:
                frame.values[name] = None
                continue
            if self.state.uncertain:
                frame.values[name] = None
                continue
            self.state.loop_only[name] = node

    def _unrolled(self, iterable: Value, node: cst.BaseExpression) -> bool:
        """Whether torch unrolls a loop over this iterable: a module container or a tuple (also inside `zip` and
        `enumerate`), or something read from `self` whose type is unknown (it may be one)."""
        if isinstance(iterable, Type):
            return iterable.name == "Tuple"
        if isinstance(iterable, Sugared):
            if iterable.kind in ("module", "self-module"):
                return True
            if iterable.kind == "method-result":
                return True
            if iterable.kind in ("zip", "enumerate"):
                inner = node.args if isinstance(node, cst.Call) else ()
                return any(self._unrolled(self.out.types.get(id(a.value)), a.value) for a in inner)
            if iterable.kind == "range":
                return False
        if iterable is None:
            return self.scope.self_name is not None and reads_name(node, self.scope.self_name)
        return False

    def _module_loop(self, node: cst.For, iterable: Value) -> None:
        """Module containers in a `for`: zipped with something of no static length, or their modules unpacked."""
        iterated = node.iter
        target = node.target
        if isinstance(iterated, cst.Call) and self.scope.imports.qualify(iterated.func) == "builtins.zip":
            values = [self.out.types.get(id(argument.value)) for argument in iterated.args]
            containers = [v.info.container for v in values if isinstance(v, Sugared) and v.kind == "module"
                          and v.info.container in ("ModuleList", "Sequential", "ModuleDict")] + [
                "tuple" for v in values if isinstance(v, Type) and v.name == "Tuple"]  # a tuple is unrolled too
            if containers and not any(argument.star or argument.keyword for argument in iterated.args):
                for argument, value in zip(iterated.args, values):
                    is_range = isinstance(argument.value, cst.Call) and self.scope.imports.qualify(
                        argument.value.func) == "builtins.range"
                    if (isinstance(value, Sugared) and not is_range) or (isinstance(value, Type)
                                                                          and value.name == "Tuple"):
                        continue
                    if is_range or (isinstance(value, Type) and (value.name in ("List", "Dict") or value in (
                            TENSOR, STR))) or isinstance(argument.value, (cst.List, cst.ListComp)):
                        partner = "range" if is_range else (str(value) if isinstance(value, Type) else "list")
                        self._report(ModuleContainerProblem(node, containers[0], partner=partner))
                        return
        if (isinstance(iterated, cst.Call) and self.scope.imports.qualify(iterated.func) == "builtins.enumerate"
                and len(iterated.args) == 1 and isinstance(target, (cst.Tuple, cst.List))
                and len(target.elements) == 2):
            iterated, target = iterated.args[0].value, target.elements[1].value
            iterable = self.out.types.get(id(iterated))
        if isinstance(target, (cst.Tuple, cst.List)) and isinstance(iterable, Sugared) and iterable.kind == "module":
            container = iterable.info.container
            if container in ("ModuleList", "Sequential"):
                self._report(ModuleContainerProblem(node, container, unpacked=True))

    # -- assignments ---------------------------------------------------------------------------------------------
    def assign(self, node: cst.Assign, frame: Frame) -> None:
        env = frame.chain()
        self.exprs.sugared_ok.add(id(node.value))
        value = self.exprs.expr(node.value, env)
        if any(isinstance(t.target, (cst.Subscript, cst.Attribute)) for t in node.targets) and self.exprs.misused(
                node.value, value, "value"):
            value = None  # stored in an item or an attribute (`emitSubscriptAssign`, `emitSelectAssign`): a value
        empty = _empty_container(node.value, self.scope.imports)
        for target in node.targets:
            if isinstance(target.target, cst.List):
                self._report(TargetProblem(target.target, "list-assign"))
                continue
            self._list_targets(target.target)
            self.bind(target.target, value, frame, target.target, statement=node)
            if empty is not None and isinstance(target.target, cst.Name) and len(node.targets) == 1:
                name = target.target.value
                self.state.empty[name] = (node, empty)
                if name not in self.state.failed_fill:
                    self.state.starts[name] = (node, empty)
                    self.state.filled[name] = []

    def _list_targets(self, target: cst.BaseExpression) -> None:
        """A list display inside a tuple target (`a, [b, c] = ...`): "lhs of assignment must be a variable,
        subscript, or starred expression"."""
        if isinstance(target, cst.Tuple):
            for element in target.elements:
                if isinstance(element.value, cst.List):
                    self._report(TargetProblem(element.value, "list-target"))
                    return
                self._list_targets(element.value)

    def bind(self, target: cst.BaseExpression, value: Value, frame: Frame, node: cst.CSTNode,
             statement: cst.CSTNode | None = None, loop: bool = False) -> None:
        """Bind an assignment (or loop) target to a value, as `emitExprsAssign` does."""
        if isinstance(target, cst.Name):
            self.set_variable(target.value, value, frame, target)
            return
        if isinstance(target, (cst.Tuple, cst.List)):
            self._unpack(target, value, frame, statement or node)
            return
        if isinstance(target, cst.Attribute):
            self._set_attribute(target, value, frame)
            return
        if isinstance(target, cst.Subscript):
            self._set_item(target, value, frame)
            return
        if isinstance(target, cst.StarredElement):
            self.bind(target.value, None, frame, node)

    def set_variable(self, name: str, value: Value, frame: Frame, node: cst.CSTNode, augmented: bool = False) -> None:
        """`setSugaredVar`: a name of an enclosing block keeps its type; in its own block a name may be re-typed."""
        self.state.deferred.pop(name, None)
        self.state.loop_only.pop(name, None)
        if not augmented:
            self.state.empty.pop(name, None)
        in_parent, previous = frame.in_parent(name)
        if in_parent and self.loops and self.loops[-1].unrolled and frame.block() is self._unrolled_frame(frame) and (
                not isinstance(previous, Sugared) and not isinstance(value, Sugared)):
            frame.values[name] = value
            return
        if in_parent and (isinstance(previous, Sugared) or isinstance(value, Sugared)):
            # only first-class values can be re-bound in an inner block
            if not self.state.uncertain:
                self._report(SugaredReassign(
                    node, name, previous.kind if isinstance(previous, Sugared) else None,
                    value.kind if isinstance(value, Sugared) else None,
                    previous if isinstance(previous, Type) else None, value if isinstance(value, Type) else None))
            frame.values[name] = None
            return
        held_here, held = frame.in_block(name)
        if held_here and isinstance(held, Sugared) and not isinstance(value, Sugared):
            return  # a sugared binding of this block stays what the name reads (the stored value is never read)
        if in_parent and isinstance(previous, Type) and isinstance(value, Type):
            converted = convert(value, previous)
            if subtype(converted, previous) is False and not self.state.uncertain:
                if previous == NONE:
                    self._report(NoneThenValue(node, name, value))
                else:
                    self._report(VariableTypeChange(node, name, previous, value, augmented))
                frame.values[name] = None  # what torch would make of it after its error: unknown, no cascade
                return
            frame.values[name] = converted if subtype(converted, previous) is True else previous
            return
        if in_parent and previous is None:
            frame.values[name] = None
            return
        if in_parent and value is None and isinstance(previous, Type) and _exact(previous):
            frame.values[name] = previous  # torch keeps it that type (or rejects the assignment): nothing else
            return
        frame.values[name] = value

    def _unrolled_frame(self, frame: Frame) -> Frame | None:
        return frame.block()

    def _unpack(self, target: cst.Tuple | cst.List, value: Value, frame: Frame, node: cst.CSTNode) -> None:
        elements = target.elements
        starred = [i for i, element in enumerate(elements) if isinstance(element, cst.StarredElement)]
        need = len(elements) - len(starred)
        parts: list[Value] | None = None
        if isinstance(value, Type) and value.name == "Tuple":
            found = len(value.args)
            if found < need or (found > need and not starred):
                self._report(UnpackArity(target, need, found, bool(starred)))
            elif starred:
                index = starred[0]
                tail = found - (len(elements) - index - 1)
                rest = value.args[index:tail]
                from jitlint.targets.script.typing.types import tuple_of

                parts = [*value.args[:index], tuple_of(rest), *value.args[tail:]]
            else:
                parts = list(value.args)
        elif isinstance(value, Type) and value.name == "List":
            if starred:
                from jitlint.targets.script.typing.results import StarredList

                self._report(StarredList(target, value))  # a list has no length torch can know here
            else:
                parts = [value.args[0]] * len(elements)  # unpacked with a check of its length at run time
        elif isinstance(value, Type) and value.fully_known and value.name not in ("Optional", "Union", "Any"):
            if value == TENSOR:
                self._report(CannotUnpack(node, value, "tensor"))
            elif value.name == "AnyTuple":
                self._report(CannotUnpack(node, value, "untyped-tuple"))  # a bare `tuple`: its length is unknown
            elif value.name not in ("Class",):
                self._report(CannotUnpack(node, value, str(value)))
        elif isinstance(value, Sugared) and value.kind == "items":
            if not starred and len(value.info) == len(elements):
                parts = list(value.info)  # a step of `enumerate`/`zip` over a module container: index, module, ...
        elif isinstance(value, Sugared) and value.kind == "module" and value.info.container in (
                "ModuleList", "Sequential"):
            parts = None  # the container's modules, one per target: not followed
        elif isinstance(value, Sugared):
            self.exprs.misused(node.value if isinstance(node, cst.Assign) else node, value, "tuple")
        for index, element in enumerate(elements):
            part = parts[index] if parts is not None and index < len(parts) else None
            self.bind(element.value, part, frame, element.value)

    def annotated_assign(self, node: cst.AnnAssign, frame: Frame) -> None:
        annotation = self.reader.read(node.annotation.annotation)
        target = node.target
        env = frame.chain()
        if node.value is None:
            return
        self.exprs.annotated.add(id(node.value))
        value = self.exprs.expr(node.value, env, annotation)
        if annotation == ANY_LIST and isinstance(node.value, cst.List):
            # `xs: list = []`: the display is rejected here (HintMismatch; torch 2.13 even dies on it, a
            # segmentation fault), so the variable's later uses are not judged as a bare `list`'s
            annotation = None
        if not isinstance(target, cst.Name):
            self.bind(target, annotation if annotation is not None else value, frame, target, statement=node)
            return
        name = target.value
        in_parent, _previous = frame.in_parent(name)
        if in_parent:
            self._report(AnnotatedMismatch(node, name, annotation, reannotated=True))
            return
        if isinstance(value, Type) and annotation is not None and subtype(value, annotation) is False:
            if not self._hint_reported(node.value):
                self._report(AnnotatedMismatch(node, name, annotation, value))
        self.state.deferred.pop(name, None)
        self.state.loop_only.pop(name, None)
        self.state.empty.pop(name, None)
        frame.values[name] = annotation

    def _hint_reported(self, value: cst.BaseExpression) -> bool:
        """A display typed by the annotation already reported its element (HintMismatch)."""
        from jitlint.targets.script.typing.results import HintMismatch, TolistBadHint

        return any(isinstance(r, (HintMismatch, TolistBadHint)) and r.node in (value,)
                   for r in self.out.results[-3:]) or isinstance(value, (cst.List, cst.Dict, cst.ListComp,
                                                                         cst.DictComp))

    def augmented_assign(self, node: cst.AugAssign, frame: Frame) -> None:
        env = frame.chain()
        target = node.target
        operator_type = type(node.operator)
        if isinstance(target, cst.Subscript):
            self.exprs.expr(target, env)  # read first (`emitAugAssignmentToSubscript`): a Tensor's indices checked
            base = self.exprs.types.get(id(target.value))
            self.exprs.expr(node.value, env)
            if isinstance(base, Type) and base.name == "Tuple":
                self._report(TupleMisuse(target, base, "aug-assign"))
            elif isinstance(base, Type) and base.name in ("List", "Dict") and (
                    len(target.slice) != 1 or not isinstance(target.slice[0].slice, cst.Index)):
                self._report(ContainerSliceAssign(target, base, augmented=True))
            return
        current = self.exprs.value(target, env)
        value = self.exprs.value(node.value, env)
        if not isinstance(current, Type) or not isinstance(value, Type):
            if isinstance(target, cst.Name):
                # a Tensor or a list is updated in place, and a name of an enclosing block keeps its type (or torch
                # rejects the assignment); in its own block `n += t` of an int and a Tensor is a Tensor: unknown
                kept = current if isinstance(current, Type) and (current == TENSOR or current.name == "List" or (
                    frame.in_parent(target.value)[0])) else None
                self.set_variable(target.value, kept, frame, target, augmented=True)
            return
        if current.name in ("Class", "Module"):
            if current.name == "Class" and operator_type not in _CLASS_AUGMENTED and operator_type not in (
                    cst.FloorDivideAssign, cst.MatrixMultiplyAssign):  # those two: JIT240
                symbol = cst.Module([]).code_for_node(node.operator).strip()
                self._report(ClassProblem(node, current.qualname or "", "augmented", symbol))
            return
        in_place = current == TENSOR or current.name == "List"
        operator = _IN_PLACE.get(operator_type) if in_place else None
        binary = _ASSIGNMENT_OPERATORS.get(operator_type)
        from jitlint.targets.script.typing.frontend_names import BINARY_OPERATORS

        if operator is None and binary is not None:
            operator = BINARY_OPERATORS[binary][0]
        if operator is None:
            return
        symbol = BINARY_OPERATORS[binary][2] + "=" if binary is not None else "op="
        if in_place and current.name == "List" and operator_type is cst.AddAssign:
            operator = "aten::add_"
        result = self.exprs._matched(node, symbol, schemas.overloads(operator),
                                     [Arg(None, current), Arg(None, value)], None, operator=symbol)
        if isinstance(target, cst.Name):
            self.set_variable(target.value, result, frame, target, augmented=True)
        elif isinstance(target, cst.Attribute):
            self._set_attribute(target, result, frame)

    def _set_attribute(self, target: cst.Attribute, value: Value, frame: Frame) -> None:
        """`self.x = value` in compiled code: the attribute keeps the type `__init__` gave it ("Wrong type for
        attribute assignment")."""
        env = frame.chain()
        owner = self.exprs.expr(target.value, env)
        if self.exprs.misused(target.value, owner, "attribute-assignment"):
            return
        if isinstance(owner, Type):
            self._set_object_attribute(target, owner, frame)
        if not isinstance(value, Type):
            return
        if not (isinstance(owner, Sugared) and owner.kind == "self-module"):
            return
        name = target.attr.value
        project = self.scope.project
        if self._set_property(target, name, value):
            return
        if not (value == NONE or value in (TENSOR, INT, FLOAT, BOOL, STR) or (
                value.name == "Optional" and (not value.args or value.args[0] in (TENSOR, INT, FLOAT, BOOL, STR)))):
            return  # no attribute type makes storing this value an error below: nothing to type per class
        owners = self.scope.owners
        # every class first (its attributes are at hand), then each class's member until two differ: a method of
        # a library's base class is compiled for each of thousands of subclasses, each typed on its own
        if not owners or any((info := project.attributes(cls).get(name)) is None or info.annotation is not None
                             for cls in owners):
            return
        current = None
        for number, cls in enumerate(owners):
            member = self.scope.members.member(cls, name)
            if number == 0:
                current = member
            elif _hashable(member) != _hashable(current):
                return
        if not isinstance(current, Type):
            return
        if value == NONE:  # None for an int, float, bool or str attribute (not Optional: torch typed the value)
            if current in (INT, FLOAT, BOOL, STR):
                self._report(AttributeTypeChange(target, name, current, value))
        elif current == NONE and (value in (TENSOR, INT, FLOAT, BOOL, STR) or (
                value.name == "Optional" and value.args[0] in (TENSOR, INT, FLOAT, BOOL, STR))):
            self._report(AttributeNoneAssigned(target, name, value))
        elif current in (TENSOR, INT, FLOAT, BOOL, STR) and value in (TENSOR, INT, FLOAT, BOOL, STR) and (
                subtype(value, current) is False):
            self._report(AttributeTypeChange(target, name, current, value))

    def _set_property(self, target: cst.Attribute, name: str, value: Type) -> bool:
        """`self.<name> = value` where the module class defines a property `name` (`SimpleValue::setAttr`): torch
        calls its setter with the value (matched against the setter's parameter, "Expected a value of type ...
        for argument"), or rejects a property without setter ("Tried to set read-only attribute")."""
        project = self.scope.project
        methods = [project.find_method(cls, name) for cls in self.scope.owners]
        if not methods or any(m is None or not (m.is_property or is_property_setter(m)) for m in methods):
            return False
        if len({id(m.node) for m in methods}) != 1:
            return True
        method, cls = methods[0], self.scope.owners[0]
        if method.is_property:
            self._report(ClassProblem(target, cls.name, "read-only", name))
            return True
        found = signature(method.node, method.module.imports, project, True)
        if found.varargs or len(found.params) != 1:
            return True
        params = [(p.name, p.type, p.default is not None, p.keyword_only) for p in found.params]
        overload = schemas.declared_overload(method.display_name, params, found.returns if found.declared_return
                                             else None)
        self.exprs._matched(target, method.display_name, (overload,), [Arg(None, value)], None,
                            project_function=method)
        return True

    def _set_object_attribute(self, target: cst.Attribute, owner: Type, frame: Frame) -> None:
        """`obj.x = value` (`SimpleValue::setAttr`): only a class instance takes attributes; a property needs a
        setter; in `__init__` each attribute is first assigned in the method's own block."""
        name = target.attr.value
        if owner.name != "Class":
            if owner.fully_known and owner.name not in ("Module", "Interface", "ModuleInterface", "Any", "Optional",
                                                        "Union") and name != "requires_grad":
                self._report(ValueProblem(target, "set-attribute", owner, name))
            return
        project = self.scope.project
        cls = project.resolve_class(owner.qualname)
        if cls is None:
            return
        method = project.find_method(cls, name)
        if method is not None and method.is_property and not any(
                decorator.endswith(".setter") for decorator in method.decorators):
            self._report(ClassProblem(target, cls.name, "read-only", name))
            return
        info = self.scope.info
        if info.name != "__init__" or info.cls is not cls or not isinstance(target.value, cst.Name) or (
                target.value.value != self.scope.self_name):
            return
        if name not in self.state.fields:
            root: Frame = frame
            while root.parent is not None:
                root = root.parent
            if frame.block() is not root and not self.state.uncertain:
                self._report(ClassProblem(target, cls.name, "first-in-block", name))
            self.state.fields.add(name)

    def _set_item(self, target: cst.Subscript, value: Value, frame: Frame) -> None:
        env = frame.chain()
        base = self.exprs.expr(target.value, env)
        indices = []
        for element in target.slice:
            if isinstance(element.slice, cst.Index):
                indices.append(self.exprs.expr(element.slice.value, env))
            else:
                for bound in (element.slice.lower, element.slice.upper, element.slice.step):
                    if bound is not None:
                        self.exprs.expr(bound, env)
                indices.append(Sugared("slice"))
        if not isinstance(base, Type):
            return
        if base.name == "Tuple":
            self._report(TupleMisuse(target, base, "assign"))
            return
        if base.name in ("List", "Dict") and (len(indices) != 1 or isinstance(indices[0], Sugared)):
            self._report(ContainerSliceAssign(target, base, augmented=False))
            return
        if base.name in ("List", "Dict") and len(indices) == 1 and isinstance(value, Type | None) and not (
                isinstance(indices[0], Sugared)):
            index = indices[0] if isinstance(indices[0], Type) else None
            name = target.value.value if isinstance(target.value, cst.Name) else None
            if name is not None and name in self.state.empty:
                self.state.filled.setdefault(name, []).append((index, value))
            self.exprs._matched(target, f"{base.name.lower()}.__setitem__", schemas.overloads("aten::_set_item"),
                                [Arg(None, base), Arg(None, index), Arg(None, value if isinstance(value, Type)
                                                                        else None)], None)

    def delete(self, target: cst.BaseExpression, frame: Frame) -> None:
        items = [element.value for element in target.elements] if isinstance(target, (cst.Tuple, cst.List)) else [
            target]
        env = frame.chain()
        for item in items:
            if isinstance(item, cst.Subscript):
                if any(isinstance(element.slice, cst.Slice) for element in item.slice):
                    self._report(DeleteSlice(item))
                    continue
                base = self.exprs.expr(item.value, env)
                if isinstance(base, Type) and base.name == "Class":
                    cls = self.scope.project.resolve_class(base.qualname)
                    if cls is not None and self.scope.project.find_method(cls, "__delitem__") is None:
                        self._report(ClassProblem(item, cls.name, "no-delitem"))
            elif isinstance(item, cst.Attribute):
                self._report(TargetProblem(item, "del-attribute"))
            elif isinstance(item, cst.Name):
                name = item.value
                root: Frame = frame
                while root.parent is not None:
                    root = root.parent
                if name not in root.values and frame.block() is not root and not self.state.uncertain and not any(
                        loop.unrolled for loop in self.loops):
                    # torch's removeVar erases the name from every block but says whether the outermost had it
                    self._report(DeleteUndefined(item, name))
                current: Frame | None = frame
                while current is not None:
                    current.values.pop(name, None)
                    current = current.parent

    # -- returns, asserts ----------------------------------------------------------------------------------------
    def return_statement(self, node: cst.Return, frame: Frame) -> None:
        signature = self.scope.signature
        declared = signature.returns if signature.declared_return else None
        env = frame.chain()
        value = NONE if node.value is None else self.exprs.value(node.value, env, declared)
        kind = value if isinstance(value, Type) else None
        if signature.declared_return:
            if declared is None or kind is None:
                return
            if declared == TENSOR and kind == NONE:
                converted = kind
            else:
                converted = convert(kind, declared)
            if subtype(converted, declared) is False and not self._display_reported(node.value):
                self._report(ReturnMismatch(node, declared, kind))
            self.state.returned = True
            return
        self._merge_return(node, kind, node.value)

    def _display_reported(self, value: cst.BaseExpression | None) -> bool:
        from jitlint.targets.script.typing.results import HintMismatch

        return value is not None and any(isinstance(r, HintMismatch) and r.node is value for r in self.out.results)

    def _merge_return(self, node: cst.Return | None, kind: Type | None, value) -> None:
        if self.state.uncertain:
            self.state.return_unknown = True
            return
        if kind is None:
            self.state.return_unknown = True
            self.state.returned = True
            return
        if not self.state.returned:
            self.state.returns = kind
            self.state.returned = True
            return
        previous = self.state.returns
        if previous is None:
            return
        joined = join(previous, kind)
        if joined is False:
            if node is not None:
                self._report(ReturnJoin(node, previous, kind))
            self.state.return_unknown = True
            return
        self.state.returns = joined

    def assert_statement(self, node: cst.Assert, frame: Frame) -> bool:
        env = frame.chain()
        test = condition(node.test, env, self.exprs)
        if node.msg is not None:
            self.exprs.expr(node.msg, test.when_false(env))
        if test.static is False:
            return True
        if test.static is None and not test.uncertain:
            self._refine(frame, test.true)
        elif test.static is True:
            self._refine(frame, test.true)
        return False

    # -- empty containers ---------------------------------------------------------------------------------------
    def _empty_container_call(self, result: NoMatchingCall) -> bool:
        """A call no overload accepts on a list or dict started as an unannotated `[]` or `{}`: recorded for
        `EmptyContainerFilled` instead."""
        node = result.node
        if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and isinstance(
                node.func.value, cst.Name) and node.func.attr.value in ("append", "insert", "extend"):
            name = node.func.value.value
            if name in self.state.empty and self.state.empty[name][1] == "list":
                self.state.failed_fill.setdefault(name, (node, None, None))
                return True
        if isinstance(node, cst.Subscript) and isinstance(node.value, cst.Name) and node.value.value in self.state.empty:
            name = node.value.value
            self.state.failed_fill.setdefault(name, (node, None, None))
            return True
        return False

    def _method_call(self, node: cst.Call, name: str, args: list) -> None:
        """What is given to a list started as an unannotated `[]` (`append`, `insert`, `extend`)."""
        func = node.func
        if not (isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name)):
            return
        variable = func.value.value
        if variable not in self.state.empty or self.state.empty[variable][1] != "list":
            return
        if name == "append" and len(args) == 1:
            self.state.filled[variable].append((None, args[0].type))
        elif name == "insert" and len(args) == 2:
            self.state.filled[variable].append((None, args[1].type))
        elif name == "extend" and len(args) == 1:
            given = args[0].type
            self.state.filled[variable].append((None, given.args[0] if given is not None and given.name == "List"
                                                else None))

    def _finish_empty_containers(self) -> None:
        from jitlint.targets.script.typing.types import join_all

        for name, (node, _key, _value) in self.state.failed_fill.items():
            start, kind = self.state.starts.get(name, (None, "list"))
            given = self.state.filled.get(name, [])
            values = [value for _k, value in given]
            keys = [key for key, _v in given]
            element = join_all(values) if values and all(isinstance(v, Type) for v in values) else None
            key = join_all(keys) if kind == "dict" and keys and all(isinstance(k, Type) for k in keys) else None
            self.out.results.append(EmptyContainerFilled(
                node, name, start, kind, element if isinstance(element, Type) else None,
                key if isinstance(key, Type) else None))


_CLASS_AUGMENTED = (cst.AddAssign, cst.SubtractAssign, cst.MultiplyAssign, cst.DivideAssign, cst.ModuloAssign)


def _exact(kind: Type) -> bool:
    """A type whose values are of no other type (no Optional, Union, Any, number, tuple or class): a variable of an
    enclosing block that has it keeps it whatever is assigned."""
    if kind.name in ("Tensor", "int", "float", "bool", "str", "Device", "NoneType"):
        return True
    return kind.name in ("List", "Dict") and kind.fully_known


def _hashable(value):
    return value if isinstance(value, (Type, type(None))) else id(value)


def _empty_container(value: cst.BaseExpression, imports) -> str | None:
    if isinstance(value, cst.List) and not value.elements:
        return "list"
    if isinstance(value, cst.Dict) and not value.elements:
        return "dict"
    if isinstance(value, cst.Call) and not value.args:
        return {"builtins.list": "list", "builtins.dict": "dict"}.get(imports.qualify(value.func) or "")
    return None
