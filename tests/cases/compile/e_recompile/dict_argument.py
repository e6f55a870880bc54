# case: a dict argument with new keys on each call
# torch: recompiles
# inputs: ({f"k{j}": torch.randn(3) for j in range(i + 1)},)
# calls: 10
# recompile-limit: hit
from typing import Dict
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, batch: Dict[str, torch.Tensor]):  # warning: DYN203
        out = 0
        for k in sorted(batch):
            out = out + batch[k]
        return out
