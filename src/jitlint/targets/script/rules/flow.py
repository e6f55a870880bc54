"""JIT7xx: control-flow typing. One walk over each compiled function (`FlowAnalysis`) follows which local names
are defined and with what type, through straight-line code, if/else joins, loops and early exits, the way
TorchScript's frontend does; the rules below each report one kind of event it records.

What TorchScript does (each verified on torch 2.13, see the rule pages):
- straight-line code may re-type a variable (`n = x.size(0); n = x.sum()` scripts);
- inside a branch or a loop, assigning a variable defined outside it a value of another type fails ("Variable 's'
  previously had type int but is now being assigned to a value of type float"); int and float variables accept a
  Tensor or a bool;
- after an if/else, a variable set in only one branch, or to types that do not unify (None unifies with anything
  into an Optional) fails, but only where it is read later;
- a variable first set inside a loop (the loop variable too) is undefined after the loop.
Unknown types (a call jitlint has no table for, a value from elsewhere) make every check silent.
"""

from __future__ import annotations

import libcst as cst

from jitlint.targets.script.infer import SCALARS, Expressions, annotation_type, assignment_fails, binary_type, join_fails, param_types
from jitlint.names import first_param_name, target_names
from jitlint.rules.base import RuleContext
from jitlint.targets.script.rules import ScriptRule
from jitlint.walk import walk

_TERMINATORS = (cst.Return, cst.Raise, cst.Continue, cst.Break)
# Tensor methods whose Tensor arguments cannot be None (the Optional must be refined first).
_TENSOR_ARGUMENT_METHODS = frozenset(
    "masked_fill masked_fill_ add add_ sub sub_ mul mul_ div div_ matmul mm bmm expand_as view_as type_as "
    "reshape_as".split()
)


class _Event:
    __slots__ = ("code", "node", "message", "at_read")

    def __init__(self, code: str, node: cst.CSTNode, message: str, at_read: bool = False) -> None:
        self.code = code
        self.node = node
        self.message = message
        self.at_read = at_read  # reported where the name is read (where torch points), not at `node`


class _Reads(cst.CSTVisitor):
    """Names read, if-expressions, calls and attribute accesses in an expression, in source order (not inside
    lambdas or nested functions)."""

    def __init__(self) -> None:
        self.names: list[cst.Name] = []
        self.if_expressions: list[cst.IfExp] = []
        self.calls: list[cst.Call] = []
        self.attributes: list[cst.Attribute] = []
        self.binary: list[cst.BinaryOperation] = []

    def visit_Attribute(self, node: cst.Attribute) -> bool:
        self.attributes.append(node)
        walk(node.value, self)  # `a.b`: `b` is not a name read
        return False

    def visit_Arg(self, node: cst.Arg) -> bool:
        walk(node.value, self)  # `f(k=v)`: `k` is not a name read
        return False

    def visit_Name(self, node: cst.Name) -> None:
        self.names.append(node)

    def visit_IfExp(self, node: cst.IfExp) -> None:
        self.if_expressions.append(node)

    def visit_Call(self, node: cst.Call) -> None:
        self.calls.append(node)

    def visit_BinaryOperation(self, node: cst.BinaryOperation) -> None:
        self.binary.append(node)

    def visit_Lambda(self, node: cst.Lambda) -> bool:
        return False

    # Comprehensions bind their own names (`[t for t in ts]` does not read an outer `t`): left out entirely.
    def visit_ListComp(self, node) -> bool:
        return False

    def visit_SetComp(self, node) -> bool:
        return False

    def visit_DictComp(self, node) -> bool:
        return False

    def visit_GeneratorExp(self, node) -> bool:
        return False


def _reads(*nodes: cst.CSTNode | None) -> _Reads:
    reads = _Reads()
    for node in nodes:
        if node is not None:
            walk(node, reads)
    return reads


def _none_test(test: cst.BaseExpression) -> tuple[str, bool] | None:
    """(name, is_not) for `name is None` / `name is not None`, the tests the flow walk refines on."""
    if (
        isinstance(test, cst.Comparison)
        and len(test.comparisons) == 1
        and isinstance(test.left, cst.Name)
        and isinstance(test.comparisons[0].comparator, cst.Name)
        and test.comparisons[0].comparator.value == "None"
        and isinstance(test.comparisons[0].operator, (cst.Is, cst.IsNot))
    ):
        return test.left.value, isinstance(test.comparisons[0].operator, cst.IsNot)
    return None


