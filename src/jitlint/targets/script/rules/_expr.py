"""Small, certain facts about expressions that several rules share. Unknown stays unknown: no guessing."""

from __future__ import annotations

import libcst as cst

from jitlint.facts.syntax import assigned_names
from jitlint.facts.torch_api import DTYPE_NAMES, TENSOR_CLASSES
from jitlint.literals import literal_type as python_literal_type
from jitlint.names import first_param
from jitlint.targets.script.infer import TENSOR, TENSOR_METHODS, is_overload_implementation, signature_comment
from jitlint.walk import walk

# torch.* callables that do not return a Tensor.
TORCH_NON_TENSOR = frozenset(
    {"torch.is_tensor", "torch.numel", "torch.jit.is_scripting", "torch.jit.is_tracing", "torch.is_grad_enabled",
     "torch.get_default_dtype", "torch.device", "torch.dtype", "torch.Size", "torch.finfo", "torch.iinfo",
     "torch.jit.annotate", "torch.jit.isinstance", "torch.is_floating_point", "torch.is_complex"}
)
LIST_ANNOTATIONS = frozenset({"typing.List", "builtins.list"})


def is_int_literal(node: cst.BaseExpression) -> bool:
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, (cst.Minus, cst.Plus)):
        node = node.expression
    return isinstance(node, cst.Integer)


def is_str_literal(node: cst.BaseExpression) -> bool:
    """A plain string literal (no f-string, no bytes), or an implicit concatenation of them."""
    if isinstance(node, cst.ConcatenatedString):
        return is_str_literal(node.left) and is_str_literal(node.right)
    return python_literal_type(node) == "str"


def literal_type(node: cst.BaseExpression) -> str | None:
    """The TorchScript type name of a literal default value, or None if it is not a plain literal."""
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, (cst.Minus, cst.Plus)):
        node = node.expression
    kind = python_literal_type(node)
    if kind in ("int", "float", "complex", "bool", "str"):
        return kind
    if is_str_literal(node):
        return "str"
    if isinstance(node, cst.Tuple):
        inner = [literal_type(element.value) for element in node.elements]
        if inner and all(inner):
            return f"Tuple[{', '.join(inner)}]"
        return "Tuple"
    if isinstance(node, cst.List):
        return "List"
    if isinstance(node, cst.Dict):
        return "Dict"
    return None


def is_evident_tensor_method(name: str) -> bool:
    """`<anything>.name(...)` is a Tensor: only Tensors have the method, and it returns a Tensor."""
    method = TENSOR_METHODS.get(name)
    return method is not None and method.evident and method.returns == TENSOR


def annotation_name(param: cst.Param, qualify) -> str | None:
    if param.annotation is None:
        return None
    annotation = param.annotation.annotation
    outer = annotation.value if isinstance(annotation, cst.Subscript) else annotation
    return qualify(outer)


def params_of(function: cst.FunctionDef) -> dict[str, cst.Param]:
    params = function.params
    return {p.name.value: p for p in (*params.posonly_params, *params.params, *params.kwonly_params)}


def _element_type_is_tensor(annotation: cst.BaseExpression, qualify) -> bool:
    """`List[torch.Tensor]` / `list[Tensor]`."""
    if not isinstance(annotation, cst.Subscript) or qualify(annotation.value) not in LIST_ANNOTATIONS:
        return False
    if len(annotation.slice) != 1 or not isinstance(annotation.slice[0].slice, cst.Index):
        return False
    return qualify(annotation.slice[0].slice.value) in TENSOR_CLASSES


def unannotated_tensor_param(
    name: cst.BaseExpression, function: cst.FunctionDef, is_method: bool, ctx_tree: cst.Module | None = None
) -> cst.Param | None:
    """The parameter a Name refers to when TorchScript types it Tensor by default (no annotation, default None
    or none) and the body never rebinds it."""
    if not isinstance(name, cst.Name):
        return None
    params = params_of(function)
    param = params.get(name.value)
    if param is None or param.annotation is not None or signature_comment(function) is not None:
        return None
    if ctx_tree is not None and is_overload_implementation(function, ctx_tree):
        return None
    if is_method and param is first_param(function):
        return None
    if param.default is not None and not (isinstance(param.default, cst.Name) and param.default.value == "None"):
        return None
    if name.value in assigned_names(function):
        return None
    return param




