"""The script strategy (`jitlint.targets.script.confirm`): `torch.jit.script` in the children, ignore-and-retry, each
method on its own, where torch's errors are placed, and how each finding is marked."""

import sys
import textwrap

import pytest
from oracles import missing_import

from .project import SCRIPT_PAGES, by_file, dynamic_findings, located, write_project

pytestmark = pytest.mark.torch

# Rules whose page's example torch rejects while the module is imported (`@torch.jit.interface`, and
# `@torch.jit.script` on a class, compile then).
REJECTED_AT_IMPORT = frozenset({"JIT242", "JIT638"})


# -- the shared run: every page, what only torch sees, flow findings ------------------------------------------------
def test_every_page_bad_example_is_confirmed_and_good_is_silent(shared_run):
    _root, _result, findings, _elapsed = shared_run
    for page in SCRIPT_PAGES:
        if page.torch_verdict not in ("rejects", "accepts"):
            continue
        bad = [f for f in by_file(findings, f"pages/{page.code.lower()}_bad.py") if f["code"] == page.code]
        assert bad, page.code
        expected = "confirmed" if page.torch_verdict == "rejects" else "not-reproduced"
        assert by_file(findings, f"pages/{page.code.lower()}_good.py") == [], page.code
        if page.code in REJECTED_AT_IMPORT or missing_import(page.bad):
            # torch rejects the file while importing it (the decorator compiles the declaration), or the example
            # imports a library that is not installed here (Lightning's classes), and the confirmer builds nothing
            # from a file it cannot import: the finding stays unverified, saying why
            assert {(f["confirmation"]["status"], f["confirmation"]["detail"].startswith("importing it failed"))
                    for f in bad} == {("unverified", True)}, (page.code, bad[0]["confirmation"])
            continue
        assert {f["confirmation"]["status"] for f in bad} == {expected}, (page.code, bad[0]["confirmation"])


def test_what_only_torch_sees_is_reported_as_its_own_finding(shared_run):
    _root, _result, findings, _elapsed = shared_run
    [finding] = by_file(findings, "models/compiler_only.py")
    assert (finding["code"], finding["location"]["row"]) == ("JIT000", 8)
    assert finding["confirmation"]["status"] == "confirmed"
    assert "torch.jit.script rejects this: pad_sequence(" in finding["message"]  # the schema torch's message names


def test_a_flow_finding_is_confirmed_at_its_own_statement_past_an_earlier_error(shared_run):
    """Torch's first error is at line 8 of the same function (no static rule explains it: a JIT000); that error
    does not confirm the flow finding at line 11 (it was "masked" behind it), torch's own error there does, once
    the unit is compiled again with line 8 left out."""
    _root, _result, findings, _elapsed = shared_run
    found = {(f["code"], f["location"]["row"]): f for f in by_file(findings, "models/flow_elsewhere.py")}
    assert set(found) == {("JIT000", 8), ("JIT208", 11)}
    assert found["JIT000", 8]["confirmation"]["status"] == "confirmed"
    assert found["JIT208", 11]["confirmation"]["status"] == "confirmed", found["JIT208", 11]["confirmation"]
    assert "(line 11, the function's earlier failing statements left out)" in found["JIT208", 11]["confirmation"][
        "detail"]


def test_errors_the_models_first_error_masks_are_confirmed_by_scripting_them_on_their_own(shared_run):
    _root, _result, findings, _elapsed = shared_run
    found = {(f["code"], f["location"]["row"]): f["confirmation"] for f in by_file(findings, "models/masked.py")}
    found.update({(f["code"], f["location"]["row"], "smoothing"): f["confirmation"]
                  for f in by_file(findings, "models/smoothing.py")})
    assert set(found) == {("JIT401", 14), ("JIT206", 18), ("JIT401", 7, "smoothing")}, found
    assert {status["status"] for status in found.values()} == {"confirmed"}, found


def test_an_error_behind_a_refused_signature_is_confirmed_with_the_signature_relaxed(shared_run):
    _root, _result, findings, _elapsed = shared_run
    found = {(f["code"], f["location"]["row"]): f["confirmation"] for f in by_file(findings, "models/variadic.py")}
    assert set(found) == {("JIT108", 6), ("JIT206", 7), ("JIT108", 11)}, found
    assert {status["status"] for status in found.values()} == {"confirmed"}, found
    assert "Expected type hint for result of tolist()" in found["JIT206", 7]["detail"]


