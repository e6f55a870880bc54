"""`jitlint server`: a Language Server over stdio (pygls), a thin layer over the same engine as `jitlint check`.

Diagnostics come from the static rules on open, on change (debounced) and on save; on save, when the workspace's
`[tool.jitlint.dynamic]` has `enabled = true`, they also carry the dynamic checker's confirmation. The modules a
document's names lead to are parsed once and kept between edits (`ModuleCache`), so a keystroke re-parses only the
document; saving a file re-lints the open documents that read it. Columns are sent in the `positionEncoding` the
client and server agree on at `initialize` (UTF-16 unless the client offers UTF-8 or UTF-32). Hovering a
diagnostic shows its rule's page; fixes are offered as quick-fix code actions.
"""

from __future__ import annotations

import asyncio
import gc
import re
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.parse import unquote, urlparse

from jitlint import __version__, pages
from jitlint.noqa import NoqaLines

# Each change restarts this timer: a burst of typing is linted once, after it. Not shortened after a fast lint: a
# lint of a large model file costs a noticeable fraction of a CPU-second, and linting at every pause inside a word
# would keep a core busy on a 2-core machine while the user types (bench/records/2026-11-23-editor.md).
DEBOUNCE_SECONDS = 0.3
_LINE_BREAK = re.compile(r"\r\n|\r|\n")  # Python's line ends only: str.splitlines also splits at \f, \x1c, U+2028


class ServerUnavailable(Exception):
    """pygls is not installed (it is the `server` extra)."""


def _path(uri: str) -> Path:
    parsed = urlparse(uri)
    return Path(unquote(parsed.path)) if parsed.scheme == "file" else Path(uri)


# One lint at a time in this process: a parse swaps LibCST's node classes on the `libcst` module (`layout.py`),
# and a lint sets the process's recursion limit and collector, so a lint running beside another one (a debounced
# change on the event loop, a save on a pool thread) saw factories where it expected classes (JIT003) or lost its
# recursion limit. Every lint runs on one thread, in the order asked, and the event loop awaits it; the lock
# keeps any other caller in line too.
_LINT_LOCK = threading.Lock()
_LINTER = ThreadPoolExecutor(max_workers=1, thread_name_prefix="jitlint-server-lint")


def _findings(path: Path, text: str, dynamic: bool):
    with _LINT_LOCK:
        reads = MODULES.reads
        findings = _lint(path, text, dynamic)
        if MODULES.reads != reads:
            # A lint that parsed modules (opening a file, a dependency saved) leaves the collector a full pass to
            # make over the new trees: do it now, as part of the seconds the open takes, rather than on the next
            # keystroke, where it would cost as much as the lint itself.
            gc.collect()
        return findings


