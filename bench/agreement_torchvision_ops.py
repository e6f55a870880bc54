"""torchvision's operator schemas, for measuring torchvision with a CPU-only torch (bench/agreement.py only).

The registry's torchvision 0.28 wheels are CUDA builds: their `_C.so` needs libc10_cuda.so, so with the CPU
torch 2.13 it does not load, and `import torchvision` then fails in `_meta_registrations.py`
("operator torchvision::nms does not exist"). TorchScript only needs an operator's schema to compile a call to
`torch.ops.torchvision.<op>`, so this defines the schemas (as the wheel's `_C.so` declares them, read with
`strings`) without kernels, before torchvision is first imported. Nothing is run: the benchmark only scripts.

Enable it in the measuring virtualenv with a .pth file (see bench/agreement.py), never in jitlint itself:

    echo "import agreement_torchvision_ops" > $VENV/lib/python3.11/site-packages/agreement_torchvision_ops.pth
    ln -s $PWD/bench/agreement_torchvision_ops.py $VENV/lib/python3.11/site-packages/
"""

from __future__ import annotations

import importlib.abc
import sys

SCHEMAS = [
    "nms(Tensor dets, Tensor scores, float iou_threshold) -> Tensor",
    "box_iou_rotated(Tensor boxes1, Tensor boxes2) -> Tensor",
    "qnms(Tensor dets, Tensor scores, float iou_threshold) -> Tensor",
    "roi_align(Tensor input, Tensor rois, float spatial_scale, SymInt pooled_height, SymInt pooled_width, "
    "int sampling_ratio, bool aligned) -> Tensor",
    "_roi_align_backward(Tensor grad, Tensor rois, float spatial_scale, SymInt pooled_height, SymInt pooled_width, "
    "SymInt batch_size, SymInt channels, SymInt height, SymInt width, int sampling_ratio, bool aligned) -> Tensor",
    "ps_roi_align(Tensor input, Tensor rois, float spatial_scale, SymInt pooled_height, SymInt pooled_width, "
    "int sampling_ratio) -> (Tensor, Tensor)",
    "roi_pool(Tensor input, Tensor rois, float spatial_scale, SymInt pooled_height, SymInt pooled_width) "
    "-> (Tensor, Tensor)",
    "ps_roi_pool(Tensor input, Tensor rois, float spatial_scale, SymInt pooled_height, SymInt pooled_width) "
    "-> (Tensor, Tensor)",
    "deform_conv2d(Tensor input, Tensor weight, Tensor offset, Tensor mask, Tensor bias, SymInt stride_h, "
    "SymInt stride_w, SymInt pad_h, SymInt pad_w, SymInt dilation_h, SymInt dilation_w, SymInt groups, "
    "SymInt offset_groups, bool use_mask) -> Tensor",
    "_deform_conv2d_backward(Tensor grad, Tensor input, Tensor weight, Tensor offset, Tensor mask, Tensor bias, "
    "SymInt stride_h, SymInt stride_w, SymInt pad_h, SymInt pad_w, SymInt dilation_h, SymInt dilation_w, "
    "SymInt groups, SymInt offset_groups, bool use_mask) -> (Tensor, Tensor, Tensor, Tensor, Tensor)",
]

_library = None


def define() -> None:
    global _library
    if _library is not None:
        return
    import torch

    if hasattr(torch.ops.torchvision, "nms"):
        _library = False  # a working torchvision extension already defined them
        return
    _library = torch.library.Library("torchvision", "DEF")
    for schema in SCHEMAS:
        _library.define(schema)


class _BeforeTorchvision(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name == "torchvision":
            sys.meta_path.remove(self)
            try:
                define()
            except Exception:  # never break an interpreter over a benchmark aid
                pass
        return None


sys.meta_path.insert(0, _BeforeTorchvision())
