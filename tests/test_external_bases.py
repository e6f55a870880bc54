"""Module classes of libraries the run does not lint (`jitlint.facts.external_bases`): the generated table, and the
`module-bases` setting."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from conftest import codes_for, lint_files
from jitlint.config import Config, ConfigError, load_config
from jitlint.facts.external_bases import external_class, table
from jitlint.layout import parse_module
from jitlint.project import ModuleInfo, ProjectIndex

ROOT = Path(__file__).resolve().parents[1]


def _index(sources: dict[str, str], module_bases=frozenset()) -> ProjectIndex:
    project = ProjectIndex(module_bases=frozenset(module_bases))
    for name, source in sources.items():
        source = textwrap.dedent(source)
        project.add(ModuleInfo.build(Path(name), name, parse_module(source), linted=True, text=source))
    return project


def _class(project: ProjectIndex, module: str, name: str):
    return project.modules[module].classes[name]


@pytest.mark.torch
def test_the_table_is_what_the_installed_libraries_define():
    """`data/external_bases.json` is what scripts/extract_external_bases.py reads from the libraries it names."""
    import torch

    assert torch.__version__.startswith(table()["torch"])
    missing = [name for name in table()["libraries"] if importlib.util.find_spec(name) is None]
    if len(missing) == len(table()["libraries"]):
        pytest.skip(f"none of the table's libraries is installed ({', '.join(missing)}): nothing to compare it with")
    result = subprocess.run([sys.executable, str(ROOT / "scripts" / "extract_external_bases.py"), "--check"],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_every_public_spelling_names_the_class_that_defines_it():
    for spelling in ("lightning.LightningModule", "lightning.pytorch.LightningModule",
                     "lightning.pytorch.core.module.LightningModule"):
        found = external_class(spelling)
        assert found is not None and found.name == "lightning.pytorch.core.module.LightningModule"
        assert found.torch == ("torch.nn.Module",)
        assert {"trainer", "device", "hparams"} <= found.properties and "log" in found.names
        assert "trainer" in found.unused_properties
    assert external_class("pytorch_lightning.LightningModule").name == "pytorch_lightning.core.module.LightningModule"
    assert external_class("torchmetrics.Metric").name == "torchmetrics.metric.Metric"
    assert external_class("torchmetrics.MetricCollection").torch == ("torch.nn.ModuleDict", "torch.nn.Module")


def test_classes_that_are_not_modules_are_not_taken_for_modules():
    assert external_class("lightning.pytorch.core.hooks.ModelHooks") is None  # a mixin of LightningModule
    assert external_class("lightning.LightningDataModule") is None
    assert external_class("lightning.Trainer") is None
    assert external_class("mypkg.base.Base") is None
    assert external_class("mypkg.base.Base", frozenset({"mypkg.base.Base"})).torch == ("torch.nn.Module",)


def test_a_subclass_of_a_library_module_class_is_a_module_class():
    project = _index({"model.py": """
        import lightning as L
        from pytorch_lightning import LightningModule
        from torchmetrics import Metric, MetricCollection
        from lightning import LightningDataModule

        class A(L.LightningModule):
            pass

        class B(A):
            pass

        class C(LightningModule):
            pass

        class D(Metric):
            pass

        class E(MetricCollection):
            pass

        class F(LightningDataModule):
            pass
        """})
    for name in "ABCD":
        assert project.is_module_class(_class(project, "model", name)), name
    assert "lightning.pytorch.core.module.LightningModule" in project.torch_bases(_class(project, "model", "B"))
    assert project.container_kind(_class(project, "model", "E")) == "ModuleDict"
    assert not project.is_module_class(_class(project, "model", "F"))


def test_a_class_of_the_run_is_its_own_whatever_its_name():
    project = _index({"lightning/__init__.py": "class LightningModule:\n    pass\n",
                      "model.py": "import lightning\n\nclass A(lightning.LightningModule):\n    pass\n"})
    assert not project.is_module_class(_class(project, "model", "A"))


def test_declared_bases_are_module_classes():
    source = "from mypkg.base import Base\n\nclass A(Base):\n    pass\n"
    assert not _index({"model.py": source}).is_module_class(_class(_index({"model.py": source}), "model", "A"))
    project = _index({"model.py": source}, {"mypkg.base.Base"})
    assert project.is_module_class(_class(project, "model", "A"))


def test_the_setting_is_read_and_checked(tmp_path):
    path = tmp_path / "pyproject.toml"
    path.write_text('[tool.jitlint]\nmodule-bases = ["mypkg.base.Base"]\n')
    assert load_config(path).module_bases == {"mypkg.base.Base"}
    for wrong in ('"mypkg.base.Base"', '["mypkg.base.Base()"]', '[""]', '[1]'):
        path.write_text(f"[tool.jitlint]\nmodule-bases = {wrong}\n")
        with pytest.raises(ConfigError, match="module-bases"):
            load_config(path)


def test_a_run_captures_the_forward_of_a_declared_base_s_subclass(tmp_path):
    source = """
        import torch
        from mypkg.base import Base

        class Net(Base):
            def forward(self, x):
                if x.sum() > 0:
                    return x
                return -x
        """
    plain = lint_files({"model.py": source}, tmp_path, codes=codes_for("fx"))
    assert [finding.code for finding in plain] == []
    config = Config(root=tmp_path, module_bases=frozenset({"mypkg.base.Base"}))
    declared = lint_files({"model.py": source}, tmp_path, codes=codes_for("fx"), config=config)
    assert [(finding.code, finding.location.row) for finding in declared] == [("FX201", 7)]


def _jit636(tmp_path, source: str, config=None) -> list[int]:
    findings = lint_files({"model.py": source}, tmp_path, codes=codes_for("script"), config=config)
    return [finding.location.row for finding in findings if finding.code == "JIT636"]


def test_an_own_list_that_drops_the_library_s_is_flagged_where_it_is_set(tmp_path):
    source = """
        import pytorch_lightning as pl

        class Net(pl.LightningModule):
            __jit_unused_properties__ = ["extra", "trainer"]

            def forward(self, x):
                return x
        """
    assert _jit636(tmp_path, source) == [5]


def test_lists_jitlint_cannot_blame_on_the_library_are_left_alone(tmp_path):
    extended = """
        import pytorch_lightning as pl

        class Net(pl.LightningModule):
            __jit_unused_properties__ = pl.LightningModule.__jit_unused_properties__ + ["extra"]

            def forward(self, x):
                return x
        """
    assert _jit636(tmp_path, extended) == []
    below_a_project_list = """
        import pytorch_lightning as pl

        class Base(pl.LightningModule):
            __jit_unused_properties__ = pl.LightningModule.__jit_unused_properties__ + ["extra"]

        class Net(Base):
            __jit_unused_properties__ = Base.__jit_unused_properties__ + ["more"]

            def forward(self, x):
                return x
        """
    assert _jit636(tmp_path, below_a_project_list) == []
    declared = """
        from mypkg.base import Base

        class Net(Base):
            __jit_unused_properties__ = ["extra"]

            def forward(self, x):
                return x
        """
    config = Config(root=tmp_path, module_bases=frozenset({"mypkg.base.Base"}))
    assert _jit636(tmp_path, declared, config) == []  # a declared base's list is unknown
    compilable_only = """
        import pytorch_lightning as pl

        class Net(pl.LightningModule):
            __jit_unused_properties__ = [name for name in pl.LightningModule.__jit_unused_properties__]

            def forward(self, x):
                return x
        """
    assert _jit636(tmp_path, compilable_only) == []  # a list built by an expression: not read


def test_dropping_only_properties_torch_compiles_is_silent(tmp_path):
    """`automatic_optimization` and `dtype` compile (the table, from scripting a subclass leaving each out)."""
    kept = sorted(external_class("lightning.LightningModule").unscriptable)
    assert "dtype" not in kept and "automatic_optimization" not in kept and len(kept) == 15
    source = f"""
import lightning as L

class Net(L.LightningModule):
    __jit_unused_properties__ = {kept!r}

    def forward(self, x):
        return x
"""
    assert _jit636(tmp_path, source) == []
    assert _jit636(tmp_path, source.replace("'trainer'", "'extra'")) == [5]
