"""The files a run does not parse up front (`jitlint.prefilter`): the run's findings are the same as when every file
is parsed, with one job or several, including in files that matter only through another file."""

import ast
import inspect
import json
import textwrap
from pathlib import Path

import pytest

from jitlint import engine, pipeline, prefilter, summary
from jitlint.cli import TARGET_OF
from jitlint.config import Config
from jitlint.layout import parse_module
from jitlint.project import ModuleInfo
from jitlint.rules import RULES_BY_CODE

_GUARDED_IMPORTS = {
    "try_else": """
        try:
            import numpy
        except ImportError:
            numpy = None
        else:
            from torch import nn
        """,
    "try_finally": """
        try:
            pass
        finally:
            from torch.nn import Module as Base
        class M(Base):
            pass
        """,
    "try_body_classes": """
        import torch.nn as nn
        try:
            import apex
            class Fused(nn.Module):
                pass
            def helper():
                pass
        except ImportError:
            class Fused(nn.Module):
                pass
            class Fallback(nn.Module):
                pass
        if apex:
            class Guarded(nn.Module):
                pass
        """,
    "if_elif_else": """
        import sys
        if sys.version_info >= (3, 12):
            from torch import nn
        elif sys.platform == "linux":
            import torch.nn as nn
        else:
            from torch.nn import Module
        """,
}


@pytest.mark.parametrize("name", sorted(_GUARDED_IMPORTS))
def test_guarded_imports_are_bound_as_libcst_binds_them(name, tmp_path):
    """Imports inside `if`/`elif`/`else` and a `try`'s body, handlers, `else` and `finally` (a lazy `__init__`'s
    re-exports) are in the ast table exactly when `ImportTable` has them."""
    text = textwrap.dedent(_GUARDED_IMPORTS[name])
    path = tmp_path / "guarded.py"
    path.write_text(text, encoding="utf-8")
    found = summary.build_module(path, str(path), text, ast.parse(text))
    module = ModuleInfo.build(path, str(path), parse_module(text), linted=True, text=text)
    assert found.imports.aliases == module.imports.aliases
    assert found.imports.local_definitions == module.imports.local_definitions
    assert {cls: info.base_names for cls, info in found.classes.items()} == {
        cls: info.base_names for cls, info in module.classes.items()}
    assert set(found.functions) == set(module.functions)
    for cls, info in module.classes.items():  # the nodes of a class in a `try` body too
        assert found.classes[cls].node.deep_equals(info.node), cls
        assert {name: method.node.deep_equals(info.methods[name].node)
                for name, method in found.classes[cls].methods.items()} == dict.fromkeys(info.methods, True)


MODULE_CLASS_ONLY = sorted(rule.code for rule in RULES_BY_CODE.values() if rule.reports_only_in == "module-class")


def test_the_rules_declared_to_report_outside_compiled_code_are_those_checked():
    assert MODULE_CLASS_ONLY == ["JIT605", "JIT608", "JIT623", "JIT630", "JIT631", "JIT633", "JIT634", "JIT635", "JIT636", "JIT639"]
    assert [rule.code for rule in RULES_BY_CODE.values() if rule.reports_only_in == "wrapper-factory"] == ["JIT632"]


@pytest.mark.parametrize("code", MODULE_CLASS_ONLY)
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
        import torch
        from pkg.user import User


        def attach():
            model = User()

            def hook(module, inputs: torch.Tensor, output):
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


def _record_reads(monkeypatch) -> tuple[list[str], list[str]]:
    """The names of the files the pipeline parses with LibCST (up front, or when captured code reaches the file)
    and of those parsed because captured code reached them (`Worker.promote`)."""
    parsed: list[str] = []
    reached: list[str] = []
    read_source, promote = pipeline.read_source, pipeline.Worker.promote
    monkeypatch.setattr(pipeline, "read_source", lambda path, *a, **k: parsed.append(Path(path).name) or read_source(
        path, *a, **k))
    monkeypatch.setattr(pipeline.Worker, "promote",
                        lambda self, module: reached.append(Path(module.path).name) or promote(self, module))
    return parsed, reached


def _findings(root: Path, enabled: set[str], jobs: int, split=None, monkeypatch=None):
    if split is not None:
        def forced(job, workers):
            shares = [[root / name for name in share] for share in split]
            shares[-1].extend(path for path in job.files if all(path not in share for share in shares))
            order = {path: number for number, path in enumerate(job.files)}
            return [sorted(share, key=order.__getitem__) for share in shares]

        monkeypatch.setattr(pipeline, "MIN_FILES_PER_JOB", 1)
        monkeypatch.setattr(pipeline, "split", forced)
    run = engine.lint_run([root / "pkg"], Config(root=root), enabled, jobs=jobs)
    return [finding.to_json() for finding in run.findings]


