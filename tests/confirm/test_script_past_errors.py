"""The script strategy's units, compiled past their own errors: a refused default placed at its parameter and the
parameter then typed from it, an `if` whose condition fails compiled with its body, failing statements left out while
a static error of the unit lies after them (or anywhere, after a refusal of torch's frontend), a call of a function
with no source placed at that call, and a module that skipped `nn.Module.__init__`. Each file holds an error that
masks another."""

import pytest

from .project import dynamic_findings, write_project

pytestmark = pytest.mark.torch

CONFIG = "[tool.jitlint.dynamic]\ntimeout = 120\n"


def _statuses(findings, code):
    return {f["location"]["row"]: f["confirmation"] for f in findings if f["code"] == code}


# Torch checks a default against its parameter's type once the body compiled, names the whole `def` (its first line)
# and stops at the first such parameter: each refused default is placed at its parameter's own line, and the
# parameter is then annotated with its default's type (what the user would write) to see the next one.
DEFAULTS = '''
import torch
import torch.nn as nn


def select(
    x: torch.Tensor, method='mean',
    threshold=0.5,
    weight=2.0,
):
    return x


class Net(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return select(x)
'''


def test_each_refused_default_is_confirmed_at_its_own_parameter(tmp_path):
    write_project(tmp_path, {"dpkg/__init__.py": "", "dpkg/net.py": DEFAULTS, "pyproject.toml": CONFIG})
    found = _statuses(dynamic_findings(tmp_path, "dpkg"), "JIT201")
    assert set(found) == {7, 8, 9}, found
    for row, parameter in ((7, "method"), (8, "threshold"), (9, "weight")):
        assert found[row]["status"] == "confirmed", found
        assert f'on parameter "{parameter}"' in found[row]["detail"], found[row]
    # no JIT000 at the `def` line: torch's error there is each parameter's
    assert not [f for f in dynamic_findings(tmp_path, "dpkg") if f["code"] == "JIT000"]


# An `if` whose condition torch refuses (a parameter with no annotation is a Tensor, compared with a string) is
# compiled again with a condition torch cannot decide, so its body's errors show; an `isinstance` condition is one
# torch decides itself (the branch is never compiled when it is false): it is left out whole, its body unseen.
CONDITION = '''
import numpy as np
import torch
import torch.nn as nn


def pick(x: torch.Tensor, method) -> torch.Tensor:
    if method == "largest":
        values = x.numpy()
    return x


def check(x: torch.Tensor) -> torch.Tensor:
    if isinstance(x, np.ndarray):
        values = x.numpy()
    return x


class Net(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return pick(x, "largest") + check(x)
'''


def test_the_body_of_an_if_whose_condition_fails_is_compiled(tmp_path):
    write_project(tmp_path, {"cpkg/__init__.py": "", "cpkg/net.py": CONDITION, "pyproject.toml": CONFIG})
    findings = dynamic_findings(tmp_path, "cpkg")
    numpy = _statuses(findings, "JIT401")
    assert numpy[9]["status"] == "confirmed", numpy
    assert "(line 9, the function's earlier failing statements left out)" in numpy[9]["detail"], numpy
    # the branch torch decides statically stays unseen: not confirmed, not refuted
    assert numpy[15]["status"] == "unverified", numpy


# A unit's failing statements are left out while a static error of it lies after them, however many there are (here
# three statements torch refuses before the one the static error is on); none is left out past the last one.
MANY = '''
import torch
import torch.nn as nn


def many(x: torch.Tensor) -> torch.Tensor:
    a = torch.nn.utils.rnn.pad_sequence([x], "a")
    b = torch.nn.utils.rnn.pad_sequence([x], "b")
    c = torch.nn.utils.rnn.pad_sequence([x], "c")
    return x.numpy()


def first(x: torch.Tensor) -> torch.Tensor:
    y = x.numpy()
    a = torch.nn.utils.rnn.pad_sequence([x], "a")
    b = torch.nn.utils.rnn.pad_sequence([x], "b")
    return x


class Net(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return many(x) + first(x)
'''


