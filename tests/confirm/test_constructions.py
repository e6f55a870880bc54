"""Classes that need constructor arguments, or whose defaults do not build, are built with the literal arguments of
their construction sites in the project (`jitlint.confirm.constructions`): calls in code and doctest examples."""

import textwrap
from pathlib import Path

import pytest

from .project import dynamic_findings, located, write_project
from jitlint.confirm.constructions import construction_sites, scan
from jitlint.project import ProjectIndex
from jitlint.engine import load_quietly

LAYERS = '''
from typing import Final

import torch
import torch.nn as nn


class Head(nn.Module):
    def __init__(self, nc: int = 80, ch: tuple = ()):
        super().__init__()
        self.first = ch[0]  # the empty default is a placeholder: building with it raises IndexError
        self.convs = nn.ModuleList(nn.Conv2d(c, nc, 1) for c in ch)

    def forward(self, x):
        return x.numpy()


class Block(nn.Module):
    """A block.

    Examples:
        >>> block = Block(4,
        ...               out_ch=8)
    """

    def __init__(self, in_ch, out_ch):
        super().__init__()
        self.lin = nn.Linear(in_ch, out_ch)

    def forward(self, x):
        return x.numpy()


def helper(x):
    return x.numpy()


class Unbuilt(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.lin = nn.Linear(width, width)

    def forward(self, x):
        y = x.numpy()
        return helper(x)


class Gated(nn.Module):
    """Built with the flag off, torch prunes the branch it guards (`Final`): the static error is not reproduced.

    >>> Gated(flag=False)
    """

    flag: Final[bool]

    def __init__(self, flag):
        super().__init__()
        self.flag = flag

    def forward(self, x):
        if self.flag:
            return getattr(self, "n" + "orm")(x)
        return x
'''

MODEL = '''
from pkg.layers import Head
from pkg import layers as L


def build(width):
    return [Head(nc=3, ch=(4, 8)), L.Unbuilt(width), L.Block(in_ch=width, out_ch=2)]
'''

# A class of the same name elsewhere: its calls are not sites of `pkg.layers.Head`.
OTHER = '''
class Head:
    def __init__(self, a, b):
        pass


made = Head(1, 2)
'''


def _project(root: Path) -> Path:
    return write_project(root, {"pkg/__init__.py": "", "pkg/layers.py": textwrap.dedent(LAYERS),
                                "pkg/model.py": MODEL, "pkg/other.py": OTHER,
                                "pyproject.toml": "[tool.jitlint.dynamic]\ntimeout = 120\n"})


def test_sites_are_literal_calls_resolved_to_the_class_and_doctest_examples(tmp_path):
    root = _project(tmp_path)
    project = ProjectIndex(loader=load_quietly)
    project.seed([root / "pkg" / "layers.py"])
    files = sorted((root / "pkg").glob("*.py"))
    sites = construction_sites(project, files, {"pkg.layers.Head", "pkg.layers.Block", "pkg.layers.Unbuilt"})
    shown = {name: [(site["args"], site["kwargs"], Path(site["where"]).name) for site in found]
             for name, found in sites.items()}
    assert shown == {
        "pkg.layers.Head": [([], {"nc": "3", "ch": "(4, 8)"}, "model.py:7")],  # not other.py's Head(1, 2)
        "pkg.layers.Block": [(["4"], {"out_ch": "8"}, "layers.py:22")],  # the example; model.py's is computed
    }