def _unfollowed_names(function: cst.FunctionDef) -> set[str]:
    """Names whose refinement the flow walk does not follow: compared with None other than as the whole test of an
    `if` or `assert` (inside `and`/`or`, a ternary, a `while`), tested for truth, or re-assigned anywhere. JIT704
    leaves those alone."""
    checked: set[str] = set()
    direct: set[int] = set()

    class Collect(cst.CSTVisitor):
        def visit_Comparison(self, node: cst.Comparison) -> None:
            if id(node) in direct:
                return
            operands = [node.left] + [target.comparator for target in node.comparisons]
            if any(isinstance(operand, cst.Name) and operand.value == "None" for operand in operands):
                checked.update(operand.value for operand in operands if isinstance(operand, cst.Name))

        def _truth(self, test: cst.BaseExpression) -> None:
            if _none_test(test) is not None:
                direct.add(id(test))
                return
            while isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
                test = test.expression
            if isinstance(test, cst.Name):
                checked.add(test.value)
            elif isinstance(test, cst.BooleanOperation):
                for side in (test.left, test.right):
                    if isinstance(side, cst.Name):
                        checked.add(side.value)

        def visit_If(self, node: cst.If) -> None:
            self._truth(node.test)

        def visit_Assert(self, node: cst.Assert) -> None:
            self._truth(node.test)

        def visit_While(self, node: cst.While) -> None:
            if _none_test(node.test) is None:
                self._truth(node.test)

        def visit_IfExp(self, node: cst.IfExp) -> None:
            refined = _none_test(node.test)  # the flow walk does not refine inside if-expressions
            if refined is not None:
                checked.add(refined[0])
            else:
                self._truth(node.test)

        def visit_AssignTarget(self, node: cst.AssignTarget) -> None:
            checked.update(target_names(node.target))

        def visit_AugAssign(self, node: cst.AugAssign) -> None:
            checked.update(target_names(node.target))

        def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
            checked.update(target_names(node.target))

        def visit_For(self, node: cst.For) -> None:
            checked.update(target_names(node.target))

    walk(function.body, Collect())
    return checked


