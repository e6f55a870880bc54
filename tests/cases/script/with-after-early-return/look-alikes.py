# case: the look-alikes torch scripts: the `with` before the `if`, a `return` nested deeper, an `elif` chain of returns, a `raise`, a `with` whose assignments are not read after it
# torch: accepts
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        with torch.no_grad():
            x = x + 1
        if x.dim() == 2:
            return x
        with torch.no_grad():
            z = x + 1
            print(z)
        return x

    @torch.jit.export
    def nested(self, x):
        if x.dim() == 2:
            if x.dim() == 3:
                return x
        with torch.no_grad():
            x = x + 1
        return x

    @torch.jit.export
    def chain(self, x):
        if x.dim() == 2:
            return x
        elif x.dim() == 3:
            return x * 2
        with torch.no_grad():
            x = x + 1
        return x

    @torch.jit.export
    def raises(self, x):
        if x.dim() == 2:
            raise ValueError("2-d input")
        with torch.no_grad():
            x = x + 1
        return x
