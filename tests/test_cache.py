"""The static cache (`.jitlint_cache/static/`) and parallel workers (`--jobs`): a cached or parallel run must print
exactly what a cold one-job run prints, and must notice every change that could alter it."""

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

from jitlint import engine, pipeline
from jitlint.cli import main
from jitlint.codes import CODES
from jitlint.config import Config
from jitlint.rules import RULES, RULES_BY_CODE
from jitlint.targets import policy_class

# The codes whose capture policies let a run be split across workers (a policy that follows values through call
# sites across files, `needs_one_process`, keeps the run in one process).
SPLITTABLE = {code for code, rule in RULES_BY_CODE.items()
              if rule.policy is None or not getattr(policy_class(rule.policy), "needs_one_process", False)}

ROOT = Path(__file__).resolve().parents[1]

HELPER_USER = textwrap.dedent("""\
    import torch.nn as nn
    from pkg.helpers import to_array


    class M(nn.Module):
        def forward(self, x):
            return to_array(x)
""")
HELPERS = "def to_array(x):\n    return x.numpy()\n"
BASE = textwrap.dedent("""\
    import torch.nn as nn


    class Base(nn.Module):
        def __init__(self):
            super().__init__()
            self.layers = nn.ModuleList([nn.Linear(2, 2)])
""")
CHILD = textwrap.dedent("""\
    from pkg.base import Base


    class Child(Base):
        def forward(self, x, i: int):
            return self.layers[i](x)
""")


def check(*args, cwd: Path):
    """The CLI in this process, as users run it; returns (exit code, output, the modules it imported)."""
    before = set(sys.modules)
    result = CliRunner().invoke(main, ["check", "--output-format", "concise", *args], catch_exceptions=False)
    return result.exit_code, result.output, set(sys.modules) - before


@pytest.fixture
def package(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pyproject.toml").write_text("[tool.jitlint]\n")
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "model.py").write_text(HELPER_USER)
    (pkg / "helpers.py").write_text(HELPERS)
    (pkg / "base.py").write_text(BASE)
    (pkg / "child.py").write_text(CHILD)
    return tmp_path


def test_the_code_table_matches_the_rules():
    assert CODES == {rule.code: (rule.name, rule.severity, rule.target, rule.fix) for rule in RULES}


def test_warm_run_prints_the_same_and_writes_a_marked_cache(package):
    cold = check("pkg", cwd=package)
    assert cold[0] == 1 and "helpers.py:2:12: JIT401" in cold[1] and "child.py:6:16: JIT301" in cold[1]
    cache = package / ".jitlint_cache"
    entries = sorted((cache / "static").rglob("*.json"))
    assert len(entries) == 5  # one per linted file
    assert (cache / ".gitignore").read_text().strip().endswith("*")
    assert "jitlint" in (cache / "CACHEDIR.TAG").read_text()
    warm = check("pkg", cwd=package)
    assert warm[:2] == cold[:2]
    assert check("pkg", "--no-cache", cwd=package)[:2] == cold[:2]
    for output_format in ("json", "full", "sarif"):  # the cached findings keep everything the reports show
        def render(*extra):
            return CliRunner().invoke(main, ["check", "--output-format", output_format, *extra, "pkg"]).output

        assert render() == render("--no-cache")


def test_a_cache_hit_does_not_import_libcst(package):
    probe = textwrap.dedent("""\
        import sys
        from jitlint.cli import main
        sys.argv = ["jitlint", "check", "-q", "pkg"]
        try:
            main()
        except SystemExit as exit:
            print("EXIT", exit.code, "LIBCST" if "libcst" in sys.modules else "NO-LIBCST")
    """)

    def run():
        return subprocess.run([sys.executable, "-c", probe], cwd=package, capture_output=True, text=True).stdout

    cold, warm = run(), run()
    assert cold.endswith("EXIT 1 LIBCST\n"), cold
    assert warm.endswith("EXIT 1 NO-LIBCST\n"), warm
    assert cold.replace("NO-LIBCST", "LIBCST") == warm.replace("NO-LIBCST", "LIBCST")


def test_editing_a_file_another_file_depends_on_is_seen(package):
    assert "helpers.py:2:12: JIT401" in check("pkg", cwd=package)[1]
    # model.py no longer calls the helper: helpers.py's own content did not change, but it is no longer compiled.
    (package / "pkg" / "model.py").write_text(HELPER_USER.replace("return to_array(x)", "return x"))
    assert "helpers.py" not in check("pkg", cwd=package)[1]


def test_editing_a_module_read_on_demand_is_seen(package):
    # Only child.py is linted; base.py is read on demand to learn that `self.layers` is a ModuleList.
    first = check("pkg/child.py", cwd=package)
    assert "child.py:6:16: JIT301" in first[1]
    (package / "pkg" / "base.py").write_text(BASE.replace("nn.ModuleList([nn.Linear(2, 2)])", "[1, 2]"))
    second = check("pkg/child.py", cwd=package)
    assert "JIT301" not in second[1]
    assert second == (second[0], check("pkg/child.py", "--no-cache", cwd=package)[1], second[2])


def test_configuration_is_part_of_the_key(package):
    assert "JIT401" in check("pkg", cwd=package)[1]
    (package / "pyproject.toml").write_text("[tool.jitlint]\nignore = [\"JIT401\"]\n")
    assert "JIT401" not in check("pkg", cwd=package)[1]
    assert "JIT401" not in check("pkg", cwd=package)[1]  # and from the cache


def test_corrupt_entries_are_ignored(package):
    expected = check("pkg", cwd=package)[:2]
    entries = sorted((package / ".jitlint_cache" / "static").rglob("*.json"))
    entries[0].write_text("{not json")
    entries[1].write_bytes(b"\xff\xfe\x00")
    entries[2].write_text(json.dumps({"key": "x"}))
    assert check("pkg", cwd=package)[:2] == expected
    # The run rewrote them, so the next run is served from the cache again.
    assert check("pkg", cwd=package)[2].isdisjoint({"libcst", "jitlint.engine"})


def test_cache_dir_no_cache_and_clean(package, tmp_path_factory):
    elsewhere = tmp_path_factory.mktemp("elsewhere") / "cache"
    check("pkg", "--no-cache", cwd=package)
    assert not (package / ".jitlint_cache").exists()
    check("pkg", "--cache-dir", str(elsewhere), cwd=package)
    assert not (package / ".jitlint_cache").exists() and list((elsewhere / "static").rglob("*.json"))
    result = CliRunner().invoke(main, ["clean", "--cache-dir", str(elsewhere)])
    assert result.exit_code == 0 and not elsewhere.exists()
    check("pkg", cwd=package)
    assert CliRunner().invoke(main, ["clean"]).exit_code == 0
    assert not (package / ".jitlint_cache").exists()
    # A directory that is not a jitlint cache is never deleted.
    precious = package / "precious"
    precious.mkdir()
    (precious / "thesis.tex").write_text("x")
    refused = CliRunner().invoke(main, ["clean", "--cache-dir", str(precious)])
    assert refused.exit_code == 2 and "does not look like a jitlint cache" in refused.output
    assert (precious / "thesis.tex").exists()


def test_two_runs_sharing_a_cache_at_once(package):
    expected = check("pkg", "--no-cache", cwd=package)[1]
    command = [sys.executable, "-m", "jitlint", "check", "--output-format", "concise", "pkg"]
    runs = [subprocess.Popen(command, cwd=package, stdout=subprocess.PIPE, text=True) for _ in range(3)]
    outputs = [process.communicate(timeout=120)[0] for process in runs]
    assert outputs == [expected] * 3
    assert check("pkg", cwd=package)[1] == expected
    assert not list((package / ".jitlint_cache" / "static").rglob("*.tmp"))


# -- parallel workers ---------------------------------------------------------------------------------------------
def test_jobs_give_the_same_findings_in_the_same_order(tmp_path, monkeypatch):
    """Every fixture, plus copies under other names so that there are enough files to split."""
    for path in sorted((ROOT / "fixtures").rglob("*.py")):
        relative = path.relative_to(ROOT / "fixtures")
        for copy in range(3):
            target = tmp_path / f"copy{copy}" / relative
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(path.read_text())
    config = Config(root=tmp_path)
    used = []
    real = pipeline.run_split
    monkeypatch.setattr(pipeline, "run_split", lambda job, shares, *rest: used.append(len(shares)) or real(
        job, shares, *rest))
    one = engine.lint_run([tmp_path], config, SPLITTABLE, jobs=1)
    two = engine.lint_run([tmp_path], config, SPLITTABLE, jobs=2)
    assert used == [2]  # the second run really was split across two workers
    assert two.project is None and one.project is not None
    assert len(one.findings) > 20
    assert [f.to_json() for f in two.findings] == [f.to_json() for f in one.findings]
    # The dynamic checker needs the model: then the run stays in one process, findings pointing into it.
    kept = engine.lint_run([tmp_path], config, SPLITTABLE, jobs=2, keep_model=True)
    assert used == [2]
    assert [f.to_json() for f in kept.findings] == [f.to_json() for f in one.findings]
    functions = {id(function) for captured in kept.captured.values() for function in captured.functions.values()}
    with_function = [f for f in kept.findings if f.context is not None and f.context.function is not None]
    assert with_function and all(id(f.context.function) in functions for f in with_function)


# Findings that exist only because of another file: a helper compiled because another file's forward calls it
# (and calls it without its None-default parameter: JIT204 names that caller; the helper passes a list to another
# function's unannotated parameter: JIT202 needs the call resolved in the helper's worker), and a base-class forward that
# indexes a ModuleList the subclass in another file creates (the subclass is the owner that makes it one).
ACROSS = {
    "pkg/__init__.py": "",
    "pkg/helpers.py": textwrap.dedent("""\
        def helper(x, scale=None):
            x = x.relu()
            y = second([x, x])
            return x.numpy()


        def second(xs):
            return xs[0]
    """),
    "pkg/base.py": textwrap.dedent("""\
        import torch.nn as nn


        class Base(nn.Module):
            def forward(self, x, i: int):
                return self.blocks[i](x)
    """),
    "pkg/net.py": textwrap.dedent("""\
        import torch.nn as nn
        from pkg.base import Base
        from pkg.helpers import helper


        class Net(Base):
            def __init__(self):
                super().__init__()
                self.blocks = nn.ModuleList([nn.Linear(2, 2)])


        class User(nn.Module):
            def forward(self, x):
                return helper(x)
    """),
    **{f"pkg/filler{n}.py": f"X{n} = {n}\n" for n in range(4)},
}


