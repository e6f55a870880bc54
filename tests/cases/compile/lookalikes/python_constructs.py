# case: try/except, context managers, generators, closures, `super()`, ModuleList loops, `autograd.Function`, `.data`, buffers, `setattr`, globals
# torch: accepts
import contextlib
import torch
import torch.nn as nn


GLOBAL_T = torch.ones(3)
GLOBAL_F = 2.0


class Ctx:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


@contextlib.contextmanager
def ctx():
    yield


class Double(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, g):
        return g * 2


class Base(nn.Module):
    def forward(self, x):
        return x + 1


class M(Base):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(3, 3) for _ in range(2)])
        self.register_buffer("count", torch.zeros(()))
        self.fn = lambda t: t * 3
        self.register_forward_hook(lambda m, i, o: o * 1)

    def gen(self, x):
        for i in range(2):
            yield x * i

    def forward(self, x):
        try:
            s = self.missing_scale
        except AttributeError:
            s = 1.0
        with torch.no_grad():
            y = x * s
        with Ctx(), ctx():
            y = y + 1
        with torch.autocast("cpu", enabled=False):
            y = y * 1
        y = y + sum(t.sum() for t in self.gen(x))
        for i in range(len(self.layers)):
            y = self.layers[i](y)
        y = Double.apply(y)
        d = y.data * 1
        self.count.add_(1)
        setattr(self, "last", y.detach())
        y = self.fn(y) + GLOBAL_T * GLOBAL_F
        z = super().forward(y)
        return torch.relu(z) + d
