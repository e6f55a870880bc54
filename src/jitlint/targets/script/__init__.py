"""The `script` target: what `torch.jit.script` rejects (codes JIT1xx-JIT7xx, JIT000 from the dynamic checker)."""

from jitlint.targets import Target

TARGET = Target(
    name="script",
    prefix="JIT",
    description="torch.jit.script (TorchScript)",
    policies={"script": "jitlint.targets.script.policy:ScriptPolicy"},
    confirmer="jitlint.targets.script.confirm:ScriptStrategy",
)
