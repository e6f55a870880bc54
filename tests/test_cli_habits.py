"""What a ruff user expects of the command line: `.gitignore`, an empty run said so, every unreadable file a JIT002
in one wording, colour on a terminal, the fixable summary, `--output-file`, `--show-settings`, `--show-files`,
`--fix-only`, `--exit-non-zero-on-fix`, `--watch`, the grouped, junit, gitlab and pylint formats, a fixable column in
`--statistics`, messages in plain English and without absolute paths."""

import json
import os
import re
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from jitlint.cli import main

DATA = Path(__file__).resolve().parent / "data"

BAD = textwrap.dedent("""\
    import torch
    import torch.nn as nn


    class M(nn.Module):
        def forward(self, x):
            return x.numpy()
""")
FIXABLE = textwrap.dedent("""\
    import torch
    import torch.nn as nn


    class M(nn.Module):
        def forward(self, x, scale=2.0):
            return x * scale
""")


def run(*args, env=None, cwd=None):
    result = CliRunner().invoke(main, ["check", "--no-cache", *args], env=env, catch_exceptions=False)
    return result


# -- .gitignore ----------------------------------------------------------------------------------------------------
def _repository(tmp_path: Path) -> Path:
    (tmp_path / ".git").mkdir()
    (tmp_path / ".gitignore").write_text("generated/\n*_pb2.py\n!keep_pb2.py\n# a comment\n/top_only.py\n")
    for name in ("model.py", "generated/out.py", "api_pb2.py", "keep_pb2.py", "top_only.py", "sub/top_only.py",
                 "sub/deeper.py"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(BAD)
    (tmp_path / "sub" / ".gitignore").write_text("deeper.py\n")
    return tmp_path


def _files(result) -> set[str]:
    return {Path(f["filename"]).name if "/" not in f["filename"] else f["filename"]
            for f in json.loads(result.stdout)}


def test_gitignored_files_are_skipped(tmp_path, monkeypatch):
    monkeypatch.chdir(_repository(tmp_path))
    result = run("--output-format", "json", ".")
    assert {f["filename"] for f in json.loads(result.stdout)} == {"model.py", "keep_pb2.py", "sub/top_only.py"}


def test_no_respect_gitignore_lints_them(tmp_path, monkeypatch):
    monkeypatch.chdir(_repository(tmp_path))
    result = run("--output-format", "json", "--no-respect-gitignore", ".")
    assert len({f["filename"] for f in json.loads(result.stdout)}) == 7


def test_respect_gitignore_in_the_configuration(tmp_path, monkeypatch):
    monkeypatch.chdir(_repository(tmp_path))
    (tmp_path / "pyproject.toml").write_text("[tool.jitlint]\nrespect-gitignore = false\n")
    result = run("--output-format", "json", ".")
    assert len({f["filename"] for f in json.loads(result.stdout)}) == 7


def test_a_gitignored_file_named_on_the_command_line_is_linted(tmp_path, monkeypatch):
    monkeypatch.chdir(_repository(tmp_path))
    result = run("--output-format", "json", "api_pb2.py")
    assert {f["filename"] for f in json.loads(result.stdout)} == {"api_pb2.py"}


# -- an empty run, unreadable files -------------------------------------------------------------------------------
def test_no_python_files_is_a_warning_not_all_checks_passed(tmp_path):
    (tmp_path / "notes.txt").write_text("nothing to lint\n")
    result = CliRunner().invoke(main, ["check", "--no-cache", str(tmp_path)])
    assert result.exit_code == 0
    assert "warning: No Python files found under the given path(s)" in result.stderr
    assert "All checks passed!" not in result.stdout


def test_an_unreadable_named_file_is_jit002_like_a_walked_one(tmp_path, monkeypatch):
    (tmp_path / "locked.py").write_text(BAD)
    real_access, real_read = os.access, Path.read_bytes

    def access(path, mode, *args, **kwargs):
        return False if str(path).endswith("locked.py") else real_access(path, mode, *args, **kwargs)

    def read_bytes(self):
        if self.name == "locked.py":
            raise PermissionError(13, "Permission denied")
        return real_read(self)

    monkeypatch.setattr(os, "access", access)
    monkeypatch.setattr(Path, "read_bytes", read_bytes)
    named = run("--output-format", "json", str(tmp_path / "locked.py"))
    walked = run("--output-format", "json", str(tmp_path))
    assert named.exit_code == walked.exit_code == 1
    assert [(f["code"], f["message"]) for f in json.loads(named.stdout)] == \
        [(f["code"], f["message"]) for f in json.loads(walked.stdout)] == [("JIT002", "cannot read: Permission denied")]


def test_a_symbolic_link_loop_has_one_wording_named_or_walked(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    os.symlink("b.py", "a.py")
    os.symlink("a.py", "b.py")
    result = run("--output-format", "json", ".", "a.py")
    findings = json.loads(result.stdout)
    assert sorted(f["filename"] for f in findings) == ["a.py", "b.py"]  # named and walked: one finding
    assert {f["message"] for f in findings} == {"cannot read: a symbolic link that loops"}


# -- colour ----------------------------------------------------------------------------------------------------------
def _text(tmp_path, env):
    path = tmp_path / "m.py"
    path.write_text(BAD)
    full = {key: value for key, value in os.environ.items() if key not in ("NO_COLOR", "FORCE_COLOR")}
    full.update(env)
    return subprocess.run([sys.executable, "-m", "jitlint", "check", "--no-cache", str(path)],
                          capture_output=True, text=True, env=full).stdout


def test_colour_is_forced_by_force_color_and_off_by_no_color_and_in_pipes(tmp_path):
    assert "\x1b[" in _text(tmp_path, {"FORCE_COLOR": "1"})
    assert "\x1b[" not in _text(tmp_path, {})
    assert "\x1b[" not in _text(tmp_path, {"NO_COLOR": "1"})


def test_colour_on_a_terminal_unless_no_color(tmp_path):
    path = tmp_path / "m.py"
    path.write_text(BAD)
    pty = pytest.importorskip("pty")
    script = [sys.executable, "-m", "jitlint", "check", "--no-cache", str(path)]
    for env, coloured in (({}, True), ({"NO_COLOR": "1"}, False)):
        full = {key: value for key, value in os.environ.items() if key not in ("NO_COLOR", "FORCE_COLOR", "CI")}
        full.update(env)
        leader, follower = pty.openpty()
        process = subprocess.Popen(script, stdout=follower, stderr=subprocess.DEVNULL, env=full)
        os.close(follower)
        chunks = []
        while True:
            try:
                chunk = os.read(leader, 4096)
            except OSError:
                break
            if not chunk:
                break
            chunks.append(chunk)
        process.wait(timeout=60)
        os.close(leader)
        assert ("\x1b[" in b"".join(chunks).decode()) == coloured, env


# -- the summary, output files, settings and files -----------------------------------------------------------------
def test_the_summary_says_what_is_fixable(tmp_path):
    (tmp_path / "m.py").write_text(FIXABLE)
    (tmp_path / "n.py").write_text(textwrap.dedent("""\
        import torch.nn as nn


        class Base(nn.Module):
            def scale(self, x):
                return x * 3

            def forward(self, x):
                return x


        class N(Base):
            def forward(self, x):
                return Base.scale(self, x)
    """))
    result = run(str(tmp_path))
    assert re.search(r"^\[\*\] 1 fixable with the `--fix` option \(1 hidden fix can be enabled with the "
                     r"`--unsafe-fixes` option\)\.$", result.stdout, re.M), result.stdout
    unsafe = run("--unsafe-fixes", str(tmp_path))
    assert "[*] 2 fixable with the `--fix` option." in unsafe.stdout


def test_output_file(tmp_path):
    (tmp_path / "m.py").write_text(BAD)
    out = tmp_path / "report" / "out.json"
    result = run("--output-format", "json", "--output-file", str(out), str(tmp_path / "m.py"))
    assert result.exit_code == 1 and result.stdout == ""
    assert json.loads(out.read_text())[0]["code"] == "JIT401"


def test_show_files_and_show_settings(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pyproject.toml").write_text('[tool.jitlint]\nignore = ["JIT401"]\n')
    (tmp_path / "a.py").write_text(BAD)
    (tmp_path / "b.py").write_text(BAD)
    files = run("--show-files", ".")
    assert files.exit_code == 0 and files.stdout.split() == [str((tmp_path / "a.py").resolve()),
                                                             str((tmp_path / "b.py").resolve())]
    settings = run("--show-settings", ".")
    assert settings.exit_code == 0
    assert f"Settings path: {tmp_path / 'pyproject.toml'}" in settings.stdout
    assert "targets = [\"script\"]" in settings.stdout
    assert "JIT401" not in settings.stdout.split("enabled =", 1)[1].split("\n", 1)[0]
    assert "respect-gitignore = true" in settings.stdout
    assert "export.strict = false" in settings.stdout and "fx.leaf-modules = []" in settings.stdout


# -- fixing ------------------------------------------------------------------------------------------------------------
def test_fix_only_prints_no_findings_and_exits_zero(tmp_path):
    path = tmp_path / "m.py"
    path.write_text(FIXABLE + BAD.replace("class M", "class Other"))
    result = run("--fix-only", str(path))
    assert result.exit_code == 0
    assert "scale: float" in path.read_text()
    assert "JIT401" not in result.stdout and "Fixed 1 finding" in result.stdout


def test_exit_non_zero_on_fix(tmp_path):
    path = tmp_path / "m.py"
    path.write_text(FIXABLE)
    assert run("--fix", "--exit-non-zero-on-fix", str(path)).exit_code == 1  # fixed, nothing left
    assert run("--fix", "--exit-non-zero-on-fix", str(path)).exit_code == 0  # nothing to fix
    path.write_text(FIXABLE)
    assert run("--fix", str(path)).exit_code == 0


def test_watch_lints_again_when_a_file_changes(tmp_path):
    path = tmp_path / "m.py"
    path.write_text(BAD)
    process = subprocess.Popen([sys.executable, "-m", "jitlint", "check", "--no-cache", "--watch", str(tmp_path)],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        lines = []

        def wait_for(text: str, seconds: float = 60) -> None:
            deadline = time.monotonic() + seconds
            while time.monotonic() < deadline:
                line = process.stdout.readline()
                lines.append(line)
                if text in line:
                    return
            raise AssertionError(f"{text!r} not seen in {lines}")

        wait_for("Found 1 finding")
        time.sleep(1.1)
        path.write_text(FIXABLE.replace("forward", "forward"))
        wait_for("fixable")
        assert any("JIT201" in line for line in lines)
    finally:
        process.terminate()
        process.wait(timeout=30)


# -- output formats --------------------------------------------------------------------------------------------------
def _formatted(tmp_path, output_format: str) -> str:
    (tmp_path / "m.py").write_text(BAD)
    (tmp_path / "n.py").write_text(FIXABLE)
    result = run("--output-format", output_format, str(tmp_path / "m.py"), str(tmp_path / "n.py"))
    assert result.exit_code == 1
    return result.stdout


def test_grouped_format(tmp_path):
    text = _formatted(tmp_path, "grouped")
    assert text.startswith(f"{tmp_path / 'm.py'}:\n  7:16 JIT401 ")
    assert f"\n{tmp_path / 'n.py'}:\n  6:26 JIT201 [*] " in text
    assert "Found 2 findings in 2 files" in text


def test_pylint_format(tmp_path):
    lines = _formatted(tmp_path, "pylint").splitlines()
    assert lines[0].startswith(f"{tmp_path / 'm.py'}:7: [JIT401(") and len(lines) == 2


def test_junit_format_is_valid(tmp_path):
    xmlschema = pytest.importorskip("xmlschema")
    text = _formatted(tmp_path, "junit")
    schema = xmlschema.XMLSchema(str(DATA / "junit-4.xsd"))
    schema.validate(text)
    assert text.count("<failure") == 2 and 'name="org.jitlint.JIT401"' in text


def test_gitlab_format_is_valid(tmp_path, monkeypatch):
    jsonschema = pytest.importorskip("jsonschema")
    monkeypatch.chdir(tmp_path)
    (tmp_path / "m.py").write_text(BAD)
    (tmp_path / "n.py").write_text(FIXABLE)
    result = run("--output-format", "gitlab", "m.py", str(tmp_path / "n.py"))
    report = json.loads(result.stdout)
    jsonschema.validate(report, json.loads((DATA / "gitlab-codequality.schema.json").read_text()))
    assert sorted(issue["location"]["path"] for issue in report) == ["m.py", "n.py"]  # relative, even named absolute
    assert len({issue["fingerprint"] for issue in report}) == 2


def test_statistics_has_a_fixable_column(tmp_path):
    (tmp_path / "m.py").write_text(BAD)
    (tmp_path / "n.py").write_text(FIXABLE)
    text = run("--statistics", str(tmp_path)).stdout
    assert re.search(r"^1\tJIT201\t\[\*\]\t\S+", text, re.M) and re.search(r"^1\tJIT401\t   \t\S+", text, re.M)
    rows = json.loads(run("--statistics", "--output-format", "json", str(tmp_path)).stdout)
    assert {row["code"]: row["fixable"] for row in rows} == {"JIT201": True, "JIT401": False}


# -- messages ----------------------------------------------------------------------------------------------------------
ARTICLE = re.compile(r"\ba (int|Optional|[aeiouAEIOU]\w*)\b")
_EXCEPTIONS = ("a use", "a user", "a unique", "a one", "a uniform", "a union", "a unit", "a Union", "a usable")


def _messages(paths) -> list[str]:
    result = run("--output-format", "json", "--target", "script,fx,export", "--exit-zero", *map(str, paths))
    return [f["message"] for f in json.loads(result.stdout)]


def test_messages_say_an_int_not_a_int():
    root = Path(__file__).resolve().parents[1]
    messages = _messages([root / "fixtures"])
    wrong = sorted({m for m in messages
                    if any(not match.group(0).startswith(_EXCEPTIONS) for match in ARTICLE.finditer(m))})
    assert messages and not wrong, wrong[:5]


def test_no_message_holds_an_absolute_path(tmp_path):
    root = Path(__file__).resolve().parents[1]
    messages = _messages([root / "fixtures"])
    assert messages
    assert not [m for m in messages if str(root) in m or re.search(r"(^|[\s`'\"(])/(work|tmp|home|root)/", m)]


def test_a_message_about_a_file_outside_the_run_names_its_module_not_its_path(tmp_path):
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "ops.py").write_text("def double(x):\n    import math\n    return x * 2\n")
    (package / "model.py").write_text(textwrap.dedent("""\
        import torch.nn as nn
        from pkg.ops import double


        class M(nn.Module):
            def forward(self, x):
                return double(x)
    """))
    findings = json.loads(run("--output-format", "json", str(package / "model.py")).stdout)
    assert [f["code"] for f in findings] == ["JIT120"]
    assert str(tmp_path) not in findings[0]["message"] and "`pkg.ops`" in findings[0]["message"]
