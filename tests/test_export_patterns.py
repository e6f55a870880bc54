"""The 57 export patterns (and the extra cases of the data-dependence analysis), as minimal cases of this
project (tests/export_patterns.py): jitlint's findings with `--target export` are the marked lines, in default and
strict mode, and torch.export 2.13 agrees: a pattern has an EXP1xx error exactly when torch.export rejects it (but for
the noted exceptions)."""

import re

import pytest

from conftest import codes_for, lint_files
from jitlint.config import Config
from jitlint.targets.export.settings import ExportSettings

from oracles.export import export_sources
from export_patterns import EXTRA, PATTERNS

ALL = PATTERNS + EXTRA
EXPORT_CODES = codes_for("export")


def marks(source: str, strict: bool) -> list[tuple[str, int]]:
    found = []
    for row, line in enumerate(source.splitlines(), 1):
        for kind, codes in re.findall(r"# (expect|default|strict): ([A-Z0-9, ]+)", line):
            if kind == "expect" or kind == ("strict" if strict else "default"):
                found.extend((code, row) for code in re.findall(r"EXP\d{3}", codes))
    return sorted(found)


def lint_pattern(pattern, tmp_path, strict: bool):
    config = Config(root=tmp_path, target_settings={"export": ExportSettings(strict=strict)})
    findings = lint_files({"pattern.py": pattern.source}, tmp_path, codes=EXPORT_CODES, config=config)
    return sorted((f.code, f.location.row) for f in findings if f.code.startswith("EXP"))


def test_the_catalogue_has_57_patterns():
    assert len(PATTERNS) == 57 and len({p.name for p in ALL}) == len(ALL)


@pytest.mark.parametrize("pattern", ALL, ids=lambda p: p.name)
def test_jitlint_flags_the_marked_lines(pattern, tmp_path):
    assert lint_pattern(pattern, tmp_path, strict=False) == marks(pattern.source, strict=False)


@pytest.mark.parametrize("pattern", ALL, ids=lambda p: p.name)
def test_jitlint_flags_the_marked_lines_in_strict_mode(pattern, tmp_path):
    assert lint_pattern(pattern, tmp_path, strict=True) == marks(pattern.source, strict=True)


def _has_blocker(pattern, strict: bool) -> bool:
    return any(code.startswith("EXP1") for code, _row in marks(pattern.source, strict))


@pytest.fixture(scope="module")
def default_results(tmp_path_factory):
    results = export_sources([(p.source, p.inputs, False) for p in ALL], tmp_path_factory.mktemp("patterns"))
    return dict(zip((p.name for p in ALL), results))


# Strict export (TorchDynamo) is slow: run it where the modes disagree, and on a few that agree.
STRICT_CHECKED = [p for p in ALL if p.strict != p.default or p in EXTRA] + [
    p for p in PATTERNS if p.name in ("DataDepIf", "BoolMaskThenBranch", "ScriptedSubmodule", "Print")]


@pytest.fixture(scope="module")
def strict_results(tmp_path_factory):
    results = export_sources([(p.source, p.inputs, True) for p in STRICT_CHECKED], tmp_path_factory.mktemp("strict"))
    return dict(zip((p.name for p in STRICT_CHECKED), results))


@pytest.mark.torch
@pytest.mark.parametrize("pattern", ALL, ids=lambda p: p.name)
def test_torch_export_default_mode(pattern, default_results):
    result = default_results[pattern.name]
    assert result.stage in (None, "export"), f"{pattern.name}: the case itself is broken: {result}"
    assert ("ok" if result.ok else "fail") == pattern.default, f"{pattern.name}: torch.export {result}"
    if not pattern.note:
        assert _has_blocker(pattern, strict=False) == (not result.ok)


@pytest.mark.torch
@pytest.mark.parametrize("pattern", STRICT_CHECKED, ids=lambda p: p.name)
def test_torch_export_strict_mode(pattern, strict_results):
    result = strict_results[pattern.name]
    assert result.stage in (None, "export"), f"{pattern.name}: the case itself is broken: {result}"
    assert ("ok" if result.ok else "fail") == pattern.strict, f"{pattern.name}: strict torch.export {result}"
    if not pattern.note:
        assert _has_blocker(pattern, strict=True) == (not result.ok)
