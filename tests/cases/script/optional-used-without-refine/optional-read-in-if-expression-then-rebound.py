# case: optional read in if expression then rebound (seen in transformers)
# torch: rejects
from typing import Dict, List, Optional, Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F


class Embeddings(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(10, 4)

    def forward(self, input_ids: torch.Tensor | None = None, inputs_embeds: torch.Tensor | None = None):
        n = input_ids.shape[-1] if input_ids is not None else inputs_embeds.shape[-2]  # error: JIT704
        if inputs_embeds is None:
            inputs_embeds = self.emb(torch.zeros(1, dtype=torch.long))
        return inputs_embeds[:, :n]
