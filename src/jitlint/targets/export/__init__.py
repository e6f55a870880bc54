"""The `export` target: what `torch.export.export` (default non-strict mode, torch 2.13) rejects or silently
changes, and the TorchScript-only constructs that become unnecessary when moving to it (codes EXP)."""

from jitlint.targets import Target

TARGET = Target(
    name="export",
    prefix="EXP",
    description="torch.export.export (default non-strict; `[tool.jitlint.export] strict = true`)",
    policies={"export": "jitlint.targets.export.policy:ExportPolicy"},
    confirmer="jitlint.targets.export.confirm:ExportStrategy",
    settings="jitlint.targets.export.settings:ExportSettings",
)
