"""Fixes: each fixable rule page's bad example, fixed, scripts with torch 2.13 (or at least that finding is gone and
torch's next error is a different one) and computes the same eager outputs; and fixing never loses a byte."""

import importlib.util
import itertools
import json
import os
import stat
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

from jitlint import pages
from jitlint.cli import main

from oracles.script import script_source

ROOT = Path(__file__).resolve().parents[1]
FIXABLE = {}


def fixed_text(path: Path, unsafe: bool = True) -> str:
    args = ["check", "--fix", "-q", *(["--unsafe-fixes"] if unsafe else []), str(path)]
    CliRunner().invoke(main, args)
    return path.read_text()


def _fixable_pages():
    runner = CliRunner()
    found = []
    for page in pages.all_pages():
        if page.torch_verdict != "rejects":
            continue
        result = runner.invoke(main, ["check", "--output-format", "json", "--stdin-filename", "bad.py", "-"], input=page.bad)
        if any(f["fix"] and f["code"] == page.code for f in json.loads(result.output)):
            found.append(page)
    return found


FIXABLE_PAGES = _fixable_pages()
_counter = itertools.count()


def _load(path: Path):
    name = f"_fix_case_{next(_counter)}"
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def _value_for(annotation, name: str):
    """A value of the type a parameter is annotated with (a Tensor when it has none or it is a Tensor)."""
    import torch

    # (`typing.List[int].__name__` is just "List": a class by its name, a generic alias by its repr)
    text = annotation if isinstance(annotation, str) else annotation.__name__ if isinstance(annotation, type) else repr(annotation)
    text = text.replace("typing.", "")
    for kind, value in (("bool", True), ("int", 3), ("float", 1.5), ("str", "a")):
        if text == kind:
            return value
    if text.startswith(("List[int]", "list[int]")):
        return [2, 4]
    if text.startswith(("List[", "list[")) and "Tensor" in text:
        return [torch.randn(2, 4), torch.randn(2, 4)]
    return torch.randn(2, 4)


