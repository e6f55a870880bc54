"""Linting one file: the enabled rules of each capture policy in one traversal of its tree, where the policy's
capture map says they fire; their findings placed (`jitlint.located`) and filtered by `# noqa`, per-file ignores,
and JIT900 for the `# noqa` codes that suppressed nothing."""

from __future__ import annotations

import dataclasses
import gc
import sys
import threading

import libcst as cst

from jitlint import heap, pages
from jitlint.baseline import normalise_statement
from jitlint.capture import Chains
from jitlint.facts import FactStore
from jitlint.finding import Edit, Finding, FindingContext, Fix, Location
from jitlint.located import Where, to_finding
from jitlint.noqa import Suppressions, directives, removal
from jitlint.positions import StatementPositions
from jitlint.rules import RULES_BY_CODE
from jitlint.rules.base import RawFinding, Rule, RuleContext
from jitlint.source import SourceError
from jitlint.walk import walk

# -- rule dispatch ----------------------------------------------------------------------------------------------
# What the dispatcher's traversal tells apart, per node class (asked once per class: `isinstance` on LibCST's
# classes, whose metaclass is ABCMeta, is a Python call, and the traversal asks at every node).
_FUNCTION, _LAMBDA, _CLASS, _PARAMETERS, _LINE, _OTHER = "function", "lambda", "class", "parameters", "line", "other"
_KINDS: dict[type, str] = {}


def _kind(node_class: type) -> str:
    for base, kind in ((cst.FunctionDef, _FUNCTION), (cst.Lambda, _LAMBDA), (cst.ClassDef, _CLASS),
                       (cst.Parameters, _PARAMETERS), (cst.SimpleStatementLine, _LINE)):
        if issubclass(node_class, base):
            break
    else:
        kind = _OTHER
    _KINDS[node_class] = kind
    return kind