def test_failing_statements_are_left_out_while_a_static_error_lies_after_them(tmp_path):
    write_project(tmp_path, {"mpkg/__init__.py": "", "mpkg/net.py": MANY, "pyproject.toml": CONFIG})
    findings = dynamic_findings(tmp_path, "mpkg")
    numpy = _statuses(findings, "JIT401")
    assert numpy[10]["status"] == "confirmed", numpy
    assert "(line 10, the function's earlier failing statements left out)" in numpy[10]["detail"], numpy
    assert numpy[14]["status"] == "confirmed", numpy
    # `first`'s static error is its first statement: nothing is left out past it, so torch's refusals at lines 15
    # and 16 are never seen (the model's own run stops at line 7 and ignores `many`, then at 14 and ignores `first`)
    assert not {f["location"]["row"] for f in findings if f["code"] == "JIT000"} & {15, 16}, findings


# A call of a function torch cannot read the source of (`os.makedirs`) fails with no place of its own in torch's text,
# only the calls it was compiling the caller for; torch was handed the call's range (`try_compile_fn(fn, loc)`): the
# error is there, not at the model's call of the user's function.
NO_SOURCE = '''
import os

import torch
import torch.nn as nn


def save(x: torch.Tensor, path: str) -> torch.Tensor:
    y = x + 1
    os.makedirs(os.path.dirname(path) + "/", exist_ok=True)
    return y


class Net(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return save(x, "a/b")
'''


def test_an_error_at_a_call_of_a_function_with_no_source_is_placed_at_that_call(tmp_path):
    write_project(tmp_path, {"opkg/__init__.py": "", "opkg/net.py": NO_SOURCE, "pyproject.toml": CONFIG})
    findings = dynamic_findings(tmp_path, "opkg")
    calls = _statuses(findings, "JIT402")
    assert set(calls) == {10} and calls[10]["status"] == "confirmed", calls
    assert "(line 10)" in calls[10]["detail"], calls
    assert not [f for f in findings if f["code"] == "JIT000"], findings


# A module class whose `__init__` never calls `nn.Module.__init__` builds, torch refuses it, and its methods are then
# scripted on their own: the instance is not asked for its submodules (which raises: it has no `_modules`), or the
# whole file's answer is lost ("checker failed").
NO_SUPER_INIT = '''
import torch
import torch.nn as nn


class Plain(nn.Module):
    def __init__(self, mu: float = 1.0):
        self.mu = mu

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x.numpy()
'''


def test_a_module_whose_init_skips_nn_module_init_does_not_stop_the_file(tmp_path):
    write_project(tmp_path, {"npkg/__init__.py": "", "npkg/net.py": NO_SUPER_INIT, "pyproject.toml": CONFIG})
    findings = dynamic_findings(tmp_path, "npkg")
    assert findings, findings
    assert not [f for f in findings if "checker failed" in f["confirmation"]["detail"]], findings


# Torch's frontend refuses syntax (`**options` in a call) while it reads the whole function, before any type is
# checked: a type error on an earlier line (`.tolist()` with no annotation) shows only once the refused statement is
# left out, although it lies before it.
FRONTEND_FIRST = '''
from typing import Dict

import torch
import torch.nn as nn


def scale(x: torch.Tensor, factor: float = 1.0) -> torch.Tensor:
    return x * factor


def both(x: torch.Tensor, options: Dict[str, float]) -> torch.Tensor:
    values = x.tolist()
    y = scale(x, **options)
    return y


class Net(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return both(x, {"factor": 2.0})
'''


def test_a_type_error_before_a_frontend_refusal_is_confirmed(tmp_path):
    write_project(tmp_path, {"fpkg/__init__.py": "", "fpkg/net.py": FRONTEND_FIRST, "pyproject.toml": CONFIG})
    findings = dynamic_findings(tmp_path, "fpkg")
    tolist = _statuses(findings, "JIT206")
    assert tolist[13]["status"] == "confirmed", tolist
    assert "(line 13, the function's earlier failing statements left out)" in tolist[13]["detail"], tolist


# numpy 2's functions and ufuncs cannot be weakly referenced; torch's resolver does that to every callable it looks up
# (`_try_get_dispatched_fn`) and fails with a Python TypeError and no place: nothing could be left out, the function's
# later code stayed unseen. The error is placed at the call torch was compiling (`check_fn(fn, loc)`), so each call is
# confirmed at its own line; a numpy call under `if not torch.jit.is_scripting():` is never resolved (torch accepts it).
NUMPY_CALLS = '''
import numpy as np
import torch
import torch.nn as nn


def boxes(x: torch.Tensor) -> torch.Tensor:
    y = x + 1
    order = np.argsort(y)
    keep = np.where(y > 0)
    return y


def guarded(x: torch.Tensor) -> torch.Tensor:
    if not torch.jit.is_scripting():
        x = torch.from_numpy(np.maximum(x.numpy(), 0))
    return x


class Net(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return boxes(guarded(x))
'''


