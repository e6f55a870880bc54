"""JIT211: a `# type:` signature comment TorchScript reads and rejects."""

from __future__ import annotations

import libcst as cst

from jitlint.rules.base import RuleContext
from jitlint.targets.script.rules import ScriptRule
from jitlint.targets.script.typing.annotations import comment_count_mismatch


class SignatureCommentMismatch(ScriptRule):
    code = "JIT211"
    name = "signature-comment-mismatch"
    severity = "error"
    summary = (
        "a `# type: (...) -> ...` signature comment TorchScript cannot use: another number of types than "
        "parameters, or split over lines without the `# type: (...) -> T` line"
    )
    message = "`# type:` signature comment that does not match the function"

    def visit_FunctionDef(self, node: cst.FunctionDef, ctx: RuleContext) -> None:
        if ctx.function is None or ctx.function.info.node is not node:
            return
        problem = comment_count_mismatch(node, ctx.function.info.bound_first_param is not None)
        if problem is not None:
            ctx.report(
                node.name,
                f"TorchScript reads this function's signature from its `# type:` comment and rejects it: "
                f"'{problem}'. Give one type per parameter (not `self`) and the return type, "
                f"`# type: (int, Tensor) -> Tensor`, or use annotations",
            )