# -- what the strategy's own ignoring causes is not the user's error ------------------------------------------------
# The strategy ignores a function torch failed in (`torch.jit.ignore`) and scripts again, to find more errors. Torch
# 2.13 builds an ignored function's stub from its Python signature *without the defaults*, so a call that leaves a
# defaulted argument out then fails ("Argument max_ratio not provided."), an error the user's code, where the
# function is compiled, does not have. For a method torch names the stub `lazy_bind...`; for a staticmethod or a free
# function it names it `Cls.name(...)` / `name(...)` (timm's `RandomResizedCropToSequence.get_params`: a for-else,
# then the call at `naflex_transforms.py:705`, was reported as a miss of its own). A function the *user* ignored and
# calls the same way is the user's error, and stays reported (JIT438 finds it statically, and torch confirms it).
IGNORED_STUB = '''
from typing import Optional, Tuple

import torch
import torch.nn as nn


def helper(x: torch.Tensor, steps: int = 3, limit: Optional[float] = None) -> torch.Tensor:
    for _ in range(steps):
        x = x + 1
    else:
        x = x * 2
    return x


class Crop(nn.Module):
    @staticmethod
    def get_params(x: torch.Tensor, scale: Tuple[float, float], attempts: int = 10,
                   max_ratio: Optional[float] = None) -> int:
        for _ in range(attempts):
            break
        else:
            return 0
        return 1

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        n = self.get_params(x, scale=(0.5, 1.0), attempts=3)
        return helper(x, steps=n)


class Ignored(nn.Module):
    @torch.jit.ignore
    def get_params(self, x: torch.Tensor, attempts: int = 10) -> int:
        return attempts

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x + self.get_params(x)
'''

CONFIG = "[tool.jitlint.dynamic]\ntimeout = 60\n"


@pytest.fixture(scope="module")
def stub_findings(tmp_path_factory):
    root = write_project(tmp_path_factory.mktemp("stub"), {
        "pkg/__init__.py": "", "pkg/crop.py": textwrap.dedent(IGNORED_STUB).lstrip("\n"), "pyproject.toml": CONFIG})
    return dynamic_findings(root, "pkg")


def _rows(findings, code=None):
    return {f["location"]["row"] for f in findings if code is None or f["code"] == code}


def test_the_failing_bodies_are_found(stub_findings):
    confirmed = {(f["code"], f["location"]["row"]) for f in stub_findings if f["confirmation"]["status"] == "confirmed"}
    assert ("JIT110", 8) in confirmed and ("JIT110", 19) in confirmed, stub_findings


def test_a_call_of_a_function_jitlint_ignored_is_no_miss(stub_findings):
    # the call at line 26 leaves `max_ratio` out: fine while `get_params` is compiled, as in the user's code
    assert 26 not in _rows(stub_findings, "JIT000"), stub_findings


def test_a_call_of_a_function_the_user_ignored_is_still_reported(stub_findings):
    found = [(f["code"], f["confirmation"]["status"]) for f in stub_findings if f["location"]["row"] == 36]
    assert found == [("JIT438", "confirmed")], stub_findings


# -- an error at one finding's statement confirms no other finding of its file by its text --------------------------
# torch stops at `x.numpy()` on line 6; `a` is then bound to a stand-in Tensor, whose `.tolist()` torch cannot type:
# the loop's header fails on the stand-in and the loop is left out whole, so torch never compiles line 8. The error at line 6, with the same rule's text, is line 6's finding's own: it used to be
# matched by message to line 8 too (facenet-pytorch: one error at `detect_face.py:271` "confirmed" 16 other lines).
TWO_NUMPY = '''
import torch
import torch.nn as nn


def boxes(x: torch.Tensor) -> torch.Tensor:
    a = x.numpy()
    for v in a.tolist():
        b = x.numpy()
    return x


class Net(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return boxes(x)
'''


def test_an_error_at_one_findings_statement_does_not_confirm_another_with_the_same_text(tmp_path):
    write_project(tmp_path, {"pkg/__init__.py": "", "pkg/nms.py": TWO_NUMPY.lstrip("\n"), "pyproject.toml": CONFIG})
    found = {(f["location"]["row"], f["code"]): f["confirmation"] for f in dynamic_findings(tmp_path, "pkg")}
    assert found[6, "JIT401"]["status"] == "confirmed", found
    # the same rule's finding, at a line torch never compiled: not confirmed by line 6's error
    assert found[8, "JIT401"]["status"] == "unverified", found
    assert "masked" in found[8, "JIT401"]["detail"], found


# -- torch's error at a finding's statement confirms it only for its rule's reason ------------------------------------
# Line 7 holds two findings: the comprehension's `if` (JIT102) and `range(n)` of an unannotated `n` (JIT202). Torch's
# frontend refuses the `if` first ("Comprehension ifs are not supported yet"), before it types `range(n)`: that is
# JIT102's reason, not JIT202's, so only JIT102 is confirmed there; JIT202 says torch rejected the statement for
# another reason. Line 13 is JIT202's own error ("all inputs of range must be ints").
TWO_REASONS = '''
import torch
import torch.nn as nn


class Repeat(nn.Module):
    def forward(self, x, n):
        ys = [x + i for i in range(n) if i > 0]
        return ys[0]


class Count(nn.Module):
    def forward(self, x, n):
        for _ in range(n):
            x = x + 1
        return x
'''


