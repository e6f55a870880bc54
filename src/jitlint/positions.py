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

from typing import Mapping

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider

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
