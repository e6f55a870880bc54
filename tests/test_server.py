"""The editor server's lint path, in process (tests/test_integrations.py drives the real server over JSON-RPC)."""

import sys
import threading

from jitlint import server

# Many `not`, `is` and `in` operators: the rules and the compiled-code map ask `isinstance(x, cst.Not)` and the
# like all through the lint, and the file is long enough that parsing it takes a while.
BODY = "".join(f"        if not (x is None) and {i} not in y:\n            x = x + {i}\n" for i in range(150))
MODEL = ("import torch\nimport torch.nn as nn\n\n\nclass M(nn.Module):\n    def forward(self, x, y):\n"
         f"{BODY}        return x\n")


def test_documents_linted_at_once_do_not_see_each_others_parse(tmp_path):
    """A debounced change lints on the event loop while a save lints on a pool thread: a parse swaps LibCST's
    node classes for factories (layout.py), which a lint running beside it must never see."""
    problems: list = []

    def edit(name: str) -> None:
        try:
            for _ in range(3):
                found = server._findings(tmp_path / name, MODEL, False)
                problems.extend(f"{f.code}: {f.message}" for f in found if f.code == "JIT003")
        except Exception as error:  # the compiled-code map is not behind a rule's guard: it raises
            problems.append(repr(error))

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)  # switch threads often, so the two lints interleave on every run
    try:
        threads = [threading.Thread(target=edit, args=(name,)) for name in ("a.py", "b.py")]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        sys.setswitchinterval(interval)
    assert problems == []


# -- positionEncoding, over JSON-RPC with the real server process ---------------------------------------------------
import pytest  # noqa: E402

from test_integrations import BROKEN, LspClient  # noqa: E402

# The unannotated `factor=0.5` (JIT201, with a fix) sits after a string holding a character outside the BMP (one
# code point, two UTF-16 units, four UTF-8 bytes) and one inside it (one unit, two bytes).
WIDE_LINE = '    def scale(self, x, tag: str = "\U0001F600\u00e9", factor=0.5):'
WIDE = BROKEN.replace("    def scale(self, x, factor=0.5):", WIDE_LINE)
WIDE_ROW = WIDE.splitlines().index(WIDE_LINE)
FACTOR = WIDE_LINE.index("factor")  # in code points


def _session(tmp_path, offered):
    model = tmp_path / "model.py"
    model.write_text(WIDE, encoding="utf-8")
    uri = model.as_uri()
    client = LspClient(tmp_path)
    capabilities = {} if offered is None else {"general": {"positionEncodings": offered}}
    info = client.request("initialize", {"processId": None, "rootUri": tmp_path.as_uri(), "capabilities": capabilities})
    client.send("initialized", {})
    client.send("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "python", "version": 1, "text": WIDE}})
    return client, uri, info["capabilities"].get("positionEncoding"), client.diagnostics(uri)


@pytest.mark.parametrize("offered, chosen, shift", [
    (None, "utf-16", 1),  # a client that says nothing counts UTF-16 units (the protocol's default)
    (["utf-16"], "utf-16", 1),
    (["utf-8", "utf-16"], "utf-8", 3 + 1),
    (["utf-32"], "utf-32", 0),
])
def test_columns_follow_the_negotiated_position_encoding(tmp_path, offered, chosen, shift):
    client, uri, encoding, diagnostics = _session(tmp_path, offered)
    try:
        assert encoding == chosen
        [found] = [d for d in diagnostics if d["code"] == "JIT201"]
        start = {"line": WIDE_ROW, "character": FACTOR + shift}
        assert found["range"]["start"] == start
        assert found["range"]["end"] == {"line": WIDE_ROW, "character": FACTOR + shift + len("factor")}
        # Asked at the diagnostic's own (client-unit) position, the quick fix comes back in the same units.
        action = client.request("textDocument/codeAction", {  # the finding's fix first, then ignore and fix-all
            "textDocument": {"uri": uri}, "range": {"start": start, "end": start}, "context": {"diagnostics": []}})[0]
        assert action["edit"]["changes"][uri] == [{"range": {"start": start, "end": {
            "line": WIDE_ROW, "character": FACTOR + shift + len("factor=")}}, "newText": "factor: float = "}]
        # Applied in the client's units, the edit gives the annotated line.
        line = WIDE_LINE.encode({"utf-16": "utf-16-le", "utf-8": "utf-8", "utf-32": "utf-32-le"}[chosen])
        width = {"utf-16": 2, "utf-8": 1, "utf-32": 4}[chosen]
        edit = action["edit"]["changes"][uri][0]
        begin, end = edit["range"]["start"]["character"] * width, edit["range"]["end"]["character"] * width
        codec = {"utf-16": "utf-16-le", "utf-8": "utf-8", "utf-32": "utf-32-le"}[chosen]
        fixed = line[:begin].decode(codec) + edit["newText"] + line[end:].decode(codec)
        assert fixed == WIDE_LINE.replace("factor=0.5", "factor: float = 0.5")
        hover = client.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": start})
        assert hover["contents"]["value"].startswith("# JIT201")
    finally:
        client.process.kill()


# -- keeping the modules a document reads between edits -------------------------------------------------------------
import textwrap  # noqa: E402
from pathlib import Path  # noqa: E402

BASE = textwrap.dedent("""\
    import torch.nn as nn


    class Base(nn.Module):
        def __init__(self):
            super().__init__()
            self.layers = nn.ModuleList([nn.Linear(2, 2)])
""")
CHILD = textwrap.dedent("""\
    from pkg.base import Base


    class Child(Base):
        def forward(self, x, i: int):
            return self.layers[i](x)
""")


@pytest.fixture
def workspace(tmp_path, monkeypatch):
    (tmp_path / "pyproject.toml").write_text("[tool.jitlint]\n")
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "base.py").write_text(BASE)
    (tmp_path / "pkg" / "child.py").write_text(CHILD)
    monkeypatch.setattr(server, "MODULES", server.ModuleCache())
    return tmp_path


