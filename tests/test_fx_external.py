"""The table of external callables (`src/jitlint/targets/fx/external.toml`) stays true: on torch 2.13 with the library
installed, each case of a callable that raises fails in plain symbolic_trace with the table's exception and message
at the marked line, and each case of a callable that traces traces; jitlint reports FX211 at each marked line and no
FX2xx error in the cases that trace; a library callable the table does not list is unknown and draws nothing."""

import importlib.metadata
import textwrap
import tomllib
from pathlib import Path

import pytest

from conftest import codes_for, lint_files
from oracles.fx import trace_sources

from jitlint.targets.fx import external

DATA = tomllib.loads(external.TABLE.read_text(encoding="utf-8"))
LIBRARIES = {library["name"]: library for library in DATA["library"]}
ENTRIES = DATA["callable"]
MARK = "# fails"


def case_source(entry: dict) -> str:
    return textwrap.dedent(entry["case"]).lstrip("\n")


def marked(source: str) -> list[int]:
    return [row for row, line in enumerate(source.splitlines(), 1) if line.rstrip().endswith(MARK)]


def entry_id(entry: dict) -> str:
    return entry["names"][0]


def test_every_entry_is_complete():
    assert ENTRIES
    for entry in ENTRIES:
        library = entry["names"][0].partition(".")[0]
        assert library in LIBRARIES, entry["names"]
        assert all(name.partition(".")[0] == library for name in entry["names"]), entry["names"]
        assert library != "torch", "torch's own callables are modelled by the tracing model itself"
        assert entry["kind"] in ("function", "module") and entry["proxy"] in ("raises", "traces"), entry["names"]
        assert entry["why"], entry["names"]
        marks = marked(case_source(entry))
        if entry["proxy"] == "raises":
            assert entry["exception"] and entry["message"], entry["names"]
            assert entry["argument"] == "any" or isinstance(entry["argument"], int), entry["names"]
            assert len(marks) == 1, f"{entry['names'][0]}: mark the one line torch points at"
        else:
            assert not marks, entry["names"]


def test_the_loaded_table_knows_every_name():
    known = external.table()
    for entry in ENTRIES:
        for name in entry["names"]:
            assert known[name].name == entry["names"][0]
    assert external.external_callable("einops.not_a_function") is None


def distribution(library: str) -> str:
    """The distribution that installs the importable package `library` (`pywt` is PyWavelets')."""
    return next(iter(importlib.metadata.packages_distributions().get(library, [])), library)


def installed(library: str) -> bool:
    try:
        importlib.metadata.version(distribution(library))
    except importlib.metadata.PackageNotFoundError:
        return False
    return True


@pytest.fixture(scope="module")
def traced(tmp_path_factory):
    directory = tmp_path_factory.mktemp("fx_external")
    return trace_sources({f"case{index}": case_source(entry) for index, entry in enumerate(ENTRIES)
                          if installed(entry["names"][0].partition(".")[0])}, directory)


@pytest.mark.torch
@pytest.mark.parametrize("index", range(len(ENTRIES)), ids=[entry_id(e) for e in ENTRIES])
def test_torch_does_what_the_table_says(index, traced):
    entry = ENTRIES[index]
    library = entry["names"][0].partition(".")[0]
    if not installed(library):
        pytest.skip(f"{library} is not installed")
    result = traced[f"case{index}"]
    version = importlib.metadata.version(distribution(library))
    if entry["proxy"] == "traces":
        assert result.ok, f"{entry['names'][0]} ({library} {version}): {result}"
        return
    assert result.rejected, f"{entry['names'][0]} ({library} {version}): {result}"
    assert result.error_type == entry["exception"], f"{library} {version}: {result}"
    assert entry["message"] in result.message, f"{library} {version}: {result}"
    assert result.line == marked(case_source(entry))[0], f"{library} {version}: {result}"


@pytest.mark.parametrize("index", range(len(ENTRIES)), ids=[entry_id(e) for e in ENTRIES])
def test_jitlint_reports_where_the_table_says(index, tmp_path):
    entry = ENTRIES[index]
    source = case_source(entry)
    findings = lint_files({"case.py": source}, tmp_path, codes=codes_for("fx"))
    errors = {(f.code, f.location.row) for f in findings if f.code.startswith("FX2") and f.severity == "error"}
    expected = {("FX211", row) for row in marked(source)}
    assert errors == expected, f"{entry['names'][0]}: {sorted(errors)}"


def test_a_callable_the_table_does_not_list_is_unknown(tmp_path):
    source = """
    import torch.nn as nn
    from einops import some_future_function
    from otherlib import transform


    class M(nn.Module):
        def forward(self, x):
            y = some_future_function(x, "b c -> c b")
            z = transform(x)
            return y + z
    """
    findings = lint_files({"case.py": source}, tmp_path, codes=codes_for("fx"))
    assert [(f.code, f.location.row) for f in findings if f.severity == "error"] == []


