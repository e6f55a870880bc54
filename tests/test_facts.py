"""Facts (`jitlint.facts`): declared by the rules that read them, computed once per file (or run) by the engine;
and target settings (`jitlint.settings`): typed, loaded generically, part of the cache key."""

from __future__ import annotations

import textwrap
from dataclasses import dataclass, field
from pathlib import Path

import libcst as cst
import pytest

from jitlint.cache import settings_key
from jitlint.config import Config, ConfigError, load_config
from jitlint.facts import Fact, FactStore, RunFact, UndeclaredFact, run_fact
from jitlint.project import ModuleInfo, ProjectIndex
from jitlint.rules import RULES
from jitlint.rules.base import Rule, RuleContext
from jitlint.settings import SettingsError, TargetSettings
from jitlint.targets import all_targets
from jitlint.targets.export.settings import ExportSettings
from jitlint.targets.fx.settings import FxSettings

SOURCE = textwrap.dedent("""
    def f(x):
        return x

    def g(y):
        return y
""")

computed: list[tuple[str, object]] = []


class Names(Fact):
    """The function's name (per function, the same for every policy)."""

    policy_dependent = False

    @classmethod
    def compute(cls, ctx, node):
        computed.append(("names", ctx.policy))
        return node.name.value


class FileFunctions(Fact):
    """Per file, per policy: the functions of the file, by name, read through `Names`."""

    per = "file"
    requires = (Names,)

    @classmethod
    def compute(cls, ctx, node):
        computed.append(("file", ctx.policy))
        return [ctx.fact(Names, statement) for statement in ctx.module.tree.body
                if isinstance(statement, cst.FunctionDef)]


class Sneaky(Fact):
    """Reads `Names` without declaring it."""

    @classmethod
    def compute(cls, ctx, node):
        return ctx.fact(Names, node)


class Reader:  # stands for a rule class: what `Rule.__init_subclass__` sets on a registered rule
    code = "TST001"
    declared_facts = frozenset({FileFunctions, Names, Sneaky})


class Stranger:
    code = "TST002"
    declared_facts = frozenset()


class _Captured:
    def __init__(self, name: str) -> None:
        self.policy = type("Policy", (), {"name": name, "settings": TargetSettings()})()


def contexts(*policies: str):
    tree = cst.parse_module(SOURCE)
    module = ModuleInfo.build(Path("m.py"), "m.py", tree, linted=True, text=SOURCE)
    store = FactStore()
    project = ProjectIndex()
    result = []
    for policy in policies:
        ctx = RuleContext(module, project, _Captured(policy), policy=policy, facts=store)
        ctx._set_rule(Reader)
        result.append(ctx)
    return tree, result


def test_a_fact_is_computed_once_per_file_and_policy_and_its_requirements_once_per_file():
    computed.clear()
    tree, (script, export) = contexts("script", "export")
    assert script.fact(FileFunctions) == ["f", "g"]
    assert script.fact(FileFunctions) == ["f", "g"]
    assert export.fact(FileFunctions) == ["f", "g"]
    assert export.fact(Names, tree.body[0]) == "f"
    # FileFunctions depends on the policy (once each); Names does not (once per function for both policies).
    assert computed == [("file", "script"), ("names", "script"), ("names", "script"), ("file", "export")]


def test_reading_an_undeclared_fact_is_an_error():
    tree, (ctx,) = contexts("script")
    ctx._set_rule(Stranger)
    with pytest.raises(UndeclaredFact, match="TST002 reads the fact Names"):
        ctx.fact(Names, tree.body[0])
    ctx._set_rule(Reader)
    with pytest.raises(UndeclaredFact, match="Sneaky reads the fact Names"):  # a fact reads what it requires only
        ctx.fact(Sneaky, tree.body[0])


def test_the_scope_of_a_fact_is_checked():
    tree, (ctx,) = contexts("script")
    with pytest.raises(TypeError, match="per-file"):
        ctx.fact(FileFunctions, tree.body[0])
    with pytest.raises(TypeError, match="per-function"):
        ctx.fact(Names)


class Counted(RunFact):
    calls = 0

    @classmethod
    def compute(cls, project, owner, suffix):
        cls.calls += 1
        return owner.name.value + suffix


def test_a_run_fact_is_kept_per_owner_and_key_for_the_run():
    tree, (script, export) = contexts("script", "export")
    Counted.calls = 0
    function = tree.body[0]
    assert run_fact(script.project, Counted, function, "!") == "f!"
    assert run_fact(export.project, Counted, function, "!") == "f!"
    assert run_fact(script.project, Counted, function, "?") == "f?"
    assert Counted.calls == 2


def test_rules_declare_facts_along_their_bases():
    class Base(Rule):
        facts = (Names,)

    class Child(Base):
        facts = (FileFunctions,)

    assert Child.declared_facts == {Names, FileFunctions}
    for rule in RULES:  # every declared fact is a fact
        assert all(issubclass(fact, (Fact, RunFact)) for fact in rule.declared_facts), rule.code


# -- settings --------------------------------------------------------------------------------------------------
def test_each_target_declares_frozen_settings_read_from_its_table():
    targets = all_targets()
    assert targets["export"].settings_class() is ExportSettings
    assert targets["fx"].settings_class() is FxSettings
    assert targets["script"].settings_class() is TargetSettings
    assert FxSettings.from_table({"leaf-modules": ["a.B"], "library-leaves": True}) == FxSettings(
        leaf_modules=frozenset({"a.B"}), library_leaves=True)
    assert Config().settings("export") == ExportSettings()


@pytest.mark.parametrize("table, error", [
    ({"strict": 1}, "`strict` must be true or false"),
    ({"mode": "x"}, "unknown key: `mode`"),
])
def test_settings_tables_are_checked_from_the_annotations(table, error):
    with pytest.raises(SettingsError, match=error):
        ExportSettings.from_table(table)


def test_every_settings_type_a_table_can_hold():
    @dataclass(frozen=True)
    class Every(TargetSettings):
        flag: bool = False
        count: int = 0
        ratio: float = 1.0
        name: str = ""
        names: list[str] = field(default_factory=list)
        table: dict[str, str] = field(default_factory=dict)

    assert Every.from_table({"flag": True, "count": 2, "ratio": 3, "name": "n", "names": ["a"], "table": {"k": "v"}}
                            ) == Every(True, 2, 3.0, "n", ["a"], {"k": "v"})
    for key, value in (("count", True), ("ratio", "1"), ("name", 1), ("names", "a"), ("table", {"k": 1})):
        with pytest.raises(SettingsError, match=f"`{key}` must be"):
            Every.from_table({key: value})


def test_a_table_of_a_target_without_settings_is_unknown(tmp_path):
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text("[tool.jitlint]\n[tool.jitlint.script]\nx = 1\n")
    with pytest.raises(ConfigError, match="unknown key in \\[tool.jitlint\\]: `script`"):
        load_config(pyproject)
    pyproject.write_text("[tool.jitlint]\nexport = 1\n")
    with pytest.raises(ConfigError, match="\\[tool.jitlint.export\\] must be a table"):
        load_config(pyproject)


def test_the_cache_key_holds_every_enabled_targets_settings():
    fx_codes = {rule.code for rule in RULES if rule.target == "fx"}
    script_codes = {rule.code for rule in RULES if rule.target == "script"}
    plain, leaves = Config(), Config(target_settings={"fx": FxSettings(leaf_modules=frozenset({"a.B"}))})
    assert settings_key(plain, fx_codes) != settings_key(leaves, fx_codes)
    assert settings_key(plain, script_codes) == settings_key(leaves, script_codes)  # fx is not enabled