@pytest.mark.parametrize("split", [
    [["pkg/helpers.py", "pkg/base.py"], ["pkg/net.py"]],
    [["pkg/net.py", "pkg/helpers.py"], ["pkg/base.py"]],
    [["pkg/helpers.py"], ["pkg/base.py"], ["pkg/net.py"]],
])
def test_workers_see_what_other_files_make_compiled(tmp_path, monkeypatch, split):
    for name, text in ACROSS.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    config = Config(root=tmp_path)
    one = engine.lint_run([tmp_path / "pkg"], config, SPLITTABLE, jobs=1)
    found = {(Path(f.filename).name, f.code) for f in one.findings}
    assert {("helpers.py", "JIT401"), ("helpers.py", "JIT204"), ("helpers.py", "JIT202"), ("base.py", "JIT301")} <= found, found
    assert any("`User.forward` calls this" in f.message for f in one.findings)

    def forced(job, workers):
        shares = [[tmp_path / name for name in share] for share in split]
        rest = [path for path in job.files if all(path not in share for share in shares)]
        shares[-1].extend(rest)
        order = {path: number for number, path in enumerate(job.files)}
        return [sorted(share, key=order.__getitem__) for share in shares]

    used = []
    monkeypatch.setattr(pipeline, "MIN_FILES_PER_JOB", 1)
    monkeypatch.setattr(pipeline, "split", lambda job, workers: used.append(workers) or forced(job, workers))
    split_run = engine.lint_run([tmp_path / "pkg"], config, SPLITTABLE, jobs=len(split))
    assert used == [len(split)]
    assert [f.to_json() for f in split_run.findings] == [f.to_json() for f in one.findings]


# A property every module class inherits, from two root files: each root file's part of base.py's record repeats it.
INHERITED = {
    "pkg/__init__.py": "",
    "pkg/base.py": textwrap.dedent("""\
        import torch.nn as nn


        class Base(nn.Module):
            @property
            def width(self) -> int:
                return 2
    """),
    **{f"pkg/net{n}.py": textwrap.dedent(f"""\
        from pkg.base import Base


        class Net{n}(Base):
            def forward(self, x):
                return x.numpy() * self.width
    """) for n in range(2)},
}


def test_a_workers_records_go_before_it_lints_and_hold_each_address_once(tmp_path, monkeypatch):
    """A worker sends its capture maps' records (for the cache) as soon as the maps are final, not on top of what
    linting holds at its end; in them, an address repeated across root files is one list (a base class's property
    is captured for each of its subclasses, which repeated the same addresses thousands of times)."""
    for name, text in INHERITED.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    config = Config(root=tmp_path)
    one = engine.lint_run([tmp_path / "pkg"], config, SPLITTABLE, jobs=1, record=True)
    parts = one.contrib[str(tmp_path / "pkg/base.py")]
    assert {Path(root).name for root in parts} == {"base.py", "net0.py", "net1.py"}, parts  # each one's roots
    entries = [entry for part in parts.values() for per_policy in part.values() for entry in per_policy[0]]
    width = [entry[0] for entry in entries if entry[0][-1] == "width"]
    assert len(width) == 3 and all(address is width[0] for address in width)
    assert json.loads(json.dumps(one.contrib)) == one.contrib

    events = tmp_path / "events"
    contributions_of, lint_module = pipeline.contributions_of, pipeline.lint_module

    def logged(what, function):
        def wrapper(*args, **kwargs):
            with open(events, "a") as stream:  # (from the forked workers)
                stream.write(f"{os.getpid()} {what}\n")
            return function(*args, **kwargs)
        return wrapper

    monkeypatch.setattr(pipeline, "contributions_of", logged("records", contributions_of))
    monkeypatch.setattr(pipeline, "lint_module", logged("lint", lint_module))
    monkeypatch.setattr(pipeline, "MIN_FILES_PER_JOB", 1)
    monkeypatch.setattr(pipeline, "split", lambda job, workers: [
        [path for path in job.files if path.name in ("base.py", "net0.py")],
        [path for path in job.files if path.name not in ("base.py", "net0.py")]])
    two = engine.lint_run([tmp_path / "pkg"], config, SPLITTABLE, jobs=2, record=True)
    assert two.project is None  # split across the two workers
    assert [f.to_json() for f in two.findings] == [f.to_json() for f in one.findings] and one.findings
    assert two.contrib == one.contrib
    by_worker: dict[str, list[str]] = {}
    for line in events.read_text().splitlines():
        pid, what = line.split()
        by_worker.setdefault(pid, []).append(what)
    assert len(by_worker) == 2 and os.getpid() not in map(int, by_worker), by_worker
    assert all(logged[0] == "records" and logged.count("records") == 1 and "lint" in logged
               for logged in by_worker.values()), by_worker


def test_a_failing_worker_leaves_the_run_to_the_parent(tmp_path, monkeypatch):
    for name, text in ACROSS.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    config = Config(root=tmp_path)
    one = engine.lint_run([tmp_path / "pkg"], config, SPLITTABLE, jobs=1)

    def broken(*args):
        raise RuntimeError("a bug in a worker")

    monkeypatch.setattr(pipeline, "_worker", broken)  # only the forked workers call it
    two = engine.lint_run([tmp_path / "pkg"], config, SPLITTABLE, jobs=2)
    assert two.project is not None  # linted again in the parent
    assert [f.to_json() for f in two.findings] == [f.to_json() for f in one.findings]
    assert two.notes == ["a worker failed (RuntimeError: a bug in a worker); linting the run in one process instead"]
    assert one.notes == []
    # The command line says so on stderr (a bug to report, which doubled the run's time silently), and the output
    # and exit code are the run's.
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pyproject.toml").write_text("[tool.jitlint]\n")
    monkeypatch.setattr(pipeline, "MIN_FILES_PER_JOB", 1)
    result = CliRunner().invoke(main, ["check", "--no-cache", "-j", "2", "--output-format", "concise", "pkg"])
    monkeypatch.undo()
    monkeypatch.chdir(tmp_path)
    clean = CliRunner().invoke(main, ["check", "--no-cache", "-j", "2", "--output-format", "concise", "pkg"])
    assert "jitlint: a worker failed (RuntimeError: a bug in a worker); linting the run in one process instead" in (
        result.stderr), result.stderr
    assert result.stdout == clean.stdout and result.exit_code == clean.exit_code == 1 and "a worker" not in clean.stderr


