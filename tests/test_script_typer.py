"""The TorchScript typer on small functions: the types it gives expressions, annotations and signatures, what
conditions decide, and the problems it finds, each as torch 2.13 types it (the rules' own tests check the
messages; `tests/test_script_types.py` checks the type lattice against torch's)."""

import textwrap

import libcst as cst
import pytest

from jitlint.config import Config
from jitlint.engine import lint_run
from jitlint.names import ImportTable
from jitlint.targets.script.typing import results as R
from jitlint.targets.script.typing.analysis import captured_types
from jitlint.targets.script.typing.annotations import Reader, signature
from jitlint.codes import TARGET_OF

HEADER = ("import math\nfrom typing import Any, Dict, Final, List, Optional, Tuple, Union\n\nimport torch\n"
          "import torch.nn as nn\nimport torch.nn.functional as F\n\n\n")
CODES = {code for code, target in TARGET_OF.items() if target == "script"}


def typed(source: str, tmp_path, name: str = "f"):
    """The typer's results for function `name` of `source` (compiled: the file scripts it), and a lookup of the
    type of an expression by its source text."""
    path = tmp_path / "model.py"
    path.write_text(HEADER + textwrap.dedent(source))
    run = lint_run([path], Config(root=tmp_path), CODES, keep_model=True)
    captured = run.captured["script"]
    [entry] = [e for e in captured.functions.values() if name in (e.info.name, e.info.display_name)]
    result = captured_types(run.project, captured, entry)
    code = entry.info.module.tree.code_for_node
    by_text = {}

    class Collect(cst.CSTVisitor):
        def on_visit(self, node) -> bool:
            if id(node) in result.types:
                by_text.setdefault(code(node), result.types[id(node)])
            return True

    entry.info.node.body.visit(Collect())
    return result, lambda text: str(by_text[text]) if by_text.get(text) is not None else None


@pytest.mark.parametrize("source, expected", [
    ("1", "int"), ("1.5", "float"), ("'a'", "str"), ("True", "bool"), ("None", "NoneType"),
    ("x.size(0)", "int"), ("x.size()", "List[int]"), ("x.shape", "List[int]"), ("x.shape[0]", "int"),
    ("x.dim()", "int"), ("x.item()", "number"), ("len(xs)", "int"), ("int(x.item())", "int"),
    ("float(n)", "float"), ("x.flatten()", "Tensor"), ("torch.zeros(3)", "Tensor"), ("F.relu(x)", "Tensor"),
    ("x * 2", "Tensor"), ("n / 2", "float"), ("n // 2", "int"), ("n + f", "float"), ("2 - x", "Tensor"),
    ("x if n > 0 else x", "Tensor"), ("xs[0]", "Tensor"), ("[1, 2]", "List[int]"), ("x > 0", "Tensor"),
    ("n > 0", "bool"), ("m is None", "bool"), ("[]", "List[Tensor]"), ("{}", "Dict[str, Tensor]"),
    ("[1, 2.0]", "List[Union[float, int]]"), ("(x, n)", "Tuple[Tensor, int]"), ("x.max(dim=0)[1]", "Tensor"),
    ("x.max(dim=0).indices", "Tensor"), ("torch.cat([x, x], 1)", "Tensor"), ("xs[1:]", "List[Tensor]"),
    ("math.pi", "float"), ("x.dtype", "int"), ("x.device", "Device"), ("[t * 2 for t in xs]", "List[Tensor]"),
    ("d['a']", "int"), ("list(d.keys())", "List[str]"), ("min(n, 3)", "int"), ("x.tolist()", None),
    ("y", None),
])
def test_expression_types(source, expected, tmp_path):
    _result, type_of = typed(f'''
        @torch.jit.script
        def f(x: torch.Tensor, n: int, f: float, xs: List[torch.Tensor], m: Optional[torch.Tensor], d: Dict[str, int],
              y: Any):
            return {source}
    ''', tmp_path)
    assert type_of(source) == (expected if expected != "None" else None) or (expected is None and type_of(source) in
                                                                               (None, "Any"))


IMPORTS = ImportTable.from_module(cst.parse_module(
    "import torch\nimport torch.nn.functional as F\nfrom typing import Any, Dict, Final, List, Optional, Tuple, Union\n"
    "from torch.jit.annotations import Any as JitAny\n"), "m", False)


