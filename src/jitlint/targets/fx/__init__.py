"""The `fx` target: torch.fx graph-pass API misuse (FX1xx) and `torch.fx.symbolic_trace` readiness (FX2xx)."""

from jitlint.targets import Target

TARGET = Target(
    name="fx",
    prefix="FX",
    description="torch.fx (graph passes and symbolic_trace)",
    policies={
        # Graph-pass code is ordinary Python run eagerly: nothing is captured, the rules look everywhere.
        "fx-pass": "jitlint.targets.fx.passes:PassPolicy",
        # What torch.fx.symbolic_trace runs: forward of non-leaf modules and what it calls (FX2xx).
        "fx-trace": "jitlint.targets.fx.trace:TracePolicy",
    },
    # Traces the root module classes with torch.fx.symbolic_trace (wrap-and-retry); marks the FX2xx findings.
    confirmer="jitlint.targets.fx.confirm:FxStrategy",
    settings="jitlint.targets.fx.settings:FxSettings",
)
