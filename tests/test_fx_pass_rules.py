"""FX1xx rules on small snippets: what each flags, and the look-alikes that must stay silent (cases torch's
own passes write, correct FX code, and the same names on objects that are not FX-typed)."""

import textwrap

import pytest

from conftest import codes_for

FX = codes_for("fx")
PRELUDE = textwrap.dedent(
    """\
    import torch
    import torch.fx as fx
    from torch.fx import GraphModule, Graph, Node

    """
)


@pytest.fixture
def fx_codes(lint_source):
    """(code, row) of the FX1xx findings of a snippet, rows counted from the snippet's first line."""

    def run(source: str, code_prefix: str = "FX1"):
        offset = PRELUDE.count("\n")
        findings = lint_source(PRELUDE + textwrap.dedent(source), codes=FX)
        return sorted((f.code, f.location.row - offset) for f in findings if f.code.startswith(code_prefix))

    return run


# -- FX type knowledge ------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "source",
    [
        # loop over <gm>.graph.nodes
        "def p(gm: GraphModule):\n    for n in gm.graph.nodes:\n        n.args[0] = 1\n",
        # symbolic_trace result, graph alias, reversed
        "gm = fx.symbolic_trace(torch.nn.ReLU())\ng = gm.graph\nfor n in reversed(g.nodes):\n    n.args[0] = 1\n",
        # list(...) of the node list, then an element
        "def p(g: Graph):\n    nodes = list(g.nodes)\n    nodes[0].args[0] = 1\n",
        # find_nodes
        "def p(g: Graph):\n    for n in g.find_nodes(op='call_function'):\n        n.args[0] = 1\n",
        # a created node
        "def p(g: Graph, x):\n    n = g.call_function(torch.relu, (x,))\n    n.args[0] = 1\n",
        # users of a node, annotated parameter
        "def p(node: Node):\n    for u in node.users:\n        u.args[0] = 1\n",
        # all_input_nodes of an Optional-annotated node
        "from typing import Optional\ndef p(node: Optional[Node]):\n    for u in node.all_input_nodes:\n        u.args[0] = 1\n",
        # a string annotation
        "def p(node: 'fx.Node'):\n    node.args[0] = 1\n",
        # a torch.compile backend
        "def backend(gm, example_inputs):\n    for n in gm.graph.nodes:\n        n.args[0] = 1\n    return gm\n",
        # a Tracer's trace result
        "g = fx.Tracer().trace(torch.nn.ReLU())\nfor n in g.nodes:\n    n.args[0] = 1\n",
        # torch.export's graph_module
        "ep = torch.export.export(torch.nn.ReLU(), (torch.ones(1),))\nfor n in ep.graph_module.graph.nodes:\n    n.args[0] = 1\n",
        # a typed helper's return annotation
        "def first(g: Graph) -> Node:\n    return next(iter(g.nodes))\ndef p(g: Graph):\n    n = first(g)\n    n.args[0] = 1\n",
        # enumerate over the nodes, and a closure reading an outer typed name
        "def p(g: Graph):\n    for i, n in enumerate(g.nodes):\n        n.args[0] = 1\n",
        # make_fx(f)(...) and Transformer(...).transform()
        "from torch.fx.experimental.proxy_tensor import make_fx\ngm = make_fx(torch.relu)(torch.ones(1))\nfor n in gm.graph.nodes:\n    n.args[0] = 1\n",
        "def p(gm: GraphModule):\n    new = fx.Transformer(gm).transform()\n    for n in new.graph.nodes:\n        n.args[0] = 1\n",
        # self inside an Interpreter subclass: its module's graph
        "class I(fx.Interpreter):\n    def run_node(self, n):\n        for m in self.module.graph.nodes:\n            m.args[0] = 1\n",
        # module-level GraphModule read in a function
        "gm = fx.symbolic_trace(torch.nn.ReLU())\ndef p():\n    for n in gm.graph.nodes:\n        n.args[0] = 1\n",
    ],
)
def test_fx_types_reach_the_node(source, fx_codes):
    assert [code for code, _ in fx_codes(source)] == ["FX101"]


