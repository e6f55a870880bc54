"""The table of torch's own argument checks (`src/jitlint/targets/fx/torch_checks.toml`) stays true: on torch 2.13,
each case fails in plain symbolic_trace with the table's exception and message at the marked line, each listed
distribution class fails when built from a Proxy given as any one of the parameters it requires, and jitlint reports
the table's rule at each of those lines (FX201 for a TraceError, FX211 otherwise) and nothing where the checks are
turned off (`validate_args=...`)."""

import importlib
import inspect
import textwrap
import tomllib

import pytest

from conftest import codes_for, lint_files
from oracles.fx import trace_sources

from jitlint.targets.fx import external

DATA = tomllib.loads(external.TORCH_TABLE.read_text(encoding="utf-8"))
CALLABLES = DATA["callable"]
DISTRIBUTIONS = [name for entry in DATA["distribution"] for name in entry["classes"]]
FORWARDS = DATA["forward"]
MARK = "# fails"


def case_source(entry: dict) -> str:
    return textwrap.dedent(entry["case"]).lstrip("\n")


def marked(source: str) -> list[int]:
    return [row for row, line in enumerate(source.splitlines(), 1) if line.rstrip().endswith(MARK)]


def rule_for(entry: dict) -> str:
    return "FX201" if entry["exception"] == "TraceError" else "FX211"


def resolve(qualified: str):
    module, _, name = qualified.rpartition(".")
    try:
        owner = importlib.import_module(module)
    except ModuleNotFoundError:  # a method: `torch.nn.Module.to`
        owner = resolve(module)
    return getattr(owner, name)


MATRICES = {"covariance_matrix": "torch.eye(3)", "precision_matrix": "torch.eye(3)", "scale_tril": "torch.eye(3)",
            "cov_factor": "torch.ones(3, 1)"}
PROXIES = {"covariance_matrix": "torch.diag_embed(x)", "cov_factor": "x.unsqueeze(-1)"}


def distribution_cases() -> dict[str, tuple[str, str]]:
    """For each listed class and each parameter it requires: a model building it with that parameter a Proxy."""
    cases = {}
    for qualified in DISTRIBUTIONS:
        cls = resolve(qualified)
        parameters = inspect.signature(cls.__init__).parameters
        required = [name for name, p in parameters.items() if name != "self" and p.default is inspect.Parameter.empty]
        if not required:  # every parameter optional (probs= or logits=; MultivariateNormal's matrices)
            required = [name for name in parameters if name != "self"][:2 if "loc" in parameters else 1]
        for proxied in required:
            values = ", ".join(
                f"{name}={PROXIES.get(name, 'x') if name == proxied else MATRICES.get(name, '2 + torch.ones(3)')}"
                for name in required)
            source = textwrap.dedent(f"""\
                import torch
                import torch.nn as nn
                import torch.distributions as D


                class M(nn.Module):
                    def forward(self, x):
                        d = D.{cls.__name__}({values})  {MARK}
                        return x
                """)
            cases[f"{cls.__name__}-{proxied}"] = (qualified, source)
    return cases


def test_every_entry_is_complete_and_names_torchs_own_callables():
    for entry in CALLABLES:
        assert entry["kind"] in ("function", "module-method") and entry["proxy"] == "raises", entry["names"]
        if entry["kind"] == "module-method":
            import torch.nn

            assert all(name.startswith("torch.nn.Module.") for name in entry["names"]), entry["names"]
            assert resolve(entry["names"][0]) is getattr(torch.nn.Module, entry["names"][0].rpartition(".")[2])
        assert entry["exception"] and entry["message"] and entry["why"], entry["names"]
        assert len(marked(case_source(entry))) == 1, entry["names"]
        for name in entry["names"]:
            assert callable(resolve(name)), name
        assert len({resolve(name) for name in entry["names"]}) == 1, entry["names"]
    import torch.distributions

    for qualified in DISTRIBUTIONS:
        cls = resolve(qualified)
        assert issubclass(cls, torch.distributions.Distribution), qualified
        assert getattr(torch.distributions, cls.__name__) is cls, qualified
        assert external.external_callable(qualified) is external.external_callable(
            f"torch.distributions.{cls.__name__}")


@pytest.fixture(scope="module")
def traced(tmp_path_factory):
    sources = {f"call{index}": case_source(entry) for index, entry in enumerate(CALLABLES)}
    sources.update({name: source for name, (_, source) in distribution_cases().items()})
    sources.update({f"forward{index}": case_source(entry) for index, entry in enumerate(FORWARDS)})
    return trace_sources(sources, tmp_path_factory.mktemp("fx_torch_checks"))