def test_an_error_at_a_findings_statement_confirms_it_only_for_its_rules_reason(tmp_path):
    write_project(tmp_path, {"pkg/__init__.py": "", "pkg/m.py": TWO_REASONS.lstrip("\n"), "pyproject.toml": CONFIG})
    findings = dynamic_findings(tmp_path, "pkg")
    found = {(f["location"]["row"], f["code"]): f["confirmation"] for f in findings}
    assert found[7, "JIT102"]["status"] == "confirmed", found
    assert found[7, "JIT202"]["status"] == "unverified", found
    assert "another reason: Comprehension ifs are not supported yet (line 7; what JIT102 reports)" in \
        found[7, "JIT202"]["detail"], found
    assert found[13, "JIT202"]["status"] == "confirmed", found
    assert "all inputs of range must be ints" in found[13, "JIT202"]["detail"], found
    assert not [f for f in findings if f["code"] == "JIT000"], findings


# An error inside a library function the statement calls (einops' `rearrange`, whose body expands `**axes_lengths`:
# torch shows it once the unit is compiled past line 9) says what is wrong in that function, which is JIT419's point:
# it confirms JIT419 at the call, and is no other rule's reason there. Line 9's JIT401 is refused for JIT402's reason
# (torch resolves `np.asarray` as an unsupported Python builtin), a JIT000 of its own.
LIBRARY_CALLEE = '''
import numpy as np
import torch
import torch.nn as nn
from einops import rearrange


class Net(nn.Module):
    def forward(self, x):
        y = np.asarray(x)
        return rearrange(x, "b c -> c b")
'''


def test_an_error_inside_a_library_function_the_statement_calls_is_no_other_rules_reason(tmp_path):
    write_project(tmp_path, {"pkg/__init__.py": "", "pkg/m.py": LIBRARY_CALLEE.lstrip("\n"), "pyproject.toml": CONFIG})
    findings = dynamic_findings(tmp_path, "pkg")
    found = {(f["location"]["row"], f["code"]): f["confirmation"] for f in findings}
    assert found[10, "JIT419"]["status"] == "confirmed", found
    assert found[9, "JIT401"]["status"] == "unverified", found
    assert "another reason: Python builtin" in found[9, "JIT401"]["detail"], found
    assert found[9, "JIT000"]["status"] == "confirmed", found


def test_torchs_messages_are_sorted_by_the_rules_they_are_the_reason_of():
    from jitlint.targets.script.confirm_reasons import OTHER, OWN, UNKNOWN, reason

    # the page's quote, and an instance of the site template the quote is one of (another name)
    assert reason("all inputs of range must be ints, found Tensor (inferred) in argument 0:", "JIT202")[0] == OWN
    assert reason("undefined value helper:", "JIT235")[0] == OWN
    assert reason("Lambda aren't supported:", "JIT202") == (OTHER, ("JIT105",))
    # a schema mismatch says only that an argument does not fit: no rule's own, and no other rule's either
    assert reason("Expected a value of type 'Tensor' for argument 'n' but instead found type 'int'.", "JIT202")[0] \
        == UNKNOWN
    assert reason("squeeze(Tensor self, int dim) -> Tensor:", "JIT202")[0] == UNKNOWN
    assert reason("lazy_bind.<locals>.lazy_binding_method(__torch__.pkg.Net self, Tensor x...", "JIT202")[0] == UNKNOWN
    # ... except for a rule about a call's arguments, whose reason every schema mismatch is
    assert reason("squeeze(Tensor self, int dim) -> Tensor:", "JIT416")[0] == OWN
    assert reason("Arguments for call are not valid.", "JIT416")[0] == OWN
    assert reason("something no page or site names", "JIT202")[0] == UNKNOWN


# -- a no-line error torch gives for every class that holds a faulty submodule is one defect, not one per class -----
# `-> Tuple[torch.tensor, torch.Tensor]` in a submodule's `forward` makes torch refuse the submodule and every class
# that holds it, each time with "Can not create tuple with None type" and no line. The strategy places those at each
# scripted class's `class` line; the JIT241 finding at the annotation explains all of them.
NO_LINE = '''
from typing import Tuple

import torch
import torch.nn as nn


class Smooth(nn.Module):
    def forward(self, x: torch.Tensor) -> Tuple[torch.tensor, torch.Tensor]:
        y = x.cumsum(-1)
        return y, y[..., -1]


class Holder(nn.Module):
    def __init__(self):
        super().__init__()
        self.smooth = Smooth()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y, last = self.smooth(x)
        return y + last.unsqueeze(-1)
'''


def test_one_finding_explains_the_no_line_error_of_each_class_holding_it(tmp_path):
    write_project(tmp_path, {"pkg/__init__.py": "", "pkg/smooth.py": textwrap.dedent(NO_LINE),
                             "pyproject.toml": CONFIG})
    findings = dynamic_findings(tmp_path, "pkg")
    assert ("smooth.py", 9, "JIT241", "confirmed") in located(findings), findings
    assert not [f for f in findings if f["code"] == "JIT000"], findings


