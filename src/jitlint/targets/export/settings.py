"""`[tool.jitlint.export]`: how the export target judges the code (no LibCST: the config reads it)."""

from __future__ import annotations

from dataclasses import dataclass

from jitlint.settings import TargetSettings


@dataclass(frozen=True)
class ExportSettings(TargetSettings):
    # `strict = true`: judge `torch.export.export(..., strict=True)` (TorchDynamo) instead of the default mode.
    strict: bool = False
