# case: a module whose children may be modules of its own class (timm's DlaTree): each submodule is scripted as
#   its own module type before the methods that call it, so `self.left(x)` is no recursive call
# torch: accepts
import torch
import torch.nn as nn


class Leaf(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x + 1


class Tree(nn.Module):
    def __init__(self, levels: int = 2, block=Leaf):
        super().__init__()
        if levels == 1:
            self.left = block()
            self.right = block()
        else:
            self.left = Tree(levels - 1, block)
            self.right = Tree(levels - 1, block)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.right(self.left(x)) + self.combine(x)

    def combine(self, x: torch.Tensor) -> torch.Tensor:
        return x * 2


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.tree = Tree(3)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.tree(x)
