"""Applying fixes: text edits, repeated until nothing more applies, verified, written atomically.

Nothing is written unless the result parses, and never over a file that changed on disk since it was read.
"""

from __future__ import annotations

import ast
import builtins
import difflib
import hashlib
import io
import symtable
import tokenize
from dataclasses import dataclass, field
from pathlib import Path

import libcst as cst

from jitlint import atomic
from jitlint.finding import Edit, Finding, Location

MAX_PASSES = 10


def _offset(line_starts: list[int], location: Location) -> int:
    if location.row > len(line_starts):
        return line_starts[-1]
    return line_starts[location.row - 1] + location.column - 1


def _spans(text: str, edits) -> list[tuple[int, int, str]]:
    line_starts = _line_starts(text)
    return [(_offset(line_starts, e.location), _offset(line_starts, e.end_location), e.content) for e in edits]


def _line_starts(text: str) -> list[int]:
    line_starts = [0]
    for line in text.splitlines(keepends=True):
        line_starts.append(line_starts[-1] + len(line))
    return line_starts


def choose(text: str, fixes: list[list[Edit]]) -> list[int]:
    """The indexes of the whole fixes (each a list of edits) that do not overlap an earlier one; the rest wait for
    the next pass. An edit identical to one already chosen (two findings, one fix) is shared, not a conflict."""
    chosen: dict[tuple[int, int], str] = {}
    picked = []

    def conflicts(start: int, end: int, content: str) -> bool:
        for (other_start, other_end), other_content in chosen.items():
            if (start, end) == (other_start, other_end):
                if content != other_content:
                    return True
            elif start < other_end and other_start < end:
                return True
            elif start == end == other_start == other_end:
                return True
        return False

    for index, edits in enumerate(fixes):
        spans = _spans(text, edits)
        if not any(conflicts(*span) for span in spans):
            chosen.update({(start, end): content for start, end, content in spans})
            picked.append(index)
    return picked


def apply_edits(text: str, fixes: list[list[Edit]]) -> str:
    """Apply the fixes `choose` picks."""
    spans = {(start, end): content for index in choose(text, fixes) for start, end, content in _spans(text, fixes[index])}
    for (start, end), content in sorted(spans.items(), reverse=True):
        text = text[:start] + content + text[end:]
    return text


def applicable(finding: Finding, unsafe: bool) -> bool:
    return finding.fix is not None and (finding.fix.applicability == "safe" or unsafe)


@dataclass
class FixResult:
    path: Path
    original: str
    fixed: str
    applied: list[Finding] = field(default_factory=list)
    error: str = ""
    # The findings whose fix was not written, and why (it broke a check below); their findings stay reported.
    refused: list[tuple[Finding, str]] = field(default_factory=list)


@dataclass
class _Applied:
    """A fix written in the last pass, to verify against the next lint: where its finding is now, and how many
    findings of its code were there besides it."""

    finding: Finding
    start: int
    end: int
    others: int
    edits: list[tuple[int, int]]  # where the edits are now
    errors: int  # error findings at the edits before, besides those fixed


def fix_sources(texts: dict[str, str], lint_texts, unsafe: bool) -> dict[str, FixResult]:
    """Fix the files of one run together: lint the run, apply what is applicable in each file, repeat until stable.

    `texts` maps display names to the files' text; `lint_texts(changed) -> list[Finding]` lints the whole run
    with `changed` (display name -> text so far, for the files a fix changed) in place of the files on disk. One
    lint of the run per pass: a file's findings depend on the others (a helper is compiled because another file's
    `forward` calls it), and a pass per file would lint the run once per fixed file.

    Every fix is checked before it is kept: alone and together with the others of its pass, the file still parses,
    no function is made to call itself and no name is bound anew (`check_fix`); and the next pass's lint no longer
    reports its finding where it was, nor a new error at what it changed. A file whose fixes of a pass fail that
    lint goes back to its text before the pass, without the failing fixes (`FixResult.refused`)."""
    results = {name: FixResult(Path(name), text, text) for name, text in texts.items()}
    refused: dict[str, set[tuple]] = {name: set() for name in texts}
    pending: dict[str, tuple[str, list[_Applied]]] = {}  # name -> (text before the last pass, its fixes)
    for round_ in range(MAX_PASSES + 1):
        changed = {name: result.fixed for name, result in results.items() if result.fixed != result.original}
        by_file: dict[str, list[Finding]] = {}
        for finding in lint_texts(changed):
            if finding.filename in results:
                by_file.setdefault(finding.filename, []).append(finding)
        progressed = False
        reverted: set[str] = set()
        for name, (before, fixes) in pending.items():
            result = results[name]
            failed = _verify(result.fixed, fixes, by_file.get(name, []), unsafe)
            if failed:
                for applied, why in failed:
                    refused[name].add(_key(applied.finding, before))
                    result.refused.append((applied.finding, why))
                kept = {id(applied.finding) for applied in fixes}
                result.applied = [finding for finding in result.applied if id(finding) not in kept]
                result.fixed = before
                reverted.add(name)
                progressed = True
        pending = {}
        if round_ == MAX_PASSES:
            break
        for name, findings in by_file.items():
            result = results[name]
            if result.error or name in reverted:
                continue
            fixable = [f for f in findings if applicable(f, unsafe) and _key(f, result.fixed) not in refused[name]]
            if not fixable:
                continue
            applied = _apply_checked(result, fixable, findings, refused[name], unsafe)
            if applied is None:
                continue
            pending[name] = applied
            progressed = True
        if not progressed:
            break
    return results


