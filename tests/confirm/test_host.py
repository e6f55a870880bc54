"""The confirmer host (`jitlint.confirm`): child processes, time limits, crash and output isolation, import-and-build,
example inputs, the retry loop, the cache, and what a run says; end to end through the script strategy (the
default target) and directly with a strategy written here."""

import ast
import importlib
import json
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from .project import HEADER, ROOT, by_file, run_jitlint, write_project
from jitlint.confirm import FileRequest, Results, Root
from jitlint.confirm.pool import CHILD, run_requests
from jitlint.targets import all_targets

pytestmark = pytest.mark.torch


def test_confirmation_fields(shared_run):
    _root, _result, findings, _elapsed = shared_run
    confirmed = next(f for f in findings if f["filename"] == "pages/jit301_bad.py")
    assert set(confirmed["confirmation"]) == {"status", "detail", "torch_version"}
    assert confirmed["confirmation"]["torch_version"] == "2.13.0"
    assert "Expected integer literal for index" in confirmed["confirmation"]["detail"]


def test_constructor_arguments_make_findings_unverified(shared_run):
    _root, _result, findings, _elapsed = shared_run
    [finding] = by_file(findings, "models/needs_args.py")
    assert finding["confirmation"]["status"] == "unverified"
    assert "needs constructor arguments: in_ch, out_ch" in finding["confirmation"]["detail"]


def test_factory_builds_the_module_and_a_static_error_torch_accepts_is_a_warning(shared_run):
    _root, _result, findings, _elapsed = shared_run
    [finding] = by_file(findings, "models/configurable.py")
    assert finding["code"] == "JIT306"
    assert finding["confirmation"]["status"] == "not-reproduced"
    assert finding["severity"] == "warning"  # shown as a warning; it does not fail the run


@pytest.mark.parametrize(
    "name, reason",
    [
        ("hostile/exits.py", "importing it failed: exit(3)"),
        ("hostile/crashes.py", "ended the checker process (exit status 7)"),
        ("hostile/hangs.py", "timed out after 10 s"),
        ("hostile/segfaults.py", "crashed the checker process (signal 11)"),
    ],
)
def test_hostile_code_costs_only_its_own_file(shared_run, name, reason):
    _root, _result, findings, _elapsed = shared_run
    [finding] = by_file(findings, name)
    assert finding["confirmation"]["status"] == "unverified"
    assert reason in finding["confirmation"]["detail"]


def test_code_that_moves_the_cwd_or_deletes_modules_is_still_confirmed(shared_run):
    _root, _result, findings, _elapsed = shared_run
    [finding] = by_file(findings, "hostile/moves.py")
    assert finding["confirmation"]["status"] == "confirmed"
    # and the files checked after it in the same child are checked as usual: each page's own rule confirmed, and
    # another rule's finding on the same statement confirmed or left for the reason torch gave there first
    pages = [f for f in findings if f["filename"].startswith("pages/jit4")]
    own = [f for f in pages if f["filename"].startswith(f"pages/{f['code'].lower()}_")]
    assert own and all(f["confirmation"]["status"] == "confirmed" for f in own)
    assert all(f["confirmation"]["status"] == "confirmed" or "for another reason" in f["confirmation"]["detail"]
               for f in pages)


def test_user_output_goes_to_the_log_not_to_jitlint_output(shared_run):
    root, result, findings, _elapsed = shared_run
    [finding] = by_file(findings, "hostile/chatty.py")
    assert finding["confirmation"]["status"] == "confirmed"
    assert "raw bytes" not in result.stdout and "raw bytes" not in result.stderr
    log = (root / ".jitlint_cache" / "dynamic" / "user-output.log").read_text()
    assert "raw bytes on fd 1" in log and "building D" in log
    assert log.count("raw bytes on fd") >= 400_000  # 7 MB went to the log, none into the JSON


def test_exit_code_strict_and_cache(shared_run):
    root, result, _findings, elapsed = shared_run
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
    (tmp_path / "m.py").write_text(
        HEADER + "class M(nn.Module):\n    def forward(self, x):\n        return x.numpy()\n")
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


def test_the_host_imports_no_target():
    """Strategies plug into the host through `Target.confirmer`; the host knows none of them."""
    code = "import sys, jitlint.confirm; print(sorted(m for m in sys.modules if m.startswith('jitlint.targets')))"
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env)
    assert result.stdout.strip() == "[]"


