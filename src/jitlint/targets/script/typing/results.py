"""What the typer finds, as data: each result names the node torch would point at and the types involved. The rules
read these (each its own kinds) and word their messages and build their fixes; nothing here is worded for a user.

Expression results come from `checkexpr` (and `calls`), statement results from `checker`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

import libcst as cst

from jitlint.targets.script.typing.calls import Overload, Rejection
from jitlint.targets.script.typing.types import Type


@dataclass(frozen=True, eq=False)
class Result:
    """A problem torch's frontend reports at `node` (or, for a deferred one, where the name is read)."""

    node: cst.CSTNode


# -- calls ---------------------------------------------------------------------------------------------------------
@dataclass(frozen=True, eq=False)
class CallArgument:
    node: cst.BaseExpression
    keyword: str | None
    type: Type | None


@dataclass(frozen=True, eq=False)
class NoMatchingCall(Result):
    """No overload of what is called accepts the arguments ("Arguments for call are not valid"). `callee` is what
    the source calls (`torch.cat`, `Tensor.view`, `+`, a project function's name), `receiver` the type of a method's
    receiver, `rejections` each overload with why it rejects the call (the pass with conversions)."""

    callee: str
    rejections: tuple[tuple[Overload, Rejection], ...]
    arguments: tuple[CallArgument, ...]  # one per argument matched (`args`), in order
    receiver: Type | None = None
    operator: str | None = None  # the operator symbol of `a + b`, `-a`, `x in y`
    project_function: object = None  # the FunctionInfo of a compiled project function called
    candidates: tuple[Overload, ...] = ()
    args: tuple = ()  # the `calls.Arg`s matched
    receiver_node: cst.BaseExpression | None = None  # a method's receiver (`x` of `x.sum()`)

    def argument_node(self, index: int | None) -> cst.BaseExpression | None:
        """The node of the matched argument `index` (-1: the receiver)."""
        if index is None:
            return None
        if index == -1:
            return self.receiver_node
        return self.arguments[index].node if 0 <= index < len(self.arguments) else None

    def rematch(self, index: int, kind: Type | None) -> bool:
        """Whether some overload would accept the call with argument `index` (-1: the receiver) of type `kind`."""
        return self.rematch_all({index: kind})

    def rematch_all(self, changed: dict[int, Type | None]) -> bool:
        """Whether some overload would accept the call with these arguments (-1: the receiver) of these types."""
        from dataclasses import replace as _replace

        from jitlint.targets.script.typing.calls import match_overloads

        args = list(self.args)
        receiver = self.receiver if self.receiver_node is not None else False
        for index, kind in changed.items():
            if index == -1:
                receiver = kind
            elif 0 <= index < len(args):
                args[index] = _replace(args[index], type=kind)
            else:
                return False
        return match_overloads(self.candidates, args, receiver).status != "no"


@dataclass(frozen=True, eq=False)
class StarredList(Result):
    """`f(*xs)` where `xs` is a list: torch cannot know how many arguments it passes ('cannot statically infer the
    expected size of a list in this context')."""

    type: Type


@dataclass(frozen=True, eq=False)
class NotCallable(Result):
    """Something is called that torch cannot call ('cannot call a value of type ...')."""

    type: Type


@dataclass(frozen=True, eq=False)
class RangeArguments(Result):
    """`range()`/`enumerate()` with the wrong number of arguments, or a float given to `range()`."""

    function: str
    count: int
    most: int
    wrong_argument: int | None = None  # the index of an argument that is no int
    wrong_type: Type | None = None  # its type (a float, a number, a Tensor)
    wrong_node: cst.BaseExpression | None = None


@dataclass(frozen=True, eq=False)
class SpecialFormArguments(Result):
    """A special form of the frontend (`isinstance`, `getattr`, `tuple()`, `torch.jit.fork`, `torch._check`,
    `slice()`, a module container's `items()` ...) given a number of arguments outside [`least`, `most`] (`most`
    None: no bound), or a keyword it does not take (`keyword`: the keyword; `twice`: given twice; `missing`: a
    required argument not given)."""

    form: str
    count: int
    least: int
    most: int | None
    keyword: str | None = None  # (with `missing` "constant": the boolean-dispatch argument that is not constant)
    twice: bool = False
    missing: str | None = None


@dataclass(frozen=True, eq=False)
class HasattrSubject(Result):
    """`hasattr(value, "name")` of a value that is neither an object nor a NamedTuple (`SimpleValue::hasAttr`):
    a plain tuple, a Tensor, a number, a list..."""

    type: Type


@dataclass(frozen=True, eq=False)
class IdOfValue(Result):
    """`id(x)` of a value that is no TorchScript class instance (`prim::id(AnyClassType? x)`)."""

    type: Type