class FlowAnalysis:
    def __init__(self, function: cst.FunctionDef, ctx: RuleContext) -> None:
        self.ctx = ctx
        self.function = function
        self.imports = ctx.module.imports
        self.dead = ctx.function.pruned if ctx.function is not None else set()
        info = ctx.function.info
        is_method = info.cls is not None and "builtins.staticmethod" not in info.decorators
        self.events: list[_Event] = []
        self.returns = annotation_type(function.returns.annotation, self.imports) if function.returns else None
        self.annotated_return = function.returns is not None
        self.return_shapes: list[tuple[cst.Return, str]] = []
        params = param_types(function, self.imports, is_method)
        if uses_type_comments(function):  # `# type: (...) -> ...` signatures: TorchScript reads those comments
            params = {name: None for name in params}
        # Parameters TorchScript types Tensor because they have no annotation and no default.
        self.unannotated = {name for name, kind in params.items() if kind == "Tensor" and not self._annotated(name)}
        self.optional_unchecked = {
            name for name, kind in params.items()
            if kind is not None and kind.startswith("Optional[") and self._annotated(name)
        }
        if self.optional_unchecked:
            self.optional_unchecked -= _unfollowed_names(function)
        self.reported_optional: set[str] = set()
        self.empty: dict[str, str] = {}  # names bound to an unannotated `[]`/`{}`: "list" (List[Tensor]) or "dict"
        self.self_name = first_param_name(function) if is_method else None
        self.reported_optional_attributes: set[str] = set()
        self.owners = [owner for owner in (ctx.function.owners or []) if ctx.project.is_module_class(owner)]
        self.pending: dict[str, _Event] = {}  # names undefined (or of no single type) after a join, until read
        self.annotated: set[str] = set()
        self.declared = dict(params)
        self.uncertain = 0  # > 0 inside an `if` torch may fold away (`if self.x is not None:`): no join checks
        env = dict(params)
        depth = {name: 0 for name in params}
        if isinstance(function.body, cst.IndentedBlock):
            self._block(function.body.body, env, depth, 0)

    def _annotated(self, name: str) -> bool:
        params = self.function.params
        for param in [*params.posonly_params, *params.params, *params.kwonly_params]:
            if param.name.value == name:
                return param.annotation is not None
        return False

    # -- statements ---------------------------------------------------------------------------------------------
    def _block(self, statements, env: dict, depth: dict, level: int) -> bool:
        """Walk statements; returns True when the block always leaves (return, raise, break, continue)."""
        for statement in statements:
            if id(statement) in self.dead:
                # Dead because an earlier `if` always leaves here (`if torch.jit.is_scripting(): raise ...`).
                return True
            if self._statement(statement, env, depth, level):
                return True
        return False

    def _statement(self, statement: cst.CSTNode, env: dict, depth: dict, level: int) -> bool:
        if isinstance(statement, cst.SimpleStatementLine):
            for small in statement.body:
                self._small(small, env, depth, level)
                if isinstance(small, _TERMINATORS) or _asserts_false(small):
                    return True
            return False
        if isinstance(statement, cst.If):
            return self._if(statement, env, depth, level)
        if isinstance(statement, (cst.For, cst.While)):
            self._loop(statement, env, depth, level)
            return False
        if isinstance(statement, cst.With):
            for item in statement.items:
                self._check(_reads(item.item), env, statement)
                if item.asname is not None:
                    for name in target_names(item.asname.name):
                        self._assign(name, None, item.asname.name, env, depth, level)
            return self._body(statement.body, env, depth, level)
        if isinstance(statement, (cst.FunctionDef, cst.ClassDef)):
            return False
        # try, match and the like: other rules report them; what happens inside is unknown here.
        self.pending.clear()
        return False

    def _body(self, suite, env, depth, level) -> bool:
        body = suite.body if isinstance(suite, cst.IndentedBlock) else suite.body
        if isinstance(suite, cst.IndentedBlock) and id(suite) in self.dead:
            return False
        return self._block(body, env, depth, level)

    def _small(self, small: cst.BaseSmallStatement, env: dict, depth: dict, level: int) -> None:
        expressions = Expressions(self.imports, env)
        self._walrus(small, env, depth, level)
        if isinstance(small, cst.Assign):
            self._check(_reads(small.value), env, small)
            value_type = expressions.of(small.value)
            empty = _empty_container(small.value, self.imports)
            for target in small.targets:
                if isinstance(target.target, cst.Subscript):
                    self._dict_store(target.target, small.value, expressions)
                if isinstance(target.target, cst.Name):
                    self._assign(target.target.value, value_type, target.target, env, depth, level)
                    if empty is not None and len(small.targets) == 1:
                        self.empty[target.target.value] = empty
                elif self._self_attribute(target.target) is not None:
                    self._attribute_assignment(target.target, value_type)
                else:
                    self._check(_reads(*_target_reads(target.target)), env, small, targets=True)
                    for name in target_names(target.target):
                        self._assign(name, None, target.target, env, depth, level)
        elif isinstance(small, cst.AnnAssign):
            self._check(_reads(small.value, small.annotation), env, small, annotated=small.value)
            for name in target_names(small.target):
                self.annotated.add(name)
                self.pending.pop(name, None)
                env[name] = annotation_type(small.annotation.annotation, self.imports)
                depth[name] = level
        elif isinstance(small, cst.AugAssign):
            self._check(_reads(small.value, small.target), env, small)
            if isinstance(small.target, cst.Name):
                name = small.target.value
                new = binary_type(env.get(name), expressions.of(small.value), _binary_of(small.operator))
                self._assign(name, new, small.target, env, depth, level, augmented=True)
            elif (attribute := self._self_attribute(small.target)) is not None:
                current = self._attribute_type(attribute)
                new = binary_type(current, expressions.of(small.value), _binary_of(small.operator))
                self._attribute_assignment(small.target, new)
        elif isinstance(small, cst.Assert):
            self._check(_reads(small), env, small)
            refined = _none_test(small.test)
            if refined is not None and refined[1] and (env.get(refined[0]) or "").startswith("Optional["):
                env[refined[0]] = env[refined[0]][len("Optional["):-1]
        elif isinstance(small, cst.Return):
            self._check(_reads(small.value), env, small, returned=small.value)
            self._return(small, expressions)
        else:
            self._check(_reads(small), env, small)

    def _walrus(self, expression: cst.CSTNode | None, env: dict, depth: dict, level: int) -> None:
        """`(name := value)` (JIT112) also defines `name`, with a type this pass does not follow."""
        if expression is None:
            return
        targets: list[cst.NamedExpr] = []

        class Find(cst.CSTVisitor):
            def visit_NamedExpr(self, node: cst.NamedExpr) -> None:
                targets.append(node)

            def visit_Lambda(self, node) -> bool:
                return False

        walk(expression, Find())
        for named in targets:
            for name in target_names(named.target):
                self._assign(name, None, named.target, env, depth, level)

    def _if(self, node: cst.If, env: dict, depth: dict, level: int) -> bool:
        self._check(_reads(node.test), env, node)
        self._walrus(node.test, env, depth, level)
        body_dead = id(node.body) in self.dead
        orelse_dead = node.orelse is not None and id(node.orelse) in self.dead
        if body_dead:  # torch emits only the live branch, inline
            return self._orelse(node.orelse, env, depth, level) if node.orelse is not None else False
        if orelse_dead:
            return self._body(node.body, env, depth, level)
        if self._may_fold(node.test):
            return self._unknown_if(node, env, depth, level)
        body_env, body_depth = dict(env), dict(depth)
        tested = _isinstance_names(node.test)  # `isinstance(x, ...)` refines x: its type is unknown in both branches
        body_env.update((name, None) for name in tested if name in body_env)
        refined = _none_test(node.test)
        if refined is not None and (env.get(refined[0]) or "").startswith("Optional["):
            name, is_not = refined
            inner = env[name][len("Optional["):-1]
            body_env[name] = inner if is_not else "None"
        body_left = self._body(node.body, body_env, body_depth, level + 1)
        else_env, else_depth = dict(env), dict(depth)
        else_env.update((name, None) for name in tested if name in else_env)
        if refined is not None and (env.get(refined[0]) or "").startswith("Optional["):
            else_env[name] = "None" if is_not else inner
        else_left = self._orelse(node.orelse, else_env, else_depth, level + 1) if node.orelse is not None else False
        if body_left and else_left:
            return True
        if body_left or else_left:
            survivor_env, survivor_depth = (else_env, else_depth) if body_left else (body_env, body_depth)
            for name, kind in survivor_env.items():
                if name not in env or survivor_depth.get(name, level) > level:
                    env[name] = kind
                    depth[name] = level
                    self.pending.pop(name, None)
                elif env[name] != kind:
                    env[name] = kind
            return False
        for name in set(body_env) | set(else_env):
            in_body, in_else = name in body_env, name in else_env
            if name in env and in_body and in_else:
                env[name] = _join(body_env[name], else_env[name])
                continue
            if in_body and in_else:
                first, second = body_env[name], else_env[name]
                if join_fails(first, second) and not self.uncertain:
                    self.pending[name] = _Event(
                        "JIT701", node.test,  # torch points at the `if`
                        f"`{name}` is a {first} in the true branch and a {second} in the false branch; TorchScript "
                        f"needs one type after the `if` (it reads `{name}` later). Give both branches the same type",
                    )
                    env[name] = None
                else:
                    env[name] = first if first == second else (_optional(first, second))
                depth[name] = level
            elif name not in env and not self.uncertain:
                branch = "true" if in_body else "false"
                other = "false" if in_body else "true"
                self.pending[name] = _Event(
                    "JIT702", node.test,  # torch points at the `if`
                    f"`{name}` is set only in the {branch} branch of this `if` and read after it; TorchScript "
                    f"rejects that ('{name} is not defined in the {other} branch'). Set it before the `if`, or in "
                    f"both branches",
                )
        return False

    def _may_fold(self, test: cst.BaseExpression) -> bool:
        """`self.x is None` / `is not None` (also inside and/or): torch folds it when the attribute is None or a
        module or parameter, which depends on how the module was built, so which branch survives is unknown."""
        found: list[bool] = []

        class Find(cst.CSTVisitor):
            def visit_Comparison(self, node: cst.Comparison) -> None:
                operands = [node.left] + [target.comparator for target in node.comparisons]
                if any(isinstance(o, cst.Name) and o.value == "None" for o in operands) and any(
                    isinstance(o, cst.Attribute) for o in operands
                ):
                    found.append(True)

        walk(test, Find())
        return bool(found)

    def _unknown_if(self, node: cst.If, env: dict, depth: dict, level: int) -> bool:
        """Both branches as if inlined (torch may keep either alone); what they define is of unknown type after."""
        self.uncertain += 1
        try:
            return self._unknown_branches(node, env, depth, level)
        finally:
            self.uncertain -= 1

    def _unknown_branches(self, node: cst.If, env: dict, depth: dict, level: int) -> bool:
        branches = [(node.body, None)]
        if node.orelse is not None:
            branches.append((None, node.orelse))
        results = []
        for body, orelse in branches:
            branch_env, branch_depth = dict(env), dict(depth)
            left = (self._body(body, branch_env, branch_depth, level) if body is not None
                    else self._orelse(orelse, branch_env, branch_depth, level))
            results.append((left, branch_env))
        for left, branch_env in results:
            for name, kind in branch_env.items():
                if name not in env or env[name] != kind:
                    env[name] = kind if name not in env else None
                    depth.setdefault(name, level)
                    self.pending.pop(name, None)
        return False

    def _orelse(self, orelse, env, depth, level) -> bool:
        if isinstance(orelse, cst.If):  # elif: an if inside the else branch
            return self._if(orelse, env, depth, level)
        return self._body(orelse.body, env, depth, level)

    def _loop(self, node: cst.For | cst.While, env: dict, depth: dict, level: int) -> None:
        loop_env, loop_depth = dict(env), dict(depth)
        if isinstance(node, cst.For):
            self._check(_reads(node.iter), env, node)
            self._walrus(node.iter, env, depth, level)
            element = self._element_type(node.iter, Expressions(self.imports, env))
            for name in target_names(node.target):
                single = isinstance(node.target, cst.Name)
                self._assign(name, element if single else None, node.target, loop_env, loop_depth, level + 1)
        else:
            self._check(_reads(node.test), env, node)
            self._walrus(node.test, loop_env, loop_depth, level + 1)
        self._body(node.body, loop_env, loop_depth, level + 1)
        for name, kind in loop_env.items():
            if node.orelse is not None:  # a loop `else` (JIT110): what is defined after it is not followed here
                if name not in env:
                    env[name], depth[name] = None, level
                continue
            if self.uncertain and name not in env:
                env[name], depth[name] = None, level
                continue
            if name in env:
                if loop_env[name] != env[name]:
                    env[name] = None if env[name] not in ("int", "float") else env[name]
                continue
            self.pending[name] = _Event(
                "JIT705", node,
                f"`{name}` is first set inside a loop above and read here, after the loop; TorchScript "
                f"scopes it to the loop ('undefined value {name}'). Set it before the loop",
                at_read=True,
            )

    @staticmethod
    def _element_type(iterable: cst.BaseExpression, expressions: Expressions) -> str | None:
        if isinstance(iterable, cst.Call) and expressions.imports.qualify(iterable.func) == "builtins.range":
            return "int"
        kind = expressions.of(iterable)
        if kind is not None and kind.startswith("List["):
            return kind[5:-1]
        return None

    # -- names --------------------------------------------------------------------------------------------------
    def _assign(self, name: str, new: str | None, node: cst.CSTNode, env: dict, depth: dict, level: int,
                augmented: bool = False) -> None:
        self.empty.pop(name, None)
        if name in self.annotated:
            return
        if (self.declared.get(name) or "").startswith("Optional["):
            env[name] = new  # an Optional parameter takes a T or None anywhere; refinement follows the value
            return
        if self.uncertain and name in env and depth.get(name, 0) < level:
            env[name] = None
            return
        if name in env and depth.get(name, 0) < level:
            previous = env[name]
            if previous == "None" and new in SCALARS and new != "None":
                self.events.append(_Event(
                    "JIT703", node,
                    f"`{name}` was set to None without an annotation, so TorchScript types it NoneType; this "
                    f"assignment of a {new} inside a branch or loop fails. Annotate the first assignment: "
                    f"`{name}: Optional[{_spelled(new)}] = None`",
                ))
            elif previous != "None" and assignment_fails(previous, new):
                self.events.append(_Event(
                    "JIT706", node,
                    f"`{name}` is a {previous} before this {'loop or branch' if not augmented else 'block'}, and "
                    f"{'this update makes it' if augmented else 'this assigns it'} a {new}; TorchScript keeps one "
                    f"type for a variable across branches and loop iterations. Start it as a {new}"
                    + (" (`0.0` rather than `0`)" if (previous, new) == ("int", "float") else ""),
                ))
            return
        env[name] = new
        depth[name] = level
        self.pending.pop(name, None)

    # -- expressions --------------------------------------------------------------------------------------------
    def _check(self, reads: _Reads, env: dict, statement, targets: bool = False, annotated=None,
               returned=None) -> None:
        for name in reads.names:
            event = self.pending.pop(name.value, None)
            if event is not None:
                self.events.append(_Event(event.code, name, event.message) if event.at_read else event)
        if targets:
            return
        expressions = Expressions(self.imports, env)
        for if_expression in reads.if_expressions:
            first, second = expressions.of(if_expression.body), expressions.of(if_expression.orelse)
            if join_fails(first, second):
                self.events.append(_Event(
                    "JIT707", if_expression,
                    f"the true branch of this if-expression is a {first} and the false branch a {second}; "
                    f"TorchScript needs one type. Make both the same type",
                ))
        for call in reads.calls:
            qualified = self.imports.qualify(call.func)
            if qualified == "builtins.range":
                for argument in call.args:
                    if expressions.of(argument.value) == "number":
                        self.events.append(_Event(
                            "JIT708", argument.value,
                            "`.item()` returns a number (int or float) to TorchScript, and `range()` needs an int; "
                            "wrap it: `int(....item())`",
                        ))
            if (
                isinstance(call.func, cst.Attribute)
                and call.func.attr.value == "tolist"
                and not call.args
                and expressions.of(call.func.value) == "Tensor"
                and call is not annotated
                and not (call is returned and self.annotated_return)
            ):
                self.events.append(_Event(
                    "JIT206", call,
                    "TorchScript cannot infer the type of `.tolist()`; assign it to an annotated variable: "
                    "`values: List[float] = x.tolist()` (the element type and nesting must match the tensor's "
                    "dtype and rank)",
                ))
            if (
                isinstance(call.func, cst.Attribute)
                and call.func.attr.value == "append"
                and isinstance(call.func.value, cst.Name)
                and self.empty.get(call.func.value.value) == "list"
                and len(call.args) == 1
            ):
                kind = expressions.of(call.args[0].value)
                if kind in SCALARS and kind != "Tensor" or (kind or "").startswith("List["):
                    name = call.func.value.value
                    self.empty.pop(name)
                    self.events.append(_Event(
                        "JIT210", call,
                        f"`{name}` starts as an unannotated `[]`, which TorchScript types List[Tensor], and this "
                        f"appends a {kind}; annotate it where it starts: `{name}: List[{_spelled(kind)}] = []`",
                    ))
            if isinstance(call.func, cst.Attribute) and call.func.attr.value in _TENSOR_ARGUMENT_METHODS and (
                expressions.of(call.func.value) == "Tensor"
            ):
                for argument in call.args:
                    self._optional_uses(argument.value, "is passed to `." + call.func.attr.value + "()`", expressions)
        self._tensor_params(reads, expressions)
        for attribute in reads.attributes:
            self._optional_uses(attribute.value, f"has its attribute `.{attribute.attr.value}` read", expressions)
        for operation in reads.binary:
            for operand in (operation.left, operation.right):
                self._optional_uses(operand, "is used in arithmetic", expressions)

    def _dict_store(self, target: cst.Subscript, value: cst.BaseExpression, expressions: Expressions) -> None:
        if not (isinstance(target.value, cst.Name) and self.empty.get(target.value.value) == "dict"):
            return
        if len(target.slice) != 1 or not isinstance(target.slice[0].slice, cst.Index):
            return
        key, item = expressions.of(target.slice[0].slice.value), expressions.of(value)
        wrong = [f"a {kind} {what}" for kind, what, fine in ((key, "key", "str"), (item, "value", "Tensor"))
                 if kind in SCALARS and kind != fine]
        if wrong:
            name = target.value.value
            self.empty.pop(name)
            self.events.append(_Event(
                "JIT210", target,
                f"`{name}` starts as an unannotated `{{}}`, which TorchScript types Dict[str, Tensor], and this "
                f"stores {' and '.join(wrong)}; annotate it where it starts: "
                f"`{name}: Dict[{_spelled(key or 'str')}, {_spelled(item or 'torch.Tensor')}] = {{}}`",
            ))

    # -- unannotated parameters (Tensor to TorchScript) used as something else ----------------------------------
    def _unannotated_tensor(self, node: cst.BaseExpression, expressions: Expressions) -> str | None:
        if isinstance(node, cst.Name) and node.value in self.unannotated and expressions.of(node) == "Tensor":
            return node.value
        return None

    def _tensor_params(self, reads: _Reads, expressions: Expressions) -> None:
        for call in reads.calls:
            qualified = self.imports.qualify(call.func)
            if qualified in ("torch.cat", "torch.stack", "torch.concat", "torch.concatenate") and call.args:
                name = self._unannotated_tensor(call.args[0].value, expressions)
                if name is not None and call.args[0].keyword is None:
                    self.events.append(_Event(
                        "JIT202", call.args[0].value,
                        f"`{qualified}()` takes a list of Tensors, but `{name}` has no annotation, so TorchScript "
                        f"types it as one Tensor; annotate it: `{name}: List[torch.Tensor]`",
                    ))
            self._call_arguments(call, expressions)

    def _call_arguments(self, call: cst.Call, expressions: Expressions) -> None:
        """A list, number, str or bool passed to an unannotated (so Tensor) parameter of a compiled project function."""
        found = self.ctx.captured.callee_of(call)
        if found is None or any(arg.star for arg in call.args):
            return
        callee, bound = found
        params = callee.node.params
        positional = [*params.posonly_params, *params.params][1 if bound else 0:]
        by_name = {param.name.value: param for param in [*params.params, *params.kwonly_params]}
        for index, argument in enumerate(call.args):
            if argument.keyword is None:
                param = positional[index] if index < len(positional) else None
            else:
                param = by_name.get(argument.keyword.value)
            if param is None or param.annotation is not None or param.default is not None:
                continue
            if uses_type_comments(callee.node):
                return
            kind = expressions.of(argument.value)
            if isinstance(argument.value, (cst.List, cst.ListComp)) and kind is None:
                kind = "list"
            if kind is None or not (kind in ("int", "float", "str", "bool", "list") or kind.startswith("List[")):
                continue
            name = param.name.value
            self.events.append(_Event(
                "JIT202", argument.value,
                f"`{callee.display_name}` has no annotation on `{name}`, so TorchScript types it as a Tensor, and "
                f"this passes a {kind}; annotate it: `{name}: {_spelled(kind) if kind != 'list' else 'List[...]'}`",
            ))

    # -- module attributes --------------------------------------------------------------------------------------
    def _self_attribute(self, node: cst.BaseExpression) -> str | None:
        if (
            self.self_name is not None
            and isinstance(node, cst.Attribute)
            and isinstance(node.value, cst.Name)
            and node.value.value == self.self_name
        ):
            return node.attr.value
        return None

    def _attribute_infos(self, name: str):
        infos = [self.ctx.project.attributes(owner).get(name) for owner in self.owners]
        return infos if infos and all(info is not None for info in infos) else []

    def _attribute_type(self, name: str) -> str | None:
        """The type torch gives `self.<name>`: its class-level annotation, else the one type `__init__` assigns."""
        kinds = set()
        for info in self._attribute_infos(name):
            if info.annotation is not None:
                kinds.add(info.annotation_type)
            elif len(info.init_types) == 1 and not info.registered:
                kinds |= info.init_types
            else:
                return None
        return kinds.pop() if len(kinds) == 1 else None

    def _attribute_assignment(self, target: cst.Attribute, new: str | None) -> None:
        name = target.attr.value
        infos = self._attribute_infos(name)
        if not infos or any(info.annotation is not None for info in infos) or new not in SCALARS or new == "None":
            return
        current = self._attribute_type(name)
        if current == "None":
            self.events.append(_Event(
                "JIT609", target,
                f"`self.{name}` is None in `__init__` and has no class-level annotation, so TorchScript types it "
                f"NoneType; assigning a {new} here fails. Declare it in the class body: "
                f"`{name}: Optional[{_spelled(new)}]`",
            ))
        elif current in SCALARS and current != new:
            self.events.append(_Event(
                "JIT610", target,
                f"`self.{name}` is a {current} in `__init__`, and this assigns it a {new}; TorchScript fixes an "
                f"attribute's type when it scripts the module. Keep it a {current}, or start it as a {new}",
            ))

    def _optional_attribute_use(self, node: cst.BaseExpression, how: str) -> None:
        name = self._self_attribute(node)
        if name is None or name in self.reported_optional_attributes:
            return
        infos = self._attribute_infos(name)
        if not infos or not all(
            info.annotation is not None and (info.annotation_type or "").startswith("Optional[") for info in infos
        ):
            return
        self.reported_optional_attributes.add(name)
        self.events.append(_Event(
            "JIT611", node,
            f"`self.{name}` is declared Optional and {how}; TorchScript never refines an attribute, even inside "
            f"`if self.{name} is not None:`. Copy it to a local first: `{name} = self.{name}`, then test "
            f"`if {name} is not None:`",
        ))

    def _optional_uses(self, node: cst.BaseExpression, how: str, expressions: Expressions) -> None:
        """An Optional parameter (JIT704) or an Optional attribute (JIT611) used as a value."""
        self._optional_use(node, how, expressions)
        self._optional_attribute_use(node, how)

    def _optional_use(self, node: cst.BaseExpression, how: str, expressions: Expressions) -> None:
        if not (isinstance(node, cst.Name) and node.value in self.optional_unchecked):
            return
        kind = expressions.of(node) or ""
        if not (kind.startswith("Optional[") or kind == "None"):
            return  # refined here by an `is not None` test, an `assert`, or an early exit
        if node.value in self.reported_optional:
            return
        self.reported_optional.add(node.value)
        self.events.append(_Event(
            "JIT704", node,
            f"`{node.value}` is Optional here and {how}; TorchScript rejects that until it is refined. "
            f"Test it first: `if {node.value} is not None:` (or `assert {node.value} is not None`)",
        ))

    def _return(self, node: cst.Return, expressions: Expressions) -> None:
        value = node.value
        is_none = value is None or (isinstance(value, cst.Name) and value.value == "None")
        if is_none and self.returns is not None and self.returns != "None" and not self.returns.startswith("Optional"):
            self.events.append(_Event(
                "JIT208", node,
                f"the function is annotated to return {self.returns}, but this returns None; TorchScript rejects "
                f"it. Annotate the return as `Optional[{_spelled(self.returns)}]`",
            ))
        if self.annotated_return:
            return
        if isinstance(value, cst.Tuple) and not any(isinstance(e, cst.StarredElement) for e in value.elements):
            shape = f"a tuple of {len(value.elements)}"
        else:
            kind = expressions.of(value) if value is not None else "None"
            if kind not in ("Tensor", "int", "float", "str", "bool"):
                return
            shape = f"an {kind}" if kind == "int" else f"a {kind}"
        for previous, previous_shape in self.return_shapes:
            if previous_shape != shape and (previous_shape.startswith("a tuple") or shape.startswith("a tuple")):
                self.events.append(_Event(
                    "JIT209", node,
                    f"this returns {shape}, but an earlier return returns {previous_shape}; TorchScript needs one "
                    f"return type. Return the same shape everywhere",
                ))
                break
        self.return_shapes.append((node, shape))


