"""The `export` capture policy: what `torch.export.export(model, args)` traces (verified on torch 2.13).

Roots: `forward` of each nn.Module class, and (through the shared worklist) what it calls, across files. Nothing
stops the walk: export runs the eager Python, so `@torch.jit.ignore` / `@torch.jit.unused` bodies are traced like
any other code, and `@torch.jit.export` methods are not roots (only `forward` is exported).

Pruned while tracing (the branch export never sees): `torch.jit.is_scripting()` and `torch.jit.is_tracing()` are
False, `torch.compiler.is_exporting()` and `torch.compiler.is_compiling()` are True,
`torch.onnx.is_in_onnx_export()` is False; folded with three-valued `and`/`or`/`not`, and code after an
`if <folded True>: return` is pruned. So the "eager-only" side of a TorchScript guard is the live one here.

`self.training` is False: export is judged for the model in eval mode (`model.eval()`, how models are exported for
inference; export keeps only the branch of the mode it runs in, and `ep.module().train()` is not supported). The
training side of `if self.training:` is pruned, and EXP205 warns about the branch itself.
"""

from __future__ import annotations

from typing import Iterator

import libcst as cst

from jitlint.capture import Capture, CapturePolicy
from jitlint.pruning import CheckScanner
from jitlint.names import ImportTable, first_param_name
from jitlint.project import FunctionInfo
from jitlint.targets.export.datadep import ExportDatadep

# The value each check returns while `torch.export.export` traces (verified on torch 2.13, non-strict: a branch
# holding `x.numpy()` on the other side passes export only when the check has this value).
CAPTURE_CHECKS: dict[str, bool] = {
    "torch.jit.is_scripting": False,
    "torch._C._is_scripting": False,
    "torch.jit.is_tracing": False,
    "torch.compiler.is_exporting": True,
    "torch.compiler.is_compiling": True,
    "torch._dynamo.is_compiling": True,
    "torch.onnx.is_in_onnx_export": False,
}


class ExportPolicy(CapturePolicy):
    name = "export"
    datadep = ExportDatadep  # what export makes of values (`jitlint.facts.datadep`)

    def roots(self) -> Iterator[Capture]:
        for module in list(self.project.linted):
            yield from self.forwards(module)

    def body_captured(self, function: FunctionInfo) -> bool:
        return True  # export traces through everything, `@torch.jit.ignore` bodies included

    def scanner(self, function: FunctionInfo) -> CheckScanner:
        self_name = first_param_name(function.node) if function.bound_first_param == "instance" else None
        return CheckScanner(function.node, function.module.imports, CAPTURE_CHECKS, self_name)
