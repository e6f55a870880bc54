"""Every node's position in a module, as LibCST's `PositionProvider` gives it, at about 0.6 of its cost.

A file with findings needs its nodes' positions, and LibCST computes them by generating the module's code with a
state that records where each node starts and ends. That costs 0.6 to 0.85 of the file's parse (a plain code
generation, 0.25 to 0.35): per token a regular-expression split to count newlines, and per node a generator-based
context manager. `positions` runs the same code generation with a state that records the same positions without
either: a token without a newline character only moves the column, the context manager is a small object, and a
node's start becomes a `CodePosition` only if its range is recorded there.
`tests/test_positions.py` checks that the two agree on every node of every Python file of the repository and of
awkward modules (CRLF and CR newlines, no trailing newline, an empty module, decorators, f-strings). With a LibCST
whose internals differ, `positions` is LibCST's own provider.
"""

from __future__ import annotations

import itertools
import re
from typing import Mapping, Sequence

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider

from jitlint import layout

try:
    from libcst._position import CodePosition, CodeRange
    from libcst.metadata.position_provider import NEWLINE_RE, PositionProvidingCodegenState
except ImportError:  # pragma: no cover - another LibCST layout: its own provider
    PositionProvidingCodegenState = None


def positions(tree: cst.Module) -> Mapping[cst.CSTNode, "CodeRange"]:
    """Every node of `tree` -> its `CodeRange` (`PositionProvider`'s)."""
    if PositionProvidingCodegenState is not None:
        provider = PositionProvider()
        provider._computed = {}
        try:
            state = _State(default_indent=tree.default_indent, default_newline=tree.default_newline,
                           provider=provider)
        except TypeError:  # pragma: no cover - the state's fields differ: LibCST's own provider
            pass
        else:
            tree._codegen(state)
            return provider._computed
    return _libcst_positions(tree)


class StatementPositions:
    """The positions `positions` gives, computed one top-level statement at a time, when a node of that statement
    is first asked for: a file's findings usually sit in a few of its statements, and the code generation that
    yields positions is most of their cost.

    A top-level statement's code starts at column 0 of the line after the previous statement's code, and its
    positions depend only on that line and its own code (a layout node shared across statements has no position
    of its own: asking for one computes the whole module). `first_lines` holds, per statement of `tree.body`, the
    line of its first decorator or keyword (`summaries.statement_lines`, from `ast`); less its leading blank and
    comment lines, that is where its code starts. Each statement's generated code is checked against the text
    there and must end where the next statement starts; where it does not, or where the lines are not given, every
    position is computed at once, as `positions` does."""

    def __init__(self, tree: cst.Module, text: str, first_lines: Sequence[int] | None = None) -> None:
        self.tree = tree
        self.text = text
        self.body = list(tree.body)
        self.whole = False
        self._computed: dict = {}
        self._done = [False] * len(self.body)
        self._index = {id(statement): number for number, statement in enumerate(self.body)}
        self._owner: dict[int, int] = {}  # id of a node -> the statement that generated it
        self._offsets: list[int] | None = None
        self.starts: list[int] | None = None
        if PositionProvidingCodegenState is not None and first_lines is not None and len(first_lines) == len(self.body):
            starts = [line - len(getattr(statement, "leading_lines", ()))
                      for line, statement in zip(first_lines, self.body)]
            if all(line >= 1 for line in starts) and all(a < b for a, b in zip(starts, starts[1:])):
                self.starts = starts
        if self.starts is None:
            self._go_whole()

    # -- the mapping `positions` returns ----------------------------------------------------------------------
    def __getitem__(self, node: cst.CSTNode) -> "CodeRange":
        found = self.get(node)
        if found is None:
            raise KeyError(node)
        return found

    def get(self, node, default=None):
        found = self._computed.get(node)
        if found is None and not self.whole:
            self._find(node)
            found = self._computed.get(node)
        return found if found is not None else default

    # -- which statements -------------------------------------------------------------------------------------
    def prepare(self, *statements: cst.CSTNode | None) -> None:
        """Compute the positions of these top-level statements first (anything else is ignored)."""
        for statement in statements:
            number = self._index.get(id(statement)) if statement is not None else None
            if number is not None:
                self._statement(number)

    def top(self, node: cst.CSTNode) -> cst.CSTNode | None:
        """The top-level statement whose code holds `node`; None where the whole module was computed."""
        if self.get(node) is None or self.whole:
            return None
        number = self._owner.get(id(node))
        return self.body[number] if number is not None else None

    def around(self, row: int) -> list[cst.CSTNode]:
        """The top-level statements whose code may hold line `row` (the one whose code starts at or before it
        and the next, when its code ends there), their positions computed; all of them once the whole module
        is."""
        if not self.whole:
            starts = self.starts
            chosen = [number for number, start in enumerate(starts)
                      if start <= row and (number + 1 == len(starts) or row <= starts[number + 1])]
            for number in chosen:
                self._statement(number)
            if not self.whole:
                return [self.body[number] for number in chosen]
        return self.body

    def _find(self, node) -> None:
        if layout.is_shared(node):
            self._go_whole()
            return
        number = self._index.get(id(node))
        if number is not None:
            self._statement(number)
            return
        for number in range(len(self.body)):
            if not self._done[number]:
                self._statement(number)
                if self.whole or node in self._computed:
                    return
        self._go_whole()  # the module itself, its header or footer, or a node of no statement

    def _statement(self, number: int) -> None:
        if self.whole or self._done[number]:
            return
        self._done[number] = True
        before = len(self._computed)
        provider = PositionProvider()
        provider._computed = self._computed
        try:
            state = _StatementState(default_indent=self.tree.default_indent,
                                    default_newline=self.tree.default_newline, provider=provider)
            state.line = self.starts[number]
            state.shared_bound = False
            self.body[number]._codegen(state)
        except Exception:  # pragma: no cover - a state LibCST builds otherwise: all at once
            self._go_whole()
            return
        if state.shared_bound:
            # a range ending (or starting) at a shared layout node (`from m import *`, `import (a, b)`) takes that
            # node's first position in the whole module: not this statement's alone
            self._go_whole()
            return
        code = "".join(state.tokens)
        start = self._offset(self.starts[number])
        end = start + len(code)
        if self.text[start:end] != code or (number + 1 < len(self.starts)
                                            and end != self._offset(self.starts[number + 1])):
            self._go_whole()
            return
        added = len(self._computed) - before
        for node in itertools.islice(reversed(self._computed), added):
            self._owner[id(node)] = number

    def _offset(self, line: int) -> int:
        if self._offsets is None:
            self._offsets = [0, *(match.end() for match in _NEWLINE.finditer(self.text))]
        return self._offsets[line - 1] if line - 1 < len(self._offsets) else len(self.text)

    def _go_whole(self) -> None:
        self._computed = positions(self.tree)
        self.whole = True