def _empty_container(value: cst.BaseExpression, imports) -> str | None:
    if isinstance(value, cst.List) and not value.elements:
        return "list"
    if isinstance(value, cst.Dict) and not value.elements:
        return "dict"
    if isinstance(value, cst.Call) and not value.args:
        return {"builtins.list": "list", "builtins.dict": "dict"}.get(imports.qualify(value.func) or "")
    return None


def uses_type_comments(function: cst.FunctionDef) -> bool:
    """Whether the signature is given in `# type:` comments (after the parameters or as the body's first line),
    which TorchScript reads as annotations."""
    body = function.body
    comments = []
    if isinstance(body, cst.IndentedBlock):
        comments.append(body.header.comment)
        if body.body:
            comments.extend(line.comment for line in getattr(body.body[0], "leading_lines", ()))
    params = function.params
    for param in [*params.posonly_params, *params.params, *params.kwonly_params]:
        for whitespace in (param.whitespace_after_param, getattr(param.comma, "whitespace_after", None)):
            if isinstance(whitespace, cst.ParenthesizedWhitespace):
                comments.append(whitespace.first_line.comment)
    return any(comment is not None and comment.value.lstrip("# ").startswith("type:") for comment in comments)


def _isinstance_names(test: cst.BaseExpression) -> set[str]:
    names: set[str] = set()

    class Find(cst.CSTVisitor):
        def visit_Call(self, node: cst.Call) -> None:
            if isinstance(node.func, cst.Name) and node.func.value == "isinstance" and node.args and isinstance(
                node.args[0].value, cst.Name
            ):
                names.add(node.args[0].value.value)

    walk(test, Find())
    return names


