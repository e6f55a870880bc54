"""From paths to sorted findings: discover, parse, index the project, map compiled code, run the rules."""

from __future__ import annotations

import dataclasses
import gc
import multiprocessing
import re
import sys
import threading
from dataclasses import dataclass
from pathlib import Path

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider

from jitlint.compiled import CompiledCodeMap
from jitlint.config import Config
from jitlint.discovery import discover  # noqa: F401  (re-exported: callers import it from here)
from jitlint.finding import Edit, Finding, FindingContext, Fix, Location
from jitlint.names import resolved
from jitlint.project import ModuleInfo, ProjectIndex
from jitlint.rules import RULES, RULES_BY_CODE
from jitlint.rules.base import RawFinding, Rule, RuleContext
from jitlint.source import SourceError, SourceFile, parse_bytes, read_source
from jitlint.walk import walk
from jitlint import pages

_CODES = r"[A-Z]+[0-9]+(?:\s*,\s*[A-Z]+[0-9]+)*"
_NOQA = re.compile(rf"#\s*noqa(?::\s*(?P<codes>{_CODES}))?", re.IGNORECASE)
_FILE_NOQA = re.compile(rf"^\s*#\s*jitlint:\s*noqa(?::\s*(?P<codes>{_CODES}))?\s*$", re.IGNORECASE | re.MULTILINE)


@dataclass
class StdinSource:
    display_name: str
    data: bytes


# -- rule dispatch ----------------------------------------------------------------------------------------------
class _Dispatcher(cst.CSTVisitor):
    """Runs every enabled rule in one traversal, calling a rule only where its scope says torch compiles.

    When no active rule looks at code outside compiled functions (other than class definitions), the traversal
    skips what cannot matter: statements at module and class level, and the bodies of functions torch does not
    compile. Compiled functions are only ever top-level functions or methods of top-level classes, so nothing
    compiled hides inside a skipped body."""

    # Node types that "anywhere" rules may handle without making the walk visit everything.
    _STRUCTURAL = frozenset({"ClassDef"})

    def __init__(self, ctx: RuleContext, rules: list[Rule], text: str | None = None) -> None:
        self.ctx = ctx
        self.failed: dict[str, str] = {}  # rule code -> what it raised (that rule is off for the rest of the file)
        self.visit_handlers: dict[str, list] = {}
        self.leave_handlers: dict[str, list] = {}
        outside: set[str] = set()  # node types that rules need to see outside compiled functions
        for rule in rules:
            if text is not None and rule.text_hints and not any(hint in text for hint in rule.text_hints):
                continue
            for kind, node_type, method in rule.handlers():
                table = self.visit_handlers if kind == "visit" else self.leave_handlers
                table.setdefault(node_type, []).append((rule, method))
                if rule.scope == "anywhere" and (rule.outside_handlers is None or node_type in rule.outside_handlers):
                    outside.add(node_type)
        self.prune = outside <= self._STRUCTURAL
        self.frames: list[tuple] = []
        self.dead_depth = 0
        self.body_id: int | None = None

    def _allowed(self, rule: Rule) -> bool:
        if rule.scope == "anywhere":
            return True
        function = self.ctx.function
        if function is None:
            return False
        if not function.body_compiled:
            return rule.scope == "signature" and self.ctx.in_signature
        return rule.syntax or self.dead_depth == 0

    def _dispatch(self, table: dict, node: cst.CSTNode) -> None:
        handlers = table.get(type(node).__name__)
        if not handlers:
            return
        ctx = self.ctx
        ctx.in_dead_branch = self.dead_depth > 0
        for rule, method in handlers:
            if rule.code not in self.failed and self._allowed(rule):
                ctx._set_rule(type(rule))
                try:
                    method(node, ctx)
                except RecursionError:
                    raise
                except Exception as error:  # a bug in one rule must not cost the other rules' findings
                    self.failed[rule.code] = f"{type(error).__name__}: {error}"

    def _push(self, function) -> None:
        ctx = self.ctx
        self.frames.append((ctx.function, self.dead_depth, ctx.in_signature, self.body_id))
        ctx.function = function
        self.dead_depth = 0
        ctx.in_signature = function is not None
        self.body_id = None

    def on_visit(self, node: cst.CSTNode) -> bool:
        ctx = self.ctx
        ctx.ancestors.append(node)
        if isinstance(node, cst.FunctionDef):
            compiled = ctx.compiled.get(node)
            if compiled is None:
                self._dispatch(self.visit_handlers, node)
                self._push(None)
                return not self.prune
            self._push(compiled)
            self.body_id = id(node.body)
            self._dispatch(self.visit_handlers, node)
            return True
        if isinstance(node, (cst.Lambda, cst.ClassDef)):
            outside = ctx.function is None
            self._dispatch(self.visit_handlers, node)
            self._push(None)
            return not (self.prune and outside and isinstance(node, cst.Lambda))
        if id(node) == self.body_id:
            ctx.in_signature = False
            if self.prune and not ctx.function.body_compiled:
                return False  # an @torch.jit.ignore/unused body: only its signature matters
        elif self.prune and ctx.function is None and isinstance(node, cst.SimpleStatementLine):
            self._dispatch(self.visit_handlers, node)
            return False
        if ctx.function is not None and id(node) in ctx.function.dead:
            self.dead_depth += 1
        self._dispatch(self.visit_handlers, node)
        return True

    def on_leave(self, original_node: cst.CSTNode) -> None:
        ctx = self.ctx
        if isinstance(original_node, (cst.FunctionDef, cst.Lambda, cst.ClassDef)):
            previous = self.frames.pop()
            inner_compiled = ctx.function is not None
            if inner_compiled:
                self._dispatch(self.leave_handlers, original_node)
            ctx.function, self.dead_depth, ctx.in_signature, self.body_id = previous
            if not inner_compiled:
                self._dispatch(self.leave_handlers, original_node)
        else:
            self._dispatch(self.leave_handlers, original_node)
            if ctx.function is not None and id(original_node) in ctx.function.dead:
                self.dead_depth -= 1
            if id(original_node) == self.body_id:
                ctx.in_signature = True
        ctx.ancestors.pop()


