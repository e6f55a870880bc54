# case: a LightningModule subclass whose own `__jit_unused_properties__` drops Lightning's list: torch compiles Lightning's properties (to_torchscript)
# torch: rejects
# torch-error: Could not cast value of type NoneType to bool
# torch-line: none
import torch
from lightning.pytorch import LightningModule


class Classifier(LightningModule):
    __jit_unused_properties__ = ["classes"]  # error: JIT636

    def __init__(self):
        super().__init__()
        self.head = torch.nn.Linear(8, 3)

    @property
    def classes(self):
        return ["a", "b", "c"]

    def forward(self, x):
        return self.head(x).softmax(-1)