DECORATED = {
    "pkg/__init__.py": "",
    "pkg/d1/__init__.py": "",
    "pkg/d1/deco.py": "def logged(fn):\n    def wrapper(*args):\n        return fn(*args)\n    return wrapper\n",
    "pkg/d2/__init__.py": "",
    "pkg/d2/model.py": textwrap.dedent("""\
        import torch
        from pkg.d1.deco import logged


        class M(torch.nn.Module):
            @logged
            def forward(self, x):
                return x
    """),
    **{f"pkg/d{d}/filler{n}.py": f"X{n} = {n}\n" for d in (1, 2) for n in range(5)},
}


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_decorator_used_in_another_share_and_its_use_removed(tmp_path, monkeypatch, jobs):
    """JIT632 reports in the decorator's file what another file does with it (decorates a compiled `forward`):
    with two workers that file is in the other share, and the cache must re-lint the decorator's file when the
    use goes away (the capture map carries the use as a call site of the decorator)."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pyproject.toml").write_text("[tool.jitlint]\n")
    for name, text in DECORATED.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    monkeypatch.setattr(pipeline, "MIN_FILES_PER_JOB", 1)
    shares = []
    real_split = pipeline.split
    monkeypatch.setattr(pipeline, "split", lambda *args: shares.append(real_split(*args)) or shares[-1])
    first = _same_as_cold("-j", jobs, "--select", "JIT632", "pkg", cwd=tmp_path)
    assert "pkg/d1/deco.py:2:9: JIT632" in first and "`M.forward`" in first, first
    if jobs == "2":  # the decorator and its use were linted by different workers
        split = [{path.name for path in share} for share in shares[0]]
        assert any("deco.py" in share and "model.py" not in share for share in split), split
    model = tmp_path / "pkg" / "d2" / "model.py"
    model.write_text(model.read_text().replace("    @logged\n", "    # no decorator\n"))
    assert "JIT632" not in _same_as_cold("-j", jobs, "--select", "JIT632", "pkg", cwd=tmp_path)
    model.write_text(model.read_text().replace("    # no decorator\n", "    @logged\n"))
    assert _same_as_cold("-j", jobs, "--select", "JIT632", "pkg", cwd=tmp_path) == first


PROPERTY = {
    "pkg/__init__.py": "",
    "pkg/d1/__init__.py": "",
    "pkg/d2/__init__.py": "",
    "pkg/d1/model.py": textwrap.dedent("""\
        import torch
        import torch.nn as nn
        from pkg.d2.helpers import checked, stored


        class Scale(nn.Module):
            def __init__(self):
                super().__init__()
                self.raw = nn.Parameter(torch.zeros(1))

            @property
            def scale(self):
                return checked(self.raw)

            @scale.setter
            def scale(self, value: torch.Tensor):
                stored(self.raw, value)

            def forward(self, x):
                return x * self.raw
    """),
    "pkg/d2/helpers.py": textwrap.dedent("""\
        import torch


        def checked(value):
            if torch.is_tensor(value):
                return value
            return torch.ones(1)


        def stored(raw, value):
            if torch.is_tensor(value):
                raw.data.copy_(value)
    """),
    **{f"pkg/d{d}/filler{n}.py": f"X{n} = {n}\n" for d in (1, 2) for n in range(5)},
}


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_property_getter_and_setter_reach_another_share(tmp_path, monkeypatch, jobs):
    """torch compiles a module property's getter and its setter: what each calls in another worker's file is
    compiled there, the getter (which the setter's `def` rebinds) named apart from the setter; cached as cold."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pyproject.toml").write_text("[tool.jitlint]\n")
    for name, text in PROPERTY.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    monkeypatch.setattr(pipeline, "MIN_FILES_PER_JOB", 1)
    shares = []
    real_split = pipeline.split
    monkeypatch.setattr(pipeline, "split", lambda *args: shares.append(real_split(*args)) or shares[-1])
    first = _same_as_cold("-j", jobs, "--select", "JIT414", "pkg", cwd=tmp_path)
    if jobs == "2":  # the property and the helpers were linted by different workers
        split = [{path.name for path in share} for share in shares[0]]
        assert any("model.py" in share and "helpers.py" not in share for share in split), split
    assert "pkg/d2/helpers.py:5:8: JIT414" in first and "pkg/d2/helpers.py:11:8: JIT414" in first, first
    model = tmp_path / "pkg" / "d1" / "model.py"
    model.write_text(model.read_text().replace("return checked(self.raw)", "return self.raw"))
    second = _same_as_cold("-j", jobs, "--select", "JIT414", "pkg", cwd=tmp_path)
    assert "helpers.py:5:8" not in second and "pkg/d2/helpers.py:11:8: JIT414" in second, second


def test_jobs_option_on_the_command_line(package):
    one = check("pkg", "--no-cache", "-j", "1", cwd=package)
    two = check("pkg", "--no-cache", "--jobs", "2", cwd=package)
    assert one[:2] == two[:2]
    assert CliRunner().invoke(main, ["check", "--jobs", "0", "pkg"]).exit_code == 2


# -- the dependency-aware cache: edit, re-run, compare with a cold run ----------------------------------------------
@pytest.fixture
def across(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pyproject.toml").write_text("[tool.jitlint]\n")
    for name, text in ACROSS.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    return tmp_path


def _watch(monkeypatch, linted=None):
    """What the next runs lint: ("full", None) for a whole run, ("share", [names]) for a partial one (the files
    explored again; `linted`, if given, gets the names of the files a partial run linted)."""
    calls = []
    real_run, real_share = engine.lint_run, engine.lint_share

    def share(files, stale, *a, **k):
        calls.append(("share", sorted(path.name for path in stale)))
        run = real_share(files, stale, *a, **k)
        if linted is not None:
            linted.append(sorted(path.name for path in run.linted))
        return run

    monkeypatch.setattr(engine, "lint_run", lambda *a, **k: calls.append(("full", None)) or real_run(*a, **k))
    monkeypatch.setattr(engine, "lint_share", share)
    return calls


def _same_as_cold(*args, cwd):
    """The cached run's exit code and output, checked equal to a cold (no cache) run's; and the output."""
    cached = check(*args, cwd=cwd)
    cold = check(*args, "--no-cache", cwd=cwd)
    assert cached[:2] == cold[:2]
    return cached[1]


def test_a_warm_run_reads_no_record_and_an_edit_reads_them_sharing_each_address(tmp_path, monkeypatch):
    """The plan of a run in which nothing changed reads each file's findings but not the records (nothing is
    linted again); after an edit it reads them, each distinct address one list (on a large library the records
    were most of the parent's memory in every cached run)."""
    from jitlint.cache import StaticCache

    monkeypatch.chdir(tmp_path)
    (tmp_path / "pyproject.toml").write_text("[tool.jitlint]\n")
    for name, text in INHERITED.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    plans = []
    real = StaticCache.plan
    monkeypatch.setattr(StaticCache, "plan", lambda self, files: plans.append(real(self, files)) or plans[-1])
    cold = _same_as_cold("pkg", cwd=tmp_path)
    assert "JIT401" in cold
    assert check("pkg", cwd=tmp_path)[1] == cold
    warm = plans[-1]
    assert not warm.full and not warm.stale and warm.records == {} and sum(map(len, warm.findings.values())) >= 2
    net0 = tmp_path / "pkg" / "net0.py"
    net0.write_text(net0.read_text().replace("x.numpy() * self.width", "x.numpy() * self.width * 1"))
    count = len(plans)
    assert _same_as_cold("pkg", cwd=tmp_path) == cold
    edited = plans[count]
    assert not edited.full and edited.stale and len(edited.records) == len(INHERITED)
    base, = [record for path, record in edited.records.items() if path.endswith("base.py")]
    width = [entry[0] for part in base.values() for rows in part.values() for entry in rows[0] if entry[0][-1] == "width"]
    assert len(width) == 3 and all(address is width[0] for address in width)


def _heavy(setter: int) -> dict[str, str]:
    """A base class whose method is checked against each subclass, in four files (two of them read `llama.py`);
    the subclass of net<setter>.py sets `self.cache` in `__init__`."""
    return {
    "pkg/__init__.py": "",
    "pkg/base.py": textwrap.dedent("""\
        import torch.nn as nn


        class Base(nn.Module):
            def scaled(self, x):
                self.cache = x
                return x + self.bias.numpy()
    """),
    "pkg/llama.py": "import torch\n\n\ndef helper(x):\n    return torch.relu(x)\n",
    **{f"pkg/net{n}.py": textwrap.dedent(f"""\
        import torch
        from pkg.base import Base
        {"from pkg.llama import helper" if n < 2 else ""}


        class Net{n}(Base):
            def __init__(self):
                super().__init__()
                self.bias = torch.zeros(1)
                {"self.cache = torch.zeros(1)" if n == setter else ""}

            def forward(self, x):
                return {"helper(self.scaled(x))" if n < 2 else "self.scaled(x)"}
    """) for n in range(4)},
    }


@pytest.mark.parametrize("setter", [3, 0])
def test_a_file_checked_against_classes_of_many_files_keeps_its_findings_in_a_partial_run(tmp_path, monkeypatch,
                                                                                         setter):
    """A code edit in `llama.py` explores it and its readers (net0, net1) again, and lints `base.py` again, whose
    method is checked against the classes of those files. Its record also names the classes of net2 and net3,
    which the partial run does not parse (their index comes from their summaries): one subclass sets `self.cache`
    in `__init__`, so `Base.scaled` setting it gets no JIT601, as in a cold run. Every file is linted in this
    process, and none is parsed with LibCST twice."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pyproject.toml").write_text("[tool.jitlint]\n")
    for name, text in _heavy(setter).items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    first = _same_as_cold("-j", "1", "pkg", cwd=tmp_path)
    assert "base.py:7:20: JIT401" in first and "JIT601" not in first, first

    seen = []
    parses = []
    real_share = engine.lint_share
    monkeypatch.setattr(engine, "lint_share", lambda *a, **k: parses.append(real_share(*a, **k)) or parses[-1])
    calls = _watch(monkeypatch, seen)
    llama = tmp_path / "pkg" / "llama.py"
    llama.write_text(llama.read_text().replace("torch.relu(x)", "torch.relu(x + 0.0)"))
    cached = check("-j", "1", "pkg", cwd=tmp_path)
    assert cached[1] == first
    assert calls == [("share", ["llama.py", "net0.py", "net1.py"])] and seen == [
        ["base.py", "llama.py", "net0.py", "net1.py"]], (calls, seen)
    files, = [parsed["files"] for parsed in parses[-1].stats["parses"]]
    assert files and all(count == 1 for count in files.values()), files
    assert not {"net2.py", "net3.py"} & {Path(path).name for path in files}, files

    # The subclass no longer sets it: base.py now gets JIT601 (that file is explored again).
    setting = tmp_path / "pkg" / f"net{setter}.py"
    setting.write_text(setting.read_text().replace("self.cache = torch.zeros(1)", "pass"))
    assert "base.py:6:9: JIT601" in _same_as_cold("-j", "1", "pkg", cwd=tmp_path)


@pytest.mark.parametrize("setter", [3, 0])
def test_a_file_checked_against_the_other_workers_classes_keeps_its_findings(tmp_path, monkeypatch, setter):
    """In a run split across workers, the worker that lints `base.py` checks `Base.scaled` against the classes of
    the other share's files from their summaries, without parsing them: the findings and the cache's records are
    those of one process (net<setter> sets `self.cache`, in the worker of base.py or in the other), and no file is
    parsed with LibCST by two workers."""
    for name, text in _heavy(setter).items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    config = Config(root=tmp_path)
    one = engine.lint_run([tmp_path / "pkg"], config, SPLITTABLE, jobs=1, record=True)
    assert any(f.code == "JIT401" for f in one.findings) and not any(f.code == "JIT601" for f in one.findings)
    monkeypatch.setattr(pipeline, "MIN_FILES_PER_JOB", 1)
    monkeypatch.setattr(pipeline, "split", lambda job, workers: [
        [path for path in job.files if path.name in ("base.py", "net0.py")],
        [path for path in job.files if path.name not in ("base.py", "net0.py")]])
    two = engine.lint_run([tmp_path / "pkg"], config, SPLITTABLE, jobs=2, record=True)
    assert two.project is None and two.notes == []
    assert [f.to_json() for f in two.findings] == [f.to_json() for f in one.findings]
    assert two.contrib == one.contrib and sorted(two.loaded) == sorted(one.loaded)
    first, second = [set(parsed["files"]) for parsed in two.stats["parses"]]
    assert not first & second and all(count == 1 for parsed in two.stats["parses"]
                                       for count in parsed["files"].values()), two.stats["parses"]
    assert {Path(path).name for path in first} <= {"base.py", "net0.py"}, first


def test_a_class_whose_init_is_in_another_workers_file_does_not_parse_that_file(tmp_path, monkeypatch):
    """JIT634 reads the `__init__` a class inherits from a file of the other share: that method's lines are rendered
    with the file's layout from its summary, and the file is parsed with LibCST by its own worker only."""
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "base.py").write_text(
        "import torch\n\n\nclass Base(torch.nn.Module):\n    def __init__(self):\n        super().__init__()\n"
        "        self.a = (1,\n2)\n")
    (tmp_path / "pkg" / "net.py").write_text(
        "import torch\nfrom pkg.base import Base\n\n\nclass Net(Base):\n    def forward(self, x):\n"
        "        return x\n\n\nscripted = torch.jit.script(Net())\n")
    config = Config(root=tmp_path)
    one = engine.lint_run([tmp_path / "pkg"], config, SPLITTABLE, jobs=1)
    assert {(Path(f.filename).name, f.code) for f in one.findings} >= {("net.py", "JIT634")}
    monkeypatch.setattr(pipeline, "MIN_FILES_PER_JOB", 1)
    monkeypatch.setattr(pipeline, "split", lambda job, workers: [
        [path for path in job.files if path.name != "net.py"], [path for path in job.files if path.name == "net.py"]])
    two = engine.lint_run([tmp_path / "pkg"], config, SPLITTABLE, jobs=2)
    assert [f.to_json() for f in two.findings] == [f.to_json() for f in one.findings]
    first, second = [set(parsed["files"]) for parsed in two.stats["parses"]]
    assert {Path(path).name for path in second} == {"net.py"}, two.stats["parses"]


def _overloaded_g_scripted_in_other(tmp_path, imports: str = "import torch\n", after: str = "") -> None:
    """A project `pkg`: f.py, `imports`, an overloaded `g` (int and float declarations, then the implementation)
    and `after`; other.py, `torch.jit.script(g)`."""
    (tmp_path / "pyproject.toml").write_text("[tool.jitlint]\n")
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    overloads = "".join(f"@torch.jit._overload\ndef g(x: {t}) -> {t}:\n    pass\n\n\n" for t in ("int", "float"))
    (tmp_path / "pkg" / "f.py").write_text(f"{imports}\n\n{overloads}def g(x):\n    return x\n{after}")
    (tmp_path / "pkg" / "other.py").write_text("import torch\nfrom pkg.f import g\n\nscripted = torch.jit.script(g)\n")


def _jit214_survives_a_comment_in_f(tmp_path, monkeypatch, expected):
    """The cold run reports `expected`; after a comment appended to pkg/f.py, the cached run lints f.py alone and
    prints the same."""
    first = _same_as_cold("pkg", cwd=tmp_path)
    assert expected in first, first
    calls = _watch(monkeypatch)
    f = tmp_path / "pkg" / "f.py"
    f.write_text(f.read_text() + "# a comment\n")
    assert check("pkg", cwd=tmp_path)[1] == first
    assert calls == [("share", ["f.py"])], calls


def test_a_function_scripted_from_another_file_keeps_why_after_a_comment(tmp_path, monkeypatch):
    """`torch.jit.script(g)` in other.py makes g a root there, for that reason, which JIT214 reads (an overloaded
    function scripted directly). After a comment in f.py, only f.py is linted again and receives other.py's record
    of g: the record keeps the root's reason (it used to say "captured from other.py", and JIT214 went)."""
    monkeypatch.chdir(tmp_path)
    _overloaded_g_scripted_in_other(tmp_path)
    _jit214_survives_a_comment_in_f(tmp_path, monkeypatch, "f.py:14:5: JIT214")


def _scripted_and_called(tmp_path):
    """f.py: an overloaded g, called by M.forward; other.py: torch.jit.script(g). One process enqueues every root
    before it follows a call, so g is captured as "passed to torch.jit.script" (JIT214) whatever calls it."""
    _overloaded_g_scripted_in_other(tmp_path, imports="import torch\nimport torch.nn as nn\n", after=(
        "\n\nclass M(nn.Module):\n    def forward(self, x: int) -> int:\n        return g(x)\n"))


def test_a_function_scripted_elsewhere_and_called_here_keeps_why_after_a_comment(tmp_path, monkeypatch):
    """The partial run explores f.py's roots (M.forward calls g) before it receives other.py's record (g passed to
    torch.jit.script): the root's reason must still win, as in one process."""
    monkeypatch.chdir(tmp_path)
    _scripted_and_called(tmp_path)
    _jit214_survives_a_comment_in_f(tmp_path, monkeypatch, "f.py:15:5: JIT214")


def test_a_worker_learning_that_a_function_it_reached_is_scripted_elsewhere_keeps_why(tmp_path, monkeypatch):
    """The same across workers: f.py's worker reaches g from M.forward, and receives from other.py's worker that
    g is passed to torch.jit.script."""
    _scripted_and_called(tmp_path)
    config = Config(root=tmp_path)
    one = engine.lint_run([tmp_path / "pkg"], config, SPLITTABLE, jobs=1)
    assert "JIT214" in {f.code for f in one.findings}
    monkeypatch.setattr(pipeline, "MIN_FILES_PER_JOB", 1)
    monkeypatch.setattr(pipeline, "split", lambda job, workers: [[tmp_path / "pkg" / "f.py"],
                                                                 [path for path in job.files if path.name != "f.py"]])
    two = engine.lint_run([tmp_path / "pkg"], config, SPLITTABLE, jobs=2)
    assert [f.to_json() for f in two.findings] == [f.to_json() for f in one.findings]


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_comment_re_lints_only_that_file_and_gives_what_a_cold_run_gives(across, monkeypatch, jobs):
    first = _same_as_cold("-j", jobs, "pkg", cwd=across)
    # helpers.py's findings exist only because net.py calls it: re-linted alone, it must receive that record.
    assert "helpers.py:1:15: JIT204" in first and "helpers.py:4:12: JIT401" in first
    calls = _watch(monkeypatch)
    helpers = across / "pkg" / "helpers.py"
    helpers.write_text(helpers.read_text() + "# a comment at the end\n")
    assert check("-j", jobs, "pkg", cwd=across)[1] == first
    assert calls == [("share", ["helpers.py"])]
    assert _same_as_cold("-j", jobs, "pkg", cwd=across) == first
    # A `# noqa` is a comment too: only that file again, and its finding goes.
    calls.clear()
    helpers.write_text(helpers.read_text().replace("return x.numpy()", "return x.numpy()  # noqa: JIT401"))
    second = check("-j", jobs, "pkg", cwd=across)[1]
    assert calls[0] == ("share", ["helpers.py"]) and "JIT401" not in second
    assert _same_as_cold("-j", jobs, "pkg", cwd=across) == second
    # Two files at once, one of them the caller.
    calls.clear()
    for name in ("net.py", "base.py"):
        (across / "pkg" / name).write_text((across / "pkg" / name).read_text() + "\n\n# trailing\n")
    assert check("-j", jobs, "pkg", cwd=across)[1] == second
    assert calls[0] == ("share", ["base.py", "net.py"])


@pytest.mark.parametrize("edit", [
    # (file, old, new, the files explored again, the files linted again)
    ("pkg/net.py", "return helper(x)", "return x",  # the caller stops calling: helpers.py's findings go
     ["net.py"], ["base.py", "helpers.py", "net.py"]),  # base.py: Base.forward is captured for Net (below)
    ("pkg/net.py", "nn.ModuleList([nn.Linear(2, 2)])", "[1, 2]",  # base.py's JIT301 goes (Base.forward is
     ["net.py"], ["base.py", "net.py"]),                              # captured for Net, whose attribute changed)
    ("pkg/helpers.py", "def second(xs):", "def second(xs: List[torch.Tensor]):",  # a signature
     ["helpers.py", "net.py"], ["base.py", "helpers.py", "net.py"]),
    ("pkg/net.py", "import torch.nn as nn\n", "import torch.nn as nn\n# moved a line down\n",  # positions shift
     ["net.py"], ["base.py", "net.py"]),
    ("pkg/helpers.py", "def helper", "# @generated\ndef helper",  # a comment that makes the file skipped
     ["helpers.py", "net.py"], ["base.py", "helpers.py", "net.py"]),
    ("pkg/base.py", "    def forward(self, x, i: int):", "    def forward(self, x, i):  # type: (Tensor, int) -> Tensor",
     ["base.py", "net.py"], ["base.py", "net.py"]),
])
def test_an_edit_other_files_can_see_re_lints_what_depends_on_it(across, monkeypatch, edit):
    """A code edit explores again the edited file and the files whose names lead to it, and lints those plus the
    files whose part of the capture maps the edit changed; the fillers, which nothing reaches, never."""
    name, old, new, explored, linted = edit
    _same_as_cold("pkg", cwd=across)
    seen = []
    calls = _watch(monkeypatch, seen)
    path = across / name
    assert old in path.read_text()
    path.write_text(path.read_text().replace(old, new, 1))
    _same_as_cold("pkg", cwd=across)
    assert calls[0] == ("share", explored) and seen[0] == linted


def test_the_cache_a_run_split_across_workers_fills_serves_the_next_run(across, monkeypatch):
    """A cold run split across two workers fills the cache: the next run lints nothing, and a code edit lints only
    the edited file and what depends on it (the same files as after a one-process run), each time printing what a
    cold run prints. (A run of another jitlint build, an edited editable install, is a whole run by design.)"""
    from jitlint.cache import StaticCache

    shares: list[list[str]] = []
    real_split = pipeline.run_split

    def run_split(job, split, progress=None):
        shares.extend(sorted(path.name for path in share) for share in split)
        return real_split(job, split, progress)

    monkeypatch.setattr(pipeline, "run_split", run_split)
    cold = check("-j", "2", "pkg", cwd=across)[1]
    assert len(shares) == 2 and all(shares), "the cold run was not split across two workers"
    assert {"helpers.py", "net.py"} & set(shares[0]) and {"helpers.py", "net.py"} & set(shares[1]), (
        "the caller and its callee were linted by the same worker")
    assert cold == check("-j", "2", "pkg", "--no-cache", cwd=across)[1]
    plans = []
    real_plan = StaticCache.plan
    monkeypatch.setattr(StaticCache, "plan", lambda self, files: plans.append(real_plan(self, files)) or plans[-1])
    linted: list[list[str]] = []
    calls = _watch(monkeypatch, linted)
    assert check("-j", "2", "pkg", cwd=across)[1] == cold
    assert calls == [] and not plans[-1].full and not plans[-1].work
    helpers = across / "pkg" / "helpers.py"
    helpers.write_text(helpers.read_text().replace("def second(xs):", "def second(xs: List[torch.Tensor]):"))
    edited = check("-j", "2", "pkg", cwd=across)[1]
    assert calls == [("share", ["helpers.py", "net.py"])] and linted == [["base.py", "helpers.py", "net.py"]]
    assert edited == check("-j", "2", "pkg", "--no-cache", cwd=across)[1]
    calls.clear()
    assert check("-j", "2", "pkg", cwd=across)[1] == edited and calls == []


def test_a_partial_run_explored_twice_frees_its_first_pass(across, monkeypatch):
    """When an edit changes what other files capture, a partial run explores again with those files; the first
    pass's index (cycles, and the lint thread has Python's collector off) is freed before the second is built."""
    import weakref

    from jitlint.project import ProjectIndex

    _same_as_cold("pkg", cwd=across)
    made: list = []
    alive_at_second: list[bool] = []
    real_init = ProjectIndex.__init__

    def init(self, *args, **kwargs):
        if made:
            alive_at_second.append(made[-1]() is not None)
        made.append(weakref.ref(self))
        real_init(self, *args, **kwargs)

    monkeypatch.setattr(ProjectIndex, "__init__", init)
    calls = _watch(monkeypatch)
    net = across / "pkg" / "net.py"
    net.write_text(net.read_text().replace("return helper(x)", "return x", 1))  # helpers.py's findings go
    check("pkg", cwd=across)
    assert calls == [("share", ["net.py"])]
    assert alive_at_second == [False], "the first pass's index was still alive when the second was built"


def test_a_partial_run_keeps_no_text_of_the_modules_it_reads_on_demand(across, monkeypatch):
    """A partial run keeps each module read on demand for both passes; it keeps the tree, not the text (the index of
    such a module has none), and the output is still the cold run's."""
    import jitlint.project as project_module

    _same_as_cold("pkg", cwd=across)
    handed: list = []
    real = project_module._loaded_module

    def loaded_module(path, source, project):
        if hasattr(source, "module_info"):  # indexed from its summary: the text it holds, if any
            stored = vars(source.module_info(path, project)).get("_text_stored")
            handed.append((path.name, None if stored is project_module.FROM_DISK else stored))
        else:
            handed.append((path.name, source.text))
        return real(path, source, project)

    monkeypatch.setattr(project_module, "_loaded_module", loaded_module)
    calls = _watch(monkeypatch)
    net = across / "pkg" / "net.py"
    net.write_text(net.read_text().replace("return helper(x)", "return x", 1))
    partial = check("pkg", cwd=across)
    assert calls == [("share", ["net.py"])]
    assert handed and all(text in ("", None) for _name, text in handed), handed
    assert partial[:2] == check("pkg", "--no-cache", cwd=across)[:2]


# A small package with every kind of dependency between files: an imported helper made compiled by a caller, a base
# class in another file, a module used as a submodule, a generated (skipped) file, a file nothing reaches.
PACKAGE = {
    "app/__init__.py": "",
    "app/ops.py": textwrap.dedent("""\
        import torch


        def scale(x, factor=2):
            return x * factor


        def to_numpy(x):
            return x.numpy()
    """),
    "app/layers.py": textwrap.dedent("""\
        import torch.nn as nn
        from app.ops import scale


        class Block(nn.Module):
            def forward(self, x):
                return scale(x)
    """),
    "app/base.py": textwrap.dedent("""\
        import torch.nn as nn


        class Base(nn.Module):
            def forward(self, x, i: int):
                return self.blocks[i](x)
    """),
    "app/model.py": textwrap.dedent("""\
        import torch.nn as nn
        from app.base import Base
        from app.layers import Block


        class Model(Base):
            def __init__(self):
                super().__init__()
                self.blocks = nn.ModuleList([Block()])


        class Head(nn.Module):
            def forward(self, x):
                return x
    """),
    "app/other.py": textwrap.dedent("""\
        import torch.nn as nn


        class Other(nn.Module):
            def forward(self, x):
                return x.numpy()
    """),
    "app/gen.py": textwrap.dedent("""\
        # @generated by a tool
        import torch.nn as nn


        class Generated(nn.Module):
            def forward(self, x):
                return x.numpy()
    """),
    **{f"app/pad{n}.py": f"Y{n} = {n}\n" for n in range(3)},
}

EDITS = [  # (what, file, old, new, checks on (explored, linted, output))
    ("a body change no other file sees", "app/layers.py", "return scale(x)", "return scale(x) + 1",
     # model.py imports Block from it (explored again where the run that filled the cache resolved that name)
     lambda explored, linted, out: explored in (["layers.py"], ["layers.py", "model.py"])
     and not {"ops.py", "other.py", "pad0.py"} & set(linted)),
    ("a signature change", "app/ops.py", "def scale(x, factor=2):", "def scale(x, factor: float = 2.0):",
     lambda explored, linted, out: {"layers.py", "ops.py"} <= set(explored) and "other.py" not in linted),
    ("a new call from forward into a helper in another file", "app/model.py", "        return x\n",
     "        return to_numpy(x)\n",
     lambda explored, linted, out: explored == ["model.py"] and "ops.py:9:12" not in out),  # not resolved yet
    ("the import that call needs", "app/model.py", "from app.layers import Block\n",
     "from app.layers import Block\nfrom app.ops import to_numpy\n",
     lambda explored, linted, out: "ops.py" in linted and "pad0.py" not in linted and "ops.py:9:12: JIT401" in out),
    ("a call that goes away", "app/layers.py", "return scale(x) + 1", "return x + 1",
     lambda explored, linted, out: "ops.py" in linted and "other.py" not in linted),
    ("a base class change", "app/base.py", "class Base(nn.Module):", "class Base(object):",
     lambda explored, linted, out: explored == ["base.py", "model.py"] and "base.py:6:16: JIT301" not in out),
    ("the base class back", "app/base.py", "class Base(object):", "class Base(nn.Module):",
     lambda explored, linted, out: "base.py:6:16: JIT301" in out),
    ("a skipped file becoming linted", "app/gen.py", "# @generated by a tool\n", "# made by hand\n",
     lambda explored, linted, out: explored == ["gen.py"] and "gen.py:7:16: JIT401" in out),
    ("a new file nothing imports", "app/extra.py", None,
     "from app.ops import scale\n\n\ndef f(x):\n    return scale(x)\n",
     lambda explored, linted, out: explored == ["extra.py"] and linted == ["extra.py"]),
    ("a deleted file nothing imports", "app/other.py", None, None,
     lambda explored, linted, out: explored == [] and linted == [] and "other.py" not in out),
]


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_code_edits_re_lint_what_depends_on_them_and_give_what_a_cold_run_gives(tmp_path, monkeypatch, jobs):
    """Each edit in turn, on a package written for it: the cached run prints what a cold run prints, explores
    again only the edited file and the files that read it, and lints those plus the files the edit's calls
    reach (a new or deleted file nothing imports: that file alone, or nothing)."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pyproject.toml").write_text("[tool.jitlint]\n")
    for name, text in PACKAGE.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    first = _same_as_cold("-j", jobs, "app", cwd=tmp_path)
    assert "base.py:6:16: JIT301" in first and "other.py:6:16: JIT401" in first and "gen.py" in first
    assert "ops.py:9:" not in first  # nothing calls to_numpy yet
    for what, name, old, new, ok in EDITS:
        seen = []
        calls = _watch(monkeypatch, seen)
        path = tmp_path / name
        if new is None:
            path.unlink()
        elif old is None:
            path.write_text(new)
        else:
            assert old in path.read_text(), what
            path.write_text(path.read_text().replace(old, new, 1))
        cached = check("-j", jobs, "app", cwd=tmp_path)
        calls = list(calls)  # the cached run's, not the cold one's below
        assert cached[:2] == check("-j", jobs, "app", "--no-cache", cwd=tmp_path)[:2], what
        out = cached[1]
        explored = [] if not calls else calls[0][1] if calls[0][0] == "share" else None
        assert ok(explored, seen[0] if seen else [], out), (what, calls, seen, out)
        monkeypatch.undo()
        monkeypatch.chdir(tmp_path)


def test_every_fixture_edited_in_turn_gives_what_a_cold_run_gives(tmp_path, monkeypatch):
    """Each fixture file gets a comment appended (and a `# noqa` on its first finding's line), one after the
    other; after each, the cached run re-lints that file only and prints exactly what a cold run prints."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pyproject.toml").write_text("[tool.jitlint]\n")
    for path in sorted((ROOT / "fixtures").rglob("*.py")):
        target = tmp_path / path.relative_to(ROOT / "fixtures")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(path.read_text())
    for name, text in ACROSS.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    files = sorted(tmp_path.rglob("*.py"))
    assert len(files) >= 16
    _same_as_cold(".", cwd=tmp_path)
    calls = _watch(monkeypatch)
    for path in files:
        calls.clear()
        lines = path.read_text().splitlines()
        before = check(".", "--output-format", "json", cwd=tmp_path)[1]
        mine = [f for f in json.loads(before) if Path(f["filename"]).resolve() == path.resolve()]
        if mine:
            row = mine[0]["location"]["row"]
            lines[row - 1] += f"  # noqa: {mine[0]['code']}"
        path.write_text("\n".join(lines) + "\n# edited\n")
        _same_as_cold(".", cwd=tmp_path)
        assert calls[0] == ("share", [path.name]), path


def test_a_package_that_re_exports_names_does_not_make_every_importer_a_reader(tmp_path, monkeypatch):
    """`from hub import A`: the user reads `hub/__init__.py` for the name A only, and `hub/a.py` where A is defined;
    an edit of `hub/b.py` explores again the files that use B, not the user of A (and prints what a cold run does)."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pyproject.toml").write_text("[tool.jitlint]\n")
    files = {
        "hub/__init__.py": "from hub.a import A\nfrom hub.b import B\n",
        "hub/a.py": "import torch.nn as nn\n\n\nclass A(nn.Module):\n    def forward(self, x):\n        return x.numpy()\n",
        "hub/b.py": "def B(x):\n    return x.numpy()\n",
        "use_a.py": "import torch.nn as nn\nfrom hub import A\n\n\nclass UA(A):\n    pass\n",
        "use_b.py": "import torch.nn as nn\nfrom hub import B\n\n\nclass UB(nn.Module):\n    def forward(self, x):\n"
                    "        return B(x)\n",
        **{f"pad{n}.py": f"Z{n} = {n}\n" for n in range(4)},
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    first = _same_as_cold("-j", "1", ".", cwd=tmp_path)
    assert "b.py:2:12: JIT401" in first and "a.py:6:16: JIT401" in first
    seen = []
    calls = _watch(monkeypatch, seen)
    (tmp_path / "hub" / "b.py").write_text("def B(x):\n    y = x\n    return y.numpy()\n")
    second = _same_as_cold("-j", "1", ".", cwd=tmp_path)
    assert "b.py:3:12: JIT401" in second
    assert calls[0][0] == "share" and "b.py" in calls[0][1] and "use_b.py" in calls[0][1], calls
    assert "use_a.py" not in calls[0][1] and "a.py" not in calls[0][1] and "use_a.py" not in seen[0], (calls, seen)


def test_every_fixture_given_a_code_edit_in_turn_gives_what_a_cold_run_gives(tmp_path, monkeypatch):
    """Each fixture file in turn gets code (a function calling into the file's own first function, when it has one),
    which other files can see: the cached run explores that file and its readers again, and prints exactly what a
    cold run prints."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pyproject.toml").write_text("[tool.jitlint]\n")
    for path in sorted((ROOT / "fixtures").rglob("*.py")):
        target = tmp_path / path.relative_to(ROOT / "fixtures")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(path.read_text())
    for name, text in ACROSS.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    files = sorted(tmp_path.rglob("*.py"))
    _same_as_cold(".", cwd=tmp_path)
    calls = _watch(monkeypatch)
    partial = 0
    for number, path in enumerate(files):
        calls.clear()
        text = path.read_text()
        path.write_text(text + f"\n\ndef _edited_{number}(x: int) -> int:\n    return x + {number}\n")
        _same_as_cold(".", cwd=tmp_path)
        assert calls[0][0] == "share" and path.name in calls[0][1], (path, calls)
        partial += len(calls[0][1]) < len(files)
    assert partial == len(files)  # no code edit needed the whole run


def test_old_generations_are_evicted(package, monkeypatch):
    from jitlint import cache

    check("pkg", cwd=package)
    static = package / ".jitlint_cache" / "static"
    [build] = [child for child in static.iterdir() if child.is_dir()]
    (static / "0123.json").write_text("{}")  # an entry of the format-2 layout
    monkeypatch.setattr(cache, "build_id", lambda: "another-build")  # as after an edit of jitlint
    check("pkg", cwd=package)
    assert sorted(child.name for child in static.iterdir()) == ["another-build"]
    assert not build.exists()
    # Settings of one build: the most recently used KEEP_SETTINGS stay.
    monkeypatch.setattr(cache, "KEEP_SETTINGS", 2)
    for ignored in ("JIT101", "JIT102", "JIT103"):
        check("pkg", "--ignore", ignored, cwd=package)
    assert len(list((static / "another-build").iterdir())) == 2


def test_progress_reports_each_worker_and_ends_at_the_total(tmp_path, monkeypatch):
    for name, text in ACROSS.items():
        for copy in range(6):
            target = tmp_path / f"copy{copy}" / name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text)
    monkeypatch.setattr(pipeline.Teller, "__call__", lambda self, phase, done, total, force=False: self.connection.send(
        ("progress", (phase, done, total))))  # every report, not a few a second
    reports = []
    run = engine.lint_run([tmp_path], Config(root=tmp_path), SPLITTABLE, jobs=2,
                          progress=lambda done, total, phase="": reports.append((done, total, phase)))
    files = len(list(tmp_path.rglob("*.py")))
    assert run.project is None  # split across two workers
    assert all(total == 2 * files for _done, total, _phase in reports)
    counts = [done for done, _total, _phase in reports]
    assert counts == sorted(counts) and counts[-1] == 2 * files, reports
    assert reports[0][2] == "summaries"  # phase one, before the workers start
    phases = [phase.split(" | ") for _done, _total, phase in reports[1:]]
    assert all(len(workers) == 2 for workers in phases)
    seen = {worker.split(" ")[0] for workers in phases for worker in workers}
    assert {"parse", "capture", "lint", "done"} <= seen
    one = []
    engine.lint_run([tmp_path], Config(root=tmp_path), SPLITTABLE, jobs=1,
                    progress=lambda done, total, phase="": one.append((done, total, phase)))
    assert one[0][2] == "summaries" and one[1][2] == f"parse 0/{files}"
    assert one[-1][2].startswith("lint ") and one[-1][0] < one[-1][1]


