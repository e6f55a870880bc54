# case: torch functions Dynamo's trace rules mark as skipped (`pack_padded_sequence`, `pad_packed_sequence`, RNG state, seeding)
# torch: breaks
# inputs: (torch.randn(2, 5, 3), torch.tensor([5, 3]))
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x, lengths):
        lengths = lengths.cpu()
        packed = nn.utils.rnn.pack_padded_sequence(x, lengths, batch_first=True)  # warning: DYN106
        out, _ = nn.utils.rnn.pad_packed_sequence(packed, batch_first=True)  # warning: DYN106
        state = torch.get_rng_state()  # warning: DYN106
        torch.set_rng_state(state)  # warning: DYN106
        torch.manual_seed(0)  # warning: DYN106
        return out * 2