@pytest.mark.parametrize(
    "source",
    [
        # not FX: other libraries' args/kwargs
        "def p(sample):\n    sample.kwargs['x'] = 1\n    sample.args[0] = 1\n",
        "import ast\ndef p(tree):\n    for n in ast.walk(tree):\n        n.args[0] = 1\n",
        # a name rebound to something else is not typed
        "def p(g: Graph, other):\n    n = next(iter(g.nodes))\n    n = other\n    n.args[0] = 1\n",
        # whole assignments and += go through the setter
        "def p(g: Graph):\n    for n in g.nodes:\n        n.args = (1,)\n        n.kwargs = {**n.kwargs, 'a': 1}\n        n.args += (0,)\n",
        # a copy is fine
        "def p(g: Graph):\n    for n in g.nodes:\n        kw = dict(n.kwargs)\n        kw['a'] = 1\n        kw.update(b=2)\n        n.kwargs = kw\n",
        # reading is fine
        "def p(g: Graph):\n    for n in g.nodes:\n        x = n.args[0]\n        y = n.kwargs.get('a')\n",
    ],
)
def test_node_args_lookalikes_are_silent(source, fx_codes):
    assert fx_codes(source) == []


def test_node_args_mutation_forms(fx_codes):
    source = """\
    def p(g: Graph):
        for n in g.nodes:
            n.kwargs['a'] = 1
            n.args[0] = 1
            del n.kwargs['a']
            n.kwargs.pop('a')
            n.kwargs.setdefault('a', 1)
            n.args[0].append(1)
            n.args[0][1] = 2
            n.args[1] += 1
    """
    assert fx_codes(source) == [("FX101", row) for row in (3, 4, 5, 6, 7, 8, 9, 10)]


def test_hand_built_node(fx_codes):
    source = """\
    from torch.fx.node import Node as N
    def p(g: Graph, x):
        a = fx.Node('aten::relu', args=(x,), kwargs={})
        b = N(g, 'r', 'call_function', torch.relu, (x,), {})
        c = N(g, 'r', 'call_function', torch.relu, (x,), {})
        x.append(c)
        d = Node(g, 'r', 'call_function', torch.relu, (x,), {})
        g._insert(d)
    class Node2:
        pass
    e = Node2()
    """
    assert fx_codes(source) == [("FX102", 3), ("FX102", 4)]


def test_string_targets(fx_codes):
    source = """\
    def p(g: Graph, x, other):
        g.call_function('aten::relu', (x,))
        g.create_node('call_function', 'relu', (x,))
        g.call_method('relu', (x,))
        g.create_node('call_method', 'relu', (x,))
        g.call_module('lin', (x,))
        g.call_function(torch.relu, (x,))
        other.call_function('aten::relu', (x,))
        for n in g.nodes:
            if n.target == 'aten::relu' or n.target in ('aten::add', 'relu'):
                pass
            if n.target == 'relu' or n.target is torch.relu:
                pass
        if other.target == 'aten::relu':
            pass
    """
    assert fx_codes(source) == [("FX103", 2), ("FX103", 3), ("FX104", 10), ("FX104", 10)]


def test_target_name(fx_codes):
    source = """\
    def p(g: Graph, other):
        for n in g.nodes:
            a = n.target.name
            b = n.target.name()
            c = n.name
        d = other.target.name
    """
    assert fx_codes(source) == [("FX105", 3)]


def test_invented_names(fx_codes):
    source = """\
    from torch.fx import Target, symbolic_trace
    from torch.fx.node import Argument
    def p(gm: GraphModule, g: Graph, n: Node, other):
        g.insert_node(n)
        g.eliminate_dead_code()
        n.replace_with(n)
        n.replace_all_uses_with(n)
        x = g.nodes[0]
        g.nodes.remove(n)
        gm.lint()
        gm.recompile()
        gm.lin(1)
        gm.my_submodule.weight
        other.insert_node(n)
        other.nodes[0]
        n.my_flag = True
        if n.my_flag:
            pass
        if hasattr(n, "checked") and n.checked:
            pass
        torch.jit.optimize_for_speed(gm)
        torch.jit.optimize_for_inference(gm)
        torch.fx.Target
        torch.fx.node.Target
        torch.fx.experimental
        interp = fx.Interpreter(gm)
        interp.boxed_run([1])
        interp.boxed_runn([1])
        n.sharding_spec
    """
    assert fx_codes(source) == [
        ("FX106", 1), ("FX106", 4), ("FX106", 6), ("FX106", 8), ("FX106", 9), ("FX106", 10),
        ("FX106", 21), ("FX106", 23), ("FX106", 28),
    ]


def test_fx_wrap_scope(fx_codes):
    source = """\
    def helper(x):
        return x
    torch.fx.wrap('helper')
    if True:
        fx.wrap('helper')
    @torch.fx.wrap
    def top(x):
        return x
    def setup():
        torch.fx.wrap('helper')
        @fx.wrap
        def inner(x):
            return x
    class C:
        fx.wrap('helper')
    """
    assert fx_codes(source) == [("FX107", 10), ("FX107", 11), ("FX107", 15)]