def test_what_counts_as_an_interface_change():
    from jitlint.cache import interface
    from jitlint.limits import Limits

    limits = Limits(max_file_size=10_000)
    base = b"import torch\n\n\ndef f(x: int) -> int:\n    return x + 1\n"
    same = [
        base + b"# a comment at the end\n",
        base.replace(b"return x + 1", b"return x + 1  # noqa: JIT401"),
        base + b"\n\n\n",
        base.replace(b"import torch\n", b"import torch  # why\n"),
    ]
    different = [
        base.replace(b"x + 1", b"x + 2"),
        b"# a line above shifts every position\n" + base,
        base.replace(b"    return", b"    # type: (int) -> int\n    return"),  # TorchScript reads type comments
        b"# @generated\n" + base,  # now skipped, so other files no longer see it linted
        base + b"# " + b"x" * 10_000 + b"\n",  # now over max-file-size
        base + b"# \x00\n",  # NUL bytes: not parsed at all
    ]
    reference = interface(base, limits)
    assert [interface(data, limits) for data in same] == [reference] * len(same)
    assert all(interface(data, limits) != reference for data in different)
    assert interface(b"# @generated\n" + base, Limits(lint_generated=True)) != interface(b"# @generated\n" + base, limits)


# -- files added to or removed from the run: only what could see them is linted again ------------------------------
GROWING = {
    "proj/__init__.py": "",
    "proj/model.py": textwrap.dedent("""\
        import torch.nn as nn
        from proj.helpers import to_array
        from proj.later import later_helper


        class M(nn.Module):
            def forward(self, x):
                return to_array(x) + later_helper(x)
    """),
    "proj/helpers.py": "def to_array(x):\n    return x.numpy()\n",
    "proj/leaf.py": textwrap.dedent("""\
        import torch.nn as nn


        class Leaf(nn.Module):
            def forward(self, x):
                return x.numpy()
    """),
    "proj/caller.py": textwrap.dedent("""\
        import torch.nn as nn
        from proj.ops import double


        class C(nn.Module):
            def forward(self, x):
                return double(x)
    """),
    "proj/ops.py": "def double(x):\n    return x.numpy() * 2\n",
    # Not a package until `tools/` gets an `__init__.py`: then `tools/sub` is a namespace package inside it, `..ops`
    # means tools.toolops, and U.forward calls into it.
    "tools/toolops.py": "def double(x):\n    return x.numpy() * 2\n",
    "tools/sub/util.py": textwrap.dedent("""\
        import torch.nn as nn
        from ..toolops import double


        class U(nn.Module):
            def forward(self, x):
                return double(x)
    """),
    **{f"proj/pad{n}.py": f"W{n} = {n}\n" for n in range(3)},
}

