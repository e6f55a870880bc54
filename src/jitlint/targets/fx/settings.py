"""`[tool.jitlint.fx]`: what the tracer users run treats as leaves (no LibCST: the config reads it). The default
is plain `symbolic_trace`."""

from __future__ import annotations

from dataclasses import dataclass, field

from jitlint.settings import TargetSettings

_QUALIFIED = {"expect": "a list of qualified names", "nonempty": True}


@dataclass(frozen=True)
class FxSettings(TargetSettings):
    # Classes traced as leaves, with their subclasses (qualified names).
    leaf_modules: frozenset[str] = field(default=frozenset(), metadata=_QUALIFIED)
    # Functions traced as one graph node, as `torch.fx.wrap` makes them (qualified names).
    autowrap_functions: frozenset[str] = field(default=frozenset(), metadata=_QUALIFIED)
    # Whether libraries' own notrace registrations count (timm's, torchvision.ops), as `create_feature_extractor`
    # and timm's tracer make them leaves.
    library_leaves: bool = False
    # Whether a module class used as a part of another is also judged as traced on its own (every parameter of its
    # forward a placeholder, defaulted ones too), as `symbolic_trace(Part(...))` does; `false` judges it only as its
    # parents call it.
    parts_alone: bool = True