# -- a staticmethod is compiled the way compiled code calling it does: as a free function ---------------------------
# When scripting a module stops at an error, the strategy compiles each method on its own. It used to build a method
# stub for a staticmethod too, which binds the module to the function's first parameter: torch then reported "Module
# 'Embeddings' has no attribute 'size'" inside a staticmethod that `self.create_position_ids(x, ...)` compiles fine
# (a JIT000 no code has; transformers' `RobertaEmbeddings` showed it in the agreement run). A real error of such a
# staticmethod must still be reported (here `past=0` without an annotation, JIT201).
STATICMETHOD = '''
import torch
import torch.nn as nn


class Embeddings(nn.Module):
    def __init__(self):
        super().__init__()
        self.padding_idx = 1

    def forward(self, inputs_embeds: torch.Tensor, **kwargs) -> torch.Tensor:
        position_ids = self.create_position_ids(inputs_embeds, self.padding_idx)
        return self.shifted(inputs_embeds, self.padding_idx) + position_ids

    @staticmethod
    def create_position_ids(inputs_embeds, padding_idx: int):
        input_shape = inputs_embeds.size()[:-1]
        sequence_length = input_shape[1]
        position_ids = torch.arange(padding_idx + 1, sequence_length + padding_idx + 1, dtype=torch.long)
        return position_ids.unsqueeze(0).expand(input_shape)

    @staticmethod
    def shifted(input_ids, padding_idx: int, past=0):
        return input_ids + padding_idx + past
'''


def test_staticmethod_is_compiled_as_a_function(tmp_path):
    write_project(tmp_path, {"pkg/__init__.py": "", "pkg/emb.py": textwrap.dedent(STATICMETHOD),
                             "pyproject.toml": CONFIG})
    findings = dynamic_findings(tmp_path, "pkg")
    assert ("emb.py", 11, "JIT108", "confirmed") in located(findings)  # `**kwargs`: scripting the module stops there
    assert ("emb.py", 23, "JIT201", "confirmed") in located(findings)  # the staticmethod's own error, still found
    assert not [f for f in findings if f["code"] == "JIT000"], findings  # no "has no attribute 'size'"


# -- where torch's error in a method wrapped with `functools.wraps` is placed ---------------------------------------
# Torch compiles the wrapped function's own source (it unwraps it), but its error names the *wrapper's* file with the
# wrapped function's line number: `File "wrapping.py", line 13` for the `**kwargs` at line 13 of `wrapped.py`.
# transformers wraps every layer's `forward` that way in `GradientCheckpointingLayer.__init_subclass__`, and the
# agreement run placed seven of those errors at unrelated lines of `modeling_layers.py`. The strategy takes the user
# file whose lines at that number are the ones torch shows.
WRAPPING = '''
from functools import wraps

import torch.nn as nn


class Layer(nn.Module):
    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        forward = cls.forward

        @wraps(forward)
        def wrapped(self, *args, **kwargs):
            return forward(self, *args, **kwargs)

        cls.forward = wrapped


def passthrough(func):
    @wraps(func)
    def wrapper(self, *args, **kwargs):
        return func(self, *args, **kwargs)

    return wrapper
'''

WRAPPED = '''
import torch
import torch.nn as nn

from pkg.wrapping import Layer, passthrough


class Block(Layer):
    def forward(
        self,
        x: torch.Tensor,
        scale: float = 1.0,
        **kwargs,
    ) -> torch.Tensor:
        return x * scale


class Head(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(2, 2)

    @passthrough
    def forward(self, x: torch.Tensor, *extra) -> torch.Tensor:
        return self.lin(x)
'''


def test_torch_error_in_a_wrapped_method_lands_on_the_wrapped_line(tmp_path):
    write_project(tmp_path, {"pkg/__init__.py": "", "pkg/wrapping.py": textwrap.dedent(WRAPPING),
                             "pkg/wrapped.py": textwrap.dedent(WRAPPED), "pyproject.toml": CONFIG})
    findings = dynamic_findings(tmp_path, "pkg")
    assert ("wrapped.py", 13, "JIT108", "confirmed") in located(findings)  # `**kwargs`, where torch's marker is
    assert ("wrapped.py", 24, "JIT108", "confirmed") in located(findings)  # `*extra`, through a decorator
    # nothing is placed in the wrapper's file, and torch reported nothing jitlint did not find
    assert not [f for f in findings if f["code"] == "JIT000"], findings


# -- what torch cannot type, made opaque the way torch lets a user, so the errors behind it show ----------------------
# Torch types each attribute of a module before it compiles any line: an attribute annotated with a class it cannot
# compile (transformers' `config: BertConfig`, whose generated `__init__` has no source) stops the whole model, and
# every unit built inside it, with an error that names no line. Torch compiles every property too, and one that fails
# stopped the retry loop (a property cannot be `torch.jit.ignore`d). The strategy leaves such an attribute out of the
# module's type (`__jit_ignored_attributes__`) and such a property out of the compile (`__jit_unused_properties__`),
# torch's own switches, and scripts again: the errors they masked are confirmed.
MASKED_BY_TYPE = '''
import torch
import torch.nn as nn

namespace = {}
exec("def __init__(self, depth=2):\\n    self.depth = depth\\n", namespace)


class Settings:
    __init__ = namespace["__init__"]


class Block(nn.Module):
    settings: Settings

    def __init__(self):
        super().__init__()
        self.settings = Settings()

    @property
    def width(self):
        return [1, 2][0:1].tolist()

    def forward(self, x):
        values = x.tolist()
        return x + len(values)
'''


