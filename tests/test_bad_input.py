"""Bad input never crashes jitlint: one clear line for the file (or exit 2 for bad arguments), never a traceback,
and every other file in the run is still linted and reported."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from jitlint.cli import main

BROKEN = "import torch\nimport torch.nn as nn\n\n\nclass M(nn.Module):\n    def forward(self, x):\n        return x.numpy()\n"

# name -> (bytes, expected code for that file or None when it lints normally, expected message fragment)
CASES = {
    "syntax_error.py": (b"def f(:\n    pass\n", "JIT001", "invalid syntax"),
    "python2.py": (b"print 'hello'\n", "JIT001", "Missing parentheses in call to 'print'"),
    "not_utf8.py": (b"x = '\xff\xfe'\n", "JIT002", "cannot decode"),
    "cookie_latin1.py": ("# -*- coding: latin-1 -*-\n".encode() + BROKEN.encode("latin-1") + "s = 'caf\xe9'\n".encode("latin-1"), "JIT401", ""),
    "bom.py": (b"\xef\xbb\xbf" + BROKEN.encode(), "JIT401", ""),
    "crlf.py": (BROKEN.replace("\n", "\r\n").encode(), "JIT401", ""),
    "tabs.py": (BROKEN.replace("    def", "\tdef").replace("        return", "\t\treturn").encode(), "JIT401", ""),
    "nul_bytes.py": (b"x = 1\x00\n", "JIT002", "NUL bytes"),
    "binary.py": (bytes(range(256)) * 8, "JIT002", ""),
    "empty.py": (b"", None, ""),
    "generated_10mb.py": (b"x = 1\n" * 1_800_000, "JIT002", "over the 8388608-byte limit"),
    "nested_3000.py": (b"x = " + b"(" * 3000 + b"1" + b")" * 3000 + b"\n", "JIT001", "too many nested parentheses"),
    "long_statement.py": (b"x = 1" + b" + 1" * 30000 + b"\n", "JIT002", "statement too large"),
}


@pytest.fixture(scope="module")
def bad_tree(tmp_path_factory):
    root = tmp_path_factory.mktemp("bad")
    for name, (data, _code, _message) in CASES.items():
        (root / name).write_bytes(data)
    (root / "good_neighbour.py").write_text(BROKEN)
    os.symlink("loop_b.py", root / "loop_a.py")
    os.symlink("loop_a.py", root / "loop_b.py")
    (root / "directory.py").mkdir()
    (root / "directory.py" / "inside.py").write_text(BROKEN)
    os.mkfifo(root / "pipe.py")
    return root


def run(*args, cwd, **kwargs):
    return subprocess.run([sys.executable, "-m", "jitlint", "check", *args], cwd=cwd, capture_output=True,
                          text=True, timeout=120, **kwargs)


@pytest.fixture(scope="module")
def tree_result(bad_tree):
    result = run("--output-format", "json", ".", "missing.py", "loop_a.py", cwd=bad_tree)
    return result, json.loads(result.stdout)


@pytest.mark.parametrize("name", CASES)
def test_each_bad_file_gets_one_clear_line(tree_result, name):
    result, findings = tree_result
    _data, code, fragment = CASES[name]
    mine = [f for f in findings if f["filename"] == name]
    if code is None:
        assert mine == []
    else:
        assert [f["code"] for f in mine] == [code], mine
        assert fragment in mine[0]["message"]
    assert "Traceback" not in result.stderr


def test_the_other_files_are_still_linted(tree_result):
    _result, findings = tree_result
    files = {f["filename"]: f["code"] for f in findings}
    assert files["good_neighbour.py"] == "JIT401"
    assert files["directory.py/inside.py"] == "JIT401"  # a directory named x.py is a directory
    assert files["missing.py"] == "JIT002"
    assert files["loop_a.py"] == "JIT002"
    assert files["pipe.py"] == "JIT002"  # a named pipe is not read (that would block)


def test_syntax_errors_point_where_python_does(tree_result):
    _result, findings = tree_result
    [python2] = [f for f in findings if f["filename"] == "python2.py"]
    assert python2["location"] == {"row": 1, "column": 1}


def test_unreadable_file(tmp_path, monkeypatch):
    (tmp_path / "locked.py").write_text(BROKEN)
    (tmp_path / "ok.py").write_text(BROKEN)
    real = Path.read_bytes

    def deny(self):
        if self.name == "locked.py":
            raise PermissionError(13, "Permission denied")
        return real(self)

    monkeypatch.setattr(Path, "read_bytes", deny)
    result = CliRunner().invoke(main, ["check", "--output-format", "json", str(tmp_path)])
    findings = {Path(f["filename"]).name: (f["code"], f["message"]) for f in json.loads(result.output)}
    assert findings["locked.py"] == ("JIT002", "cannot read: Permission denied")
    assert findings["ok.py"][0] == "JIT401"


@pytest.mark.parametrize("stdin", ["closed", "empty"])
def test_stdin_closed_or_empty(tmp_path, stdin):
    kwargs = {"stdin": subprocess.DEVNULL} if stdin == "empty" else {"preexec_fn": lambda: os.close(0)}
    result = run("-", cwd=tmp_path, **kwargs)
    assert (result.returncode, result.stdout, result.stderr) == (0, "All checks passed!\n", "")


def test_bad_arguments_exit_2_with_one_line(tmp_path):
    result = run("--output-format", "yaml", ".", cwd=tmp_path)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert "Invalid value for '--output-format'" in result.stderr


def test_an_exception_in_a_rule_is_an_internal_error_finding(tmp_path, monkeypatch):
    from jitlint.targets.script.rules import containers

    (tmp_path / "m.py").write_text(BROKEN.replace("return x.numpy()", "i = 0\n        return self.layers[i](x.numpy())"))

    def explode(self, node, ctx):
        raise ValueError("boom")

    monkeypatch.setattr(containers.ModuleListIndexVariable, "visit_Subscript", explode)
    result = CliRunner().invoke(main, ["check", "--output-format", "json", str(tmp_path / "m.py")])
    findings = json.loads(result.output)
    assert [f["code"] for f in findings] == ["JIT003", "JIT401"]  # the other rules' findings are still there
    assert "rule JIT301 (modulelist-index-variable) raised ValueError: boom" in findings[0]["message"]
    assert findings[0]["filename"].endswith("m.py")
    assert result.exit_code == 2
    assert CliRunner().invoke(main, ["check", "--exit-zero", str(tmp_path / "m.py")]).exit_code == 0


def test_the_static_path_never_imports_the_linted_code(tmp_path):
    marker = tmp_path / "imported"
    (tmp_path / "evil.py").write_text(f"open({str(marker)!r}, 'w').write('x')\n" + BROKEN)
    (tmp_path / "pyproject.toml").write_text("[tool.jitlint]\nselect = ['ALL']\n")
    for output_format in ("text", "json", "sarif", "full"):
        result = run("--output-format", output_format, "evil.py", cwd=tmp_path)
        assert result.returncode == 1
    assert not marker.exists()


@pytest.mark.parametrize("seed", [0])
def test_fuzz_programs_never_crash_and_lint_the_same_twice(tmp_path, seed):
    """Programs from hypothesmith's grammar strategy: no exception, and the same findings twice in a row.
    (scripts/fuzz.py runs more of them.)"""
    import hypothesmith
    from hypothesis import HealthCheck, given, settings

    from jitlint.config import Config
    from jitlint.engine import StdinSource, lint
    from jitlint.rules import RULES_BY_CODE

    seen = []

    @settings(max_examples=40, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
    @given(hypothesmith.from_grammar(auto_target=False))
    def check(source):
        source = "import torch\nimport torch.nn as nn\n" + source
        first = lint([], Config(root=tmp_path), set(RULES_BY_CODE), stdin=StdinSource(str(tmp_path / "f.py"), source.encode()))
        second = lint([], Config(root=tmp_path), set(RULES_BY_CODE), stdin=StdinSource(str(tmp_path / "f.py"), source.encode()))
        assert [f.to_json() for f in first] == [f.to_json() for f in second]
        assert all(f.code != "JIT003" for f in first), [f.message for f in first]
        seen.append(source)

    check()
    assert len(seen) == 40
