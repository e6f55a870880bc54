"""jitlint: a linter for PyTorch model code that predicts what torch.jit.script, torch.fx and torch.export reject or
silently change."""

__version__ = "0.2.0"

# The torch release every rule's verdict was checked against (see rules/*/*.md).
TORCH_VERSION = "2.13.0"
