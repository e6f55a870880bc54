"""Targets and the rule registry: rules declared once and discovered, generated tables fresh, `--target`, and that a
new target is a package, not an edit of the engine."""

import json
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

from jitlint.cli import main
from jitlint.codes import CODES
from jitlint.config import Config, ConfigError
from jitlint.rules import RULES, RULES_BY_CODE, SHARED_CODES
from jitlint.rules.base import Rule
from jitlint.targets import all_targets

ROOT = Path(__file__).resolve().parents[1]
MODEL = textwrap.dedent("""\
    import torch.nn as nn


    class M(nn.Module):
        def forward(self, x):
            return x.numpy()
""")


def _load_generate():
    import importlib.util

    spec = importlib.util.spec_from_file_location("generate", ROOT / "scripts" / "generate.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_generated_files_are_fresh():
    result = subprocess.run([sys.executable, str(ROOT / "scripts" / "generate.py"), "--check"],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_freshness_check_sees_a_stale_table():
    generate = _load_generate()
    readme = (ROOT / "README.md").read_text()
    stale = readme.replace("| `script` | `JIT` |", "| `script` | `JOT` |")
    assert stale != readme
    assert generate.readme_text(stale) == readme
    index = (ROOT / "rules" / "README.md").read_text()
    assert "| [JIT301](script/JIT301.md) | `modulelist-index-variable` |" in index
    assert generate.rules_index() == index
    assert generate.codes_module() == (ROOT / "src" / "jitlint" / "codes.py").read_text()


def test_codes_table_matches_the_registry():
    assert list(CODES) == [rule.code for rule in RULES]
    for rule in RULES:
        assert CODES[rule.code] == (rule.name, rule.severity, rule.target, rule.fix)


def test_every_rule_carries_its_targets_prefix_and_a_page():
    targets = all_targets()
    for rule in RULES:
        if rule.target is None:
            assert rule.code in SHARED_CODES and rule.engine_reported
            assert (ROOT / "rules" / "shared" / f"{rule.code}.md").is_file()
        else:
            assert rule.code.startswith(targets[rule.target].prefix)
            assert (ROOT / "rules" / rule.target / f"{rule.code}.md").is_file()
            assert rule.policy in targets[rule.target].policies or rule.engine_reported
        assert rule.summary, rule.code


def test_rules_json_carries_targets_and_fixes():
    result = CliRunner().invoke(main, ["rules", "--output-format", "json"])
    assert result.exit_code == 0
    listed = {entry["code"]: entry for entry in json.loads(result.output)}
    assert set(listed) == set(RULES_BY_CODE)
    assert listed["JIT301"]["target"] == "script" and listed["JIT301"]["fix"] == "safe"
    assert listed["JIT101"]["fix"] == "unsafe" and listed["JIT106"]["fix"] is None
    assert listed["JIT001"]["target"] is None
    assert {"code", "name", "target", "severity", "fix"} <= set(listed["JIT704"])
    # each rule's fix availability is the one it declares (a new rule with a fix needs no edit here)
    declared = {code: rule.fix for code, rule in RULES_BY_CODE.items()}
    assert {code: entry["fix"] for code, entry in listed.items()} == declared
    only = CliRunner().invoke(main, ["rules", "--target", "script"])
    assert only.exit_code == 0 and "JIT301" in only.output
    assert CliRunner().invoke(main, ["rules", "--target", "nope"]).exit_code == 2


def test_a_declaration_is_checked_when_the_class_is_defined():
    with pytest.raises(TypeError, match="kebab-case"):
        type("Bad", (Rule,), {"code": "JIT990", "name": "Not_Kebab", "severity": "error", "message": "m",
                              "policy": "script"})
    with pytest.raises(TypeError, match="severity"):
        type("Bad", (Rule,), {"code": "JIT990", "name": "bad", "severity": "fatal", "message": "m",
                              "policy": "script"})
    with pytest.raises(TypeError, match="fix"):
        type("Bad", (Rule,), {"code": "JIT990", "name": "bad", "severity": "error", "message": "m",
                              "policy": "script", "fix": "maybe"})
    with pytest.raises(TypeError, match="capture policy"):
        type("Bad", (Rule,), {"code": "JIT990", "name": "bad", "severity": "error", "message": "m"})


def test_a_fix_from_a_rule_that_declares_none_is_refused():
    from jitlint.rules.base import PendingFix, RuleContext

    ctx = RuleContext.__new__(RuleContext)
    ctx.findings, ctx.ancestors, ctx.function, ctx.in_pruned_branch = [], [], None, False
    ctx._set_rule(RULES_BY_CODE["JIT106"])  # no fix
    import libcst as cst

    with pytest.raises(TypeError, match="declares `fix = None`"):
        ctx.report(cst.Name("x"), fix=PendingFix("m", []))
    ctx._set_rule(RULES_BY_CODE["JIT101"])  # unsafe
    fix = PendingFix("m", [])
    ctx.report(cst.Name("x"), fix=fix)
    assert fix.applicability == "unsafe"


# -- targets ------------------------------------------------------------------------------------------------------
def _check(tmp_path, *args, config: str | None = None):
    (tmp_path / "m.py").write_text(MODEL)
    if config is not None:
        (tmp_path / "pyproject.toml").write_text(config)
        args = (*args, "--config", str(tmp_path / "pyproject.toml"))
    return CliRunner().invoke(main, ["check", "--no-cache", *args, str(tmp_path / "m.py")])


def test_target_option_and_config_key(tmp_path):
    default = _check(tmp_path)
    assert default.exit_code == 1 and "JIT401" in default.output
    explicit = _check(tmp_path, "--target", "script")
    assert explicit.output == default.output
    configured = _check(tmp_path, config='[tool.jitlint]\ntarget = ["script"]\n')
    assert configured.exit_code == 1 and "JIT401" in configured.output


@pytest.mark.parametrize("args, config, message", [
    (["--target", "nope"], None, "unknown target: `nope`"),
    ([], '[tool.jitlint]\ntarget = ["script", "nope"]\n', "unknown target: `nope`"),
    ([], '[tool.jitlint]\ntarget = []\n', "no target enabled"),
    ([], '[tool.jitlint]\ntarget = "script"\n', "`target` in [tool.jitlint] must be a list of strings"),
])
def test_a_bad_target_is_a_one_line_error(tmp_path, args, config, message):
    result = _check(tmp_path, *args, config=config)
    assert result.exit_code == 2
    assert message in result.output and len(result.output.strip().splitlines()) == 1
    assert "Traceback" not in result.output


def test_selecting_a_code_of_a_target_not_enabled_is_an_error():
    code_targets = {"JIT001": None, "JIT101": "script", "FX101": "fx", "FX102": "fx"}
    with pytest.raises(ConfigError, match=r"`FX1` selects rules of the target `fx`, which is not enabled"):
        Config().enabled_codes(code_targets, ["FX1"])
    with pytest.raises(ConfigError, match="`FX101` selects rules of the target `fx`"):
        Config().enabled_codes(code_targets, cli_extend=["FX101"])
    # enabled: fine; ignoring a code of a target that is not enabled is allowed (a shared configuration)
    assert Config().enabled_codes(code_targets, ["FX1"], cli_targets=["fx"]) == {"FX101", "FX102"}
    assert Config().enabled_codes(code_targets, cli_ignore=["FX101"]) == {"JIT001", "JIT101"}
    # the default selection is every rule of the enabled targets, and the shared file codes
    assert Config().enabled_codes(code_targets, cli_targets=["fx"]) == {"JIT001", "FX101", "FX102"}


TOY_TARGET = {
    "__init__.py": '''
        from jitlint.targets import Target

        TARGET = Target(name="toy", prefix="TOY", description="a target for the tests",
                        policies={"toy": "jitlint.targets.toy.policy:ToyPolicy"})
    ''',
    "policy.py": '''
        from jitlint.capture import CapturePolicy


        class ToyPolicy(CapturePolicy):
            """Captures `forward` of every class named Toy."""

            name = "toy"

            def roots(self):
                for module in self.project.linted:
                    toy = module.classes.get("Toy")
                    if toy is not None and "forward" in toy.methods:
                        yield toy.methods["forward"], toy, "forward of Toy"
    ''',
    "rules/__init__.py": '''
        from jitlint.rules.base import Rule


        class ToyRule(Rule):
            target = "toy"
            policy = "toy"
    ''',
    "rules/returns.py": '''
        from jitlint.targets.toy.rules import ToyRule


        class NoReturn(ToyRule):
            code = "TOY101"
            name = "no-return"
            severity = "error"
            summary = "a return in captured code"
            message = "toys do not return"

            def visit_Return(self, node, ctx):
                ctx.report(node)
    ''',
}


def test_a_new_target_is_a_package_not_an_engine_edit(tmp_path):
    """A package under jitlint/targets/ brings its rules and its capture policy; the engine runs them."""
    package = tmp_path / "targets" / "toy"
    for name, text in TOY_TARGET.items():
        (package / name).parent.mkdir(parents=True, exist_ok=True)
        (package / name).write_text(textwrap.dedent(text))
    source = tmp_path / "m.py"
    source.write_text("class Toy:\n    def forward(self, x):\n        return x\n\n\nclass Other:\n"
                      "    def forward(self, x):\n        return x\n")
    program = textwrap.dedent(f"""
        import jitlint.targets
        jitlint.targets.__path__.append({str(tmp_path / "targets")!r})
        from pathlib import Path
        from jitlint.config import Config
        from jitlint.engine import lint
        from jitlint.rules import RULES_BY_CODE
        assert RULES_BY_CODE["TOY101"].target == "toy"
        config = Config(root=Path({str(tmp_path)!r}))
        enabled = config.enabled_codes({{code: rule.target for code, rule in RULES_BY_CODE.items()}},
                                       cli_targets=["toy"])
        for finding in lint([Path({str(source)!r})], config, enabled):
            print(finding.code, finding.location.row, finding.message)
    """)
    result = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == ["TOY101 3 toys do not return"]  # Toy.forward only, not Other.forward


def test_add_rule_scaffolds_a_class_and_a_page(tmp_path):
    copy = tmp_path / "repo"
    for part in ("src", "rules", "scripts"):
        shutil.copytree(ROOT / part, copy / part, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "README.md", copy / "README.md")
    environment = {"PYTHONPATH": str(copy / "src"), "PATH": "/usr/bin:/bin"}
    result = subprocess.run([sys.executable, str(copy / "scripts" / "add_rule.py"), "JIT799", "toy-rule",
                             "--family", "toys", "--severity", "warning"],
                            capture_output=True, text=True, timeout=120, env=environment)
    assert result.returncode == 0, result.stdout + result.stderr
    assert (copy / "rules" / "script" / "JIT799.md").read_text().startswith("# JIT799 `toy-rule`")
    assert "class ToyRule(ScriptRule):" in (copy / "src/jitlint/targets/script/rules/toys.py").read_text()
    assert '"JIT799": CodeInfo("toy-rule", "warning", "script", None)' in (copy / "src/jitlint/codes.py").read_text()
    assert "| [JIT799](script/JIT799.md) | `toy-rule` |" in (copy / "rules" / "README.md").read_text()
    shown = subprocess.run([sys.executable, "-m", "jitlint", "rule", "JIT799"], capture_output=True, text=True,
                           timeout=120, env=environment, cwd=copy)
    assert shown.returncode == 0 and shown.stdout.startswith("# JIT799 `toy-rule`"), shown.stderr
    again = subprocess.run([sys.executable, str(copy / "scripts" / "add_rule.py"), "JIT799", "other", "--family",
                            "toys"], capture_output=True, text=True, timeout=120, env=environment)
    assert again.returncode == 2 and "exists already" in again.stderr