def _target_reads(target: cst.BaseExpression) -> list[cst.CSTNode]:
    """What an assignment target reads: `a[i] = ...` reads `a` and `i`; `a, b = ...` reads nothing."""
    if isinstance(target, (cst.Tuple, cst.List)):
        return [read for element in target.elements for read in _target_reads(element.value)]
    if isinstance(target, cst.StarredElement):
        return _target_reads(target.value)
    if isinstance(target, cst.Name):
        return []
    return [target]


def _asserts_false(small: cst.BaseSmallStatement) -> bool:
    return isinstance(small, cst.Assert) and isinstance(small.test, cst.Name) and small.test.value == "False"


def _binary_of(operator: cst.BaseAugOp) -> cst.BaseBinaryOp:
    name = type(operator).__name__.removesuffix("Assign")
    return getattr(cst, name)()


def _join(first: str | None, second: str | None) -> str | None:
    """The type after an if/else of a variable that both branches leave as these types (None when unknown)."""
    if first == second:
        return first
    for one, other in ((first, second), (second, first)):
        if one is not None and one.startswith("Optional[") and other in (one[len("Optional["):-1], "None"):
            return one
    return _optional(first, second)


def _optional(first: str | None, second: str | None) -> str | None:
    if first == "None" and second not in (None, "None"):
        return f"Optional[{second}]"
    if second == "None" and first not in (None, "None"):
        return f"Optional[{first}]"
    return None


