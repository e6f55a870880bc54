"""The command line as users and editors call it: options, configuration, suppression, formats, exit codes."""

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

from jitlint.cli import main

BROKEN = textwrap.dedent("""\
    import torch
    import torch.nn as nn


    class M(nn.Module):
        def __init__(self):
            super().__init__()
            self.layers = nn.ModuleList([nn.Linear(4, 4)])

        def forward(self, x, scale=2.0):
            i = 0
            y = x.numpy()
            return self.layers[i](x) * scale
""")
CLEAN = "import torch\nimport torch.nn as nn\n\n\nclass M(nn.Module):\n    def forward(self, x):\n        return x\n"
JSON_KEYS = {"code", "name", "message", "severity", "filename", "location", "end_location", "fix", "url", "confirmation",
             "captured_from"}


@pytest.fixture
def project(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "model.py").write_text(BROKEN)
    (tmp_path / "clean.py").write_text(CLEAN)
    return tmp_path


def run(*args, input=None):
    result = CliRunner().invoke(main, list(args), input=input)
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result


def test_text_report_and_exit_codes(project):
    result = run("check", "model.py")
    assert result.exit_code == 1
    assert result.output.splitlines() == [
        "model.py:10:26: JIT201 [*] [error] parameter `scale` has a float default but no annotation; TorchScript "
        "assumes an unannotated parameter is a Tensor. Annotate it: `scale: float = ...`",
        "model.py:12:13: JIT401 [error] `.numpy()` is not supported by TorchScript; keep the value a Tensor, or "
        "move the NumPy code into a `@torch.jit.ignore` method or under `if not torch.jit.is_scripting():`",
        "model.py:13:16: JIT301 [error] `self.layers` is an nn.ModuleList; TorchScript only indexes it with an "
        "integer literal. Iterate instead: `for layer in self.layers:` (or `enumerate(self.layers)`)",
        "Found 3 findings in 1 file (3 errors).",
        "[*] 1 fixable with the `--fix` option.",
    ]
    clean = run("check", "clean.py")
    assert (clean.exit_code, clean.output) == (0, "All checks passed!\n")


def test_default_path_is_the_current_directory_and_output_is_sorted(project):
    (project / "a_first.py").write_text(BROKEN)
    result = run("check", "-q")
    files = [line.split(":")[0] for line in result.output.splitlines()]
    assert files == ["a_first.py"] * 3 + ["model.py"] * 3
    rows = [tuple(map(int, line.split(":")[1:3])) for line in result.output.splitlines()]
    assert rows[:3] == sorted(rows[:3])


def test_exit_zero(project):
    assert run("check", "--exit-zero", "model.py").exit_code == 0


def test_select_ignore_extend_select_by_code_and_prefix(project):
    def codes(*args):
        out = run("check", "--output-format", "json", *args, "model.py").output
        return sorted(f["code"] for f in json.loads(out))

    assert codes() == ["JIT201", "JIT301", "JIT401"]
    assert codes("--select", "JIT3") == ["JIT301"]
    assert codes("--select", "JIT3,JIT401") == ["JIT301", "JIT401"]
    assert codes("--ignore", "JIT4") == ["JIT201", "JIT301"]
    assert codes("--select", "JIT3", "--extend-select", "JIT201") == ["JIT201", "JIT301"]
    # the more specific selector wins, whichever list it is in
    assert codes("--select", "JIT4", "--ignore", "JIT") == ["JIT401"]
    assert codes("--select", "JIT", "--ignore", "JIT40") == ["JIT201", "JIT301"]
    assert codes("--ignore", "JIT", "--extend-select", "JIT301") == ["JIT301"]


def test_unknown_selector_is_a_usage_error(project):
    result = run("check", "--select", "JIT999", "model.py")
    assert result.exit_code == 2
    assert result.output.strip() == "jitlint: error: unknown rule selector: `JIT999`"