def test_errors_behind_an_attribute_torch_cannot_type_and_a_failing_property_are_confirmed(tmp_path):
    write_project(tmp_path, {"pkg/__init__.py": "", "pkg/block.py": textwrap.dedent(MASKED_BY_TYPE),
                             "pyproject.toml": CONFIG})
    findings = dynamic_findings(tmp_path, "pkg")
    assert ("block.py", 22, "JIT233", "confirmed") in located(findings)  # the property's own error
    assert ("block.py", 25, "JIT206", "confirmed") in located(findings)  # forward, behind both
    # what torch said at the annotation is reported at the class (no rule predicts it); the uses of what jitlint
    # left out of the type are not
    assert {(f["code"], f["location"]["row"]) for f in findings if f["code"] == "JIT000"} == {("JIT000", 13)}


# -- a class that needs constructor arguments still says what every instance does ------------------------------------
# torch.jit.script calls an instance's `__prepare_scriptable__` before anything else; torchvision's v2 transforms
# refuse there for the class, whatever the arguments (`Resize(size)`, `Compose(transforms)`), and were left
# "needs constructor arguments". The strategy calls it on an instance nothing was given to: a refusal confirms the
# finding; one that reads the instance's state (an AttributeError there) says nothing.
PREPARE = '''
import torch
import torch.nn as nn


class Transform(nn.Module):
    def __prepare_scriptable__(self):
        raise RuntimeError(f"Transform {type(self).__name__} cannot be JIT scripted.")


class Resize(Transform):
    def __init__(self, size: int):
        super().__init__()
        self.size = size

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x[..., : self.size]


class Scaled(nn.Module):
    def __init__(self, factor: float):
        super().__init__()
        self.factor = factor

    def __prepare_scriptable__(self):
        if self.factor > 1:
            raise RuntimeError("too large")
        return self

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x * self.factor


class Twin(Transform):
    def __init__(self, size: int):
        super().__init__()
        self.size = size

    def __prepare_scriptable__(self):
        return Scaled(**{k: v for k, v in vars(self).items() if not k.startswith("_")})

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x
'''


def test_a_class_that_needs_arguments_and_refuses_in_prepare_scriptable_is_confirmed(tmp_path):
    write_project(tmp_path, {"pkg/__init__.py": "", "pkg/tf.py": textwrap.dedent(PREPARE), "pyproject.toml": CONFIG})
    findings = dynamic_findings(tmp_path, "pkg")
    assert ("tf.py", 11, "JIT630", "confirmed") in located(findings), findings  # Resize(size): never built
    # Scaled's refusal depends on its state; Twin builds another module from its state (a TypeError there)
    assert not [f for f in findings if f["code"] == "JIT000"], findings


# -- one child scripts many classes, resetting torch's compilation state in between ---------------------------------
def test_a_class_using_an_overloaded_function_scripts_again_after_a_reset(tmp_path):
    """A class that calls an `@torch.jit._overload` function must script the second time as the first."""
    torch = pytest.importorskip("torch")
    from jitlint.confirm import child
    from jitlint.targets.script.confirm import ScriptStrategy

    write_project(tmp_path, {"overpkg/__init__.py": "", "overpkg/net.py": textwrap.dedent("""
        import torch
        from torch import nn

        @torch.jit._overload
        def double(x: int) -> int: ...

        @torch.jit._overload
        def double(x: float) -> float: ...

        def double(x):
            return x + x

        class Net(nn.Module):
            def forward(self, x: torch.Tensor) -> torch.Tensor:
                return x * double(2) * double(1.5)
    """)})
    strategy = child.load_strategy(str(ScriptStrategy.child))
    strategy.setup(torch)
    request = {"file": str(tmp_path / "overpkg" / "net.py"), "module": "overpkg.net", "root": str(tmp_path),
               "roots": [{"name": "Net", "kind": "class", "inputs": None, "options": {}}], "factories": {},
               "user_roots": [str(tmp_path)], "options": {}}
    try:
        for attempt in range(3):
            result = child.check_file(torch, strategy, request)["roots"]["Net"]
            assert result["passed"], (attempt, result["observations"])
    finally:
        sys.modules.pop("overpkg.net", None)
        sys.modules.pop("overpkg", None)
        sys.path.remove(str(tmp_path))