def _spelled(kind: str) -> str:
    return "torch.Tensor" if kind == "Tensor" else kind


def events_for(ctx: RuleContext, node: cst.FunctionDef) -> list[_Event]:
    """The flow events of a compiled function, computed once for all the rules of this module."""
    key = id(node)
    if key not in ctx.flow_events:
        ctx.flow_events[key] = FlowAnalysis(node, ctx).events
    return ctx.flow_events[key]


def report_events(rule: ScriptRule, node: cst.FunctionDef, ctx: RuleContext) -> None:
    if ctx.function is None or ctx.function.info.node is not node or not ctx.function.body_captured:
        return
    for event in events_for(ctx, node):
        if event.code == rule.code:
            ctx.report(event.node, event.message)


class _FlowRule(ScriptRule):
    def visit_FunctionDef(self, node: cst.FunctionDef, ctx: RuleContext) -> None:
        report_events(self, node, ctx)


class TolistNeedsAnnotation(_FlowRule):
    code = "JIT206"
    name = "tolist-needs-annotation"
    severity = "error"
    summary = "`.tolist()` on a Tensor whose result is not assigned to an annotated variable"
    message = "`.tolist()` without a type annotation"


class ReturnTypeMismatch(_FlowRule):
    code = "JIT208"
    name = "return-type-mismatch"
    severity = "error"
    summary = "`return None` in a function annotated to return a non-Optional type"
    message = "returns None from a function annotated with another type"