def test_numpy_functions_torch_cannot_resolve_are_placed_at_their_calls(tmp_path):
    write_project(tmp_path, {"upkg/__init__.py": "", "upkg/net.py": NUMPY_CALLS, "pyproject.toml": CONFIG})
    findings = dynamic_findings(tmp_path, "upkg")
    calls = _statuses(findings, "JIT401")
    assert set(calls) == {9, 10}, findings
    for row in (9, 10):
        assert calls[row]["status"] == "confirmed", calls
        assert "cannot create weak reference" in calls[row]["detail"] and f"(line {row}" in calls[row]["detail"], calls
    # explained at the calls: no JIT000 at the class torch was scripting, none in the guarded function
    assert not [f for f in findings if f["code"] == "JIT000"], findings


# A failing assignment left out would leave its names unbound, and every later statement using them would fail on
# that ("undefined value order"), its own error unseen. Its names stay bound to a stand-in Tensor instead: torch's
# error at a later call that does not depend on them (resolving `np.maximum`) confirms that finding; an error whose
# underlined code names a stand-in, or a name computed from one (`order.tolist()`), is the stand-in's: no JIT000.
# An error in a function it calls (`pad`, compiled from its own signature) is that function's own, even where the
# callee's code uses a name the caller stood in for.
STANDINS = '''
import numpy as np
import torch
import torch.nn as nn

from spkg.ops import pad


def nms(boxes: torch.Tensor, scores: torch.Tensor) -> torch.Tensor:
    order = np.argsort(scores)
    first = order[0]
    area = boxes[:, 2] * boxes[:, 3]
    xx = np.maximum(boxes[first], area)
    keep = order.tolist()
    padded = pad(order)
    return area.numpy()


class Net(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return nms(x, x)
'''

# in another file: not compiled on its own with the model's module (its free functions are), only through `nms`
OPS = '''
import torch


def pad(order: torch.Tensor) -> torch.Tensor:
    return order.numpy()
'''


def test_names_a_failing_assignment_binds_stay_bound_to_a_stand_in(tmp_path):
    write_project(tmp_path, {"spkg/__init__.py": "", "spkg/net.py": STANDINS, "spkg/ops.py": OPS,
                             "pyproject.toml": CONFIG})
    findings = dynamic_findings(tmp_path, "spkg")
    calls = {(f["filename"].rsplit("/", 1)[-1], row): status for f in findings if f["code"] == "JIT401"
             for row, status in [(f["location"]["row"], f["confirmation"])]}
    assert set(calls) == {("net.py", 10), ("net.py", 13), ("net.py", 16), ("ops.py", 6)}, findings
    assert all(status["status"] == "confirmed" for status in calls.values()), calls
    assert "(line 13, the function's earlier failing statements left out)" in calls["net.py", 13]["detail"], calls
    assert "(line 6" in calls["ops.py", 6]["detail"], calls
    assert not [f for f in findings if f["code"] == "JIT000"], findings


# A name bound from a call of a Python function is typed by the callee's own signature, not by what the call passes:
# `k = shifted(order)` with `order` stood in is a Tensor because `shifted` returns one, so torch's error at `k.numpy()`
# (line 13) is the user's, and confirms the finding there (it was taken for the stand-in's, and `k` then left out).
STANDIN_THROUGH_A_CALL = '''
import numpy as np
import torch
import torch.nn as nn


def shifted(order: torch.Tensor) -> torch.Tensor:
    return order + 1


def nms(scores: torch.Tensor) -> torch.Tensor:
    order = np.argsort(scores)
    k = shifted(order)
    return torch.from_numpy(k.numpy())


class Net(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return nms(x)
'''


def test_a_name_a_call_binds_is_not_computed_from_the_stand_in_it_passes(tmp_path):
    write_project(tmp_path, {"spkg/__init__.py": "", "spkg/net.py": STANDIN_THROUGH_A_CALL.lstrip("\n"),
                             "pyproject.toml": CONFIG})
    findings = dynamic_findings(tmp_path, "spkg")
    at_13 = [f["confirmation"] for f in findings if f["code"] == "JIT401" and f["location"]["row"] == 13]
    assert at_13 and all(c["status"] == "confirmed" for c in at_13), findings
    assert all("'Tensor' object has no attribute or method 'numpy'" in c["detail"] for c in at_13), at_13
    assert not [f for f in findings if f["code"] == "JIT000"], findings