def test_json_contract(project):
    result = run("check", "--output-format", "json", "model.py")
    findings = json.loads(result.output)
    assert [set(f) for f in findings] == [JSON_KEYS] * 3
    first = findings[0]
    assert first == {
        "code": "JIT201",
        "name": "unannotated-nontensor-default",
        "message": first["message"],
        "severity": "error",
        "filename": "model.py",
        "location": {"row": 10, "column": 26},
        "end_location": {"row": 10, "column": 31},
        "fix": {
            "applicability": "safe",
            "message": "annotate `scale: float`",
            "edits": [
                {"content": "scale: float = ", "location": {"row": 10, "column": 26}, "end_location": {"row": 10, "column": 32}},
            ],
        },
        "url": (Path(__file__).resolve().parents[1] / "rules" / "script" / "JIT201.md").as_uri(),
        "confirmation": None,
        "captured_from": [{"function": "M.forward", "filename": "model.py", "row": 10, "reason": "forward of M",
                           "defined_at": {"filename": "model.py", "row": 10}}],
    }
    assert run("check", "--output-format", "json", "clean.py").output == "[]\n"


def test_json_is_written_a_finding_at_a_time_as_one_document(project, monkeypatch):
    """The report is written in pieces (a run with many findings does not hold all its text at once); the JSON is
    still exactly one `json.dumps(..., indent=2)` of the findings, whatever the batch size."""
    from jitlint import cli

    (project / "other.py").write_text(BROKEN)
    whole = run("check", "--output-format", "json", ".").output
    findings = json.loads(whole)
    assert len(findings) == 6
    assert whole == json.dumps(findings, indent=2) + "\n"
    original = cli._Output.__init__
    monkeypatch.setattr(cli._Output, "__init__", lambda self, path, color, batch_chars=0: original(self, path, color, 100))
    assert run("check", "--output-format", "json", ".").output == whole
    assert run("check", "--output-format", "json", "clean.py").output == "[]\n"
    assert run("check", "model.py").output.splitlines()[-2] == "Found 3 findings in 1 file (3 errors)."


def test_json_lines_and_github(project):
    lines = run("check", "--output-format", "json-lines", "model.py").output.splitlines()
    assert [json.loads(line)["code"] for line in lines] == ["JIT201", "JIT401", "JIT301"]
    github = run("check", "--output-format", "github", "model.py").output.splitlines()
    assert github[0] == (
        "::error title=jitlint (JIT201),file=model.py,line=10,col=26,endLine=10,endColumn=31::model.py:10:26: "
        "JIT201 parameter `scale` has a float default but no annotation; TorchScript assumes an unannotated "
        "parameter is a Tensor. Annotate it: `scale: float = ...`"
    )


def test_statistics(project):
    (project / "other.py").write_text(BROKEN)
    result = run("check", "--statistics", ".")
    assert result.output.splitlines() == ["2\tJIT201\t[*]\tunannotated-nontensor-default",
                                          "2\tJIT301\t   \tmodulelist-index-variable", "2\tJIT401\t   \tno-numpy"]
    assert result.exit_code == 1


def test_stdin_with_filename_as_editors_call_it(project):
    result = run("check", "--output-format", "json", "--stdin-filename", "pkg/model.py", "-", input=BROKEN)
    findings = json.loads(result.output)
    assert {f["filename"] for f in findings} == {"pkg/model.py"}
    assert len(findings) == 3 and result.exit_code == 1
    bare = run("check", "-", input=CLEAN)
    assert (bare.exit_code, bare.output) == (0, "All checks passed!\n")


def test_stdin_replaces_the_file_on_disk(project):
    result = run("check", "-q", "--stdin-filename", "model.py", "-", input=CLEAN)
    assert (result.exit_code, result.output) == (0, "")


