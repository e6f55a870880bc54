# case: a helper called with a plain tensor and with a masked one: Dynamo inlines it for each call, and the size decision breaks for the masked one, at the helper's line
# torch: rejects
# settings: fullgraph=true
import torch
import torch.nn as nn


def pick(boxes: torch.Tensor) -> torch.Tensor:
    if boxes.numel() > 6:  # warning: DYN101
        return boxes * 2
    return boxes + 1


class M(nn.Module):
    def forward(self, x):
        whole = pick(x)
        kept = pick(x[x[:, 0] > 0])
        return whole.sum() + kept.sum()