# A refused default is checked against its parameter's declared type after the body, whatever the body binds: with a
# failing assignment of the body stood in, it is still the user's error (its `def` line names the reassigned `x`).
STANDIN_THEN_DEFAULT = '''
import numpy as np
import torch
import torch.nn as nn


def pixel_norm(x: torch.Tensor, dim=-1, eps=1e-4):
    scale = np.sqrt(x.shape[dim])
    x = x * scale
    return x / (x.norm(dim=dim, keepdim=True) + eps)


class Net(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return pixel_norm(x)
'''


def test_a_refused_default_after_a_stand_in_is_still_confirmed(tmp_path):
    write_project(tmp_path, {"kpkg/__init__.py": "", "kpkg/net.py": STANDIN_THEN_DEFAULT, "pyproject.toml": CONFIG})
    findings = dynamic_findings(tmp_path, "kpkg")
    defaults = [f["confirmation"] for f in findings if f["code"] == "JIT201"]
    assert defaults and all(status["status"] == "confirmed" for status in defaults), findings
    assert _statuses(findings, "JIT401")[8]["status"] == "confirmed", findings


# A parameter whose annotation torch refuses (`Sequence[...]`, no default or a `None` one) stops its function at its
# signature: compiled again with that parameter unannotated (a stand-in Tensor), the rest of the body shows. An
# error whose underlined code names the stand-in (`torch.cat(xs)`, which torch accepts of a list) is the stand-in's,
# no JIT000; and one that names it at a static error (`len(xs)`: an `int` of a list, of a Tensor too, but not
# everything the stand-in's type allows is so) confirms nothing: the conservative side.
SEQUENCE_PARAMETERS = '''
from typing import Optional, Sequence

import torch
import torch.nn as nn


class Pool(nn.Module):
    def forward(
        self,
        xs: Sequence[torch.Tensor],
        extra: Optional[Sequence[torch.Tensor]] = None,
        scale: float = 1.0,
    ):
        joined = torch.cat(xs)
        if extra is not None:
            joined = joined + torch.cat(extra)
        values = torch.ones(2).tolist()
        sizes = torch.zeros(len(xs)).tolist()
        return joined * scale
'''


def test_a_parameter_whose_annotation_torch_refuses_is_compiled_as_a_stand_in(tmp_path):
    write_project(tmp_path, {"qpkg/__init__.py": "", "qpkg/pool.py": SEQUENCE_PARAMETERS, "pyproject.toml": CONFIG})
    findings = dynamic_findings(tmp_path, "qpkg")
    annotations = _statuses(findings, "JIT203")
    assert annotations[11]["status"] == "confirmed" and annotations[12]["status"] == "confirmed", findings
    assert _statuses(findings, "JIT206")[18]["status"] == "confirmed", findings
    assert "line 18" in _statuses(findings, "JIT206")[18]["detail"], findings
    assert _statuses(findings, "JIT206")[19]["status"] == "unverified", findings
    assert not [f for f in findings if f["code"] == "JIT000"], findings


# A function whose body fails is ignored to go on; its stub is typed from the Python signature without the defaults,
# so a call giving `normalize=True` to the unannotated `normalize=False` fails against the stub. The compiled function
# refuses that default at its own `def` first (JIT201, confirmed there): the call's error is jitlint's artifact. The
# same call to a parameter with no default is the user's error (torch types it a Tensor), and stays.
REFUSED_DEFAULT_CALL = '''
import torch
import torch.nn as nn


def dot(a: torch.Tensor, b: torch.Tensor, normalize=False):
    if normalize:
        a = torch.nn.functional.normalize(a, p=2, dim=1)
    return torch.mm(a, b)


def scaled(a: torch.Tensor, scale):
    if scale:
        a = torch.nn.functional.normalize(a, p=2, dim=1)
    return a


class Cosine(nn.Module):
    def forward(self, a, b):
        return -dot(a, b, normalize=True)


class Scaled(nn.Module):
    def forward(self, a):
        return scaled(a, 2)
'''


