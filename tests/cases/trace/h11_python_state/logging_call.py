# case: a logging call runs while tracing only
# torch: accepts
# inputs: (torch.randn(8, 3),)
# inputs2: (torch.randn(5, 3),)
import logging

import torch
import torch.nn as nn


logger = logging.getLogger(__name__)


class M(nn.Module):
    def forward(self, x):
        logger.info("forward %s", x.shape)  # warning: TRC208
        return x * 2
