"""A finding's place in its file: positions, the smallest statement around it, the enclosing scope (what a
baseline matches on) and its fix's edits, computed only for files with findings."""

from __future__ import annotations

import re
from pathlib import Path

import libcst as cst

from jitlint import pages
from jitlint.baseline import normalise_statement
from jitlint.finding import Edit, Finding, FindingContext, Fix, Location
from jitlint.rules.base import RawFinding
from jitlint.walk import children


def resolve_fix(pending, positions) -> Fix | None:
    if pending is None:
        return None
    edits = []
    for edit in pending.edits:
        span = positions[edit.node]
        start = Location(span.start.line, span.start.column + 1)
        end = Location(span.end.line, span.end.column + 1)
        if edit.until is not None:
            until = positions[edit.until].start
            end = Location(until.line, until.column + 1)
        elif edit.insert_after:
            start = end
        elif edit.insert_before:
            end = start
        edits.append(Edit(edit.content, start, end))
    return Fix(pending.applicability, pending.message, tuple(edits))


class Where:
    """What a baseline matches a finding on (see `jitlint.baseline`): the enclosing function or class and the
    normalised text of its statement, computed only for files with findings."""

    def __init__(self, tree: cst.Module, positions, text: str) -> None:
        self.positions = positions
        self.text = text
        self.line_starts = [0]
        for line in text.splitlines(keepends=True):
            self.line_starts.append(self.line_starts[-1] + len(line))
        self.scopes: list[tuple[int, int, str]] | None = None
        self.tree = tree
        self.statements: dict[int, str] = {}
        self.statement_scopes: dict[int, list[tuple[int, int, str]]] = {}  # per top-level statement

    def _offset(self, position) -> int:
        return self.line_starts[min(position.line - 1, len(self.line_starts) - 1)] + position.column

    def scope(self, row: int) -> str:
        around = getattr(self.positions, "around", None)  # (positions computed per statement: those around `row`)
        if around is not None:
            scopes = []
            for statement in around(row):
                if id(statement) not in self.statement_scopes:
                    self.scopes = []
                    self._collect([statement], "")
                    self.statement_scopes[id(statement)] = self.scopes
                scopes.extend(self.statement_scopes[id(statement)])
        else:
            if self.scopes is None:
                self.scopes = []
                self._collect(self.tree.body, "")
            scopes = self.scopes
        best = ""
        best_start = -1
        for start, end, name in scopes:
            if start <= row <= end and start > best_start:
                best, best_start = name, start
        return best

    def _collect(self, body, prefix: str) -> None:
        for statement in body:
            if isinstance(statement, (cst.FunctionDef, cst.ClassDef)):
                name = prefix + statement.name.value
                span = self.positions.get(statement)
                if span is not None:
                    self.scopes.append((span.start.line, span.end.line, name))
                self._collect(_body_of(statement), name + ".")
            elif isinstance(statement, cst.BaseCompoundStatement):
                for block in _blocks_of(statement):
                    self._collect(block, prefix)

    def statement(self, node: cst.CSTNode | None) -> str:
        if node is None:
            return ""
        if id(node) not in self.statements:
            span = self.positions.get(node)
            text = ""
            if span is not None:
                end = span.end
                body = getattr(node, "body", None)
                if isinstance(node, cst.BaseCompoundStatement) and isinstance(body, cst.CSTNode):
                    body_span = self.positions.get(body)
                    if body_span is not None:  # the header only: a change in the body is not this statement's
                        end = body_span.start
                text = self.text[self._offset(span.start):self._offset(end)]
            self.statements[id(node)] = normalise_statement(text)
        return self.statements[id(node)]


    def statement_lines(self, node: cst.CSTNode, fallback: tuple[int, int]) -> tuple[int, int]:
        """The lines of the smallest statement around `node`, for the dynamic checker (a confirmation is torch
        rejecting these lines): a simple statement line whole (a call over several lines is one statement), a
        decorator whole, and for a compound statement (or an `else:`/`except`/`finally:`/`case` clause) only its
        header: a node in a `for`'s target gets the `for` line, not its body or its `else`. `fallback` (the
        node's own lines) when no statement holds it."""
        target = self.positions.get(node)
        if target is None:
            return fallback
        start, end = (target.start.line, target.start.column), (target.end.line, target.end.column)
        current, best = self.tree, None
        top = getattr(self.positions, "top", None)  # (positions computed per statement: the one holding `node`)
        holder = top(node) if top is not None else None
        while True:
            inner = None
            # no layout node holds a finding (and shared ones have no position); top-level statements do not overlap
            for child in [holder] if current is self.tree and holder is not None else children(current):
                span = self.positions.get(child)
                if span is None:
                    continue
                first = (span.start.line, span.start.column)
                decorators = getattr(child, "decorators", None)
                if isinstance(child, (cst.FunctionDef, cst.ClassDef)) and decorators:
                    first = min(first, self._start_of(decorators[0], first))
                if first <= start and end <= (span.end.line, span.end.column):
                    inner = child
                    break
            if isinstance(inner, (cst.SimpleStatementLine, cst.Decorator)):
                span = self.positions[inner]
                return span.start.line, span.end.line
            if isinstance(current, cst.FunctionDef) and isinstance(inner, (cst.Parameters, cst.Annotation)):
                # a parameter or the return annotation of a `def` over several lines: torch names its own line
                for param in _parameters(inner):
                    first, last = self._extent(param)
                    if first <= start and end <= last:
                        return first[0], last[0]
                span = self.positions[inner]
                return span.start.line, span.end.line
            if isinstance(inner, (cst.BaseCompoundStatement, *_CLAUSES)):
                best = current = inner
            elif isinstance(inner, (cst.IndentedBlock, cst.SimpleStatementSuite)):
                current = inner
            else:
                break
        return self._header(best) if best is not None else fallback

    def _extent(self, param: cst.Param) -> tuple[tuple[int, int], tuple[int, int]]:
        """A parameter's first and last positions: its name's, its annotation's and its default's (a `Param`'s own
        position covers only its name)."""
        spans = [self.positions.get(part) for part in (param, param.annotation, param.default) if part is not None]
        spans = [span for span in spans if span is not None]
        if not spans:
            return (0, 0), (0, 0)
        return (min((span.start.line, span.start.column) for span in spans),
                max((span.end.line, span.end.column) for span in spans))

    def _start_of(self, node: cst.CSTNode, default: tuple[int, int]) -> tuple[int, int]:
        span = self.positions.get(node)
        return (span.start.line, span.start.column) if span is not None else default

    def _header(self, statement: cst.CSTNode) -> tuple[int, int]:
        """The header lines of a compound statement or clause: from its keyword to the line of its colon and a
        `# type:` signature comment under it (other comments and blank lines before the body are not the header's)."""
        span = self.positions[statement]
        body = statement.cases[0] if isinstance(statement, cst.Match) and statement.cases else getattr(statement, "body", None)
        body_span = self.positions.get(body) if isinstance(body, cst.CSTNode) else None
        if body_span is None:
            return span.start.line, span.start.line
        text = self.text[self._offset(span.start):self._offset(body_span.start)].split("\n")
        while len(text) > 1 and (not text[-1].strip() or (text[-1].strip().startswith("#") and
                                                            not re.match(r"#\s*type:", text[-1].strip()))):
            text.pop()
        return span.start.line, span.start.line + len(text) - 1


