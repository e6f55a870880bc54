"""`from m import *` of a project module binds what Python binds: m's public module-level names, or exactly its
literal `__all__`, transitively, later statements of the importing file winning; in a run, through the cache and
past the prefilter."""

import json
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

from jitlint import engine, pipeline
from jitlint.cli import main
from jitlint.codes import TARGET_OF
from jitlint.config import Config
from jitlint.layout import parse_module
from jitlint.names import ImportTable

COMMON = """\
    import torch.nn as nn
    from torch.nn import functional as F


    class Conv(nn.Module):
        def forward(self, x):
            return x


    class _Hidden(nn.Module):
        def forward(self, x):
            return x
    """

MODEL = """\
    from pkg.common import *


    class Model(nn.Module):
        def forward(self, x):
            f = lambda y: y + 1
            return f(x)


    class Sub(Conv):
        def forward(self, x):
            f = lambda y: y + 1
            return f(x)
    """


def _write(root: Path, files: dict[str, str]) -> Path:
    package = root / "pkg"
    package.mkdir(parents=True, exist_ok=True)
    (package / "__init__.py").write_text("")
    for name, text in files.items():
        (package / name).write_text(textwrap.dedent(text))
    return package


def _lines(result) -> set[tuple[str, int, str]]:
    assert result.exit_code == 0, result.output
    return {(Path(f["filename"]).name, f["location"]["row"], f["code"]) for f in json.loads(result.output)}


def _check(package: Path, *extra: str):
    return CliRunner().invoke(main, ["check", "--target", "script", "--output-format", "json", "--exit-zero",
                                     *extra, str(package)])


def test_names_of_a_star_imported_project_module_are_known(tmp_path):
    package = _write(tmp_path, {"common.py": COMMON, "model.py": MODEL})
    found = _lines(_check(package, "--no-cache"))
    assert found == {("model.py", 6, "JIT105"), ("model.py", 12, "JIT105")}


def test_a_literal_all_is_exactly_what_a_star_import_binds(tmp_path):
    common = textwrap.dedent(COMMON) + "\n__all__ = [\"Conv\"]\n"
    package = _write(tmp_path, {"common.py": common, "model.py": MODEL})
    # `nn` is not exported: `Model`'s base is unknown, so it is no module class; `Sub` still is
    assert _lines(_check(package, "--no-cache")) == {("model.py", 12, "JIT105")}


def test_star_imports_are_followed_transitively_and_cycles_end(tmp_path):
    files = {
        "common.py": COMMON,
        "layers.py": "from pkg.common import *\nfrom pkg.model import *\n",
        "model.py": MODEL.replace("from pkg.common import *", "from pkg.layers import *"),
    }
    package = _write(tmp_path, files)
    assert _lines(_check(package, "--no-cache")) == {("model.py", 6, "JIT105"), ("model.py", 12, "JIT105")}


def test_an_edit_of_the_star_imported_module_reaches_its_importer_through_the_cache(tmp_path):
    package = _write(tmp_path, {"common.py": COMMON, "model.py": MODEL})
    cache = ("--cache-dir", str(tmp_path / "cache"))
    assert _lines(_check(package, *cache)) == {("model.py", 6, "JIT105"), ("model.py", 12, "JIT105")}
    (package / "common.py").write_text(textwrap.dedent(COMMON) + '\n__all__ = ["Conv"]\n')
    assert _lines(_check(package, *cache)) == {("model.py", 12, "JIT105")}
    (package / "common.py").write_text(textwrap.dedent(COMMON))
    assert _lines(_check(package, *cache)) == {("model.py", 6, "JIT105"), ("model.py", 12, "JIT105")}


def _table(text: str, name: str = "pkg.m") -> ImportTable:
    return ImportTable.from_module(parse_module(textwrap.dedent(text)), name)


def test_what_a_module_exports():
    common = _table(COMMON, "pkg.common")
    assert common.star_exports() == {"nn": "torch.nn", "F": "torch.nn.functional", "Conv": "pkg.common.Conv"}
    assert _table('class A: pass\nclass B: pass\n__all__ = ("B", "sub")\n', "pkg").star_exports() == {
        "B": "pkg.B", "sub": "pkg.sub"}
    # an `__all__` that is computed or extended: what a star import binds is not known
    assert _table('class A: pass\n__all__ = ["A"]\n__all__ += ["B"]\n').star_exports() == {}
    assert _table('class A: pass\n__all__ = [n for n in dir()]\n').star_exports() == {}


def test_a_later_binding_of_the_importing_file_wins():
    table = _table("""\
        import numpy as nn
        from pkg.common import *
        from jax import F
        """)
    table.bind_star(table.stars[0][1], _table(COMMON, "pkg.common").star_exports())
    assert table.qualify(parse_module("nn.Module").body[0].body[0].value) == "torch.nn.Module"
    assert table.aliases["F"] == "jax.F"
    assert table.aliases["Conv"] == "pkg.common.Conv"
    assert "_Hidden" not in table.aliases