class ModuleCache:
    """The modules a lint reads on demand (what the document imports, their bases and callees), read once and kept
    between edits: a change re-parses only the edited document. A module is read as a `jitlint check` of one file
    reads what lies outside its run (`pipeline.read_outside`: its `ast` summary, LibCST only where `ast` cannot
    read it), so the editor reports what that run reports, and a package whose star imports reach thousands of
    files (transformers) is summarized once, not parsed with LibCST on every change. An entry is used while its
    file's size, mtime and inode are those it was read with, so a module edited on disk (saved in the editor, or by
    `git checkout`) is read again, and the summaries whose star imports were bound are read again with it (what
    they bind may have changed). The least recently used go beyond `limit` bytes: a LibCST tree counts its source's
    size (it takes about 700 bytes of memory per byte of source), a summary a sixteenth of it."""

    def __init__(self, limit: int = 4 * 1024 * 1024) -> None:
        from collections import OrderedDict

        self.limit = limit
        self.entries: "OrderedDict[Path, tuple[tuple, int, object]]" = OrderedDict()
        self.reads = 0  # files read (for tests and measurements)

    def __call__(self, path: Path):
        from jitlint.pipeline import read_outside

        try:
            status = path.stat()
            stamp = (status.st_size, status.st_mtime_ns, status.st_ino, status.st_dev)
        except OSError:
            return None
        key = path.resolve()
        cached = self.entries.get(key)
        if cached is not None and cached[0] == stamp:
            self.entries.move_to_end(key)
            return cached[2]
        if cached is not None:
            self._forget_bound_stars()
        source = read_outside(path)
        self.reads += 1
        if source is not None and not hasattr(source, "module_info"):  # a LibCST tree
            source, cost = _KeptSource(source.tree, source.text), status.st_size
        else:
            cost = max(1, status.st_size // 16)
        self.entries[key] = (stamp, cost, source)
        self.entries.move_to_end(key)
        total = sum(size for _stamp, size, _source in self.entries.values())
        while total > self.limit and len(self.entries) > 1:
            _key, (_stamp, size, _source) = self.entries.popitem(last=False)
            total -= size
        return source

    def refresh(self) -> None:
        """Before a lint: drop the entries whose files changed on disk, and with them every summary whose star
        imports were bound (what they bind may come from a changed file, read only after them)."""
        changed = []
        for key, (stamp, _size, _source) in self.entries.items():
            try:
                status = key.stat()
            except OSError:
                changed.append(key)
                continue
            if (status.st_size, status.st_mtime_ns, status.st_ino, status.st_dev) != stamp:
                changed.append(key)
        if changed:
            for key in changed:
                del self.entries[key]
            self._forget_bound_stars()

    def _forget_bound_stars(self) -> None:
        """A file changed on disk: drop the summaries whose star imports were bound (against files that may be it)."""
        for key in [key for key, (_stamp, _size, source) in self.entries.items()
                    if getattr(getattr(source, "module", None), "stars_bound", False)]:
            del self.entries[key]

    def forget(self, path: Path) -> None:
        self.entries.pop(path.resolve(), None)
        self._forget_bound_stars()


class _KeptSource:
    """A module read on demand, with its index built once per path it is read by (`project._loaded_module`)."""

    def __init__(self, tree, text: str) -> None:
        self.tree = tree
        self.text = text
        self.infos: dict[str, object] = {}

    def module_info(self, path: Path, project=None):
        from jitlint.project import ModuleInfo, module_name_for

        key = str(path)
        info = self.infos.get(key)
        if info is None or info.name != module_name_for(path)[0]:  # a package's __init__.py came or went
            info = ModuleInfo.build(path, key, self.tree, linted=False, text=self.text, project=project)
            if not info.imports.stars:  # what a star import binds depends on other files: built anew each time
                self.infos[key] = info
        return info


MODULES = ModuleCache()
_DEPENDENCIES: dict[Path, set[Path]] = {}  # per linted document: the modules its last lint read on demand


def dependents(path: Path) -> list[Path]:
    """The documents whose last lint read `path` (to lint again when it is saved)."""
    key = path.resolve()
    return sorted(document for document, read in _DEPENDENCIES.items() if key in read)


def _lint(path: Path, text: str, dynamic: bool):
    from jitlint.config import ConfigError, load_config
    from jitlint.engine import StdinSource, lint_run
    from jitlint.codes import TARGET_OF

    try:
        config = load_config(None, path.parent if path.parent.exists() else Path.cwd())
        enabled = config.enabled_codes(TARGET_OF)
    except ConfigError:
        return []
    from jitlint.targets import confirmers

    data = text.encode("utf-8")
    MODULES.refresh()
    chosen = confirmers(config.targets) if dynamic and config.dynamic_enabled else []
    run = lint_run([], config, enabled, stdin=StdinSource(str(path), data), loader=MODULES,
                   policies=tuple(policy for target in chosen for policy in target.policies))
    _DEPENDENCIES[path.resolve()] = {loaded.resolve() for loaded in run.loaded}
    return _without_baselined(_lint_dynamic(run, config, chosen), config, path, data)


_BASELINES: dict[Path, tuple[tuple[int, int], object]] = {}


def _without_baselined(findings, config, path: Path, data: bytes):
    """The findings the workspace's configured baseline does not cover (all of them if it has none, or if it
    cannot be read: an editor has no place for the error, and `jitlint check` reports it)."""
    if config.baseline is None:
        return findings
    from jitlint.baseline import Baseline, BaselineError

    try:
        status = config.baseline.stat()
        stamp = (status.st_mtime_ns, status.st_size)
        cached = _BASELINES.get(config.baseline)
        if cached is None or cached[0] != stamp:
            cached = (stamp, Baseline.load(config.baseline))
            _BASELINES[config.baseline] = cached
    except (OSError, BaselineError):
        return findings
    return cached[1].filter(findings, config.root, [str(path)], lambda _name: data).new


def _lint_dynamic(run, config, chosen: list):
    """The findings marked by the dynamic confirmers of `chosen` targets (unmarked if one cannot run)."""
    if chosen:
        import os

        from jitlint.confirm import ConfirmError, ConfirmSettings
        from jitlint.targets import confirm

        settings = ConfirmSettings.from_config(config, jobs=os.cpu_count() or 1,
                                               cache_dir=config.root / ".jitlint_cache")
        try:
            for target in chosen:
                run.findings = confirm(target, run, settings)
        except ConfirmError:
            pass
    return run.findings


_UNITS = {"utf-8": lambda character: len(character.encode("utf-8")),
          "utf-16": lambda character: 2 if ord(character) > 0xFFFF else 1,
          "utf-32": lambda character: 1}


def client_position(lines: list[str], line: int, column: int, encoding) -> "types.Position":
    """A 0-based (line, code-point column) as an LSP position in `encoding` (a PositionEncodingKind or its string;
    UTF-16, the protocol's default, when unknown)."""
    from lsprotocol import types

    encoding = str(getattr(encoding, "value", encoding) or "utf-16")
    if encoding == "utf-32" or line >= len(lines):
        return types.Position(line=line, character=column)
    units = _UNITS.get(encoding, _UNITS["utf-16"])
    text = lines[line]
    return types.Position(line=line, character=sum(units(character) for character in text[:column])
                          + max(0, column - len(text)))


FIX_ALL_KIND = "source.fixAll.jitlint"
# Codes a `# noqa` cannot answer (the file as a whole, jitlint's own failure, an unused noqa).
NO_NOQA = frozenset({"JIT001", "JIT002", "JIT003", "JIT004", "JIT005", "JIT900"})


class _Location:
    def __init__(self, row: int, column: int) -> None:
        self.row, self.column = row, column


def _fix_all(path: Path, text: str) -> str:
    """The document with every safe fix applied, as `jitlint check --fix` applies and checks them."""
    from jitlint.fixes import fix_sources

    name = str(path)

    def lint(changed: dict[str, str]):
        return _findings(path, changed.get(name, text), False)

    result = fix_sources({name: text}, lint, unsafe=False)[name]
    return text if result.error else result.fixed


def build_server():
    try:
        from lsprotocol import types
        from pygls.lsp.server import LanguageServer
    except ImportError as error:
        raise ServerUnavailable(str(error)) from None

    server = LanguageServer("jitlint", __version__, text_document_sync_kind=types.TextDocumentSyncKind.Full)
    severities = {
        "error": types.DiagnosticSeverity.Error,
        "warning": types.DiagnosticSeverity.Warning,
        "info": types.DiagnosticSeverity.Information,
    }
    published: dict[str, list[tuple[types.Range, str]]] = {}
    texts: dict[str, str] = {}  # per document: the text its diagnostics were computed on
    fixes: dict[str, list[tuple[types.Diagnostic, object]]] = {}  # per document: diagnostics with a fix
    pending: dict[str, asyncio.Task] = {}

    def client_range(lines: list[str], start, end) -> types.Range:
        """jitlint's 1-based rows and code-point columns as an LSP range in the negotiated `positionEncoding`
        (UTF-16 code units unless the client offered UTF-8 or UTF-32 at `initialize`)."""
        return types.Range(start=to_client(lines, start), end=to_client(lines, end))

    def to_client(lines: list[str], location) -> types.Position:
        return client_position(lines, location.row - 1, location.column - 1, server.workspace.position_encoding)

    def diagnostic(finding, lines: list[str]) -> types.Diagnostic:
        status = finding.confirmation
        message = finding.message
        if status is not None:
            message += f" [{status.status}: {status.detail}]"
        return types.Diagnostic(
            range=client_range(lines, finding.location, finding.end_location),
            message=message,
            severity=severities[finding.severity],
            code=finding.code,
            code_description=types.CodeDescription(href=finding.url),
            source="jitlint",
            related_information=related(finding) or None,
        )

    def related(finding) -> list:
        """The capture chain: the root's definition, then each call that reaches the finding's function."""
        out = []
        for index, step in enumerate(finding.captured_from):
            if not step.row:
                continue
            line = types.Position(line=step.row - 1, character=0)
            text = (f"`{step.function}` is captured: {step.reason}" if index == 0
                    else f"calls `{step.function}` ({step.reason})")
            out.append(types.DiagnosticRelatedInformation(
                location=types.Location(uri=Path(step.filename).resolve().as_uri(), range=types.Range(start=line, end=line)),
                message=text))
        return out

    async def publish(uri: str, dynamic: bool = False) -> None:
        document = server.workspace.get_text_document(uri)
        text = document.source
        findings = await asyncio.wrap_future(_LINTER.submit(_findings, _path(uri), text, dynamic))
        lines = _LINE_BREAK.split(text)  # the text linted (not what the document became meanwhile), split as LibCST does
        diagnostics = [diagnostic(f, lines) for f in findings]
        published[uri] = [(d.range, d.code) for d in diagnostics]
        texts[uri] = text
        noqa = NoqaLines(text)  # (the text tokenized once for every finding's "ignore" action)
        extra = [(d, action) for d, f in zip(diagnostics, findings)
                 for action in more_actions(uri, f, d, text, lines, noqa)]
        fixes[uri] = [(d, types.CodeAction(
            title=f"jitlint: {f.fix.message}" + (" (unsafe)" if f.fix.applicability == "unsafe" else ""),
            kind=types.CodeActionKind.QuickFix, diagnostics=[d], is_preferred=f.fix.applicability == "safe",
            edit=types.WorkspaceEdit(changes={uri: [
                types.TextEdit(range=client_range(lines, e.location, e.end_location), new_text=e.content)
                for e in f.fix.edits]}),
        )) for d, f in zip(diagnostics, findings) if f.fix is not None] + extra
        server.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=uri, version=document.version, diagnostics=diagnostics)
        )

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    async def did_open(params: types.DidOpenTextDocumentParams) -> None:
        await publish(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    async def did_change(params: types.DidChangeTextDocumentParams) -> None:
        uri = params.text_document.uri
        previous = pending.pop(uri, None)
        if previous is not None:
            previous.cancel()

        async def later() -> None:
            await asyncio.sleep(DEBOUNCE_SECONDS)  # typing bursts produce one lint, not one per keystroke
            pending.pop(uri, None)
            await publish(uri)

        pending[uri] = asyncio.ensure_future(later())

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    async def did_save(params: types.DidSaveTextDocumentParams) -> None:
        saved = params.text_document.uri
        await publish(saved, dynamic=True)
        # The open documents whose last lint read the saved file from disk see its new content now.
        open_documents = {_path(uri).resolve(): uri for uri in published if uri != saved}
        for document in dependents(_path(saved)):
            if document in open_documents:
                await publish(open_documents[document])

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(params: types.DidCloseTextDocumentParams) -> None:
        published.pop(params.text_document.uri, None)
        _DEPENDENCIES.pop(_path(params.text_document.uri).resolve(), None)
        server.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=params.text_document.uri, diagnostics=[])
        )

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    def hover(params: types.HoverParams) -> types.Hover | None:
        position = params.position
        for found_range, code in published.get(params.text_document.uri, []):
            start, end = found_range.start, found_range.end
            after_start = (position.line, position.character) >= (start.line, start.character)
            before_end = (position.line, position.character) <= (end.line, end.character)
            if after_start and before_end:
                page = pages.read(code) or code
                return types.Hover(
                    contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=page), range=found_range
                )
        return None

    def more_actions(uri: str, finding, found, text: str, lines: list[str], noqa: "NoqaLines") -> list:
        """Beside a finding's fix: ignore it with a `# noqa: CODE`, and stop the capture at the call that reaches
        its function (the decorator its target offers, on that function, when it is defined in this document)."""
        actions = []
        if finding.code not in NO_NOQA:
            edit = noqa_edit(noqa, lines, finding)
            if edit is not None:
                actions.append(types.CodeAction(
                    title=f"jitlint: ignore {finding.code} on this line (`# noqa: {finding.code}`)",
                    kind=types.CodeActionKind.QuickFix, diagnostics=[found],
                    edit=types.WorkspaceEdit(changes={uri: [edit]})))
        stop = stop_edit(uri, finding, text, lines)
        if stop is not None:
            title, edit = stop
            actions.append(types.CodeAction(title=title, kind=types.CodeActionKind.QuickFix, diagnostics=[found],
                                            edit=types.WorkspaceEdit(changes={uri: [edit]})))
        return actions

    def noqa_edit(noqa: "NoqaLines", lines: list[str], finding):
        row = finding.location.row
        new_line, refused = noqa.line(row, {finding.code})
        if new_line is None or refused:
            return None
        new_line = _LINE_BREAK.split(new_line)[0]
        start = types.Position(line=row - 1, character=0)
        return types.TextEdit(range=types.Range(start=start, end=to_client(lines, _Location(row, len(lines[row - 1]) + 1))),
                              new_text=new_line)

    def stop_edit(uri: str, finding, text: str, lines: list[str]):
        from jitlint.capture_report import stopper
        from jitlint.codes import TARGET_OF

        chain = finding.captured_from
        if len(chain) < 2:
            return None
        call = chain[1]
        target = TARGET_OF.get(finding.code)
        decorator = stopper(target, call)
        if decorator is None or not decorator.startswith("@") or not call.defined_row:
            return None
        if Path(call.defined_filename).resolve() != _path(uri).resolve() or call.defined_row > len(lines):
            return None
        module = decorator[1:].split(".")[0]
        if not re.search(rf"^(import {module}\b|from {module} )", text, re.M):
            return None
        row = call.defined_row - 1
        while row > 0 and lines[row - 1].lstrip().startswith("@"):
            row -= 1  # above the function's other decorators: the capture stops before them
        indent = lines[row][:len(lines[row]) - len(lines[row].lstrip())]
        where = types.Position(line=row, character=0)
        return (f"jitlint: stop the {target} capture at `{call.function}` ({decorator})",
                types.TextEdit(range=types.Range(start=where, end=where), new_text=f"{indent}{decorator}\n"))

    @server.feature(types.TEXT_DOCUMENT_CODE_ACTION, types.CodeActionOptions(
        code_action_kinds=[types.CodeActionKind.QuickFix, FIX_ALL_KIND]))
    async def code_action(params: types.CodeActionParams) -> list[types.CodeAction]:
        """Each fix of a diagnostic in the requested range, as a quick fix (unsafe ones say so), beside "ignore"
        and "stop the capture" actions; and `source.fixAll.jitlint`, every safe fix of the document, each checked
        as `jitlint check --fix` checks it. Ranges are in the client's units on both sides, so they compare as they
        are."""
        uri = params.text_document.uri
        only = [str(getattr(kind, "value", kind)) for kind in (params.context.only or [])] if params.context else []
        wants_fix_all = any(FIX_ALL_KIND.startswith(kind) for kind in only)
        actions = []
        if not only or any(kind.startswith("quickfix") or "quickfix".startswith(kind) for kind in only):
            wanted = params.range
            for found, action in fixes.get(uri, []):
                if (found.range.end.line, found.range.end.character) < (wanted.start.line, wanted.start.character):
                    continue
                if (found.range.start.line, found.range.start.character) > (wanted.end.line, wanted.end.character):
                    continue
                actions.append(action)
        if wants_fix_all or (not only and any(action.is_preferred for _found, action in fixes.get(uri, []))):
            text = server.workspace.get_text_document(uri).source
            fixed = await asyncio.wrap_future(_LINTER.submit(_fix_all, _path(uri), text))
            if fixed != text:
                lines = _LINE_BREAK.split(text)
                end = client_position(lines, len(lines) - 1, len(lines[-1]), server.workspace.position_encoding)
                actions.append(types.CodeAction(
                    title="jitlint: fix all (safe fixes)", kind=FIX_ALL_KIND,
                    edit=types.WorkspaceEdit(changes={uri: [types.TextEdit(
                        range=types.Range(start=types.Position(line=0, character=0), end=end), new_text=fixed)]})))
        return actions

    return server


def serve() -> None:
    build_server().start_io()