def test_inserting_point(fx_codes):
    source = """\
    def p(g: Graph, n: Node, other):
        with g.inserting_after():
            pass
        with g.inserting_before(None):
            pass
        g.inserting_after(n)
        with g.inserting_after(n):
            pass
        with g.inserting_before(n):
            pass
        ctx = g.inserting_after(n)
        with ctx:
            pass
        other.inserting_after()
    """
    assert fx_codes(source) == [("FX108", 2), ("FX108", 4), ("FX108", 6)]


def test_dependent_nodes_in_one_block(fx_codes):
    source = """\
    def p(g: Graph, n: Node):
        with g.inserting_after(n):
            a = g.call_function(torch.neg, (n,))
            b = g.call_function(torch.sigmoid, (a,))
        with g.inserting_after(n):
            c = g.call_function(torch.neg, (n,))
            d = g.call_function(torch.sigmoid, (n,))
        with g.inserting_after(n):
            e = g.call_function(torch.neg, (n,))
            with g.inserting_after(e):
                f = g.call_function(torch.sigmoid, (e,))
        with g.inserting_before(n):
            h = g.call_function(torch.neg, (n,))
            i = g.call_function(torch.sigmoid, (h,))
        with g.inserting_after(n):
            j = g.create_node('call_function', torch.neg, (n,))
            k = g.create_node('call_function', torch.add, (n, j))
    """
    assert fx_codes(source) == [("FX109", 4), ("FX109", 17)]


def test_self_referencing_replacement(fx_codes):
    source = """\
    def p(g: Graph, n: Node):
        with g.inserting_after(n):
            new = g.call_function(torch.neg, (n,))
        n.replace_all_uses_with(new)

    def ok_callback(g: Graph, n: Node):
        with g.inserting_after(n):
            new = g.call_function(torch.neg, (n,))
        n.replace_all_uses_with(new, delete_user_cb=lambda u: u is not new)

    def ok_fixup(g: Graph, n: Node):
        with g.inserting_after(n):
            new = g.call_function(torch.neg, (n,))
        n.replace_all_uses_with(new)
        new.update_arg(0, n)

    def ok_from_args(g: Graph, n: Node):
        with g.inserting_after(n):
            new = g.call_function(torch.neg, n.args)
        n.replace_all_uses_with(new)

    def ok_constant(n: Node):
        n.replace_all_uses_with(0.0)
    """
    assert fx_codes(source) == [("FX110", 4)]


def test_users_iteration(fx_codes):
    source = """\
    def p(g: Graph, n: Node, x: Node):
        for u in n.users:
            u.replace_input_with(n, x)
        for u in list(n.users):
            u.replace_input_with(n, x)
        for u in n.users:
            if u.op == 'output':
                u.replace_input_with(n, x)
                break
        for u in n.users:
            x.replace_all_uses_with(u)
        for u in n.users:
            g.erase_node(u)
    """
    assert fx_codes(source, "FX111") == [("FX111", 2), ("FX111", 12)]


def test_boxed_run(fx_codes):
    source = """\
    def p(gm: GraphModule, x):
        interp = fx.Interpreter(gm)
        interp.boxed_run((x,))
        interp.boxed_run(tuple([x]))
        interp.boxed_run([x])
        args = [x]
        interp.boxed_run(args)
        n = len(args)
        fresh = [x]
        interp.boxed_run(list(fresh))
        m = len(fresh)
        again = [x]
        interp.boxed_run(again)
        again = [x]
        y = again
        other.boxed_run((x,))
    """
    assert fx_codes(source) == [("FX112", 3), ("FX112", 4), ("FX113", 8)]


def test_erase_node(fx_codes):
    source = """\
    def erase_then_replace(g: Graph):
        for n in g.nodes:
            if n.target is torch.relu:
                with g.inserting_after(n):
                    new = g.call_function(torch.sigmoid, n.args)
                g.erase_node(n)
                n.replace_all_uses_with(new)

    def read_by_new(g: Graph, x: Node):
        with g.inserting_after(x):
            new = g.call_function(torch.neg, (x,))
        g.erase_node(x)

    def read_by_new_then_replaced(g: Graph, x: Node):
        with g.inserting_after(x):
            new = g.call_function(torch.neg, (x,))
        x.replace_all_uses_with(new, delete_user_cb=lambda u: u is not new)
        g.erase_node(x)

    def unknown_users(g: Graph):
        for n in g.nodes:
            if n.target is torch.ops.aten._assert_scalar.default:
                g.erase_node(n)

    def guarded(g: Graph):
        for n in reversed(g.nodes):
            if len(n.users) == 0:
                g.erase_node(n)

    def replaced(g: Graph):
        for n in g.nodes:
            n.replace_all_uses_with(n.args[0])
            g.erase_node(n)

    def other_object(graph, n, new):
        graph.erase_node(n)
        n.replace_all_uses_with(new)
    """
    assert fx_codes(source, "FX114") == [("FX114", 6), ("FX114", 12)]