# -- suppression ------------------------------------------------------------------------------------------------
def _parse_codes(text: str | None) -> set[str] | None:
    """None means every code."""
    if text is None:
        return None
    return {code.strip().upper() for code in text.split(",") if code.strip()}


class Suppressions:
    def __init__(self, text: str) -> None:
        self.lines = text.splitlines()
        self.file_level: set[str] | None = set()
        for match in _FILE_NOQA.finditer(text):
            codes = _parse_codes(match.group("codes"))
            if codes is None:
                self.file_level = None
                break
            self.file_level |= codes

    def suppressed(self, code: str, row: int) -> bool:
        if self.file_level is None or code in self.file_level:
            return True
        if 1 <= row <= len(self.lines):
            line = self.lines[row - 1]
            if "noqa" in line.lower():
                match = _NOQA.search(line)
                if match:
                    codes = _parse_codes(match.group("codes"))
                    return codes is None or code in codes
        return False


# -- the run ----------------------------------------------------------------------------------------------------
def _finding_for_error(error: SourceError) -> Finding:
    return error.finding()


def _load_quietly(path: Path) -> SourceFile | None:
    source = read_source(path)
    return source if isinstance(source, SourceFile) else None


@dataclass
class LintRun:
    findings: list[Finding]
    project: ProjectIndex
    compiled: CompiledCodeMap


def lint(paths: list[Path], config: Config, enabled: set[str], **options) -> list[Finding]:
    return lint_run(paths, config, enabled, **options).findings


STACK_BYTES = 512 * 1024 * 1024
RECURSION_LIMIT = 100_000


def lint_run(*args, **kwargs) -> LintRun:
    """Lint in a thread with a large stack and recursion limit: LibCST's native parser and the visitors recurse
    once per nesting level, and deeply nested (often generated) code would otherwise overflow the C stack."""
    result: list = []
    failure: list[BaseException] = []

    def work() -> None:
        try:
            result.append(_lint_run(*args, **kwargs))
        except BaseException as error:  # re-raised in the caller's thread
            failure.append(error)

    # The trees are large and acyclic: Python's cyclic collector would rescan them again and again as they grow
    # (it doubled the cost of parsing timm), and would free nothing.
    gc_was_enabled = gc.isenabled()
    gc.disable()
    previous_stack = threading.stack_size(STACK_BYTES)
    previous_limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(previous_limit, RECURSION_LIMIT))
    try:
        thread = threading.Thread(target=work, name="jitlint-lint")
        thread.start()
        thread.join()
    finally:
        threading.stack_size(previous_stack)
        sys.setrecursionlimit(previous_limit)
        if gc_was_enabled:
            gc.enable()
    if failure:
        raise failure[0]
    return result[0]


