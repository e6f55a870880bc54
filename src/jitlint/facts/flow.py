"""A target-neutral walk over the control flow of one function, for an abstract domain to interpret.

`FlowWalker` follows the statements of a function body in order and keeps, at each point, a `Frame`: the local
names bound there, the domain's value for each, and the depth of the block each was first bound in. What it
models:

- sequences of statements, and early exits: `return`, `raise`, `break`, `continue` and `assert False` end a block;
  so does a statement the capture pruned (`pruned`: ids of the statements and suites the target's capture drops,
  as `CapturedFunction.pruned` holds them); nothing after an exit is walked;
- `if`/`elif`/`else`: the test is read, then each branch is walked on its own copy of the frame, one block deeper,
  after the domain refines both copies on the test; a pruned branch is not walked and the live one is walked
  inline. If both branches exit, so does the `if`; if one does, what the other leaves goes on; otherwise each name
  is joined: bound before and in both branches (`join`), first bound in both (`join_new`), or first bound in only
  one (`one_branch`, which does not bind it);
- "uncertain" ifs, whose test the domain says the capture may fold either way (`uncertain`): each branch is walked
  at the same depth as if it were inlined and neither exit is trusted; a name a branch binds or changes is bound
  after the `if` (merged by `uncertain_join` where it differs), dropping what was deferred on it. While inside
  one, `Frame.uncertain` is true;
- `for` and `while` loops: the iterable or test is read, the body is walked once on a copy one block deeper (no
  fixed point), then each name it leaves is merged: bound before the loop (`loop_join`) or first bound in it
  (`first_set_in_loop`, which does not bind it). After a loop with an `else`, or inside an uncertain if, a name
  first bound in the loop is bound to the domain's `unknown`;
- `with`: each item is read and its `as` target bound (`with_target`); the body is walked inline;
- walrus targets (`(n := v)`, outside lambdas) bound before the statement that holds them is read (after the test,
  for an `if`, a `for`'s iterable or a `while`'s test);
- reads: for each statement, the expressions it evaluates are collected (`Reads`: names read, calls, attribute
  accesses, binary operations, subscripts and if-expressions, in source order, outside lambdas and comprehensions). What a
  domain deferred on a name (`Frame.defer`) is handed back to it (`deferred`) when the name is next read, then the
  domain sees the reads (`read`). Binding a name (`Frame.bind`) drops what was deferred on it.

- decided tests: a domain that knows the value a test has at run time (`FlowDomain.decide`) has only the branch
  taken walked, inline, as for a pruned one; a `while` whose test it decides False has its body skipped;
- opt-in, for a domain that models how the code runs (`walks_try`, `walks_simple_suites`): a `try` body is walked
  inline (then its `else` and `finally`; the handlers, a path taken only when the body raises, are not), and the
  small statements of a one-line suite (`if c: return x`) are walked like those of an indented block.

What it does not model: `match` and other compound statements (and, unless the domain opts in, `try` and one-line
suites) are not walked at all, and drop everything deferred; nested `def` and `class` bind nothing; loop bodies are
walked once, and comprehensions and lambdas are opaque. The domain decides what every binding, read, refinement
and join means; the walker knows no types and reports nothing itself.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, Generic, Iterable, TypeVar

import libcst as cst

from jitlint.walk import walk

V = TypeVar("V")  # the domain's value for a name
_TERMINATORS = (cst.Return, cst.Raise, cst.Continue, cst.Break)


class Reads(cst.CSTVisitor):
    """Names read, if-expressions, calls, attribute accesses, binary and boolean operations and subscripts in
    expressions, in source order (not inside lambdas or comprehensions, which bind their own names)."""

    def __init__(self) -> None:
        self.names: list[cst.Name] = []
        self.if_expressions: list[cst.IfExp] = []
        self.calls: list[cst.Call] = []
        self.attributes: list[cst.Attribute] = []
        self.binary: list[cst.BinaryOperation] = []
        self.subscripts: list[cst.Subscript] = []
        self.boolean: list[cst.BooleanOperation] = []
        self.comprehensions: list[cst.BaseExpression] = []  # not walked: they bind their own names

    @classmethod
    def of(cls, *nodes: cst.CSTNode | None) -> "Reads":
        reads = cls()
        for node in nodes:
            if node is not None:
                walk(node, reads)
        return reads

    def visit_Attribute(self, node: cst.Attribute) -> bool:
        self.attributes.append(node)
        walk(node.value, self)  # `a.b`: `b` is not a name read
        return False

    def visit_Arg(self, node: cst.Arg) -> bool:
        walk(node.value, self)  # `f(k=v)`: `k` is not a name read
        return False

    def visit_Name(self, node: cst.Name) -> None:
        self.names.append(node)

    def visit_IfExp(self, node: cst.IfExp) -> None:
        self.if_expressions.append(node)

    def visit_Call(self, node: cst.Call) -> None:
        self.calls.append(node)

    def visit_BinaryOperation(self, node: cst.BinaryOperation) -> None:
        self.binary.append(node)

    def visit_Subscript(self, node: cst.Subscript) -> None:
        self.subscripts.append(node)

    def visit_BooleanOperation(self, node: cst.BooleanOperation) -> None:
        self.boolean.append(node)

    def visit_Lambda(self, node: cst.Lambda) -> bool:
        return False

    # Comprehensions bind their own names (`[t for t in ts]` does not read an outer `t`): not walked, only listed.
    def visit_ListComp(self, node) -> bool:
        self.comprehensions.append(node)
        return False

    def visit_SetComp(self, node) -> bool:
        self.comprehensions.append(node)
        return False

    def visit_DictComp(self, node) -> bool:
        self.comprehensions.append(node)
        return False

    def visit_GeneratorExp(self, node) -> bool:
        self.comprehensions.append(node)
        return False


class Frame(Generic[V]):
    """The names bound at one point of the walk: the domain's value of each (`values`), the depth of the block each
    was first bound in (`depth`), and the depth of the block being walked (`level`; the function body is 0)."""

    __slots__ = ("walker", "values", "depth", "level")

    def __init__(self, walker: "FlowWalker[V]", values: dict[str, V], depth: dict[str, int], level: int) -> None:
        self.walker = walker
        self.values = values
        self.depth = depth
        self.level = level

    def branch(self, level: int) -> "Frame[V]":
        """A copy to walk a branch or a loop body in, at block depth `level`."""
        return Frame(self.walker, dict(self.values), dict(self.depth), level)

    def bind(self, name: str, value: V) -> None:
        """Bind `name` at this block's depth, dropping what was deferred on it."""
        self.values[name] = value
        self.depth[name] = self.level
        self.walker.pending.pop(name, None)

    def defer(self, name: str, item: Any) -> None:
        """Hand `item` back to the domain (`FlowDomain.deferred`) when `name` is next read, unless it is bound first.
        One item per name: a later one replaces it."""
        self.walker.pending[name] = item

    def read_names(self, *nodes: cst.CSTNode | None) -> None:
        """Deliver what is deferred on the names these nodes read, without showing the domain the reads (for the
        parts of an assignment target the domain does not model: `a[i] = ...` reads `a` and `i`)."""
        self.walker.deliver(Reads.of(*nodes))

    @property
    def uncertain(self) -> bool:
        """Inside an `if` the domain called uncertain: either branch may be all that remains."""
        return self.walker.uncertain > 0


