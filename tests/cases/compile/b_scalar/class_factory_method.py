# case: a method of an object whose class a factory function returns (`solver_fn = select(kind); solver_fn(...).integrate(x)`) is inlined by Dynamo: `.item()` inside it breaks
# torch: breaks
import torch
import torch.nn as nn


class Euler:
    def __init__(self, step):
        self.step = step

    def integrate(self, x):
        scale = x.abs().max().item()  # warning: DYN102
        return x + self.step * x / scale


class Midpoint(Euler):
    def integrate(self, x):
        half = x + 0.5 * self.step * x
        return x + self.step * half / float(half.norm())  # warning: DYN102


def select(kind):
    if kind == "euler":
        return Euler
    elif kind == "midpoint":
        return Midpoint
    raise ValueError(kind)


class M(nn.Module):
    def __init__(self, kind="euler", refine="midpoint"):
        super().__init__()
        self.kind = kind
        self.refine = refine

    def forward(self, x):
        solver_fn = select(self.kind)
        solver = solver_fn(step=0.5)
        y = solver.integrate(x)  # unreported: an object made in the frame cannot be rebuilt to resume after the break inside its method (gb0092): forward runs eagerly, `integrate` is compiled as its own frame
        refine_fn = select(self.refine)
        refiner = refine_fn(0.25)
        return refiner.integrate(y)