@pytest.mark.torch
def test_a_class_built_with_the_arguments_of_its_construction_site_is_confirmed(tmp_path):
    root = _project(tmp_path)
    findings = [f for f in dynamic_findings(root, "pkg/layers.py") if f["code"] != "JIT000"]
    statuses = {(row, status) for _name, row, _code, status in located(findings)}
    # Head's default `ch=()` raises; Block needs arguments: both built from their sites, their errors confirmed
    assert {(15, "confirmed"), (31, "confirmed")} <= statuses, findings
    # Unbuilt has no site: its method stays unverified, naming what it needs; the free function it calls is
    # scripted on its own (no instance needed), its error confirmed
    [unbuilt] = [f for f in findings if f["location"]["row"] == 44]
    assert unbuilt["confirmation"]["status"] == "unverified"
    assert "needs constructor arguments: width" in unbuilt["confirmation"]["detail"]
    assert (35, "confirmed") in statuses, findings
    [gated] = [f for f in findings if f["code"] == "JIT306"]
    assert gated["confirmation"]["status"] == "not-reproduced", gated
    assert gated["confirmation"]["detail"].endswith("scripted Gated (built with the arguments at layers.py:51)"), gated


# A class whose constructor takes a configuration object is built with one when its declarations say which class
# that is and that class builds with its own defaults: the parameter's annotation, or (for `config`) the class's
# `config_class`. A parameter declared with no such class (`width`, a configuration that needs arguments) is never
# guessed.
CONFIGURED = '''
import torch
import torch.nn as nn


class Config:
    def __init__(self, hidden: int = 8, layers: int = 2):
        self.hidden = hidden
        self.layers = layers


class Dims:
    def __init__(self, n_state: int):
        self.n_state = n_state


class Encoder(nn.Module):
    def __init__(self, config: Config):
        super().__init__()
        self.lin = nn.Linear(config.hidden, config.hidden)

    def forward(self, x):
        return x.numpy()


class Pretrained(nn.Module):
    config_class = Config


class Decoder(Pretrained):
    def __init__(self, config, scale=2.0):
        super().__init__()
        self.lin = nn.Linear(config.hidden, config.hidden)

    def forward(self, x):
        return x.tolist()


class Sized(nn.Module):
    def __init__(self, dims: Dims):
        super().__init__()
        self.lin = nn.Linear(dims.n_state, dims.n_state)

    def forward(self, x):
        return x.numpy()
'''


@pytest.mark.torch
def test_a_configuration_argument_its_declarations_name_is_built_with_its_defaults(tmp_path):
    write_project(tmp_path, {"cpkg/__init__.py": "", "cpkg/model.py": CONFIGURED,
                             "pyproject.toml": "[tool.jitlint.dynamic]\ntimeout = 120\n"})
    findings = [f for f in dynamic_findings(tmp_path, "cpkg") if f["code"] != "JIT000"]
    status = {f["location"]["row"]: f["confirmation"] for f in findings}
    assert status[23]["status"] == "confirmed", status  # Encoder(config=Config())
    assert status[36]["status"] == "confirmed", status  # Decoder(config=Config()), through `config_class`
    assert status[45]["status"] == "unverified", status  # Dims needs `n_state`: nothing is guessed
    assert "needs constructor arguments: dims" in status[45]["detail"], status


# A class built from the library's own functions or classes (a loss wrapper given a loss): a site whose arguments
# are what the file or its doctest example imports or defines at its top level, as they are or called with literals,
# is built with them (imported in the child by their qualified names); a local variable is still no site.
LOSSES = '''
import torch


def pairwise_mse(a, b):
    return (a - b).pow(2).mean()


class Scaled:
    def __init__(self, factor):
        self.factor = factor
'''

WRAPPERS = '''
import torch
import torch.nn as nn


class Wrapper(nn.Module):
    """Wraps a loss.

    Examples:
        >>> from wpkg.losses import pairwise_mse
        >>> loss = Wrapper(pairwise_mse, mode="pw")
    """

    def __init__(self, loss_func, mode="pw"):
        super().__init__()
        self.mode = mode

    def forward(self, x):
        return x.numpy()


class Scaler(nn.Module):
    def __init__(self, scale):
        super().__init__()
        self.factor = float(scale.factor)

    def forward(self, x):
        return x.tolist()


def build(fn):
    return [Scaler(Scaled(2)), Wrapper(fn)]


from wpkg.losses import Scaled
'''


