# case: a method of a submodule other than its forward (`self.post.run(x)`, the submodule built in `__init__` or
#   passed in by the code that builds the model): Dynamo inlines it like any other call, and breaks inside
# torch: breaks
import torch
import torch.nn as nn


class Post(nn.Module):
    def run(self, x):
        scale = x.abs().max().item()  # warning: DYN102
        return x / scale


class M(nn.Module):
    def __init__(self, post=None):
        super().__init__()
        self.post = post if post is not None else Post()

    def forward(self, x):
        return self.post.run(x * 2)