GROWTH = [  # (what, {file: new text, or None to delete}, files explored again, files linted again, check on output)
    ("a new file nothing imports", {"proj/new.py": GROWING["proj/leaf.py"].replace("Leaf", "New")},
     ["new.py"], ["new.py"], lambda out: "new.py:6:16: JIT401" in out),
    ("a new file an existing import now finds", {"proj/later.py": "def later_helper(x):\n    return x.numpy()\n"},
     ["later.py", "model.py"], ["later.py", "model.py"], lambda out: "later.py:2:12: JIT401" in out),
    ("a deleted leaf", {"proj/leaf.py": None}, [], [], lambda out: "leaf.py" not in out),
    ("a deleted imported helper", {"proj/helpers.py": None}, ["model.py"], ["model.py"],
     lambda out: "helpers.py" not in out and "later.py:2:12: JIT401" in out),
    ("a deleted caller: what it made compiled elsewhere goes", {"proj/caller.py": None}, [], ["ops.py"],
     lambda out: "ops.py" not in out),
    ("an `__init__.py` that makes a directory a package", {"tools/__init__.py": ""},
     ["__init__.py", "toolops.py", "util.py"], ["__init__.py", "toolops.py", "util.py"],
     lambda out: "toolops.py:2:12: JIT401" in out),
    ("that `__init__.py` removed", {"tools/__init__.py": None}, ["toolops.py", "util.py"], ["toolops.py", "util.py"],
     lambda out: "toolops.py" not in out),
    ("a package and a module in it, imported by a name that found nothing",
     {"proj/deep/__init__.py": "", "proj/deep/impl.py": "def twice(x):\n    return x.numpy()\n",
      "proj/leaf.py": "import torch.nn as nn\nimport proj.deep.impl\n\n\nclass L(nn.Module):\n"
                      "    def forward(self, x):\n        return proj.deep.impl.twice(x)\n"},
     ["__init__.py", "impl.py", "leaf.py"], ["__init__.py", "impl.py", "leaf.py"],
     lambda out: "impl.py:2:12: JIT401" in out),
]


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_files_added_and_removed_re_lint_only_what_can_see_them(tmp_path, monkeypatch, jobs):
    """Each change of the run's files in turn: the cached run prints what a cold run prints, and explores and lints
    again only the new files, the files whose lookups now find something else, the readers of deleted files and
    the files that received something from a deleted file's roots."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pyproject.toml").write_text("[tool.jitlint]\n")
    for name, text in GROWING.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    first = _same_as_cold("-j", jobs, "proj", "tools", cwd=tmp_path)
    assert "helpers.py:2:12: JIT401" in first and "ops.py:2:12: JIT401" in first and "leaf.py:6:16: JIT401" in first
    assert "later.py" not in first and "util.py" not in first and "toolops.py" not in first
    for what, changes, explored, linted, ok in GROWTH:
        seen = []
        calls = _watch(monkeypatch, seen)
        for name, text in changes.items():
            if text is None:
                (tmp_path / name).unlink()
            else:
                (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
                (tmp_path / name).write_text(text)
        cached = check("-j", jobs, "proj", "tools", cwd=tmp_path)
        monkeypatch.undo()
        monkeypatch.chdir(tmp_path)
        assert cached[:2] == check("-j", jobs, "proj", "tools", "--no-cache", cwd=tmp_path)[:2], what
        out = cached[1]
        assert ok(out), (what, out)
        assert calls == ([("share", explored)] if explored or linted else []), (what, calls)
        assert (seen[0] if seen else []) == linted, (what, seen)
        # and the next run, with nothing changed, reads everything from the cache
        calls = _watch(monkeypatch)
        assert check("-j", jobs, "proj", "tools", cwd=tmp_path)[1] == out and calls == [], what
        monkeypatch.undo()
        monkeypatch.chdir(tmp_path)


def test_a_file_read_on_demand_that_joins_the_run_and_leaves_it(tmp_path, monkeypatch):
    """A file the run read on demand (its helper made compiled by a linted caller) then named on the command line:
    its findings appear as in a cold run, and the caller is explored again (it now reaches a linted file); named
    no more, it goes, and the caller is explored again."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pyproject.toml").write_text("[tool.jitlint]\n")
    for name in ("proj/__init__.py", "proj/model.py", "proj/helpers.py", "proj/pad0.py", "proj/pad1.py",
                 "proj/pad2.py"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(GROWING[name].replace("from proj.later import later_helper\n", "")
                                     .replace(" + later_helper(x)", ""))
    without = ["proj/model.py", "proj/pad0.py", "proj/pad1.py", "proj/pad2.py"]
    first = _same_as_cold(*without, cwd=tmp_path)
    assert "helpers.py" not in first
    for names, explored, shows in ((without + ["proj/helpers.py"], ["helpers.py", "model.py"], True),
                                   (without, ["model.py"], False)):
        seen = []
        calls = _watch(monkeypatch, seen)
        cached = check(*names, cwd=tmp_path)
        monkeypatch.undo()
        monkeypatch.chdir(tmp_path)
        assert cached[:2] == check(*names, "--no-cache", cwd=tmp_path)[:2]
        assert ("helpers.py:2:12: JIT401" in cached[1]) == shows
        assert calls == [("share", explored)], calls


def test_an_init_file_outside_the_run_that_renames_its_modules(tmp_path, monkeypatch):
    """`jitlint check top/inner`: `top/__init__.py` is not in the run, yet creating it changes the module names of
    the run's files (`inner.a` becomes `top.inner.a`) and what `from top.base import Base` finds."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pyproject.toml").write_text("[tool.jitlint]\n")
    files = {
        "top/base.py": "import torch.nn as nn\n\n\nclass Base(nn.Module):\n    pass\n",
        "top/inner/__init__.py": "",
        "top/inner/a.py": "from top.base import Base\n\n\nclass A(Base):\n    def forward(self, x):\n"
                          "        return x.numpy()\n",
        **{f"top/inner/pad{n}.py": f"V{n} = {n}\n" for n in range(3)},
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    first = _same_as_cold("top/inner", cwd=tmp_path)
    for change, explored in (("create", ["__init__.py", "a.py", "pad0.py", "pad1.py", "pad2.py"]),
                             ("delete", ["__init__.py", "a.py", "pad0.py", "pad1.py", "pad2.py"])):
        calls = _watch(monkeypatch)
        if change == "create":
            (tmp_path / "top" / "__init__.py").write_text("")
        else:
            (tmp_path / "top" / "__init__.py").unlink()
        cached = check("top/inner", cwd=tmp_path)
        monkeypatch.undo()
        monkeypatch.chdir(tmp_path)
        assert cached[:2] == check("top/inner", "--no-cache", cwd=tmp_path)[:2], change
        assert ("a.py:6:16: JIT401" in cached[1]) == (change == "create"), cached[1]
        assert calls == [("share", explored)], (change, calls)
    assert cached[1] == first


def test_a_module_outside_the_run_appearing_where_an_import_found_nothing(tmp_path, monkeypatch):
    """`jitlint check proj/model.py ...`: `proj/later.py` is not in the run; once it exists, `from proj.later import
    LaterBase` finds it, M becomes an nn.Module and its `forward` is checked: the importer is explored again."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pyproject.toml").write_text("[tool.jitlint]\n")
    files = {
        "proj/__init__.py": "",
        "proj/model.py": "from proj.later import LaterBase\n\n\nclass M(LaterBase):\n    def forward(self, x):\n"
                         "        return x.numpy()\n",
        **{f"proj/pad{n}.py": f"V{n} = {n}\n" for n in range(3)},
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    names = sorted(files)
    first = _same_as_cold(*names, cwd=tmp_path)
    assert "model.py" not in first
    calls = _watch(monkeypatch)
    (tmp_path / "proj" / "later.py").write_text("import torch.nn as nn\n\n\nclass LaterBase(nn.Module):\n    pass\n")
    cached = check(*names, cwd=tmp_path)
    monkeypatch.undo()
    monkeypatch.chdir(tmp_path)
    assert cached[:2] == check(*names, "--no-cache", cwd=tmp_path)[:2]
    assert "model.py:6:16: JIT401" in cached[1]
    assert calls == [("share", ["model.py"])], calls


# -- robustness: entries and manifests of the wrong shape, a cache that cannot be written, orphaned entries ----------
def _manifest(root: Path) -> Path:
    [manifest] = (root / ".jitlint_cache" / "static").glob("*/*/run-manifest")
    return manifest


GOOD_SITE = [["pkg.helpers", "pkg/helpers.py", None, "second"], ["pkg/net.py", "User.forward", 0, False, 1, [], False]]
WRONG_SHAPES = [  # (what, a change to the entries (by file) or to the manifest)
    # The records of helpers.py, which the edit below lints again, under a root file that is not explored again
    # (so the partial run would use them as they are).
    ("a record that is a list", lambda entries, _m: entries["pkg/helpers.py"].update(contrib=[])),
    ("a record with a part that is a number", lambda entries, _m: entries["pkg/helpers.py"].update(
        contrib={"pkg/filler0.py": {"script": 3}})),
    ("a record with a site of the wrong shape", lambda entries, _m: entries["pkg/helpers.py"].update(
        contrib={"pkg/filler0.py": {"script": [[], [[GOOD_SITE[0], [1, 2]]]]}})),
    ("a record with keywords that are numbers", lambda entries, _m: entries["pkg/helpers.py"].update(
        contrib={"pkg/filler0.py": {"script": [[], [[GOOD_SITE[0], [*GOOD_SITE[1][:5], [[1]], False]]]]}})),
    ("a record with an entry that is not an address", lambda entries, _m: entries["pkg/helpers.py"].update(
        contrib={"pkg/filler0.py": {"script": [[[5, None, "r"]], []]}})),
    # A finding of a file read from the cache as it is.
    ("a finding with another severity", lambda entries, _m: entries["pkg/filler1.py"]["findings"].append(
        {**entries["pkg/helpers.py"]["findings"][0], "severity": "fatal", "filename": "pkg/filler1.py"})),
    ("a graph that is a list", lambda _e, manifest: manifest.update(graph=[])),
    ("reads of the wrong shape", lambda _e, manifest: manifest["graph"].update(
        {key: {"via": 3} for key in manifest["graph"]})),
    ("lookups that are not names", lambda _e, manifest: manifest.update(lookups={"7": 8, "x": [1]})),
    ("module names missing", lambda _e, manifest: manifest.pop("modules")),
    ("files of the wrong shape", lambda _e, manifest: manifest.update(
        files={key: [value[0]] for key, value in manifest["files"].items()})),
    ("an order that is a number", lambda _e, manifest: manifest.update(order=5)),
]


@pytest.mark.parametrize("what, change", WRONG_SHAPES, ids=[what for what, _c in WRONG_SHAPES])
def test_entries_and_manifests_of_the_wrong_shape_are_a_miss(across, what, change):
    """Valid JSON that this jitlint did not write (another version's, a hand edit) is a miss, never a traceback: after
    an edit that needs the records (a partial run), the output is still the cold run's."""
    _same_as_cold("pkg", cwd=across)
    manifest_path = _manifest(across)
    manifest = json.loads(manifest_path.read_text())
    entries = {}
    for path in manifest_path.parent.glob("*.json"):
        entry = json.loads(path.read_text())
        entries[entry["file"]] = entry
        entry["at"] = path
    change(entries, manifest)
    for entry in entries.values():
        entry.pop("at").write_text(json.dumps(entry))
    manifest_path.write_text(json.dumps(manifest))
    helpers = across / "pkg" / "helpers.py"
    helpers.write_text(helpers.read_text().replace("return xs[0]", "return xs[1]"))  # a code edit: net.py reads it
    _same_as_cold("pkg", cwd=across)
    _same_as_cold("pkg", cwd=across)  # and the cache it rewrote serves the next run


def test_a_cache_that_cannot_be_written_is_skipped(package):
    expected = check("pkg", "--no-cache", cwd=package)[:2]
    (package / ".jitlint_cache").write_text("a file where the cache directory would go")
    assert check("pkg", cwd=package)[:2] == expected
    assert check("pkg", cwd=package)[:2] == expected


def test_the_entry_of_a_deleted_file_is_removed(across, monkeypatch):
    _same_as_cold("pkg", cwd=across)
    entries = {json.loads(path.read_text())["file"]: path for path in _manifest(across).parent.glob("*.json")}
    assert "pkg/filler0.py" in entries
    (across / "pkg" / "filler0.py").unlink()
    _same_as_cold("pkg", cwd=across)
    assert not entries["pkg/filler0.py"].exists() and entries["pkg/filler1.py"].exists()
    assert "pkg/filler0.py" not in json.loads(_manifest(across).read_text())["modules"]


def test_a_partial_run_reports_its_progress(across, monkeypatch):
    """The files of a partial run (not the whole run's) are what its progress counts: each parsed, then linted."""
    _same_as_cold("pkg", cwd=across)
    reports = []
    real_share = engine.lint_share

    def share(*args, progress=None, **kwargs):
        return real_share(*args, progress=lambda done, total, phase: reports.append((done, total, phase)), **kwargs)

    monkeypatch.setattr(engine, "lint_share", share)
    helpers = across / "pkg" / "helpers.py"
    helpers.write_text(helpers.read_text().replace("return xs[0]", "return xs[1]"))
    _same_as_cold("pkg", cwd=across)
    files = len(list((across / "pkg").glob("*.py")))
    linted = reports[-1][1] // 2
    assert 1 < linted < files
    assert reports[0] == (0, reports[0][1], f"parse 0/{reports[0][1] // 2} (partial run: {reports[0][1] // 2} of "
                                            f"{files} files)")
    assert any(phase.startswith("capture maps") for _done, _total, phase in reports)
    last = reports[-1]
    assert last[0] == last[1] - 1 and last[2] == f"lint {linted - 1}/{linted} (partial run: {linted} of {files} files)"


def test_a_new_import_root_and_top_level_module(tmp_path, monkeypatch):
    """`jitlint check .` over scripts outside any package: a file in a new directory brings a new import root and a
    new top-level module, which an existing `from helper_mod import f` now finds (before, nothing of that name was in
    the run); only the new file and the importer are explored again."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pyproject.toml").write_text("[tool.jitlint]\n")
    files = {
        "main.py": "import torch.nn as nn\nfrom helper_mod import f\n\n\nclass M(nn.Module):\n"
                   "    def forward(self, x):\n        return f(x)\n",
        **{f"pad{n}.py": f"V{n} = {n}\n" for n in range(3)},
    }
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    first = _same_as_cold(".", cwd=tmp_path)
    assert "helper_mod" not in first
    seen = []
    calls = _watch(monkeypatch, seen)
    (tmp_path / "tools").mkdir()
    (tmp_path / "tools" / "helper_mod.py").write_text("def f(x):\n    return x.numpy()\n")
    cached = check(".", cwd=tmp_path)
    monkeypatch.undo()
    monkeypatch.chdir(tmp_path)
    assert cached[:2] == check(".", "--no-cache", cwd=tmp_path)[:2]
    assert "helper_mod.py:2:12: JIT401" in cached[1]
    assert calls == [("share", ["helper_mod.py", "main.py"])] and seen == [["helper_mod.py", "main.py"]], (calls, seen)


def test_with_a_policy_that_needs_one_process_a_file_leaving_the_run_lints_the_whole_run(across, monkeypatch):
    """`--target fx`'s tracing follows values through callers in other files, which the records do not hold: a
    deleted file (a caller, perhaps) means the whole run, even when the records say nothing read it."""
    _same_as_cold("--target", "fx", "pkg", cwd=across)
    calls = _watch(monkeypatch)
    (across / "pkg" / "filler0.py").unlink()
    cached = check("--target", "fx", "pkg", cwd=across)
    monkeypatch.undo()
    monkeypatch.chdir(across)
    assert cached[:2] == check("--target", "fx", "pkg", "--no-cache", cwd=across)[:2]
    assert calls == [("full", None)], calls

def test_shares_hold_every_file_once_in_the_run_order(tmp_path):
    from jitlint.summaries import summaries

    files = []
    for directory, count in (("a", 5), ("b", 3), ("c", 2), ("d", 1), ("e", 4)):
        for number in range(count):
            path = tmp_path / directory / f"m{number}.py"
            path.parent.mkdir(exist_ok=True)
            path.write_text("x = 1\n" * (10 + number))
            files.append(path)
    files.sort()
    job = pipeline.Job(files, summaries(files, (), None, 1), [], (), Config(root=tmp_path), set())
    shares = pipeline.split(job, 2)
    assert sorted(path for share in shares for path in share) == files
    assert all(share == sorted(share) for share in shares)  # in the run's order
    assert all(shares) and abs(len(shares[0]) - len(shares[1])) <= 2


def test_a_comment_re_lints_only_that_file_where_a_property_has_a_setter(tmp_path, monkeypatch):
    """A property with a setter is compiled through both accessors; the getter's address carries a fifth element
    (how far back it is from the setter). The cache must read such records as its own: a comment in one file of
    the project lints that file alone, not the whole project again."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pyproject.toml").write_text("[tool.jitlint]\n")
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "base.py").write_text(
        "import torch.nn as nn\n\n\nclass Base(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
        "        self._scale = 2\n\n    @property\n    def scale(self) -> int:\n        return self._scale\n\n"
        "    @scale.setter\n    def scale(self, value: int) -> None:\n        self._scale = value\n")
    (tmp_path / "pkg" / "net.py").write_text(
        "import torch\nfrom pkg.base import Base\n\n\nclass Net(Base):\n    def forward(self, x):\n"
        "        return x.numpy() * self.scale\n")
    first = _same_as_cold("pkg", cwd=tmp_path)
    assert "net.py:7:16: JIT401" in first, first
    calls = _watch(monkeypatch)
    net = tmp_path / "pkg" / "net.py"
    net.write_text(net.read_text() + "# a comment\n")
    assert check("pkg", cwd=tmp_path)[1] == first
    assert calls == [("share", ["net.py"])], calls


