"""`[tool.jitlint.compile]`: the `torch.compile` mode the compile target judges (no LibCST: the config reads it).

The defaults are `torch.compile(model)`'s: `fullgraph=False`, Dynamo's config flags off, `dynamic=None` (automatic
dynamic shapes). Each setting changes which findings hold exactly as it changes what Dynamo does (torch 2.13):

- `fullgraph = true`: every graph break becomes an error, and Dynamo then captures `.item()`-style scalars and
  data-dependent output shapes by itself (`OutputGraph` builds its ShapeEnv with `allow_scalar_outputs` and
  `allow_dynamic_output_shape_ops` set when `one_graph`): those calls no longer break, only Python decisions on
  their values do. A recompile loop that reaches the recompile limit is an error too;
- `capture-scalar-outputs = true` (`torch._dynamo.config.capture_scalar_outputs`): `.item()`, `int(t)`,
  `float(t)`, `.tolist()` are traced as symbolic values instead of breaking the graph;
- `capture-dynamic-output-shape-ops = true` (`torch._dynamo.config.capture_dynamic_output_shape_ops`): `nonzero`,
  masks, `unique` and other ops whose output size depends on data are traced with a symbolic size;
- `dynamic = false`: no automatic dynamic shapes, so int and float arguments and float module attributes are
  specialised to each value (one compile per value); `dynamic = true`: they are symbolic from the first call.
"""

from __future__ import annotations

from dataclasses import dataclass

from jitlint.settings import TargetSettings


@dataclass(frozen=True)
class CompileSettings(TargetSettings):
    fullgraph: bool = False
    capture_scalar_outputs: bool = False
    capture_dynamic_output_shape_ops: bool = False
    # `torch.compile(dynamic=...)`: None (the default, automatic dynamic after one recompile), True or False.
    dynamic: bool | None = None

    @property
    def captures_scalars(self) -> bool:
        """Whether Dynamo traces `.item()` and the like as symbolic values (instead of breaking the graph)."""
        return self.fullgraph or self.capture_scalar_outputs

    @property
    def captures_dynamic_shapes(self) -> bool:
        """Whether Dynamo traces ops whose output size depends on data (instead of breaking the graph)."""
        return self.fullgraph or self.capture_dynamic_output_shape_ops