def test_a_function_ignored_for_one_root_is_compiled_again_for_the_next(tmp_path):
    """torch.jit.ignore marks the function object itself: what one root's retry loop ignored must be unmarked
    before the next root (a subclass inheriting the method), or that root scripts past the error and passes."""
    torch = pytest.importorskip("torch")
    from jitlint.confirm import child
    from jitlint.targets.script.confirm import ScriptStrategy

    write_project(tmp_path, {"ignpkg/__init__.py": "", "ignpkg/net.py": textwrap.dedent("""
        import torch
        from torch import nn

        class Base(nn.Module):
            def forward(self, x: torch.Tensor) -> torch.Tensor:
                return x.numpy()

        class Sub(Base):
            pass
    """)})
    strategy = child.load_strategy(str(ScriptStrategy.child))
    strategy.setup(torch)
    roots = [{"name": name, "kind": "class", "inputs": None, "options": {}} for name in ("Base", "Sub", "Base")]
    request = {"file": str(tmp_path / "ignpkg" / "net.py"), "module": "ignpkg.net", "root": str(tmp_path),
               "roots": roots[:2], "factories": {}, "user_roots": [str(tmp_path)], "options": {}}
    try:
        answered = child.check_file(torch, strategy, request)["roots"]
        again = child.check_file(torch, strategy, {**request, "roots": roots[2:]})["roots"]  # the next file's
        for result in (answered["Base"], answered["Sub"], again["Base"]):
            assert [error["line"] for error in result["observations"]][:1] == [7], result["observations"]
    finally:
        sys.modules.pop("ignpkg.net", None)
        sys.modules.pop("ignpkg", None)
        sys.path.remove(str(tmp_path))


# -- why a finding stays masked: where its function, scripted on its own, stopped, and why it went no further --------
BOUNDED = '''
import numpy as np
import torch
import torch.nn as nn


def many(x: np.ndarray = np.ones(1)) -> torch.Tensor:
    return x.numpy()


class Net(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return many(x)
'''


def test_a_masked_finding_says_where_its_function_on_its_own_stopped_and_why(tmp_path):
    write_project(tmp_path, {"bpkg/__init__.py": "", "bpkg/net.py": BOUNDED,
                             "pyproject.toml": "[tool.jitlint.dynamic]\ntimeout = 120\n"})
    findings = dynamic_findings(tmp_path, "bpkg")
    [numpy] = [f for f in findings if f["code"] == "JIT401" and f["location"]["row"] == 8]
    # torch refuses the signature (no statement of the body to leave out; a parameter with a default other than
    # `None` keeps its annotation), so the body's error stays unseen
    assert numpy["confirmation"]["status"] == "unverified", numpy
    assert numpy["confirmation"]["detail"].startswith("masked: `many` scripted on its own stopped at line 7 ("), numpy
    assert numpy["confirmation"]["detail"].endswith("the statement left out failed again"), numpy


# A method wrapped with `functools.wraps` is compiled from its own lines, which torch's frontend reads under the
# wrapper's file name (`inspect.getsourcefile` does not unwrap): a failing statement of it is left out by that name too.
WRAPPED_TWICE_FAILING = '''
import torch

from pkg.wrapping import Layer


class Twice(Layer):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        a = torch.nn.utils.rnn.pad_sequence([x], "a")
        return x.numpy()
'''


def test_a_failing_statement_of_a_wrapped_method_is_left_out(tmp_path):
    write_project(tmp_path, {"pkg/__init__.py": "", "pkg/wrapping.py": textwrap.dedent(WRAPPING),
                             "pkg/twice.py": WRAPPED_TWICE_FAILING, "pyproject.toml": CONFIG})
    findings = dynamic_findings(tmp_path, "pkg/twice.py")
    [numpy] = [f for f in findings if f["code"] == "JIT401"]
    assert numpy["confirmation"]["status"] == "confirmed", numpy
    assert "(line 10, the function's earlier failing statements left out)" in numpy["confirmation"]["detail"], numpy


# A function under `@torch.no_grad()` is handed to torch as `_contextlib`'s wrapper: torch compiles the wrapped lines
# but resolves their globals in `_contextlib` ("undefined value dist"), and names `_contextlib.py` with the wrapped
# function's line numbers, then the call site in the user's file. The error is the function's own (JIT235 at its
# line), seen both scripting the model and the function on its own: once explained, it is no JIT000 at the call.
NO_GRAD = '''
import torch
import torch.distributed as dist


@torch.no_grad()
def gather(x: torch.Tensor) -> torch.Tensor:
    if dist.is_initialized():
        return x
    return x + 1


class Loss(torch.nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = gather(x)
        return y.sum()
'''


def test_an_error_under_a_decorator_is_confirmed_at_its_line_and_not_again_at_the_call(tmp_path):
    write_project(tmp_path, {"gpkg/__init__.py": "", "gpkg/loss.py": NO_GRAD,
                             "pyproject.toml": "[tool.jitlint.dynamic]\ntimeout = 120\n"})
    findings = dynamic_findings(tmp_path, "gpkg")
    assert ("loss.py", 8, "JIT235", "confirmed") in located(findings), findings
    assert not [f for f in findings if f["code"] == "JIT000"], findings


# With `from __future__ import annotations` every annotation is a string, and torch types a call of an ignored function
# from its Python signature without resolving names ("Unknown type annotation: 'Tensor'" at the call): a function
# jitlint ignored to go on must neither stop its callers nor be reported as the user's error at their calls.
FUTURE_ANNOTATIONS = '''
from __future__ import annotations

import torch
from torch import Tensor


def check(x: Tensor) -> None:
    values = x.numpy()


class Pair(torch.nn.Module):
    def forward(self, x: Tensor) -> Tensor:
        check(x)
        return x.numpy()
'''