class _Dispatcher(cst.CSTVisitor):
    """Runs the enabled rules of one capture policy in one traversal, calling a rule only where its scope says
    the policy captures.

    When no active rule looks at code outside captured functions (other than class definitions), the traversal
    skips what cannot matter: statements at module and class level, and the bodies of functions that are not
    captured. Captured functions are only ever top-level functions or methods of top-level classes, so nothing
    captured hides inside a skipped body."""

    # Node types that "anywhere" rules may handle without making the walk visit everything.
    _STRUCTURAL = frozenset({"ClassDef"})

    def __init__(self, ctx: RuleContext, rules: list[Rule], text: str | None = None) -> None:
        self.ctx = ctx
        self.failed: dict[str, str] = {}  # rule code -> what it raised (that rule is off for the rest of the file)
        self.visit_handlers: dict[str, list] = {}
        self.leave_handlers: dict[str, list] = {}
        outside: set[str] = set()  # node types that rules need to see outside captured functions
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
        self.pruned_depth = 0
        self.body_id: int | None = None
        self.params_id: int | None = None  # the parameters of a function whose parameters are not captured

    def _allowed(self, rule: Rule) -> bool:
        if rule.scope == "anywhere":
            return True
        function = self.ctx.function
        if function is None:
            return False
        if not function.body_captured:
            return rule.scope == "signature" and self.ctx.in_signature
        return rule.fires_in_pruned or self.pruned_depth == 0

    def _dispatch(self, table: dict, node: cst.CSTNode) -> None:
        handlers = table.get(type(node).__name__)
        if not handlers:
            return
        ctx = self.ctx
        pruned = ctx.in_pruned_branch = self.pruned_depth > 0
        failed = self.failed
        function = ctx.function
        for rule, method in handlers:
            if failed and rule.code in failed:
                continue
            # `_allowed`, inlined: this runs for every handler at every node.
            scope = rule.scope
            if scope != "anywhere":
                if function is None:
                    continue
                if not function.body_captured:
                    if scope != "signature" or not ctx.in_signature:
                        continue
                elif pruned and not rule.fires_in_pruned:
                    continue
            ctx._rule = type(rule)
            try:
                method(node, ctx)
            except RecursionError:
                raise
            except Exception as error:  # a bug in one rule must not cost the other rules' findings
                failed[rule.code] = f"{type(error).__name__}: {error}"

    def _push(self, function) -> None:
        ctx = self.ctx
        self.frames.append((ctx.function, self.pruned_depth, ctx.in_signature, self.body_id))
        ctx.function = function
        self.pruned_depth = 0
        ctx.in_signature = function is not None
        self.body_id = None

    def on_visit(self, node: cst.CSTNode) -> bool:
        ctx = self.ctx
        ctx.ancestors.append(node)
        kind = _KINDS.get(type(node)) or _kind(type(node))
        if kind is _FUNCTION:
            captured = ctx.captured.get(node)
            if captured is None:
                self._dispatch(self.visit_handlers, node)
                self._push(None)
                return not self.prune
            self._push(captured)
            self.body_id = id(node.body)
            self._dispatch(self.visit_handlers, node)
            return True
        if kind is _LAMBDA or kind is _CLASS:
            outside = ctx.function is None
            self._dispatch(self.visit_handlers, node)
            self._push(None)
            return not (self.prune and outside and kind is _LAMBDA)
        if id(node) == self.body_id:
            ctx.in_signature = False
            if self.prune and not ctx.function.body_captured:
                return False  # an @torch.jit.ignore/unused body: only its signature matters
        elif (
            kind is _PARAMETERS
            and ctx.function is not None
            and not ctx.function.params_captured
            and ctx.function.info.node.params is node
        ):
            ctx.in_signature = False  # only the return annotation is captured
            self.params_id = id(node)
        elif self.prune and ctx.function is None and kind is _LINE:
            self._dispatch(self.visit_handlers, node)
            return False
        if ctx.function is not None and id(node) in ctx.function.pruned:
            self.pruned_depth += 1
        self._dispatch(self.visit_handlers, node)
        return True

    def on_leave(self, original_node: cst.CSTNode) -> None:
        ctx = self.ctx
        kind = _KINDS.get(type(original_node)) or _kind(type(original_node))
        if kind is _FUNCTION or kind is _LAMBDA or kind is _CLASS:
            previous = self.frames.pop()
            inner_captured = ctx.function is not None
            if inner_captured:
                self._dispatch(self.leave_handlers, original_node)
            ctx.function, self.pruned_depth, ctx.in_signature, self.body_id = previous
            if not inner_captured:
                self._dispatch(self.leave_handlers, original_node)
        else:
            self._dispatch(self.leave_handlers, original_node)
            if ctx.function is not None and id(original_node) in ctx.function.pruned:
                self.pruned_depth -= 1
            if id(original_node) == self.body_id:
                ctx.in_signature = True
            if id(original_node) == self.params_id:
                ctx.in_signature = True
                self.params_id = None
        ctx.ancestors.pop()


def _internal_error(source, what: str) -> Finding:
    rule = RULES_BY_CODE["JIT003"]
    location = Location(1, 1)
    return Finding(rule.code, rule.name, f"jitlint internal error ({what}); other findings for this file are still "
                   "reported, please report this one with the file", rule.severity, source.display_name, location,
                   location, url=pages.url(rule.code))


UNUSED_NOQA = "JIT900"


def lint_module(source, module, project, maps, rules, config, unused_noqa: bool = False,
                first_lines: tuple[int, ...] | None = None, targets: frozenset[str] | None = None) -> list[Finding]:
    """The findings of one file. `unused_noqa`: also report the `# noqa` codes that suppressed nothing (JIT900).
    `first_lines`: where each top-level statement starts (`Summary.lines`), if known (else read with `ast` when the
    file has findings). `targets`: the run's enabled targets, where `rules` are some of the run's (default: the
    targets of `rules`)."""
    try:
        findings, failed = _lint_module(source, module, project, maps, rules, config, unused_noqa, first_lines,
                                        targets)
    except RecursionError:
        return [SourceError(source.path, source.display_name, "JIT001", "cannot analyze: nested too deeply").finding()]
    except Exception as error:
        return [_internal_error(source, f"{type(error).__name__}: {error}")]
    return findings + [_internal_error(source, f"rule {code} ({RULES_BY_CODE[code].name}) raised {what}")
                       for code, what in sorted(failed.items())]