def _lint_run(
    paths: list[Path],
    config: Config,
    enabled: set[str],
    *,
    stdin: StdinSource | None = None,
    force_exclude: bool = False,
    progress=None,
    jobs: int = 1,
) -> LintRun:
    """`progress(done, total)`, if given, is called as files are read and as they are linted."""
    files, errors = discover(paths, config, force_exclude) if paths else ([], [])
    sources: list[SourceFile] = []
    for index, path in enumerate(files):
        if progress is not None:
            progress(index, 2 * len(files))
        source = read_source(path)
        (sources if isinstance(source, SourceFile) else errors).append(source)
    if stdin is not None:
        stdin_path = Path(stdin.display_name)
        if not (force_exclude and config.is_excluded(stdin_path)):
            source = parse_bytes(stdin_path, stdin.display_name, stdin.data)
            (sources if isinstance(source, SourceFile) else errors).append(source)
            # The same file on disk is replaced by what the editor sent.
            sources = [s for s in sources if s is source or resolved(s.path) != resolved(stdin_path)]

    project = ProjectIndex(loader=_load_quietly)
    modules: list[tuple[SourceFile, ModuleInfo]] = []
    for source in sources:
        module = ModuleInfo.build(source.path, source.display_name, source.tree, linted=True, text=source.text)
        project.add(module)
        modules.append((source, module))
    compiled = CompiledCodeMap.build(project)

    rules = [rule() for rule in RULES if rule.code in enabled and not getattr(rule, "engine_reported", False)]
    findings = [_finding_for_error(error) for error in errors if error.code in enabled]
    state = (modules, project, compiled, rules, config)
    parallel = jobs > 1 and len(modules) >= MIN_FILES_PER_JOB * 2 and "fork" in multiprocessing.get_all_start_methods()
    results = _lint_in_workers(state, jobs) if parallel else None
    if results is None:
        results = (_lint_one(state, index) for index in range(len(modules)))
    for done, (file_findings, loaded) in enumerate(results):
        if progress is not None:
            progress(len(files) + done, len(files) + len(modules))
        findings.extend(file_findings)
        project.loaded.extend(path for path in loaded if path not in project.loaded)
    findings.sort(key=Finding.sort_key)
    return LintRun(findings, project, compiled)


# -- parallel workers -------------------------------------------------------------------------------------------
# The rules run in forked workers that inherit the parsed trees, the project index and the compiled-code map
# (copy-on-write: nothing is pickled on the way in). Each worker lints whole files and sends back their findings;
# the parent sorts them, so the output is the same, in the same order, as with one job.
MIN_FILES_PER_JOB = 4
_FORKED_STATE: tuple | None = None


def _lint_one(state: tuple, index: int) -> tuple[list[Finding], list[Path]]:
    modules, project, compiled, rules, config = state
    source, module = modules[index]
    before = len(project.loaded)
    return lint_module(source, module, project, compiled, rules, config), project.loaded[before:]


def _lint_forked(index: int) -> tuple[list[Finding], list[Path]]:
    findings, loaded = _lint_one(_FORKED_STATE, index)
    # A compiled function is sent back as its id, which is the same object's id in the parent (forked memory).
    return [_with_function_id(finding) for finding in findings], loaded


def _with_function_id(finding: Finding) -> Finding:
    context = finding.context
    if isinstance(context, FindingContext) and context.function is not None:
        return dataclasses.replace(finding, context=dataclasses.replace(context, function=id(context.function)))
    return finding


