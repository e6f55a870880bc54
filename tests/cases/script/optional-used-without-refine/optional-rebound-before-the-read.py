# case: optional rebound before the read (seen in transformers)
# torch: accepts
from typing import Dict, List, Optional, Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F


class Embeddings(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(10, 4)

    def forward(self, input_ids: torch.Tensor, inputs_embeds: Optional[torch.Tensor] = None):
        if inputs_embeds is None:
            inputs_embeds = self.emb(input_ids)
        return inputs_embeds.size(0)
