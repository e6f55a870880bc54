"""CPU kernels for torchvision's `nms` and `roi_align`, for running torchvision's detection models with a CPU-only
torch 2.13 (bench/compile_truth.py only; never in jitlint itself).

bench/agreement_torchvision_ops.py defines the operators' schemas (the wheel's `_C.so` does not load with the CPU
torch); torchvision's own fake implementations (`_meta_registrations.py`) then say their output shapes, which is all
Dynamo reads. To run a model the operators also need kernels: these are plain PyTorch, `roi_align` by torchvision's
own reference implementation (`torchvision.ops.roi_align._roi_align`) and `nms` by the textbook greedy loop, and
`torchvision.extension._has_ops()` answers True as it does when the extension loads. They change nothing Dynamo
sees (the same schemas and fake implementations); they make the eager calls work.
"""

from __future__ import annotations

import torch


def _nms(dets: torch.Tensor, scores: torch.Tensor, iou_threshold: float) -> torch.Tensor:
    order = scores.argsort(descending=True)
    keep = []
    boxes = dets[order]
    areas = (boxes[:, 2] - boxes[:, 0]).clamp(min=0) * (boxes[:, 3] - boxes[:, 1]).clamp(min=0)
    suppressed = torch.zeros(len(order), dtype=torch.bool)
    for i in range(len(order)):
        if suppressed[i]:
            continue
        keep.append(int(order[i]))
        lt = torch.maximum(boxes[i, :2], boxes[i + 1:, :2])
        rb = torch.minimum(boxes[i, 2:], boxes[i + 1:, 2:])
        inter = (rb - lt).clamp(min=0).prod(1)
        iou = inter / (areas[i] + areas[i + 1:] - inter)
        suppressed[i + 1:] |= iou > iou_threshold
    return torch.tensor(keep, dtype=torch.long)


def _has_ops() -> bool:
    return True


def install() -> None:
    import sys

    import torchvision  # noqa: F401  (its fake implementations register with the schemas)
    import torchvision.extension
    import torchvision.ops.roi_align  # noqa: F401  (`torchvision.ops.roi_align` is then the function: see below)
    from torchvision.ops.roi_align import _roi_align

    # What `_has_ops()` says when the extension loads (the ops' wrappers check it; Dynamo traces the check).
    torchvision.extension._has_ops = _has_ops
    sys.modules["torchvision.ops.roi_align"]._has_ops = _has_ops
    # torchvision registers its Meta kernels (the output shapes Dynamo traces with) only when the extension loads.
    import torchvision._meta_registrations as meta

    for name in ("roi_align", "_roi_align_backward", "ps_roi_align", "roi_pool", "ps_roi_pool"):
        kernel = getattr(meta, f"meta_{name}", None)
        if kernel is not None:
            meta.get_meta_lib().impl(getattr(torch.ops.torchvision, name).default, kernel)
    library = torch.library.Library("torchvision", "IMPL", "CPU")
    library.impl("nms", _nms)
    library.impl("roi_align", lambda input, rois, scale, height, width, ratio, aligned: _roi_align(
        input, rois, scale, height, width, ratio, aligned))
    install.library = library  # keep the registrations alive