def _fresh(path: Path, text: str):
    """What a one-file run with nothing kept gives (the server's answer before it kept modules)."""
    from jitlint.codes import TARGET_OF
    from jitlint.config import load_config
    from jitlint.engine import StdinSource, lint_run

    config = load_config(None, path.parent)
    run = lint_run([], config, config.enabled_codes(TARGET_OF), stdin=StdinSource(str(path), text.encode()))
    return [f.to_json() for f in run.findings]


def test_an_edit_re_parses_only_the_document_and_finds_what_a_fresh_run_finds(workspace):
    child = workspace / "pkg" / "child.py"
    first = server._findings(child, CHILD, False)
    assert [f.code for f in first] == ["JIT301"]
    reads = server.MODULES.reads
    assert reads >= 1  # base.py, read on demand
    for typed in (CHILD + "\n", CHILD.replace("i: int", "j: int").replace("[i]", "[j]"), CHILD):
        found = server._findings(child, typed, False)
        assert [f.to_json() for f in found] == _fresh(child, typed)
    assert server.MODULES.reads == reads  # nothing read again: only the document was parsed
    assert server.dependents(workspace / "pkg" / "base.py") == [child.resolve()]


def test_the_collector_runs_after_a_lint_that_read_modules_not_after_each_keystroke(workspace, monkeypatch):
    collected = []
    monkeypatch.setattr(server.gc, "collect", lambda *args: collected.append(args) or 0)
    child = workspace / "pkg" / "child.py"
    server._findings(child, CHILD, False)  # base.py read: its tree joins the heap
    assert len(collected) == 1
    server._findings(child, CHILD + "# typed\n", False)  # only the document parsed
    assert len(collected) == 1


def test_a_module_changed_on_disk_is_read_again(workspace):
    child = workspace / "pkg" / "child.py"
    assert [f.code for f in server._findings(child, CHILD, False)] == ["JIT301"]
    reads = server.MODULES.reads
    (workspace / "pkg" / "base.py").write_text(BASE.replace("nn.ModuleList([nn.Linear(2, 2)])", "[1, 2]"))
    # child.py no longer indexes a ModuleList but calls an int of a list (torch: 'cannot call a value of type 'int'')
    assert [f.code for f in server._findings(child, CHILD, False)] == ["JIT426"]
    assert server.MODULES.reads == reads + 1
    assert [f.to_json() for f in server._findings(child, CHILD, False)] == _fresh(child, CHILD)


