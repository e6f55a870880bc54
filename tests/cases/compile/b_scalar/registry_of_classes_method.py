# case: an object built by calling an entry of a module-level dict of classes (`STEPPERS[method](...)`) is an instance
#   of one of them: Dynamo inlines the method called on it (`stepper.integrate(x)`, defined on their base class and
#   calling the subclass's `step`), and breaks inside whichever class the key picks
# torch: breaks
import torch
import torch.nn as nn


class Stepper:
    def __init__(self, scale):
        self.scale = scale

    def integrate(self, x):
        for _ in range(2):
            x = self.step(x)
        return x

    def step(self, x):
        return x


class Euler(Stepper):
    def step(self, x):
        return x * self.scale


class Normalised(Stepper):
    def step(self, x):
        norm = x.abs().max().item()  # warning: DYN102
        return x / norm


STEPPERS = {"euler": Euler, "normalised": Normalised}


class M(nn.Module):
    def __init__(self, method="normalised"):
        super().__init__()
        self.method = method

    def forward(self, x):
        stepper = STEPPERS[self.method](scale=2.0)
        return stepper.integrate(x)  # unreported: an object made in the frame cannot be rebuilt to resume after the break inside its method (gb0092), so the call runs eagerly