@pytest.mark.torch
def test_torch_does_what_the_table_says(traced):
    for index, entry in enumerate(CALLABLES):
        result = traced[f"call{index}"]
        assert result.rejected and result.error_type == entry["exception"], (entry["names"][0], result)
        assert entry["message"] in result.message, (entry["names"][0], result)
        assert result.line == marked(case_source(entry))[0], (entry["names"][0], result)
    (shared,) = DATA["distribution"]
    for name, (_, source) in distribution_cases().items():
        result = traced[name]
        assert result.rejected and result.error_type == shared["exception"], (name, result)
        assert shared["message"] in result.message and result.line == marked(source)[0], (name, result)
    for index, entry in enumerate(FORWARDS):
        result = traced[f"forward{index}"]
        assert result.rejected and result.error_type == entry["exception"], (entry["classes"][0], result)
        assert entry["message"] in result.message, (entry["classes"][0], result)
        assert result.line == marked(case_source(entry))[0], (entry["classes"][0], result)


def test_jitlint_reports_where_the_table_says(tmp_path):
    sources = {f"call{index}.py": case_source(entry) for index, entry in enumerate(CALLABLES)}
    sources.update({f"{name.replace('-', '_')}.py": source for name, (_, source) in distribution_cases().items()})
    findings = lint_files(sources, tmp_path, codes=codes_for("fx"))
    found = {(f.filename.rpartition("/")[2], f.code, f.location.row) for f in findings if f.severity == "error"}
    (shared,) = DATA["distribution"]
    expected = {(f"call{index}.py", rule_for(entry), marked(case_source(entry))[0])
                for index, entry in enumerate(CALLABLES)}
    expected |= {(f"{name.replace('-', '_')}.py", rule_for(shared), marked(source)[0])
                 for name, (_, source) in distribution_cases().items()}
    sources = {f"forward{index}.py": case_source(entry) for index, entry in enumerate(FORWARDS)}
    findings = lint_files(sources, tmp_path / "forwards", codes=codes_for("fx"))
    found |= {(f.filename.rpartition("/")[2], f.code, f.location.row) for f in findings if f.severity == "error"}
    expected |= {(f"forward{index}.py", rule_for(entry), marked(case_source(entry))[0])
                 for index, entry in enumerate(FORWARDS)}
    assert found == expected


CHECKS_OFF = """
import torch
import torch.nn as nn
from torch.distributions import Normal


class Buffers(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("scale", torch.ones(3))

    def __getitem__(self, name):
        return getattr(self, name)


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(3, 3)
        self.buffers_by_name = Buffers()

    def forward(self, x):
        shape = torch.broadcast_shapes((2, 3), (3,))
        self.proj.to(torch.float32).train(self.training)
        self.to("cpu")
        x = x.to(self.proj.weight.device).type(x.dtype) * self.buffers_by_name["scale"].to(x.device)
        return Normal(self.proj(x), 1.0, validate_args=False).loc.expand(shape)
"""


def test_concrete_arguments_and_checks_turned_off_are_not_judged(tmp_path):
    verdict = trace_sources({"off": CHECKS_OFF.lstrip()}, tmp_path)["off"]
    assert not verdict.rejected, verdict
    findings = lint_files({"case.py": CHECKS_OFF}, tmp_path, codes=codes_for("fx"))
    assert [(f.code, f.location.row) for f in findings if f.severity == "error"] == []


GUARDED_PACKAGE = {
    "pkg/__init__.py": "",
    "pkg/dists.py": """
        try:
            import pyro.distributions as base_distributions
        except ImportError:
            import torch.distributions as base_distributions
        """,
    "pkg/base.py": """
        import torch.nn as nn

        try:
            from torch.nn import Identity

            class Base(nn.Module):
                pass
        except ImportError:
            Base = None

        try:
            from torch import _assert
        except ImportError:
            def _assert(condition, message):
                assert condition, message
        """,
    "pkg/model.py": """
        import torch

        from .base import Base, _assert
        from .dists import base_distributions


        class Likelihood(Base):
            def forward(self, x):
                return base_distributions.Normal(x, 1.0).loc  # fails


        class Mean(Base):
            def forward(self, x):
                _assert(x.dim() == 2, "a matrix")
                return x.expand(torch.broadcast_shapes(x.shape, (1, 1)))  # fails
        """,
}


def test_names_reexported_through_the_project_and_classes_defined_in_guarded_blocks(tmp_path):
    """A torch name a project module re-exports (`import torch.distributions as base_distributions` in a `try`) is
    torch's, and a class defined in a `try` body is indexed: both models fail where marked. A fallback defined in an
    `except ImportError:` handler (`_assert`, when `from torch import _assert` fails) is not the project's."""
    findings = lint_files(GUARDED_PACKAGE, tmp_path, codes=codes_for("fx"))
    source = textwrap.dedent(GUARDED_PACKAGE["pkg/model.py"])
    assert sorted((f.code, f.location.row) for f in findings if f.severity == "error") == [
        ("FX201", marked(source)[0]), ("FX211", marked(source)[1])]


