"""Graph-pass code: the Python that edits torch.fx graphs. It is not captured by anything; it runs eagerly, so the
FX1xx rules look at every file (scope "anywhere") and decide by the FX types of receivers, not by a capture map."""

from __future__ import annotations

from jitlint.capture import CapturePolicy


class PassPolicy(CapturePolicy):
    """No roots: pass code is not compiled or traced; its rules are "anywhere" rules."""

    name = "fx-pass"