def _lint_module(source, module, project, maps, rules, config, unused_noqa=False,
                 first_lines=None, targets=None) -> tuple[list[Finding], dict[str, str]]:
    raws: list[RawFinding] = []
    failed: dict[str, str] = {}
    if targets is None:
        targets = frozenset(rule.target for rule in rules if rule.target is not None)
    facts = FactStore()  # the file's facts, shared by the traversals of every policy and dropped after the file
    for policy in dict.fromkeys(rule.policy for rule in rules):  # one traversal per capture policy, in code order
        group = [rule for rule in rules if rule.policy == policy]
        ctx = RuleContext(module, project, maps[policy], policy=policy, facts=facts,
                          settings=maps[policy].policy.settings)
        ctx.targets = targets
        dispatcher = _Dispatcher(ctx, group, source.text)
        for rule in group:
            ctx._set_rule(type(rule))
            rule.begin_file(ctx)
        walk(source.tree, dispatcher)
        for rule in group:
            if rule.code in dispatcher.failed:
                continue
            ctx._set_rule(type(rule))
            try:
                rule.end_file(ctx)
            except Exception as error:
                dispatcher.failed[rule.code] = f"{type(error).__name__}: {error}"
        raws.extend(raw for raw in ctx.findings if raw.rule.code not in dispatcher.failed)
        failed.update(dispatcher.failed)
    ignore_noqa = getattr(config, "ignore_noqa", False)
    check_noqa = unused_noqa and not ignore_noqa and "noqa" in source.text.lower()
    if not raws and not check_noqa:
        return [], failed
    suppressions = Suppressions(source.text, ignore=ignore_noqa)
    if not raws:
        return _unused_noqa(source, suppressions, config), failed
    # positions only for the top-level statements that hold findings (and what else a finding's place reads)
    positions = StatementPositions(source.tree, source.text, first_lines or statement_lines(source.text))
    positions.prepare(*(raw.top for raw in raws))
    per_file_ignored = config.ignored_for(source.path)
    results = []
    seen = set()
    lines = source.text.splitlines()
    where = Where(source.tree, positions, source.text)
    chains: dict[str, Chains] = {}
    for raw in raws:
        finding = to_finding(raw, positions, source.display_name, source.path, lines, where)
        if raw.function is not None and raw.rule.policy in maps:
            policy = raw.rule.policy
            chain = (chains.get(policy) or chains.setdefault(policy, Chains(maps[policy]))).of(raw.function)
            finding = dataclasses.replace(finding, captured_from=chain)
        if any(finding.code.startswith(prefix) for prefix in per_file_ignored):
            continue
        if suppressions.suppressed(finding.code, finding.location.row):
            continue
        key = finding.sort_key()
        if key not in seen:
            seen.add(key)
            results.append(finding)
    if check_noqa:
        results.extend(_unused_noqa(source, suppressions, config))
    return results, failed


def statement_lines(text: str) -> tuple[int, ...] | None:
    """Where each top-level statement of `text` starts (`summaries.statement_lines`), read with `ast`; None if it
    cannot read it."""
    import ast
    import warnings

    from jitlint.summaries import statement_lines as lines_of

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return lines_of(ast.parse(text))
    except (SyntaxError, ValueError, RecursionError, MemoryError, OverflowError):
        return None


