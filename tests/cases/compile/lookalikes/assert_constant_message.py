# case: asserts Dynamo keeps in the graph as runtime asserts: on a tensor with no message or a constant one (implicit
#   concatenation, an f-string without fields), and computed messages on asserts about sizes (decided while tracing)
# torch: accepts
import torch
import torch.nn as nn

NAME = "x"


class M(nn.Module):
    def forward(self, x):
        assert (x > -100).all(), "plain"
        assert (x < 100).all(), "implicit " "concatenation"
        assert (x == x).all(), f"f-string without fields"
        assert (x != 1000).all()
        assert x.shape[0] > 0, f"{NAME}: {x.shape}"
        assert not x.shape[-1] == 0, "{} is empty".format(NAME)
        return x + 1