def test_sites_may_pass_the_librarys_own_functions_and_classes(tmp_path):
    root = write_project(tmp_path, {"wpkg/__init__.py": "", "wpkg/losses.py": LOSSES, "wpkg/wrappers.py": WRAPPERS,
                                    "pyproject.toml": "[tool.jitlint.dynamic]\ntimeout = 120\n"})
    project = ProjectIndex(loader=load_quietly)
    project.seed([root / "wpkg" / "wrappers.py"])
    sites = construction_sites(project, sorted((root / "wpkg").glob("*.py")),
                               {"wpkg.wrappers.Wrapper", "wpkg.wrappers.Scaler"})
    shown = {name: [(site["args"], site["kwargs"], site.get("refs"), Path(site["where"]).name) for site in found]
             for name, found in sites.items()}
    assert shown == {
        # the example's import; `build`'s `Wrapper(fn)` passes a parameter: no site
        "wpkg.wrappers.Wrapper": [(["pairwise_mse"], {"mode": "'pw'"}, {"pairwise_mse": "wpkg.losses.pairwise_mse"},
                                   "wrappers.py:11")],
        "wpkg.wrappers.Scaler": [(["Scaled(2)"], {}, {"Scaled": "wpkg.losses.Scaled"}, "wrappers.py:32")],
    }


@pytest.mark.torch
def test_a_class_built_with_the_librarys_own_function_is_confirmed(tmp_path):
    write_project(tmp_path, {"wpkg/__init__.py": "", "wpkg/losses.py": LOSSES, "wpkg/wrappers.py": WRAPPERS,
                             "pyproject.toml": "[tool.jitlint.dynamic]\ntimeout = 120\n"})
    findings = {f["location"]["row"]: f["confirmation"] for f in dynamic_findings(tmp_path, "wpkg/wrappers.py")
                if f["code"] != "JIT000"}
    assert findings[19]["status"] == "confirmed", findings  # Wrapper(pairwise_mse, mode="pw")
    assert findings[28]["status"] == "confirmed", findings  # Scaler(Scaled(2))


# A class no site builds (its arguments are computed where it is built) is the instance a class that builds it holds:
# the host, built with its own site's arguments (here a `__main__` example whose values are names it bound once
# before the call), searched among its submodules. What torch says of that instance is what it says of the class: an
# error confirmed, and a flag the host passed (`Final`, pruned) not reproduced. Arithmetic of values is a value too
# (`2**3`, a power only of a small literal exponent); a name bound twice, or a parameter, is no value.
HOSTED = '''
from typing import Final

import torch
import torch.nn as nn


class Block(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.lin = nn.Linear(dim, dim)

    def forward(self, x):
        return x.numpy()


class Gated(nn.Module):
    flag: Final[bool]

    def __init__(self, flag):
        super().__init__()
        self.flag = flag

    def forward(self, x):
        if self.flag:
            return getattr(self, "n" + "orm")(x)
        return x


class Model(nn.Module):
    def __init__(self, dim, depth=1):
        super().__init__()
        self.blocks = nn.ModuleList([Block(dim) for _ in range(depth)])
        self.gate = Gated(dim > 100)

    def forward(self, x):
        return x

    def features(self, x):
        return [block(x) for block in self.blocks]


class Wrapper(nn.Module):
    def __init__(self, model, scale):
        super().__init__()
        self.model = model
        self.scale = scale

    def forward(self, x):
        return x.tolist()


def build(width):
    twice = 2
    twice = 3
    return Wrapper(Model(width), scale=twice), Wrapper(Model(2**10**10), scale=1)


if __name__ == "__main__":
    width = 2**3
    model = Model(dim=width, depth=2)
    wrapper = Wrapper(model, scale=2.0)
'''


