"""PEP 420 namespace packages: a directory without `__init__.py` inside a package is a package too, for module
names (the static path, the cache's layout, and the name the dynamic checker imports a file by)."""

import json
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

from jitlint.cache import Layout
from jitlint.cli import main
from jitlint.names import module_name_for


def _project(tmp_path: Path) -> Path:
    package = tmp_path / "proj" / "facepkg"
    (package / "models" / "utils").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "models" / "mtcnn.py").write_text(textwrap.dedent("""\
        import torch
        from torch import nn

        from .utils.detect import detect_face


        class MTCNN(nn.Module):
            def forward(self, x):
                return detect_face(x)
        """))
    (package / "models" / "utils" / "detect.py").write_text(textwrap.dedent("""\
        import torch


        def detect_face(x):
            boxes = [b for b in x]
            return lambda t: t
        """))
    return package


def test_module_names_follow_namespace_directories_inside_a_package(tmp_path):
    package = _project(tmp_path)
    root = tmp_path / "proj"
    assert module_name_for(package / "models" / "mtcnn.py") == ("facepkg.models.mtcnn", root.resolve())
    assert module_name_for(package / "models" / "utils" / "detect.py")[0] == "facepkg.models.utils.detect"
    assert module_name_for(package / "__init__.py")[0] == "facepkg"
    layout = Layout([package / "models" / "mtcnn.py"])
    assert layout.module_name(package / "models" / "mtcnn.py") == ("facepkg.models.mtcnn", str(root.resolve()))


def test_a_top_level_directory_without_init_is_not_a_package(tmp_path):
    scripts = tmp_path / "scripts"
    scripts.mkdir()
    (scripts / "run.py").write_text("")
    assert module_name_for(scripts / "run.py") == ("run", scripts.resolve())


def test_calls_into_a_namespace_package_are_followed(tmp_path):
    package = _project(tmp_path)
    result = CliRunner().invoke(main, ["check", "--no-cache", "--output-format", "json", "--exit-zero", str(package)])
    findings = json.loads(result.output)
    assert any(f["code"] == "JIT105" and f["filename"].endswith("detect.py") for f in findings), findings


def test_calls_into_a_namespace_package_are_followed_through_the_cache(tmp_path):
    package = _project(tmp_path)
    args = ["check", "--cache-dir", str(tmp_path / "cache"), "--output-format", "json", "--exit-zero", str(package)]
    first = json.loads(CliRunner().invoke(main, args).output)
    second = json.loads(CliRunner().invoke(main, args).output)
    assert any(f["code"] == "JIT105" and f["filename"].endswith("detect.py") for f in first)
    assert first == second


@pytest.mark.torch
def test_the_dynamic_checker_imports_a_module_of_a_namespace_package(tmp_path):
    package = _project(tmp_path)
    result = CliRunner().invoke(main, ["check", "--no-cache", "--dynamic", "--output-format", "json", "--exit-zero",
                                       str(package)])
    findings = [f for f in json.loads(result.output) if f["code"] == "JIT105"]
    assert findings and findings[0]["confirmation"]["status"] == "confirmed", findings


def _installed(tmp_path: Path, dist_info: bool) -> Path:
    """A top-level namespace package (`nsorg/`, no `__init__.py`) holding a package, as pip installs one."""
    site = tmp_path / "site"
    package = site / "nsorg" / "facepkg"
    package.mkdir(parents=True)
    if dist_info:
        (site / "nsorg_facepkg-1.0.dist-info").mkdir()
    (package / "__init__.py").write_text("")
    (package / "mtcnn.py").write_text(textwrap.dedent("""\
        import torch
        from torch import nn

        from nsorg.facepkg.detect import detect_face


        class MTCNN(nn.Module):
            def forward(self, x):
                return detect_face(x)
        """))
    (package / "detect.py").write_text(textwrap.dedent("""\
        import torch


        def detect_face(x):
            boxes = [b for b in x]
            return lambda t: t
        """))
    return site


def test_a_top_level_namespace_package_where_distributions_are_installed(tmp_path):
    site = _installed(tmp_path, dist_info=True)
    module = site / "nsorg" / "facepkg" / "mtcnn.py"
    assert module_name_for(module) == ("nsorg.facepkg.mtcnn", site.resolve())
    assert Layout([module]).module_name(module) == ("nsorg.facepkg.mtcnn", str(site.resolve()))
    result = CliRunner().invoke(main, ["check", "--no-cache", "--output-format", "json", "--exit-zero", str(site)])
    findings = json.loads(result.output)
    assert any(f["code"] == "JIT105" and f["filename"].endswith("detect.py") for f in findings), findings


def test_a_directory_without_init_above_a_package_elsewhere_is_not_one(tmp_path):
    site = _installed(tmp_path, dist_info=False)
    module = site / "nsorg" / "facepkg" / "mtcnn.py"
    assert module_name_for(module) == ("facepkg.mtcnn", (site / "nsorg").resolve())
