"""Where the fx confirmer (`jitlint.targets.fx.dynamic`) looks up which forwards are roots. The Proxy analysis that
lived here is the tracing model (`jitlint.targets.fx.tracing`); this name stays until the confirmer imports it from
`jitlint.targets.fx.trace`."""

from jitlint.targets.fx.trace import is_root_forward

__all__ = ["is_root_forward"]
