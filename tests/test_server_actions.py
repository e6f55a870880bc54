"""The editor server's actions, over JSON-RPC with the real server: why a finding's code is captured
(`relatedInformation`), "ignore this finding" (`# noqa: CODE`), "stop the capture" at the call that reaches it,
`source.fixAll.jitlint`, and the rule's page on hover."""

import pytest

pytest.importorskip("pygls")

from test_integrations import LspClient  # noqa: E402

DOCUMENT = """\
import torch
import torch.nn as nn


def load(x, scale=2.0):
    return x.numpy() * scale


class Noise(nn.Module):
    def forward(self, x):
        return load(x)
"""


@pytest.fixture
def session(tmp_path):
    model = tmp_path / "model.py"
    model.write_text(DOCUMENT)
    uri = model.as_uri()
    client = LspClient(tmp_path)
    client.request("initialize", {"processId": None, "rootUri": tmp_path.as_uri(), "capabilities": {}})
    client.send("initialized", {})
    client.send("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "python", "version": 1,
                                                          "text": DOCUMENT}})
    diagnostics = {d["code"]: d for d in client.diagnostics(uri)}
    try:
        yield client, uri, diagnostics
    finally:
        client.process.kill()
        client.process.wait()


def _actions(client, uri, diagnostic, only=None):
    context = {"diagnostics": [diagnostic]}
    if only is not None:
        context["only"] = only
    return client.request("textDocument/codeAction", {"textDocument": {"uri": uri}, "range": diagnostic["range"],
                                                      "context": context})


def _apply(text: str, edits: list[dict]) -> str:
    lines = text.split("\n")
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line) + 1)

    def offset(position):
        return offsets[position["line"]] + position["character"]

    for edit in sorted(edits, key=lambda e: offset(e["range"]["start"]), reverse=True):
        text = text[:offset(edit["range"]["start"])] + edit["newText"] + text[offset(edit["range"]["end"]):]
    return text


def test_diagnostics_say_why_the_code_is_captured(session):
    _client, uri, diagnostics = session
    related = diagnostics["JIT401"]["relatedInformation"]
    assert [r["location"]["range"]["start"]["line"] for r in related] == [9, 10]  # `def forward`, the call of load
    assert "`Noise.forward` is captured" in related[0]["message"] and "`load`" in related[1]["message"]
    assert related[0]["location"]["uri"] == uri


def test_ignore_this_finding_adds_a_noqa_comment(session):
    client, uri, diagnostics = session
    actions = _actions(client, uri, diagnostics["JIT401"])
    [ignore] = [a for a in actions if "noqa" in a["title"]]
    fixed = _apply(DOCUMENT, ignore["edit"]["changes"][uri])
    assert "    return x.numpy() * scale  # noqa: JIT401\n" in fixed


def test_stop_the_capture_at_the_call(session):
    client, uri, diagnostics = session
    actions = _actions(client, uri, diagnostics["JIT401"])
    [stop] = [a for a in actions if "stop the script capture" in a["title"]]
    assert "`load`" in stop["title"] and "@torch.jit.ignore" in stop["title"]
    fixed = _apply(DOCUMENT, stop["edit"]["changes"][uri])
    assert "\n@torch.jit.ignore\ndef load(x, scale=2.0):\n" in fixed


def test_fix_all(session):
    client, uri, diagnostics = session
    actions = _actions(client, uri, diagnostics["JIT201"], only=["source.fixAll"])
    [fix_all] = actions
    assert fix_all["kind"] == "source.fixAll.jitlint"
    fixed = _apply(DOCUMENT, fix_all["edit"]["changes"][uri])
    assert "def load(x, scale: float = 2.0):" in fixed


def test_hover_shows_the_rule_page(session):
    client, uri, diagnostics = session
    start = diagnostics["JIT401"]["range"]["start"]
    hover = client.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": start})
    assert hover["contents"]["value"].startswith("# JIT401")
