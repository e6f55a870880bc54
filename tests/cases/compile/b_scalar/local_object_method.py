# case: a method called on an object of a project class the forward builds (`norm = Normaliser(eps)`): Dynamo
#   inlines it, with `self` that object, and breaks inside
# torch: breaks
import torch
import torch.nn as nn


class Normaliser:
    def __init__(self, eps):
        self.eps = eps

    def apply(self, x):
        return x / self.peak(x)

    def peak(self, x):
        return x.abs().max().item() + self.eps  # warning: DYN102


class M(nn.Module):
    def forward(self, x):
        norm = Normaliser(1e-6)
        return norm.apply(x) * 2  # unreported: an object made in the frame cannot be rebuilt to resume after the break inside its method (gb0092), so the call runs eagerly