@pytest.mark.parametrize("source, expected", [
    ("torch.Tensor", "Tensor"), ("int", "int"), ("Optional[torch.Tensor]", "Optional[Tensor]"),
    ("torch.Tensor | None", "Optional[Tensor]"), ("None | int", "Optional[int]"),
    ("Union[torch.Tensor, None]", "Optional[Tensor]"), ("List[int]", "List[int]"), ("list[float]", "List[float]"),
    ("Final[int]", "int"), ("Union[int, float]", "Union[float, int]"), ("Dict[str, int]", "Dict[str, int]"),
    ("Any", "Any"), ("JitAny", "Any"), ("Tuple[()]", "Tuple[()]"), ("Union[int, float, complex]", "number"),
    ("torch.dtype", "int"), ("torch.device", "Device"), ("'Optional[int]'", "Optional[int]"),
    ("Tuple[int, ...]", None), ("List", None), ("np.ndarray", None),
    # a bare `tuple`/`list` (torch 2.13, try_ann_to_type): a type alone, in `A | B` and as the element of a
    # `List` that is the whole annotation; no type as an element of Optional, Union, Tuple, Dict, or of a nested List
    ("tuple", "tuple"), ("torch.Tensor | tuple", "Union[Tensor, tuple]"), ("List[tuple]", "List[tuple]"),
    ("Optional[tuple]", None), ("Union[torch.Tensor, list]", None), ("Tuple[torch.Tensor, tuple]", None),
    ("tuple[int, list]", None), ("Dict[str, tuple]", None), ("Optional[List[tuple]]", None),
])
def test_annotation_types(source, expected):
    found = Reader(IMPORTS).read(cst.parse_expression(source))
    assert (str(found) if found is not None else None) == expected


def test_parameters_follow_torchscript():
    function = cst.parse_module(
        "def forward(self, x, mask=None, n: int = 1, scale=2.0, m: Optional[torch.Tensor] = None): pass\n"
    ).body[0]
    found = signature(function, IMPORTS, None, is_method=True)
    # unannotated: Tensor, with a `None` default too (torch 2.13 types `mask` Tensor); with a literal default the
    # signature is JIT201's error, and the type is left unknown
    assert {p.name: str(p.type) if p.type else None for p in found.params} == {
        "x": "Tensor", "mask": "Tensor", "n": "int", "scale": None, "m": "Optional[Tensor]"}


def test_a_type_comment_anywhere_in_the_source_types_the_signature():
    function = cst.parse_module(
        "def f(x: torch.Tensor, n) -> torch.Tensor:\n    y = x + n\n    # type: (Tensor, int) -> int\n    return y\n"
    ).body[0]
    found = signature(function, IMPORTS, None, is_method=False)  # torch 2.13 returns an int from this function
    assert [str(p.type) for p in found.params] == ["Tensor", "int"] and str(found.returns) == "int"


def test_refinement_and_static_folding(tmp_path):
    result, type_of = typed('''
        @torch.jit.script
        def f(x: torch.Tensor, m: Optional[torch.Tensor], u: Union[int, List[int]]):
            if m is not None:
                a = m + 1
            if isinstance(u, int):
                b = u + 1
            else:
                b = len(u)
            if isinstance(x, int):  # statically False: never compiled
                c = x.nonexistent()
            return b
    ''', tmp_path)
    assert type_of("m + 1") == "Tensor" and type_of("u + 1") == "int" and type_of("len(u)") == "int"
    assert type_of("x.nonexistent()") is None and not result.results and str(result.returns) == "int"


def test_results_name_the_node_and_the_types(tmp_path):
    result, _ = typed('''
        @torch.jit.script
        def f(x: torch.Tensor, flag: bool):
            if flag:
                y = 1
            else:
                y = 1.5
            s = 0
            for i in range(3):
                s = s + 0.5
            t = (x, x)
            a, b, c = t
            return y
    ''', tmp_path)
    kinds = {type(r).__name__: r for r in result.results}
    assert set(kinds) == {"BranchMismatch", "VariableTypeChange", "UnpackArity"}
    change = kinds["VariableTypeChange"]
    assert (change.name, str(change.previous), str(change.new)) == ("s", "int", "float")
    assert (kinds["UnpackArity"].need, kinds["UnpackArity"].found) == (3, 2)


def test_an_empty_list_is_annotated_with_the_join_of_what_it_is_given(tmp_path):
    result, _ = typed('''
        @torch.jit.script
        def f(x: torch.Tensor, flag: bool):
            kept = []
            kept.append(x)
            kept.append(None)
            return kept
    ''', tmp_path)
    [filled] = result.of(R.EmptyContainerFilled)
    assert filled.name == "kept" and str(filled.element) == "Optional[Tensor]"