def test_graph_edit_without_recompile(fx_codes):
    source = """\
    def stale(x):
        gm = fx.symbolic_trace(torch.nn.ReLU())
        for n in gm.graph.nodes:
            if n.op == 'call_module':
                n.target = 'other'
        return gm(x)

    def recompiled(gm: GraphModule, n: Node, x):
        gm.graph.erase_node(n)
        gm.recompile()
        return gm(x)

    def helper_only(gm: GraphModule, n: Node):
        gm.graph.erase_node(n)

    def handed_on(gm: GraphModule, n: Node, x):
        g = gm.graph
        g.erase_node(n)
        finish(g)
        return gm(x)

    def setter(gm: GraphModule, g: Graph, n: Node, x):
        gm.graph.erase_node(n)
        gm.graph = g
        return gm(x)

    def code_read(gm: GraphModule, n: Node):
        g = gm.graph
        with g.inserting_after(n):
            g.call_function(torch.neg, (n,))
        print(gm.code)
        assert torch.equal(gm.forward(1), 1)

    def another_graph(x):
        gm = fx.symbolic_trace(torch.nn.ReLU())
        g = fx.Graph()
        p = g.placeholder('p')
        p.replace_all_uses_with(p)
        return gm(x)

    def before_edit(gm: GraphModule, n: Node, x):
        y = gm(x)
        gm.graph.erase_node(n)
        return y
    """
    assert fx_codes(source, "FX115") == [("FX115", 6), ("FX115", 31)]


gm_at_module_level = """\
gm = fx.symbolic_trace(torch.nn.ReLU())
for node in gm.graph.nodes:
    node.update_kwarg('inplace', True)
out = gm(torch.ones(1))
"""


def test_graph_edit_without_recompile_at_module_level(fx_codes):
    assert fx_codes(gm_at_module_level, "FX115") == [("FX115", 4)]


def test_a_contradicted_annotation_gives_no_type(fx_codes):
    # torch's own group_batch_fusion annotates a Graph parameter `torch.fx.GraphModule`
    source = """\
    def fuse(graph: torch.fx.GraphModule, node: Node):
        with graph.inserting_before(node):
            new = graph.call_function(torch.neg, (node,))
        graph.erase_node(node)
    def guess(gm: GraphModule):
        gm.lint()
    """
    assert fx_codes(source, "FX106") == [("FX106", 6)]


def test_version_guarded_names_are_silent(fx_codes):
    source = """\
    try:
        from torch.jit import _enabled
    except ImportError:
        from torch.jit._state import _enabled
    try:
        speed = torch.jit.optimize_for_speed
    except (AttributeError, TypeError):
        speed = None
    if hasattr(torch.fx, "Target"):
        kind = torch.fx.Target
    try:
        from torch.fx import Pass
    except ValueError:
        pass
    """
    assert fx_codes(source) == [("FX106", 12)]


@pytest.mark.torch
def test_the_api_table_is_generated_from_the_installed_torch():
    """`src/jitlint/data/fx_api.json` is what scripts/extract_fx_api.py reads from torch 2.13, not a hand-typed list."""
    import subprocess
    import sys
    from pathlib import Path

    import torch

    assert torch.__version__.startswith("2.13.")
    root = Path(__file__).resolve().parents[1]
    result = subprocess.run([sys.executable, str(root / "scripts" / "extract_fx_api.py"), "--check"],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_the_api_table_knows_the_catalogue_names():
    from jitlint.targets.fx.fxtypes import fx_api

    table = fx_api()
    assert table["torch"] == "2.13.0"
    graph, node = set(table["classes"]["Graph"]), set(table["classes"]["Node"])
    assert {"inserting_after", "erase_node", "find_nodes", "eliminate_dead_code"} <= graph
    assert not {"insert_node", "recompile", "topological_sort"} & graph
    assert {"replace_all_uses_with", "update_arg", "users"} <= node and "replace_with" not in node
    assert "optimize_for_inference" in table["modules"]["torch.jit"]
    assert "optimize_for_speed" not in table["modules"]["torch.jit"] and "Target" not in table["modules"]["torch.fx"]