_NEWLINE = re.compile(r"\r\n?|\n")  # (LibCST's positions count lines so)


def _libcst_positions(tree: cst.Module) -> Mapping[cst.CSTNode, "CodeRange"]:
    """LibCST's provider. `MetadataWrapper.resolve(PositionProvider)` also runs an empty batch of batchable
    providers, which is a full LibCST visit (it rebuilds every node): the provider alone does what is needed."""
    wrapper = MetadataWrapper(tree, unsafe_skip_copy=True)
    generate = getattr(PositionProvider(), "_gen", None)
    if generate is None:  # pragma: no cover
        return wrapper.resolve(PositionProvider)
    return generate(wrapper)


class _Recorder:
    """`record_syntactic_position` as LibCST's state does it (the node's range is recorded when the block ends,
    from where it began, or from the ranges of `start_node` and `end_node`), without a generator."""

    __slots__ = ("state", "node", "start_node", "end_node", "start")

    def __init__(self, state: "_State", node, start_node, end_node) -> None:
        self.state, self.node, self.start_node, self.end_node = state, node, start_node, end_node

    def __enter__(self) -> None:
        self.start = (self.state.line, self.state.column)

    def __exit__(self, *_exc) -> bool:
        state = self.state
        computed = state.provider._computed
        start = computed[self.start_node].start if self.start_node is not None else CodePosition(*self.start)
        end = computed[self.end_node].end if self.end_node is not None else CodePosition(state.line, state.column)
        computed[self.node] = CodeRange(start, end)
        return False


if PositionProvidingCodegenState is not None:
    class _State(PositionProvidingCodegenState):
        __slots__ = ()

        def add_indent_tokens(self) -> None:
            for token in self.indent_tokens:
                self.add_token(token)

        def add_token(self, value: str) -> None:  # (LibCST's state moves through `_update_position`, only from here)
            self.tokens.append(value)
            if "\n" in value or "\r" in value:
                segments = NEWLINE_RE.split(value)
                self.line += len(segments) - 1
                self.column = len(segments[-1])
            else:
                self.column += len(value)

        def before_codegen(self, node) -> None:
            self._stack.append((self.line, self.column))

        def after_codegen(self, node) -> None:
            start = self._stack.pop()
            computed = self.provider._computed
            if node not in computed:  # (a range recorded inside the node's code stays: LibCST's rule)
                computed[node] = CodeRange(CodePosition(*start), CodePosition(self.line, self.column))

        def record_syntactic_position(self, node, *, start_node=None, end_node=None) -> _Recorder:
            return _Recorder(self, node, start_node, end_node)

    class _StatementState(_State):
        """`_State` for one statement: notes a range bound to a shared layout node (see `StatementPositions`)."""

        __slots__ = ("shared_bound",)

        def record_syntactic_position(self, node, *, start_node=None, end_node=None) -> _Recorder:
            if layout.is_shared(start_node) or layout.is_shared(end_node):
                self.shared_bound = True
            return _Recorder(self, node, start_node, end_node)