class FlowDomain(ABC, Generic[V]):
    """What the values mean: a target's abstract domain (the types a compiler gives names, Proxy taint, data dependence...).

    The walker calls it at each statement; the hooks that bind names do so through `Frame.bind` (or write
    `frame.values` directly, to change a value without re-binding), and may `Frame.defer` an item until a name is
    read. Each hook is called after the walker has delivered the deferred items of the statement's reads."""

    unknown: Any = None  # the value of a name the walker binds without the domain (after a loop `else`, ...)
    walks_try: bool = False  # walk `try` bodies inline (see the module's docstring)
    walks_simple_suites: bool = False  # walk the small statements of one-line suites

    def decide(self, test: cst.BaseExpression, frame: Frame[V]) -> bool | None:
        """The value an `if` or `while` test certainly has when the code runs (after `read` saw it), or None. A
        decided `if` has only the branch taken walked, inline; a `while` decided False has no body walked."""
        return None

    @abstractmethod
    def initial(self) -> dict[str, V]:
        """The names bound on entry (the parameters) and their values."""

    @abstractmethod
    def read(self, reads: Reads, statement: cst.CSTNode, frame: Frame[V]) -> None:
        """The expressions a statement evaluates: an assignment's value, an `if`'s test, a `for`'s iterable, a
        `with` item, a return value, an expression statement..."""

    @abstractmethod
    def deferred(self, item: Any, name: cst.Name) -> None:
        """What the domain deferred on a name, now that `name` reads it."""

    @abstractmethod
    def assign(self, node: cst.Assign, frame: Frame[V]) -> None:
        """What `a = b = value` binds (its value has been read)."""

    @abstractmethod
    def annotated_assign(self, node: cst.AnnAssign, frame: Frame[V]) -> None:
        """What `a: T = value` binds (its value and annotation have been read)."""

    @abstractmethod
    def augmented_assign(self, node: cst.AugAssign, frame: Frame[V]) -> None:
        """What `a += value` binds (its value and target have been read)."""

    @abstractmethod
    def for_target(self, node: cst.For, outer: Frame[V], body: Frame[V]) -> None:
        """What a `for` loop's target binds in `body` (the iterable has been read in `outer`)."""

    @abstractmethod
    def with_target(self, item: cst.WithItem, frame: Frame[V]) -> None:
        """What `with item as target` binds (the item has been read)."""

    @abstractmethod
    def walrus(self, node: cst.NamedExpr, frame: Frame[V]) -> None:
        """What `(target := value)` binds."""

    @abstractmethod
    def refine(self, test: cst.BaseExpression, body: Frame[V], orelse: Frame[V]) -> None:
        """Narrow the values in each branch of an `if` on its test (`body` when true, `orelse` when false)."""

    @abstractmethod
    def asserted(self, node: cst.Assert, frame: Frame[V]) -> None:
        """Narrow the values after `assert test` (the statement has been read)."""

    @abstractmethod
    def returned(self, node: cst.Return, frame: Frame[V]) -> None:
        """A `return` (its value has been read)."""

    @abstractmethod
    def uncertain(self, test: cst.BaseExpression) -> bool:
        """Whether the capture may fold this `if` test either way, so that either branch may be all there is."""

    @abstractmethod
    def join(self, name: str, first: V, second: V) -> V:
        """The value after an if/else of a name bound before it, that the branches leave as `first` and `second`."""

    @abstractmethod
    def join_new(self, name: str, first: V, second: V, node: cst.If, frame: Frame[V]) -> V:
        """The value after an if/else of a name first bound in both branches (bound after it at the `if`'s depth)."""

    @abstractmethod
    def one_branch(self, name: str, in_body: bool, node: cst.If, frame: Frame[V]) -> None:
        """A name first bound in only one branch (the true one when `in_body`); the walker leaves it unbound."""

    @abstractmethod
    def uncertain_join(self, before: V, after: V) -> V:
        """The value after an uncertain `if` of a name that was `before` and that one of its branches leaves `after`."""

    @abstractmethod
    def loop_join(self, before: V, after: V) -> V:
        """The value after a loop of a name bound before it as `before`, that the body leaves as `after`."""

    @abstractmethod
    def first_set_in_loop(self, name: str, node: cst.For | cst.While, frame: Frame[V]) -> None:
        """A name first bound inside a loop body; the walker leaves it unbound after the loop."""