def _candidate_inputs(cls):
    """Argument tuples to call `cls().forward` with: from its annotations (the required parameters, then all of
    them), then a few fixed shapes."""
    import inspect

    import torch

    candidates = []
    try:
        parameters = list(inspect.signature(cls.forward).parameters.values())[1:]
    except (TypeError, ValueError):
        parameters = []
    positional = [p for p in parameters if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    if positional:
        required = [p for p in positional if p.default is p.empty]
        candidates.append(lambda: tuple(_value_for(p.annotation, p.name) for p in required))
        candidates.append(lambda: tuple(_value_for(p.annotation, p.name) for p in positional))
    candidates += [lambda: (torch.randn(2, 4),), lambda: ([torch.randn(3), torch.randn(3)],), lambda: (torch.randn(2, 8),),
                   lambda: (torch.randn(2, 3, 4, 4),), lambda: (torch.randn(2, 4, requires_grad=True),),
                   lambda: (torch.randint(0, 3, (2, 4)),)]  # (an integer tensor last: `range(x.sum().item())`)
    return candidates


def _run(cls, make):
    import torch

    torch.manual_seed(0)
    instance = cls().eval()
    torch.manual_seed(1)
    args = make()
    with torch.no_grad():
        return instance(*args)


def _outputs_pair(before: Path, after: Path):
    """For each module class: its eager outputs before and after the fix, on the first inputs (made from the
    fixed class's annotations, which the fix may have added) that both versions accept."""
    import torch

    old, new = _load(before), _load(after)
    pairs = {}
    for name, cls in sorted(vars(new).items()):
        if not (isinstance(cls, type) and issubclass(cls, torch.nn.Module) and cls.__module__ == new.__name__):
            continue
        old_cls = getattr(old, name, None)
        if old_cls is None:
            continue
        for make in _candidate_inputs(cls):
            try:
                expected, actual = _run(old_cls, make), _run(cls, make)
            except Exception:
                continue
            pairs[name] = (expected, actual)
            break
    return pairs


def _same(a, b) -> bool:
    import torch

    if isinstance(a, torch.Tensor):
        return isinstance(b, torch.Tensor) and a.shape == b.shape and torch.allclose(a, b)
    if isinstance(a, (list, tuple)):
        return type(a) is type(b) and len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    return a == b


def test_these_script_rules_have_fixes():
    assert {page.code for page in FIXABLE_PAGES} >= {"JIT101", "JIT102", "JIT201", "JIT203", "JIT301", "JIT502"}


@pytest.mark.torch
@pytest.mark.parametrize("page", FIXABLE_PAGES, ids=lambda p: p.code)
def test_fixed_bad_example_scripts_and_computes_the_same(page, tmp_path):
    before = tmp_path / "before.py"
    before.write_text(page.bad)
    after = tmp_path / "after.py"
    after.write_text(page.bad)
    fixed = fixed_text(after)
    assert fixed != page.bad
    remaining = json.loads(CliRunner().invoke(main, ["check", "--output-format", "json", str(after)]).output)
    assert page.code not in {f["code"] for f in remaining}, fixed
    original_error = script_source(page.bad, tmp_path, "original.py")
    assert original_error.rejected, f"{page.code}: the bad example {original_error}"
    result = script_source(fixed, tmp_path, "fixed.py")
    assert result.ok or (result.rejected and _shape(result.message) != _shape(original_error.message)), (str(result), fixed)
    pairs = _outputs_pair(before, after)
    assert pairs, "no inputs that the module accepts before and after the fix"
    for name, (expected, actual) in pairs.items():
        assert _same(expected, actual), name


def _shape(message: str) -> str:
    return message.split(":")[0]


def test_diff_prints_and_writes_nothing(tmp_path):
    path = tmp_path / "m.py"
    page = next(p for p in FIXABLE_PAGES if p.code == "JIT301")
    path.write_text(page.bad)
    result = CliRunner().invoke(main, ["check", "--diff", str(path)])
    assert result.exit_code == 1
    assert "-        for i in range(len(self.layers)):" in result.output
    assert "+        for layer in self.layers:" in result.output
    assert path.read_text() == page.bad
    path.write_text(page.good)
    clean = CliRunner().invoke(main, ["check", "--diff", str(path)])
    assert (clean.exit_code, clean.output) == (0, "")


def test_unsafe_fixes_need_the_flag(tmp_path):
    path = tmp_path / "m.py"
    page = next(p for p in FIXABLE_PAGES if p.code == "JIT101")
    path.write_text(page.bad)
    assert fixed_text(path, unsafe=False) == page.bad
    assert "stack(" in fixed_text(path, unsafe=True)


def test_json_fix_carries_edits_and_text_marks_fixable(tmp_path):
    path = tmp_path / "m.py"
    path.write_text("import torch\nimport torch.nn as nn\n\n\nclass M(nn.Module):\n    def forward(self, x, k=2):\n        return x * k\n")
    [finding] = json.loads(CliRunner().invoke(main, ["check", "--output-format", "json", str(path)]).output)
    assert finding["fix"] == {
        "applicability": "safe",
        "message": "annotate `k: int`",
        "edits": [
            {"content": "k: int = ", "location": {"row": 6, "column": 26}, "end_location": {"row": 6, "column": 28}},
        ],
    }
    text = CliRunner().invoke(main, ["check", str(path)]).output
    assert ": JIT201 [*] [error]" in text


def test_a_fix_that_would_not_parse_leaves_the_file_untouched(tmp_path, monkeypatch):
    import jitlint.fixes

    path = tmp_path / "m.py"
    page = next(p for p in FIXABLE_PAGES if p.code == "JIT201")
    path.write_text(page.bad)
    monkeypatch.setattr(jitlint.fixes, "apply_edits", lambda text, fixes: text + "\ndef broken(:\n")
    result = CliRunner().invoke(main, ["check", "--fix", str(path)])
    assert path.read_text() == page.bad
    assert "a fix produced code that does not parse" in result.output + (result.stderr if hasattr(result, "stderr") else "")
    assert result.exit_code == 1  # the finding is still there


def test_a_file_changed_on_disk_during_the_run_is_not_overwritten(tmp_path, monkeypatch):
    import jitlint.fixes

    path = tmp_path / "m.py"
    page = next(p for p in FIXABLE_PAGES if p.code == "JIT201")
    path.write_text(page.bad)
    real_fix_sources = jitlint.fixes.fix_sources

    def edit_meanwhile(*args, **kwargs):
        results = real_fix_sources(*args, **kwargs)
        path.write_text(page.bad + "# the user saved again\n")
        return results

    monkeypatch.setattr(jitlint.fixes, "fix_sources", edit_meanwhile)
    result = CliRunner().invoke(main, ["check", "--fix", str(path)])
    assert path.read_text() == page.bad + "# the user saved again\n"
    assert "changed on disk" in result.output


def test_fixes_see_the_whole_run_like_check(tmp_path, monkeypatch):
    """A helper is compiled only because another file's `forward` calls it: its fix is shown and applied too."""
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "model.py").write_text(
        "import torch\nimport torch.nn as nn\n\nfrom pkg.helpers import helper\n\n\n"
        "class Model(nn.Module):\n    def forward(self, x):\n        return helper(x)\n"
    )
    helpers = package / "helpers.py"
    helpers.write_text("import torch\n\n\ndef helper(x, scale=1.0):\n    return x * scale\n")
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    found = json.loads(runner.invoke(main, ["check", "--no-cache", "--output-format", "json", "pkg"]).output)
    assert [(f["filename"], f["code"], f["fix"]["applicability"]) for f in found] == [
        (os.path.join("pkg", "helpers.py"), "JIT201", "safe")]
    diff = runner.invoke(main, ["check", "--diff", "pkg"])
    assert diff.exit_code == 1
    assert "+++ b/pkg/helpers.py" in diff.output and "+def helper(x, scale: float = 1.0):" in diff.output
    assert "model.py" not in diff.output
    fixed = runner.invoke(main, ["check", "--fix", "pkg"])
    assert fixed.exit_code == 0, fixed.output
    assert helpers.read_text() == "import torch\n\n\ndef helper(x, scale: float = 1.0):\n    return x * scale\n"
    after = json.loads(runner.invoke(main, ["check", "--no-cache", "--output-format", "json", "pkg"]).output)
    assert after == []
    # An editor fixing its buffer of helpers.py with the package named: the same project as `check` of both.
    helpers.write_text("import torch\n\n\ndef helper(x, scale=1.0):\n    return x * scale\n")
    piped = runner.invoke(main, ["check", "--fix", "--stdin-filename", "pkg/helpers.py", "-", "pkg"],
                          input=helpers.read_text())
    assert piped.output == "import torch\n\n\ndef helper(x, scale: float = 1.0):\n    return x * scale\n"