REEXPORT = {
    "common.py": COMMON,
    "layers.py": "from pkg.common import *\nfrom pkg.common import _Hidden\n",
    "model.py": """\
        from pkg.layers import Conv, _Hidden, nn


        class Sub(Conv):
            def forward(self, x):
                f = lambda y: y + 1
                return f(x)


        class Other(_Hidden):
            def forward(self, x):
                f = lambda y: y + 1
                return f(x)
        """,
}


@pytest.mark.parametrize("split", [None, [["model.py"], ["common.py", "layers.py"]],
                                   [["layers.py"], ["common.py", "model.py"]]])
def test_a_module_that_only_re_exports_binds_its_star_imports_in_every_worker(tmp_path, monkeypatch, split):
    """A star-importing module with no class or function of its own is indexed from its summary (`ast`): what its
    star imports bind is bound when a worker's index reads it, whichever worker parses it."""
    package = _write(tmp_path, REEXPORT)
    enabled = Config(root=tmp_path).enabled_codes(TARGET_OF, None, (), (), ["script"])
    jobs = 1
    if split is not None:
        jobs = len(split)

        def forced(job, workers):
            order = {path: number for number, path in enumerate(job.files)}
            shares = [[package / name for name in share] for share in split]
            shares[-1].extend(path for path in job.files if all(path not in share for share in shares))
            return [sorted(share, key=order.__getitem__) for share in shares]

        monkeypatch.setattr(pipeline, "MIN_FILES_PER_JOB", 1)
        monkeypatch.setattr(pipeline, "split", forced)
    run = engine.lint_run([package], Config(root=tmp_path), enabled, jobs=jobs)
    found = {(Path(finding.filename).name, finding.location.row, finding.code) for finding in run.findings}
    assert found == {("model.py", 6, "JIT105"), ("model.py", 12, "JIT105")}


USES = """\
    import torch
    import torch.nn as nn
    from pkg.helpers import *


    class Model(nn.Module):
        def forward(self, x):
            if x.sum() < 0:
                raise ParameterError("negative")
            return clamp_value(x) * scale(x)
    """

HELPERS = """\
    import math

    if math.pi > 3:
        def scale(x):
            return x * 2.0
    else:
        def scale(x):
            return x


    def clamp_value(x):
        return x.clamp(0.0, 1.0)
    """


def test_a_name_neither_the_file_nor_its_star_imported_project_modules_bind_is_undefined(tmp_path):
    # torch 2.13: "undefined value ParameterError" (bound nowhere); `scale` and `clamp_value` resolve, and with
    # ParameterError defined in the star-imported module torch scripts the model
    package = _write(tmp_path, {"helpers.py": HELPERS, "model.py": USES})
    assert _lines(_check(package, "--no-cache")) == {("model.py", 9, "JIT425")}
    defined = textwrap.dedent(HELPERS) + "\n\nclass ParameterError(Exception):\n    pass\n"
    package = _write(tmp_path / "defined", {"helpers.py": defined, "model.py": USES})
    assert _lines(_check(package, "--no-cache")) == set()


def test_a_star_import_of_a_library_module_leaves_every_name_possibly_bound(tmp_path):
    package = _write(tmp_path, {"model.py": USES.replace("from pkg.helpers import *", "from math import *")})
    assert _lines(_check(package, "--no-cache")) == set()


def test_a_file_the_index_asks_for_before_its_turn_is_parsed_once(tmp_path, monkeypatch):
    """In a run in one process (the compile target follows values across files), a file whose star import names a
    file later in the run's order makes the index read that file first: it is parsed then, once, and linted as it
    would have been in its turn."""
    package = _write(tmp_path, {
        "a_model.py": """\
            import torch
            from pkg.z_layers import *


            class Model(nn.Module):
                def forward(self, x):
                    return Block()(x)
            """,
        "z_layers.py": """\
            import torch
            import torch.nn as nn


            class Block(nn.Module):
                def forward(self, x):
                    if x.sum() > 0:
                        return x * 2
                    return x
            """,
    })
    read: list[str] = []
    real = pipeline.read_source

    def counted(path, *args, **kwargs):
        read.append(Path(path).name)
        return real(path, *args, **kwargs)

    monkeypatch.setattr(pipeline, "read_source", counted)
    enabled = Config(root=tmp_path).enabled_codes(TARGET_OF, None, (), (), ["compile"])
    run = engine.lint_run([package], Config(root=tmp_path), enabled, jobs=1)
    assert sorted(read) == ["__init__.py", "a_model.py", "z_layers.py"]
    found = {(Path(finding.filename).name, finding.location.row, finding.code) for finding in run.findings}
    assert ("z_layers.py", 7, "DYN101") in found