def _key(finding: Finding, text: str) -> tuple:
    """A finding's fix, independent of where other fixes moved it: its code, message, the text it covers and what
    its edits write."""
    line_starts = _line_starts(text)
    start, end = _offset(line_starts, finding.location), _offset(line_starts, finding.end_location)
    return (finding.code, finding.message, text[start:end],
            tuple((edit.content, text[s:e]) for edit, (s, e, _c) in zip(finding.fix.edits, _spans(text, finding.fix.edits))))


def _apply_checked(result: FixResult, fixable: list[Finding], findings: list[Finding], refused: set[tuple],
                   unsafe: bool) -> tuple[str, list[_Applied]] | None:
    """Apply the fixes of one pass to one file, each checked alone and then together (`check_fix`). Returns the
    text before and what was applied (for `_verify`), or None when nothing was."""
    text = result.fixed
    facts = _Facts.of(text)
    passed = []
    for finding in fixable:
        problem = check_fix(facts, apply_edits(text, [list(finding.fix.edits)]))
        if problem:
            refused.add(_key(finding, text))
            result.refused.append((finding, problem))
        else:
            passed.append(finding)
    if not passed:
        return None
    picked = [passed[index] for index in choose(text, [list(f.fix.edits) for f in passed])]
    candidate = apply_edits(text, [list(f.fix.edits) for f in picked])
    if check_fix(facts, candidate):  # each alone is fine, together they are not: one a pass
        picked = picked[:1]
        candidate = apply_edits(text, [list(picked[0].fix.edits)])
    if candidate == text:
        return None
    try:
        cst.parse_module(candidate)
    except Exception as error:  # a fix must never produce code that does not parse
        result.error = f"a fix produced code that does not parse ({type(error).__name__}); file left unchanged"
        result.fixed = result.original
        result.applied = []
        return None
    edits = sorted({(s, e, c) for f in picked for s, e, c in _spans(text, f.fix.edits)})
    line_starts = _line_starts(text)
    applied = []
    ids = {id(f) for f in picked}
    for finding in picked:
        start, end = _offset(line_starts, finding.location), _offset(line_starts, finding.end_location)
        others = sum(1 for other in findings if other.code == finding.code and id(other) not in ids
                     and _overlaps(_where(other, line_starts), (start, end)))
        own = [(s, e) for s, e, _c in _spans(text, finding.fix.edits)]
        errors = sum(1 for other in findings if other.severity == "error" and id(other) not in ids
                     and not applicable(other, unsafe) and any(_overlaps(_where(other, line_starts), span) for span in own))
        applied.append(_Applied(finding, _moved(start, edits, False), _moved(end, edits, True), others,
                                [(_moved(s, edits, False), _moved(e, edits, True)) for s, e in own], errors))
    result.fixed = candidate
    result.applied.extend(picked)
    return text, applied


def _where(finding: Finding, line_starts: list[int]) -> tuple[int, int]:
    try:
        return _offset(line_starts, finding.location), _offset(line_starts, finding.end_location)
    except IndexError:
        return -1, -1


def _overlaps(a: tuple[int, int], b: tuple[int, int]) -> bool:
    return a[0] <= b[1] and b[0] <= a[1] and a[0] >= 0