def test_attributes_torch_folds_prune_what_they_guard(tmp_path):
    result, type_of = typed('''
        class M(nn.Module):
            def __init__(self):
                super().__init__()
                self.proj = None
                self.scale = 0.5

            def forward(self, x):
                if self.proj is not None:  # None after __init__: torch compiles only the other branch
                    return x, x
                if hasattr(self, "missing"):
                    return x, x
                return x * self.scale
    ''', tmp_path, name="forward")
    assert not result.results and str(result.returns) == "Tensor" and type_of("self.scale") == "float"


def test_module_attributes_from_torch_classes_and_init_locals(tmp_path):
    """`self.stride` of a Conv2d subclass and `self.conv.groups` of a Conv2d submodule are what torch.nn's own
    `__init__` stores; `self.scale` is the value of a local `__init__` binds once."""
    _result, type_of = typed('''
        class Conv(nn.Conv2d):
            def __init__(self, dim: int, heads: int = 2):
                super().__init__(dim, dim, 3)
                head_dim = dim // heads
                self.scale = head_dim ** -0.5
                self.conv = nn.Conv2d(dim, dim, 1)

            def forward(self, x):
                return self.stride, self.weight, self.conv.groups, self.scale, self.padding
    ''', tmp_path, name="forward")
    assert type_of("self.stride") == "Tuple[int, int]"
    assert type_of("self.weight") == "Tensor"
    assert type_of("self.conv.groups") == "int"
    assert type_of("self.scale") == "float"
    assert type_of("self.padding") is None  # a str or a tuple, as the configuration says


def test_init_runs_as_python(tmp_path):
    """`round(x)` and `**` in `__init__` are Python's: `round(x)` is an int, and so is an int to the power of a
    literal int (TorchScript's are floats)."""
    _result, type_of = typed('''
        class Attention(nn.Module):
            def __init__(self, dim: int, ratio: float = 1.0):
                super().__init__()
                head_dim = round(dim * ratio)
                self.head_dim = head_dim
                self.width = 2 ** dim
                self.square = dim ** 2

            def forward(self, x):
                return self.head_dim, self.width, self.square
    ''', tmp_path, name="forward")
    assert type_of("self.head_dim") == "int"
    assert type_of("self.width") is None  # an int or a float, as the sign of `dim` says
    assert type_of("self.square") == "int"


def test_modules_built_by_factories_and_class_valued_parameters(tmp_path):
    """torch types a submodule by the instance's class: what a factory function returns, the class a parameter
    holds by default or as a construction site passes it; a parameter re-bound in `__init__`, or a site passing a
    class the source does not show, leaves it unknown."""
    _result, type_of = typed('''
        class Pair(nn.Module):
            def forward(self, x):
                return x, 1

        def make_pair():
            return Pair()

        class Block(nn.Module):
            def __init__(self, act_layer=nn.GELU, norm_layer=nn.Identity, other=None):
                super().__init__()
                self.act = act_layer()
                self.norm = norm_layer()
                self.pair = make_pair()
                if other is not None:
                    other = other
                self.other = other() if other is not None else nn.Identity()

            def forward(self, x):
                return self.act(x), self.norm(x), self.pair(x), self.other(x)

        class Net(nn.Module):
            def __init__(self, layer=Pair):
                super().__init__()
                self.block = Block(norm_layer=layer)
                self.block2 = Block(act_layer=nn.ReLU)
    ''', tmp_path, name="Block.forward")
    assert type_of("self.act(x)") == "Tensor"  # GELU or ReLU
    assert type_of("self.norm(x)") is None  # a Tensor (Identity) or a tuple (Pair)
    assert type_of("self.pair(x)") == "Tuple[Tensor, int]"
    assert type_of("self.other(x)") is None  # `other` is re-bound


def test_a_construction_site_the_source_does_not_show_leaves_the_class_unknown(tmp_path):
    _result, type_of = typed('''
        class Block(nn.Module):
            def __init__(self, act_layer=nn.GELU):
                super().__init__()
                self.act = act_layer()

            def forward(self, x):
                return self.act(x)

        def build(kind):
            return Block(act_layer=kind)
    ''', tmp_path, name="forward")
    assert type_of("self.act(x)") is None


def test_a_site_passing_a_dict_of_other_keys_keeps_the_default(tmp_path):
    """`**dd` of a local bound only to a dict display cannot pass `act_layer` unless it has that key."""
    _result, type_of = typed('''
        class Block(nn.Module):
            def __init__(self, act_layer=nn.GELU, norm_layer=nn.Identity, device=None):
                super().__init__()
                self.act = act_layer()
                self.norm = norm_layer()

            def forward(self, x):
                return self.act(x), self.norm(x)

        class Net(nn.Module):
            def __init__(self, device=None):
                super().__init__()
                dd = {"device": device}
                self.block = Block(**dd)
                options = {"norm_layer": nn.Linear}
                self.block2 = Block(**options)
    ''', tmp_path, name="Block.forward")
    assert type_of("self.act(x)") == "Tensor"
    assert type_of("self.norm(x)") is None  # `options` passes it: not followed into the dict


