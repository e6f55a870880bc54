"""The files a run does not parse up front (`jitlint.prefilter`): the run's findings are the same as when every file
is parsed, with one job or several, including in files that matter only through another file."""

import ast
import inspect
import textwrap
from pathlib import Path

import pytest

from jitlint import engine, prefilter
from jitlint.cli import TARGET_OF
from jitlint.config import Config
from jitlint.layout import parse_module
from jitlint.project import ModuleInfo
from jitlint.rules import RULES_BY_CODE

ROOT = Path(__file__).resolve().parents[1]


def _python_files():
    return sorted([*(ROOT / "src").rglob("*.py"), *(ROOT / "tests").rglob("*.py"), *(ROOT / "bench").rglob("*.py"),
                   *(ROOT / "scripts").rglob("*.py")])


def test_the_ast_import_table_and_bases_are_libcsts():
    """What decides a module class without LibCST qualifies names as `ImportTable` does: the same aliases, local
    definitions, top-level classes with the same qualified bases, and top-level functions, on every file here."""
    compared = 0
    for path in _python_files():
        text = path.read_text(encoding="utf-8")
        try:
            tree = ast.parse(text)
        except SyntaxError:
            continue
        summary = prefilter.summarize(path, text, tree)
        module = ModuleInfo.build(path, str(path), parse_module(text), linted=True, text=text)
        where = str(path.relative_to(ROOT))
        assert summary.name == module.name, where
        assert summary.imports.aliases == module.imports.aliases, where
        assert summary.imports.local_definitions == module.imports.local_definitions, where
        assert summary.classes == {name: cls.base_names for name, cls in module.classes.items()}, where
        assert summary.functions == set(module.functions), where
        compared += 1
    assert compared > 100


@pytest.mark.parametrize("code", sorted(prefilter.MODULE_CLASS_ONLY))
def test_the_rules_known_to_fire_only_in_module_classes_do(code):
    """A rule the prefilter trusts to report only in a module class of the file: its `visit_ClassDef` returns at
    once unless `ctx.module_class` finds one, and any other handler returns outside compiled code."""
    rule = RULES_BY_CODE[code]
    assert rule.scope == "anywhere" and not rule.text_hints or code == "JIT623"
    for kind, node_type, method in rule().handlers():
        source = textwrap.dedent(inspect.getsource(method))
        body = [line.strip() for line in source.splitlines()[1:] if line.strip() and not line.strip().startswith("#")]
        if node_type == "ClassDef":
            assert body[:3] == ["cls = ctx.module_class(node)", "if cls is None:", "return"], (code, body[:3])
        else:
            assert body[0].startswith("if ctx.function is None") and "return" in body[1], (code, node_type)


def _write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(textwrap.dedent(text))


# Files that matter only through another file: a subclass with no `forward` of its own (three files up to
# nn.Module, the middle one with no torch import), a helper that only another file's `forward` calls, a helper
# that helper calls in a third file, a file whose only finding comes from a rule that runs outside compiled code
# (a hint word), and files that can matter to nothing (a configuration class, constants).
PACKAGE = {
    "pkg/__init__.py": "",
    "pkg/base.py": """\
        import torch.nn as nn


        class Base(nn.Module):
            def forward(self, x):
                return self.extra(x)
    """,
    "pkg/middle.py": """\
        from pkg.base import Base


        class Middle(Base):
            pass
    """,
    "pkg/leaf.py": """\
        from pkg import middle


        class Leaf(middle.Middle):
            def extra(self, x):
                return x.numpy()
    """,
    "pkg/ops.py": """\
        from pkg.more import deeper


        def helper(x):
            return deeper(x).numpy()
    """,
    "pkg/more.py": """\
        def deeper(x):
            return x.numpy()
    """,
    "pkg/user.py": """\
        import torch.nn as nn
        from pkg.ops import helper


        class User(nn.Module):
            def forward(self, x):
                return helper(x)
    """,
    "pkg/hooks.py": """\
        def attach(model):
            def hook(module, inputs, output, extra):
                return output
            model.register_forward_hook(hook)
    """,
    "pkg/config.py": """\
        class Config(object):
            def __init__(self, size=2):
                self.size = size


        class Sub(Config):
            pass
    """,
    "pkg/consts.py": "X = 1\n",
}


def _findings(root: Path, enabled: set[str], jobs: int, split=None, monkeypatch=None):
    if split is not None:
        def forced(files, shards):
            shares = [[root / name for name in share] for share in split]
            shares[-1].extend(path for path in files if all(path not in share for share in shares))
            return shares

        monkeypatch.setattr(engine, "MIN_FILES_PER_JOB", 1)
        monkeypatch.setattr(engine, "_split", forced)
    run = engine.lint_run([root / "pkg"], Config(root=root), enabled, jobs=jobs)
    return [finding.to_json() for finding in run.findings]


@pytest.mark.parametrize("split", [None, [["pkg/base.py", "pkg/ops.py"], ["pkg/leaf.py", "pkg/more.py"]],
                                   [["pkg/user.py", "pkg/middle.py"], ["pkg/ops.py", "pkg/leaf.py"]]])
def test_files_that_matter_only_through_another_file_keep_their_findings(tmp_path, monkeypatch, split):
    _write(tmp_path, PACKAGE)
    enabled = Config(root=tmp_path).enabled_codes(TARGET_OF)
    parsed: list[str] = []  # read_source: up front, and on demand (`_load_quietly` reads with it)
    on_demand: list[str] = []
    read_source, load = engine.read_source, engine._load_quietly
    monkeypatch.setattr(engine, "read_source", lambda path, *a, **k: parsed.append(Path(path).name) or read_source(
        path, *a, **k))
    monkeypatch.setattr(engine, "_load_quietly", lambda path: on_demand.append(Path(path).name) or load(path))
    jobs = 1 if split is None else len(split)
    with_prefilter = _findings(tmp_path, enabled, jobs, split, monkeypatch)
    up_front, read_at_all = set(parsed) - set(on_demand), set(parsed)
    monkeypatch.setattr(prefilter.Prefilter, "for_run", classmethod(lambda cls, *args: None))
    parsed.clear()
    without = _findings(tmp_path, enabled, jobs, split, monkeypatch)
    assert with_prefilter == without
    where = {(Path(f["filename"]).name, f["code"], f["location"]["row"]) for f in with_prefilter}
    assert {("leaf.py", "JIT401", 6), ("ops.py", "JIT401", 5), ("more.py", "JIT401", 2)} <= where, where
    if split is None:  # (workers count in their own processes)
        # Parsed before the capture maps: the module classes (found through two files' bases; `middle.py` on
        # demand, as leaf.py's base, then linted as it is), the file with a hint word; not the helpers (parsed
        # where `forward` leads), nor the configuration and the constants (never parsed).
        assert {"base.py", "leaf.py", "user.py", "hooks.py"} <= up_front and "middle.py" in on_demand, up_front
        assert not {"ops.py", "more.py", "config.py", "consts.py", "__init__.py"} & up_front, up_front
        assert {"ops.py", "more.py"} <= set(on_demand) and not {"config.py", "consts.py"} & read_at_all