@pytest.mark.parametrize("split", [None, [["pkg/base.py", "pkg/ops.py"], ["pkg/leaf.py", "pkg/more.py"]],
                                   [["pkg/user.py", "pkg/middle.py"], ["pkg/ops.py", "pkg/leaf.py"]]])
def test_files_that_matter_only_through_another_file_keep_their_findings(tmp_path, monkeypatch, split):
    _write(tmp_path, PACKAGE)
    enabled = Config(root=tmp_path).enabled_codes(TARGET_OF)
    parsed, reached = _record_reads(monkeypatch)
    jobs = 1 if split is None else len(split)
    with_prefilter = _findings(tmp_path, enabled, jobs, split, monkeypatch)
    up_front, read_at_all, first = set(parsed) - set(reached), set(parsed), list(parsed)
    monkeypatch.setattr(prefilter.Prefilter, "for_run", classmethod(lambda cls, *args: None))
    parsed.clear()
    without = _findings(tmp_path, enabled, jobs, split, monkeypatch)
    assert with_prefilter == without
    where = {(Path(f["filename"]).name, f["code"], f["location"]["row"]) for f in with_prefilter}
    # The compiled code of three files (one reached only through another file's base, two only through another
    # file's `forward`), and the hook of a file where only a rule with `text_hints` reports (JIT624).
    assert {("leaf.py", "JIT401", 6), ("ops.py", "JIT401", 5), ("more.py", "JIT401", 2),
            ("hooks.py", "JIT624", 10)} <= where, where
    if split is None:  # (workers count in their own processes)
        # Parsed before the capture maps: the module classes (found through two files' bases, from the summaries),
        # the file with a hint word; not the helpers (parsed when `forward` reaches them), nor the configuration
        # and the constants (never parsed).
        assert {"base.py", "middle.py", "leaf.py", "user.py", "hooks.py"} <= up_front, up_front
        assert not {"ops.py", "more.py", "config.py", "consts.py", "__init__.py"} & up_front, up_front
        assert {"ops.py", "more.py"} <= set(reached) and not {"config.py", "consts.py"} & read_at_all
        assert len(first) == len(read_at_all), first  # no file parsed twice


# The trace target's roots are module classes too: a helper only a `forward` of another file calls is parsed when
# the capture reaches it, and keeps its findings (the values its caller passes included).
TRACED = {
    "pkg/__init__.py": "",
    "pkg/model.py": """\
        import torch.nn as nn
        from pkg.ops import halve


        class M(nn.Module):
            def forward(self, x):
                return halve(x)
    """,
    "pkg/ops.py": """\
        def halve(x):
            if x.size(0) > 2:
                return x[: x.size(0) // 2]
            return x
    """,
    "pkg/consts.py": "X = 1\n",
}


def test_a_trace_run_parses_up_front_only_what_may_hold_a_root(tmp_path, monkeypatch):
    _write(tmp_path, TRACED)
    enabled = Config(root=tmp_path).enabled_codes(TARGET_OF) | {
        code for code, rule in RULES_BY_CODE.items() if code.startswith("TRC") and not rule.engine_reported}
    parsed, on_demand = _record_reads(monkeypatch)
    with_prefilter = _findings(tmp_path, enabled, 1)
    up_front, read_at_all = set(parsed) - set(on_demand), set(parsed)
    monkeypatch.setattr(prefilter.Prefilter, "for_run", classmethod(lambda cls, *args: None))
    assert with_prefilter == _findings(tmp_path, enabled, 1)
    assert ("ops.py", "TRC201", 2) in {(Path(f["filename"]).name, f["code"], f["location"]["row"])
                                       for f in with_prefilter}
    assert "model.py" in up_front and not {"ops.py", "consts.py"} & up_front, up_front
    assert "ops.py" in on_demand and "consts.py" not in read_at_all


def test_workers_send_their_findings_as_they_lint(tmp_path, monkeypatch):
    """A worker holds no finding to its end: each file's go to the parent once it is linted (held, they were a
    sizeable part of a worker's peak on a large library), and the run prints what one process prints."""
    _write(tmp_path, PACKAGE)
    enabled = Config(root=tmp_path).enabled_codes(TARGET_OF)
    one = _findings(tmp_path, enabled, 1)
    gathered = []
    real = pipeline._gather

    def gather(connections, expected, shown, outcome):
        before = len(outcome.findings)
        results = real(connections, expected, shown, outcome)
        gathered.append((expected, results, outcome.findings[before:]))
        return results

    monkeypatch.setattr(pipeline, "_gather", gather)
    two = _findings(tmp_path, enabled, 2, [["pkg/base.py", "pkg/ops.py", "pkg/hooks.py"],
                                           ["pkg/leaf.py", "pkg/more.py", "pkg/user.py"]], monkeypatch)
    assert two == one and len(one) >= 4
    (expected, done, streamed), = [entry for entry in gathered if entry[0] == "done"]
    rows = lambda findings: sorted(json.dumps(row, sort_keys=True) for row in findings)  # noqa: E731
    assert rows(finding.to_json() for finding in streamed) == rows(one)
    with_findings = {Path(finding.filename).name for finding in streamed}
    assert all(with_findings & {Path(path).name for path in part.linted} for part in done), \
        "each worker lints files with findings"
    assert not any(part.findings for part in done), "the workers' last message carries no findings"


