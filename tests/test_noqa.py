"""`--add-noqa`, JIT900 `unused-noqa` (off by default) and `--ignore-noqa`."""

import ast
import textwrap

import pytest
from click.testing import CliRunner

from jitlint.cli import main
from jitlint.codes import TARGET_OF
from jitlint.config import Config, load_config

MODEL = textwrap.dedent('''\
    import torch
    import torch.nn as nn
    import numpy as np


    class M(nn.Module):
        def __init__(self):
            super().__init__()
            self.layers = nn.ModuleList([nn.Linear(4, 4)])

        def forward(self, x, **kwargs):
            i = 0
            x = self.layers[i](x.numpy())  # noqa: JIT401
            y = np.asarray(x) + torch.from_numpy(  # a note
                x)
            s = """
    text""" + str(x.numpy())
            return x  # the end
''')


@pytest.fixture
def project(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pyproject.toml").write_text("[tool.jitlint]\n")
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "model.py").write_text(MODEL)
    (tmp_path / "pkg" / "crlf.py").write_bytes(MODEL.replace("\n", "\r\n").encode())
    return tmp_path


def run(*args):
    result = CliRunner().invoke(main, list(args))
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result


def test_add_noqa_then_check_is_clean_and_every_file_parses(project):
    before = run("check", "--no-cache", "pkg")
    assert before.exit_code == 1 and "Found 10 findings" in before.stdout
    result = run("check", "--add-noqa", "pkg")
    assert result.exit_code == 0, result.output
    assert "Added 8 noqa directives." in result.stderr
    after = run("check", "--no-cache", "--extend-select", "JIT900", "pkg")
    assert after.exit_code == 0 and after.stdout == "All checks passed!\n", after.stdout
    for path in (project / "pkg").iterdir():
        ast.parse(path.read_bytes())
    lines = (project / "pkg" / "model.py").read_text().splitlines()
    assert lines[10] == "    def forward(self, x, **kwargs):  # noqa: JIT108"
    assert lines[12] == "        x = self.layers[i](x.numpy())  # noqa: JIT401, JIT301"  # merged, formatting kept
    assert lines[13] == "        y = np.asarray(x) + torch.from_numpy(  # a note  # noqa: JIT401"  # inside a statement
    assert lines[15:17] == ['        s = """', 'text""" + str(x.numpy())  # noqa: JIT401']  # after the string, not in it
    assert lines[17] == "        return x  # the end"
    assert (project / "pkg" / "crlf.py").read_bytes().count(b"\r\n") == MODEL.count("\n")  # line endings kept
    again = run("check", "--add-noqa", "pkg")
    assert again.exit_code == 0 and "Added 0 noqa directives." in again.stderr


def test_add_noqa_refuses_a_line_inside_a_string_and_writes_nothing_to_that_file(project):
    source = MODEL.replace('        s = """\ntext""" + str(x.numpy())\n', '        s = str(x.numpy()) + """\ntext"""\n')
    assert source != MODEL
    (project / "pkg" / "model.py").write_text(source)
    (project / "pkg" / "crlf.py").unlink()
    result = run("check", "--add-noqa", "pkg")
    assert result.exit_code == 1
    assert "pkg/model.py:16: cannot add a `# noqa` comment there: the line ends inside a string" in result.stderr
    assert (project / "pkg" / "model.py").read_text() == source


def test_unused_noqa_is_off_by_default_and_its_fix_removes_only_the_unused_codes(project):
    (project / "pkg" / "crlf.py").unlink()
    source = textwrap.dedent('''\
        import torch.nn as nn


        class M(nn.Module):
            def forward(self, x):
                y = x.numpy()  # noqa: JIT401, JIT301
                x = x + 1  # noqa: JIT301
                x = x + 2  # noqa: JIT301 keep this note
                x = x + 3  # a note  # noqa: JIT999, E501
                x = x + 4  # noqa: JIT301, JIT900
                return x  # noqa
    ''')
    (project / "pkg" / "model.py").write_text(source)
    assert run("check", "--no-cache", "pkg").stdout == "All checks passed!\n"
    result = run("check", "--no-cache", "--extend-select", "JIT900", "pkg")
    assert result.exit_code == 0  # a warning
    findings = [line for line in result.stdout.splitlines() if ": JIT" in line]
    assert [line.split(" [warning] ")[1] for line in findings] == [
        "unused `noqa` directive (unused: `JIT301`)",
        "unused `noqa` directive (unused: `JIT301`)",
        "unused `noqa` directive (unused: `JIT301`)",
        "unused `noqa` directive (unknown: `JIT999`)",
    ]
    assert [line.split(": JIT900")[0] for line in findings] == [
        "pkg/model.py:6:24", "pkg/model.py:7:20", "pkg/model.py:8:20", "pkg/model.py:9:30"]
    fixed = run("check", "--no-cache", "--extend-select", "JIT900", "--fix", "pkg")
    assert fixed.exit_code == 0, fixed.output
    assert (project / "pkg" / "model.py").read_text().splitlines()[5:] == [
        "        y = x.numpy()  # noqa: JIT401",
        "        x = x + 1",
        "        x = x + 2  # keep this note",
        "        x = x + 3  # a note  # noqa: E501",
        "        x = x + 4  # noqa: JIT301, JIT900",
        "        return x  # noqa",
    ]
    assert run("check", "--no-cache", "--extend-select", "JIT900", "pkg").stdout == "All checks passed!\n"
    # --ignore-noqa: every finding, and no noqa is "unused"
    result = run("check", "--no-cache", "--ignore-noqa", "--extend-select", "JIT900", "pkg")
    assert [line.split(": ")[1].split()[0] for line in result.stdout.splitlines() if ": JIT" in line] == ["JIT401"]
    assert result.exit_code == 1
    # and the cache keeps the two apart
    assert run("check", "--extend-select", "JIT900", "pkg").exit_code == 0
    assert run("check", "--ignore-noqa", "pkg").exit_code == 1
    assert run("check", "--extend-select", "JIT900", "pkg").exit_code == 0


def test_default_off_selection_mirrors_ruff(project):
    def enabled(toml: str = "", **cli) -> bool:
        (project / "pyproject.toml").write_text("[tool.jitlint]\n" + toml)
        return "JIT900" in load_config(None, project).enabled_codes(TARGET_OF, **cli)

    assert not enabled()  # the default selection leaves it out
    assert "JIT900" not in Config().enabled_codes(TARGET_OF)
    assert not enabled(cli_select=["JIT3"])
    assert enabled(cli_extend=["JIT900"]) and enabled(cli_extend=["JIT9"]) and enabled(cli_select=["JIT900"])
    assert enabled(cli_select=["ALL"]) and enabled('select = ["JIT"]\n') and enabled('select = ["ALL"]\n')
    assert not enabled('select = ["ALL"]\n', cli_ignore=["JIT900"])
    assert enabled('extend-select = ["JIT900"]\n')
    everything = Config().enabled_codes(TARGET_OF)
    assert {"JIT001", "JIT301"} <= everything