def test_a_starred_site_hides_the_positional_parameters_not_the_keywords(tmp_path):
    """`Block(*args, norm_layer=Pair)`: the keyword names its parameter, while `*args` may hold `act_layer` (a
    class the source does not show: unknown); `*args` cannot reach a keyword-only parameter (its default stays)."""
    _result, type_of = typed('''
        class Pair(nn.Module):
            def forward(self, x):
                return x, 1

        class Block(nn.Module):
            def __init__(self, act_layer=nn.GELU, norm_layer=Pair, *, head=nn.Identity):
                super().__init__()
                self.act = act_layer()
                self.norm = norm_layer()
                self.head = head()

            def forward(self, x):
                return self.act(x), self.norm(x), self.head(x)

        def build(*args):
            return Block(*args, norm_layer=Pair)
    ''', tmp_path, name="Block.forward")
    assert type_of("self.act(x)") is None
    assert type_of("self.norm(x)") == "Tuple[Tensor, int]"
    assert type_of("self.head(x)") == "Tensor"


def test_a_class_held_by_a_local_of_init(tmp_path):
    """`Conv = make_conv(...)` in `__init__`: the classes the project function returns (a class, or a partial of
    one)."""
    _result, type_of = typed('''
        from functools import partial

        class Same(nn.Module):
            def __init__(self, size: int = 1):
                super().__init__()

            def forward(self, x):
                return x, 1

        def make_conv(size=None):
            return Same if size is None else partial(Same, size=size)

        class Block(nn.Module):
            def __init__(self):
                super().__init__()
                Conv = make_conv(3)
                self.conv = Conv()

            def forward(self, x):
                return self.conv(x)
    ''', tmp_path, name="Block.forward")
    assert type_of("self.conv(x)") == "Tuple[Tensor, int]"


def test_a_sequential_returns_what_its_last_module_returns(tmp_path):
    """torch compiles a Sequential's call as the chain of its modules' `forward`s: the type is the last one's."""
    _result, type_of = typed('''
        class Pair(nn.Module):
            def forward(self, x):
                return x, 1

        class Net(nn.Module):
            def __init__(self, act_layer=nn.ReLU):
                super().__init__()
                self.seq = nn.Sequential(nn.Conv2d(1, 1, 1), Pair())
                self.seq2 = nn.Sequential(nn.Conv2d(1, 1, 1), act_layer())
                self.seq3 = nn.Sequential(nn.Conv2d(1, 1, 1), nn.MaxPool2d(2))
                layers = [nn.ReLU()]
                self.seq4 = nn.Sequential(*layers)

            def forward(self, x):
                return self.seq(x), self.seq2(x), self.seq3(x), self.seq4(x)
    ''', tmp_path, name="Net.forward")
    assert type_of("self.seq(x)") == "Tuple[Tensor, int]"
    assert type_of("self.seq2(x)") == "Tensor"
    assert type_of("self.seq3(x)") is None  # MaxPool2d's return depends on `return_indices`
    assert type_of("self.seq4(x)") is None  # its modules are not written out


def test_an_attribute_stored_from_a_union_parameter_is_typed_by_its_value(tmp_path):
    """torch types an attribute by the value stored (an int for `patch_size=16`), never a Union: the annotation of
    the parameter does not say which member it is."""
    _result, type_of = typed('''
        class Embed(nn.Module):
            def __init__(self, patch_size: Union[int, Tuple[int, int]] = 16, dim: int = 4):
                super().__init__()
                self.patch = patch_size
                self.dim = dim

            def forward(self, x):
                return self.patch, self.dim
    ''', tmp_path, name="forward")
    assert type_of("self.patch") is None
    assert type_of("self.dim") == "int"


def test_a_display_under_a_bare_list_annotation_leaves_the_variable_unknown(tmp_path):
    # `parts: list = []` is rejected at its own line (torch 2.13 dies there with a segmentation fault); the
    # variable's later uses are not judged as a bare `list`'s ('list' object is not subscriptable / iterable)
    result, type_of = typed('''
        @torch.jit.script
        def f(x: torch.Tensor, n: int):
            parts: list = []
            for p in parts:
                x = x + p
            return x + parts[-1]
    ''', tmp_path)
    kinds = {type(r).__name__ for r in result.results}
    assert "HintMismatch" in kinds, kinds
    assert type_of("parts") is None
    assert not kinds & {"NotIterable", "NotSubscriptable"}, kinds
