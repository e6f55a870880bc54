# case: torchvision's `if boxes.numel() == 0:` after a mask: a fullgraph error
# torch: rejects
# settings: fullgraph=true
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, boxes):
        boxes = boxes[boxes[:, 0] > 0]
        if boxes.numel() == 0:  # warning: DYN101
            return boxes.sum()
        return boxes.sum() * 2
