"""JIT203 on a TypeVar imported from another module of the package and written in the signature of a function
compiled code calls: torch's resolver follows the import to the TypeVar object and makes no type of it."""

import textwrap

import pytest

from conftest import lint_files
from oracles.script import script_file

DATA = textwrap.dedent("""
    import typing


    class DataPoint:
        pass


    DT = typing.TypeVar("DT", bound=DataPoint)
""")

MODEL = textwrap.dedent("""
    from typing import List, Optional

    import torch

    from pkg.data import DT


    def identify(points: List[DT]) -> Optional[List[str]]:
        return None


    class M(torch.nn.Module):
        def forward(self, x):
            identify([])
            return x
""")


def _files(model: str) -> dict:
    return {"pkg/__init__.py": "", "pkg/data.py": DATA, "pkg/model.py": model}


def test_an_imported_type_variable_is_flagged_at_the_signature(tmp_path):
    findings = lint_files(_files(MODEL), tmp_path)
    row = MODEL.splitlines().index("def identify(points: List[DT]) -> Optional[List[str]]:") + 1
    assert [(f.code, f.location.row) for f in findings if f.severity == "error"] == [("JIT203", row)]


def test_the_imported_class_beside_it_is_not(tmp_path):
    model = MODEL.replace("from pkg.data import DT", "from pkg.data import DataPoint as DT")
    assert [f for f in lint_files(_files(model), tmp_path) if f.severity == "error"] == []


@pytest.mark.torch
@pytest.mark.parametrize("package, rejected", [("tvrejected", True), ("tvaccepted", False)])
def test_torch(package, rejected, tmp_path):
    model = MODEL if rejected else MODEL.replace("from pkg.data import DT", "from pkg.data import DataPoint as DT") \
        .replace("def identify(points: List[DT])", "def identify(points: List[torch.Tensor])")
    for name, text in _files(model).items():
        path = tmp_path / name.replace("pkg/", f"{package}/")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text.replace("pkg.data", f"{package}.data"))
    result = script_file(tmp_path / package / "model.py", package_root=tmp_path)
    assert (result.rejected and result.says("Unknown type name 'DT'")) if rejected else result.ok, result
