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


class Encoder(nn.Module):
    # one finding per function and class: torch stops at the first
    def forward(self, x: torch.Tensor) -> Result:  # error: JIT608
        if bool(x.sum() > 0):
            return Result(x, x)
        return Result(x, -x)


class Twice(nn.Module):
    def forward(self, x: torch.Tensor):
        first = Result(x, x)  # error: JIT608
        return first, Result(x, -x)