def test_the_cache_reads_addresses_as_methods_writes_them():
    from jitlint.cache import _well_formed
    from jitlint.methods import is_class_address, is_function_address

    function, getter, cls = ["m", "m.py", "C", "f"], ["m", "m.py", "C", "p", 1], ["m", "m.py", "C"]
    assert is_function_address(function) and is_function_address(tuple(getter)) and is_class_address(cls)
    assert not is_function_address(["m", "m.py", "C", "p", 0]) and not is_function_address(["m", "m.py", "C"])
    assert not is_function_address(["m", "m.py", "C", "p", "1"]) and not is_class_address(function)
    site = ["m.py", "m.py", 0, False, 1, [], False]
    assert _well_formed({"r.py": {"script": [[[getter, cls, "forward"]], [[function, site]]]}})
    assert not _well_formed({"r.py": {"script": [[[["m", "m.py", "C", "p", True], cls, "forward"]], []]}})


def test_a_partial_run_reads_only_the_summaries_its_names_lead_to(package, monkeypatch):
    from jitlint import summaries

    first = check("pkg", cwd=package)[1]
    read: list[str] = []
    real = summaries.read_summary
    monkeypatch.setattr(summaries, "read_summary", lambda path, *rest: read.append(path.name) or real(path, *rest))
    helpers = package / "pkg" / "helpers.py"
    helpers.write_text(helpers.read_text() + "# a comment\n")
    assert check("pkg", cwd=package)[1] == first
    # helpers.py, and model.py whose `forward` calls it (the record of that call names it); not the others
    assert sorted(read) == ["helpers.py", "model.py"]
    read.clear()
    child = package / "pkg" / "child.py"
    child.write_text(child.read_text() + "# a comment\n")
    assert check("pkg", cwd=package)[1] == first
    assert "helpers.py" not in read and "model.py" not in read and "child.py" in read