def _moved(offset: int, edits: list[tuple[int, int, str]], end: bool) -> int:
    """Where an offset of the text before the edits is after them; inside an edit, that edit's new start (or end)."""
    shift = 0
    for start, stop, content in edits:
        if stop <= offset and not (start == stop == offset and end is False):
            shift += len(content) - (stop - start)
        elif start < offset < stop or (start == offset and end and stop > offset):
            return start + shift + (len(content) if end else 0)
        else:
            break
    return offset + shift


def _verify(text: str, fixes: list[_Applied], findings: list[Finding], unsafe: bool) -> list[tuple[_Applied, str]]:
    """The fixes of the last pass whose finding the lint of the fixed text still reports where it was (more
    findings of its code there than the others it had), or that brought a new error where they edited."""
    line_starts = _line_starts(text)
    spans = [(finding, _where(finding, line_starts)) for finding in findings]
    failed = []
    for applied in fixes:
        code = applied.finding.code
        here = [f for f, span in spans if f.code == code and _overlaps(span, (applied.start, applied.end))]
        if len(here) > applied.others:
            failed.append((applied, f"{code} is still reported there after the fix"))
            continue
        # (a fix may leave what the next pass fixes: a lambda made a nested function, hoisted next)
        errors = [f for f, span in spans if f.severity == "error" and any(_overlaps(span, e) for e in applied.edits)
                  and not applicable(f, unsafe)]
        if len(errors) > applied.errors:
            new = sorted({f.code for f in errors})
            failed.append((applied, f"the fixed code is reported ({', '.join(new)})"))
    return failed


# -- checks of a fix that need no lint -------------------------------------------------------------------------
@dataclass
class _Facts:
    """What a fix must keep of a file: its scopes' bindings and how often each function calls itself (None when
    Python's own parser cannot read the text: then only LibCST's parse checks it)."""

    bindings: dict | None
    recursion: dict | None

    @classmethod
    def of(cls, text: str) -> "_Facts":
        try:
            tree = ast.parse(text)
            table = symtable.symtable(text, "<fix>", "exec")
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return cls(None, None)
        return cls(_bindings(table), _self_calls(tree))


def check_fix(before: _Facts, text: str) -> str:
    """Why the fixed `text` may not be written, or "": it must parse, call no function from itself more often than
    before (a method made to call itself), and bind every name as before (a name that is read must not become a
    local, a global or another function's variable, nor shadow a builtin)."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError) as error:
        if before.bindings is None:
            return ""
        return f"a fix produced code that does not parse ({type(error).__name__})"
    except (RecursionError, MemoryError):
        return ""
    if before.bindings is None:
        return ""
    after_calls = _self_calls(tree)
    for function, count in after_calls.items():
        if count > before.recursion.get(function, 0):
            return f"it would make `{function}` call itself"
    try:
        after = _bindings(symtable.symtable(text, "<fix>", "exec"))
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return "a fix produced code that does not parse (SyntaxError)"
    problem = _binding_changes(before.bindings, after)
    return f"it would change the binding of `{problem}`" if problem else ""


def _self_calls(tree: ast.Module) -> dict[str, int]:
    """Per function (by its qualified name), the calls of itself in its own body: `name(...)`, and in a method
    `self.name(...)` through its first parameter."""
    counts: dict[str, int] = {}

    def visit(node: ast.AST, prefix: str, in_class: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                name = f"{prefix}{child.name}"
                params = child.args.posonlyargs + child.args.args
                first = params[0].arg if in_class and params else None
                count = 0
                for inner in _own_nodes(child):
                    if isinstance(inner, ast.Call):
                        func = inner.func
                        if isinstance(func, ast.Name) and func.id == child.name and not in_class:
                            count += 1
                        elif (first is not None and isinstance(func, ast.Attribute) and func.attr == child.name
                              and isinstance(func.value, ast.Name) and func.value.id == first):
                            count += 1
                if count:
                    counts[name] = counts.get(name, 0) + count
                visit(child, name + ".", False)
            elif isinstance(child, ast.ClassDef):
                visit(child, f"{prefix}{child.name}.", True)
            else:
                visit(child, prefix, in_class)

    visit(tree, "", False)
    return counts


def _own_nodes(function: ast.AST):
    """The nodes of a function's body, not those of functions or classes nested in it."""
    todo = list(ast.iter_child_nodes(function))
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        yield node
        todo.extend(ast.iter_child_nodes(node))