def test_sites_read_the_names_their_scope_binds_once_and_classes_name_their_hosts(tmp_path):
    root = write_project(tmp_path, {"hpkg/__init__.py": "", "hpkg/model.py": HOSTED})
    project = ProjectIndex(loader=load_quietly)
    project.seed([root / "hpkg" / "model.py"])
    wanted = {f"hpkg.model.{name}" for name in ("Block", "Gated", "Model", "Wrapper")}
    sites, hosts = scan(project, sorted((root / "hpkg").glob("*.py")), wanted)
    shown = {name: [(site["args"], site["kwargs"], site.get("lets")) for site in found] for name, found in sites.items()}
    assert shown == {
        # `build`'s calls pass a parameter, a name bound twice, a power of a power: no site
        "hpkg.model.Model": [([], {"dim": "width", "depth": "2"}, [["width", "2 ** 3"]])],
        "hpkg.model.Wrapper": [(["model"], {"scale": "2.0"},
                                [["width", "2 ** 3"], ["model", "Model(dim=width, depth=2)"]])],
    }
    assert hosts == {"hpkg.model.Block": ["hpkg.model.Model"], "hpkg.model.Gated": ["hpkg.model.Model"]}


@pytest.mark.torch
def test_a_class_no_site_builds_is_the_instance_its_host_holds(tmp_path):
    write_project(tmp_path, {"hpkg/__init__.py": "", "hpkg/model.py": HOSTED,
                             "pyproject.toml": "[tool.jitlint.dynamic]\ntimeout = 120\n"})
    findings = {f["location"]["row"]: f["confirmation"] for f in dynamic_findings(tmp_path, "hpkg/model.py")
                if f["code"] != "JIT000"}
    assert findings[14]["status"] == "confirmed", findings  # Block, compiled as a submodule of Model(dim=8, depth=2)
    assert findings[26]["status"] == "not-reproduced", findings  # Gated(8 > 100): torch prunes the branch
    assert "the instance Model builds" in findings[26]["detail"], findings
    assert findings[50]["status"] == "confirmed", findings  # Wrapper(model, scale=2.0), `model` from its scope


# A model built from a table: `parse_model` builds each layer with `globals()[name](*args)` after naming the classes it
# treats apart (`m is Head`), as ultralytics' does from a YAML file. No call site builds `Head`, but the function names
# it, and `Model` calls the function: Model is Head's host, and its instance holds the Head the library built.
TABLE_BLOCKS = '''
import torch
import torch.nn as nn


class Conv(nn.Module):
    def __init__(self, c1, c2):
        super().__init__()
        self.conv = nn.Conv2d(c1, c2, 1)

    def forward(self, x):
        return self.conv(x)


class Head(nn.Module):
    def __init__(self, nc, ch):
        super().__init__()
        self.nc = nc
        self.convs = nn.ModuleList([nn.Conv2d(c, nc, 1) for c in ch])

    def forward(self, x):
        return x.numpy()
'''

TABLE_TASKS = '''
import torch.nn as nn

from tpkg.blocks import Conv, Head


def parse_model(layers):
    built = []
    for name, args in layers:
        m = globals()[name]
        if m is Head:
            args = [args[0], tuple(args[1])]
        built.append(m(*args))
    return nn.Sequential(*built)


class Model(nn.Module):
    def __init__(self, layers=(("Conv", (3, 8)), ("Head", (2, [8])))):
        super().__init__()
        self.model = parse_model(layers)

    def forward(self, x):
        return self.model(x)
'''


def test_a_class_a_function_builds_from_a_table_is_hosted_by_the_classes_calling_that_function(tmp_path):
    root = write_project(tmp_path, {"tpkg/__init__.py": "", "tpkg/blocks.py": TABLE_BLOCKS,
                                    "tpkg/tasks.py": TABLE_TASKS})
    project = ProjectIndex(loader=load_quietly)
    project.seed([root / "tpkg" / "blocks.py"])
    _sites, hosts = scan(project, sorted((root / "tpkg").glob("*.py")), {"tpkg.blocks.Head"})
    assert hosts == {"tpkg.blocks.Head": ["tpkg.tasks.Model"]}


