"""Adopting jitlint on a codebase with findings: `--write-baseline`, `--baseline`, `baseline = "..."`."""

import json
import textwrap

import pytest
from click.testing import CliRunner

from jitlint import server
from jitlint.baseline import normalise_statement
from jitlint.cli import main

MODEL = textwrap.dedent("""\
    import torch
    import torch.nn as nn


    def helper(x):
        return x


    class M(nn.Module):
        def __init__(self):
            super().__init__()
            self.layers = nn.ModuleList([nn.Linear(4, 4)])

        def forward(self, x, **kwargs):
            i = 0
            y = x.numpy()
            return self.layers[i](x)

        def other(self, x):
            return x
""")


@pytest.fixture
def project(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pyproject.toml").write_text("[tool.jitlint]\n")
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "model.py").write_text(MODEL)
    return tmp_path


def run(*args):
    result = CliRunner().invoke(main, list(args))
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result


def codes(result) -> list[tuple[str, int]]:
    return [(f["code"], f["location"]["row"]) for f in json.loads(result.stdout)]


def write_baseline(*extra):
    result = run("check", "--no-cache", "--write-baseline", "baseline.json", "pkg", *extra)
    assert result.exit_code == 0, result.output
    return json.loads((__import__("pathlib").Path("baseline.json")).read_text())


def test_write_baseline_is_sorted_stable_and_exits_0(project):
    data = write_baseline()
    assert data["jitlint-baseline"] == 1
    entries = data["files"]["pkg/model.py"]["findings"]
    assert [(e["code"], e["scope"], e["statement"]) for e in entries] == [
        ("JIT108", "M.forward", "def forward ( self , x , ** kwargs ) :"),
        ("JIT301", "M.forward", "return self . layers [ i ] ( x )"),
        ("JIT401", "M.forward", "y = x . numpy ( )"),
    ]
    assert all(entry["message"] for entry in entries)
    first = (project / "baseline.json").read_text()
    write_baseline()
    assert (project / "baseline.json").read_text() == first  # byte-for-byte: reviewable in a diff
    result = run("check", "--no-cache", "--baseline", "baseline.json", "pkg")
    assert result.exit_code == 0 and "All checks passed!" in result.stdout
    assert "3 findings in the baseline are not shown." in result.stdout


@pytest.mark.parametrize("cache", [False, True], ids=["no-cache", "cached"])
@pytest.mark.parametrize("edit", ["inserted-lines", "moved-function", "reindented", "rewrapped"])
def test_the_baseline_survives_code_moving_and_only_the_new_defect_is_reported(project, edit, cache):
    write_baseline()
    source = MODEL
    if edit == "inserted-lines":
        source = source.replace("import torch.nn as nn\n", "import torch.nn as nn\n\n# a comment\nA = 1\n\n")
    elif edit == "moved-function":  # forward moves below `other`
        start = source.index("    def forward")
        end = source.index("    def other")
        source = source[:start] + source[end:] + "\n" + source[start:end].rstrip("\n") + "\n"
    elif edit == "reindented":  # four spaces become two, everywhere
        source = "\n".join(line.replace("    ", "  ") for line in source.splitlines()) + "\n"
    elif edit == "rewrapped":
        source = source.replace("def forward(self, x, **kwargs):", "def forward(\n        self, x,\n        **kwargs\n    ):")
    source = source.replace("y = x.numpy()\n", "y = x.numpy()\nz = x.tolist()\n", 1)
    source = source.replace("\nz = x.tolist()", "\n" + " " * _indent_of(source, "y = x.numpy()") + "z = x.tolist()")
    (project / "pkg" / "model.py").write_text(source)
    compile(source, "model.py", "exec")
    options = () if cache else ("--no-cache",)
    for _ in range(2 if cache else 1):  # with the cache: the second run is served from it, without LibCST
        result = run("check", *options, "--baseline", "baseline.json", "--output-format", "json", "pkg")
        found = json.loads(result.stdout)
        assert [f["code"] for f in found] == ["JIT206"], found
        assert "z = x.tolist()" in source.splitlines()[found[0]["location"]["row"] - 1]
        assert result.exit_code == 1


def _indent_of(source: str, text: str) -> int:
    line = next(line for line in source.splitlines() if text in line)
    return len(line) - len(line.lstrip())


