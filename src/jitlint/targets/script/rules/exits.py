"""JIT709: a `with` block after an early `return`, which torch 2.13's exit transform fails on with an internal assert.

torch turns `if c: return a` into an `if` whose other branch holds the rest of the block (its exit transform,
torch/csrc/jit/frontend/exit_transforms.cpp). A `with` block moved there that assigns a variable read after it
(the block's output) makes torch 2.13 fail while compiling, with no line: "outputs_[i]->uses().empty() INTERNAL
ASSERT FAILED at .../ir.cpp". Verified forms: the `if` at the level of the `with` or of a block enclosing it, its
body (or its `else:`) ending in `return`; the `with` anywhere after it in that block (inside an `if` or a loop
too). torch scripts the look-alikes: the `with` before the `if`, a `return` nested deeper than the `if`'s own block
(`if a: if b: return`), an `elif` chain of returns, `raise` instead of `return`, and a `with` that assigns nothing
read after it.
"""

from __future__ import annotations

import libcst as cst

from jitlint.apis import listed
from jitlint.facts.syntax import bound_names, names_read
from jitlint.rules.base import RuleContext
from jitlint.targets.script.facts import ScriptTypes
from jitlint.targets.script.rules import ScriptRule
from jitlint.targets.script.typing.analysis import function_types


def _ends_in_return(block: cst.BaseSuite) -> bool:
    if not isinstance(block, cst.IndentedBlock) or not block.body:
        return False
    last = block.body[-1]
    return isinstance(last, cst.SimpleStatementLine) and isinstance(last.body[-1], cst.Return)


def _exits_early(statement: cst.BaseStatement, pruned: set[int]) -> bool:
    """`if c: ... return` (or `else: ... return`) without an `elif`, of a test torch does not fold: torch moves what
    follows into the other branch."""
    if not isinstance(statement, cst.If) or isinstance(statement.orelse, cst.If) or id(statement.body) in pruned or (
            statement.orelse is not None and id(statement.orelse) in pruned):
        return False
    return _ends_in_return(statement.body) or (statement.orelse is not None and _ends_in_return(statement.orelse.body))


def _blocks(statement: cst.BaseStatement, pruned: set[int]) -> list[list[cst.BaseStatement]]:
    """The statement lists nested directly in a compound statement (not in a nested `def` or `class`, not pruned)."""
    if isinstance(statement, (cst.FunctionDef, cst.ClassDef)) or not isinstance(statement, cst.BaseCompoundStatement):
        return []
    found = []
    for suite in (statement.body, getattr(statement, "orelse", None), getattr(statement, "finalbody", None)):
        while isinstance(suite, cst.If) and id(suite) not in pruned:  # an `elif` chain
            if isinstance(suite.body, cst.IndentedBlock) and id(suite.body) not in pruned:
                found.append(list(suite.body.body))
            suite = suite.orelse
        if suite is None or id(suite) in pruned:
            continue
        block = suite if isinstance(suite, cst.IndentedBlock) else getattr(suite, "body", None)  # `else:` holds one
        if isinstance(block, cst.IndentedBlock) and id(block) not in pruned:
            found.append(list(block.body))
    return found


_PLAIN_VALUES = (cst.Integer, cst.Float, cst.SimpleString, cst.Name)


def _computed_names(body: cst.BaseSuite) -> set[str]:
    """The names a `with` body binds to a value it computes. A name bound there only by `name = other_name` or
    `name = literal` (`x = x`, `y = z`, `n = 2`) makes no new value in the block (torch 2.13 scripts those,
    verified): only a computed value read after the block trips the exit transform."""
    plain: dict[str, bool] = {}  # name -> every binding seen is `name = name_or_literal`

    def bind(target: cst.BaseExpression, simple: bool) -> None:
        if isinstance(target, cst.Name):
            plain[target.value] = plain.get(target.value, True) and simple
        elif isinstance(target, (cst.Tuple, cst.List)):
            for element in target.elements:
                bind(element.value, False)
        elif isinstance(target, cst.StarredElement):
            bind(target.value, False)

    class Bindings(cst.CSTVisitor):
        def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
            return False

        def visit_Assign(self, node: cst.Assign) -> None:
            for target in node.targets:
                bind(target.target, isinstance(node.value, _PLAIN_VALUES))

        def visit_AugAssign(self, node: cst.AugAssign) -> None:
            bind(node.target, False)

        def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
            bind(node.target, False)

        def visit_For(self, node: cst.For) -> None:
            bind(node.target, False)

        def visit_WithItem(self, node: cst.WithItem) -> None:
            if node.asname is not None:
                bind(node.asname.name, False)

        def visit_NamedExpr(self, node: cst.NamedExpr) -> None:
            bind(node.target, False)

    body.visit(Bindings())
    return {name for name in bound_names(body, into_functions=False) if not plain.get(name, False)}


def with_blocks_after_exit(function: cst.FunctionDef, pruned: set[int]) -> list[cst.With]:
    """The `with` statements of `function` that follow an early return in a block enclosing them and assign a name
    read after them, in the code torch compiles (not in `pruned` code: a branch of a folded test, or what follows an
    `if torch.jit.is_scripting(): return ...`)."""
    found: list[cst.With] = []

    def scan(statements: list[cst.BaseStatement], read_later: set[str], exited: bool) -> None:
        for index, statement in enumerate(statements):
            if id(statement) in pruned:
                return
            later = read_later.union(*(names_read(s) for s in statements[index + 1:]))
            if exited and isinstance(statement, cst.With) and _computed_names(statement.body) & later:
                found.append(statement)
            for block in _blocks(statement, pruned):
                scan(block, later, exited)
            exited = exited or _exits_early(statement, pruned)

    if isinstance(function.body, cst.IndentedBlock):
        scan(list(function.body.body), set(), False)
    return found


def _unsupported(item: cst.BaseExpression, ctx: RuleContext) -> bool:
    """A context manager TorchScript does not take (`torch.inference_mode()`, `open(...)`, ...): JIT122's."""
    return listed("context-manager", ctx.qualify(item.func if isinstance(item, cst.Call) else item) or "") is not None


class WithAfterEarlyReturn(ScriptRule):
    code = "JIT709"
    name = "with-after-early-return"
    severity = "error"
    summary = ("a `with` block that assigns a variable read after it, following an early `return` (torch 2.13 fails "
               "with an internal assert)")
    message = "a `with` block after an early `return` that torch 2.13 cannot compile"
    facts = (ScriptTypes,)

    def visit_FunctionDef(self, node: cst.FunctionDef, ctx: RuleContext) -> None:
        function = ctx.function
        if function is None or function.info.node is not node or not function.body_captured:
            return
        typed = function_types(ctx, node).results
        for statement in with_blocks_after_exit(node, function.pruned):
            items = {id(item.item) for item in statement.items}
            if any(id(result.node) in items for result in typed) or any(
                    _unsupported(item.item, ctx) for item in statement.items):
                continue  # torch rejects the context manager itself first (JIT122)
            ctx.report(statement, "torch 2.13 moves the code after an early `return` into an `else` branch and fails "
                                  "on a `with` block there that assigns a variable read after it (\"outputs_[i]->"
                                  "uses().empty() INTERNAL ASSERT FAILED\", no line); put the `with` block before the `if` "
                                  "that returns, or keep what it assigns inside it")
