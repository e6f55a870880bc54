"""Located misses in transformers: each case is linted with jitlint and scripted with
torch 2.13 (`@pytest.mark.torch`), and they must agree, as in tests/test_located.py.

A line marked `# rejects JITnnn` is where torch 2.13 reports its error: jitlint must report there with that code and
torch must reject the program at that line. A case without a mark must script, and jitlint must report no error
and none of the codes these cases are about.
"""

import textwrap

import pytest

from test_located import lint_agrees, torch_agrees

HEADER = """\
from typing import Dict, List, Optional, Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F

"""

CODES = ("JIT704",)


def case(source: str) -> str:
    return HEADER + textwrap.dedent(source)


CASES = {
    # -- JIT704: an Optional parameter read before the statement that re-binds it -------------------------------------
    # (it used to be left alone whenever the function re-assigned the name anywhere)
    "optional-read-in-else-then-rebound": case("""
        class Embeddings(nn.Module):
            def __init__(self):
                super().__init__()
                self.emb = nn.Embedding(10, 4)

            def forward(self, input_ids: Optional[torch.Tensor] = None, inputs_embeds: Optional[torch.Tensor] = None):
                if input_ids is not None:
                    input_shape = input_ids.size()
                else:
                    input_shape = inputs_embeds.size()[:-1]  # rejects JIT704
                if inputs_embeds is None:
                    inputs_embeds = self.emb(torch.zeros(1, dtype=torch.long))
                return inputs_embeds.view(input_shape[0], -1)
    """),
    "optional-read-in-if-expression-then-rebound": case("""
        class Embeddings(nn.Module):
            def __init__(self):
                super().__init__()
                self.emb = nn.Embedding(10, 4)

            def forward(self, input_ids: torch.Tensor | None = None, inputs_embeds: torch.Tensor | None = None):
                n = input_ids.shape[-1] if input_ids is not None else inputs_embeds.shape[-2]  # rejects JIT704
                if inputs_embeds is None:
                    inputs_embeds = self.emb(torch.zeros(1, dtype=torch.long))
                return inputs_embeds[:, :n]
    """),
    # look-alikes torch scripts
    "optional-rebound-before-the-read": case("""
        class Embeddings(nn.Module):
            def __init__(self):
                super().__init__()
                self.emb = nn.Embedding(10, 4)

            def forward(self, input_ids: torch.Tensor, inputs_embeds: Optional[torch.Tensor] = None):
                if inputs_embeds is None:
                    inputs_embeds = self.emb(input_ids)
                return inputs_embeds.size(0)
    """),
    "optional-refined-read-then-rebound": case("""
        class M(nn.Module):
            def forward(self, x: torch.Tensor, mask: Optional[torch.Tensor] = None):
                if mask is not None:
                    n = mask.size(0)
                    x = x[:n]
                mask = torch.ones_like(x)
                return x * mask
    """),
    "optional-early-exit-then-read-then-rebound": case("""
        class M(nn.Module):
            def forward(self, x: torch.Tensor, mask: Optional[torch.Tensor] = None):
                if mask is None:
                    return x
                n = mask.size(0)
                mask = mask * 2
                return x[:n] * mask
    """),
    "optional-asserted-read-then-rebound": case("""
        class M(nn.Module):
            def forward(self, x: torch.Tensor, mask: Optional[torch.Tensor] = None):
                assert mask is not None
                n = mask.size(0)
                mask = mask + 1
                return x[:n] * mask
    """),
    "optional-read-in-loop-after-rebinding-in-loop": case("""
        class M(nn.Module):
            def forward(self, x: torch.Tensor, state: Optional[torch.Tensor] = None):
                for i in range(3):
                    if state is None:
                        state = x
                    x = x + state.sum()
                return x
    """),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_jitlint_agrees(name, lint_source):
    lint_agrees(name, CASES[name], lint_source, CODES)


@pytest.mark.torch
@pytest.mark.parametrize("name", sorted(CASES))
def test_torch_agrees(name, tmp_path):
    torch_agrees(name, CASES[name], tmp_path)
