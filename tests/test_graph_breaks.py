"""TorchDynamo's graph-break sites that user code reaches (src/jitlint/targets/compile/graph_breaks.toml) are true.

- the table is sound (ids, fields, a case or a reason, a reason for every row not modelled), its page fresh, its
  summary of torch's registry that of the installed torch, and each row's message torch's for its id;
- torch 2.13 breaks every case with the row's id at the marked line (`check = "eager"`: and gives up the whole
  function there; `check = "limit"`: the marked line's guard fails until the recompile limit), in one child process
  (marked `torch`);
- every rule a row claims reports its code at that line of the case (jitlint only, no torch).
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

from oracles.compile import compile_sources
from conftest import codes_for, lint_files
from jitlint.config import Config
from jitlint.targets.compile.settings import CompileSettings
from oracles import covered_lines

ROOT = Path(__file__).resolve().parents[1]


def _load_module():
    spec = importlib.util.spec_from_file_location("graph_breaks", ROOT / "scripts" / "graph_breaks.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


graph_breaks = _load_module()
TABLE = graph_breaks.load()
COMPILE_CODES = codes_for("compile")
WITH_CASE = [row for row in TABLE.rows if row.case]
MODELLED = [row for row in WITH_CASE if row.modelled]


def test_table_is_sound():
    assert graph_breaks.problems(TABLE, COMPILE_CODES) == []


def test_page_is_fresh():
    assert graph_breaks.PAGE.read_text(encoding="utf-8") == graph_breaks.page_text(TABLE), (
        "rules/compile/graph-breaks.md is stale: run `python scripts/graph_breaks.py`")


def test_rows_name_torchs_messages_and_sites():
    dynamo = graph_breaks._torch_dir() / "_dynamo"
    registry = json.loads((dynamo / "graph_break_registry.json").read_text())
    for row in TABLE.rows:
        assert registry[row.id][0]["Gb_type"] == row.type, row.key
        file = graph_breaks._torch_dir().parent / row.where.split(":")[0]
        assert f'gb_type="{row.type}"' in file.read_text(), f"{row.key}: not raised in {row.where}"


def test_registry_summary_is_the_installed_torchs():
    assert graph_breaks.registry_summary() == TABLE.registry


def test_every_rule_of_the_target_models_a_row():
    breaking = {code for code in COMPILE_CODES if code.startswith("DYN1")}
    assert breaking <= {row.rule for row in TABLE.rows}


@pytest.fixture(scope="module")
def compiled(tmp_path_factory):
    results = compile_sources([graph_breaks.job(row) for row in WITH_CASE], tmp_path_factory.mktemp("graph-breaks"))
    return dict(zip((row.key for row in WITH_CASE), results))


@pytest.mark.torch
@pytest.mark.parametrize("row", WITH_CASE, ids=lambda row: row.key)
def test_torch_breaks_the_case_as_the_row_says(row, compiled):
    result = compiled[row.key]
    assert result.stage is None, f"{row.key}: {result}"
    line = row.marked_line
    if row.check == "limit":
        assert result.limit is not None and line in result.recompile_lines, f"{row.key}: {result}"
        return
    at_line = [item for item in result.breaks if item["lines"] and item["lines"][-1] in covered_lines(row.case, line)]
    assert any(row.id.lower() in item["ids"] for item in at_line), f"{row.key}: marked L{line}, torch {result}"
    if row.check == "eager":
        assert any(item["eager"] for item in at_line), f"{row.key}: torch did not give up the function: {result}"


def _settings(row) -> CompileSettings:
    table = {key.strip(): value.strip() == "true" for key, _, value in
             (item.partition("=") for item in row.settings.split(",") if item.strip())}
    return CompileSettings.from_table(table)


@pytest.mark.parametrize("row", MODELLED, ids=lambda row: row.key)
def test_the_claimed_rule_reports_at_the_line(row, tmp_path):
    config = Config(root=tmp_path, target_settings={"compile": _settings(row)})
    found = [(f.code, f.location.row) for f in lint_files({"case.py": row.case}, tmp_path, codes=COMPILE_CODES,
                                                          config=config)]
    line = row.marked_line
    assert any(code == row.rule and line in covered_lines(row.case, found_row) for code, found_row in found), (
        f"{row.key} claims {row.rule} at line {line}; jitlint reports {found}")