def test_a_project_function_of_the_same_name_is_the_projects(tmp_path):
    """A project that defines its own `rearrange` (or vendors einops) is traced as its own code."""
    files = {
        "einops.py": "def rearrange(x, pattern):\n    return x.transpose(0, 1)\n",
        "model.py": textwrap.dedent("""
            import torch.nn as nn
            from einops import rearrange


            class M(nn.Module):
                def forward(self, x):
                    return rearrange(x, "b c -> c b")
            """),
    }
    findings = lint_files(files, tmp_path, codes=codes_for("fx"))
    assert [(Path(f.filename).name, f.code) for f in findings if f.severity == "error"] == []


OPTIONAL_SUBMODULE = """
import torch.nn as nn
from einops import rearrange


class Block(nn.Module):
    def __init__(self, dim=4, time_dim=4):
        super().__init__()
        self.mlp = nn.Sequential(nn.SiLU(), nn.Linear(time_dim, dim)) if time_dim is not None else None
        self.proj = nn.Linear(dim, dim)

    def forward(self, x, t):
        if self.mlp is not None:
            t = self.mlp(t)
            x = x + rearrange(t, "b c -> b c")  # fails
        return self.proj(x)
"""


@pytest.mark.torch
def test_an_optional_submodule_returns_what_its_steps_return(tmp_path):
    """`self.mlp = nn.Sequential(...) if cond else None`: when it is called it is the Sequential (calling None
    fails in eager too), so its result is a Proxy and einops raises on it."""
    pytest.importorskip("einops")
    source = textwrap.dedent(OPTIONAL_SUBMODULE).lstrip("\n")
    (tmp_path / "torch").mkdir()
    result = trace_sources({"optional": source}, tmp_path / "torch")["optional"]
    assert result.rejected and result.line == marked(source)[0], result
    findings = lint_files({"case.py": source}, tmp_path / "lint", codes=codes_for("fx"))
    errors = {(f.code, f.location.row) for f in findings if f.severity == "error"}
    assert errors == {("FX211", marked(source)[0])}


BUILT_TO_TRACE = """
import torch.nn as nn
from torchaudio.transforms import MFCC, LFCC


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.mfcc = MFCC(sample_rate=16000, n_mfcc=8, log_mels=True, melkwargs={"n_fft": 64, "n_mels": 16})
        self.lfcc = nn.Sequential(LFCC(16000, 16, 0.0, None, 8, 2, "ortho", True, {"n_fft": 64}))
        self.positional = MFCC(16000, 8, 2, "ortho", True, {"n_fft": 64, "n_mels": 16})

    def forward(self, x):
        return self.mfcc(x).sum() + self.lfcc(x).sum() + self.positional(x).sum()
"""


@pytest.mark.parametrize("torch_side", [False, pytest.param(True, marks=pytest.mark.torch)])
def test_a_module_built_with_the_argument_that_skips_its_check_is_unknown(torch_side, tmp_path):
    """`MFCC(log_mels=True)` / `LFCC(..., log_lf)` (by keyword, or positionally) never reach
    `AmplitudeToDB(top_db=80)`: they trace, and jitlint stays silent there."""
    source = textwrap.dedent(BUILT_TO_TRACE).lstrip("\n")
    if torch_side:
        pytest.importorskip("torchaudio")
        result = trace_sources({"built": source}, tmp_path)["built"]
        assert result.ok, result
        return
    findings = lint_files({"case.py": source}, tmp_path, codes=codes_for("fx"))
    assert [(f.code, f.location.row) for f in findings if f.severity == "error"] == []


BUILT_WITH_THE_FLAG_OFF = """
import torch.nn as nn
from torchaudio.transforms import MFCC


class Keyword(nn.Module):
    def __init__(self):
        super().__init__()
        self.mfcc = MFCC(sample_rate=16000, n_mfcc=8, log_mels=False, melkwargs={"n_fft": 64, "n_mels": 16})

    def forward(self, x):
        return self.mfcc(x)  # fails


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.mfcc = MFCC(16000, 8, 2, "ortho", False, {"n_fft": 64, "n_mels": 16})

    def forward(self, x):
        return self.mfcc(x)  # fails
"""


@pytest.mark.parametrize("torch_side", [False, pytest.param(True, marks=pytest.mark.torch)])
def test_the_argument_passed_as_false_does_not_skip_the_check(torch_side, tmp_path):
    """`log_mels=False` written out (by keyword or at its position) is the default: forward still reaches
    `AmplitudeToDB(top_db=80)` and fails."""
    source = textwrap.dedent(BUILT_WITH_THE_FLAG_OFF).lstrip("\n")
    if torch_side:
        pytest.importorskip("torchaudio")
        result = trace_sources({"off": source}, tmp_path)["off"]
        assert result.rejected and result.line == marked(source)[-1], result
        return
    findings = lint_files({"case.py": source}, tmp_path, codes=codes_for("fx"))
    assert sorted((f.code, f.location.row) for f in findings if f.severity == "error") == [
        ("FX211", row) for row in marked(source)]
