# case: list local passed to an annotated parameter (seen in timm)
# torch: accepts
from typing import Any, Dict, List, Optional, Tuple, Union

import torch
import torch.nn as nn
import torch.nn.functional as F


class Stage(nn.Module):
    def forward(self, xs: List[torch.Tensor]) -> torch.Tensor:
        return xs[0]

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.stage, self.transition = self._make()

    def _make(self):
        return Stage(), nn.ModuleList([nn.Identity()])

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        xl = [t(x) for t in self.transition]
        return self.stage(xl)
