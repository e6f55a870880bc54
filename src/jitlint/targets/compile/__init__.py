"""The `compile` target: what `torch.compile` (TorchDynamo, torch 2.13) cannot put in one graph: graph breaks, the
errors they become under `fullgraph=True`, and the recompilations that end in the recompile limit (codes DYN)."""

from jitlint.targets import Target

TARGET = Target(
    name="compile",
    prefix="DYN",
    description="torch.compile / TorchDynamo graph breaks and recompiles (`[tool.jitlint.compile] fullgraph = true`)",
    policies={"compile": "jitlint.targets.compile.policy:CompilePolicy"},
    confirmer="jitlint.targets.compile.confirm:CompileStrategy",
    settings="jitlint.targets.compile.settings:CompileSettings",
)