class TupleReturnArityMismatch(_FlowRule):
    code = "JIT209"
    name = "tuple-return-arity-mismatch"
    severity = "error"
    summary = "returns of tuples of different lengths, or a tuple and a non-tuple"
    message = "returns tuples of different lengths, or a tuple and a non-tuple"


class BranchTypeMismatch(_FlowRule):
    code = "JIT701"
    name = "branch-type-mismatch"
    severity = "error"
    summary = "a variable set to a Tensor in one branch and an int in the other (and read after)"
    message = "variable set to different types in the branches of an if"


class DefinedInOneBranch(_FlowRule):
    code = "JIT702"
    name = "defined-in-one-branch"
    severity = "error"
    summary = "a variable set in one branch only and read after the `if`"
    message = "variable set in one branch only and read after the if"


class NoneInitThenValue(_FlowRule):
    code = "JIT703"
    name = "none-init-then-tensor"
    severity = "error"
    summary = "`acc = None` (unannotated), then assigned a value in a branch or loop"
    message = "variable initialised to None without annotation, then assigned in a branch or loop"


class OptionalUsedWithoutRefine(_FlowRule):
    code = "JIT704"
    name = "optional-used-without-refine"
    severity = "error"
    summary = (
        "an `Optional[T]` parameter used as a value where it is not refined (`if m is not None`, `assert`, "
        "early exit)"
    )
    message = "Optional value used without a None check"


