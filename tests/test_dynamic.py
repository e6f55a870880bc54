"""The dynamic checker (`--dynamic`) end to end: real worker processes, real torch.jit.script.

Most scenarios share one run over a temporary project (each run starts torch in its workers), and the assertions
read its JSON output.
"""

import json
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from jitlint import pages

pytestmark = pytest.mark.torch
ROOT = Path(__file__).resolve().parents[1]
HEADER = "import torch\nimport torch.nn as nn\n\n\n"

PROJECT = {
    "pyproject.toml": """
        [tool.jitlint.dynamic]
        timeout = 10
        factories = { "models.configurable:Gated" = "models.factories:make_gated" }
    """,
    "models/__init__.py": "",
    "models/factories.py": """
        from models.configurable import Gated

        def make_gated():
            return Gated(flag=False)
    """,
    # Needs arguments: unverified, naming them.
    "models/needs_args.py": HEADER + textwrap.dedent("""
        class Block(nn.Module):
            def __init__(self, in_ch, out_ch):
                super().__init__()
                self.lin = nn.Linear(in_ch, out_ch)

            def forward(self, x):
                return x.numpy()
    """),
    # Built by the configured factory with flag=False: torch prunes the Final branch, so the static error is
    # not reproduced (jitlint cannot know the flag without the factory).
    "models/configurable.py": HEADER + textwrap.dedent("""
        from typing import Final

        class Gated(nn.Module):
            flag: Final[bool]

            def __init__(self, flag):
                super().__init__()
                self.flag = flag

            def forward(self, x):
                if self.flag:
                    return getattr(self, "n" + "orm")(x)
                return x
    """),
    # No static rule sees this type error; torch does: a finding of its own (JIT000), confirmed.
    "models/compiler_only.py": HEADER + textwrap.dedent("""
        class Select(nn.Module):
            def forward(self, x):
                return torch.nn.utils.rnn.pad_sequence([x], "a")  # compiled from torch's source: untyped here
    """),
    # A flow rule's finding (JIT208, line 11) is confirmed only by an error at its own statement: torch's first
    # error is at line 8 of the same function, which no static rule explains (a JIT000 of its own).
    "models/flow_elsewhere.py": HEADER + textwrap.dedent("""
        class Two(nn.Module):
            def forward(self, x) -> torch.Tensor:
                y = torch.nn.utils.rnn.pad_sequence([x], "a")
                if x.sum() > 0:
                    return x
                return None
    """),
    # Hostile code: each costs only its own file.
    "hostile/exits.py": HEADER + "import sys\nsys.exit(3)\n\nclass A(nn.Module):\n    def forward(self, x):\n        return x.numpy()\n",
    "hostile/crashes.py": HEADER + "import os\nos._exit(7)\n\nclass B(nn.Module):\n    def forward(self, x):\n        return x.numpy()\n",
    "hostile/hangs.py": HEADER + "while True:\n    pass\n\nclass C(nn.Module):\n    def forward(self, x):\n        return x.numpy()\n",
    "hostile/segfaults.py": HEADER + "import ctypes\nctypes.string_at(0)\n\nclass E(nn.Module):\n    def forward(self, x):\n        return x.numpy()\n",
    "hostile/moves.py": HEADER + textwrap.dedent("""
        import os
        import sys
        os.chdir("/")
        for name in [n for n in sys.modules if n.startswith(("json", "torch.jit._recursive"))]:
            del sys.modules[name]

        class F(nn.Module):
            def forward(self, x):
                return x.numpy()
    """),
    "hostile/chatty.py": HEADER + textwrap.dedent("""
        import os
        print("[1, 2, {not json", flush=True)
        os.write(1, b"raw bytes on fd 1\\n" * 200_000)
        os.write(2, b"raw bytes on fd 2\\n" * 200_000)

        class D(nn.Module):
            def __init__(self):
                super().__init__()
                print("building D " * 100)

            def forward(self, x):
                return x.numpy()
    """),
}