def test_a_renamed_file_with_unchanged_content_keeps_its_entries(project):
    write_baseline()
    (project / "pkg" / "model.py").rename(project / "pkg" / "network.py")
    result = run("check", "--no-cache", "--baseline", "baseline.json", "pkg")
    assert result.exit_code == 0, result.output
    assert "3 findings in the baseline are not shown." in result.stdout and "no longer match" not in result.stdout
    # A renamed file whose content changed is a new file: its findings are new, and the old entries are stale.
    (project / "pkg" / "network.py").write_text(MODEL + "\n# changed\n")
    result = run("check", "--no-cache", "--baseline", "baseline.json", "pkg")
    assert result.exit_code == 1
    assert "Found 3 findings" in result.stdout
    assert "3 baseline entries no longer match a finding" in result.stdout


def test_identical_findings_need_as_many_entries(project):
    write_baseline()
    source = MODEL.replace("        y = x.numpy()\n", "        y = x.numpy()\n        y = x.numpy()\n")
    (project / "pkg" / "model.py").write_text(source)
    result = run("check", "--no-cache", "--baseline", "baseline.json", "--output-format", "json", "pkg")
    assert codes(result) == [("JIT401", 17)]


def test_fixed_findings_leave_stale_entries_counted_in_the_summary(project):
    write_baseline()
    (project / "pkg" / "model.py").write_text(MODEL.replace("        y = x.numpy()\n", "").replace(
        "self.layers[i](x)", "self.layers[0](x)"))
    result = run("check", "--no-cache", "--baseline", "baseline.json", "pkg")
    assert result.exit_code == 0
    assert "2 baseline entries no longer match a finding (fixed or changed)" in result.stdout
    result = run("check", "--no-cache", "--write-baseline", "baseline.json", "pkg")
    assert result.exit_code == 0
    assert "Wrote 1 finding in 1 file" in result.stderr
    assert "2 entries of the previous baseline no longer matched." in result.stderr
    result = run("check", "--no-cache", "--baseline", "baseline.json", "pkg")
    assert "no longer match" not in result.stdout and "1 finding in the baseline is not shown." in result.stdout


def test_entries_of_files_outside_the_run_are_not_stale(project):
    (project / "pkg" / "other.py").write_text(MODEL)
    write_baseline()
    result = run("check", "--no-cache", "--baseline", "baseline.json", "pkg/model.py")
    assert result.exit_code == 0 and "no longer match" not in result.stdout


def test_the_configured_baseline_and_bad_baselines(project):
    write_baseline()
    (project / "pyproject.toml").write_text('[tool.jitlint]\nbaseline = "baseline.json"\n')
    result = run("check", "--no-cache", "pkg")
    assert result.exit_code == 0 and "All checks passed!" in result.stdout
    (project / "baseline.json").write_text("{not json")
    for args in (("pkg",), ("--baseline", "missing.json", "pkg")):
        result = run("check", "--no-cache", *args)
        assert result.exit_code == 2
        assert result.stderr.count("\n") == 1 and result.stderr.startswith("jitlint: error: ")
        assert "Traceback" not in result.output
    (project / "baseline.json").write_text('{"jitlint-baseline": 99, "files": {}}')
    result = run("check", "--no-cache", "pkg")
    assert result.exit_code == 2 and "not a jitlint baseline" in result.stderr
    (project / "pyproject.toml").write_text("[tool.jitlint]\nbaseline = 3\n")
    assert run("check", "pkg").exit_code == 2


def test_machine_formats_keep_the_notes_off_stdout(project):
    write_baseline()
    (project / "pkg" / "model.py").write_text(MODEL.replace("        y = x.numpy()\n", ""))
    result = run("check", "--no-cache", "--baseline", "baseline.json", "--output-format", "json", "pkg")
    assert json.loads(result.stdout) == []
    assert "1 baseline entry no longer matches" in result.stderr


def test_the_editor_server_honours_the_configured_baseline(project):
    write_baseline()
    path = project / "pkg" / "model.py"
    assert [f.code for f in server._findings(path, MODEL, False)] == ["JIT108", "JIT401", "JIT301"]
    (project / "pyproject.toml").write_text('[tool.jitlint]\nbaseline = "baseline.json"\n')
    assert server._findings(path, MODEL, False) == []
    edited = "# moved down\n\n" + MODEL.replace("        y = x.numpy()\n", "        y = x.numpy()\n" + "        z = x.tolist()\n")
    assert [(f.code, f.location.row) for f in server._findings(path, edited, False)] == [("JIT206", 19)]


def test_statement_normalisation():
    assert normalise_statement("x = f(a,\n      b)  # note") == normalise_statement("x = f(a, b)") == "x = f ( a , b )"
    assert normalise_statement("def f(x):\n") == "def f ( x ) :"
    assert normalise_statement("x = (") == "x = ("  # does not tokenize: whitespace collapsed
