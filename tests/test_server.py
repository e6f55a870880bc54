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
        [action] = client.request("textDocument/codeAction", {
            "textDocument": {"uri": uri}, "range": {"start": start, "end": start}, "context": {"diagnostics": []}})
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
