"""JIT239: list displays TorchScript types by their elements (its list-literal typing), against their annotation."""

from __future__ import annotations

from jitlint.targets.script.rules.flow import _FlowRule


class ListLiteralAnnotationMismatch(_FlowRule):
    code = "JIT239"
    name = "list-literal-annotation-mismatch"
    severity = "error"
    summary = "`y: List[float] = [1, 2.0]`: a list display whose elements do not unify to the annotated element type"
    message = "the elements of a list literal do not unify to its annotated element type"
