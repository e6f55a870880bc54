# case: `F.adaptive_avg_pool2d(x, x.shape[-1] // 2)`: `_list_with_default` takes `len()` of the lone size, a 0-dim
#       tensor under trace: tracing raises
# torch: rejects
# torch-error: len() of a 0-d tensor
# inputs: (torch.ones(2, 3, 4, 4),)
# inputs2: (torch.ones(2, 3, 8, 8),)
import torch
import torch.nn as nn
import torch.nn.functional as F


class M(nn.Module):
    def forward(self, x):
        return F.adaptive_avg_pool2d(x, x.shape[-1] // 2)  # error: TRC106
