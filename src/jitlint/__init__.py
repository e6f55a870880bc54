"""jitlint: a TorchScript-readiness linter for PyTorch model code."""

__version__ = "0.1.0"

# The torch release every rule's verdict was checked against (see rules/*/*.md).
TORCH_VERSION = "2.13.0"