def test_modules_read_on_demand_are_summaries_as_a_one_file_run_reads_them(workspace):
    from jitlint.pipeline import _Kept

    child = workspace / "pkg" / "child.py"
    found = server._findings(child, CHILD, False)
    assert [f.code for f in found] == ["JIT301"]
    assert [f.to_json() for f in found] == _fresh(child, CHILD)
    kept = [source for _stamp, _cost, source in server.MODULES.entries.values()]
    assert kept and all(isinstance(source, _Kept) for source in kept)  # `ast` summaries, no LibCST tree


STAR_CHILD = CHILD.replace("from pkg.base import Base", "from pkg import Base")


def test_a_star_import_binds_again_after_the_module_it_reads_changes_on_disk(workspace):
    (workspace / "pkg" / "__init__.py").write_text("from .base import *\n")
    (workspace / "pkg" / "base.py").write_text('__all__ = ["Base"]\n' + BASE)
    child = workspace / "pkg" / "child.py"
    assert [f.code for f in server._findings(child, STAR_CHILD, False)] == ["JIT301"]
    # base.py no longer exports `Base` (the package's star import binds nothing): Child's base is unknown
    (workspace / "pkg" / "base.py").write_text("__all__ = []\n" + BASE)
    after = server._findings(child, STAR_CHILD, False)
    assert [f.to_json() for f in after] == _fresh(child, STAR_CHILD)
    assert [f.code for f in after] == []