def test_noqa_and_file_level_opt_out(project):
    source = BROKEN.replace("y = x.numpy()", "y = x.numpy()  # noqa: JIT401").replace(
        "return self.layers[i](x) * scale", "return self.layers[i](x) * scale  # noqa"
    )
    (project / "model.py").write_text(source)
    assert [f["code"] for f in json.loads(run("check", "--output-format", "json", "model.py").output)] == ["JIT201"]
    # a noqa for another code does not suppress
    (project / "model.py").write_text(BROKEN.replace("y = x.numpy()", "y = x.numpy()  # noqa: JIT301"))
    assert "JIT401" in run("check", "model.py").output
    (project / "model.py").write_text("# jitlint: noqa\n" + BROKEN)
    assert run("check", "model.py").exit_code == 0
    (project / "model.py").write_text("# jitlint: noqa: JIT401, JIT201\n" + BROKEN)
    assert [f["code"] for f in json.loads(run("check", "--output-format", "json", "model.py").output)] == ["JIT301"]


def test_pyproject_configuration(project):
    (project / "pyproject.toml").write_text(textwrap.dedent("""\
        [tool.jitlint]
        ignore = ["JIT201"]
        per-file-ignores = {"legacy/*.py" = ["JIT4"]}
        exclude = ["generated"]
    """))
    (project / "legacy").mkdir()
    (project / "legacy" / "old.py").write_text(BROKEN)
    (project / "generated").mkdir()
    (project / "generated" / "gen.py").write_text(BROKEN)
    findings = json.loads(run("check", "--output-format", "json", ".").output)
    assert sorted((f["filename"], f["code"]) for f in findings) == [
        ("legacy/old.py", "JIT301"), ("model.py", "JIT301"), ("model.py", "JIT401"),
    ]
    # an excluded file passed explicitly is linted, unless --force-exclude (pre-commit passes files one by one)
    assert run("check", "generated/gen.py").exit_code == 1
    assert run("check", "--force-exclude", "generated/gen.py").exit_code == 0
    # the command line extends the configuration
    assert run("check", "--select", "JIT201", "model.py").exit_code == 0


@pytest.mark.parametrize(
    "table, message",
    [
        ('[tool.jitlint]\nselct = ["JIT3"]\n', "unknown key in [tool.jitlint]: `selct`"),
        ('[tool.jitlint]\nselect = ["JIT8"]\n', "unknown rule selector: `JIT8`"),
        ('[tool.jitlint]\nper-file-ignores = {"a.py" = ["JIT999"]}\n',
         "unknown rule selector in `per-file-ignores` for `a.py`: `JIT999`"),
        ('[tool.jitlint]\nper-file-ignores = {"legacy/*.py" = ["JIT4", "JIT8"]}\n',
         "unknown rule selector in `per-file-ignores` for `legacy/*.py`: `JIT8`"),
        ('[tool.jitlint]\nselect = "JIT3"\n', "`select` in [tool.jitlint] must be a list of strings"),
        ("[tool.jitlint\n", "cannot read configuration"),
    ],
)
def test_configuration_errors_exit_2_with_one_line(project, table, message):
    (project / "pyproject.toml").write_text(table)
    result = run("check", "model.py")
    assert result.exit_code == 2
    assert len(result.output.strip().splitlines()) == 1 and message in result.output


def test_discovery_skips_vcs_venvs_and_build_output(project):
    for directory in (".git", ".venv", "build", "node_modules", "env_custom"):
        (project / directory).mkdir()
        (project / directory / "bad.py").write_text(BROKEN)
    (project / "env_custom" / "pyvenv.cfg").write_text("home = /usr\n")
    (project / "pkg.egg-info").mkdir()
    (project / "pkg.egg-info" / "bad.py").write_text(BROKEN)
    (project / "stub.pyi").write_text("")
    files = {line.split(":")[0] for line in run("check", "-q", ".").output.splitlines()}
    assert files == {"model.py"}