def test_fixing_keeps_permissions_bom_and_line_endings(tmp_path):
    path = tmp_path / "m.py"
    source = "import torch\r\nimport torch.nn as nn\r\n\r\n\r\nclass M(nn.Module):\r\n    def forward(self, x, k=2):\r\n        return x * k\r\n"
    path.write_bytes(b"\xef\xbb\xbf" + source.encode())
    os.chmod(path, 0o640)
    CliRunner().invoke(main, ["check", "--fix", str(path)])
    data = path.read_bytes()
    assert data.startswith(b"\xef\xbb\xbf") and b"def forward(self, x, k: int = 2):\r\n" in data
    assert data.count(b"\r\n") == source.count("\r\n")
    assert stat.S_IMODE(path.stat().st_mode) == 0o640
    assert [p.name for p in tmp_path.iterdir()] == ["m.py"]  # no temporary file left behind


@pytest.mark.parametrize("page", [p for p in pages.all_pages() if p.target in ("script", "shared")], ids=lambda p: p.code)
def test_page_states_the_fix_safety_its_rule_offers(page):
    """Pages of the default target (the check lints with it); other targets' tests check their own pages."""
    section = page.text.split("## Fix safety\n", 1)[1]
    # Every page whose example gets a fix, warnings torch accepts included (JIT232: torch rejects only some builds).
    result = CliRunner().invoke(main, ["check", "--output-format", "json", "--stdin-filename", "bad.py", "-"], input=page.bad)
    applicabilities = {f["fix"]["applicability"] for f in json.loads(result.output) if f["fix"] and f["code"] == page.code}
    if applicabilities:
        [applicability] = applicabilities
        assert section.startswith(f"**{applicability.capitalize()}**"), page.code
    else:
        # rules whose fix does not apply to their page's example say so in their section
        assert not section.startswith(("**Safe**", "**Unsafe**")) or page.code in ("JIT401", "JIT402", "JIT412", "JIT602"), page.code


EXTRA_CASES = {
    # eager-only statements into @torch.jit.ignore helpers (unsafe), JIT401 and JIT402
    "eager-helper": ("""
        import logging

        import torch
        import torch.nn as nn

        log = logging.getLogger(__name__)


        class Probe(nn.Module):
            def __init__(self):
                super().__init__()
                self.lin = nn.Linear(4, 4)

            def forward(self, x, scale: float = 1.0):
                y = self.lin(x) * scale
                print(x.detach().numpy().shape)
                log.info("scale %s", scale)
                return y
    """, {"JIT401", "JIT402"}),
    # an empty container whose element type compiled code shows: a class-level annotation (safe), JIT602
    "empty-container-annotation": ('''
        import torch
        import torch.nn as nn


        class History(nn.Module):
            """Keeps what it saw."""

            def __init__(self):
                super().__init__()
                self.seen = []
                self.sizes = []

            def forward(self, x):
                self.seen.append(x * 2)
                self.sizes.append(x.size(0))
                return x * len(self.seen) * len(self.sizes)
    ''', {"JIT602"}),
}