FORWARD_PROBE = r"""
import json, sys, warnings
warnings.simplefilter("ignore")
import torch.nn as nn, torch.fx as fx
from torch.nn.modules import batchnorm, instancenorm, padding

PRIVATE = {"_BatchNorm": (batchnorm._BatchNorm, "BatchNorm2d"), "_InstanceNorm": (instancenorm._InstanceNorm,
           "InstanceNorm2d"), "_CircularPadNd": (padding._CircularPadNd, "CircularPad2d")}
ARGUMENTS = [(), (4,), (4, 4), (4, 2)]


def build(torch_class, body):
    subclass = type("Sub", (torch_class,), {"__module__": "user_models", **body})
    for arguments in ARGUMENTS:
        try:
            return subclass(*arguments)
        except Exception:
            continue
    raise RuntimeError(f"cannot build {torch_class}")


def traces(module, inputs):
    class Host(nn.Module):
        def __init__(self):
            super().__init__()
            self.m = module

        def forward(self, x):
            return self.m(*([x] * inputs))

    try:
        fx.symbolic_trace(Host())
        return "ok"
    except Exception as error:
        return f"{type(error).__name__}: {error}"


results = {}
for name, hook in json.loads(sys.argv[1]):
    short = name.rpartition(".")[2]
    if short in PRIVATE:  # a private base: its check is the one of the public class built on it
        base, public = PRIVATE[short]
        torch_class = getattr(nn, public)
        assert issubclass(torch_class, base)
    else:
        torch_class = getattr(nn, short)
    inputs = {"MultiheadAttention": 3, "Transformer": 2}.get(short, 1)
    plain = traces(build(torch_class, {}), inputs)
    overridden = traces(build(torch_class, {hook: lambda self, input: None}), inputs) if hook else None
    results[name] = [plain, overridden]
print(json.dumps(results))
"""


@pytest.mark.torch
def test_every_listed_torch_forward_fails_when_subclassed_and_its_hook_decides_as_the_table_says():
    """Each class of the [[forward]] entries, subclassed outside torch.nn and called with a Proxy, fails with the
    entry's exception and message; overriding its hook with one that accepts anything makes it trace when
    `fails = "hook"`, and not when `fails = "forward"`."""
    import json
    import subprocess
    import sys

    listed = [(name, entry.get("hook")) for entry in FORWARDS for name in entry["classes"]]
    out = subprocess.run([sys.executable, "-c", FORWARD_PROBE, json.dumps(listed)], capture_output=True, text=True,
                         check=True).stdout
    results = json.loads(out.strip().splitlines()[-1])
    for entry in FORWARDS:
        for name in entry["classes"]:
            plain, overridden = results[name]
            assert plain.startswith(entry["exception"]) and entry["message"] in plain, (name, plain)
            if entry.get("hook"):
                assert (overridden == "ok") == (entry["fails"] == "hook"), (name, overridden)


HOOKED = """
import torch.nn as nn
from torch.nn.modules.batchnorm import _BatchNorm


class BatchNorm(_BatchNorm):
    def __init__(self):
        super().__init__(3)

    def _check_input_dim(self, input):
        if input.dim() < 2 or input.dim() > 4:  # fails
            raise ValueError("expected 2D to 4D input")


bN = BatchNorm
"""
HOOKED_SILENT = """
import torch.nn as nn


class Frozen(nn.BatchNorm2d):
    def _check_input_dim(self, input):
        pass


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.bn = Frozen(3)

    def forward(self, x):
        return self.bn(x) * 2
"""


def test_an_overridden_check_is_what_the_inherited_forward_runs(tmp_path):
    """A `_BatchNorm` subclass traced on its own runs torch's forward, which calls the project's
    `_check_input_dim` with the input (a Proxy): it fails at the override's test. An override that checks nothing
    makes a BatchNorm2d subclass trace (verified on torch 2.13). A module-level alias (`bN = BatchNorm`) does not
    make the class a part of another module."""
    hooked, silent = HOOKED.lstrip(), HOOKED_SILENT.lstrip()
    (tmp_path / "torch").mkdir()
    traced = trace_sources({"hooked": hooked, "silent": silent}, tmp_path / "torch")
    assert traced["hooked"].rejected and traced["hooked"].line == marked(hooked)[0], traced["hooked"]
    assert traced["silent"].ok, traced["silent"]
    findings = lint_files({"hooked.py": hooked, "silent.py": silent}, tmp_path / "lint", codes=codes_for("fx"))
    rows = {(f.filename.rpartition("/")[2], f.location.row) for f in findings if f.severity == "error"}
    assert rows == {("hooked.py", marked(hooked)[0])}
