"""Operator schemas as data (`jitlint/data/schemas.json`), the call matcher that reads them (`typing.calls`) and
JIT416, which reports what it rejects.

Each source below is a small module of our own: the flagged ones must fail in torch.jit.script with torch's
"Arguments for call are not valid" / "Expected a value of type" at the marked line, and the look-alikes must
script. jitlint must find exactly the marked line (no other JIT416), and nothing at all in the look-alikes.
"""

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from jitlint.targets.script import schemas
from jitlint.targets.script.typing import calls
from jitlint.targets.script.typing.types import (
    BOOL, FLOAT, INT, NONE, NUMBER, STR, TENSOR, list_of, optional_of, union_of,
)

from oracles import points_at
from oracles.script import script_source

ROOT = Path(__file__).resolve().parents[1]
HEADER = "import math\nfrom typing import List, Optional\n\nimport torch\nimport torch.nn.functional as F\n\n\n"


def fn(signature: str, body: str, returns: str = "") -> str:
    arrow = f" -> {returns}" if returns else ""
    return HEADER + f"@torch.jit.script\ndef f({signature}){arrow}:\n" + textwrap.indent(textwrap.dedent(body), "    ")


# Each flagged case marks its line with `# JIT416`; torch's error must contain the text.
FLAGGED = {
    "int-scale-factor": (fn("x: torch.Tensor", "return F.interpolate(x, scale_factor=2)  # JIT416"),
                         "for argument 'scale_factor' but instead found type 'int'"),
    "keepdims-keyword": (fn("x: torch.Tensor", "return x.sum(dim=1, keepdims=True)  # JIT416"),
                         "Keyword argument keepdims unknown"),
    "requires-grad-keyword": (fn("", "return torch.zeros([2], requires_grad=True)  # JIT416"),
                              "Keyword argument requires_grad unknown"),
    "div-ints-rounding": (fn("a: int, b: int", "return torch.div(a, b, rounding_mode='floor')  # JIT416"),
                          "Arguments for call are not valid"),
    "unannotated-dim": (fn("x, dim", "return x.sum(dim)  # JIT416"),
                        "Inferred the value for argument 'dim' to be of type 'Tensor' because it was not annotated"),
    "mixed-list-for-pad": (fn("x: torch.Tensor, n: torch.Tensor", "return F.pad(x, [0, n])  # JIT416"),
                           "List[Union[Tensor, int]]"),
    "int-pad-value": (fn("x: torch.Tensor", "return F.pad(x, [1, 1], value=0)  # JIT416"),
                      "for argument 'value' but instead found type 'int'"),
    "float-for-int-dim": (fn("x: torch.Tensor", "return x.softmax(1.0)  # JIT416"),
                          "Arguments for call are not valid"),
    "none-for-tensor": (fn("x: torch.Tensor", "return torch.matmul(x, None)  # JIT416"),
                        "Arguments for call are not valid"),
    "int-list-for-float-list": (fn("x: torch.Tensor", "return F.interpolate(x, scale_factor=[2, 2])  # JIT416"),
                                "Arguments for call are not valid"),
    "str-for-int": (fn("x: torch.Tensor", "return x.unsqueeze('a')  # JIT416"),
                    "Expected a value of type 'int' for argument 'dim' but instead found type 'str'"),
    "item-for-tensor": (fn("x: torch.Tensor", "return torch.matmul(x, x.item())  # JIT416"),
                        "Arguments for call are not valid"),
    "too-many-positional": (fn("x: torch.Tensor", "return torch.relu(x, x)  # JIT416"),
                            "Arguments for call are not valid"),
    "missing-argument": (fn("x: torch.Tensor", "return torch.matmul(x)  # JIT416"),
                         "Arguments for call are not valid"),
    "type-comment-int": (HEADER + "def g(x, n):\n    # type: (Tensor, int) -> Tensor\n"
                         "    return F.interpolate(x, scale_factor=n)  # JIT416\n\n\n"
                         "f = torch.jit.script(g)\n",
                         "for argument 'scale_factor' but instead found type 'int'"),
}