def test_the_module_cache_keeps_within_its_limit(workspace):
    cache = server.ModuleCache(limit=len(BASE) // 16 + 1)  # a summary counts a sixteenth of its source
    base, init = workspace / "pkg" / "base.py", workspace / "pkg" / "__init__.py"
    (workspace / "pkg" / "other.py").write_text(BASE)
    cache(base)
    cache(init)
    cache(workspace / "pkg" / "other.py")  # base.py (least recently used) goes
    assert cache.reads == 3
    cache(init)
    assert cache.reads == 3
    cache(base)
    assert cache.reads == 4


def test_saving_a_module_re_lints_the_open_documents_that_read_it(workspace):
    child, base = workspace / "pkg" / "child.py", workspace / "pkg" / "base.py"
    client = LspClient(workspace)
    try:
        client.request("initialize", {"processId": None, "rootUri": workspace.as_uri(), "capabilities": {}})
        client.send("initialized", {})
        client.send("textDocument/didOpen", {"textDocument": {"uri": child.as_uri(), "languageId": "python",
                                                              "version": 1, "text": CHILD}})
        assert [d["code"] for d in client.diagnostics(child.as_uri())] == ["JIT301"]
        client.send("textDocument/didOpen", {"textDocument": {"uri": base.as_uri(), "languageId": "python",
                                                              "version": 1, "text": BASE}})
        client.diagnostics(base.as_uri())
        edited = BASE.replace("nn.ModuleList([nn.Linear(2, 2)])", "[1, 2]")
        client.send("textDocument/didChange", {"textDocument": {"uri": base.as_uri(), "version": 2},
                                               "contentChanges": [{"text": edited}]})
        client.diagnostics(base.as_uri())
        base.write_text(edited)  # what the editor does on save, then it tells the server
        client.send("textDocument/didSave", {"textDocument": {"uri": base.as_uri()}})
        # child.py, not touched, no longer indexes a ModuleList: it calls an int of a list
        assert [d["code"] for d in client.diagnostics(child.as_uri())] == ["JIT426"]
    finally:
        client.process.kill()


# -- the server's diagnostics after each kind of edit, against a cold lint of the same buffer ------------------------
HELPERS = textwrap.dedent("""\
    import torch


    def scale(x: torch.Tensor, factor: float = 2.0) -> torch.Tensor:
        return x * factor


    def pair(x: torch.Tensor):
        return [x, x]
""")
MODEL_USING_HELPERS = textwrap.dedent("""\
    import torch
    import torch.nn as nn

    from pkg.helpers import pair, scale


    class Model(nn.Module):
        def __init__(self):
            super().__init__()
            self.layers = nn.ModuleList([nn.Linear(2, 2)])

        def forward(self, x, i: int):
            y = scale(x)
            a, b = pair(y)
            return scale(a, factor=3) + b
""")


def _cold(path: Path, text: str) -> list[tuple]:
    """A cold lint of `text` as `path` (nothing kept: every module parsed afresh, as `jitlint check --stdin-filename`
    does), as the (code, message, range) the server should publish (ASCII text: columns in any encoding agree)."""
    return sorted((f["code"], f["message"], f["location"]["row"] - 1, f["location"]["column"] - 1,
                   f["end_location"]["row"] - 1, f["end_location"]["column"] - 1) for f in _fresh(path, text))


def _published(diagnostics: list[dict]) -> list[tuple]:
    return sorted((d["code"], d["message"], d["range"]["start"]["line"], d["range"]["start"]["character"],
                   d["range"]["end"]["line"], d["range"]["end"]["character"]) for d in diagnostics)


def test_every_edit_publishes_what_a_cold_lint_of_the_buffer_finds(workspace):
    """The server keeps the modules a document reads between edits and re-lints only the document (plus the open
    documents that read a saved file): after each kind of edit, its diagnostics must be a cold lint's, including
    after a callee in another open file changes (unsaved: the lint reads it from disk, as `jitlint check` does;
    saved: the caller is linted again and sees the new signature)."""
    model, helpers = workspace / "pkg" / "model.py", workspace / "pkg" / "helpers.py"
    model.write_text(MODEL_USING_HELPERS)
    helpers.write_text(HELPERS)
    client = LspClient(workspace)
    versions = {model: 1, helpers: 1}

    def change(path: Path, text: str) -> list[tuple]:
        versions[path] += 1
        client.send("textDocument/didChange", {"textDocument": {"uri": path.as_uri(), "version": versions[path]},
                                               "contentChanges": [{"text": text}]})
        return _published(client.diagnostics(path.as_uri()))

    try:
        client.request("initialize", {"processId": None, "rootUri": workspace.as_uri(), "capabilities": {}})
        client.send("initialized", {})
        client.send("textDocument/didOpen", {"textDocument": {"uri": model.as_uri(), "languageId": "python",
                                                              "version": 1, "text": MODEL_USING_HELPERS}})
        opened = _published(client.diagnostics(model.as_uri()))
        assert opened == _cold(model, MODEL_USING_HELPERS) and [d[0] for d in opened] == ["JIT416"]
        edits = [
            MODEL_USING_HELPERS + "# a comment\n",  # nothing changes
            "# two lines\n# above\n" + MODEL_USING_HELPERS,  # every position moves
            MODEL_USING_HELPERS.replace("factor=3)", "factor=3.0)"),  # the finding goes
            MODEL_USING_HELPERS.replace("return scale(a, factor=3) + b", "return self.layers[i](a) + b"),  # JIT301
            MODEL_USING_HELPERS.replace("import pair, scale", "import scale"),  # `pair` no longer resolves
            MODEL_USING_HELPERS.replace("    def forward", "    def forward(self, x):\n        return x\n\n"
                                        "    def other"),  # `forward` changes: what it calls is not compiled
            MODEL_USING_HELPERS.replace("a, b = pair(y)", "a, b = pair(y"),  # a syntax error
            MODEL_USING_HELPERS,
        ]
        for text in edits:
            assert change(model, text) == _cold(model, text), text
        current = edits[-1]
        # A callee in another open file changes: its new signature accepts `factor=3`.
        client.send("textDocument/didOpen", {"textDocument": {"uri": helpers.as_uri(), "languageId": "python",
                                                              "version": 1, "text": HELPERS}})
        assert _published(client.diagnostics(helpers.as_uri())) == _cold(helpers, HELPERS)
        edited = HELPERS.replace("factor: float = 2.0", "factor: int = 2")
        assert change(helpers, edited) == _cold(helpers, edited)
        assert change(model, current + "# typed\n") == _cold(model, current + "# typed\n")  # helpers.py unsaved
        current += "# typed\n"
        helpers.write_text(edited)  # what the editor does on save, then it tells the server
        client.send("textDocument/didSave", {"textDocument": {"uri": helpers.as_uri()}})
        assert _published(client.diagnostics(helpers.as_uri())) == _cold(helpers, edited)
        after_save = _published(client.diagnostics(model.as_uri()))  # model.py, open, read helpers.py: linted again
        assert after_save == _cold(model, current) and after_save != opened
        for text in (current.replace("factor=3)", "factor=3.5)"), current + "# again\n"):
            assert change(model, text) == _cold(model, text), text
    finally:
        client.process.kill()
