# case: a string mode checked against its literals first, the error naming the value: one compile per mode, then cached
# torch: recompiles
# hazard: no
# inputs: (torch.randn(4, 3), ("mean", "none", "sum", "token_mean")[i % 4])
# calls: 12
# recompile-limit: not hit
# recompiles: 3
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x, reduction: str = "sum"):
        if reduction not in ("none", "sum", "mean", "token_mean"):
            raise ValueError(f"invalid reduction: {reduction}")
        loss = x * 2
        if reduction == "none":
            return loss
        if reduction == "sum":
            return loss.sum()
        if reduction == "mean":
            return loss.mean()
        assert reduction == "token_mean"
        return loss.sum() / x.shape[0]