def _unused_noqa(source, suppressions: Suppressions, config) -> list[Finding]:
    """JIT900: the jitlint codes of `# noqa: CODES` comments that suppressed nothing in this run (ruff's RUF100).
    Codes of other tools (`E501`) are theirs; a bare `# noqa` and `# jitlint: noqa` are left alone."""
    from jitlint.codes import CODES

    rule = RULES_BY_CODE[UNUSED_NOQA]
    file_level = suppressions.file_level
    if file_level is None or UNUSED_NOQA in file_level:
        return []
    if any(UNUSED_NOQA.startswith(prefix) for prefix in config.ignored_for(source.path)):
        return []
    prefixes = tuple(sorted({code.rstrip("0123456789") for code in CODES}))
    lines = source.text.splitlines()
    findings = []
    for directive in directives(source.text):
        codes = [code for code, _start, _end in directive.codes]
        if UNUSED_NOQA in codes:
            continue  # `# noqa: JIT900, ...` keeps the directive as it is
        unused = [code for code in codes if code.startswith(prefixes) and (directive.row, code) not in suppressions.used]
        if not unused:
            continue
        line = lines[directive.row - 1]
        start, end, content = removal(line, directive, set(unused))
        detail = ", ".join(f"`{code}`" for code in unused)
        parts = [f"{kind}: " + ", ".join(f"`{code}`" for code in chosen) for kind, chosen in (
            ("unused", [code for code in unused if code in CODES]), ("unknown", [code for code in unused if code not in CODES]))
            if chosen]
        message = f"unused `noqa` directive ({'; '.join(parts)})"
        what = "remove the unused `noqa` directive" if len(unused) == len(codes) else f"remove {detail} from the `noqa` directive"
        location = Location(directive.row, directive.start + 1)
        fix = Fix("safe", what, (Edit(content, Location(directive.row, start + 1), Location(directive.row, end + 1)),))
        findings.append(Finding(
            rule.code, rule.name, message, rule.severity, source.display_name, location,
            Location(directive.row, directive.end + 1), fix=fix, url=pages.url(rule.code),
            context=FindingContext(source.path, (directive.row, directive.row), None, line,
                                   "", normalise_statement(line)),
        ))
    return findings


# -- the thread a run lints in, and the garbage of each file ------------------------------------------------------
STACK_BYTES = 512 * 1024 * 1024

RECURSION_LIMIT = 100_000


def in_lint_thread(function, *args, **kwargs):
    result: list = []
    failure: list[BaseException] = []

    def work() -> None:
        try:
            result.append(function(*args, **kwargs))
        except BaseException as error:  # re-raised in the caller's thread
            failure.append(error)

    # The trees are large and acyclic: Python's cyclic collector would rescan them again and again as they grow
    # (which made parsing a large library much slower), and would free nothing.
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
        gc.unfreeze()  # what `Sweeper` froze goes back to the collector's oldest generation
        if gc_was_enabled:
            gc.enable()
    if failure:
        raise failure[0]
    return result[0]


class Sweeper:
    """Frees the cyclic garbage the rules leave per file, without the collector scanning the trees. The run keeps
    Python's collector off (see `in_lint_thread`), but a file's rules leave reference cycles behind: kept, they
    made up much of a worker's memory on a large library during the lint phase. Everything that exists before the
    lint phase (the trees, the index, the maps) is frozen, so each collection after a file scans only what that
    file's rules allocated, a small share of the lint's time, and the oldest young generation every 50 files. After
    each file it also lets `jitlint.heap` hand the C heap's free pages back. Does nothing for one file (nothing
    accumulates: the editor server's keystroke) or where the collector is on (a caller's own thread)."""

    def __init__(self, files: int) -> None:
        self.active = files > 1 and not gc.isenabled()
        self.count = 0
        if self.active:
            gc.freeze()
            heap.release()  # the parse's and the index's garbage, before the lint phase adds its own

    def __call__(self) -> None:
        if self.active:
            self.count += 1
            gc.collect(1 if self.count % 50 == 0 else 0)
            heap.settle()