# -- attributes, subscripts, iteration ------------------------------------------------------------------------------
@dataclass(frozen=True, eq=False)
class NoAttribute(Result):
    """`value.name` where the value's type has no such attribute or method ("'T' object has no attribute or
    method 'name'")."""

    owner: Type
    name: str
    called: bool  # `value.name(...)`


@dataclass(frozen=True, eq=False)
class MethodAsValue(Result):
    """A builtin method used as a value (`x.sum`, not called): 'builtin cannot be used as a value'."""

    owner: Type
    name: str


@dataclass(frozen=True, eq=False)
class DeleteUndefined(Result):
    """`del name` where the function's own block does not bind `name` (`Environment::removeVar` finds a name only
    in the outermost block: one bound only inside a loop or an `if` is "undefined value")."""

    name: str


@dataclass(frozen=True, eq=False)
class SugaredMisuse(Result):
    """A name that holds no first-class value (a builtin function, a compiled function, a Python module, a
    module-level Python value, `SugaredValue` in torch) used where torch needs one: `use` is "value" (`asValue`:
    an argument, an operand, a display element, a returned value), "iterable", "attribute" (an attribute read),
    "attribute-assignment", "subscript" or "tuple" (unpacked). `kind` is the typer's kind of it ("builtin",
    "function", "python-module", "python-value"), `name` its qualified name."""

    kind: str
    name: str
    use: str


@dataclass(frozen=True, eq=False)
class SugaredReassign(Result):
    """An inner block re-binds a name an enclosing block bound, where one of the two values is no first-class value
    (`setSugaredVar`: "Cannot re-assign ..."): `previous_kind` is the enclosing value's sugared kind (None: it was a
    first-class value), `value_kind` the new one's."""

    name: str
    previous_kind: str | None
    value_kind: str | None
    previous: Type | None = None
    value: Type | None = None


@dataclass(frozen=True, eq=False)
class NotSubscriptable(Result):
    type: Type


@dataclass(frozen=True, eq=False)
class NotIterable(Result):
    type: Type


TupleProblem = Literal["range", "index-type", "non-literal", "assign", "aug-assign", "truth", "attribute", "slice-bound"]


@dataclass(frozen=True, eq=False)
class TupleMisuse(Result):
    """A tuple used in a way its fixed element types forbid: an index out of `range` (`index`), an index that is
    no int (`index-type`), a variable index into elements of different types (`non-literal`), an item assigned
    (`assign`, `aug-assign`), tested for truth (`truth`), an attribute read (`attribute`, `name`)."""

    type: Type
    problem: TupleProblem
    index: int | None = None
    index_type: Type | None = None
    name: str | None = None


@dataclass(frozen=True, eq=False)
class NoTruthValue(Result):
    """A condition of a type torch cannot make a bool of ('Could not cast value of type T to bool')."""

    type: Type


# -- literals and hints ---------------------------------------------------------------------------------------------
@dataclass(frozen=True, eq=False)
class TernaryMismatch(Result):
    """An if-expression whose branches do not join ("if-expression's true branch has type A but false branch has
    type B")."""

    body: Type
    orelse: Type


@dataclass(frozen=True, eq=False)
class HintMismatch(Result):
    """A list or dict display (or comprehension) typed by an annotation it does not fit: a display of another kind
    (`expected` is the kind the annotation is not), or an element (`role`: element, key, value) of type `value`
    where the annotation's `wanted` is required. `optional_name` names an unrefined Optional variable given."""

    annotation: Type
    kind: Literal["list", "dict"]
    comprehension: bool
    role: str | None = None
    wanted: Type | None = None
    value: Type | None = None
    optional_name: str | None = None


@dataclass(frozen=True, eq=False)
class TolistWithoutHint(Result):
    """`.tolist()` whose result no annotation types ('Expected type hint for result of tolist()')."""


@dataclass(frozen=True, eq=False)
class TolistBadHint(Result):
    """`.tolist()` annotated with a type whose innermost element torch cannot produce."""

    hint: Type
    element: Type


@dataclass(frozen=True, eq=False)
class NumberWhereNeeded(Result):
    """`.item()` (a number) used where an int or a float is needed: an annotated variable, `range()`."""

    where: Literal["annotation", "range"]
    wanted: Type | None = None


@dataclass(frozen=True, eq=False)
class UnwrapNone(Result):
    """`torch.jit._unwrap_optional(None)`."""


# -- names and statements --------------------------------------------------------------------------------------------
@dataclass(frozen=True, eq=False)
class VariableTypeChange(Result):
    """A variable of an enclosing block assigned a value of another type in a branch or loop ("Variable 'x'
    previously had type A but is now being assigned to a value of type B")."""

    name: str
    previous: Type
    new: Type
    augmented: bool = False


