# case: a helper typed only by a TorchScript signature comment (`# type: (Tensor, Tensor, int) -> Tensor`), called
#   from a comprehension over the rows of two tensors: its tensor parameter's values read into Python
# torch: breaks
# inputs: (torch.rand(2, 8, 8), torch.tensor([[1, 1, 5, 5], [0, 2, 3, 6]]))
import torch
import torch.nn as nn


def paste(mask, box, size):
    # type: (Tensor, Tensor, int) -> Tensor
    w = int(box[2] - box[0] + 1)  # warning: DYN102
    im_mask = torch.zeros((size, size))
    x_0 = max(box[0], 0)
    x_1 = min(box[2] + 1, size)
    im_mask[:, x_0:x_1] = mask[:, (x_0 - box[0]):(x_1 - box[0])]  # warning: DYN102
    return im_mask * w


class M(nn.Module):
    def forward(self, masks, boxes):
        return torch.stack([paste(m, b, 8) for m, b in zip(masks, boxes)])