# -- the child side runs in the user's interpreter, which may not have jitlint or its dependencies ----------------
def _imported_roots(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


def test_every_child_side_imports_only_the_standard_library_and_torch():
    files = [CHILD]
    strategies = [t for t in all_targets().values() if ":" in t.confirmer]
    for target in strategies:
        module, _, name = target.confirmer.partition(":")
        files.append(getattr(importlib.import_module(module), name).child)
    assert len(files) == 1 + len(strategies) >= 5
    allowed = set(sys.stdlib_module_names) | {"torch", "torchvision", "__future__"}
    for path in files:
        assert _imported_roots(path) <= allowed, (path, _imported_roots(path) - allowed)


# -- a strategy written here: the host's part, without any target ---------------------------------------------------
TOY_CHILD = '''
import os
import sys

READY = None


def setup(torch):
    global READY
    READY = torch.__version__


def run(target, inputs, ctx):
    failing = list(ctx.options.get("fail", []))

    def attempt():
        for name in failing:
            raise ValueError(name)

    def explain(error, opaque):
        name = str(error)
        return {"file": None, "line": None, "message": f"fails at {name}", "kind": "toy"}, \\
            lambda: failing.remove(name) or name

    result = ctx.until_clean(attempt, explain)
    result.update(pid=os.getpid(), ready=READY is not None, kind=ctx.kind, module=ctx.module.__name__,
                  jitlint=sorted(m for m in sys.modules if m.split(".")[0] == "jitlint"),
                  width=getattr(target, "width", None),
                  inputs=None if inputs is None else [list(a.shape) for a in inputs.args],
                  again=None if inputs is None else [list(a.shape) for a in ctx.example_inputs(5).args])
    return result
'''

TOY_PROJECT = {
    "pkg/__init__.py": "",
    "pkg/models.py": HEADER + textwrap.dedent("""
        class Defaults(nn.Module):
            def __init__(self, width=3):
                super().__init__()
                self.width = width


        class NeedsArgs(nn.Module):
            def __init__(self, n, width=2):
                super().__init__()


        def helper(x):
            return x
    """),
    "pkg/examples.py": textwrap.dedent("""
        import torch

        from pkg.models import Defaults


        def make():
            return Defaults(width=7)


        def one_tensor(rows=2):
            return torch.zeros(rows, 3)


    """),
    # standalone: imported as `loose`, with its directory on sys.path
    "scripts/loose.py": HEADER + textwrap.dedent("""
        class Loose(nn.Module):
            pass


        def as_dict(size=4):
            return {"args": [torch.zeros(size)], "dynamic_shapes": None}


        def broken():
            raise RuntimeError("no data here")
    """),
}


def _toy_run(tmp_path, requests, **options):
    child = tmp_path / "toy_child.py"
    child.write_text(TOY_CHILD)
    answers = run_requests(
        requests, strategy="toy", strategy_file=child, options={}, python=sys.executable, torch_version="2.13.0",
        jitlint_version="test", timeout=120, factories={"pkg.models:Defaults": "pkg.examples:make"}, jobs=1,
        cache_dir=None, log_path=tmp_path / "log" / "user-output.log", **options)
    return Results(answers)


def test_a_strategy_gets_built_modules_inputs_and_the_retry_loop(tmp_path):
    project = write_project(tmp_path / "project", TOY_PROJECT)
    models = FileRequest(project / "pkg" / "models.py", "pkg.models", str(project), [
        Root("Defaults", inputs="pkg.examples:one_tensor", options={"fail": ["a", "b"]}),  # built by its factory
        Root("NeedsArgs"),
        Root("helper", kind="function", options={"fail": ["a", "b"], "max_attempts": 1}),  # no retry
        Root("Missing"),
    ])
    loose = FileRequest(project / "scripts" / "loose.py", "loose", str(project / "scripts"), [
        Root("Loose", inputs="loose:broken"), Root("Loose", inputs="loose:as_dict")])
    results = _toy_run(tmp_path, [models])
    outcome = results.roots[(os.path.realpath(models.path), "Defaults")]
    assert outcome.built and outcome.passed and outcome.opaque == ["a", "b"]
    assert [(o.message, o.opaque, o.kind) for o in outcome.observations] == [
        ("fails at a", "a", "toy"), ("fails at b", "b", "toy")]
    assert outcome.details["width"] == 7 and outcome.details["inputs"] == [[2, 3]]
    assert outcome.details["again"] == [[5, 3]]  # another set, from the same function
    assert outcome.details["ready"] and outcome.details["module"] == "pkg.models"
    assert outcome.details["jitlint"] == []  # the child side needs no jitlint
    needs = results.roots[(os.path.realpath(models.path), "NeedsArgs")]
    assert (needs.built, needs.reason) == (False, "needs constructor arguments: n (declare a factory)")
    helper = results.roots[(os.path.realpath(models.path), "helper")]
    assert helper.built and helper.details["kind"] == "function" and helper.details["width"] is None
    assert (helper.passed, [o.message for o in helper.observations]) == (False, ["fails at a"])
    missing = results.roots[(os.path.realpath(models.path), "Missing")]
    assert (missing.built, missing.reason) == (False, "not defined when the module is imported")

    loose_first = _toy_run(tmp_path, [loose.only(loose.roots[0])])
    [broken] = loose_first.roots.values()
    assert not broken.built
    assert broken.reason == "the example inputs (loose:broken) failed: RuntimeError: no data here"
    isolated = _toy_run(tmp_path, [loose.only(loose.roots[1]), models.only(models.roots[0])], fresh_child=True)
    shared = _toy_run(tmp_path, [loose.only(loose.roots[1]), models.only(models.roots[0])])
    [standalone] = [o for o in isolated.roots.values() if o.name == "Loose"]
    assert standalone.built and standalone.details["module"] == "loose" and standalone.details["inputs"] == [[4]]
    assert len({o.details["pid"] for o in isolated.roots.values()}) == 2  # a child per request
    assert len({o.details["pid"] for o in shared.roots.values()}) == 1  # one child answered both


def test_the_documented_example_child_side_works(tmp_path):
    """The child side the host's docstring shows (a trace strategy's) runs in the host as it says."""
    import jitlint.confirm

    doc = jitlint.confirm.__doc__
    block = doc[doc.index("    # targets/trace/confirm_child.py"):doc.index("    # targets/trace/confirm.py")]
    child = tmp_path / "trace_child.py"
    child.write_text(textwrap.dedent(block))
    project = write_project(tmp_path / "project", {"pkg/__init__.py": "", "pkg/net.py": HEADER + textwrap.dedent("""
        class Net(nn.Module):
            def forward(self, x):
                if x.sum() > 0:
                    return x
                return -x


        def inputs():
            return torch.ones(2)
    """)})
    request = FileRequest(project / "pkg" / "net.py", "pkg.net", str(project), [Root("Net", inputs="pkg.net:inputs")])
    answers = run_requests([request], strategy="trace", strategy_file=child, options={}, python=sys.executable,
                           torch_version="2.13.0", jitlint_version="test", timeout=120, factories={}, jobs=1,
                           cache_dir=None, log_path=tmp_path / "log" / "user-output.log")
    [outcome] = Results(answers).roots.values()
    assert outcome.passed, outcome
    # the `if` on a tensor, line 8 (trace runs forward again to check itself: the warning may come twice)
    assert {(o.line, o.kind) for o in outcome.observations} == {(8, "warning")}, outcome.observations
    assert "Converting a tensor to a Python boolean" in outcome.observations[0].message


def test_a_cached_answer_is_reused_only_by_the_child_code_that_gave_it(tmp_path):
    """The cache key covers the child side's code: after an edit of the strategy's child file (or a module beside
    it that it loads), the file is asked again rather than answered from what the older code cached."""
    project = write_project(tmp_path / "project", TOY_PROJECT)
    request = FileRequest(project / "pkg" / "models.py", "pkg.models", str(project),
                          [Root("Defaults", inputs="pkg.examples:one_tensor")])
    strategy_dir = tmp_path / "strategy"
    strategy_dir.mkdir()
    child = strategy_dir / "confirm_child.py"
    child.write_text(TOY_CHILD)

    def run():
        answers = run_requests(
            [request], strategy="toy", strategy_file=child, options={}, python=sys.executable,
            torch_version="2.13.0", jitlint_version="test", timeout=120,
            factories={"pkg.models:Defaults": "pkg.examples:make"}, jobs=1, cache_dir=tmp_path / "cache",
            log_path=tmp_path / "log" / "user-output.log")
        [answer] = answers
        return answer.cached

    assert run() is False
    assert run() is True  # same code: the cache answers
    (strategy_dir / "confirm_helpers.py").write_text("# a module the child side loads by path\n")
    assert run() is False  # a sibling changed: asked again
    assert run() is True
    child.write_text(TOY_CHILD + "\n# edited\n")
    assert run() is False  # the child file changed: asked again
