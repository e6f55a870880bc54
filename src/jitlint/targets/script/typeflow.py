"""The TorchScript type domain of the control-flow walk (`jitlint.facts.flow`), and its checks.

`TypeDomain` gives each local name its TorchScript type (`infer.TSType`, None for unknown) as `FlowWalker` walks a
compiled function, the way TorchScript's frontend types it, and records an `Event` for each problem; the rules of
`rules/flow.py` (and JIT202 in `rules/types.py`) each report the events that name their class.

What TorchScript does (each verified on torch 2.13, see the rule pages):
- straight-line code may re-type a variable (`n = x.size(0); n = x.sum()` scripts);
- inside a branch or a loop, assigning a variable defined outside it a value of another type fails ("Variable 's'
  previously had type int but is now being assigned to a value of type float"); int and float variables accept a
  Tensor or a bool;
- after an if/else, a variable set in only one branch, or to types that do not unify (None unifies with anything
  into an Optional) fails, but only where it is read later;
- a variable first set inside a loop (the loop variable too) is undefined after the loop;
- `Optional` is refined by `is not None`, `is None` plus an exit, and `assert`; never on attributes;
- `self.x is None` tests are folded when the module is scripted, so which branch survives is unknown.
Unknown types (a call jitlint has no table for, a value from elsewhere) make every check silent.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

import libcst as cst

from jitlint.facts import RunFact, run_fact
from jitlint.wording import a
from jitlint.apis import unsupported
from jitlint.facts.flow import FlowDomain, FlowWalker, Frame, Reads
from jitlint.facts.syntax import ASSIGNMENTS, DEFINITION, bindings, bound_names, target_names
from jitlint.names import first_param_name
from jitlint.project import AttributeInfo, ProjectIndex
from jitlint.rules.base import RuleContext
from jitlint.targets.script.infer import (
    BOOL,
    FLOAT,
    INT,
    NONE,
    NUMBER,
    NUMBERS,
    SCALARS,
    STR,
    TENSOR,
    TENSOR_METHODS,
    Expressions,
    TSType,
    annotation_type,
    assignment_fails,
    binary_type,
    join_fails,
    list_of,
    optional_of,
    param_types,
    SignatureComment,
    is_overload_implementation,
    mismatches,
    signature_comment,
    tuple_index,
    tuple_of,
)
from jitlint.targets.script.overload_lookup import implements_overloads, overload_group_of
from jitlint.targets.script.policy import is_ignored
from jitlint.targets.script import schemas
from jitlint.walk import walk

Type = TSType | None  # None: unknown


class Problem(enum.Enum):
    """What a flow event is: each is reported by the rule that declares it (`rule.problem`)."""

    ANNOTATED_ASSIGNMENT_MISMATCH = enum.auto()
    ATTRIBUTE_NONE_NEEDS_OPTIONAL = enum.auto()
    ATTRIBUTE_TYPE_CHANGE = enum.auto()
    BRANCH_TYPE_MISMATCH = enum.auto()
    CANNOT_UNPACK = enum.auto()
    DEFINED_IN_ONE_BRANCH = enum.auto()
    DELETE_SLICE = enum.auto()
    EMPTY_CONTAINER_NEEDS_ANNOTATION = enum.auto()
    ITEM_IS_NUMBER = enum.auto()
    LOOP_CARRIED_TYPE_CHANGE = enum.auto()
    LOOP_VARIABLE_USED_AFTER_LOOP = enum.auto()
    MISSING_RETURN = enum.auto()
    MODULE_CONTAINER_LENGTH = enum.auto()
    NONE_INIT_THEN_VALUE = enum.auto()
    NOT_ITERABLE_OR_SUBSCRIPTABLE = enum.auto()
    NO_MATCHING_OVERLOAD = enum.auto()
    NO_TUPLE_OF_ITERABLE = enum.auto()
    NO_UNSUPPORTED_BUILTIN = enum.auto()
    OPTIONAL_ATTRIBUTE_NO_LOCAL_REFINE = enum.auto()
    OPTIONAL_USED_WITHOUT_REFINE = enum.auto()
    RANGE_ENUMERATE_ARGUMENTS = enum.auto()
    RETURN_TYPE_MISMATCH = enum.auto()
    TERNARY_TYPE_MISMATCH = enum.auto()
    TOLIST_NEEDS_ANNOTATION = enum.auto()
    TUPLE_MISUSE = enum.auto()
    TUPLE_RETURN_ARITY_MISMATCH = enum.auto()
    UNANNOTATED_NON_TENSOR_PARAM = enum.auto()
    UNKNOWN_LIST_METHOD = enum.auto()
    UNKNOWN_TENSOR_METHOD = enum.auto()


@dataclass
class Event:
    """A problem the analysis found, for the rule that declares that `problem` to report."""

    problem: "Problem"
    node: cst.CSTNode
    message: str
    at_read: bool = False  # reported where the name is read (where torch points), not at `node`


def analyse(function: cst.FunctionDef, ctx: RuleContext) -> list[Event]:
    """The events of one compiled function (the one `ctx.function` holds)."""
    domain = TypeDomain(function, ctx)
    text = ctx.module.text
    FlowWalker(
        domain, ctx.function.pruned if ctx.function is not None else set(), walrus=text is None or ":=" in text
    ).run(function)
    domain.finish()
    return domain.events


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


Refinements = dict[str, bool]  # name -> refined to its contained type (True) or to None (False)


def _named_params(params: cst.Parameters) -> list[cst.Param]:
    """A `def`'s parameters that have a name of their own: positional-only, ordinary and keyword-only (not `*args`
    or `**kwargs`), in order."""
    return [*params.posonly_params, *params.params, *params.kwonly_params]


def _param_annotated(function: cst.FunctionDef, name: str) -> bool:
    params = function.params
    return any(param.name.value == name and param.annotation is not None
               for param in _named_params(params))


def _refinements(test: cst.BaseExpression) -> tuple[Refinements, Refinements]:
    """What `test` refines when true and when false, as TorchScript's refinement sets combine: `a and b` refines
    both sides' when true and what both refine when false; `or` the converse; `not` swaps them."""
    refined = _none_test(test)
    if refined is not None:
        name, is_not = refined
        return {name: is_not}, {name: not is_not}
    if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
        when_true, when_false = _refinements(test.expression)
        return when_false, when_true
    if isinstance(test, cst.BooleanOperation):
        left, right = _refinements(test.left), _refinements(test.right)
        union = lambda a, b: {**a, **b} if not (a.keys() & b.keys() and any(a[k] != b[k] for k in a.keys() & b.keys())) else {}
        both = lambda a, b: {k: v for k, v in a.items() if b.get(k) == v}
        if isinstance(test.operator, cst.And):
            return union(left[0], right[0]), both(left[1], right[1])
        return both(left[0], right[0]), union(left[1], right[1])
    return {}, {}


def _apply_refinements(frame: Frame[Type], refined: Refinements, before: dict[str, Type]) -> None:
    for name, not_none in refined.items():
        kind = before.get(name)
        if kind is not None and kind.is_optional:
            frame.values[name] = kind.inner if not_none else NONE


def _refines_only_none_tests(test: cst.BaseExpression) -> bool:
    """A test built of `x is None` / `x is not None` with `and`, `or` and `not`: the flow walk follows it."""
    if _none_test(test) is not None:
        return True
    if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
        return _refines_only_none_tests(test.expression)
    if isinstance(test, cst.BooleanOperation):
        return _refines_only_none_tests(test.left) and _refines_only_none_tests(test.right)
    return False


def _none_tests_in(test: cst.BaseExpression) -> list[cst.BaseExpression]:
    if _none_test(test) is not None:
        return [test]
    if isinstance(test, cst.UnaryOperation):
        return _none_tests_in(test.expression)
    if isinstance(test, cst.BooleanOperation):
        return _none_tests_in(test.left) + _none_tests_in(test.right)
    return []


def _uses_before_binding(function: cst.FunctionDef, names: set[str]) -> set[int]:
    """The reads of `names` (ids of their `Name` nodes) that come, in source order, before any statement of the
    function binds the name, outside loops and nested functions: the parameter's own value, whatever the
    re-binding later does (`else: shape = embeds.size()` before `if embeds is None: embeds = ...`)."""
    bound: set[str] = set()
    early: set[int] = set()

    class Order(cst.CSTVisitor):
        def __init__(self) -> None:
            super().__init__()
            self.loops = 0

        def _bind(self, target: cst.BaseExpression) -> None:
            bound.update(target_names(target))

        def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
            return False

        def visit_Lambda(self, node: cst.Lambda) -> bool:
            return False

        def visit_For(self, node: cst.For) -> None:
            self._bind(node.target)
            self.loops += 1

        def leave_For(self, node: cst.For) -> None:
            self.loops -= 1

        def visit_While(self, node: cst.While) -> None:
            self.loops += 1

        def leave_While(self, node: cst.While) -> None:
            self.loops -= 1

        def visit_Assign(self, node: cst.Assign) -> bool:
            walk(node.value, self)  # `x = f(x)` reads the old `x` before it binds the new one
            for target in node.targets:
                walk(target, self)
            return False

        def visit_AssignTarget(self, node: cst.AssignTarget) -> None:
            self._bind(node.target)

        def visit_AugAssign(self, node: cst.AugAssign) -> None:
            self._bind(node.target)

        def visit_AnnAssign(self, node: cst.AnnAssign) -> bool:
            if node.value is not None:
                walk(node.value, self)
            self._bind(node.target)
            return False

        def visit_NamedExpr(self, node: cst.NamedExpr) -> None:
            self._bind(node.target)

        def visit_Name(self, node: cst.Name) -> None:
            if node.value in names and node.value not in bound and not self.loops:
                early.add(id(node))

    walk(function.body, Order())
    return early


def _unfollowed_names(function: cst.FunctionDef, rebound: set[str] | None = None) -> set[str]:
    """Names whose refinement the flow walk does not follow: compared with None other than as the whole test of an
    `if` or `assert` (inside `and`/`or`, a ternary, a `while`), tested for truth, or re-assigned anywhere. JIT704
    leaves those alone (`rebound`, when given, receives the names left out only because they are re-assigned)."""
    checked: set[str] = set()
    assigned: set[str] = set()
    direct: set[int] = set()

    class Collect(cst.CSTVisitor):
        def visit_Comparison(self, node: cst.Comparison) -> None:
            if id(node) in direct:
                return
            operands = [node.left] + [target.comparator for target in node.comparisons]
            if any(isinstance(operand, cst.Name) and operand.value == "None" for operand in operands):
                checked.update(operand.value for operand in operands if isinstance(operand, cst.Name))

        def _truth(self, test: cst.BaseExpression) -> None:
            if _refines_only_none_tests(test):  # followed by `_refinements`
                for comparison in _none_tests_in(test):
                    direct.add(id(comparison))
                return
            self._names(test)

        def _names(self, test: cst.BaseExpression) -> None:
            """Names tested for truth (a `while` or an if-expression's None tests stay unfollowed: their
            comparisons are visited as such)."""
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
                self._names(node.test)

        def visit_IfExp(self, node: cst.IfExp) -> None:
            refined = _none_test(node.test)  # the flow walk does not refine inside if-expressions
            if refined is not None:
                checked.add(refined[0])
            else:
                self._names(node.test)

        def visit_Assign(self, node: cst.Assign) -> None:
            if _none_test(node.value) is not None:  # `ok = x is not None`: TorchScript does not refine through `ok`
                direct.add(id(node.value))

        def visit_AssignTarget(self, node: cst.AssignTarget) -> None:
            assigned.update(target_names(node.target))

        def visit_AugAssign(self, node: cst.AugAssign) -> None:
            assigned.update(target_names(node.target))

        def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
            assigned.update(target_names(node.target))

        def visit_For(self, node: cst.For) -> None:
            assigned.update(target_names(node.target))

    walk(function.body, Collect())
    if rebound is not None:
        rebound.update(assigned - checked)
    return checked | assigned