# Calls that look wrong but script: the conversions TorchScript makes, varargs, and what jitlint cannot know.
LOOKALIKES = {
    "varargs-view": fn("x: torch.Tensor", "return x.view(2, -1)"),
    "varargs-zeros": fn("", "return torch.zeros(2, 3)"),
    "varargs-permute-tensors": fn("x: torch.Tensor, a: int", "return x.permute(a, 0, 1)"),
    "tuple-for-list": fn("x: torch.Tensor", "return x.view((2, -1))"),
    "int-for-fixed-list": fn("x: torch.Tensor", "return F.avg_pool2d(x, 2)"),
    "tensor-for-int": fn("x: torch.Tensor, d: torch.Tensor", "return x.view(d)"),
    "tensor-for-float": fn("x: torch.Tensor, d: torch.Tensor", "return F.leaky_relu(x, d)"),
    "bool-for-float": fn("x: torch.Tensor", "return F.leaky_relu(x, True)"),
    "item-for-float": fn("x: torch.Tensor", "return F.leaky_relu(x, x.item())"),
    "int-for-scalar": fn("", "return torch.full([2], 1)"),
    "int-for-scalar-mul": fn("x: torch.Tensor", "return torch.mul(x, 2)"),
    "str-for-device": fn("x: torch.Tensor", "return x.to('cpu')"),
    "dtype-for-int": fn("x: torch.Tensor", "return x.to(torch.float32)"),
    "none-for-optional-list": fn("x: torch.Tensor", "return x.sum(None)"),
    "input-keyword-for-self": fn("x: torch.Tensor", "return torch.relu(input=x)"),
    "float-scale-factor": fn("x: torch.Tensor", "return F.interpolate(x, scale_factor=2.0, mode='nearest')"),
    "float-list-scale-factor": fn("x: torch.Tensor", "return F.interpolate(x, scale_factor=[2.0, 2.0])"),
    "keepdim-keyword": fn("x: torch.Tensor", "return x.sum(dim=1, keepdim=True)"),
    "div-rounding-tensors": fn("x: torch.Tensor", "return torch.div(x, 2, rounding_mode='floor')"),
    "math-of-int": fn("n: int", "return math.sqrt(n)", returns="float"),
    "pad-float-value": fn("x: torch.Tensor", "return F.pad(x, [1, 1], value=0.0)"),
    "boolean-dispatched-max-pool": fn("x: torch.Tensor", "return F.max_pool2d(x, 3, stride=2, padding=1)"),
    "boolean-dispatched-with-indices": fn("x: torch.Tensor", "return F.max_pool2d(x, (2, 2), return_indices=True)[0]"),
    "unknown-argument-type": fn("x: torch.Tensor, xs: List[int]", "return x.view(xs[0], len(xs))"),
    "optional-after-check": fn("x: torch.Tensor, s: Optional[float]",
                               "if s is None:\n    return x\nreturn F.interpolate(x, scale_factor=s)"),
    "type-comment-float": HEADER + "def g(x, s):\n    # type: (Tensor, float) -> Tensor\n"
                          "    return F.interpolate(x, scale_factor=s)\n\n\nf = torch.jit.script(g)\n",
    "type-comment-no-return": HEADER + "def g(x, n):\n    # type: (Tensor, int)\n    return x.sum(n)\n\n\n"
                              "f = torch.jit.script(g)\n",
}


def marked_row(source: str) -> int:
    return next(n for n, line in enumerate(source.splitlines(), 1) if line.endswith("# JIT416"))


@pytest.mark.parametrize("name", sorted(FLAGGED))
def test_flagged_at_the_marked_line(name, lint_source):
    source, _ = FLAGGED[name]
    found = [f.location.row for f in lint_source(source) if f.code == "JIT416"]
    assert found == [marked_row(source)]


@pytest.mark.parametrize("name", sorted(LOOKALIKES))
def test_lookalike_is_silent(name, lint_source):
    assert [(f.code, f.location.row) for f in lint_source(LOOKALIKES[name])] == []


@pytest.mark.torch
@pytest.mark.parametrize("name", sorted(FLAGGED))
def test_torch_rejects_the_flagged_call(name, tmp_path):
    source, text = FLAGGED[name]
    result = script_source(source, tmp_path)
    assert result.rejected, result
    assert result.says(text), result.message_full
    assert points_at(result, source, marked_row(source)), result