@dataclass(frozen=True, eq=False)
class ClassProblem(Result):
    """A TorchScript class (or Enum) used in a way torch rejects: instantiated without an `__init__` ("no-init"), a
    class-level attribute read through an instance ("class-attribute"), an unknown attribute of the class object
    ("class-lookup"), a member an Enum lacks ("enum-member"), a property without setter assigned ("read-only"), an
    attribute first assigned inside a block of `__init__` ("first-in-block"), `del` of an item of a class without
    `__delitem__` ("no-delitem"), an augmented assignment with no magic method ("augmented": `name` is the operator),
    a `__bool__` that does not return a bool ("bool-return"), a context manager without `__enter__`/`__exit__`
    ("with-methods") or with the wrong signatures ("with-enter", "with-exit", "with-exit-any")."""

    cls: str
    problem: str
    name: str | None = None
    type: Type | None = None


@dataclass(frozen=True, eq=False)
class ValueProblem(Result):
    """A value of a type torch cannot use so: raised though no exception ("raise"), the item of a `with` though no
    object ("with"), an attribute assigned on a value that is no class instance ("set-attribute": `name`)."""

    problem: str
    type: Type
    name: str | None = None


@dataclass(frozen=True, eq=False)
class AttributeUnconvertible(Result):
    """`self.name` read in compiled code where `__init__` stores a value torch cannot convert to a TorchScript type
    (`reason`: "set", "ndarray", "generator", "mixed-dict" keys or values of several types, "list-element" a list
    of such values): "Module has no attribute ... failed to convert Python type"."""

    name: str
    reason: str


@dataclass(frozen=True, eq=False)
class TargetProblem(Result):
    """An assignment, loop or `del` target the frontend does not take: a list display as the whole target of an
    assignment ("list-assign"), a list display inside a tuple target or as a loop target ("list-target"), an
    attribute deleted ("del-attribute")."""

    problem: Literal["list-assign", "list-target", "del-attribute"]


@dataclass(frozen=True, eq=False)
class UnionCandidates(Result):
    """A list or dict display typed by a Union annotation with several List (Dict) members: an empty one
    (`found` None) cannot choose; a non-empty one whose elements (`found`: their unified type) fit none."""

    hint: Type
    kind: Literal["list", "dict"]
    found: Type | None = None


@dataclass(frozen=True, eq=False)
class DictKeyProblem(Result):
    """Keys of a dict display or comprehension torch cannot make a dict of: of a type no dict takes
    ("unsupported": a tuple, a list...), a Union key from a comprehension ("union"), or keys of another type than
    the first's from a comprehension over a tuple ("changes")."""

    problem: Literal["unsupported", "union", "changes"]
    key: Type
    other: Type | None = None


@dataclass(frozen=True, eq=False)
class AnnotateMismatch(Result):
    """`torch.jit.annotate(T, value)` with a value that does not convert to T ("expected an expression of type T but
    found U")."""

    annotation: Type
    value: Type


@dataclass(frozen=True, eq=False)
class AnnotatedMismatch(Result):
    """`x: T = value` with a value that is no T (`value`), or an inner block re-annotating a variable of an outer
    one (`reannotated`)."""

    name: str
    annotation: Type | None
    value: Type | None = None
    reannotated: bool = False


@dataclass(frozen=True, eq=False)
class BranchMismatch(Result):
    """A variable first set in both branches of an `if` to types that do not join, read after it (`node` is the
    `if`'s test)."""

    name: str
    true_type: Type
    false_type: Type


@dataclass(frozen=True, eq=False)
class OneBranch(Result):
    """A variable first set in one branch of an `if` only, read after it (`node` is the `if`'s test)."""

    name: str
    in_body: bool
    statement: cst.If | None = None


@dataclass(frozen=True, eq=False)
class LoopOnly(Result):
    """A variable first set inside a loop, read after it (`node` is the read)."""

    name: str
    loop: cst.CSTNode | None = None


@dataclass(frozen=True, eq=False)
class NoneThenValue(Result):
    """A variable set to None without an annotation (NoneType), then given a value in a branch or loop."""

    name: str
    new: Type


@dataclass(frozen=True, eq=False)
class OptionalUse(Result):
    """An unrefined Optional local or parameter used where its contained type is needed (`how` says where)."""

    name: str
    type: Type
    how: str


@dataclass(frozen=True, eq=False)
class OptionalAttributeUse(Result):
    """An attribute declared Optional used where its contained type is needed (torch never refines attributes)."""

    name: str
    type: Type
    how: str