# The script confirmer verifies the pages of the script target (and the shared ones); other targets' pages have
# their own capture and confirmer.
SCRIPT_PAGES = [page for page in pages.all_pages() if page.target in ("script", "shared")]


def _pages_files() -> dict[str, str]:
    files = {}
    for page in SCRIPT_PAGES:
        if page.torch_verdict in ("rejects", "accepts"):
            files[f"pages/{page.code.lower()}_bad.py"] = page.bad
            files[f"pages/{page.code.lower()}_good.py"] = page.good
    return files


def run_jitlint(*args, cwd: Path, timeout: float = 600) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "jitlint", "check", *args], cwd=cwd, capture_output=True, text=True, timeout=timeout
    )


@pytest.fixture(scope="module")
def dynamic_run(tmp_path_factory):
    root = tmp_path_factory.mktemp("project")
    for name, source in {**PROJECT, **_pages_files()}.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(source) if name.endswith(".toml") or name.endswith("factories.py") else source)
    started = time.monotonic()
    result = run_jitlint("--dynamic", "--output-format", "json", ".", cwd=root)
    elapsed = time.monotonic() - started
    findings = json.loads(result.stdout)  # must be valid JSON whatever the user's code printed
    return root, result, findings, elapsed


def by_file(findings, name):
    return [f for f in findings if f["filename"] == name]


def test_every_page_bad_example_is_confirmed_and_good_is_silent(dynamic_run):
    _root, _result, findings, _elapsed = dynamic_run
    for page in SCRIPT_PAGES:
        if page.torch_verdict not in ("rejects", "accepts"):
            continue
        bad = [f for f in by_file(findings, f"pages/{page.code.lower()}_bad.py") if f["code"] == page.code]
        assert bad, page.code
        expected = "confirmed" if page.torch_verdict == "rejects" else "not-reproduced"
        assert {f["confirmation"]["status"] for f in bad} == {expected}, (page.code, bad[0]["confirmation"])
        assert by_file(findings, f"pages/{page.code.lower()}_good.py") == [], page.code


def test_confirmation_fields(dynamic_run):
    _root, _result, findings, _elapsed = dynamic_run
    confirmed = next(f for f in findings if f["filename"] == "pages/jit301_bad.py")
    assert set(confirmed["confirmation"]) == {"status", "detail", "torch_version"}
    assert confirmed["confirmation"]["torch_version"] == "2.13.0"
    assert "Expected integer literal for index" in confirmed["confirmation"]["detail"]


def test_constructor_arguments_make_findings_unverified(dynamic_run):
    _root, _result, findings, _elapsed = dynamic_run
    [finding] = by_file(findings, "models/needs_args.py")
    assert finding["confirmation"]["status"] == "unverified"
    assert "needs constructor arguments: in_ch, out_ch" in finding["confirmation"]["detail"]


def test_factory_builds_the_module_and_a_static_error_torch_accepts_is_a_warning(dynamic_run):
    _root, _result, findings, _elapsed = dynamic_run
    [finding] = by_file(findings, "models/configurable.py")
    assert finding["code"] == "JIT306"
    assert finding["confirmation"]["status"] == "not-reproduced"
    assert finding["severity"] == "warning"  # shown as a warning; it does not fail the run


def test_what_only_torch_sees_is_reported_as_its_own_finding(dynamic_run):
    _root, _result, findings, _elapsed = dynamic_run
    [finding] = by_file(findings, "models/compiler_only.py")
    assert (finding["code"], finding["location"]["row"]) == ("JIT000", 8)
    assert finding["confirmation"]["status"] == "confirmed"
    assert "torch.jit.script rejects this: pad_sequence(" in finding["message"]  # the schema torch's message names


def test_a_flow_finding_is_not_confirmed_by_an_error_elsewhere_in_its_function(dynamic_run):
    _root, _result, findings, _elapsed = dynamic_run
    found = {(f["code"], f["location"]["row"]): f for f in by_file(findings, "models/flow_elsewhere.py")}
    assert set(found) == {("JIT000", 8), ("JIT208", 11)}
    assert found["JIT000", 8]["confirmation"]["status"] == "confirmed"
    assert found["JIT208", 11]["confirmation"]["status"] == "unverified"
    assert "masked: torch stopped at another error" in found["JIT208", 11]["confirmation"]["detail"]


