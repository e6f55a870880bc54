# case: `assert` on a tensor with a message Python computes, or with a negated test: Dynamo rewrites only the plain
#   assert (no message, or a constant one) into a runtime assert; these jump on the tensor's truth
# torch: breaks
import torch
import torch.nn as nn

NAME = "x"


class M(nn.Module):
    def forward(self, x):
        assert (x > -100).all(), "{} must be large".format(NAME)  # warning: DYN101
        assert (x < 100).all(), f"{NAME} must be small"  # warning: DYN101
        assert (x == x).all(), "bad %s" % NAME  # warning: DYN101
        message = "named message"
        assert (x != 1000).all(), message  # warning: DYN101
        assert not (x == 500).any(), "constant"  # warning: DYN101
        return x + 1