def test_a_call_of_a_function_ignored_to_go_on_in_a_future_annotations_file_is_no_error(tmp_path):
    write_project(tmp_path, {"fpkg/__init__.py": "", "fpkg/pair.py": FUTURE_ANNOTATIONS,
                             "pyproject.toml": "[tool.jitlint.dynamic]\ntimeout = 120\n"})
    findings = dynamic_findings(tmp_path, "fpkg")
    assert ("pair.py", 9, "JIT401", "confirmed") in located(findings), findings
    # the call of `check` (ignored after its own error) types, and `forward`'s later error shows
    assert ("pair.py", 15, "JIT401", "confirmed") in located(findings), findings
    assert not [f for f in findings if f["code"] == "JIT000"], findings


def test_an_unknown_string_annotation_at_a_call_of_an_ignored_function_is_an_artifact():
    from jitlint.targets.script.confirm_leave_out import stub_artifact

    text = ("Unknown type annotation: 'Tensor' at   File \"/p/m.py\", line 10\n"
            "    def forward(self, x: Tensor) -> Tensor:\n        return self.comp(\n"
            "               ~~~~~~~~~ <--- HERE\n            x=x, y=x\n")
    parsed = {"message": text.splitlines()[0], "text": text}
    assert stub_artifact(parsed, ["Block.comp"])
    assert not stub_artifact(parsed, ["Block.other"])  # the call of a function the user ignored: the user's error
    assert stub_artifact(parsed, ["Norm.forward"])  # `self.comp` may be a submodule whose forward jitlint ignored
    assert not stub_artifact(parsed, [])


def test_an_undefined_value_the_named_module_binds_is_an_artifact(tmp_path, monkeypatch):
    import sys
    import types

    from jitlint.targets.script.confirm_leave_out import bound_where_undefined

    path = str(tmp_path / "diffusion.py")
    module = types.ModuleType("diffusion")
    module.__file__ = path
    module.extract = lambda a, t, shape: a
    monkeypatch.setitem(sys.modules, "diffusion", module)
    # torch resolves a compiled function's globals in its module: only a compile jitlint arranged misses `extract`
    assert bound_where_undefined({"message": "undefined value extract:", "file": path})
    assert not bound_where_undefined({"message": "undefined value missing:", "file": path})  # the user's error
    assert not bound_where_undefined({"message": "undefined value extract:", "file": str(tmp_path / "other.py")})
    # a decorator's wrapper: torch names the decorator's module, where the name is unbound, the user's error
    assert not bound_where_undefined({"message": "undefined value extract:", "file": path,
                                      "named_file": str(tmp_path / "decorators.py")})
    assert not bound_where_undefined({"message": "Expected a value of type 'Tensor'", "file": path})


# A decorator hands torch its wrapper, whose globals are the decorator's module: torch compiles the wrapped lines but
# resolves the names of their annotations there ("Unknown type name 'Memory'" at the signature). Scripted on its own,
# the function is compiled from what the decorator wraps, so that the errors of its body show (confirming findings at
# their own statements, never refuting one).
WRAPPED_SIGNATURE = '''
from typing import Optional

import torch
import torch.nn as nn

from pkg.wrapping import passthrough


class Memory:
    def __init__(self, size: int) -> None:
        self.size = size


class Reader(nn.Module):
    @passthrough
    def forward(self, x: torch.Tensor, memory: Optional[Memory] = None) -> torch.Tensor:
        y = x + 1
        return y.numpy()
'''


def test_a_function_whose_signature_fails_under_a_decorator_is_compiled_from_what_it_wraps(tmp_path):
    write_project(tmp_path, {"pkg/__init__.py": "", "pkg/wrapping.py": textwrap.dedent(WRAPPING),
                             "pkg/reader.py": WRAPPED_SIGNATURE, "pyproject.toml": CONFIG})
    findings = dynamic_findings(tmp_path, "pkg/reader.py")
    [numpy] = [f for f in findings if f["code"] == "JIT401"]
    assert numpy["confirmation"]["status"] == "confirmed", numpy
    assert "(line 19" in numpy["confirmation"]["detail"], numpy


# An error in code a function calls, which ignoring cannot get past (a classmethod: `torch.jit.ignore` takes none),
# hides the rest of the function: the statement of its own body the error is reached through (torch's call stack)
# is left out, so that its later errors show.
THROUGH_A_CALL = '''
import torch
import torch.nn as nn


class Helper:
    @classmethod
    def make(cls, x: torch.Tensor) -> torch.Tensor:
        return torch.from_numpy(x.numpy())


class Net(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = Helper.make(x)
        values = x.tolist()
        return y
'''


