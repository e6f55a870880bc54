# case: a module-level logger's methods, `logging.warning`, `warnings.warn`
# torch: breaks
import logging
import warnings
import torch
import torch.nn as nn


logger = logging.getLogger(__name__)


class M(nn.Module):
    def forward(self, x):
        logger.info("a")  # warning: DYN105
        x = x + 1
        logging.warning("b")  # warning: DYN105
        x = x + 1
        warnings.warn("c")  # warning: DYN105
        x = x + 1
        logger.debug("d %s", x.shape)  # warning: DYN105
        return x * 2