@dataclass(frozen=True, eq=False)
class ReturnMismatch(Result):
    """A return whose value does not convert to the declared return type ("Return value was annotated as having type
    A but is actually of type B")."""

    declared: Type
    actual: Type


@dataclass(frozen=True, eq=False)
class ReturnJoin(Result):
    """Returns of types that do not join, without a declared return type ("Previous return statement returned a
    value of type A but this return statement returns a value of type B")."""

    previous: Type
    actual: Type


@dataclass(frozen=True, eq=False)
class MissingReturn(Result):
    """A function declared to return a value whose end is reachable (`node` is its name)."""

    declared: Type | None


@dataclass(frozen=True, eq=False)
class UnpackArity(Result):
    """Tuple unpacking with another number of targets than values ("too many values to unpack", "need N values to
    unpack but found only M")."""

    need: int
    found: int
    starred: bool


@dataclass(frozen=True, eq=False)
class CannotUnpack(Result):
    """A value unpacked into several targets that is no tuple (`what`: "tensor", "module", or the type)."""

    type: Type | None
    what: str
    name: str | None = None  # the unannotated parameter, for "tensor"
    container: str | None = None  # the module container iterated, for "module"


@dataclass(frozen=True, eq=False)
class AttributeNoneAssigned(Result):
    """`self.x` that is None after `__init__` (NoneType) assigned a value in compiled code."""

    name: str
    new: Type


@dataclass(frozen=True, eq=False)
class AttributeTypeChange(Result):
    """`self.x` assigned a value of another type than `__init__` gave it."""

    name: str
    current: Type
    new: Type


@dataclass(frozen=True, eq=False)
class EmptyContainerFilled(Result):
    """An unannotated `[]` (List[Tensor]) or `{}` (Dict[str, Tensor]) given elements of other types: `name` the
    variable, `start` the assignment that created it, `kind` "list" or "dict", `element` the join of the element
    (value) types given to it (None when they do not join), `key` the join of the keys given to a dict."""

    name: str
    start: cst.CSTNode | None
    kind: Literal["list", "dict"]
    element: Type | None
    key: Type | None = None
    wrong_key: Type | None = None
    wrong_value: Type | None = None


@dataclass(frozen=True, eq=False)
class TensorIndex(Result):
    """An index of a Tensor torch rejects (`emitMultidimSlicing`): of a type other than int, slice, None, list or
    Tensor (`type`), a second `...` (`problem` "ellipses"), or a Tensor index after a `...` ("tensor-after-ellipsis")."""

    problem: Literal["type", "ellipses", "tensor-after-ellipsis", "starred"]
    type: Type | None = None


@dataclass(frozen=True, eq=False)
class ContainerSliceAssign(Result):
    """A list or dict item assigned (or updated with an augmented assignment) through a slice or several indices:
    "Sliced expression not yet supported for ... assignment"."""

    type: Type
    augmented: bool


@dataclass(frozen=True, eq=False)
class DeleteSlice(Result):
    """`del x[a:b]`."""


@dataclass(frozen=True, eq=False)
class ModuleContainerProblem(Result):
    """A module container zipped with something of no static length (`partner`: "range", "list", a type's
    spelling), indexed past its length (`index`, `length`), or its modules unpacked (`unpacked`)."""

    container: str
    partner: str | None = None
    index: int | None = None
    length: int | None = None
    unpacked: bool = False


@dataclass(frozen=True, eq=False)
class UnannotatedParamMisuse(Result):
    """A value that is no Tensor given to an unannotated (so Tensor) parameter of a compiled function, or such a
    parameter used as a list (`how`): `callee` is the function's display name, `param` the parameter."""

    callee: str
    param: str
    type: Type | None
    spelled: str
    none_default: bool = False
    how: str = "call"
    refine: bool = False  # an Optional not refined (advice: refine first)


@dataclass(frozen=True, eq=False)
class TupleOfList(Result):
    """`tuple(xs)` of a list: torch cannot tell the tuple's length."""

    type: Type


@dataclass(frozen=True, eq=False)
class UnknownMethod(Result):
    """A Tensor method TorchScript does not have (or a list method)."""

    owner: Type
    name: str


# -- the fact ----------------------------------------------------------------------------------------------------------
@dataclass
class FunctionTypes:
    """What the typer found in one compiled function: the results (problems torch reports), the type of each
    expression it typed (by node id; None: unknown), the names of what it could not type and why (for the coverage
    figure), and the function's return type (declared, or joined from its returns)."""

    results: list[Result] = field(default_factory=list)
    types: dict[int, object] = field(default_factory=dict)
    unknown: dict[int, str] = field(default_factory=dict)
    returns: Type | None = None

    def of(self, kind: type) -> list:
        return [result for result in self.results if isinstance(result, kind)]
