"""Where users meet jitlint: pre-commit, an editor (LSP), SARIF, flake8, terminal output. Each is tested against
the real program: the real pre-commit, a real JSON-RPC session with the server process, the official SARIF
schema, the real flake8, a real pseudo-terminal."""

import json
import os
import pty
import select
import shutil
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import jsonschema
import pytest

ROOT = Path(__file__).resolve().parents[1]
BROKEN = (ROOT / "fixtures" / "broken" / "five_problems.py").read_text()
CLEAN = "import torch\nimport torch.nn as nn\n\n\nclass M(nn.Module):\n    def forward(self, x):\n        return x\n"


def jitlint(*args, cwd: Path, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "jitlint", *args], cwd=cwd, capture_output=True, text=True, **kwargs)


# -- pre-commit ---------------------------------------------------------------------------------------------------
def _git_repo(tmp_path) -> tuple[Path, dict]:
    """An empty git repository for pre-commit to run in, and the environment to run it with."""
    repo = tmp_path / "repo"
    repo.mkdir()
    env = {**os.environ, "PRE_COMMIT_HOME": str(tmp_path / "cache"), "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@t"}
    env.pop("CI", None)
    subprocess.run(["git", "init", "-q"], cwd=repo, check=True)
    return repo, env


def test_pre_commit_hook_with_the_real_pre_commit(tmp_path):
    repo, env = _git_repo(tmp_path)
    (repo / "model.py").write_text(BROKEN)
    (repo / "clean.py").write_text(CLEAN)
    subprocess.run(["git", "add", "."], cwd=repo, check=True)
    pre_commit = [sys.executable, "-m", "pre_commit", "try-repo", str(ROOT), "jitlint", "--files"]
    failing = subprocess.run([*pre_commit, "model.py"], cwd=repo, capture_output=True, text=True, env=env, timeout=900)
    assert failing.returncode == 1, failing.stdout + failing.stderr
    assert "model.py:27:17: JIT301 [*] [error]" in failing.stdout
    passing = subprocess.run([*pre_commit, "clean.py"], cwd=repo, capture_output=True, text=True, env=env, timeout=900)
    assert passing.returncode == 0, passing.stdout + passing.stderr
    assert "jitlint" in passing.stdout and "Passed" in passing.stdout


def test_pre_commit_hook_honours_the_configured_baseline(tmp_path):
    repo, env = _git_repo(tmp_path)
    (repo / "pyproject.toml").write_text('[tool.jitlint]\nbaseline = "jitlint-baseline.json"\n')
    (repo / "model.py").write_text(BROKEN)
    written = jitlint("check", "--write-baseline", "jitlint-baseline.json", "model.py", cwd=repo)
    assert written.returncode == 0, written.stderr
    # Lines move above the existing findings, and one new defect appears: only it fails the hook.
    (repo / "model.py").write_text("# header\n\n" + BROKEN.replace("        return x * factor", "        z = x.tolist()\n        return x * factor"))
    subprocess.run(["git", "add", "."], cwd=repo, check=True)
    pre_commit = [sys.executable, "-m", "pre_commit", "try-repo", str(ROOT), "jitlint", "--files", "model.py"]
    result = subprocess.run(pre_commit, cwd=repo, capture_output=True, text=True, env=env, timeout=900)
    assert result.returncode == 1, result.stdout + result.stderr
    reported = [line for line in result.stdout.splitlines() if line.startswith("model.py:")]
    assert len(reported) == 1 and " JIT206 " in reported[0], result.stdout
    assert "5 findings in the baseline are not shown." in result.stdout


def test_hook_definition_matches_the_documented_contract():
    text = (ROOT / ".pre-commit-hooks.yaml").read_text()
    for line in ("- id: jitlint", "entry: jitlint check --force-exclude", "language: python",
                 "types_or: [python, pyi]", "require_serial: true"):
        assert line in text
    readme = (ROOT / "README.md").read_text()
    assert "- id: jitlint" in readme and "repo:" in readme