def _parameters(node: cst.CSTNode) -> list:
    if not isinstance(node, cst.Parameters):
        return []
    star = [node.star_arg] if isinstance(node.star_arg, cst.Param) else []
    kwargs = [node.star_kwarg] if node.star_kwarg is not None else []
    return [*node.posonly_params, *node.params, *star, *node.kwonly_params, *kwargs]


_CLAUSES = (cst.Else, cst.ExceptHandler, cst.ExceptStarHandler, cst.Finally, cst.MatchCase)


def _body_of(statement) -> list:
    body = statement.body
    return list(body.body) if isinstance(body, cst.IndentedBlock) else []


def _blocks_of(statement) -> list[list]:
    """The statement lists nested in a compound statement (if/else, loops, try/except, with, match)."""
    blocks = []
    stack = [statement]
    while stack:
        node = stack.pop()
        for child in node.children:
            if isinstance(child, cst.IndentedBlock):
                blocks.append(list(child.body))
            elif isinstance(child, (cst.Else, cst.If, cst.ExceptHandler, cst.ExceptStarHandler, cst.Finally,
                                    cst.MatchCase)):
                stack.append(child)
    return blocks


def to_finding(raw: RawFinding, positions, filename: str, path: Path, lines: list[str], where: Where) -> Finding:
    code_range = positions[raw.node]
    rule = raw.rule
    # The dynamic checker confirms a finding by an error torch gives on these lines: the smallest statement around
    # the finding's own node, not around where the rule was when it reported (a flow rule reports from its
    # function's `def`, and any error in the function would confirm it).
    statement = where.statement_lines(raw.node, (code_range.start.line, code_range.end.line))
    return Finding(
        rule.code,
        rule.name,
        raw.message,
        rule.severity,
        filename,
        Location(code_range.start.line, code_range.start.column + 1),
        Location(code_range.end.line, code_range.end.column + 1),
        fix=resolve_fix(raw.fix, positions),
        url=pages.url(rule.code),
        context=FindingContext(path, statement, raw.function,
                               lines[code_range.start.line - 1] if code_range.start.line <= len(lines) else "",
                               where.scope(code_range.start.line),
                               where.statement(raw.statement) or normalise_statement(
                                   lines[code_range.start.line - 1] if code_range.start.line <= len(lines) else "")),
    )