def test_a_call_refused_only_by_the_stub_of_a_refused_default_is_no_error(tmp_path):
    write_project(tmp_path, {"rpkg/__init__.py": "", "rpkg/net.py": REFUSED_DEFAULT_CALL, "pyproject.toml": CONFIG})
    findings = dynamic_findings(tmp_path, "rpkg")
    lines = REFUSED_DEFAULT_CALL.splitlines()
    assert _statuses(findings, "JIT201")[lines.index("def dot(a: torch.Tensor, b: torch.Tensor, normalize=False):")
                                         + 1]["status"] == "confirmed"
    confirmed = {f["location"]["row"] for f in findings if (f.get("confirmation") or {}).get("status") == "confirmed"}
    assert lines.index("        return -dot(a, b, normalize=True)") + 1 not in confirmed
    assert lines.index("        return scaled(a, 2)") + 1 in confirmed


# A TorchScript class whose `__init__` torch refuses (a default that is no Tensor on a parameter with no
# annotation): set aside, the method is compiled as `@torch.jit.unused`, its signature only, so the class type has
# none of the attributes `__init__` defines, and a method reading one fails ("object has no attribute or method").
# That read is the setting aside's doing, not the user's error: the user's class, its `__init__` fixed, has them.
UNUSED_INIT = '''
from typing import List

import torch
import torch.nn as nn


class Feature(object):
    def __init__(self, name: str, size=4):
        self.name = name

    def label(self) -> str:
        return self.name


class Embed(nn.Module):
    def forward(self, x, features: List[int]):
        if isinstance(x, Feature):
            return x
        return x
'''


def test_an_attribute_of_a_class_whose_init_is_set_aside_is_no_error(tmp_path):
    write_project(tmp_path, {"upkg/__init__.py": "", "upkg/net.py": UNUSED_INIT, "pyproject.toml": CONFIG})
    findings = dynamic_findings(tmp_path, "upkg")
    lines = UNUSED_INIT.splitlines()
    assert _statuses(findings, "JIT201")[lines.index("    def __init__(self, name: str, size=4):") + 1][
        "status"] == "confirmed"
    assert not [f for f in findings if f["code"] == "JIT000"], findings


# A unit is a method scripted on the instance the model holds: torch compiles the `forward` of every submodule of
# that instance, whatever the method calls. One the model's run saw fail (and ignored) is ignored from the start.
SUBMODULES = '''
import torch
import torch.nn as nn


class Inner(nn.Module):
    def forward(self, x):
        f = lambda t: t
        return f(x)


class Outer(nn.Module):
    def __init__(self):
        super().__init__()
        self.inner = Inner()

    def forward(self, x, **kwargs):
        return self.helper(x)

    def helper(self, x):
        return self.inner(x).numpy()
'''


def test_a_unit_starts_with_the_submodule_methods_the_models_run_saw_fail_ignored(tmp_path, monkeypatch):
    import importlib
    import sys

    import torch

    from jitlint.confirm.child import Context, load_strategy
    from jitlint.targets.script.confirm import ScriptStrategy

    write_project(tmp_path, {"subpkg/__init__.py": "", "subpkg/net.py": SUBMODULES})
    monkeypatch.syspath_prepend(str(tmp_path))
    net = importlib.import_module("subpkg.net")
    strategy = load_strategy(str(ScriptStrategy.child))
    strategy.setup(torch)
    compiles = []
    real_reset = strategy._reset_torch_state
    monkeypatch.setattr(strategy, "_reset_torch_state", lambda torch: compiles.append(1) or real_reset(torch))
    unit = {"id": "subpkg.net:Outer.helper", "kind": "method", "module": "subpkg.net", "class": "Outer",
            "name": "helper", "lines": [21]}
    ctx = Context(torch, net, "Outer", "class", {"units": [unit], "max_attempts": 10}, [str(tmp_path)])
    try:
        result = strategy.run(net.Outer(), None, ctx)
    finally:
        sys.modules.pop("subpkg.net", None)
        sys.modules.pop("subpkg", None)
    assert "Inner.forward" in result["opaque"], result
    [outcome] = result["units"]
    assert outcome["pre_ignored"] == ["Inner.forward"], outcome
    assert outcome["opaque"][0] == "Inner.forward", outcome
    # the unit's own error is seen, at `.numpy()`
    assert any(error["line"] == 21 and error.get("unit") and not error.get("artifact")
               for error in result["observations"]), result
    # compiles: the model's three (Outer.forward's signature, Inner.forward's lambda, then the model with both
    # ignored), then one of the unit, which stops at its own error; not one more for Inner.forward failing again
    assert len(compiles) == 4, (len(compiles), result)
