"""Fresh variants of the TorchScript frontend's error sites (tests/data/error_site_variants.toml) are true and found.

- torch 2.13 rejects every "reject" variant with its row's message at the marked line, and scripts every "accept"
  variant (marked `torch`: all variants in one child process);
- jitlint reports an error at the marked line of every "reject" variant, and no error on an "accept" variant (one
  lint run over all variants).

`python tests/test_error_site_variants.py` prints the recall and the misses (jitlint only).
"""

from __future__ import annotations

import importlib.util
import sys
import tempfile
import tomllib
from dataclasses import replace
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data" / "error_site_variants.toml"


def _load_module():
    name = "error_sites"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / "error_sites.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


error_sites = _load_module()
ROWS = {site.id: site for site in error_sites.load().sites}


def load_variants() -> list:
    """Each variant as a Site of its row: the row's message and `located`, the variant's id and case; `rule` holds
    "accept" or "reject"."""
    variants = []
    for raw in tomllib.loads(DATA.read_text(encoding="utf-8"))["variant"]:
        row = ROWS[raw["site"]]
        variant_id = f"{row.id}.{raw['name']}"
        variants.append(replace(row, id=variant_id, case=raw["case"], rule=raw["expect"]))
    return variants


VARIANTS = load_variants()
REJECTED = [v for v in VARIANTS if v.rule == "reject"]
ACCEPTED = [v for v in VARIANTS if v.rule == "accept"]


def lint_all(variants: list) -> dict[str, list[tuple[str, int, str]]]:
    """jitlint's script errors on every variant in one run: (code, row, severity) by variant id."""
    sys.path.insert(0, str(ROOT / "src"))
    from jitlint.codes import TARGET_OF
    from jitlint.config import Config
    from jitlint.engine import lint

    codes = {code for code, target in TARGET_OF.items() if target in ("script", None)}
    by_path: dict[str, str] = {}
    with tempfile.TemporaryDirectory(prefix="error-site-variants-") as tmp:
        paths = []
        for variant in variants:
            path = Path(tmp) / f"{error_sites._module_name(variant.id)}.py"
            path.write_text(variant.case)
            by_path[str(path)] = variant.id
            paths.append(path)
        findings = lint(paths, Config(root=Path(tmp)), codes)
        out: dict[str, list] = {variant.id: [] for variant in variants}
        for finding in findings:
            key = by_path.get(str(Path(tmp) / Path(finding.filename).name))
            if key is not None:
                out[key].append((finding.code, finding.location.row, getattr(finding.severity, "value", str(finding.severity))))
    return out


def found_at_line(variant, findings) -> bool:
    line = variant.marked_line
    return any("error" in severity and error_sites.covered(variant.case, row, line)
               for _code, row, severity in findings)


def test_variants_are_sound():
    names = [v.id for v in VARIANTS]
    assert len(names) == len(set(names))
    for variant in REJECTED:
        assert variant.marked_line is not None, f"{variant.id}: mark exactly one line"
    for variant in ACCEPTED:
        assert "# torch-error-line" not in variant.case and "# site-line" not in variant.case


@pytest.fixture(scope="module")
def torch_results():
    return error_sites.run_torch(VARIANTS, workers=1)


@pytest.mark.torch
def test_torch_decides_every_variant_as_it_says(torch_results):
    wrong = []
    for variant in REJECTED:
        problems = error_sites.torch_says(variant, torch_results.get(variant.id, {}))
        wrong += [f"{variant.id}: {problem}" for problem in problems]
    for variant in ACCEPTED:
        result = torch_results.get(variant.id, {})
        if not result.get("ok"):
            wrong.append(f"{variant.id}: torch rejects it: {result.get('message', '')[:300]}")
    assert wrong == []


@pytest.fixture(scope="module")
def lint_results():
    return lint_all(VARIANTS)


def test_jitlint_reports_every_rejected_variant_at_torchs_line(lint_results):
    missed = [f"{v.id} (line {v.marked_line}): {lint_results[v.id]}" for v in REJECTED
              if not found_at_line(v, lint_results[v.id])]
    assert missed == []


def test_jitlint_reports_no_error_on_accepted_variants(lint_results):
    flagged = [f"{v.id}: {lint_results[v.id]}" for v in ACCEPTED
               if any("error" in severity for _code, _row, severity in lint_results[v.id])]
    assert flagged == []


if __name__ == "__main__":
    results = lint_all(VARIANTS)
    hits = [v for v in REJECTED if found_at_line(v, results[v.id])]
    false = [v for v in ACCEPTED if any("error" in s for _c, _r, s in results[v.id])]
    print(f"recall {len(hits)}/{len(REJECTED)}; accepted variants flagged {len(false)}/{len(ACCEPTED)}")
    for v in REJECTED:
        if v not in hits:
            print(f"  miss {v.id} (line {v.marked_line}): {results[v.id]}")
    for v in false:
        print(f"  false {v.id}: {results[v.id]}")
