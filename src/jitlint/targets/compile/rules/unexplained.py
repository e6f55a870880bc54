"""DYN000: what the compile confirmer saw torch.compile break on that no static rule explains."""

from __future__ import annotations

from jitlint.targets.compile.rules import CompileRule


class GraphBreakNoRuleSaw(CompileRule):
    code = "DYN000"
    name = "graph-break"
    severity = "warning"
    summary = "with `--dynamic --target compile`: a graph break (or fullgraph error) no static rule explains"
    message = "torch.compile breaks the graph here, and no static rule explains it"
    engine_reported = True  # the compile confirmer reports it