class LoopVariableUsedAfterLoop(_FlowRule):
    code = "JIT705"
    name = "loop-var-used-after-loop"
    severity = "error"
    summary = "a variable first set inside a loop, read after it"
    message = "variable first set inside a loop is read after it"


class LoopCarriedTypeChange(_FlowRule):
    code = "JIT706"
    name = "loop-carried-type-change"
    severity = "error"
    summary = "`s = 0` then `s += 0.5` in a loop or branch (int becomes float)"
    message = "variable changes type inside a branch or loop"


class TernaryTypeMismatch(_FlowRule):
    code = "JIT707"
    name = "ternary-type-mismatch"
    severity = "error"
    summary = "`x if cond else 0`: arms of different types"
    message = "if-expression with branches of different types"


class ItemIsNumber(_FlowRule):
    code = "JIT708"
    name = "item-is-number"
    severity = "error"
    summary = "`range(t.item())`: `.item()` is a number, `range` needs an int"
    message = "`.item()` used where TorchScript needs an int"


class AttributeNoneNeedsOptional(_FlowRule):
    code = "JIT609"
    name = "attr-none-needs-optional-annotation"
    severity = "error"
    summary = "`self.cache = None` in `__init__`, assigned a Tensor in compiled code, no class-level `Optional`"
    message = "attribute that is None in `__init__` assigned a value without a class-level Optional annotation"


class AttributeTypeChange(_FlowRule):
    code = "JIT610"
    name = "attr-type-change-in-forward"
    severity = "error"
    summary = "`self.steps = 0` in `__init__`, assigned a Tensor (or a float) in compiled code"
    message = "compiled code assigns an attribute a value of another type than `__init__` gave it"


class OptionalAttributeNoLocalRefine(_FlowRule):
    code = "JIT611"
    name = "optional-attr-no-local-refine"
    severity = "error"
    summary = "an attribute declared `Optional` used as a value (torch never refines attributes)"
    message = "Optional attribute used as a value (attributes are never refined)"


class EmptyContainerNeedsAnnotation(_FlowRule):
    code = "JIT210"
    name = "empty-container-needs-annotation"
    severity = "error"
    summary = "`sizes = []` then `sizes.append(x.size(0))`; `d = {}` then a non-str key or non-Tensor value"
    message = "unannotated empty list or dict filled with non-Tensor values"
