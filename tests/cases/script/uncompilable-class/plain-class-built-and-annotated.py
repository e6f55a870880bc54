# case: look-alikes torch scripts: a plain class with a typed `__init__` built in compiled code and named in a signature
# torch: accepts
from typing import List

import torch
import torch.nn as nn


class Result:
    def __init__(self, quantized: torch.Tensor, codes: torch.Tensor):
        self.quantized = quantized
        self.codes = codes


def first(results: List[Result]) -> Result:
    return results[0]


class Quantizer(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        q = x.unsqueeze(1)
        r = first([Result(x, q)])
        return r.codes
