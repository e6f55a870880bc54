# case: slicing with bounds that are tensors (`max(box[0], 0)` of a 0-d row element): Python needs each bound's
#   value (`__index__`), which Dynamo cannot give while tracing
# torch: breaks
# inputs: (torch.rand(8, 8), torch.tensor([1, 1, 5, 5]))
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, mask, box):
        x_0 = max(box[0], 0)
        x_1 = min(box[2] + 1, 8)
        im = torch.zeros(8, 8)
        im[:, x_0:x_1] = mask[:, x_0:x_1]  # warning: DYN102
        return im