def test_a_cold_run_has_phase_one_read_the_interfaces_not_its_parent(package, monkeypatch):
    """Each file's interface (its tokens without comments) is what the cache compares after an edit; the parent
    of a run tokenizing every file after the lint was most of its serial CPU. Phase one's forked readers compute
    them beside the summaries; the parent writes what they computed."""
    from jitlint import cache

    real = cache.interface
    calls: list[str] = []
    monkeypatch.setattr(cache, "interface", lambda data, limits: calls.append("here") or real(data, limits))
    check("-j", "2", "pkg", cwd=package)
    assert calls == []  # (the forked readers' calls are theirs)
    [manifest] = (package / ".jitlint_cache" / "static").rglob("run-manifest")
    files = json.loads(manifest.read_text())["files"]
    assert len(files) == 5 and all(
        seen == real(Path(path).read_bytes(), Config().limits()) for path, (_content, seen, _generation) in files.items())



def test_a_comment_keeps_the_findings_of_a_class_captured_through_an_inherited_forward(tmp_path, monkeypatch):
    """`Head` (in `model.py`) has no code of its own: its `forward` and `__init__` are inherited from another file,
    and JIT631 reports it there because that `__init__` stores a `config` another base annotates with a dataclass.
    A comment in `model.py` changes no interface, but the file's own record does not hold what its roots capture
    through another file's code: the edit must still explore them (skipping that lost the finding)."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pyproject.toml").write_text("[tool.jitlint]\n")
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "config.py").write_text(
        "from dataclasses import dataclass\n\n\n@dataclass\nclass Cfg:\n    size: int = 2\n")
    (tmp_path / "pkg" / "base.py").write_text(
        "import torch.nn as nn\n\nfrom pkg.config import Cfg\n\n\nclass Pre(nn.Module):\n    config: Cfg\n\n\n"
        "class GenericHead(nn.Module):\n    def __init__(self, config):\n        super().__init__()\n"
        "        self.config = config\n\n    def forward(self, x):\n        return x\n")
    (tmp_path / "pkg" / "model.py").write_text(
        "from pkg.base import GenericHead, Pre\n\n\nclass Head(GenericHead, Pre): ...\n")
    first = _same_as_cold("pkg", cwd=tmp_path)
    assert "model.py:4:7: JIT631" in first, first
    model = tmp_path / "pkg" / "model.py"
    model.write_text(model.read_text() + "# a comment\n")
    assert check("pkg", cwd=tmp_path)[1] == first


def test_a_partial_run_unpickles_the_summaries_the_full_run_kept(package, monkeypatch):
    """A name that leads through a package's star imports asks for the summary of every module they bind: reading
    each with `ast` again was most of a comment edit's cost on a large library. The full run keeps its summaries in
    the cache; the run after an edit reads with `ast` only the edited file."""
    from jitlint import summaries

    first = check("pkg", cwd=package)[1]
    assert list((package / ".jitlint_cache" / "summaries").rglob("*"))
    parsed: list[str] = []
    real = summaries.summarize
    monkeypatch.setattr(summaries, "summarize", lambda path, *rest: parsed.append(path.name) or real(path, *rest))
    helpers = package / "pkg" / "helpers.py"
    helpers.write_text(helpers.read_text() + "# a comment\n")
    assert check("pkg", cwd=package)[1] == first
    assert parsed == ["helpers.py"]  # (model.py, whose `forward` calls it, is read too: from the cache)


def test_a_partial_run_reads_each_modules_graph_once(package, monkeypatch):
    """What resolving a module's names reads (`ProjectIndex.reads`, the cache's graph) is computed once per module
    in the run after an edit: it was computed twice, the second time for the same project, once for the outcome and
    once for the run's result (a sixth of a comment edit's cost on a large library)."""
    from collections import Counter

    from jitlint.project import ProjectIndex

    first = check("pkg", cwd=package)[1]
    counted: Counter = Counter()
    real = ProjectIndex.reads
    monkeypatch.setattr(ProjectIndex, "reads", lambda self, module: counted.update([str(module.path)]) or real(
        self, module))
    helpers = package / "pkg" / "helpers.py"
    helpers.write_text(helpers.read_text() + "# a comment\n")
    assert check("pkg", cwd=package)[1] == first
    assert counted and max(counted.values()) == 1, counted


def test_a_full_run_keeps_only_the_summaries_of_the_files_as_they_are(tmp_path):
    """Each content of a file gets its own kept summary: a full run removes those it did not read (old contents),
    so edits do not pile them up."""
    from jitlint.engine import _summaries

    (tmp_path / "a.py").write_text("x = 1\n")
    (tmp_path / "b.py").write_text("y = 2\n")
    files, kept = [tmp_path / "a.py", tmp_path / "b.py"], tmp_path / "kept"
    entries = lambda: sorted(path.name for path in kept.rglob("*") if path.is_file())  # noqa: E731
    _summaries(files, {}, [], 1, kept)
    first = entries()
    assert len(first) == 2
    for path in kept.rglob("*"):
        if path.is_file():
            os.utime(path, (1, 1))  # (written long ago)
    (tmp_path / "a.py").write_text("x = 3\n")
    _summaries(files, {}, [], 1, kept)
    second = entries()
    assert len(second) == 2 and len(set(second) & set(first)) == 1  # b.py's, read again; a.py's old one gone
