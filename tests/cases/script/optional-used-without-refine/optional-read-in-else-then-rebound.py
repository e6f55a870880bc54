# case: optional read in else then rebound (seen in transformers)
# torch: rejects
from typing import Dict, List, Optional, Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F


class Embeddings(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(10, 4)

    def forward(self, input_ids: Optional[torch.Tensor] = None, inputs_embeds: Optional[torch.Tensor] = None):
        if input_ids is not None:
            input_shape = input_ids.size()
        else:
            input_shape = inputs_embeds.size()[:-1]  # error: JIT704
        if inputs_embeds is None:
            inputs_embeds = self.emb(torch.zeros(1, dtype=torch.long))
        return inputs_embeds.view(input_shape[0], -1)