@pytest.mark.torch
@pytest.mark.parametrize("name", sorted(LOOKALIKES))
def test_torch_scripts_the_lookalike(name, tmp_path):
    result = script_source(LOOKALIKES[name], tmp_path)
    assert result.ok, result


def test_message_lists_the_candidates(lint_source):
    source, _ = FLAGGED["keepdims-keyword"]
    [finding] = [f for f in lint_source(source) if f.code == "JIT416"]
    assert "aten::sum.dim_IntList(Tensor self, int[1]? dim, bool keepdim=False" in finding.message
    assert "Keyword argument keepdims unknown" in finding.message


# -- the matcher on its own --------------------------------------------------------------------------------------
A = calls.Arg


@pytest.mark.parametrize(
    "value, param, n, accepted",
    [
        (INT, "float", 0, False), (INT, "number", 0, True), (INT, "Optional[float]", 0, False),
        (FLOAT, "int", 0, False), (BOOL, "int", 0, True), (BOOL, "List[int]", 1, False),
        (TENSOR, "int", 0, True), (TENSOR, "bool", 0, False), (TENSOR, "List[int]", 0, False),
        (NUMBER, "float", 0, True), (NUMBER, "Tensor", 0, False), (STR, "Device", 0, True),
        (NONE, "Optional[Tensor]", 0, True), (NONE, "Tensor", 0, False), (INT, "List[int]", 2, True),
        (FLOAT, "List[int]", 2, False), (list_of(INT), "List[float]", 0, False),
        (list_of(INT), "List[int]", 0, True), (list_of(union_of([INT, TENSOR])), "List[int]", 0, False),
        (None, "Tensor", 0, None), (INT, "t", 0, True),
        # torch rejects these where the old matcher could not tell: an int is no dict, and an Optional[int] must be
        # refined first ("Expected a value of type 'int' ... but instead found type 'Optional[int]'")
        (INT, "Dict[str, t]", 0, False), (optional_of(INT), "int", 0, False),
    ],
)
def test_accepts(value, param, n, accepted):
    formal = schemas.Param("a", schemas.schema_type(param), param, n, False, None)
    assert calls.match_argument(formal, value, calls.TypeEnv(), True)[0] is accepted


def test_unknown_operator_or_arguments_say_nothing():
    assert calls.match_overloads(schemas.overloads("aten::no_such_operator"), [A(None, INT)]).status != "no"
    assert calls.match_overloads(schemas.method_overloads("sum"), [A(None, None)], TENSOR).status != "no"


def test_overloads_give_the_matched_return_type():
    assert calls.match_overloads(schemas.overloads("aten::add"), [A(None, INT), A(None, INT)]).returns == INT
    assert calls.match_overloads(schemas.overloads("aten::div"), [A(None, INT), A(None, INT)]).returns == FLOAT
    assert calls.match_overloads(schemas.overloads("aten::sub"), [A(None, INT), A(None, TENSOR)]).returns == TENSOR
    found = calls.match_overloads(schemas.method_overloads("max"), [A("dim", INT)], TENSOR).returns
    assert found.fields == ("values", "indices")  # a named tuple
    assert calls.match_overloads(schemas.method_overloads("append"), [A(None, FLOAT)], list_of(INT)).status == "no"


def test_data_is_compact_json_of_the_pinned_torch():
    path = ROOT / "src" / "jitlint" / "data" / "schemas.json"
    text = path.read_text(encoding="utf-8")
    data = json.loads(text)
    assert data["torch"].startswith("2.13.0")
    assert "\n" not in text.rstrip("\n")  # compact: one line
    assert data["calls"]["torch.nn.functional.interpolate"] == "py::torch.nn.functional.interpolate"
    assert data["calls"]["torch.ones"] == "aten::ones"


def test_static_path_never_imports_torch():
    code = (
        "import sys\nfrom jitlint.targets.script import schemas\nfrom jitlint.targets.script.typing import calls\n"
        "calls.match_overloads(schemas.method_overloads('sum'), [calls.Arg('keepdims', None)], None)\n"
        "assert 'torch' not in sys.modules, 'torch was imported'\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)


@pytest.mark.torch
def test_data_matches_what_the_generator_extracts(tmp_path):
    """The committed data is what scripts/extract_schemas.py gives with the installed torch."""
    result = subprocess.run([sys.executable, str(ROOT / "scripts" / "extract_schemas.py"), "--check"],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
