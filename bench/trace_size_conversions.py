"""What torch.jit.trace 2.13 does with a traced size (or a traced tensor) given to a Python or library conversion:
each probe is traced on an example and run on a second input of another size; printed: equal to eager or not (or
how it fails), and the TracerWarnings torch issues (file, line, start of the text; torch's filter removed).

    python bench/trace_size_conversions.py          # an interpreter with torch 2.13, numpy, einops 0.8.2, einx 0.4.3

The table of the trace record (bench/records/2026-11-28-trace.md, fifth pass) is this script's output.
"""

from __future__ import annotations

import math
import operator
import warnings

import numpy as np
import torch
import torch.nn.functional as F

A3, B3 = torch.randn(2, 3, 4), torch.randn(5, 3, 6)
A4, B4 = torch.randn(2, 3, 4, 6), torch.randn(2, 3, 8, 10)
SCALES = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]


def probe(name, forward, first=A3, second=B3, parameters=None):
    module = type("M", (torch.nn.Module,), {"forward": lambda self, x: forward(self, x)})()
    for key, value in (parameters or {}).items():
        setattr(module, key, torch.nn.Parameter(value))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            traced = torch.jit.trace(module, (first,), check_trace=False)
        except Exception as error:  # noqa: BLE001 - the probe reports what torch raised
            print(f"{name:44s} trace raises {type(error).__name__}: {str(error).splitlines()[0][:70]}")
            return
    seen = sorted({(w.filename.rsplit("/", 1)[-1], w.lineno, str(w.message)[:40]) for w in caught
                   if "deprecated" not in str(w.message)})
    try:
        got, want = traced(second), module(second)
        verdict = ("equal" if torch.allclose(got, want) else "differs") if got.shape == want.shape else \
            f"shape {tuple(got.shape)} vs eager {tuple(want.shape)}"
    except Exception as error:  # noqa: BLE001
        verdict = "fails: " + str(error).splitlines()[0][:50]
    print(f"{name:44s} {verdict:34s} {seen}")


