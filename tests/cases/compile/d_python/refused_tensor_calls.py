# case: tensor operations Dynamo's handlers refuse in every mode
# torch: breaks
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        a = torch.zeros(4, 3, requires_grad=True)  # warning: DYN114
        b = torch.ones_like(x, requires_grad=True)  # warning: DYN114
        noise = torch.empty(4, 3).random_(0, 10)  # warning: DYN114
        flag = torch.is_inference_mode_enabled()  # warning: DYN114
        inference = x.is_inference()  # warning: DYN114
        y = (x * 2).detach()
        y.requires_grad = True  # warning: DYN114
        z = x.contiguous()
        same = z.data_ptr() == x.data_ptr()  # warning: DYN114
        return x + a + b + noise + y, flag, inference, same