@pytest.mark.torch
@pytest.mark.parametrize("name", EXTRA_CASES)
def test_more_fixes_script_and_compute_the_same(name, tmp_path):
    source, codes = EXTRA_CASES[name]
    source = textwrap.dedent(source)
    before, after = tmp_path / "before.py", tmp_path / "after.py"
    before.write_text(source)
    after.write_text(source)
    listed = json.loads(CliRunner().invoke(main, ["check", "--output-format", "json", str(after)]).output)
    assert {f["code"] for f in listed} == codes and all(f["fix"] for f in listed)
    fixed = fixed_text(after)
    remaining = json.loads(CliRunner().invoke(main, ["check", "--output-format", "json", str(after)]).output)
    assert remaining == [], fixed
    original = script_source(source, tmp_path, "original.py")
    assert original.rejected, f"{name}: the original {original}"
    fixed_result = script_source(fixed, tmp_path, "fixed.py")
    assert fixed_result.ok, (str(fixed_result), fixed)
    pairs = _outputs_pair(before, after)
    assert pairs, "no inputs that the module accepts before and after the fix"
    for name, (expected, actual) in pairs.items():
        assert _same(expected, actual), name


def test_eager_helper_is_not_offered_when_the_statement_reads_a_local(tmp_path):
    path = tmp_path / "m.py"
    path.write_text(textwrap.dedent(EXTRA_CASES["eager-helper"][0]).replace("print(x.detach()", "print(y.detach()"))
    listed = json.loads(CliRunner().invoke(main, ["check", "--output-format", "json", str(path)]).output)
    assert [(f["code"], f["fix"] is None) for f in listed] == [("JIT401", True), ("JIT402", False)]


_PACKAGE_OUTPUTS = """
import sys
import torch
sys.path.insert(0, sys.argv[1])
from fixable.model import Model
torch.manual_seed(0)
model = Model().eval()
torch.manual_seed(1)
x = torch.randn(3, 4)
with torch.no_grad():
    out = model(x, steps=2)
if sys.argv[3] == "script":
    scripted = torch.jit.script(model)
    with torch.no_grad():
        assert torch.allclose(scripted(x, steps=2), out)
torch.save(out, sys.argv[2])
"""


@pytest.mark.torch
def test_fixes_compose_over_a_package_and_its_model_scripts(tmp_path):
    """fixtures/fixable: problems in two files, two fixes on one loop (JIT110 then JIT301 on the next pass), a
    helper fixed because another file's forward calls it. One `--fix --unsafe-fixes` run makes the model script,
    and it computes what it computed."""
    import shutil

    import torch

    source = ROOT / "fixtures" / "fixable"
    copy = tmp_path / "src"
    shutil.copytree(source, copy / "fixable")
    run = CliRunner().invoke(main, ["check", "--no-cache", "--fix", "--unsafe-fixes", "-q", str(copy / "fixable")])
    assert run.exit_code == 0, run.output
    assert json.loads(CliRunner().invoke(main, ["check", "--no-cache", "--output-format", "json", str(copy / "fixable")]).output) == []
    for path in (copy / "fixable").iterdir():
        if path.suffix == ".py":
            compile(path.read_text(), str(path), "exec")
    outputs = {}
    for label, root, mode in (("before", ROOT / "fixtures", "eager"), ("after", copy, "script")):
        target = tmp_path / f"{label}.pt"
        result = subprocess.run([sys.executable, "-c", _PACKAGE_OUTPUTS, str(root), str(target), mode],
                                capture_output=True, text=True)
        assert result.returncode == 0, result.stderr[-2000:]
        outputs[label] = torch.load(target)
    assert torch.allclose(outputs["before"], outputs["after"])
    # and the original does not script
    failed = subprocess.run([sys.executable, "-c", _PACKAGE_OUTPUTS, str(ROOT / "fixtures"), str(tmp_path / "x.pt"), "script"],
                            capture_output=True, text=True)
    assert failed.returncode != 0