def tensor_evident(node: cst.BaseExpression, ctx, bound_tensors: frozenset[str] = frozenset()) -> bool:
    """True only when the expression is certainly a Tensor under TorchScript's typing."""
    if isinstance(node, cst.Name):
        if node.value in bound_tensors:
            return True
        function = ctx.function
        if function is None:
            return False
        info = function.info
        if unannotated_tensor_param(node, info.node, info.bound_first_param == "instance") is not None:
            param = params_of(info.node)[node.value]
            return param.default is None
        param = params_of(info.node).get(node.value)
        if param is not None and param.annotation is not None and node.value not in assigned_names(info.node):
            return ctx.qualify(param.annotation.annotation) in TENSOR_CLASSES
        return False
    if isinstance(node, cst.Call):
        func = node.func
        qualified = ctx.qualify(func)
        if qualified is not None:
            if qualified in TORCH_NON_TENSOR:
                return False
            if qualified.startswith("torch.nn.functional."):
                return True
            head, _, function_name = qualified.partition(".")
            return head == "torch" and "." not in function_name and function_name[:1].islower()
        # Methods only tensors have (`.sum()`, `.view()`, ...): whatever the receiver, the result is a Tensor.
        return isinstance(func, cst.Attribute) and is_evident_tensor_method(func.attr.value)
    if isinstance(node, cst.BinaryOperation):
        return tensor_evident(node.left, ctx, bound_tensors) or tensor_evident(node.right, ctx, bound_tensors)
    return False


def _unrebound_param_annotation(name: cst.BaseExpression, ctx) -> cst.BaseExpression | None:
    """The annotation of the current function's parameter `name`, if the body never rebinds it."""
    if not isinstance(name, cst.Name) or ctx.function is None:
        return None
    function = ctx.function.info.node
    param = params_of(function).get(name.value)
    if param is None or param.annotation is None or name.value in assigned_names(function):
        return None
    return param.annotation.annotation


def comprehension_tensor_targets(comp: cst.CompFor, ctx) -> frozenset[str]:
    """Loop names of `for t in xs` where xs is a parameter annotated List[Tensor]."""
    annotation = _unrebound_param_annotation(comp.iter, ctx)
    if isinstance(comp.target, cst.Name) and annotation is not None and _element_type_is_tensor(annotation, ctx.qualify):
        return frozenset({comp.target.value})
    return frozenset()


def list_of_tensors_param(node: cst.BaseExpression, ctx) -> bool:
    annotation = _unrebound_param_annotation(node, ctx)
    return annotation is not None and _element_type_is_tensor(annotation, ctx.qualify)


def constant_attribute(name: str, ctx) -> bool:
    """Whether `self.<name>` is a constant torch inlines (`Final` or `__constants__`) in a class the current
    function is compiled for."""
    from jitlint.targets.script.policy import constant_names

    owners = ctx.function.owners if ctx.function is not None else []
    return any(name in constant_names(ctx.project, owner) for owner in owners)


def global_value_type(value: cst.BaseExpression, module_imports) -> str | None:
    """The Python type of a module-level value TorchScript rejects when compiled code reads the global."""
    kind = literal_type(value)
    if kind is not None:
        return kind.split("[")[0].lower()
    if isinstance(value, cst.Name) and value.value == "None":
        return "None"
    qualified = module_imports.qualify(value.func if isinstance(value, cst.Call) else value) or ""
    if isinstance(value, cst.Attribute) and qualified.startswith("torch.") and qualified[6:] in DTYPE_NAMES:
        return "dtype"
    if isinstance(value, cst.Call) and qualified.startswith("torch.") and qualified.count(".") == 1 and qualified[6:7].islower():
        return "Tensor"
    return None


def called_params(function: cst.FunctionDef) -> frozenset[str]:
    """Names of `function`'s parameters its body calls as `name(...)` (rebound names included: callers filter)."""
    names = set(params_of(function))
    found: set[str] = set()

    class Calls(cst.CSTVisitor):
        def visit_Call(self, node: cst.Call) -> None:
            if isinstance(node.func, cst.Name) and node.func.value in names:
                found.add(node.func.value)

    walk(function.body, Calls())
    return frozenset(found)