def test_only_excluded_files_exit_0_silently(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[tool.jitlint]\nexclude = ["legacy"]\n')
    (tmp_path / "legacy").mkdir()
    (tmp_path / "legacy" / "old.py").write_text(BROKEN)
    result = jitlint("check", "--force-exclude", "legacy/old.py", cwd=tmp_path)
    assert (result.returncode, result.stdout, result.stderr) == (0, "", "")


def test_configured_dynamic_check_stays_off_in_pre_commit(tmp_path):
    (tmp_path / "pyproject.toml").write_text("[tool.jitlint.dynamic]\nenabled = true\n")
    (tmp_path / "model.py").write_text(CLEAN)
    result = jitlint("check", "model.py", cwd=tmp_path, env={**os.environ, "PRE_COMMIT": "1"})
    assert result.returncode == 0 and "dynamic checker" not in result.stderr


# -- the editor server --------------------------------------------------------------------------------------------
class LspClient:
    """A minimal LSP client: Content-Length framed JSON-RPC over the server's stdin/stdout."""

    def __init__(self, cwd: Path) -> None:
        self.process = subprocess.Popen([sys.executable, "-m", "jitlint", "server"], cwd=cwd, stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.buffer = b""
        self.next_id = 0

    def send(self, method: str, params, request: bool = False):
        message = {"jsonrpc": "2.0", "method": method, "params": params}
        if request:
            self.next_id += 1
            message["id"] = self.next_id
        data = json.dumps(message).encode()
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n%s" % (len(data), data))
        self.process.stdin.flush()
        return message.get("id")

    def receive(self, timeout: float = 60):
        deadline = time.monotonic() + timeout
        while True:
            if b"\r\n\r\n" in self.buffer:
                head, rest = self.buffer.split(b"\r\n\r\n", 1)
                length = next(int(line.split(b":")[1]) for line in head.split(b"\r\n") if line.lower().startswith(b"content-length"))
                if len(rest) >= length:
                    self.buffer = rest[length:]
                    return json.loads(rest[:length])
            ready, _, _ = select.select([self.process.stdout], [], [], max(0.0, deadline - time.monotonic()))
            if not ready:
                raise TimeoutError("no message from the server")
            chunk = os.read(self.process.stdout.fileno(), 1 << 16)
            if not chunk:
                raise EOFError(self.process.stderr.read().decode())
            self.buffer += chunk

    def wait_for(self, predicate, timeout: float = 60):
        deadline = time.monotonic() + timeout
        while True:
            message = self.receive(max(0.1, deadline - time.monotonic()))
            if predicate(message):
                return message

    def request(self, method: str, params):
        request_id = self.send(method, params, request=True)
        return self.wait_for(lambda m: m.get("id") == request_id)["result"]

    def diagnostics(self, uri: str, timeout: float = 60):
        message = self.wait_for(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                                and m["params"]["uri"] == uri, timeout)
        return message["params"]["diagnostics"]


def test_language_server_end_to_end(tmp_path):
    model = tmp_path / "model.py"
    model.write_text(BROKEN)
    uri = model.as_uri()
    client = LspClient(tmp_path)
    try:
        info = client.request("initialize", {"processId": None, "rootUri": tmp_path.as_uri(), "capabilities": {}})
        assert info["serverInfo"]["name"] == "jitlint"
        client.send("initialized", {})
        client.send("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "python", "version": 1, "text": BROKEN}})
        diagnostics = client.diagnostics(uri)
        assert [(d["code"], d["range"]["start"]["line"] + 1, d["range"]["start"]["character"] + 1) for d in diagnostics] == [
            ("JIT401", 10, 12), ("JIT301", 27, 17), ("JIT106", 31, 9), ("JIT201", 36, 24), ("JIT102", 40, 38)]
        assert diagnostics[1]["codeDescription"]["href"].endswith("/rules/script/JIT301.md")
        assert diagnostics[1]["severity"] == 1 and diagnostics[1]["source"] == "jitlint"
        hover = client.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": 26, "character": 20}})
        assert hover["contents"]["value"].startswith("# JIT301 `modulelist-index-variable`")
        fixes = client.request("textDocument/codeAction", {
            "textDocument": {"uri": uri}, "range": {"start": {"line": 35, "character": 23}, "end": {"line": 35, "character": 25}},
            "context": {"diagnostics": []}})
        assert (fixes[0]["title"], fixes[0]["kind"], fixes[0]["isPreferred"]) == ("jitlint: annotate `factor: float`", "quickfix", True)
        titles = [a["title"] for a in fixes[1:]]  # then: ignore it, and every safe fix of the document
        assert "jitlint: ignore JIT201 on this line (`# noqa: JIT201`)" in titles and "jitlint: fix all (safe fixes)" in titles
        assert fixes[0]["edit"]["changes"][uri] == [
            {"range": {"start": {"line": 35, "character": 23}, "end": {"line": 35, "character": 30}}, "newText": "factor: float = "},
        ]
        # Typing: several quick changes are debounced into diagnostics for the last text.
        for version, text in enumerate([BROKEN + "\n", BROKEN + "\n\n", CLEAN], start=2):
            client.send("textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                                   "contentChanges": [{"text": text}]})
        assert client.diagnostics(uri) == []
        actions = client.request("textDocument/codeAction", {
            "textDocument": {"uri": uri}, "range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 1}},
            "context": {"diagnostics": []}})
        assert actions == []
        client.request("shutdown", None)
        client.send("exit", None)
        assert client.process.wait(timeout=30) == 0
    finally:
        if client.process.poll() is None:
            client.process.kill()


@pytest.mark.torch
def test_language_server_confirms_on_save_when_the_workspace_enables_dynamic(tmp_path):
    (tmp_path / "pyproject.toml").write_text("[tool.jitlint.dynamic]\nenabled = true\n")
    model = tmp_path / "model.py"
    model.write_text(BROKEN)
    uri = model.as_uri()
    client = LspClient(tmp_path)
    try:
        client.request("initialize", {"processId": None, "rootUri": tmp_path.as_uri(), "capabilities": {}})
        client.send("initialized", {})
        client.send("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "python", "version": 1, "text": BROKEN}})
        assert all("confirmed" not in d["message"] for d in client.diagnostics(uri))  # fast static pass on open
        client.send("textDocument/didSave", {"textDocument": {"uri": uri}})
        saved = client.diagnostics(uri, timeout=120)
        assert [d["message"].endswith("]") and "[confirmed: torch 2.13.0" in d["message"] for d in saved] == [True] * 5
    finally:
        client.process.kill()


def test_server_without_pygls_exits_2_with_one_line(tmp_path):
    fake = tmp_path / "fake"
    (fake / "pygls").mkdir(parents=True)
    (fake / "pygls" / "__init__.py").write_text("raise ImportError('No module named pygls')\n")
    result = jitlint("server", cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(fake)})
    assert result.returncode == 2
    assert result.stderr.strip().count("\n") == 0 and "pip install 'jitlint[server]'" in result.stderr


# -- SARIF, GitHub, full text -------------------------------------------------------------------------------------
def test_sarif_is_valid_against_the_official_schema_and_fingerprints_survive_line_moves(tmp_path):
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "model.py").write_text(BROKEN)
    result = jitlint("check", "--output-format", "sarif", "pkg/model.py", cwd=tmp_path)
    log = json.loads(result.stdout)
    schema = json.loads((ROOT / "tests" / "data" / "sarif-schema-2.1.0.json").read_text())
    jsonschema.Draft4Validator(schema).validate(log)
    run = log["runs"][0]
    rules = {rule["id"]: rule for rule in run["tool"]["driver"]["rules"]}
    assert rules["JIT301"]["name"] == "modulelist-index-variable" and rules["JIT301"]["helpUri"].endswith("JIT301.md")
    assert rules["JIT301"]["help"]["markdown"].startswith("# JIT301")
    results = run["results"]
    assert [r["ruleId"] for r in results] == ["JIT401", "JIT301", "JIT106", "JIT201", "JIT102"]
    location = results[1]["locations"][0]["physicalLocation"]
    assert location["artifactLocation"]["uri"] == "pkg/model.py"
    assert location["region"] == {"startLine": 27, "startColumn": 17, "endLine": 27, "endColumn": 31}
    assert results[1]["level"] == "error"
    # Insert lines above everything: lines move, fingerprints stay.
    (tmp_path / "pkg" / "model.py").write_text("# a new header comment\n\n" + BROKEN)
    moved = json.loads(jitlint("check", "--output-format", "sarif", "pkg/model.py", cwd=tmp_path).stdout)["runs"][0]["results"]
    assert [r["locations"][0]["physicalLocation"]["region"]["startLine"] for r in moved] == [12, 29, 33, 38, 42]
    assert [r["partialFingerprints"] for r in moved] == [r["partialFingerprints"] for r in results]
    assert len({json.dumps(r["partialFingerprints"]) for r in results}) == 5


def test_sarif_with_a_baseline_lists_only_new_results_and_validates(tmp_path):
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "model.py").write_text(BROKEN)
    assert jitlint("check", "--write-baseline", "base.json", "pkg", cwd=tmp_path).returncode == 0
    (tmp_path / "pkg" / "model.py").write_text("\n\n" + BROKEN.replace("        return x * factor", "        z = x.tolist()\n        return x * factor"))
    result = jitlint("check", "--output-format", "sarif", "--baseline", "base.json", "pkg", cwd=tmp_path)
    assert result.returncode == 1
    log = json.loads(result.stdout)
    schema = json.loads((ROOT / "tests" / "data" / "sarif-schema-2.1.0.json").read_text())
    jsonschema.Draft4Validator(schema).validate(log)
    results = log["runs"][0]["results"]
    assert [(r["ruleId"], r["baselineState"]) for r in results] == [("JIT206", "new")]
    assert "5 findings in the baseline are not shown." in result.stderr


def test_full_and_concise_text(tmp_path):
    (tmp_path / "model.py").write_text(BROKEN)
    full = jitlint("check", "--output-format", "full", "model.py", cwd=tmp_path).stdout
    assert "model.py:27:17: JIT301 [*] [error]" in full
    assert " 27 |             x = self.blocks[i](x)\n    |                 ^^^^^^^^^^^^^^\n" in full
    concise = jitlint("check", "--output-format", "concise", "model.py", cwd=tmp_path).stdout
    assert concise == jitlint("check", "model.py", cwd=tmp_path).stdout


# -- flake8 -------------------------------------------------------------------------------------------------------
def test_flake8_plugin_with_the_real_flake8_reports_the_same_columns(tmp_path):
    (tmp_path / "model.py").write_text(BROKEN)
    flake8 = subprocess.run([sys.executable, "-m", "flake8", "--select", "JIT", "model.py"], cwd=tmp_path,
                            capture_output=True, text=True)
    ours = jitlint("check", "-q", "model.py", cwd=tmp_path).stdout
    flake8_positions = [line.split(": ")[0] + ": " + line.split(": ")[1].split()[0] for line in flake8.stdout.splitlines()]
    our_positions = [line.split(": ")[0] + ": " + line.split(": ")[1].split()[0] for line in ours.splitlines()]
    assert flake8_positions == our_positions and len(our_positions) == 5
    assert flake8.returncode == 1


# -- progress -----------------------------------------------------------------------------------------------------
def _many_files(directory: Path, count: int = 60) -> None:
    for index in range(count):
        (directory / f"m{index}.py").write_text(CLEAN)


def test_progress_on_a_terminal_and_nothing_when_piped(tmp_path):
    _many_files(tmp_path)
    piped = jitlint("check", ".", cwd=tmp_path, env={**os.environ, "CI": ""})
    assert piped.stderr == ""
    primary, secondary = pty.openpty()
    process = subprocess.Popen([sys.executable, "-m", "jitlint", "check", "--no-cache", "."], cwd=tmp_path, stdout=subprocess.PIPE,
                               stderr=secondary, env={**os.environ, "CI": ""})
    os.close(secondary)
    output = b""
    while True:
        try:
            ready, _, _ = select.select([primary], [], [], 30)
            chunk = os.read(primary, 4096) if ready else b""
        except OSError:
            break
        if not chunk:
            break
        output += chunk
    process.wait(timeout=60)
    os.close(primary)
    assert b"jitlint [" in output and b"%" in output
