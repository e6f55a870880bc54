"""Which torch and torch.nn.functional calls fail under plain symbolic_trace when an argument is a Proxy: the probe
behind `src/jitlint/targets/fx/torch_checks.toml` (not part of the product). Run with torch 2.13 importable:

    python -W ignore bench/fx_torch_arguments_probe.py [NAME ...]

Each line: the call, then OK (it traces) or the exception, its message and the innermost torch frame outside
torch/fx (where torch itself raised).
"""
import torch, torch.nn as nn, torch.nn.functional as F, traceback
import torch.distributions as D
cases = {
 "broadcast_shapes": lambda x: torch.broadcast_shapes(x.shape, (3,)),
 "broadcast_shapes_concrete_then_proxy": lambda x: torch.broadcast_shapes((2,3), x.shape[:-1]),
 "Normal": lambda x: D.Normal(x, x.abs()),
 "Normal_noval": lambda x: D.Normal(x, x.abs(), validate_args=False),
 "Normal_loc_only": lambda x: D.Normal(x, 1.0),
 "StudentT": lambda x: D.StudentT(df=2.0, loc=x, scale=1.0),
 "Poisson": lambda x: D.Poisson(x),
 "Bernoulli_logits": lambda x: D.Bernoulli(logits=x),
 "Categorical_logits": lambda x: D.Categorical(logits=x),
 "MVN": lambda x: D.MultivariateNormal(x, torch.eye(3)),
 "Uniform": lambda x: D.Uniform(x, x+1),
 "Independent": lambda x: D.Independent(D.Normal(torch.zeros(3), 1.0), 1),
 "interp_size_proxy": lambda x: F.interpolate(x, size=x.shape[-1]),
 "interp_scale_proxy": lambda x: F.interpolate(x, scale_factor=x.shape[-1]),
 "interp_concrete_input_proxy_size": lambda x: F.interpolate(torch.zeros(1,1,4), size=x.shape[-1]),
 "pad_proxy_pads": lambda x: F.pad(x, (0, x.shape[-1])),
 "pad_concrete_input_proxy_pads": lambda x: F.pad(torch.zeros(1,1,4), (0, x.shape[-1])),
 "pack_padded": lambda x: nn.utils.rnn.pack_padded_sequence(x, x.sum(1), batch_first=True),
 "pack_padded_concrete_len": lambda x: nn.utils.rnn.pack_padded_sequence(x, [3,2], batch_first=True),
 "as_tensor_proxy": lambda x: torch.as_tensor(x),
 "full_tuple_proxy": lambda x: torch.full((x.shape[0], 3), 1.0),
 "zeros_tuple_proxy": lambda x: torch.zeros((x.shape[0], 3)),
 "zeros_proxy_elems": lambda x: torch.zeros(x.shape[0], 3),
 "arange_proxy": lambda x: torch.arange(x.shape[0]),
 "einsum": lambda x: torch.einsum("ij->ji", x),
 "split_proxy": lambda x: torch.split(x, x.shape[0]),
 "meshgrid": lambda x: torch.meshgrid(x, x, indexing="ij"),
 "stft": lambda x: torch.stft(x, 4, return_complex=True),
 "norm": lambda x: torch.norm(x, p=1, dim=1),
 "atleast_2d": lambda x: torch.atleast_2d(x),
 "unravel_index": lambda x: torch.unravel_index(x, (3, 4)),
 "cdist": lambda x: torch.cdist(x, x),
 "tensordot": lambda x: torch.tensordot(x, x, dims=1),
 "chain_matmul": lambda x: torch.chain_matmul(x, x),
 "block_diag": lambda x: torch.block_diag(x, x),
 "cartesian_prod": lambda x: torch.cartesian_prod(x, x),
 "F.one_hot": lambda x: F.one_hot(x),
 "F.dropout_p_proxy": lambda x: F.dropout(x, p=x.mean()),
 "F.softmax_dim_proxy": lambda x: F.softmax(x, dim=x.shape[0]),
 "F.normalize": lambda x: F.normalize(x, dim=1),
 "F.grid_sample": lambda x: F.grid_sample(x, x),
 "F.affine_grid_size_proxy": lambda x: F.affine_grid(x, x.shape),
 "F.adaptive_avg_pool2d_proxy_size": lambda x: F.adaptive_avg_pool2d(x, x.shape[-1]),
 "F.avg_pool1d_proxy_k": lambda x: F.avg_pool1d(x, x.shape[-1]),
 "F.unfold_proxy": lambda x: F.unfold(x, x.shape[-1]),
 "F.layer_norm_shape": lambda x: F.layer_norm(x, x.shape[-1:]),
 "F.gelu": lambda x: F.gelu(x),
 "F.multi_head_attention_forward": lambda x: F.scaled_dot_product_attention(x, x, x),
 "torch.Size": lambda x: torch.Size(x.shape),
 "tensor_split_proxy": lambda x: torch.tensor_split(x, x.shape[0]),
 "tensor.new_zeros_tuple": lambda x: x.new_zeros((x.shape[0], 3)),
 "repeat_interleave_proxy": lambda x: torch.repeat_interleave(x, x.shape[0]),
}
import sys
sel = sys.argv[1:] or list(cases)
for name in sel:
    fn = cases[name]
    class M(nn.Module):
        def forward(self, x):
            return fn(x)
    try:
        torch.fx.symbolic_trace(M())
        print(f"{name:40s} OK")
    except Exception as e:
        tb = traceback.extract_tb(e.__traceback__)
        inner = [f for f in tb if "torch/" in f.filename and "torch/fx/" not in f.filename]
        where = f"{inner[-1].filename.split('site-packages/')[-1]}:{inner[-1].lineno}" if inner else "-"
        print(f"{name:40s} {type(e).__name__}: {str(e)[:90]!r} @ {where}")