class FlowWalker(Generic[V]):
    """Walks one function body for a domain (see the module's docstring for what it models)."""

    def __init__(self, domain: FlowDomain[V], pruned: Iterable[int] = (), walrus: bool = True) -> None:
        """`walrus=False` when the function's source cannot hold a `:=` (its text has none): no statement is then
        searched for one."""
        self.domain = domain
        self.walrus = walrus
        self.dead = pruned if isinstance(pruned, (set, frozenset)) else set(pruned)
        self.pending: dict[str, Any] = {}  # name -> what the domain deferred on it, until it is read or bound
        self.uncertain = 0  # > 0 inside an `if` the domain called uncertain

    def run(self, function: cst.FunctionDef) -> bool:
        """Walks the body; returns whether its end can be reached (it does not always leave)."""
        values = self.domain.initial()
        frame = Frame(self, dict(values), {name: 0 for name in values}, 0)
        if isinstance(function.body, cst.IndentedBlock):
            return not self._block(function.body.body, frame)
        if self.domain.walks_simple_suites:
            return not self._block(function.body.body, frame)
        return True

    # -- reads ------------------------------------------------------------------------------------------------
    def deliver(self, reads: Reads) -> None:
        for name in reads.names:
            item = self.pending.pop(name.value, None)
            if item is not None:
                self.domain.deferred(item, name)

    def _read(self, nodes: Iterable[cst.CSTNode | None], statement: cst.CSTNode, frame: Frame[V]) -> None:
        reads = Reads.of(*nodes)
        self.deliver(reads)
        self.domain.read(reads, statement, frame)

    def _walrus(self, expression: cst.CSTNode | None, frame: Frame[V]) -> None:
        if expression is None or not self.walrus:
            return
        find = _NamedExprs()
        walk(expression, find)
        for named in find.found:
            self.domain.walrus(named, frame)

    # -- statements -------------------------------------------------------------------------------------------
    def _block(self, statements, frame: Frame[V]) -> bool:
        """Walk statements; returns True when the block always leaves (return, raise, break, continue)."""
        for statement in statements:
            if id(statement) in self.dead:
                # Pruned: the capture drops it (after an `if` it folds that always leaves, say).
                return True
            if self._statement(statement, frame):
                return True
        return False

    def _statement(self, statement: cst.CSTNode, frame: Frame[V]) -> bool:
        if isinstance(statement, cst.SimpleStatementLine):
            for small in statement.body:
                self._small(small, frame)
                if isinstance(small, _TERMINATORS) or _asserts_false(small):
                    return True
            return False
        if isinstance(statement, cst.If):
            return self._if(statement, frame)
        if isinstance(statement, (cst.For, cst.While)):
            self._loop(statement, frame)
            return False
        if isinstance(statement, cst.With):
            for item in statement.items:
                self._read([item.item], statement, frame)
                if item.asname is not None:
                    self.domain.with_target(item, frame)
            return self._body(statement.body, frame)
        if isinstance(statement, (cst.FunctionDef, cst.ClassDef)):
            return False
        if isinstance(statement, cst.BaseSmallStatement) and self.domain.walks_simple_suites:
            self._small(statement, frame)
            return isinstance(statement, _TERMINATORS) or _asserts_false(statement)
        if isinstance(statement, cst.Try) and self.domain.walks_try:
            # The path on which the body raises nothing: body, `else`, `finally`, inline.
            if self._body(statement.body, frame):
                return True
            if statement.orelse is not None and self._body(statement.orelse.body, frame):
                return True
            return statement.finalbody is not None and self._body(statement.finalbody.body, frame)
        # try, match and the like (and the small statements of a one-line suite): what happens inside is unknown.
        self.pending.clear()
        return False

    def _body(self, suite, frame: Frame[V]) -> bool:
        if isinstance(suite, cst.IndentedBlock) and id(suite) in self.dead:
            return False
        return self._block(suite.body, frame)

    def _small(self, small: cst.BaseSmallStatement, frame: Frame[V]) -> None:
        self._walrus(small, frame)
        domain = self.domain
        if isinstance(small, cst.Assign):
            self._read([small.value], small, frame)
            domain.assign(small, frame)
        elif isinstance(small, cst.AnnAssign):
            self._read([small.value, small.annotation], small, frame)
            domain.annotated_assign(small, frame)
        elif isinstance(small, cst.AugAssign):
            self._read([small.value, small.target], small, frame)
            domain.augmented_assign(small, frame)
        elif isinstance(small, cst.Assert):
            self._read([small], small, frame)
            domain.asserted(small, frame)
        elif isinstance(small, cst.Return):
            self._read([small.value], small, frame)
            domain.returned(small, frame)
        else:
            self._read([small], small, frame)

    def _if(self, node: cst.If, frame: Frame[V]) -> bool:
        self._read([node.test], node, frame)
        self._walrus(node.test, frame)
        body_dead = id(node.body) in self.dead
        orelse_dead = node.orelse is not None and id(node.orelse) in self.dead
        if body_dead:  # the capture keeps only the live branch, inline
            return self._orelse(node.orelse, frame) if node.orelse is not None else False
        if orelse_dead:
            return self._body(node.body, frame)
        decided = self.domain.decide(node.test, frame)
        if decided is True:
            return self._body(node.body, frame)
        if decided is False:
            return self._orelse(node.orelse, frame) if node.orelse is not None else False
        if self.domain.uncertain(node.test):
            return self._uncertain_if(node, frame)
        level = frame.level
        body, orelse = frame.branch(level + 1), frame.branch(level + 1)
        self.domain.refine(node.test, body, orelse)
        body_left = self._body(node.body, body)
        orelse_left = self._orelse(node.orelse, orelse) if node.orelse is not None else False
        if body_left and orelse_left:
            return True
        values = frame.values
        if body_left or orelse_left:
            survivor = orelse if body_left else body
            for name, value in survivor.values.items():
                if name not in values or survivor.depth.get(name, level) > level:
                    frame.bind(name, value)
                elif values[name] != value:
                    values[name] = value
            return False
        for name in set(body.values) | set(orelse.values):
            in_body, in_else = name in body.values, name in orelse.values
            if name in values and in_body and in_else:
                values[name] = self.domain.join(name, body.values[name], orelse.values[name])
                continue
            if in_body and in_else:
                values[name] = self.domain.join_new(name, body.values[name], orelse.values[name], node, frame)
                frame.depth[name] = level
            elif name not in values:
                self.domain.one_branch(name, in_body, node, frame)
        return False

    def _uncertain_if(self, node: cst.If, frame: Frame[V]) -> bool:
        """Both branches as if inlined (the capture may keep either alone); what they leave differently is merged."""
        self.uncertain += 1
        try:
            branches = []
            for suite in (node.body, node.orelse):
                if suite is None:
                    continue
                branch = frame.branch(frame.level)
                if suite is node.body:
                    self._body(suite, branch)
                else:
                    self._orelse(suite, branch)
                branches.append(branch)
            values = frame.values
            for branch in branches:
                for name, value in branch.values.items():
                    if name not in values or values[name] != value:
                        values[name] = value if name not in values else self.domain.uncertain_join(values[name], value)
                        frame.depth.setdefault(name, frame.level)
                        self.pending.pop(name, None)
            return False
        finally:
            self.uncertain -= 1

    def _orelse(self, orelse, frame: Frame[V]) -> bool:
        if isinstance(orelse, cst.If):  # elif: an if inside the else branch
            return self._if(orelse, frame)
        return self._body(orelse.body, frame)

    def _loop(self, node: cst.For | cst.While, frame: Frame[V]) -> None:
        level = frame.level
        body = frame.branch(level + 1)
        if isinstance(node, cst.For):
            self._read([node.iter], node, frame)
            self._walrus(node.iter, frame)
            self.domain.for_target(node, frame, body)
        else:
            self._read([node.test], node, frame)
            self._walrus(node.test, body)
            if self.domain.decide(node.test, frame) is False:
                if node.orelse is not None:
                    self._body(node.orelse.body, frame)
                return
        self._body(node.body, body)
        values = frame.values
        for name, value in body.values.items():
            if node.orelse is not None:  # a loop `else`: what is defined after it is not followed here
                if name not in values:
                    values[name], frame.depth[name] = self.domain.unknown, level
                continue
            if self.uncertain and name not in values:
                values[name], frame.depth[name] = self.domain.unknown, level
                continue
            if name in values:
                if value != values[name]:
                    values[name] = self.domain.loop_join(values[name], value)
                continue
            self.domain.first_set_in_loop(name, node, frame)


class _NamedExprs(cst.CSTVisitor):
    """The walrus expressions of an expression, outside lambdas."""

    def __init__(self) -> None:
        self.found: list[cst.NamedExpr] = []

    def visit_NamedExpr(self, node: cst.NamedExpr) -> None:
        self.found.append(node)

    def visit_Lambda(self, node) -> bool:
        return False


def _asserts_false(small: cst.BaseSmallStatement) -> bool:
    return isinstance(small, cst.Assert) and isinstance(small.test, cst.Name) and small.test.value == "False"
