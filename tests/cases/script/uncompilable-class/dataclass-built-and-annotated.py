# case: a dataclass built in compiled code (`return Result(...)`) and named in a compiled function's signature
# torch: rejects
# torch-error: Failed to get source for
# torch-line: none
from dataclasses import dataclass, field
from typing import Dict, List, Optional

import torch
import torch.nn as nn


@dataclass
class Result:
    quantized: torch.Tensor
    codes: torch.Tensor
    penalty: Optional[torch.Tensor] = None


@dataclass
class Attributes:
    text: Dict[str, Optional[str]] = field(default_factory=dict)


def drop(sample: Attributes, name: str) -> Attributes:  # error: JIT608
    return sample


class Quantizer(nn.Module):
    def forward(self, x: torch.Tensor):
        q = x.unsqueeze(1)
        return Result(x, q)  # error: JIT608


class Dropout(nn.Module):
    def forward(self, samples: List[Attributes]) -> List[Attributes]:  # error: JIT608
        return [drop(s, "text") for s in samples]
