"""The type inference the control-flow rules rely on: TorchScript's typing, and unknown (None) where unsure."""

import libcst as cst
import pytest

from jitlint.names import ImportTable
from jitlint.targets.script.infer import (
    BOOL, FLOAT, INT, NONE, TENSOR, Expressions, TSType, annotation_type, assignment_fails, join_fails, list_of,
    optional_of, param_types,
)

IMPORTS = ImportTable.from_module(cst.parse_module(
    "import torch\nimport torch.nn.functional as F\nfrom typing import Final, List, Optional, Tuple, Union\n"
), "m", False)
ENV = {"x": TENSOR, "n": INT, "f": FLOAT, "xs": list_of(TENSOR), "m": optional_of(TENSOR)}


def spelled(kind: TSType | None) -> str | None:
    return None if kind is None else str(kind)


@pytest.mark.parametrize("source, expected", [
    ("1", "int"), ("1.5", "float"), ("'a'", "str"), ("True", "bool"), ("None", "None"),
    ("x.size(0)", "int"), ("x.size()", "List[int]"), ("x.shape", "List[int]"), ("x.shape[0]", "int"),
    ("x.dim()", "int"), ("x.item()", "number"), ("x.tolist()", "tolist"), ("len(xs)", "int"),
    ("int(x.item())", "int"), ("float(n)", "float"), ("x.flatten()", "Tensor"), ("torch.zeros(3)", "Tensor"),
    ("F.relu(x)", "Tensor"), ("x * 2", "Tensor"), ("n / 2", "float"), ("n // 2", "int"), ("n + f", "float"),
    ("x if n > 0 else x", "Tensor"), ("xs[0]", "Tensor"), ("[1, 2]", "List[int]"), ("x > 0", "Tensor"),
    ("n > 0", "bool"), ("m is None", "bool"),
    # unknown, so silent
    ("y", None), ("helper(x)", None), ("self.layer(x)", None), ("x if n else 0", None), ("x.max(dim=0)", None),
    ("m + 1", None), ("[]", None),
])
def test_expression_types(source, expected):
    assert spelled(Expressions(IMPORTS, ENV).of(cst.parse_expression(source))) == expected


@pytest.mark.parametrize("source, expected", [
    ("torch.Tensor", "Tensor"), ("int", "int"), ("Optional[torch.Tensor]", "Optional[Tensor]"),
    ("torch.Tensor | None", "Optional[Tensor]"), ("None | int", "Optional[int]"),
    ("Union[torch.Tensor, None]", "Optional[Tensor]"), ("List[int]", "List[int]"), ("list[float]", "List[float]"),
    ("Final[int]", "int"), ("Union[int, float]", None), ("Dict[str, int]", None), ("Any", None),
])
def test_annotation_types(source, expected):
    assert spelled(annotation_type(cst.parse_expression(source), IMPORTS)) == expected


def test_parameter_types_follow_torchscript():
    function = cst.parse_module(
        "def forward(self, x, mask=None, n: int = 1, scale=2.0, m: Optional[torch.Tensor] = None): pass\n"
    ).body[0]
    assert param_types(function, IMPORTS, is_method=True) == {
        "x": TENSOR, "mask": optional_of(TENSOR), "n": INT, "scale": None, "m": optional_of(TENSOR),
    }


def test_assignment_and_join_tables_match_the_verified_pairs():
    # Re-typing inside a block (verified on torch 2.13, see JIT703/JIT706).
    assert assignment_fails(INT, FLOAT) and assignment_fails(TENSOR, INT) and assignment_fails(NONE, INT)
    assert not assignment_fails(INT, TENSOR) and not assignment_fails(FLOAT, BOOL)
    assert not assignment_fails(INT, None) and not assignment_fails(INT, INT)
    # Joins at the end of an if/else or an if-expression (JIT701/JIT707).
    assert join_fails(INT, FLOAT) and join_fails(TENSOR, INT)
    assert not join_fails(TENSOR, NONE) and not join_fails(INT, BOOL) and not join_fails(None, INT)


def test_types_spell_as_torch_does_and_decode_without_slicing():
    nested = optional_of(list_of(optional_of(TENSOR)))
    assert str(nested) == "Optional[List[Optional[Tensor]]]"
    assert nested.is_optional and nested.inner.is_list and nested.inner.element == optional_of(TENSOR)
    assert not TENSOR.is_optional and not TENSOR.is_list
    with pytest.raises(ValueError):
        TENSOR.inner
    with pytest.raises(ValueError):
        INT.element
    assert optional_of(TENSOR) == TSType("Optional", (TSType("Tensor"),)) and len({INT, TSType("int")}) == 1


def test_isinstance_folding_reads_the_same_parameters_by_their_outer_type():
    from jitlint.targets.script.policy import param_types as isinstance_param_types

    function = cst.parse_module(
        "def forward(self, x, mask=None, n: int = 1, scale=2.0, xs: List[int] = [], t: Tuple[int, int] = (1, 2), "
        "m: Optional[torch.Tensor] = None, y: torch.Tensor = None): pass\n"
    ).body[0]
    folded = {name: str(kind) for name, kind in isinstance_param_types(function, IMPORTS).items()}
    # `self` too (the scanner drops it), no Optional parameter, no unannotated parameter with a literal default; an
    # unannotated one with a `None` default is a Tensor to torch 2.13 (its graph types `mask` Tensor).
    assert folded == {"self": "Tensor", "x": "Tensor", "mask": "Tensor", "n": "int", "xs": "List", "t": "Tuple",
                      "y": "Tensor"}