def main() -> None:
    import einops
    import einx

    print("-- Python conversions of a traced size")
    probe("range(n)", lambda s, x: sum(x[..., i] for i in range(x.shape[2])))
    probe("operator.index(n)", lambda s, x: x.new_zeros(operator.index(x.shape[2])))
    probe("list[n]", lambda s, x: x * SCALES[x.shape[2]])
    probe("math.sqrt(n)", lambda s, x: x * math.sqrt(x.shape[2]))
    probe("float(np.sqrt(n))", lambda s, x: x * float(np.sqrt(x.shape[2])))
    probe("np.linspace(0, 1, n)", lambda s, x: x * torch.from_numpy(np.linspace(0, 1, x.shape[2])).float())
    probe("f-string of n", lambda s, x: x * len(f"{x.shape[2]}"), A3, torch.randn(5, 3, 12))
    probe("x.shape[1:] == (3, 4)", lambda s, x: x * 2 if x.shape[1:] == (3, 4) else x)
    probe("n in (4, 5)", lambda s, x: x * 2 if x.shape[2] in (4, 5) else x)
    probe("{4: 1.0}.get(n)", lambda s, x: x * {4: 1.0}.get(x.shape[2], 2.0))
    probe("round(n / 2)", lambda s, x: x.new_zeros(round(x.shape[2] / 2)))
    probe("divmod(n, 2)", lambda s, x: x.new_zeros(divmod(x.shape[2], 2)[0]))
    probe("n ** -0.5 (stays traced)", lambda s, x: x * x.shape[2] ** -0.5)
    probe("list(x.shape) to view (stays)", lambda s, x: x.view(list(x.shape)[:1] + [-1]))
    print("-- iterating a tensor")
    probe("map(f, x)", lambda s, x: torch.stack(list(map(lambda t: t * 2, x))))
    probe("map(f, parameter)", lambda s, x: sum(map(lambda t: t.sum(), s.p)) + x, parameters={"p": torch.randn(2, 3)})
    print("-- torch functions given a traced size")
    a1, b1 = torch.randn(2, 3, 4), torch.randn(2, 3, 8)
    probe("x.chunk(n, -1)", lambda s, x: torch.cat(x.chunk(x.shape[2] // 2, -1)[::-1], -1), a1, b1)
    probe("torch.tensor_split(x, n, -1)", lambda s, x: torch.cat(torch.tensor_split(x, x.shape[2] // 2, -1)[::-1], -1),
          a1, b1)
    probe("torch.tensor_split(x, [n], -1) (stays)",
          lambda s, x: torch.cat(torch.tensor_split(x, [x.shape[2] // 2], -1)[::-1], -1), a1, b1)
    probe("x.roll(n, -1)", lambda s, x: x.roll(x.shape[2] // 2, -1), a1, b1)
    probe("x.roll((n,), (-1,)) (stays)", lambda s, x: x.roll((x.shape[2] // 2,), (-1,)), a1, b1)
    probe("F.avg_pool1d(x, n)", lambda s, x: F.avg_pool1d(x, x.shape[2]), a1, b1)
    probe("F.avg_pool1d(x, (n,)) (stays)", lambda s, x: F.avg_pool1d(x, (x.shape[2],)), a1, b1)
    probe("F.max_pool1d(x, n)", lambda s, x: F.max_pool1d(x, x.shape[2]), a1, b1)
    probe("F.adaptive_avg_pool1d(x, n)", lambda s, x: F.adaptive_avg_pool1d(x, x.shape[2] // 2), a1, b1)
    probe("F.adaptive_max_pool1d(x, n)", lambda s, x: F.adaptive_max_pool1d(x, x.shape[2] // 2), a1, b1)
    probe("F.adaptive_avg_pool1d(x, (n,)) (stays)", lambda s, x: F.adaptive_avg_pool1d(x, (x.shape[2] // 2,)), a1, b1)
    probe("F.avg_pool2d(x, x.shape[2]) (lone)", lambda s, x: F.avg_pool2d(x, x.shape[2]), A4, B4)
    probe("F.max_pool2d(x, x.shape[2]) (lone)", lambda s, x: F.max_pool2d(x, x.shape[2]), A4, B4)
    probe("F.avg_pool2d(x, x.shape[2:]) (stays)", lambda s, x: F.avg_pool2d(x, x.shape[2:]), A4, B4)
    probe("F.adaptive_avg_pool2d(x, n) (lone)", lambda s, x: F.adaptive_avg_pool2d(x, x.shape[2] // 2), A4, B4)
    probe("F.adaptive_avg_pool2d(x, (h, w)) (stays)",
          lambda s, x: F.adaptive_avg_pool2d(x, (x.shape[2] // 2, x.shape[3] // 2)), A4, B4)
    probe("F.interpolate(scale_factor=n / 2)", lambda s, x: F.interpolate(x, scale_factor=x.shape[2] / 2))
    probe("F.unfold(x, kernel_size=n)", lambda s, x: F.unfold(x, kernel_size=x.shape[2] // 2), A4, B4)
    for name, forward in (("x.narrow(-1, 0, n)", lambda s, x: x.narrow(-1, 0, x.shape[2] // 2)),
                          ("x.topk(n, -1)", lambda s, x: x.topk(x.shape[2] // 2, -1)[0]),
                          ("x.unfold(-1, n, n)", lambda s, x: x.unfold(-1, x.shape[2] // 2, x.shape[2] // 2)),
                          ("x.unflatten(-1, (n, -1))", lambda s, x: x.unflatten(-1, (x.shape[2] // 2, -1))),
                          ("F.pad(x, (n, 0))", lambda s, x: F.pad(x, (x.shape[2], 0))),
                          ("torch.linspace(0, 1, n)", lambda s, x: x * torch.linspace(0, 1, x.shape[2])),
                          ("torch.eye(n)", lambda s, x: x @ torch.eye(x.shape[2])),
                          ("x.split([n, rest], -1)", lambda s, x: torch.cat(
                              x.split([x.shape[2] // 2, x.shape[2] - x.shape[2] // 2], -1)[::-1], -1)),
                          ("torch.tensor(n)", lambda s, x: x * torch.tensor(x.shape[2]))):
        probe(name + " (stays)", forward, a1, b1)
    print("-- einops 0.8.2 and einx 0.4.3")
    probe("einops.repeat(p, .., b=n)", lambda s, x: einops.repeat(s.p, "c n -> b c n", b=x.shape[0]) + x,
          A3, torch.randn(5, 3, 4), {"p": torch.randn(3, 4)})
    probe("einops.reduce(x, .., n=n // 2)", lambda s, x: einops.reduce(x, "b c (n m) -> b c n", "mean",
                                                                       n=x.shape[2] // 2))
    probe("einops.unpack(*einops.pack(..))", lambda s, x: torch.cat(einops.unpack(
        *einops.pack([x, x], "b c *"), "b c *"), -1))
    probe("einops.parse_shape(x)", lambda s, x: x.new_zeros(einops.parse_shape(x, "b c n")["n"]))
    probe("einx.subtract on arange(n)", lambda s, x: einx.subtract(
        "i, j -> i j", torch.arange(x.shape[2]), torch.arange(x.shape[2])) + x.sum())
    probe("einx.add(x, bias)", lambda s, x: einx.add("b c n, c -> b c n", x, s.bias), parameters={"bias": torch.randn(3)})
    probe("einx.subtract on parameters", lambda s, x: einx.subtract("i, j -> i j", s.p, s.q) + x.sum(),
          parameters={"p": torch.randn(4), "q": torch.randn(4)})
    probe("einx.id(x, ..) reshaping x", lambda s, x: einx.id("b c (s t) -> b c s t", x, t=2))


if __name__ == "__main__":
    main()