def test_a_deferred_file_keeps_what_its_names_read_but_not_its_text(tmp_path):
    """A file that is never parsed is held to the end of the run as its summary: what the cache needs of its names
    (`import pkg` then `pkg.sub.helper()` reads pkg/sub.py) is kept, its text is not."""
    _write(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/sub.py": """\
            import torch.nn as nn


            def helper(x):
                return x


            class M(nn.Module):
                def forward(self, x):
                    return helper(x)
        """,
        "pkg/cfg.py": """\
            import pkg

            SETTINGS = {"helper": pkg.sub.helper}
        """,
    })
    config = Config(root=tmp_path)
    enabled = config.enabled_codes(TARGET_OF)
    kept: list = []
    summaries = engine._summaries
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(engine, "_summaries", lambda *a, **k: kept.extend(summaries(*a, **k)) or kept)
        run = engine.lint_run([tmp_path / "pkg"], config, enabled, record=True)
    by_name = {Path(item.path).name: item for item in kept}
    assert "cfg.py" in by_name, by_name
    assert "pkg.sub.helper" in by_name["cfg.py"].chains
    held = [*vars(by_name["cfg.py"]).values(), *vars(by_name["cfg.py"].module).values()]
    assert not any(isinstance(value, str) and "SETTINGS" in value for value in held), held
    graph = {Path(path).name: reads for path, reads in run.graph.items()}
    assert [Path(path).name for path in graph["cfg.py"]["defs"]] == ["sub.py"], graph["cfg.py"]


# -- every rule is accounted for, or the prefilter is off -----------------------------------------------------------
def _rules(codes):
    return [RULES_BY_CODE[code]() for code in sorted(codes)]


def _default_script_codes() -> set[str]:
    return {code for code in Config().enabled_codes(TARGET_OF) if code in RULES_BY_CODE
            and not RULES_BY_CODE[code].engine_reported}


def test_the_default_rules_are_all_accounted_for():
    """Each default rule reports only in compiled code, declares `text_hints`, or is known to the prefilter. If this
    fails after adding or changing a rule, the prefilter is off (runs stay correct, but parse every file): give the
    rule correct `text_hints`, or check that it reports only in a module class (and declare `reports_only_in` and
    `checked_handlers` on it, which the test above then checks), or make it report from its visits, not from
    `begin_file`/`end_file`."""
    rules = _rules(_default_script_codes())
    assert prefilter.why_off(rules, ("script",)) is None
    assert prefilter.Prefilter.for_run(rules, ("script",), set()) is not None


def test_the_trace_rules_are_all_accounted_for():
    """The trace target's rules too (its roots, each module class's forward, are the prefilter's module classes):
    with `--target script,trace` the prefilter stays on."""
    codes = _default_script_codes() | {code for code, rule in RULES_BY_CODE.items()
                                       if code.startswith("TRC") and not rule.engine_reported}
    assert prefilter.why_off(_rules(codes), ("script", "trace")) is None
    assert prefilter.why_off(_rules(codes), ("script", "trace", "export")) is not None


class _Gains(RULES_BY_CODE["JIT630"]):  # a known rule that gains a handler (no `code` of its own: not registered)
    def visit_Call(self, node, ctx):
        pass


class _EndFile(RULES_BY_CODE["JIT401"]):  # a compiled-code rule that reports from `end_file`
    def end_file(self, ctx):
        pass


class _Everywhere(RULES_BY_CODE["JIT605"]):
    """JIT605 as a newly added rule might be: it reports every module-level assignment, in any file,
    and declares no `text_hints`."""

    outside_handlers = None

    def visit_Assign(self, node, ctx):
        if ctx.function is None and len(ctx.ancestors) == 3:  # Module > SimpleStatementLine > Assign
            ctx.report(node, "a module-level assignment")


@pytest.mark.parametrize("rule, reason", [
    (_Gains, "JIT630: runs outside compiled code with no text_hints and is not known to the prefilter"),
    (_EndFile, "JIT401: its own begin_file/end_file, not known to the prefilter"),
    (_Everywhere, "JIT605: runs outside compiled code with no text_hints and is not known to the prefilter"),
])
def test_a_rule_the_prefilter_does_not_know_turns_it_off(rule, reason):
    codes = _default_script_codes()
    rules = [rule() if instance.code == rule.code else instance for instance in _rules(codes)]
    assert prefilter.why_off(rules, ("script",)) == reason
    assert prefilter.Prefilter.for_run(rules, ("script",), codes) is None


def test_the_environment_switch_and_other_policies_turn_it_off(monkeypatch):
    rules = _rules(_default_script_codes())
    monkeypatch.setenv(prefilter.ENVIRONMENT, "0")
    assert prefilter.why_off(rules, ("script",)) == "JITLINT_PREFILTER=0"
    monkeypatch.setenv(prefilter.ENVIRONMENT, "1")
    assert prefilter.why_off(rules, ("script",)) is None
    assert prefilter.why_off(rules, ("fx-trace", "script")).startswith("capture policies")


@pytest.mark.parametrize("split", [None, [["pkg/base.py", "pkg/consts.py"], ["pkg/leaf.py", "pkg/config.py"]]])
def test_an_unknown_rule_outside_compiled_code_keeps_its_findings_in_files_nothing_leads_to(tmp_path, monkeypatch,
                                                                                          split):
    """The safety default, end to end (in one process, and in workers): with a rule the prefilter does not know,
    the run parses every file and the rule reports in the constants file; forcing the prefilter on would lose
    that finding."""
    _write(tmp_path, PACKAGE)
    enabled = Config(root=tmp_path).enabled_codes(TARGET_OF)
    jobs = 1 if split is None else len(split)
    monkeypatch.setattr(engine, "RULES", [_Everywhere if rule.code == "JIT605" else rule for rule in engine.RULES])
    findings = _findings(tmp_path, enabled, jobs, split, monkeypatch)
    where = {(Path(f["filename"]).name, f["code"], f["location"]["row"]) for f in findings}
    assert {("consts.py", "JIT605", 1), ("leaf.py", "JIT401", 6)} <= where, where
    monkeypatch.setenv(prefilter.ENVIRONMENT, "0")
    assert _findings(tmp_path, enabled, jobs, split, monkeypatch) == findings
    monkeypatch.delenv(prefilter.ENVIRONMENT)
    # What the safety default prevents: the same rule, trusted as if it were known.
    monkeypatch.setattr(prefilter, "why_off", lambda rules, policies: None)
    forced = {(Path(f["filename"]).name, f["code"]) for f in _findings(tmp_path, enabled, jobs, split, monkeypatch)}
    assert ("consts.py", "JIT605") not in forced and ("leaf.py", "JIT401") in forced


def test_in_a_run_of_several_targets_in_one_process_each_target_s_rules_run_where_its_own_run_would(
        tmp_path, monkeypatch):
    """A run with compile (whose capture follows values across files) is one process that parses every file; the
    script rules still run only on the files a script run parses (up front, or when its capture reaches them), and
    the findings are those of running every rule on every file."""
    _write(tmp_path, PACKAGE)
    compile_codes = {code for code, rule in RULES_BY_CODE.items()
                     if code.startswith("DYN") and not rule.engine_reported}
    enabled = Config(root=tmp_path).enabled_codes(TARGET_OF) | compile_codes
    script, compiled = RULES_BY_CODE["JIT401"].policy, RULES_BY_CODE[sorted(compile_codes)[0]].policy
    ran: dict[str, set[str]] = {}
    real = pipeline.lint_module

    def recording(source, module, project, maps, rules, *args, **kwargs):
        ran.setdefault(Path(source.path).name, set()).update(rule.policy for rule in rules)
        return real(source, module, project, maps, rules, *args, **kwargs)

    monkeypatch.setattr(pipeline, "lint_module", recording)
    assert engine.needs_one_process({script, compiled})
    per_target = _findings(tmp_path, enabled, 2)
    chosen = dict(ran)
    ran.clear()
    monkeypatch.setattr(prefilter.PerTarget, "for_run", classmethod(lambda cls, *args: None))
    assert per_target == _findings(tmp_path, enabled, 2)
    assert ("leaf.py", "JIT401", 6) in {(Path(f["filename"]).name, f["code"], f["location"]["row"]) for f in per_target}
    assert set(chosen) == set(ran) and all(policies == {script, compiled} for policies in ran.values()), ran
    assert {name for name, policies in chosen.items() if script in policies} == {
        "base.py", "middle.py", "leaf.py", "user.py", "hooks.py", "ops.py", "more.py"}, chosen
    assert all(compiled in policies for policies in chosen.values())