def test_unparsable_and_missing_files_are_reported_and_the_run_goes_on(project):
    (project / "broken_syntax.py").write_text("def f(:\n    pass\n")
    (project / "latin1.py").write_bytes(b"x = '\xe9'\n")
    result = run("check", "--output-format", "json", ".", "missing.py")
    findings = json.loads(result.output)
    summary = [(f["filename"], f["code"]) for f in findings]
    assert ("broken_syntax.py", "JIT001") in summary
    assert ("latin1.py", "JIT002") in summary
    assert ("missing.py", "JIT002") in summary
    assert ("model.py", "JIT301") in summary
    assert result.exit_code == 1


def test_rule_and_rules_commands():
    page = run("rule", "JIT301")
    assert page.exit_code == 0 and page.output.startswith("# JIT301 `modulelist-index-variable`")
    assert run("rule", "modulelist-index-variable").output == page.output
    assert run("rule", "JIT999").exit_code == 2
    listing = run("rules").output.splitlines()
    assert any(line.startswith("JIT000  compiler-error") for line in listing)  # every target's codes, sorted
    assert [line.split()[0] for line in listing] == sorted(line.split()[0] for line in listing)
    assert any(line.startswith("JIT301  modulelist-index-variable") for line in listing)
    assert len(json.loads(run("rules", "--output-format", "json").output)) == len(listing)


def test_python_dash_m_and_the_static_path_never_imports_torch(project):
    """The static path must not pay for `import torch` (seconds), nor import the linted code."""
    (project / "evil.py").write_text("import pathlib\npathlib.Path('imported-marker').write_text('x')\n" + BROKEN)
    probe = (
        "import sys\n"
        "from jitlint.cli import main\n"
        "sys.argv = ['jitlint', 'check', '-q', '--no-cache', '.']\n"
        "try:\n    main()\n"
        "except SystemExit as e:\n    code = e.code\n"
        "print('TORCH-IMPORTED' if 'torch' in sys.modules else 'TORCH-NOT-IMPORTED', code)\n"
    )
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=project)
    assert result.stdout.strip().endswith("TORCH-NOT-IMPORTED 1"), result.stdout + result.stderr
    assert "evil.py:" in result.stdout
    assert not (project / "imported-marker").exists()
    # `python -m jitlint` is the console script: same output, same exit code (it leaves through os._exit).
    module = subprocess.run([sys.executable, "-m", "jitlint", "check", "-q", "--no-cache", "."], capture_output=True,
                            text=True, cwd=project)
    assert module.returncode == 1 and "evil.py:" in module.stdout, module.stdout + module.stderr
    assert module.stdout.strip() == result.stdout.strip().rsplit("\n", 1)[0].strip()


def test_the_wheel_ships_the_rule_pages_and_the_api_table(tmp_path):
    """`jitlint rule` must work from an installed wheel, not only from a checkout."""
    import zipfile

    result = subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(tmp_path),
                             str(Path(__file__).resolve().parents[1])], capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr
    [wheel] = tmp_path.glob("jitlint-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    from jitlint.rules import RULES

    shipped = {name.rsplit("/", 1)[-1] for name in names if name.startswith("jitlint/_pages/")}
    assert {f"{rule.code}.md" for rule in RULES} <= shipped
    assert "jitlint/data/unsupported.toml" in names and "jitlint/confirm/child.py" in names


def test_missing_rule_pages_are_one_line_not_a_traceback(project, monkeypatch):
    from jitlint import pages

    monkeypatch.setattr(pages, "pages_dir", lambda: project / "no-rules")
    pages.page_path.cache_clear()
    try:
        result = run("check", "model.py")
        assert pages.page_path("JIT201") == project / "no-rules" / "JIT201.md"  # where it would be, not an error
    finally:
        pages.page_path.cache_clear()
    assert result.exit_code == 2
    assert result.output.splitlines() == [
        f"jitlint: error: the rule pages are missing: no directory {project / 'no-rules'} (a source checkout needs "
        "`rules/` beside `src/`; an installed jitlint, `jitlint/_pages/`)"]