def _bindings(table: symtable.SymbolTable) -> dict:
    """{scope path: {name: how it binds}} for every scope; a scope's path names it by its parents and its place
    among the siblings of its name."""
    out: dict = {}

    def visit(table: symtable.SymbolTable, path: tuple) -> None:
        out[path] = {symbol.get_name(): _binding(symbol, module=not path) for symbol in table.get_symbols()}
        seen: dict[str, int] = {}
        for child in table.get_children():
            index = seen[child.get_name()] = seen.get(child.get_name(), -1) + 1
            visit(child, (*path, (child.get_type(), child.get_name(), index)))

    visit(table, ())
    return out


def _binding(symbol: symtable.Symbol, module: bool) -> tuple[str, bool]:
    """Where a name of a scope is bound ("parameter", "local", "free", "global"; a `global` statement for a name the
    scope does not assign changes nothing), and whether by an import."""
    if module:
        bound = symbol.is_local() or symbol.is_assigned() or symbol.is_imported() or symbol.is_namespace()
        return ("local" if bound else "global"), symbol.is_imported()
    if symbol.is_parameter():
        where = "parameter"
    elif symbol.is_free():
        where = "free"
    elif symbol.is_local() and not symbol.is_declared_global():
        where = "local"
    elif symbol.is_global() and (symbol.is_assigned() or symbol.is_imported()) and symbol.is_declared_global():
        where = "global assigned"
    else:
        where = "global"
    return where, symbol.is_imported()


def _binding_changes(before: dict, after: dict) -> str:
    """A name that binds differently after the fix, or "". Moving a function's local definition or import to a
    name the module did not bind before (a nested function hoisted, an import moved up) keeps what it means."""
    module_before, module_after = before.get((), {}), after.get((), {})
    moved_up = {name for name, how in module_after.items()
                if name not in module_before and how[0] == "local" and not hasattr(builtins, name)}
    for path, names in before.items():
        now = after.get(path)
        if now is None:
            continue  # a scope the fix removed or renamed: what it read is not read any more
        for name, how in names.items():
            if name not in now or now[name] == how:
                continue
            if path and name in moved_up and how[0] == "local" and now[name][0] == "global":
                continue
            return name
    read_as_global = {name for path, names in before.items() if path
                      for name, how in names.items() if how[0] == "global"}
    for name, how in module_after.items():
        if name not in module_before and how[0] == "local" and name in read_as_global and hasattr(builtins, name):
            return name  # a new module-level name shadows the builtin that code read before
    return ""


def unified_diff(result: FixResult, display_name: str) -> str:
    return "".join(difflib.unified_diff(
        result.original.splitlines(keepends=True), result.fixed.splitlines(keepends=True),
        fromfile=f"a/{display_name}", tofile=f"b/{display_name}",
    ))


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def write_atomically(path: Path, text: str, encoding: str, expected_digest: str) -> str:
    """Write atomically (`jitlint.atomic`), keeping the permissions and a UTF-8 byte-order mark; refuse if the
    file changed since it was read. Returns an error message, or "" on success."""
    try:
        current = path.read_bytes()
    except OSError as error:
        return f"cannot re-read it before writing: {error.strerror or error}"
    if digest(current) != expected_digest:
        return "it changed on disk while jitlint was fixing it; not overwritten"
    data = text.encode(encoding)
    if current.startswith(b"\xef\xbb\xbf") and not data.startswith(b"\xef\xbb\xbf"):
        data = b"\xef\xbb\xbf" + data
    mode = path.stat().st_mode
    try:
        atomic.write_atomically(path, data, mode=mode & 0o7777, fsync=True, suffix=".jitlint-tmp")
    except OSError as error:
        return f"cannot write it: {error.strerror or error}"
    return ""


def write_source(path: Path, text: str, original: bytes) -> str:
    """Write `text` over the file whose bytes were `original`, in the encoding it declares (its coding cookie, or
    UTF-8; a BOM is kept), atomically and only if the file still holds `original`. An error message, or ""."""
    encoding, _ = tokenize.detect_encoding(io.BytesIO(original).readline)
    return write_atomically(path, text, "utf-8" if encoding == "utf-8-sig" else encoding, digest(original))
