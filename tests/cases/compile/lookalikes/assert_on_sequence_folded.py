# case: asserts Dynamo folds or traces: a `*args` tuple of ints, a tuple of sizes, `len()` of a list of tensors, a tensor (traced as `torch._assert_async`), `is not None`
# torch: accepts
import torch
import torch.nn as nn


def reshape(x, *sizes: int):
    assert sizes, "no sizes"
    return x.reshape(*sizes)


class M(nn.Module):
    def forward(self, x):
        parts = list(x.split(2))
        assert len(parts) > 0
        shape = x.shape
        assert shape
        assert x is not None
        assert (x.abs() >= 0).all()
        return reshape(torch.cat(parts), -1)