@pytest.mark.torch
def test_a_class_built_from_a_table_is_the_instance_the_model_holds(tmp_path):
    write_project(tmp_path, {"tpkg/__init__.py": "", "tpkg/blocks.py": TABLE_BLOCKS, "tpkg/tasks.py": TABLE_TASKS,
                             "pyproject.toml": "[tool.jitlint.dynamic]\ntimeout = 120\n"})
    findings = {f["location"]["row"]: f["confirmation"] for f in dynamic_findings(tmp_path, "tpkg/blocks.py")
                if f["code"] != "JIT000"}
    assert findings[22]["status"] == "confirmed", findings  # Head.forward, on the Head inside Model()
    assert "numpy" in findings[22]["detail"], findings


# A class nothing builds, whose required parameters are those another class's site gives values to: `Sampler(model,
# *, size)` is built with what `Diffusion(model, size=8)` is given (the library's own word on what `model` and `size`
# are), matched by name through Python's binding of that call to Diffusion's signature.
BORROWED = '''
import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self, dim=4):
        super().__init__()
        self.lin = nn.Linear(dim, dim)

    def forward(self, x):
        return self.lin(x)


class Diffusion(nn.Module):
    def __init__(self, model, size, steps=10):
        super().__init__()
        self.model = model
        self.size = size

    def forward(self, x):
        return self.model(x)


class Sampler(nn.Module):
    def __init__(self, model, *, size, eta=0.0):
        super().__init__()
        self.model = model
        self.size = size

    def forward(self, x):
        return self.model(x).numpy()


if __name__ == "__main__":
    net = Net(dim=4)
    diffusion = Diffusion(net, size=8)
'''


@pytest.mark.torch
def test_a_class_no_site_builds_takes_the_values_another_classs_site_gives_the_same_parameters(tmp_path):
    write_project(tmp_path, {"bpkg/__init__.py": "", "bpkg/model.py": BORROWED,
                             "pyproject.toml": "[tool.jitlint.dynamic]\ntimeout = 120\n"})
    findings = {f["location"]["row"]: f["confirmation"] for f in dynamic_findings(tmp_path, "bpkg/model.py")
                if f["code"] != "JIT000"}
    assert findings[32]["status"] == "confirmed", findings  # Sampler(model=Net(dim=4), size=8)
    assert findings[32]["detail"].startswith("torch"), findings


# The README a package is documented with (a checkout's README, an installed distribution's METADATA) shows how its
# classes are built: its Python code blocks are sites too (each block a module of its own, its names bound once
# before the call read as values); a block of another language is not read.
DOCUMENTED = '''
import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self, dim, depth=1):
        super().__init__()
        self.lin = nn.Linear(dim, dim)

    def forward(self, x):
        return x.numpy()
'''

README = '''# dpkg

```bash
python -c "from dpkg import Net; Net(dim=3)"
```

```python
from dpkg import Net

width = 4
net = Net(dim=width)
```
'''


def test_the_code_blocks_of_a_packages_readme_are_sites(tmp_path):
    root = write_project(tmp_path, {"dpkg/__init__.py": "from dpkg.net import Net\n", "dpkg/net.py": DOCUMENTED,
                                    "README.md": README, "pyproject.toml": "[tool.jitlint.dynamic]\ntimeout = 120\n"})
    project = ProjectIndex(loader=load_quietly)
    project.seed([root / "dpkg" / "net.py"])
    sites, _hosts = scan(project, sorted((root / "dpkg").glob("*.py")), {"dpkg.net.Net"}, [root / "README.md"])
    assert [(site["kwargs"], site.get("lets"), Path(site["where"]).name) for site in sites["dpkg.net.Net"]] == [
        ({"dim": "width"}, [["width", "4"]], "README.md:11")]
    findings = {f["location"]["row"]: f["confirmation"] for f in dynamic_findings(tmp_path, "dpkg/net.py")
                if f["code"] != "JIT000"}
    assert findings[12]["status"] == "confirmed", findings