def test_the_statement_an_error_in_a_callee_is_reached_through_is_left_out(tmp_path):
    write_project(tmp_path, {"tpkg/__init__.py": "", "tpkg/net.py": THROUGH_A_CALL,
                             "pyproject.toml": "[tool.jitlint.dynamic]\ntimeout = 120\n"})
    findings = dynamic_findings(tmp_path, "tpkg")
    [tolist] = [f for f in findings if f["code"] == "JIT206"]
    assert tolist["confirmation"]["status"] == "confirmed", tolist
    assert "(line 15, the function's earlier failing statements left out)" in tolist["confirmation"]["detail"], tolist


# A return annotation naming a class torch cannot compile (a generated `__init__` has no source) stops the function
# at its signature, before any statement: left out, the return type is inferred and the body's errors show.
RETURNS_UNCOMPILABLE = '''
import torch
import torch.nn as nn

namespace = {}
exec("def __init__(self, value):\\n    self.value = value\\n", namespace)


class Output:
    __init__ = namespace["__init__"]


class Head(nn.Module):
    def forward(self, x: torch.Tensor) -> Output:
        y = x + 1
        values = y.tolist()
        return Output(y)
'''


def test_a_return_annotation_torch_cannot_compile_is_left_out_to_see_the_body(tmp_path):
    write_project(tmp_path, {"rpkg/__init__.py": "", "rpkg/head.py": RETURNS_UNCOMPILABLE,
                             "pyproject.toml": "[tool.jitlint.dynamic]\ntimeout = 120\n"})
    findings = dynamic_findings(tmp_path, "rpkg")
    [tolist] = [f for f in findings if f["code"] == "JIT206"]
    assert tolist["confirmation"]["status"] == "confirmed", tolist
    assert "(line 16, the function's earlier failing statements left out)" in tolist["confirmation"]["detail"], tolist


# Torch's frontend refuses syntax (`**kwargs` in a call) before any type is known, one statement per compile: the
# function's other refusals are found by running the frontend alone (no compile) and left out in the same retry.
KWARGS_CALLS = '''
from typing import Dict

import torch


def scale(x: torch.Tensor, factor: float = 1.0) -> torch.Tensor:
    return x * factor


def many(x: torch.Tensor, options: Dict[str, float]) -> torch.Tensor:
    a = scale(x, **options)
    b = scale(x, **options)
    values = x.tolist()
    c = scale(x, **options)
    return x
'''


def test_the_frontend_alone_finds_the_other_refused_statements_of_a_function(tmp_path):
    import importlib.util
    import os

    import torch

    (tmp_path / "kwcalls.py").write_text(KWARGS_CALLS)
    spec = importlib.util.spec_from_file_location("kwcalls", tmp_path / "kwcalls.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["kwcalls"] = module
    spec.loader.exec_module(module)
    child_spec = importlib.util.spec_from_file_location(
        "_script_child_for_test", os.path.join(os.path.dirname(__import__("jitlint").__file__), "targets", "script",
                                               "confirm_child.py"))
    child = importlib.util.module_from_spec(child_spec)
    child_spec.loader.exec_module(child)
    checker = child.Checker(torch)
    checker.is_user_file = lambda path: os.path.realpath(path).startswith(os.path.realpath(str(tmp_path)))
    path = os.path.realpath(str(tmp_path / "kwcalls.py"))
    dropped = {(path, 12)}  # the first refusal, seen compiling
    found = checker._frontend_refusals(module.many, (path, 11, 16), dropped, set(), bound=5)
    # the other two `**options` calls, not the `.tolist()` (a type error the frontend does not see)
    assert [(error["line"], error["message"]) for error in found] == [
        (13, "keyword-arg expansion is not supported:"), (15, "keyword-arg expansion is not supported:")], found
    assert dropped == {(path, 12), (path, 13), (path, 15)}
    assert checker._frontend_refusals(module.many, (path, 11, 16), {(path, 12)}, set(), bound=1)[0]["line"] == 13


# A function reached only through one the model's run ignored (a `**` call torch's frontend refuses) is scripted on its
# own; when that stops too (here at a parameter annotation torch cannot resolve, kept: its default is not `None`), the
# finding's detail says where and why, not only which function the model's run ignored.
REACHED_THROUGH_IGNORED = '''
import torch
import torch.nn as nn


def inner(x: torch.Tensor, head: torch.nn.Module = nn.Identity()) -> torch.Tensor:
    return x.numpy()


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.kw = {"head": nn.Identity()}

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return inner(x, **self.kw)
'''


def test_a_masked_finding_reached_through_an_ignored_caller_says_where_its_own_function_stopped(tmp_path):
    write_project(tmp_path, {"rpkg/__init__.py": "", "rpkg/net.py": REACHED_THROUGH_IGNORED,
                             "pyproject.toml": "[tool.jitlint.dynamic]\ntimeout = 120\n"})
    [finding] = [f for f in dynamic_findings(tmp_path, "rpkg") if f["code"] == "JIT401"]
    assert finding["confirmation"]["status"] == "unverified", finding
    assert finding["confirmation"]["detail"].startswith(
        "masked: `inner` scripted on its own stopped at line 6 (Unknown type name 'torch.nn.Module')"), finding