class AttributeTypes(RunFact):
    """The TorchScript types of an attribute's facts: its class-level annotation, and the values `__init__`
    assigns (None for one it cannot type). Kept for the run, per merged attribute."""

    @classmethod
    def compute(cls, project: ProjectIndex, info: AttributeInfo) -> tuple[Type, set[Type]]:
        annotation = annotation_type(info.annotation, info.annotation_imports) if info.annotation is not None else None
        # torch types a module attribute by the value `__init__` leaves (`torch.jit.annotate(Optional[str], None)`
        # is a None there, and so is `self.x: Optional[str] = None`)
        values = {Expressions(value.imports, {}).of(_annotated_value(value.node, value.imports))
                  for value in info.init_values}
        return annotation, values


def attribute_types(project: ProjectIndex, info: AttributeInfo) -> tuple[Type, set[Type]]:
    """`AttributeTypes` of an attribute."""
    return run_fact(project, AttributeTypes, info)


def _annotated_value(node: cst.BaseExpression, imports) -> cst.BaseExpression:
    if isinstance(node, cst.Call) and len(node.args) == 2 and imports.qualify(node.func) == "torch.jit.annotate":
        return node.args[1].value
    return node


class TypeDomain(FlowDomain[Type]):
    """TorchScript types of local names, and the events of one compiled function."""

    unknown = None

    def __init__(self, function: cst.FunctionDef, ctx: RuleContext) -> None:
        self.ctx = ctx
        self.function = function
        self.imports = ctx.module.imports
        info = ctx.function.info
        is_method = info.bound_first_param is not None
        self.events: list[Event] = []
        self.returns = annotation_type(function.returns.annotation, self.imports) if function.returns else None
        self.annotated_return = function.returns is not None
        self.return_shapes: list[tuple[cst.Return, str]] = []
        params = param_types(function, self.imports, is_method)  # from a `# type:` comment too
        self.comment = signature_comment(function)
        if is_overload_implementation(function, ctx.module.tree):  # compiled once per `_overload` signature
            params = {name: None for name in params}
            self.comment = SignatureComment(None, None)
        if self.comment is not None:
            self.returns = annotation_type(self.comment.returns, self.imports) if self.comment.returns else None
            self.annotated_return = True
        self.params = params
        # Parameters annotated with a Union (not an Optional) that the function never refines or re-binds
        self.union_params = _union_params(function, ctx) if self.comment is None else {}
        # Parameters TorchScript types Tensor because they have no annotation and no default.
        self.unannotated = {name for name, kind in params.items() if kind == TENSOR and not self._annotated(name)}
        self.optional_unchecked = {
            name for name, kind in params.items()
            if kind is not None and kind.is_optional and self._annotated(name)
        }
        # reads of an Optional parameter that is re-bound only later (JIT704 follows those reads too)
        self.optional_early: set[int] = set()
        if self.optional_unchecked:
            rebound: set[str] = set()
            self.optional_unchecked -= _unfollowed_names(function, rebound)
            rebound &= {name for name, kind in params.items()
                        if kind is not None and kind.is_optional and self._annotated(name)}
            if rebound:
                self.optional_early = _uses_before_binding(function, rebound)
        self.reported_optional: set[str] = set()
        self.empty: dict[str, str] = {}  # names bound to an unannotated `[]`/`{}`: "list" (List[Tensor]) or "dict"
        # What is appended to each unannotated `[]` while the name holds it: the type the list needs is the join of
        # all of it, reported (JIT210) once the name is bound again or the function ends.
        self.filling: dict[str, _Filling] = {}
        self.self_name = first_param_name(function) if is_method else None
        self.reported_optional_attributes: set[str] = set()
        self.owners = [owner for owner in (ctx.function.owners or []) if ctx.project.is_module_class(owner)]
        self.annotated: set[str] = set()
        self.declared = dict(params)
        self._folded: set[int] | None = None
        self._assigned: set[str] | None = None  # `_assigned_names` of the function, once asked
        self._filled_other: set[str] | None = None  # `_filled_otherwise`, once asked
        # body frame of a loop torch unrolls -> (that frame, the frame around the loop)
        self._unrolled_bodies: dict[int, tuple[Frame[Type], Frame[Type]]] = {}

    def _annotated(self, name: str) -> bool:
        if self.comment is not None:
            return True
        params = self.function.params
        for param in _named_params(params):
            if param.name.value == name:
                return param.annotation is not None
        return False

    def _expressions(self, frame: Frame[Type]) -> Expressions:
        return Expressions(self.imports, frame.values)

    # -- the walker's hooks -------------------------------------------------------------------------------------
    def initial(self) -> dict[str, Type]:
        return dict(self.params)

    def deferred(self, item: Event, name: cst.Name) -> None:
        self.events.append(Event(item.problem, name, item.message) if item.at_read else item)

    def assign(self, node: cst.Assign, frame: Frame[Type]) -> None:
        expressions = self._expressions(frame)
        value_type = expressions.of(node.value)
        if isinstance(node.value, cst.List):  # `pad = [0, n]`: the literal's type, mixed elements too
            value_type = _argument_type(node.value, expressions) or value_type  # `[None]` stays List[NoneType]
        empty = _empty_container(node.value, self.imports)
        for target in node.targets:
            if isinstance(target.target, cst.Subscript):
                self._dict_store(target.target, node.value, expressions)
                self._tuple_store(target.target, expressions, "subscripted assignment")
                self._dict_key(target.target, expressions)
            if isinstance(target.target, cst.Name):
                self._assign(target.target.value, value_type, target.target, frame)
                if empty is not None and len(node.targets) == 1:
                    self.empty[target.target.value] = empty
            elif self._self_attribute(target.target) is not None:
                self._attribute_assignment(target.target, value_type)
            else:
                if (isinstance(target.target, (cst.Tuple, cst.List)) and isinstance(node.value, cst.Name)
                        and self.params.get(node.value.value) == TENSOR and value_type == TENSOR):
                    name = node.value.value
                    self.events.append(Event(
                        Problem.CANNOT_UNPACK, node,
                        f"`{name}` is a Tensor here{' (it has no annotation)' if name in self.unannotated else ''}, "
                        f"and torch cannot unpack a Tensor (torch: 'Tensor cannot be used as a tuple'); annotate "
                        f"it as a tuple (`{name}: Tuple[Tensor, Tensor]`), or index it",
                    ))
                frame.read_names(*_target_reads(target.target))
                for name in target_names(target.target):
                    self._assign(name, None, target.target, frame)

    def annotated_assign(self, node: cst.AnnAssign, frame: Frame[Type]) -> None:
        annotation = annotation_type(node.annotation.annotation, self.imports)
        if isinstance(node.target, cst.Name):
            name = node.target.value
            if name in frame.values and frame.depth.get(name, 0) < frame.level and not frame.uncertain:
                self.events.append(Event(
                    Problem.ANNOTATED_ASSIGNMENT_MISMATCH, node,
                    f"`{name}` is already defined in an enclosing block, and TorchScript does not let an inner block "
                    f"re-annotate it (torch: 'Attempting to declare and annotate the type of variable '{name}' but "
                    "it is already defined in an outer block'); annotate it where it is first set",
                ))
            elif node.value is not None and self._hint_fails(node.value, annotation, node, self._expressions(frame)):
                pass
            elif node.value is not None:
                value = _hinted_type(node.value, self._expressions(frame))
                if value == NONE and not (isinstance(node.value, cst.Name) and node.value.value == "None"):
                    value = None  # a variable left None by an assignment torch rejected: do not cascade
                if (node.value is not None and annotation in (INT, FLOAT)
                        and self._expressions(frame).of(node.value) == NUMBER):
                    # `n: int = t.item()`: TorchScript converts a number only where a schema takes an int or a float
                    self.events.append(Event(
                        Problem.ITEM_IS_NUMBER, node.target,
                        f"`.item()` returns a number (int or float) to TorchScript, and an annotated {annotation} "
                        f"variable does not take one ('Variable ... is annotated with type {annotation} but is being "
                        f"assigned to a value of type number'); wrap it: `{annotation}(....item())`",
                    ))
                elif mismatches(value, annotation, convert=False):
                    self.events.append(Event(
                        Problem.ANNOTATED_ASSIGNMENT_MISMATCH, node,
                        f"`{name}` is annotated {annotation} and this assigns {_a(value)} (torch: 'Variable '{name}' is "
                        f"annotated with type {annotation} but is being assigned to a value of type {value}'); "
                        "TorchScript converts nothing here. Make the value that type (`float(...)`, a new container), "
                        "or fix the annotation",
                    ))
        for name in target_names(node.target):
            self.annotated.add(name)
            frame.bind(name, annotation)

    def augmented_assign(self, node: cst.AugAssign, frame: Frame[Type]) -> None:
        expressions = self._expressions(frame)
        if isinstance(node.target, cst.Subscript):
            self._tuple_store(node.target, expressions, "augmented assignment.")
        if isinstance(node.target, cst.Name):
            name = node.target.value
            new = binary_type(frame.values.get(name), expressions.of(node.value), _binary_of(node.operator))
            self._assign(name, new, node.target, frame, augmented=True)
        elif (attribute := self._self_attribute(node.target)) is not None:
            current = self._attribute_type(attribute)
            new = binary_type(current, expressions.of(node.value), _binary_of(node.operator))
            self._attribute_assignment(node.target, new)

    def for_target(self, node: cst.For, outer: Frame[Type], body: Frame[Type]) -> None:
        iterated = self._expressions(outer).of(node.iter)
        if iterated in (INT, FLOAT, BOOL):
            self.events.append(Event(
                Problem.NOT_ITERABLE_OR_SUBSCRIPTABLE, node.iter,
                f"this is {_a(iterated)}, which cannot be iterated over (torch: ''{iterated}' object is not "
                f"iterable'); loop over `range(...)` or a list",
            ))
        self._module_zip(node, self._expressions(outer))
        self._module_unpacked(node)
        if self._unrolled(node.iter, iterated):
            # torch unrolls a loop over a module container or a tuple: each copy of the body is inlined, so an
            # assignment directly in it may give a variable another type (`for m in self: x = m(x)`); an `if`
            # inside is still a block of its own. `_assign` lets those re-type, and the type after the loop is unknown
            self._unrolled_bodies[id(body)] = (body, outer)  # holding `body` keeps its id unique
        element = self._element_type(node.iter, self._expressions(outer))
        single = isinstance(node.target, cst.Name)
        for name in target_names(node.target):
            self._assign(name, element if single else None, node.target, body)

    def with_target(self, item: cst.WithItem, frame: Frame[Type]) -> None:
        for name in target_names(item.asname.name):
            self._assign(name, None, item.asname.name, frame)

    def walrus(self, node: cst.NamedExpr, frame: Frame[Type]) -> None:
        """`(name := value)` (JIT112) also defines `name`, with a type this pass does not follow."""
        for name in target_names(node.target):
            self._assign(name, None, node.target, frame)

    def refine(self, test: cst.BaseExpression, body: Frame[Type], orelse: Frame[Type]) -> None:
        when_true, when_false = _refinements(test)
        before = dict(body.values)  # the types before the `if`
        tested = _isinstance_names(test)  # `isinstance(x, ...)` refines x: its type is unknown in both branches
        for frame in (body, orelse):
            frame.values.update((name, None) for name in tested if name in frame.values)
        for frame, refined in ((body, when_true), (orelse, when_false)):
            _apply_refinements(frame, refined, before)

    def asserted(self, node: cst.Assert, frame: Frame[Type]) -> None:
        _apply_refinements(frame, _refinements(node.test)[0], dict(frame.values))

    def returned(self, node: cst.Return, frame: Frame[Type]) -> None:
        self._return(node, self._expressions(frame))

    def uncertain(self, test: cst.BaseExpression) -> bool:
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

    def join(self, name: str, first: Type, second: Type) -> Type:
        """The type after an if/else of a variable that both branches leave as these types (None when unknown)."""
        if first == second:
            return first
        for one, other in ((first, second), (second, first)):
            if one is not None and one.is_optional and other in (one.inner, NONE):
                return one
        return _optional(first, second)

    def join_new(self, name: str, first: Type, second: Type, node: cst.If, frame: Frame[Type]) -> Type:
        if join_fails(first, second) and not frame.uncertain:
            frame.defer(name, Event(
                Problem.BRANCH_TYPE_MISMATCH, node.test,  # torch points at the `if`
                f"`{name}` is {a(first)} in the true branch and {a(second)} in the false branch; TorchScript "
                f"needs one type after the `if` (it reads `{name}` later). Give both branches the same type",
            ))
            return None
        return first if first == second else _optional(first, second)

    def one_branch(self, name: str, in_body: bool, node: cst.If, frame: Frame[Type]) -> None:
        if frame.uncertain:
            return
        branch = "true" if in_body else "false"
        other = "false" if in_body else "true"
        frame.defer(name, Event(
            Problem.DEFINED_IN_ONE_BRANCH, node.test,  # torch points at the `if`
            f"`{name}` is set only in the {branch} branch of this `if` and read after it; TorchScript "
            f"rejects that ('{name} is not defined in the {other} branch'). Set it before the `if`, or in "
            f"both branches",
        ))

    def uncertain_join(self, before: Type, after: Type) -> Type:
        return None

    def loop_join(self, before: Type, after: Type) -> Type:
        return before if before in NUMBERS else None

    def first_set_in_loop(self, name: str, node: cst.For | cst.While, frame: Frame[Type]) -> None:
        frame.defer(name, Event(
            Problem.LOOP_VARIABLE_USED_AFTER_LOOP, node,
            f"`{name}` is first set inside a loop above and read here, after the loop; TorchScript "
            f"scopes it to the loop ('undefined value {name}'). Set it before the loop",
            at_read=True,
        ))

    # -- module containers (JIT315) ------------------------------------------------------------------------------
    def _module_container(self, node: cst.BaseExpression) -> str | None:
        """The kind of module container `node` is (`self.blocks`, `self.heads.values()`), if it is one."""
        if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and not node.args and (
                node.func.attr.value in ("values", "items", "keys")):
            kind = self._module_container(node.func.value)
            return kind if kind == "ModuleDict" else None
        found = self.ctx.self_attribute(node)
        if found is None:
            return None
        kinds = found[1].kinds
        return next(iter(kinds)) if len(kinds) == 1 and kinds <= {"ModuleList", "Sequential", "ModuleDict"} else None

    def _module_unpacked(self, node: cst.For) -> None:
        """`for attn, ff in self.layers:` (or `for i, (attn, ff) in enumerate(self.layers):`) over a ModuleList or
        Sequential: each element is a module, which torch cannot unpack ('module cannot be used as a tuple')."""
        iterable, target = node.iter, node.target
        if (isinstance(iterable, cst.Call) and self.imports.qualify(iterable.func) == "builtins.enumerate"
                and len(iterable.args) == 1 and not iterable.args[0].keyword
                and isinstance(target, (cst.Tuple, cst.List)) and len(target.elements) == 2):
            iterable, target = iterable.args[0].value, target.elements[1].value
        if not isinstance(target, (cst.Tuple, cst.List)):
            return
        kind = self._module_container(iterable)
        if kind not in ("ModuleList", "Sequential"):
            return
        self.events.append(Event(
            Problem.CANNOT_UNPACK, node,
            f"the elements of this {kind} are modules, and torch cannot unpack a module (torch: 'module cannot be "
            f"used as a tuple'), even one that is a ModuleList itself; keep one ModuleList per role and loop over "
            f"`zip(self.attns, self.ffs)`",
        ))

    def _module_zip(self, node: cst.For, expressions: Expressions) -> None:
        """`zip(self.blocks, xs)`: torch unrolls a loop over a module container, so everything zipped with it must
        have a static length (another module container, a tuple); a list, a `range()`, a Tensor does not."""
        iterable = node.iter
        if not (isinstance(iterable, cst.Call) and self.imports.qualify(iterable.func) == "builtins.zip"):
            return
        if any(argument.star or argument.keyword for argument in iterable.args):
            return
        values = [argument.value for argument in iterable.args]
        container = next((kind for kind in map(self._module_container, values) if kind is not None), None)
        if container is None:
            return
        for value in values:
            if self._module_container(value) is not None:
                continue
            kind = expressions.of(value)
            is_range = isinstance(value, cst.Call) and self.imports.qualify(value.func) == "builtins.range"
            if is_range or isinstance(value, (cst.List, cst.ListComp)) or (
                    kind is not None and (kind.is_list or kind in (TENSOR, STR) or kind.is_dict)):
                what = "a `range()`" if is_range else f"{a(kind)}" if kind is not None else "a list"
                self.events.append(Event(
                    Problem.MODULE_CONTAINER_LENGTH, node,
                    f"this zips {a(container)} with {what}: torch unrolls a loop over a module container, and "
                    "everything zipped with it needs a static length (torch: 'Can not iterate over a module list or "
                    "tuple with a value that does not have a statically determinable length'); iterate "
                    "`enumerate(...)` of the container and index the other value",
                ))
                return

    def _module_index(self, subscript: cst.Subscript) -> None:
        index = tuple_index(subscript)
        if not isinstance(index, int):
            return
        name = self._self_attribute(subscript.value)
        infos = self._attribute_infos(name) if name is not None else []
        if not infos or any(not info.kinds or not info.kinds <= {"ModuleList", "Sequential"} for info in infos):
            return
        lengths = {_static_length(info) for info in infos}  # one per class the method is compiled for
        length = lengths.pop() if len(lengths) == 1 else None
        if length is not None and not -length <= index < length:
            self.events.append(Event(
                Problem.MODULE_CONTAINER_LENGTH, subscript,
                f"`self.{name}` holds {length} module{'s' if length != 1 else ''} after `__init__` (torch: 'Index "
                f"{index} out of range of length {length}')",
            ))

    def _unrolled(self, iterable: cst.BaseExpression, kind: Type) -> bool:
        """A `for` torch may unroll: over a tuple, or over something of unknown type read from `self` (a
        ModuleList, a Sequential, `enumerate(self.blocks)`)."""
        if kind is not None:
            return kind.is_tuple
        if isinstance(iterable, cst.Call) and self.imports.qualify(iterable.func) == "builtins.range":
            return False  # `range(len(self.blocks))` is a loop over ints, which torch does not unroll
        return self.self_name is not None and any(name.value == self.self_name for name in Reads.of(iterable).names)

    @staticmethod
    def _element_type(iterable: cst.BaseExpression, expressions: Expressions) -> Type:
        if isinstance(iterable, cst.Call) and expressions.imports.qualify(iterable.func) == "builtins.range":
            return INT
        kind = expressions.of(iterable)
        if kind is not None and kind.is_list:
            return kind.element
        return None

    # -- names --------------------------------------------------------------------------------------------------
    def _assign(self, name: str, new: Type, node: cst.CSTNode, frame: Frame[Type], augmented: bool = False) -> None:
        self.empty.pop(name, None)
        self._filled(name)
        if name in self.annotated:
            if frame.depth.get(name) == frame.level and not frame.uncertain:
                # in the block that annotated it, an assignment re-types the variable (torch 2.13 scripts
                # `x: List[List[int]] = []` then `x = [n]`); in an inner block it must keep its type
                self.annotated.discard(name)
                frame.bind(name, new)
            return
        declared = self.declared.get(name)
        if declared is not None and declared.is_optional:
            frame.values[name] = new  # an Optional parameter takes a T or None anywhere; refinement follows the value
            return
        env, depth, level = frame.values, frame.depth, frame.level
        unrolled = self._unrolled_bodies.get(id(frame))
        if unrolled is not None and unrolled[0] is frame and name in env and depth.get(name, 0) < level:
            env[name] = new  # directly in the body of an unrolled loop: re-typed, and unknown after the loop
            unrolled[1].values[name] = None
            return
        if frame.uncertain and name in env and depth.get(name, 0) < level:
            env[name] = None
            return
        if name in env and depth.get(name, 0) < level:
            previous = env[name]
            if previous == NONE and new in SCALARS and new != NONE:
                self.events.append(Event(
                    Problem.NONE_INIT_THEN_VALUE, node,
                    f"`{name}` was set to None without an annotation, so TorchScript types it NoneType; this "
                    f"assignment of {a(new)} inside a branch or loop fails. Annotate the first assignment: "
                    f"`{name}: Optional[{_spelled(new)}] = None`",
                ))
            elif previous != NONE and assignment_fails(previous, new):
                self.events.append(Event(
                    Problem.LOOP_CARRIED_TYPE_CHANGE, node,
                    f"`{name}` is {a(previous)} before this {'loop or branch' if not augmented else 'block'}, and "
                    f"{'this update makes it' if augmented else 'this assigns it'} {a(new)}; TorchScript keeps one "
                    f"type for a variable across branches and loop iterations. Start it as {a(new)}"
                    + (" (`0.0` rather than `0`)" if (previous, new) == (INT, FLOAT) else ""),
                ))
            return
        frame.bind(name, new)

    # -- expressions --------------------------------------------------------------------------------------------
    def read(self, reads: Reads, statement: cst.CSTNode, frame: Frame[Type]) -> None:
        annotated = statement.value if isinstance(statement, cst.AnnAssign) else None
        returned = statement.value if isinstance(statement, cst.Return) else None
        expressions = self._expressions(frame)
        hinted = {  # `torch.jit.annotate(List[float], x.tolist())` types its second argument
            id(call.args[1].value) for call in reads.calls
            if len(call.args) == 2 and self.imports.qualify(call.func) == "torch.jit.annotate"
        }
        for call in reads.calls:
            if len(call.args) == 2 and self.imports.qualify(call.func) == "torch.jit.annotate":
                hint = annotation_type(call.args[0].value, self.imports)
                self._hint_fails(call.args[1].value, hint, call, expressions)
                self._tolist_hint(call.args[1].value, hint, call, expressions)
        if isinstance(statement, cst.AnnAssign) and statement.value is not None:
            self._tolist_hint(statement.value, annotation_type(statement.annotation.annotation, self.imports),
                              statement, expressions)
        if isinstance(statement, cst.Del):
            self._del_slice(statement.target)
        if (isinstance(statement, cst.Return) and isinstance(statement.value, (cst.List, cst.Dict))
                and self.returns is not None):
            # the return annotation types a returned list or dict display as an annotation does (`return [1, n]`,
            # `return {"a": x, "b": maybe}` under `-> Dict[str, Tensor]`: 'Type annotation was inferred to be ...')
            self._hint_fails(statement.value, self.returns, statement, expressions)
        for if_expression in reads.if_expressions:
            first, second = expressions.of(if_expression.body), expressions.of(if_expression.orelse)
            if join_fails(first, second):
                self.events.append(Event(
                    Problem.TERNARY_TYPE_MISMATCH, if_expression,
                    f"the true branch of this if-expression is {a(first)} and the false branch {a(second)}; "
                    f"TorchScript needs one type. Make both the same type",
                ))
        self._tuple_uses(reads, statement, expressions)
        self._container_uses(reads, expressions)
        self._scalar_subscripts(reads, expressions)
        for subscript in reads.subscripts:
            self._module_index(subscript)
        self._tensor_attributes(reads, statement, expressions)
        for call in reads.calls:
            self._schema_call(call, expressions)
            qualified = self.imports.qualify(call.func)
            if qualified in ("builtins.range", "builtins.enumerate"):
                self._range_enumerate(call, qualified[9:], expressions)
            if qualified == "builtins.id":
                self._id_call(call, expressions)
            if qualified == "builtins.tuple" and len(call.args) == 1 and not call.args[0].keyword:
                argument = call.args[0].value
                kind = expressions.of(argument)
                if kind is not None and kind.is_list and not isinstance(
                        argument, (cst.List, cst.ListComp, cst.GeneratorExp)):  # displays: JIT124's own visit
                    self.events.append(Event(
                        Problem.NO_TUPLE_OF_ITERABLE, call,
                        f"`tuple()` of {a(kind)}: TorchScript cannot tell the tuple's length from a list (torch: "
                        f"'cannot statically infer the expected size of a list in this context'); keep the list, "
                        f"or index it: `(xs[0], xs[1])`",
                    ))
            if qualified == "builtins.range":
                for argument in call.args:
                    if expressions.of(argument.value) == NUMBER:
                        self.events.append(Event(
                            Problem.ITEM_IS_NUMBER, argument.value,
                            "`.item()` returns a number (int or float) to TorchScript, and `range()` needs an int; "
                            "wrap it: `int(....item())`",
                        ))
            if (
                isinstance(call.func, cst.Attribute)
                and call.func.attr.value == "tolist"
                and not call.args
                and expressions.of(call.func.value) == TENSOR
                and call is not annotated
                and id(call) not in hinted
                and not (call is returned and self.annotated_return)
            ):
                self.events.append(Event(
                    Problem.TOLIST_NEEDS_ANNOTATION, call,
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
                filling = self.filling.setdefault(call.func.value.value, _Filling())
                filling.kinds.append(kind)
                if filling.first is None and (kind in SCALARS and kind != TENSOR or (kind is not None and kind.is_list)):
                    filling.first, filling.first_kind = call, kind
            if isinstance(call.func, cst.Attribute) and _takes_tensor_arguments(call.func.attr.value) and (
                expressions.of(call.func.value) == TENSOR
            ):
                for argument in call.args:
                    self._optional_uses(argument.value, "is passed to `." + call.func.attr.value + "()`", expressions)
        self._tensor_params(reads, expressions)
        for attribute in reads.attributes:
            self._optional_uses(attribute.value, f"has its attribute `.{attribute.attr.value}` read", expressions)
        for operation in reads.binary:
            for operand in (operation.left, operation.right):
                self._optional_uses(operand, "is used in arithmetic", expressions)

    def _hint_fails(self, value: cst.BaseExpression, annotation: Type, where: cst.CSTNode,
                    expressions: Expressions) -> bool:
        """A list or dict literal (or comprehension, or `dict([(k, v), ...])`) typed by an annotation: torch takes
        the annotation as the container's type, and rejects one that is not a List (a Dict), or an Optional of one,
        and elements (keys, values) not of its element types (strictly: an int is no float; an Optional takes its
        element or None)."""
        if annotation is None:
            return False
        if (isinstance(value, cst.Call) and expressions.imports.qualify(value.func) == "builtins.dict"
                and len(value.args) == 1 and not value.args[0].keyword and not value.args[0].star
                and isinstance(value.args[0].value, cst.List)):
            wanted = annotation.inner if annotation.is_optional else annotation
            if wanted.is_dict:
                pairs = []
                for element in value.args[0].value.elements:
                    item = element.value if isinstance(element, cst.Element) else None
                    if isinstance(item, cst.Tuple) and len(item.elements) == 2 and all(
                            isinstance(part, cst.Element) for part in item.elements):
                        pairs.append((item.elements[0].value, item.elements[1].value))
                return self._element_mismatch(pairs, wanted, where, expressions, "dict")
            return False
        kind = "List" if isinstance(value, (cst.List, cst.ListComp)) else (
            "Dict" if isinstance(value, (cst.Dict, cst.DictComp)) else None)
        if kind is None:
            return False
        wanted = annotation.inner if annotation.is_optional else annotation
        if wanted.name == kind:
            if isinstance(value, (cst.ListComp, cst.DictComp)):
                bound = {name for clause in _for_clauses(value) for name in target_names(clause.target)}
                expressions = Expressions(expressions.imports,
                                          {k: v for k, v in expressions.env.items() if k not in bound})
            if isinstance(value, cst.List) and wanted.is_list:
                items = [(None, element.value) for element in value.elements if isinstance(element, cst.Element)]
            elif isinstance(value, cst.ListComp) and wanted.is_list:
                items = [(None, value.elt)]
            elif isinstance(value, cst.Dict) and wanted.is_dict:
                items = [(element.key, element.value) for element in value.elements
                         if isinstance(element, cst.DictElement)]
            elif isinstance(value, cst.DictComp) and wanted.is_dict:
                items = [(value.key, value.value)]
            else:
                return False
            return self._element_mismatch(items, wanted, where, expressions, kind.lower())
        self.events.append(Event(
            Problem.ANNOTATED_ASSIGNMENT_MISMATCH, where,
            f"{a(kind.lower())} {'comprehension' if isinstance(value, (cst.ListComp, cst.DictComp)) else 'literal'} "
            f"annotated {annotation} (torch: 'Expected an annotation of type {kind} but got {annotation}'); "
            f"annotate it `{kind}[...]`",
        ))
        return True

    def _element_mismatch(self, items, wanted: TSType, where: cst.CSTNode, expressions: Expressions,
                          what: str) -> bool:
        """(key, value) pairs of a hinted container literal (key None for a list) against its annotation."""
        slots = ((0, "key"), (1, "value")) if wanted.is_dict else ((0, "element"),)
        for key, item in items:
            for (index, role), node in zip(slots, (key, item) if wanted.is_dict else (item,)):
                if node is None:
                    continue
                kind = _hinted_type(node, expressions)
                if kind == NONE and not (isinstance(node, cst.Name) and node.value == "None"):
                    continue
                element = wanted.args[index]
                if (isinstance(node, cst.Name) and _is_optional(kind)
                        and (node.value in self.optional_unchecked or self._optional_local(node.value, where))
                        and element is not None and not element.is_optional and element.fully_known):
                    # an Optional the flow has not refined here: torch types the element as the Optional
                    self.events.append(Event(
                        Problem.ANNOTATED_ASSIGNMENT_MISMATCH, where,
                        f"this {what}'s {role}s must be {_a(element)}, as its annotation {wanted} says, and "
                        f"`{node.value}` is {kind} here (torch: 'Type annotation was inferred to be `{wanted}`, "
                        f"but the type of {role}s given by the {what} literal is {kind}'). Refine it first (`if "
                        f"{node.value} is not None:`), or annotate the {what} with {_a(optional_of(element))}",
                    ))
                    return True
                if mismatches(kind, wanted.args[index], convert=False):
                    self.events.append(Event(
                        Problem.ANNOTATED_ASSIGNMENT_MISMATCH, where,
                        f"this {what}'s {role}s must be {_a(wanted.args[index])}, as its annotation {wanted} says, "
                        f"and one is {_a(kind)}; torch types the {what} by the annotation and rejects it, since it converts "
                        "nothing here. Make the elements that type, or fix the annotation",
                    ))
                    return True
        return False

    def _folded_returns(self) -> set[int]:
        """The returns under an `if` whose test torch may fold while compiling (`isinstance`, `hasattr`, a global,
        an attribute of `self`: any name that is not a local), whose branch may never be compiled."""
        if self._folded is None:
            local = set(self.params) | self._assigned_names() | {"None", "True", "False"}
            local.discard(self.self_name or "")
            find = _FoldedReturns(local)
            walk(self.function.body, find)
            self._folded = find.folded
        return self._folded

    def _assigned_names(self) -> set[str]:
        if self._assigned is None:
            self._assigned = _assigned_names(self.function)
        return self._assigned

    def finish(self) -> None:
        """JIT222: a function annotated to return a value (not None) whose end is reachable. TorchScript's exit
        analysis counts `return`, `raise` and `assert False`; a loop never counts (not even `while True:`), an
        `if` only when both branches exit. Followed only where certain: nothing pruned by the capture, and the
        tests that decide are made of local names alone (none of which torch could fold)."""
        for name in list(self.filling):
            self._filled(name)
        returns = self.comment.returns if self.comment is not None else (
            self.function.returns.annotation if self.function.returns is not None else None)
        if returns is None or (isinstance(returns, cst.Name) and returns.value == "None"):
            return
        if self.ctx.function is not None and self.ctx.function.pruned:
            return
        body = self.function.body
        statements = list(body.body) if isinstance(body, cst.IndentedBlock) else [cst.SimpleStatementLine(body.body)]
        if _is_stub(statements) and not self._compiled_stub(statements):
            return
        local = set(self.params) | self._assigned_names()
        if self.self_name is not None:
            local.discard(self.self_name)
        if _falls_off(statements, local):
            self.events.append(Event(
                Problem.MISSING_RETURN, self.function.name,
                "the end of this function can be reached without a `return`, and it is annotated to return "
                f"{self.returns if self.returns is not None else 'a value'} (torch: 'Function was not annotated as "
                "having type None, but does not return along all paths'); return a value on every path (TorchScript "
                "does not count a loop as returning), or raise",
            ))

    def _filled(self, name: str) -> None:
        """JIT210 for an unannotated `[]` given a non-Tensor: the annotation it needs is the join of every element
        appended while the name held it (a None and Tensors: `List[Optional[Tensor]]`), suggested only when that is
        known: each element's type, and nothing else that fills the list (`extend`, `insert`, a store, `+=`)."""
        filling = self.filling.pop(name, None)
        if filling is None or filling.first is None:
            return
        kind = filling.first_kind
        element = filling.element() if name not in self._filled_otherwise() else None
        where = (f"; annotate it where it starts: `{name}: List[{_spelled(element)}] = []`" if element is not None
                 else "; annotate it where it starts with the type of every element it holds")
        self.events.append(Event(
            Problem.EMPTY_CONTAINER_NEEDS_ANNOTATION, filling.first,
            f"`{name}` starts as an unannotated `[]`, which TorchScript types List[Tensor], and this appends "
            f"{a(kind)}{where}",
        ))

    def _filled_otherwise(self) -> set[str]:
        """Names of the function that something other than `.append(x)` may fill: `.extend`/`.insert`, a subscript
        store, `+=`."""
        if self._filled_other is None:
            found: set[str] = set()

            class Fills(cst.CSTVisitor):
                def visit_Call(self, node: cst.Call) -> None:
                    func = node.func
                    if (isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name)
                            and func.attr.value in ("extend", "insert")):
                        found.add(func.value.value)

                def visit_AssignTarget(self, node: cst.AssignTarget) -> None:
                    if isinstance(node.target, cst.Subscript) and isinstance(node.target.value, cst.Name):
                        found.add(node.target.value.value)

                def visit_AugAssign(self, node: cst.AugAssign) -> None:
                    if isinstance(node.target, cst.Name):
                        found.add(node.target.value)

            walk(self.function, Fills())
            self._filled_other = found
        return self._filled_other

    def _optional_local(self, name: str, where: cst.CSTNode) -> bool:
        """A local declared `name: Optional[T] = None` in the function's own block, read by `where` (a statement of
        that block after the declaration), where torch's type is certainly still the Optional: the name is never
        tested (no `is None`, truth or `isinstance` test: no refinement), and every other assignment is inside an
        `if` of that block without an `else` whose test can be False at run time (`self.training`, an ordering
        comparison, an `and` with one of them), so one path reaches `where` with the declared type, and the join
        of the Optional with any of its subtypes is the Optional (torch 2.13: 'Type annotation was inferred to be
        `Dict[str, Tensor]`, but the type of values given by the dict literal is Optional[Tensor]')."""
        body = self.function.body
        if not isinstance(body, cst.IndentedBlock):
            return False
        statements = list(body.body)
        index = next((i for i, statement in enumerate(statements) if isinstance(statement, cst.SimpleStatementLine)
                      and any(small is where for small in statement.body)), None)
        if index is None:
            return False
        declared = False
        for statement in statements[:index]:
            if isinstance(statement, cst.SimpleStatementLine):
                for small in statement.body:
                    if (isinstance(small, cst.AnnAssign) and isinstance(small.target, cst.Name)
                            and small.target.value == name):
                        kind = annotation_type(small.annotation.annotation, self.imports)
                        if declared or not (kind is not None and kind.is_optional and isinstance(small.value, cst.Name)
                                            and small.value.value == "None"):
                            return False
                        declared = True
                    elif name in _assigned_in(small):
                        return False
            elif name in _assigned_in(statement):
                if not (declared and isinstance(statement, cst.If) and statement.orelse is None
                        and _can_be_false(statement.test, self.self_name)):
                    return False
        return declared and name not in _tested_names(self.function)

    def _compiled_stub(self, statements: list) -> bool:
        """A `pass` or docstring body (no `...`: torch fails on that first, with 'Cannot emit expr for: (dots)') of
        an undecorated method of a module class that is no `@torch.jit.interface`: an abstract `forward` torch
        compiles when that class is scripted, and rejects ('does not return along all paths', at the `def`).
        Declarations (`_overload`, interfaces, `abstractmethod`, protocols) stay silent."""
        info = self.ctx.function.info if self.ctx.function is not None else None
        if info is None or info.cls is None or self.function.decorators or not self.owners:
            return False
        if not self.ctx.project.is_module_class(info.cls):
            return False
        imports = info.cls.module.imports
        for decorator in info.cls.node.decorators:
            expr = decorator.decorator.func if isinstance(decorator.decorator, cst.Call) else decorator.decorator
            if imports.qualify(expr) in ("torch.jit.interface", "typing.runtime_checkable"):
                return False
        for statement in statements:
            for small in statement.body:
                if isinstance(small, cst.Expr) and isinstance(small.value, cst.Ellipsis):
                    return False
        return True

    # -- ints that are indexed (JIT223), Tensor methods that do not exist (JIT224) -------------------------------
    def _scalar_subscripts(self, reads: Reads, expressions: Expressions) -> None:
        for subscript in reads.subscripts:
            kind = expressions.of(subscript.value)
            if kind in (INT, FLOAT, BOOL):
                self.events.append(Event(
                    Problem.NOT_ITERABLE_OR_SUBSCRIPTABLE, subscript,
                    f"this indexes {_a(kind)} (torch: ''{kind}' object is not subscriptable')",
                ))

    def _tensor_attributes(self, reads: Reads, statement: cst.CSTNode, expressions: Expressions) -> None:
        called = {id(call.func) for call in reads.calls}
        kept = statement.value if isinstance(statement, (cst.Assign, cst.AnnAssign)) else None  # `f = x.sum` scripts
        for attribute in reads.attributes:
            kind = expressions.of(attribute.value)
            if kind is not None and kind.is_list and id(attribute) in called:
                name = attribute.attr.value
                if not schemas.list_method_exists(name, kind.element):
                    self.events.append(Event(
                        Problem.UNKNOWN_LIST_METHOD, attribute,
                        f"{a(kind)} has no method `{name}` in TorchScript (torch: \"'{kind}' object has no attribute "
                        f"or method '{name}'\"); lists have `append`, `extend`, `insert`, `pop`, `index`, `count`, "
                        f"... (use `len(...)`, or make it a Tensor first)",
                    ))
                continue
            if kind != TENSOR:
                continue
            name = attribute.attr.value
            if id(attribute) in called:
                if not schemas.tensor_method_exists(name) and name not in _OTHER_RULES_METHODS:
                    self.events.append(Event(
                        Problem.UNKNOWN_TENSOR_METHOD, attribute,
                        f"TorchScript's Tensor has no method `{name}` (torch: ''Tensor' object has no attribute or "
                        f"method '{name}''); it resolves Tensor methods against its operators",
                    ))
            elif attribute is not kept and schemas.is_tensor_method_value(name):
                self.events.append(Event(
                    Problem.UNKNOWN_TENSOR_METHOD, attribute,
                    f"`.{name}` is a Tensor method, used here as a value (torch: 'builtin cannot be used as a value'); "
                    f"call it: `.{name}(...)`",
                ))

    # -- list and dict element types (JIT416) ---------------------------------------------------------------------
    def _container_uses(self, reads: Reads, expressions: Expressions) -> None:
        for subscript in reads.subscripts:
            self._dict_key(subscript, expressions)
        for operation in reads.binary:
            if not isinstance(operation.operator, cst.Add):
                continue
            left, right = expressions.of(operation.left), expressions.of(operation.right)
            if (left is not None and right is not None and left.is_list and right.is_list and left.fully_known
                    and right.fully_known and left != right):
                self.events.append(Event(
                    Problem.NO_MATCHING_OVERLOAD, operation,
                    f"`+` of {a(left)} and {a(right)}: TorchScript concatenates only lists of one element type "
                    "(torch: 'Arguments for call are not valid'); convert the elements first",
                ))
        for call in reads.calls:
            if (self.imports.qualify(call.func) == "torch.jit._unwrap_optional" and len(call.args) == 1
                    and isinstance(call.args[0].value, cst.Name) and call.args[0].value.value == "None"):
                self.events.append(Event(
                    Problem.NO_MATCHING_OVERLOAD, call,
                    "`torch.jit._unwrap_optional(None)`: torch cannot infer the contained type from a None "
                    "(torch: 'aten::_unwrap_optional(t(a)? optional) -> t(a)')",
                ))
        for call in reads.calls:
            func = call.func
            if not (isinstance(func, cst.Attribute) and func.attr.value == "append" and len(call.args) == 1
                    and call.args[0].keyword is None and not call.args[0].star):
                continue
            kind = expressions.of(func.value)
            if kind is None or not kind.is_list or not kind.fully_known:
                continue
            value = _hinted_type(call.args[0].value, expressions)
            if value == NONE and not (isinstance(call.args[0].value, cst.Name) and call.args[0].value.value == "None"):
                continue
            if mismatches(value, kind.element, convert=False):
                self.events.append(Event(
                    Problem.NO_MATCHING_OVERLOAD, call,
                    f"this appends {_a(value)} to {a(kind)}; TorchScript's `list.append` takes only the list's element "
                    f"type (torch: 'aten::append.t(t[](a!) self, t(c -> *) el) -> t[](a!)' ... 'Could not match type "
                    f"{value} to {kind.element}'); convert the value, or change the list's annotation",
                ))

    def _dict_key(self, subscript: cst.Subscript, expressions: Expressions) -> None:
        kind = expressions.of(subscript.value)
        if kind is None or not kind.is_dict or len(subscript.slice) != 1 or not isinstance(
                subscript.slice[0].slice, cst.Index):
            return
        key = subscript.slice[0].slice.value
        key_type = expressions.of(key)
        if key_type == NONE and not (isinstance(key, cst.Name) and key.value == "None"):
            return
        if mismatches(key_type, kind.args[0], convert=True):
            self.events.append(Event(
                Problem.NO_MATCHING_OVERLOAD, subscript,
                f"this indexes {a(kind)} with {_a(key_type)} key; the key must be {_a(kind.args[0])} "
                "(torch: 'Arguments for call are not valid')",
            ))

    # -- tuples (JIT220) ----------------------------------------------------------------------------------------
    def _tuple_store(self, target: cst.Subscript, expressions: Expressions, what: str) -> None:
        kind = expressions.of(target.value)
        if kind is not None and kind.is_tuple:
            self.events.append(Event(
                Problem.TUPLE_MISUSE, target,
                f"a tuple is immutable in TorchScript (torch: '{_tuple_spelled(kind)} does not support {what}'); "
                "build a new tuple, or use a list",
            ))

    def _tuple_uses(self, reads: Reads, statement: cst.CSTNode, expressions: Expressions) -> None:
        """TorchScript's tuple rules: an index must be an int (a literal one unless the elements share one type)
        within the tuple's length; a tuple has no attributes or methods, and no truth value."""
        seen: set[int] = set()  # an augmented assignment's target is read too: reported once
        for subscript in reads.subscripts:
            kind = expressions.of(subscript.value)
            if kind is None or not kind.is_tuple or id(subscript) in seen:
                continue
            if isinstance(statement, cst.AugAssign) and statement.target is subscript:
                continue
            seen.add(id(subscript))
            index = tuple_index(subscript)
            if index is None:
                continue
            spelled, length = _tuple_spelled(kind), len(kind.args)
            if isinstance(index, int):
                if not -length <= index < length:
                    self.events.append(Event(
                        Problem.TUPLE_MISUSE, subscript,
                        f"this tuple has {length} element{'s' if length != 1 else ''} (torch: 'Tuple index out of "
                        f"range. Tuple is length {length} and index is {index}')",
                    ))
                continue
            index_type = expressions.of(index)
            if index_type in (FLOAT, STR, BOOL, NONE, TENSOR) or (index_type is not None and not index_type.is_optional
                                                                   and index_type not in SCALARS | {NUMBER}):
                self.events.append(Event(
                    Problem.TUPLE_MISUSE, subscript,
                    f"a tuple's index is {a(index_type)} here (torch: 'tuple index must be an integer')",
                ))
            elif (
                index_type == INT
                and isinstance(index, cst.Name)
                and kind.fully_known
                and all(element in SCALARS for element in kind.args)
                and len(set(kind.args)) > 1
            ):
                self.events.append(Event(
                    Problem.TUPLE_MISUSE, subscript,
                    f"`{index.value}` is not an int literal, and the elements of this {spelled} have different "
                    f"types, so TorchScript cannot type the result (torch: 'Cannot index into a {spelled} with a "
                    "non-integer literal'); index with a literal, or unpack the tuple",
                ))
        for attribute in reads.attributes:
            kind = expressions.of(attribute.value)
            if kind is not None and kind.is_tuple:
                self.events.append(Event(
                    Problem.TUPLE_MISUSE, attribute,
                    f"a tuple has no attributes or methods in TorchScript (torch: ''{_tuple_spelled(kind)}' object "
                    f"has no attribute or method '{attribute.attr.value}''); a NamedTuple has its fields",
                ))
        tests = [if_expression.test for if_expression in reads.if_expressions]
        if isinstance(statement, (cst.If, cst.While, cst.Assert)):
            tests.append(statement.test)
        for test in tests:
            for operand in _truth_operands(test):
                kind = expressions.of(operand)
                if kind is not None and kind.is_tuple:
                    self.events.append(Event(
                        Problem.TUPLE_MISUSE, operand,
                        f"a tuple has no truth value in TorchScript (torch: 'Could not cast value of type "
                        f"{_tuple_spelled(kind)} to bool'); test `len(...)` or its elements",
                    ))

    def _tolist_hint(self, value: cst.BaseExpression, hint: Type, where: cst.CSTNode,
                     expressions: Expressions) -> None:
        """JIT206: `.tolist()` typed by an annotation whose innermost element is not an int, a float or a bool."""
        if hint is None or not (isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute)
                                and value.func.attr.value == "tolist" and not value.args
                                and expressions.of(value.func.value) == TENSOR):
            return
        element = hint
        while element.is_list:
            element = element.element
        if element in (STR, TENSOR, NONE) or element.is_tuple or element.is_dict or element.is_optional:
            self.events.append(Event(
                Problem.TOLIST_NEEDS_ANNOTATION, where,
                f"`.tolist()` annotated with {hint}: its elements can only be int, float, complex or bool (torch: "
                f"'{element} is not one of the supported element types for tolist'); annotate it "
                "`List[float]` (nested as deep as the tensor's rank)",
            ))

    def _del_slice(self, target: cst.BaseExpression) -> None:
        targets = [element.value for element in target.elements] if isinstance(target, (cst.Tuple, cst.List)) else [target]
        for item in targets:
            if isinstance(item, cst.Subscript) and any(isinstance(element.slice, cst.Slice) for element in item.slice):
                self.events.append(Event(
                    Problem.DELETE_SLICE, item,
                    "TorchScript's `del` takes a single index, not a slice (torch: 'del statements only support "
                    "deletion at a single index, slicing is not supported'); rebuild it: `x = x[:a] + x[b:]`",
                ))

    def _range_enumerate(self, call: cst.Call, name: str, expressions: Expressions) -> None:
        """JIT418: TorchScript's own checks of `range()` and `enumerate()` arguments."""
        if any(argument.star for argument in call.args):
            return
        count, most = len(call.args), 3 if name == "range" else 2
        problem = None
        if count == 0:
            problem = f"{name} expected at least 1 arguments, got 0"
        elif count > most:
            problem = f"{name} expected at most {most} arguments, got {count}"
        elif name == "range":
            for index, argument in enumerate(call.args):
                if expressions.of(argument.value) == FLOAT:
                    problem = f"all inputs of range must be ints, found float in argument {index}"
                    break
        if problem is not None:
            self.events.append(Event(Problem.RANGE_ENUMERATE_ARGUMENTS, call, f"TorchScript rejects this call: '{problem}'"))

    def _id_call(self, call: cst.Call, expressions: Expressions) -> None:
        """JIT405: `id(x)` compiles to `prim::id(AnyClassType? x)`, so only an instance of a TorchScript class (or
        None) has an id; a Tensor, a number, a str or a list does not. Reported only when the type is known."""
        if len(call.args) != 1 or call.args[0].star or call.args[0].keyword is not None:
            return
        kind = expressions.of(call.args[0].value)
        if kind is None or kind == NONE:
            return
        self.events.append(Event(
            Problem.NO_UNSUPPORTED_BUILTIN, call,
            f"TorchScript's `id()` takes only an instance of a TorchScript class (or None), and this is of type {kind} "
            "(torch: \"Expected a value of type 'Optional[AnyClassType]' for argument 'x'\"); compare the values "
            "themselves, or keep this out of compiled code",
        ))

    def _schema_call(self, call: cst.Call, expressions: Expressions) -> None:
        """JIT416: a call of a torch operator (a builtin, a Tensor method, a compiled `torch.nn.functional`
        function) whose arguments no overload of its schema accepts."""
        if any(argument.star for argument in call.args):
            return
        method = False
        self_type: Type = None
        operator = None
        qualified = self.imports.qualify(call.func)
        if qualified is not None:
            operator = schemas.operator_for(qualified)
        elif isinstance(call.func, cst.Attribute) and expressions.of(call.func.value) == TENSOR:
            operator, method, self_type = f"aten::{call.func.attr.value}", True, TENSOR
        candidates = None
        if operator is None:
            candidates = self._declared_overloads(call)
            if candidates is None:
                candidates = self._plain_signature(call)
            if candidates is None:
                return
            operator = candidates[0].operator
        arguments = [
            schemas.Argument(argument.keyword.value if argument.keyword is not None else None,
                             self.union_params.get(argument.value.value) if isinstance(argument.value, cst.Name)
                             and argument.value.value in self.union_params
                             else _argument_type(argument.value, expressions))
            for argument in call.args
        ]
        mismatch = schemas.check_call(operator, arguments, self_type, method, candidates)
        if mismatch is None:
            return
        shown = "; ".join(f"`{overload.signature()}`: {why}" for overload, why in mismatch.reasons[:3])
        more = len(mismatch.reasons) - 3
        callee = qualified or (f"Tensor.{call.func.attr.value}" if method else operator.removeprefix("py::"))
        self.events.append(Event(
            Problem.NO_MATCHING_OVERLOAD, call,
            f"no signature of `{callee}` accepts these arguments (torch: 'Arguments for call are not valid'); "
            f"candidates: {shown}" + (f"; and {more} more" if more > 0 else ""),
        ))

    def _declared_overloads(self, call: cst.Call) -> tuple[schemas.Overload, ...] | None:
        """The `@torch.jit._overload` signatures of the project function a call resolves to, when every
        declaration types all its parameters."""
        found = self.ctx.captured.callee_of(call)
        if found is None:
            return None
        callee, bound = found
        group = overload_group_of(callee)
        if group is None or group.implementation is not callee.node:
            return None
        declared = []
        impl_params = callee.node.params
        if impl_params.star_arg not in (None, cst.MaybeSentinel.DEFAULT) or impl_params.star_kwarg is not None:
            return None
        impl_keyword_only = {id(param) for param in impl_params.kwonly_params}
        impl_types = param_types(callee.node, callee.module.imports, is_method=bool(bound))
        if signature_comment(callee.node) is None:  # unannotated: unknown here, not Tensor
            impl_types = {name: kind for name, kind in impl_types.items() if _param_annotated(callee.node, name)}
        for declaration in group.declarations:
            params = declaration.params
            ordered = _named_params(params)
            if bound and ordered:
                ordered = ordered[1:]
            if params.star_arg not in (None, cst.MaybeSentinel.DEFAULT) or params.star_kwarg is not None:
                return None
            types = param_types(declaration, callee.module.imports, is_method=bool(bound))
            if any(types.get(param.name.value) is None for param in ordered) or (
                signature_comment(declaration) is None and any(param.annotation is None for param in ordered)
            ):
                return None
            # The implementation gives the defaults, and the parameters a declaration leaves out (torch merges them).
            implementation = _named_params(impl_params)
            if bound and implementation:
                implementation = implementation[1:]
            if len(implementation) < len(ordered):
                return None
            merged = []
            for index, param in enumerate(implementation):
                name = ordered[index].name.value if index < len(ordered) else param.name.value
                kind = types[name] if index < len(ordered) else impl_types.get(param.name.value)
                merged.append((name, kind, param.default is not None, id(param) in impl_keyword_only))
            declared.append(schemas.declared_overload(callee.display_name, merged))
        return tuple(declared) or None

    _PLAIN_DECORATORS = frozenset({"builtins.staticmethod", "staticmethod", "torch.jit.export"})

    def _plain_signature(self, call: cst.Call) -> tuple[schemas.Overload, ...] | None:
        """The signature TorchScript compiles a project function with (a module-level function, or a method called on
        `self` by its name), when it is neither overloaded nor decorated: the annotated parameters' types (an int for
        `factor: float` is 'Expected a value of type 'float' for argument 'factor''). The unannotated ones, Tensors
        to torch, are left unknown here: JIT202 reports a non-Tensor passed to them, at the call."""
        found = self.ctx.captured.callee_of(call)
        if found is None:
            return None
        callee, bound = found
        node = callee.node
        if callee.decorators - self._PLAIN_DECORATORS or node.asynchronous is not None:
            return None
        if overload_group_of(callee) is not None:
            return None
        if bound or callee.cls is not None:
            # only `self.<method>(...)` naming the method itself (not a submodule's forward), reached one way
            func = call.func
            if not (isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name)
                    and func.value.value == self.self_name and func.attr.value == node.name.value):
                return None
            reached = getattr(self.ctx.captured, "_callee_candidates", {}).get(id(call), {})
            if len({id(entry[0].node) for entry in reached.values()}) != 1:
                return None  # overrides in subclasses: the signature depends on the class
        params = node.params
        if params.star_arg not in (None, cst.MaybeSentinel.DEFAULT) or params.star_kwarg is not None:
            return None
        is_method = callee.cls is not None and "builtins.staticmethod" not in callee.decorators and (
            "staticmethod" not in callee.decorators)
        if is_method and not bound:
            return None
        ordered = _named_params(params)
        if is_method:
            ordered = ordered[1:]
        types = param_types(node, callee.module.imports, is_method=is_method)
        if signature_comment(node) is None:  # an unannotated (Tensor) parameter given a non-Tensor is JIT202's
            types = {name: kind for name, kind in types.items() if _param_annotated(node, name)}
        keyword_only = {id(param) for param in params.kwonly_params}
        merged = [(param.name.value, types.get(param.name.value), param.default is not None,
                   id(param) in keyword_only) for param in ordered]
        return (schemas.declared_overload(callee.display_name, merged),)

    def _dict_store(self, target: cst.Subscript, value: cst.BaseExpression, expressions: Expressions) -> None:
        if not (isinstance(target.value, cst.Name) and self.empty.get(target.value.value) == "dict"):
            return
        if len(target.slice) != 1 or not isinstance(target.slice[0].slice, cst.Index):
            return
        key, item = expressions.of(target.slice[0].slice.value), expressions.of(value)
        wrong = [f"{a(kind)} {what}" for kind, what, fine in ((key, "key", STR), (item, "value", TENSOR))
                 if kind in SCALARS and kind != fine]
        if wrong:
            name = target.value.value
            self.empty.pop(name)
            self.events.append(Event(
                Problem.EMPTY_CONTAINER_NEEDS_ANNOTATION, target,
                f"`{name}` starts as an unannotated `{{}}`, which TorchScript types Dict[str, Tensor], and this "
                f"stores {' and '.join(wrong)}; annotate it where it starts: "
                f"`{name}: Dict[{_spelled(key) if key else 'str'}, {_spelled(item) if item else 'torch.Tensor'}] = {{}}`",
            ))

    # -- unannotated parameters (Tensor to TorchScript) used as something else ----------------------------------
    def _unannotated_tensor(self, node: cst.BaseExpression, expressions: Expressions) -> str | None:
        if isinstance(node, cst.Name) and node.value in self.unannotated and expressions.of(node) == TENSOR:
            return node.value
        return None

    def _tensor_params(self, reads: Reads, expressions: Expressions) -> None:
        for call in reads.calls:
            qualified = self.imports.qualify(call.func)
            if qualified in ("torch.cat", "torch.stack", "torch.concat", "torch.concatenate") and call.args:
                name = self._unannotated_tensor(call.args[0].value, expressions)
                if name is not None and call.args[0].keyword is None:
                    self.events.append(Event(  # at the call: torch names the call's line
                        Problem.UNANNOTATED_NON_TENSOR_PARAM, call,
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
        compiled = self.ctx.captured.get(callee.node)
        if compiled is not None and not compiled.params_captured:
            return  # an @torch.jit.unused method of a TorchScript class: torch makes every parameter `Any`
        params = callee.node.params
        positional = [*params.posonly_params, *params.params][1 if bound else 0:]
        by_name = {param.name.value: param for param in [*params.params, *params.kwonly_params]}
        for index, argument in enumerate(call.args):
            if argument.keyword is None:
                param = positional[index] if index < len(positional) else None
            else:
                param = by_name.get(argument.keyword.value)
            # An unannotated parameter is a Tensor to TorchScript; with a `None` default too (`Tensor size=None`),
            # which takes only a Tensor: a list, a number, even `None` passed to it fails at the call.
            none_default = param is not None and param.default is not None and _is_none(param.default)
            if param is None or param.annotation is not None or (param.default is not None and not none_default):
                continue
            if signature_comment(callee.node) is not None or implements_overloads(callee):
                return
            if none_default and not self._none_default_everywhere(call, param.name.value):
                continue
            kind = expressions.of(argument.value)
            attribute = self._self_attribute(argument.value)
            if kind is None and attribute == "training" and self._module_training():
                kind = BOOL  # nn.Module's own flag
            elif kind is None and attribute is not None:
                kind = self._attribute_type(attribute)  # `self.patch_size`: the type `__init__` gives it
                if kind is not None and not (kind in _PASSED_SCALARS or kind.is_list):
                    kind = None
            if kind is None and (isinstance(argument.value, (cst.List, cst.ListComp)) or (
                    isinstance(argument.value, cst.Name) and argument.value.value in self._list_locals())):
                spelled = "list"  # a list of unknown element type
            elif kind is not None and kind.is_list and (kind.element is None or kind.element == schemas.MIXED
                                                        or _is_optional(kind.element)):
                spelled = "list"  # of elements of several types or unknown ones: no annotation to advise
            elif kind is not None and (kind in _PASSED_SCALARS or kind.is_list):
                spelled = str(kind)
            elif not none_default and kind is not None and (kind.is_tuple or (kind.is_optional or kind == NONE)
                                                             and self._unrefined(argument.value)) and self._one_callee(call):
                # a value that is no Tensor on some path: a tuple, or an Optional parameter the function has not
                # refined (on the terms JIT704 trusts: never tested or re-bound, or read before it is re-bound)
                name = param.name.value
                advice = (f"refine it first (`if ... is not None:`) or annotate `{name}`" if kind.is_optional
                          else f"annotate it: `{name}: {_spelled(kind)}`" if kind.is_tuple
                          else f"pass a Tensor, or annotate `{name}: Optional[torch.Tensor]`")
                self.events.append(Event(  # at the callee, where torch's error points (the call's first line)
                    Problem.UNANNOTATED_NON_TENSOR_PARAM, call.func,
                    f"`{callee.display_name}` has no annotation on `{name}`, so TorchScript types it as a Tensor, "
                    f"and this passes a value of type {kind} ('Expected a value of type 'Tensor (inferred)' for argument "
                    f"'{name}''); {advice}",
                ))
                continue
            elif _is_none(argument.value):
                spelled = "None"
            else:
                continue
            if (none_default or spelled == "None" or attribute == "training") and is_ignored(callee):
                continue  # what an ignored function is passed is JIT504's
            name = param.name.value
            if spelled == "None":
                advice = f"`{name}: Optional[torch.Tensor]{' = None' if none_default else ''}`"
            elif none_default:
                advice = f"`{name}: Optional[{_spelled(kind) if spelled != 'list' else 'List[...]'}] = None`"
            else:
                advice = f"`{name}: {_spelled(kind) if spelled != 'list' else 'List[...]'}`"
            self.events.append(Event(  # at the call: torch names the call's line, not the argument's
                Problem.UNANNOTATED_NON_TENSOR_PARAM, call,
                f"`{callee.display_name}` has no annotation on `{name}`, so TorchScript types it as a Tensor"
                f"{' (its `None` default included)' if none_default else ''}, and this passes "
                f"{'None' if spelled == 'None' else 'a ' + spelled}; annotate it: {advice}",
            ))

    def _list_locals(self) -> frozenset[str]:
        """Local names every binding of which is `name = [...]` or `name = [... for ...]`: a list wherever the name
        is defined (TorchScript gives a variable one type), whatever its elements (`xl = [t(x) for t in
        self.transition1]`, whose element type the flow does not know)."""
        found = getattr(self, "_list_locals_found", None)
        if found is None:
            values: dict[str, list] = {}
            for binding, target in bindings(self.function.body):
                for name in target_names(target):
                    values.setdefault(name, []).append(binding if isinstance(target, cst.Name) else None)
            lists = set()
            assigned = _AssignedValues()
            walk(self.function.body, assigned)
            params = {param.name.value for param in _named_params(self.function.params)}
            for name, where in values.items():
                if name in params or any(binding is None or not isinstance(binding, cst.AssignTarget)
                                         for binding in where):
                    continue
                if all(isinstance(assigned.values.get(id(binding)), (cst.List, cst.ListComp)) for binding in where):
                    lists.add(name)
            found = self._list_locals_found = frozenset(lists)
        return found

    def _unrefined(self, node: cst.BaseExpression) -> bool:
        return isinstance(node, cst.Name) and (node.value in self.optional_unchecked or id(node) in self.optional_early)

    def _one_callee(self, call: cst.Call) -> bool:
        """Whether the call reaches one function whatever class the compiled code is captured for (a submodule
        attribute of one class, a method no subclass overrides)."""
        reached = getattr(self.ctx.captured, "_callee_candidates", {}).get(id(call), {})
        return len({id(entry[0].node) for entry in reached.values()}) == 1

    def _none_default_everywhere(self, call: cst.Call, name: str) -> bool:
        """Every function the call can reach (a submodule attribute may hold one of several classes) has `name`
        unannotated with a `None` default and no signature comment: which one torch compiles depends on the build."""
        reached = getattr(self.ctx.captured, "_callee_candidates", {}).get(id(call), {})
        for callee, _bound in reached.values():
            if signature_comment(callee.node) is not None:
                return False
            params = callee.node.params
            found = [param for param in _named_params(params)
                     if param.name.value == name]
            if len(found) != 1 or found[0].annotation is not None or found[0].default is None or \
                    not _is_none(found[0].default):
                return False
        return bool(reached)

    def _module_training(self) -> bool:
        """`self.training` is nn.Module's bool flag: in a method of module classes that never assign it."""
        owners = self.ctx.function.owners or []
        return bool(owners) and len(self.owners) == len(owners) and not any(
            self.ctx.project.attributes(owner).get("training") is not None for owner in self.owners)

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

    def _attribute_infos(self, name: str) -> list[AttributeInfo]:
        infos = [self.ctx.project.attributes(owner).get(name) for owner in self.owners]
        return infos if infos and all(info is not None for info in infos) else []

    def _attribute_type(self, name: str) -> Type:
        """The type torch gives `self.<name>`: its class-level annotation, else the one type `__init__` assigns."""
        kinds = set()
        for info in self._attribute_infos(name):
            annotation, init_types = attribute_types(self.ctx.project, info)
            if info.annotation is not None:
                kinds.add(annotation)
            elif len(init_types) == 1 and not info.registered:
                kinds |= init_types
            else:
                return None
        return kinds.pop() if len(kinds) == 1 else None

    def _attribute_assignment(self, target: cst.Attribute, new: Type) -> None:
        name = target.attr.value
        infos = self._attribute_infos(name)
        if not infos or any(info.annotation is not None for info in infos) or new is None or new == NONE:
            return
        current = self._attribute_type(name)
        if current == NONE and (new in SCALARS or (new.is_optional and new.inner in SCALARS)):
            # (an annotation on the assignment in `__init__`, `self.x: Optional[str] = None`, does not count)
            self.events.append(Event(
                Problem.ATTRIBUTE_NONE_NEEDS_OPTIONAL, target,
                f"`self.{name}` is None in `__init__` and has no class-level annotation, so TorchScript types it "
                f"NoneType; assigning {a(new)} here fails. Declare it in the class body: "
                f"`{name}: Optional[{_spelled(new)}]`",
            ))
        elif current in SCALARS and new in SCALARS and current != new:
            self.events.append(Event(
                Problem.ATTRIBUTE_TYPE_CHANGE, target,
                f"`self.{name}` is {a(current)} in `__init__`, and this assigns it {a(new)}; TorchScript fixes an "
                f"attribute's type when it scripts the module. Keep it {a(current)}, or start it as {a(new)}",
            ))

    def _optional_attribute_use(self, node: cst.BaseExpression, how: str) -> None:
        name = self._self_attribute(node)
        if name is None or name in self.reported_optional_attributes:
            return
        infos = self._attribute_infos(name)
        if not infos or not all(info.annotation is not None and _is_optional(
            attribute_types(self.ctx.project, info)[0]
        ) for info in infos):
            return
        self.reported_optional_attributes.add(name)
        self.events.append(Event(
            Problem.OPTIONAL_ATTRIBUTE_NO_LOCAL_REFINE, node,
            f"`self.{name}` is declared Optional and {how}; TorchScript never refines an attribute, even inside "
            f"`if self.{name} is not None:`. Copy it to a local first: `{name} = self.{name}`, then test "
            f"`if {name} is not None:`",
        ))

    def _optional_uses(self, node: cst.BaseExpression, how: str, expressions: Expressions) -> None:
        """An Optional parameter (JIT704) or an Optional attribute (JIT611) used as a value."""
        self._optional_use(node, how, expressions)
        self._optional_attribute_use(node, how)

    def _optional_use(self, node: cst.BaseExpression, how: str, expressions: Expressions) -> None:
        if not (isinstance(node, cst.Name) and (node.value in self.optional_unchecked or id(node) in self.optional_early)):
            return
        kind = expressions.of(node)
        if not (_is_optional(kind) or kind == NONE):
            return  # refined here by an `is not None` test, an `assert`, or an early exit
        if node.value in self.reported_optional:
            return
        self.reported_optional.add(node.value)
        self.events.append(Event(
            Problem.OPTIONAL_USED_WITHOUT_REFINE, node,
            f"`{node.value}` is Optional here and {how}; TorchScript rejects that until it is refined. "
            f"Test it first: `if {node.value} is not None:` (or `assert {node.value} is not None`)",
        ))

    def _return(self, node: cst.Return, expressions: Expressions) -> None:
        value = node.value
        is_none = value is None or (isinstance(value, cst.Name) and value.value == "None")
        if is_none and self.returns is not None and self.returns != NONE and not self.returns.is_optional:
            self.events.append(Event(
                Problem.RETURN_TYPE_MISMATCH, node,
                f"the function is annotated to return {self.returns}, but this returns None; TorchScript rejects "
                f"it. Annotate the return as `Optional[{_spelled(self.returns)}]`",
            ))
        elif not is_none and self.annotated_return and value is not None and id(node) not in self._folded_returns():
            kind = _hinted_type(value, expressions)
            if kind == NONE or self.returns is None or self.returns == NONE:
                pass  # a variable left None by a rejected assignment; an annotation this model does not read
            elif mismatches(kind, self.returns, convert=True):
                self.events.append(Event(
                    Problem.RETURN_TYPE_MISMATCH, node,
                    f"the function is annotated to return {self.returns}, but this returns {_a(kind)} (torch: 'Return "
                    f"value was annotated as having type {self.returns} but is actually of type {kind}'); return "
                    "that type, or fix the annotation",
                ))
        if self.annotated_return:
            return
        if isinstance(value, cst.Tuple) and not any(isinstance(e, cst.StarredElement) for e in value.elements):
            shape = f"a tuple of {len(value.elements)}"
        else:
            kind = expressions.of(value) if value is not None else NONE
            if kind not in (TENSOR, INT, FLOAT, STR, BOOL):
                return
            shape = a(kind)
        for previous, previous_shape in self.return_shapes:
            if previous_shape != shape and (previous_shape.startswith("a tuple") or shape.startswith("a tuple")):
                self.events.append(Event(
                    Problem.TUPLE_RETURN_ARITY_MISMATCH, node,
                    f"this returns {shape}, but an earlier return returns {previous_shape}; TorchScript needs one "
                    f"return type. Return the same shape everywhere",
                ))
                break
        self.return_shapes.append((node, shape))


_PASSED_SCALARS = frozenset({INT, FLOAT, STR, BOOL})
# Tensor methods other rules report with their own advice (JIT401 `.numpy()`, JIT403 `.new()`, JIT410 autograd).
_OTHER_RULES_METHODS = frozenset({"numpy"}) | unsupported("tensor-method") | unsupported("autograd-method")
_LIST_ELEMENTS = frozenset({TENSOR, INT, FLOAT, BOOL, STR})


def _union_params(function: cst.FunctionDef, ctx: RuleContext) -> dict[str, TSType]:
    """The parameters annotated `Union[A, B, ...]` (no None among them), directly or through a module-level alias
    (`_int_tuple_2_t = Union[int, Tuple[int, int]]`, in this file or imported from another of the project), that
    the function neither re-binds nor tests with `isinstance`: torch passes them on as the Union."""
    params = function.params
    candidates = {param.name.value: param.annotation.annotation
                  for param in _named_params(params)
                  if param.annotation is not None}
    if not candidates:
        return {}
    imports = ctx.module.imports
    found: dict[str, TSType] = {}
    for name, annotation in candidates.items():
        node, where = _alias_target(annotation, ctx)
        members = None
        if isinstance(node, cst.Subscript) and where.qualify(node.value) == "typing.Union":
            members = [element.slice.value for element in node.slice if isinstance(element.slice, cst.Index)]
        elif isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.BitOr):
            members, stack = [], [node]
            while stack:
                part = stack.pop()
                if isinstance(part, cst.BinaryOperation) and isinstance(part.operator, cst.BitOr):
                    stack += [part.right, part.left]
                else:
                    members.append(part)
        if not members:
            continue
        kinds = [annotation_type(member, where) for member in members]
        if any(kind is None or kind == NONE for kind in kinds) or len(set(kinds)) < 2:
            continue
        found[name] = TSType("Union", tuple(kinds))
    if not found:
        return {}
    for name in _assigned_names(function) | _isinstance_tested(function, imports):
        found.pop(name, None)
    return found


def _alias_target(annotation: cst.BaseExpression, ctx: RuleContext):
    """An annotation, or the value of the module-level alias it names, with the imports to read it with."""
    module = ctx.module
    if isinstance(annotation, cst.Name):
        value = module.globals.get(annotation.value)
        if isinstance(value, (cst.Subscript, cst.BinaryOperation)):
            return value, module.imports
        target = module.imports.aliases.get(annotation.value)
        if target is not None:
            source, _, attr = target.rpartition(".")
            other = ctx.project.module(source)
            value = other.globals.get(attr) if other is not None else None
            if isinstance(value, (cst.Subscript, cst.BinaryOperation)):
                return value, other.imports
    return annotation, module.imports


def _isinstance_tested(function: cst.FunctionDef, imports) -> set[str]:
    names: set[str] = set()

    class Find(cst.CSTVisitor):
        def visit_Call(self, node: cst.Call) -> None:
            if (imports.qualify(node.func) in ("builtins.isinstance", "torch.jit.isinstance") and node.args
                    and isinstance(node.args[0].value, cst.Name)):
                names.add(node.args[0].value.value)

    walk(function, Find())
    return names


def _argument_type(value: cst.BaseExpression, expressions: Expressions) -> Type:
    """An argument's type for schema matching: `Expressions`' type, and for a list literal its element type
    (`schemas.MIXED` when elements of known types differ: TorchScript types `[0, n]` with a Tensor `n`
    `List[Union[Tensor, int]]`, which no `List[int]` parameter takes)."""
    if isinstance(value, cst.List) and value.elements:
        kinds = set()
        for element in value.elements:
            if not isinstance(element, cst.Element):
                return None
            kind = expressions.of(element.value)
            if kind not in _LIST_ELEMENTS and kind != NONE:
                return None
            kinds.add(kind)
        none = NONE in kinds
        kinds.discard(NONE)
        if not kinds:
            return None  # `[None]`: not followed
        if len(kinds) > 1:
            return list_of(schemas.MIXED)
        kind = kinds.pop()
        return list_of(optional_of(kind) if none else kind)  # `[x, None]` is a List[Optional[Tensor]]
    kind = expressions.of(value)
    if kind == NONE and isinstance(value, cst.Name) and value.value != "None":
        return None  # a variable left None after an assignment torch rejected (JIT703): do not cascade
    return kind


def _takes_tensor_arguments(method: str) -> bool:
    """Tensor methods whose Tensor arguments cannot be None (the Optional must be refined first)."""
    facts = TENSOR_METHODS.get(method)
    return facts is not None and facts.tensor_arguments


def _is_none(node: cst.BaseExpression) -> bool:
    return isinstance(node, cst.Name) and node.value == "None"


def _is_optional(kind: Type) -> bool:
    return kind is not None and kind.is_optional


def _empty_container(value: cst.BaseExpression, imports) -> str | None:
    if isinstance(value, cst.List) and not value.elements:
        return "list"
    if isinstance(value, cst.Dict) and not value.elements:
        return "dict"
    if isinstance(value, cst.Call) and not value.args:
        return {"builtins.list": "list", "builtins.dict": "dict"}.get(imports.qualify(value.func) or "")
    return None


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


def _binary_of(operator: cst.BaseAugOp) -> cst.BaseBinaryOp:
    name = type(operator).__name__.removesuffix("Assign")
    return getattr(cst, name)()


def _optional(first: Type, second: Type) -> Type:
    if first == NONE and second not in (None, NONE):
        return optional_of(second)
    if second == NONE and first not in (None, NONE):
        return optional_of(first)
    return None


_CONTAINER_CLASSES = frozenset({"torch.nn.ModuleList", "torch.nn.Sequential", "torch.nn.modules.container.ModuleList",
                                "torch.nn.modules.container.Sequential"})


def _static_length(info: AttributeInfo) -> int | None:
    """How many modules a ModuleList or Sequential attribute holds after `__init__`, when every assignment says so
    plainly (`nn.ModuleList([a, b])`, `nn.ModuleList([Block() for _ in range(4)])`, `nn.Sequential(a, b)`) and
    nothing adds to it."""
    if info.filled_in_init or info.assigned_in - {"__init__"} or not info.init_values or info.registered:
        return None
    lengths = set()
    for value in info.init_values:
        node = value.node
        if not isinstance(node, cst.Call) or value.imports.qualify(node.func) not in _CONTAINER_CLASSES:
            return None
        if any(argument.star or argument.keyword for argument in node.args):
            return None
        kind = value.imports.qualify(node.func).rsplit(".", 1)[-1]
        if kind == "Sequential":
            if len(node.args) == 1 and not isinstance(node.args[0].value, (cst.Call, cst.Name, cst.Attribute)):
                return None
            if any(not isinstance(argument.value, cst.Call) for argument in node.args):
                return None  # a name may hold an OrderedDict, or a list to unpack
            lengths.add(len(node.args))
            continue
        if len(node.args) != 1:
            return None
        items = node.args[0].value
        if isinstance(items, cst.List) and all(isinstance(element, cst.Element) for element in items.elements):
            lengths.add(len(items.elements))
        elif (isinstance(items, cst.ListComp) and items.for_in.inner_for_in is None and not items.for_in.ifs
              and isinstance(items.for_in.iter, cst.Call) and value.imports.qualify(items.for_in.iter.func)
              == "builtins.range" and len(items.for_in.iter.args) == 1
              and isinstance(items.for_in.iter.args[0].value, cst.Integer)):
            lengths.add(int(items.for_in.iter.args[0].value.value))
        else:
            return None
    return lengths.pop() if len(lengths) == 1 else None


def _for_clauses(node: cst.ListComp | cst.DictComp) -> list[cst.CompFor]:
    clauses, clause = [], node.for_in
    while clause is not None:
        clauses.append(clause)
        clause = clause.inner_for_in
    return clauses


def _assigned_in(node: cst.CSTNode) -> set[str]:
    """The names a statement binds anywhere inside it (assignments, loop and `with` targets, walrus, `del`, the
    names of nested definitions, not what their bodies bind)."""
    return bound_names(node, (*ASSIGNMENTS, cst.WithItem, cst.NamedExpr, cst.Del, DEFINITION), into_functions=False)


def _tested_names(function: cst.FunctionDef) -> set[str]:
    """Names that appear in a test of an `if`, `while`, `assert` or if-expression, in any comparison, or as the
    first argument of `isinstance`: anything torch might refine."""
    found: set[str] = set()

    class Names(cst.CSTVisitor):
        def visit_Name(self, n: cst.Name) -> None:
            found.add(n.value)

    class Collect(cst.CSTVisitor):
        def _add(self, test: cst.CSTNode) -> None:
            walk(test, Names())

        def visit_If(self, n: cst.If) -> None:
            self._add(n.test)

        def visit_While(self, n: cst.While) -> None:
            self._add(n.test)

        def visit_Assert(self, n: cst.Assert) -> None:
            self._add(n.test)

        def visit_IfExp(self, n: cst.IfExp) -> None:
            self._add(n.test)

        def visit_Comparison(self, n: cst.Comparison) -> None:
            self._add(n)

        def visit_Call(self, n: cst.Call) -> None:
            if isinstance(n.func, cst.Name) and n.func.value == "isinstance" and n.args:
                self._add(n.args[0].value)

    walk(function.body, Collect())
    return found


def _can_be_false(test: cst.BaseExpression, self_name: str | None) -> bool:
    """A test torch never folds to True: `self.training` (a run-time flag), an ordering comparison, `not` of
    `self.training`, or an `and` with one of them."""
    if isinstance(test, cst.BooleanOperation) and isinstance(test.operator, cst.And):
        return _can_be_false(test.left, self_name) or _can_be_false(test.right, self_name)
    if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
        test = test.expression
        return _is_training(test, self_name)
    if _is_training(test, self_name):
        return True
    return isinstance(test, cst.Comparison) and all(
        isinstance(target.operator, (cst.LessThan, cst.GreaterThan, cst.LessThanEqual, cst.GreaterThanEqual))
        for target in test.comparisons)


def _is_training(node: cst.BaseExpression, self_name: str | None) -> bool:
    return (self_name is not None and isinstance(node, cst.Attribute) and isinstance(node.value, cst.Name)
            and node.value.value == self_name and node.attr.value == "training")


def _is_stub(statements: list) -> bool:
    """A body of a docstring, `...` or `pass` alone (a declaration: torch reports something else, or nothing)."""
    for statement in statements:
        if not isinstance(statement, cst.SimpleStatementLine):
            return False
        for small in statement.body:
            if isinstance(small, cst.Pass):
                continue
            if isinstance(small, cst.Expr) and isinstance(small.value, (cst.Ellipsis, cst.SimpleString,
                                                                         cst.ConcatenatedString)):
                continue
            return False
    return True


class _FoldedReturns(cst.CSTVisitor):
    """The returns in the branches of an `if` whose test is not a runtime test of the `local` names."""

    def __init__(self, local: set[str]) -> None:
        self.local = local
        self.folded: set[int] = set()

    def visit_If(self, node: cst.If) -> None:
        if not _runtime_test(node.test, self.local):
            for suite in (node.body, node.orelse):
                if suite is not None:
                    walk(suite, _Returns(self.folded))


class _Returns(cst.CSTVisitor):
    def __init__(self, found: set[int]) -> None:
        self.found = found

    def visit_Return(self, node: cst.Return) -> None:
        self.found.add(id(node))


def _assigned_names(function: cst.FunctionDef) -> set[str]:
    return bound_names(function.body, ASSIGNMENTS)


def _exits(small: cst.BaseSmallStatement) -> bool:
    if isinstance(small, (cst.Return, cst.Raise)):
        return True
    return isinstance(small, cst.Assert) and isinstance(small.test, cst.Name) and small.test.value == "False"


def _falls_off(statements, local: set[str]) -> bool | None:
    """Whether the end of these statements is reachable, as TorchScript's exit analysis sees it (None: unknown)."""
    for statement in statements:
        if isinstance(statement, (cst.SimpleStatementLine, cst.SimpleStatementSuite)):
            if any(_exits(small) for small in statement.body):
                return False
        elif isinstance(statement, cst.If):
            falls = _if_falls_off(statement, local)
            if falls is not True:
                return falls
        elif isinstance(statement, cst.With):
            falls = _falls_off(_suite(statement.body), local)
            if falls is not True:
                return falls
        elif isinstance(statement, (cst.For, cst.While, cst.FunctionDef, cst.ClassDef)):
            continue  # a loop may run no iteration, as torch sees it
        else:
            return None  # try, match, ...: not followed
    return True


def _if_falls_off(node: cst.If, local: set[str]) -> bool | None:
    if not _runtime_test(node.test, local):
        return None
    body = _falls_off(_suite(node.body), local)
    if node.orelse is None:
        orelse: bool | None = True
    elif isinstance(node.orelse, cst.If):
        orelse = _if_falls_off(node.orelse, local)
    else:
        orelse = _falls_off(_suite(node.orelse.body), local)
    if body is None or orelse is None:
        return None
    return body or orelse


def _suite(suite) -> list:
    return list(suite.body) if isinstance(suite, cst.IndentedBlock) else [suite]


def _runtime_test(test: cst.BaseExpression, local: set[str]) -> bool:
    """A test torch cannot fold while compiling: every name it reads is a local or a parameter (not `self`, a
    global, a builtin like `isinstance`, or `None`)."""
    names = Reads.of(test).names
    return bool(names) and all(name.value in local for name in names) and not _has_scope(test)


class _Scopes(cst.CSTVisitor):
    """Whether an expression holds a lambda, a list comprehension or a generator expression."""

    found = False

    def visit_Lambda(self, node: cst.Lambda) -> bool:
        self.found = True
        return False

    def visit_ListComp(self, node: cst.ListComp) -> bool:
        self.found = True
        return False

    def visit_GeneratorExp(self, node: cst.GeneratorExp) -> bool:
        self.found = True
        return False


def _has_scope(node: cst.CSTNode) -> bool:
    scopes = _Scopes()
    walk(node, scopes)
    return scopes.found


def _hinted_type(node: cst.BaseExpression, expressions: Expressions) -> Type:
    """A value's type where an annotation is a hint for it: a list, dict or set literal (or comprehension) takes
    the annotation's type, so it is unknown here; a tuple literal's elements are typed one by one."""
    if isinstance(node, (cst.List, cst.Dict, cst.Set, cst.ListComp, cst.DictComp, cst.SetComp, cst.GeneratorExp)):
        return None
    if isinstance(node, cst.Tuple):
        if not node.elements or not all(isinstance(element, cst.Element) for element in node.elements):
            return None
        return tuple_of(_hinted_type(element.value, expressions) for element in node.elements)
    if isinstance(node, cst.Call) and expressions.imports.qualify(node.func) in ("builtins.list", "builtins.dict"):
        return None
    return expressions.of(node)


def _a(kind: TSType) -> str:
    return a(kind)


def _tuple_spelled(kind: TSType) -> str:
    return str(kind) if kind.fully_known else "Tuple"


def _truth_operands(test: cst.BaseExpression) -> list[cst.BaseExpression]:
    """The values a condition tests for truth: through `not`, `and` and `or`."""
    if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
        return _truth_operands(test.expression)
    if isinstance(test, cst.BooleanOperation):
        return _truth_operands(test.left) + _truth_operands(test.right)
    return [test]


def _spelled(kind: TSType) -> str:
    if kind.is_optional:
        return f"Optional[{_spelled(kind.inner)}]"
    if kind.is_list:
        return f"List[{_spelled(kind.element)}]"
    return "torch.Tensor" if kind == TENSOR else str(kind)


@dataclass
class _Filling:
    """What is appended to an unannotated `[]`: the first element that is not a Tensor, and every element's type
    (None: not known)."""

    first: cst.Call | None = None
    first_kind: TSType | None = None
    kinds: list = field(default_factory=list)

    def element(self) -> TSType | None:
        """The element type every appended value fits (T, or Optional[T] when Nones are appended too), or None."""
        kinds = set(self.kinds)
        if None in kinds or not all(kind in SCALARS or kind.is_list for kind in kinds):
            return None
        if not all(kind.fully_known for kind in kinds):
            return None
        values = kinds - {NONE}
        if len(values) > 1:
            return None
        if not values:
            return NONE
        value = values.pop()
        return optional_of(value) if NONE in kinds else value


class _AssignedValues(cst.CSTVisitor):
    """The value each `AssignTarget` of an assignment receives, by the target's id."""

    def __init__(self) -> None:
        self.values: dict[int, cst.BaseExpression] = {}

    def visit_Assign(self, node: cst.Assign) -> None:
        for target in node.targets:
            self.values[id(target)] = node.value