@pytest.mark.parametrize(
    "name, reason",
    [
        ("hostile/exits.py", "importing it failed: exit(3)"),
        ("hostile/crashes.py", "ended the checker process (exit status 7)"),
        ("hostile/hangs.py", "timed out after 10 s"),
        ("hostile/segfaults.py", "crashed the checker process (signal 11)"),
    ],
)
def test_hostile_code_costs_only_its_own_file(dynamic_run, name, reason):
    _root, _result, findings, _elapsed = dynamic_run
    [finding] = by_file(findings, name)
    assert finding["confirmation"]["status"] == "unverified"
    assert reason in finding["confirmation"]["detail"]


def test_code_that_moves_the_cwd_or_deletes_modules_is_still_confirmed(dynamic_run):
    _root, _result, findings, _elapsed = dynamic_run
    [finding] = by_file(findings, "hostile/moves.py")
    assert finding["confirmation"]["status"] == "confirmed"
    # and the files checked after it in the same worker are confirmed as usual
    assert all(f["confirmation"]["status"] == "confirmed" for f in findings if f["filename"].startswith("pages/jit4"))


def test_user_output_goes_to_the_log_not_to_jitlint_output(dynamic_run):
    root, result, findings, _elapsed = dynamic_run
    [finding] = by_file(findings, "hostile/chatty.py")
    assert finding["confirmation"]["status"] == "confirmed"
    assert "raw bytes" not in result.stdout and "raw bytes" not in result.stderr
    log = (root / ".jitlint_cache" / "dynamic" / "user-output.log").read_text()
    assert "raw bytes on fd 1" in log and "building D" in log
    assert log.count("raw bytes on fd") >= 400_000  # 7 MB went to the log, none into the JSON


def test_exit_code_strict_and_cache(dynamic_run):
    root, result, _findings, elapsed = dynamic_run
    assert result.returncode == 1
    assert "executes your code (enabled by" not in result.stderr  # turned on by the flag, not by configuration
    # A second run answers from the cache: same findings, much faster (the hanging file is not cached).
    started = time.monotonic()
    again = run_jitlint("--dynamic", "--output-format", "json", "models", "pages", cwd=root)
    assert time.monotonic() - started < elapsed
    first = [f for f in json.loads(result.stdout) if f["filename"].startswith(("models/", "pages/"))]
    assert json.loads(again.stdout) == first
    # --strict: the not-reproduced error fails the run and stays an error
    strict = run_jitlint("--dynamic", "--strict", "--output-format", "json", "models/configurable.py", cwd=root)
    [finding] = json.loads(strict.stdout)
    assert (strict.returncode, finding["severity"]) == (1, "error")
    lenient = run_jitlint("--dynamic", "models/configurable.py", cwd=root)
    assert lenient.returncode == 0, lenient.stdout


def test_configuration_can_enable_it_and_says_so(tmp_path):
    (tmp_path / "pyproject.toml").write_text("[tool.jitlint.dynamic]\nenabled = true\n")
    (tmp_path / "m.py").write_text(HEADER + "class M(nn.Module):\n    def forward(self, x):\n        return x.numpy()\n")
    result = run_jitlint("--no-cache", "m.py", cwd=tmp_path)
    assert "executes your code (enabled by [tool.jitlint.dynamic] in" in result.stderr
    assert "(confirmed by torch 2.13.0)" in result.stdout


def test_without_torch_it_exits_2_naming_the_package(tmp_path):
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    (tmp_path / "pyproject.toml").write_text(f'[tool.jitlint.dynamic]\npython = "{venv / "bin" / "python"}"\n')
    (tmp_path / "m.py").write_text(HEADER + "class M(nn.Module):\n    def forward(self, x):\n        return x\n")
    result = run_jitlint("--dynamic", "m.py", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and "needs the package `torch`" in result.stderr
    assert "Traceback" not in result.stderr