def _lint_in_workers(state: tuple, jobs: int):
    """Findings per file from `jobs` forked workers, or None if workers cannot be started here."""
    global _FORKED_STATE
    modules, _project, compiled, _rules, _config = state
    by_id = {id(function): function for function in compiled.functions.values()}
    # Largest files first, so that no worker is left with a big file at the end.
    order = sorted(range(len(modules)), key=lambda index: -len(modules[index][0].text))
    _FORKED_STATE = state
    try:
        pool = multiprocessing.get_context("fork").Pool(min(jobs, len(modules) // MIN_FILES_PER_JOB))
    except OSError:
        _FORKED_STATE = None
        return None
    _FORKED_STATE = None  # the workers have their copy

    def results():
        with pool:
            for findings, loaded in pool.imap_unordered(_lint_forked, order):
                yield [_with_function(finding, by_id) for finding in findings], loaded

    return results()


def _with_function(finding: Finding, by_id: dict) -> Finding:
    context = finding.context
    if isinstance(context, FindingContext) and isinstance(context.function, int):
        return dataclasses.replace(finding, context=dataclasses.replace(context, function=by_id.get(context.function)))
    return finding


def _internal_error(source, what: str) -> Finding:
    rule = RULES_BY_CODE["JIT003"]
    location = Location(1, 1)
    return Finding(rule.code, rule.name, f"jitlint internal error ({what}); other findings for this file are still "
                   "reported, please report this one with the file", rule.severity, source.display_name, location,
                   location, url=pages.url(rule.code))


def lint_module(source, module, project, compiled, rules, config) -> list[Finding]:
    try:
        findings, failed = _lint_module(source, module, project, compiled, rules, config)
    except RecursionError:
        return [_finding_for_error(SourceError(source.path, source.display_name, "JIT001",
                                               "cannot analyze: nested too deeply"))]
    except Exception as error:
        return [_internal_error(source, f"{type(error).__name__}: {error}")]
    return findings + [_internal_error(source, f"rule {code} ({RULES_BY_CODE[code].name}) raised {what}")
                       for code, what in sorted(failed.items())]


def _lint_module(source, module, project, compiled, rules, config) -> tuple[list[Finding], dict[str, str]]:
    ctx = RuleContext(module, project, compiled)
    dispatcher = _Dispatcher(ctx, rules, source.text)
    for rule in rules:
        ctx._set_rule(type(rule))
        rule.begin_file(ctx)
    walk(source.tree, dispatcher)
    for rule in rules:
        if rule.code in dispatcher.failed:
            continue
        ctx._set_rule(type(rule))
        try:
            rule.end_file(ctx)
        except Exception as error:
            dispatcher.failed[rule.code] = f"{type(error).__name__}: {error}"
    ctx.findings = [raw for raw in ctx.findings if raw.rule.code not in dispatcher.failed]
    if not ctx.findings:
        return [], dispatcher.failed
    positions = MetadataWrapper(source.tree, unsafe_skip_copy=True).resolve(PositionProvider)
    suppressions = Suppressions(source.text)
    per_file_ignored = config.ignored_for(source.path)
    results = []
    seen = set()
    lines = source.text.splitlines()
    for raw in ctx.findings:
        finding = _to_finding(raw, positions, source.display_name, source.path, lines)
        if any(finding.code.startswith(prefix) for prefix in per_file_ignored):
            continue
        if suppressions.suppressed(finding.code, finding.location.row):
            continue
        key = finding.sort_key()
        if key not in seen:
            seen.add(key)
            results.append(finding)
    return results, dispatcher.failed


def _resolve_fix(pending, positions) -> Fix | None:
    if pending is None:
        return None
    edits = []
    for edit in pending.edits:
        span = positions[edit.node]
        start = Location(span.start.line, span.start.column + 1)
        end = Location(span.end.line, span.end.column + 1)
        if edit.insert_after:
            start = end
        elif edit.insert_before:
            end = start
        edits.append(Edit(edit.content, start, end))
    return Fix(pending.applicability, pending.message, tuple(edits))


def _to_finding(raw: RawFinding, positions, filename: str, path: Path, lines: list[str]) -> Finding:
    code_range = positions[raw.node]
    rule = raw.rule
    span = positions.get(raw.statement) if raw.statement is not None else None
    statement = (span.start.line, span.end.line) if span else (code_range.start.line, code_range.end.line)
    return Finding(
        rule.code,
        rule.name,
        raw.message,
        rule.severity,
        filename,
        Location(code_range.start.line, code_range.start.column + 1),
        Location(code_range.end.line, code_range.end.column + 1),
        fix=_resolve_fix(raw.fix, positions),
        url=pages.url(rule.code),
        context=FindingContext(path, statement, raw.function, lines[code_range.start.line - 1] if code_range.start.line <= len(lines) else ""),
    )
