"""`[tool.jitlint.trace]`: how the trace target judges the code (no LibCST: the config reads it)."""

from __future__ import annotations

from dataclasses import dataclass, field

from jitlint.settings import TargetSettings


@dataclass(frozen=True)
class TraceSettings(TargetSettings):
    # `strict` as `torch.jit.trace(..., strict=...)`: with the default True a dict output is an error; False allows
    # dict and list outputs.
    strict: bool = True
    # For `--dynamic`: the example inputs of a module class, "pkg.models:Net" -> "pkg.examples:net_inputs" (a
    # function returning a tuple of positional arguments, one tensor, or {"args": ..., "kwargs": ...}), and a
    # second set the traced module is compared with eager on ("pkg.models:Net" -> "pkg.examples:other_inputs";
    # without one, the inputs function is called again).
    inputs: dict[str, str] = field(default_factory=dict, metadata={"expect": "a table of \"module:Class\" = "
                                                                             "\"module:function\" strings"})
    compare_inputs: dict[str, str] = field(default_factory=dict, metadata={"expect": "a table of \"module:Class\" "
                                                                                     "= \"module:function\" strings"})
