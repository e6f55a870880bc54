"""What torch.compile (TorchDynamo, backend "eager", default config, eval mode) does with real models: the ground
truth the compile target is measured against (a benchmark, not a test; bench/compile_accuracy.py scores jitlint).

    python bench/compile_truth.py --lib torchvision --out truth-torchvision.json [--models a,b]
    python bench/compile_truth.py --lib timm --out truth-timm.json
    python bench/compile_truth.py --lib transformers --out truth-transformers.json

    PYTHONPATH=/work/corpus/more/vit_pytorch python bench/compile_truth.py --lib vit_pytorch --out truth-vit.json
    PYTHONPATH=/work/corpus/more/pytorchcv python bench/compile_truth.py --lib pytorchcv --out truth-pytorchcv.json

Run it with an interpreter that has the library and torch 2.13 (/work/agree-venv; for torchvision's detection
models bench/compile_torchvision_kernels.py supplies CPU kernels for `nms` and `roi_align`). For each model it records,
as (file inside the package, line):

- `executed`: the lines of the package the eager forward ran (sys.settrace): code torch.compile traces;
- `breaks`: the graph breaks of a compile with the default config, two calls with fresh inputs of the same shapes:
  each break's innermost line in the package (for a break inside torch or the standard library, the package's call
  site), its id and reason, whether Dynamo gave up the frame;
- `recompiles`: the guard that failed and its line in the package, if any; `limit`: the recompile limit warning;
- `fullgraph`: the error of `fullgraph=True` and its line in the package (torch stops at the first).

The child side is the compile confirmer's own (src/jitlint/targets/compile/confirm_child.py, torch and the standard
library only).
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import io
import json
import os
import sys
import time
import traceback
import types
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CHILD = ROOT / "src" / "jitlint" / "targets" / "compile" / "confirm_child.py"

TORCHVISION_DETECTION = [
    "fasterrcnn_resnet50_fpn", "fasterrcnn_resnet50_fpn_v2", "fasterrcnn_mobilenet_v3_large_fpn",
    "fasterrcnn_mobilenet_v3_large_320_fpn", "retinanet_resnet50_fpn", "retinanet_resnet50_fpn_v2",
    "fcos_resnet50_fpn", "ssd300_vgg16", "ssdlite320_mobilenet_v3_large", "maskrcnn_resnet50_fpn",
    "maskrcnn_resnet50_fpn_v2", "keypointrcnn_resnet50_fpn",
]
TORCHVISION_OTHER = [
    "resnet18", "mobilenet_v3_small", "efficientnet_b0", "convnext_tiny", "vit_b_16", "swin_t", "swin_v2_t",
    "regnet_y_400mf", "squeezenet1_0", "googlenet", "inception_v3", "densenet121", "shufflenet_v2_x0_5", "mnasnet0_5",
    "maxvit_t", "alexnet", "vgg11", "wide_resnet50_2", "efficientnet_v2_s",
    "segmentation.fcn_resnet50", "segmentation.deeplabv3_mobilenet_v3_large", "segmentation.lraspp_mobilenet_v3_large",
    "video.r3d_18", "video.s3d", "video.mvit_v1_b", "video.swin3d_t", "optical_flow.raft_small",
]
TIMM = [
    "resnet18", "resnet50d", "efficientnet_b0", "mobilenetv3_small_100", "convnext_tiny", "vit_tiny_patch16_224",
    "deit_tiny_patch16_224", "swin_tiny_patch4_window7_224", "swinv2_tiny_window8_256", "regnety_002",
    "rexnet_100", "mixer_b16_224", "resmlp_12_224", "gmlp_ti16_224", "cait_xxs24_224", "coat_tiny",
    "levit_128s", "poolformer_s12", "convmixer_768_32", "edgenext_xx_small", "efficientformer_l1",
    "mobilevit_xxs", "pit_ti_224", "tnt_s_patch16_224", "twins_svt_small", "xcit_nano_12_p16_224",
    "crossvit_tiny_240", "volo_d1_224", "nfnet_l0", "dla34", "hrnet_w18_small", "sequencer2d_s", "beit_base_patch16_224",
    "eva02_tiny_patch14_224", "fastvit_t8", "maxvit_tiny_tf_224", "nest_tiny", "visformer_tiny", "ghostnet_100",
    "hgnet_tiny", "inception_next_tiny", "mambaout_femto", "davit_tiny", "focalnet_tiny_srf", "vitamin_small_224",
]
TRANSFORMERS = [
    "bert", "gpt2", "t5", "vit", "llama", "mistral", "roberta", "distilbert", "albert", "bart", "whisper",
    "clip_text", "convnext", "swin", "deit", "opt", "gpt_neox", "qwen2", "phi", "electra",
]


def _load_child():
    spec = importlib.util.spec_from_file_location("_compile_truth_child", CHILD)
    child = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(child)
    return child


def _torchvision(name: str):
    import torch
    import torchvision.models as models

    namespace, _, short = name.rpartition(".")
    if short in TORCHVISION_DETECTION:
        namespace = "detection"
    builder = getattr(getattr(models, namespace) if namespace else models, short)
    if short in TORCHVISION_DETECTION:
        kwargs = {"weights": None, "weights_backbone": None}
        if short.startswith("keypoint"):
            kwargs["num_keypoints"] = 17
        model = builder(**kwargs)
        return model, lambda: ([torch.rand(3, 256, 256)],)
    kwargs = {"weights": None}
    if short == "inception_v3":
        kwargs["aux_logits"] = True
        kwargs["init_weights"] = False
        return builder(**kwargs), lambda: (torch.rand(1, 3, 299, 299),)
    if namespace == "video":
        return builder(**kwargs), lambda: (torch.rand(1, 3, 16, 112, 112),)
    if namespace == "optical_flow":
        return builder(**kwargs), lambda: (torch.rand(1, 3, 128, 128), torch.rand(1, 3, 128, 128))
    if short == "googlenet":
        kwargs["init_weights"] = False
    size = 224
    return builder(**kwargs), lambda: (torch.rand(1, 3, size, size),)


def _timm(name: str):
    import timm
    import torch

    model = timm.create_model(name, pretrained=False)
    size = model.pretrained_cfg.get("input_size", (3, 224, 224))
    return model, lambda: (torch.rand(1, *size),)


def _transformers(name: str):
    import torch
    import transformers as tf

    small = dict(hidden_size=64, num_hidden_layers=2, num_attention_heads=4, intermediate_size=128)
    ids = lambda: (torch.randint(0, 100, (1, 16)),)  # noqa: E731
    if name in ("bert", "roberta", "distilbert", "albert", "electra"):
        config = {"bert": tf.BertConfig, "roberta": tf.RobertaConfig, "albert": tf.AlbertConfig,
                  "electra": tf.ElectraConfig}.get(name)
        if name == "distilbert":
            config = tf.DistilBertConfig(dim=64, n_layers=2, n_heads=4, hidden_dim=128, vocab_size=128)
        else:
            config = config(vocab_size=128, **small)
        return tf.AutoModel.from_config(config), ids
    if name == "gpt2":
        return tf.GPT2Model(tf.GPT2Config(n_embd=64, n_layer=2, n_head=4, vocab_size=128)), ids
    if name == "t5":
        model = tf.T5Model(tf.T5Config(d_model=64, d_ff=128, num_layers=2, num_heads=4, vocab_size=128))
        return model, lambda: (torch.randint(0, 100, (1, 16)), None, None, torch.randint(0, 100, (1, 8)))
    if name == "bart":
        model = tf.BartModel(tf.BartConfig(d_model=64, encoder_layers=2, decoder_layers=2, encoder_attention_heads=4,
                                            decoder_attention_heads=4, encoder_ffn_dim=128, decoder_ffn_dim=128,
                                            vocab_size=128))
        return model, ids
    if name in ("llama", "mistral", "qwen2", "phi", "gpt_neox", "opt"):
        config = {"llama": tf.LlamaConfig, "mistral": tf.MistralConfig, "qwen2": tf.Qwen2Config, "phi": tf.PhiConfig,
                  "gpt_neox": tf.GPTNeoXConfig}.get(name)
        if name == "opt":
            config = tf.OPTConfig(hidden_size=64, num_hidden_layers=2, num_attention_heads=4, ffn_dim=128,
                                  vocab_size=128, word_embed_proj_dim=64)
        else:
            config = config(vocab_size=128, num_key_value_heads=4, **small) if name != "gpt_neox" else config(
                vocab_size=128, **small)
        return tf.AutoModel.from_config(config), ids
    if name in ("vit", "deit", "swin", "convnext"):
        config = {"vit": tf.ViTConfig(image_size=32, patch_size=8, **small),
                  "deit": tf.DeiTConfig(image_size=32, patch_size=8, **small),
                  "swin": tf.SwinConfig(image_size=32, patch_size=4, embed_dim=16, depths=[1, 1], num_heads=[2, 2],
                                        window_size=4),
                  "convnext": tf.ConvNextConfig(hidden_sizes=[16, 32], depths=[1, 1], num_channels=3)}[name]
        return tf.AutoModel.from_config(config), lambda: (torch.rand(1, 3, 32, 32),)
    if name == "whisper":
        config = tf.WhisperConfig(d_model=64, encoder_layers=1, decoder_layers=1, encoder_attention_heads=4,
                                  decoder_attention_heads=4, encoder_ffn_dim=128, decoder_ffn_dim=128,
                                  num_mel_bins=16, max_source_positions=32, vocab_size=128)
        model = tf.WhisperModel(config)
        return model, lambda: (torch.rand(1, 16, 64), None, None, torch.randint(0, 100, (1, 4)))
    if name == "clip_text":
        config = tf.CLIPTextConfig(vocab_size=128, **small)
        return tf.CLIPTextModel(config), ids
    raise KeyError(name)


# Two libraries nobody tuned the compile target on (`/work/corpus/more`), importable with torch and einops only.
EFFICIENTNET = ["efficientnet-b0", "efficientnet-b3"]
VIT_PYTORCH = {
    "vit.ViT": dict(image_size=32, patch_size=8, num_classes=10, dim=64, depth=2, heads=4, mlp_dim=128),
    "simple_vit.SimpleViT": dict(image_size=32, patch_size=8, num_classes=10, dim=64, depth=2, heads=4, mlp_dim=128),
    "deepvit.DeepViT": dict(image_size=32, patch_size=8, num_classes=10, dim=64, depth=2, heads=4, mlp_dim=128),
    "cait.CaiT": dict(image_size=32, patch_size=8, num_classes=10, dim=64, depth=2, cls_depth=1, heads=4,
                      mlp_dim=128, layer_dropout=0.1),
    "vit_for_small_dataset.ViT": dict(image_size=32, patch_size=8, num_classes=10, dim=64, depth=2, heads=4,
                                      mlp_dim=128),
    "ats_vit.ViT": dict(image_size=32, patch_size=8, num_classes=10, dim=64, depth=2, heads=4, mlp_dim=128,
                        max_tokens_per_depth=(12, 8)),
    "parallel_vit.ViT": dict(image_size=32, patch_size=8, num_classes=10, dim=64, depth=2, heads=4, mlp_dim=128),
    "rvt.RvT": dict(image_size=32, patch_size=8, num_classes=10, dim=64, depth=2, heads=4, mlp_dim=128),
    "pit.PiT": dict(image_size=32, patch_size=4, num_classes=10, dim=64, depth=(1, 1, 1), heads=4, mlp_dim=128),
    "levit.LeViT": dict(image_size=64, num_classes=10, stages=3, dim=(32, 64, 96), depth=1, heads=(2, 2, 2),
                        mlp_mult=2),
    "xcit.XCiT": dict(image_size=32, patch_size=8, num_classes=10, dim=64, depth=2, cls_depth=1, heads=4,
                      mlp_dim=128),
    "nest.NesT": dict(image_size=32, patch_size=4, num_classes=10, dim=32, heads=2, num_hierarchies=2,
                      block_repeats=(1, 1)),
    "twins_svt.TwinsSVT": dict(num_classes=10),
    "cvt.CvT": dict(num_classes=10),
    "mobile_vit.MobileViT": dict(image_size=(64, 64), dims=[32, 48, 64],
                                 channels=[8, 8, 12, 12, 16, 16, 24, 24, 32, 32, 64], num_classes=10),
}


def _efficientnet(name: str):
    import torch
    from efficientnet_pytorch import EfficientNet

    model = EfficientNet.from_name(name)
    return model, lambda: (torch.rand(1, 3, 224, 224),)


def _vit_pytorch(name: str):
    import importlib

    import torch

    module, _, cls = name.rpartition(".")
    model = getattr(importlib.import_module(f"vit_pytorch.{module}"), cls)(**VIT_PYTORCH[name])
    size = VIT_PYTORCH[name].get("image_size", 224)
    size = size if isinstance(size, tuple) else (size, size)
    return model, lambda: (torch.rand(1, 3, *size),)


# Two more (`/work/corpus/more`): pytorchcv (torch only) and perceiver_pytorch (torch and einops).
PYTORCHCV = ["shufflenetv2_wd2", "squeezenet_v1_1", "mobilenetv3_small_w7d20", "ghostnet", "resnet10", "superpointnet",
             "simplepose_resnet18_coco", "visemenet20"]
_PERCEIVER = dict(num_freq_bands=4, depth=2, max_freq=10.0, input_channels=3, input_axis=2, num_latents=16,
                  latent_dim=32, cross_dim_head=16, latent_dim_head=16, num_classes=10)
PERCEIVER = {
    "perceiver_pytorch.Perceiver": _PERCEIVER,
    "mixed_latents.Perceiver": _PERCEIVER,
    "gated.Perceiver": _PERCEIVER,
    "perceiver_io.PerceiverLM": dict(num_tokens=64, dim=32, depth=2, max_seq_len=32, num_latents=8, latent_dim=32,
                                     cross_dim_head=16, latent_dim_head=16),
}


def _pytorchcv(name: str):
    import torch
    from pytorchcv.model_provider import get_model

    model = get_model(name, pretrained=False)
    if name == "superpointnet":
        return model, lambda: (torch.rand(1, 1, 224, 224),)
    if name.startswith("simplepose"):
        return model, lambda: (torch.rand(1, 3, 256, 192),)
    if name == "visemenet20":
        return model, lambda: (torch.randn(2, 8, 195), torch.full((2, 76), 3.0))
    return model, lambda: (torch.rand(1, 3, 224, 224),)


def _perceiver(name: str):
    import importlib

    import torch

    module, _, cls = name.rpartition(".")
    model = getattr(importlib.import_module(f"perceiver_pytorch.{module}"), cls)(**PERCEIVER[name])
    if cls == "PerceiverLM":
        return model, lambda: (torch.randint(0, 64, (1, 16)),)
    return model, lambda: (torch.rand(1, 16, 16, 3),)


# Three more (`/work/corpus/more`), with small configurations written from each library's README before any run:
# x_transformers (einops, einx, loguru, torch-einops-utils), openai_whisper (tiktoken, more-itertools, tqdm; numba,
# used only by its word-timing helper's decorator, is replaced by a no-op `jit` when it is missing),
# denoising_diffusion_pytorch (einops, ema-pytorch, accelerate, pytorch-fid, torchvision).
_XT = dict(dim=32, depth=2, heads=4)
X_TRANSFORMERS = {
    "decoder": dict(),
    "encoder": dict(kind="Encoder"),
    "decoder_rotary_glu": dict(rotary_pos_emb=True, ff_glu=True),
    "decoder_alibi": dict(alibi_pos_bias=True, alibi_num_heads=2),
    "decoder_rel_pos_bias": dict(rel_pos_bias=True),
    "decoder_memory_tokens": dict(wrapper=dict(num_memory_tokens=4)),
    "decoder_mem_kv_shift_macaron": dict(attn_num_mem_kv=4, shift_tokens=1, macaron=True),
    "encoder_residual_attn_sandwich": dict(kind="Encoder", residual_attn=True, sandwich_norm=True),
    "vit": dict(kind="ViT"),
    "continuous": dict(kind="Continuous"),
    "xtransformer": dict(kind="XTransformer"),
}
WHISPER = {"Whisper": dict(n_mels=16, n_audio_ctx=16, n_audio_state=32, n_audio_head=4, n_audio_layer=2, n_vocab=64,
                           n_text_ctx=16, n_text_state=32, n_text_head=4, n_text_layer=2)}
DDPM = ["Unet", "GaussianDiffusion", "Unet1D", "GaussianDiffusion1D", "KarrasUnet", "ElucidatedDiffusion"]


def _x_transformers(name: str):
    import torch
    import x_transformers as xt

    options = dict(X_TRANSFORMERS[name])
    kind = options.pop("kind", "Decoder")
    wrapper = options.pop("wrapper", {})
    tokens = lambda: (torch.randint(0, 64, (1, 16)),)  # noqa: E731
    if kind == "ViT":
        model = xt.ViTransformerWrapper(image_size=32, patch_size=8, num_classes=10,
                                        attn_layers=xt.Encoder(**_XT, **options))
        return model, lambda: (torch.rand(1, 3, 32, 32),)
    if kind == "Continuous":
        model = xt.ContinuousTransformerWrapper(dim_in=8, dim_out=8, max_seq_len=16,
                                                attn_layers=xt.Encoder(**_XT, **options))
        return model, lambda: (torch.rand(1, 16, 8),)
    if kind == "XTransformer":
        model = xt.XTransformer(dim=32, enc_num_tokens=64, enc_depth=1, enc_heads=4, enc_max_seq_len=16,
                                dec_num_tokens=64, dec_depth=1, dec_heads=4, dec_max_seq_len=16)
        return model, lambda: (torch.randint(0, 64, (1, 16)), torch.randint(0, 64, (1, 16)))
    layers = getattr(xt, kind)(**_XT, **options)
    return xt.TransformerWrapper(num_tokens=64, max_seq_len=16, attn_layers=layers, **wrapper), tokens


def _numba_stub() -> None:
    if "numba" not in sys.modules and importlib.util.find_spec("numba") is None:
        stub = types.ModuleType("numba")
        stub.jit = lambda *args, **kwargs: (lambda function: function)
        sys.modules["numba"] = stub


def _whisper(name: str):
    import torch

    _numba_stub()
    from whisper.model import ModelDimensions, Whisper

    dims = ModelDimensions(**WHISPER[name])
    return Whisper(dims), lambda: (torch.rand(1, dims.n_mels, 2 * dims.n_audio_ctx),
                                   torch.randint(0, dims.n_vocab, (1, 8)))


def _ddpm(name: str):
    import torch
    import denoising_diffusion_pytorch as ddpm

    image = lambda: (torch.rand(1, 3, 32, 32),)  # noqa: E731
    if name == "Unet":
        return ddpm.Unet(dim=16, dim_mults=(1, 2)), lambda: (torch.rand(1, 3, 32, 32), torch.randint(0, 10, (1,)))
    if name == "GaussianDiffusion":
        return ddpm.GaussianDiffusion(ddpm.Unet(dim=16, dim_mults=(1, 2)), image_size=32, timesteps=10), image
    if name == "Unet1D":
        return (ddpm.Unet1D(dim=16, dim_mults=(1, 2), channels=3),
                lambda: (torch.rand(1, 3, 32), torch.randint(0, 10, (1,))))
    if name == "GaussianDiffusion1D":
        model = ddpm.GaussianDiffusion1D(ddpm.Unet1D(dim=16, dim_mults=(1, 2), channels=3), seq_length=32,
                                         timesteps=10)
        return model, lambda: (torch.rand(1, 3, 32),)
    if name == "KarrasUnet":
        model = ddpm.KarrasUnet(image_size=32, dim=16, dim_max=32, channels=3, num_downsamples=2,
                                num_blocks_per_stage=1, attn_res=(16,), attn_dim_head=8)
        return model, lambda: (torch.rand(1, 3, 32, 32), torch.rand(1))
    if name == "ElucidatedDiffusion":
        net = ddpm.Unet(dim=16, dim_mults=(1, 2), random_fourier_features=True)
        return ddpm.ElucidatedDiffusion(net, image_size=32, num_sample_steps=4), image
    raise KeyError(name)


# Two more (`/work/corpus/more`), configurations written from each library's README before any run: torchdiffeq
# (torch only; `odeint` of a small MLP inside a module, one per solver) and facenet_pytorch (torch, numpy,
# torchvision's `batched_nms` for MTCNN's detector, with the CPU kernels of bench/compile_torchvision_kernels.py).
TORCHDIFFEQ = ["dopri5", "rk4", "euler", "midpoint", "bosh3", "adaptive_heun", "dopri8", "explicit_adams",
               "implicit_adams", "adjoint_dopri5"]
FACENET = ["InceptionResnetV1", "InceptionResnetV1_classify", "PNet", "RNet", "ONet", "MTCNN"]


def _torchdiffeq(name: str):
    import torch
    import torchdiffeq

    class Field(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.net = torch.nn.Sequential(torch.nn.Linear(4, 16), torch.nn.Tanh(), torch.nn.Linear(16, 4))

        def forward(self, t, y):
            return self.net(y)

    class Block(torch.nn.Module):
        def __init__(self, method: str, adjoint: bool):
            super().__init__()
            self.func, self.method = Field(), method
            self.solve = torchdiffeq.odeint_adjoint if adjoint else torchdiffeq.odeint
            self.register_buffer("t", torch.linspace(0.0, 1.0, 3))

        def forward(self, y0):
            options = {"step_size": 0.25} if self.method in FIXED_GRID else None
            return self.solve(self.func, y0, self.t, rtol=1e-3, atol=1e-4, method=self.method, options=options)[-1]

    FIXED_GRID = {"rk4", "euler", "midpoint", "explicit_adams", "implicit_adams"}
    adjoint = name.startswith("adjoint_")
    return Block(name.removeprefix("adjoint_"), adjoint), lambda: (torch.rand(2, 4),)


def _facenet(name: str):
    import torch
    import facenet_pytorch as fp

    if name.startswith("InceptionResnetV1"):
        classify = name.endswith("_classify")
        model = fp.InceptionResnetV1(classify=classify, num_classes=10 if classify else None)
        return model, lambda: (torch.rand(2, 3, 160, 160),)
    if name == "MTCNN":
        model = fp.MTCNN(image_size=64, keep_all=True, device="cpu")
        return model, lambda: (torch.rand(120, 120, 3) * 255,)
    sizes = {"PNet": 24, "RNet": 24, "ONet": 48}
    return getattr(fp.models.mtcnn, name)(pretrained=False), lambda: (torch.rand(2, 3, sizes[name], sizes[name]),)


ENCODEC = ["encodec_24khz", "encodec_48khz", "SEANetEncoder", "SEANetDecoder", "ResidualVectorQuantizer", "LMModel"]
PRETRAINEDMODELS = ["nasnetamobile", "bninception", "dpn68", "se_resnet50", "xception", "inceptionv4",
                    "cafferesnet101"]


def _torchaudio_stub() -> None:
    """encodec imports torchaudio for audio files and resampling only (not in the models' forwards)."""
    if "torchaudio" not in sys.modules and importlib.util.find_spec("torchaudio") is None:
        sys.modules["torchaudio"] = types.ModuleType("torchaudio")


def _encodec(name: str):
    import torch

    _torchaudio_stub()
    import encodec
    from encodec import modules, quantization

    if name.startswith("encodec_"):
        model = getattr(encodec.EncodecModel, f"encodec_model_{name.removeprefix('encodec_')}")(pretrained=False)
        model.set_target_bandwidth(6.0)
        channels = model.channels
        return model, lambda: (torch.rand(1, channels, 3200) * 2 - 1,)
    if name == "SEANetEncoder":
        return modules.SEANetEncoder(channels=1, norm="weight_norm", causal=True), lambda: (torch.rand(1, 1, 3200),)
    if name == "SEANetDecoder":
        return modules.SEANetDecoder(channels=1, norm="weight_norm", causal=True), lambda: (torch.rand(1, 128, 10),)
    if name == "ResidualVectorQuantizer":
        model = quantization.ResidualVectorQuantizer(dimension=32, n_q=4, bins=64)
        return model, lambda: (torch.rand(1, 32, 10), 75)
    model = encodec.model.LMModel(n_q=4, card=32, dim=32, num_layers=2, past_context=8)
    return model, lambda: (torch.randint(0, 33, (1, 4, 5)),)


def _pretrainedmodels(name: str):
    import torch
    import pretrainedmodels

    model = pretrainedmodels.__dict__[name](num_classes=1000, pretrained=None)
    size = pretrainedmodels.pretrained_settings[name]["imagenet"]["input_size"]
    return model, lambda: (torch.rand(1, *size),)


# Three more (`/work/corpus/more`, never used for compile before), configurations written from each library's
# documentation before any run: torchaudio 2.9.1 (its models; the package copied without its C++ libraries, which
# were built for another torch and which none of these forwards calls), lightly 1.6.0 (projection heads and losses,
# the modules a self-supervised training step compiles) and peft 0.21.2 (adapters on tiny transformers models).
TORCHAUDIO = ["Wav2Letter", "DeepSpeech", "ConvTasNet", "Conformer", "Emformer", "Wav2Vec2", "Wav2Vec2_lengths",
              "Tacotron2", "WaveRNN", "HDemucs"]
LIGHTLY = ["SimCLRProjectionHead", "SwaVPrototypes", "DINOProjectionHead", "NTXentLoss", "NTXentLoss_memory_bank",
           "BarlowTwinsLoss", "VICRegLoss", "DCLLoss", "SwaVLoss", "DINOLoss", "TiCoLoss", "MMCRLoss", "KoLeoLoss",
           "MSNLoss", "NegativeCosineSimilarity", "NNMemoryBankModule"]
PEFT = ["bert_lora", "llama_lora", "llama_ia3", "bert_prefix", "llama_adalora"]


def _torchaudio(name: str):
    import torch
    import torchaudio.models as tm

    if name == "Wav2Letter":
        return tm.Wav2Letter(num_classes=20, input_type="waveform"), lambda: (torch.rand(1, 1, 4000),)
    if name == "DeepSpeech":
        return tm.DeepSpeech(n_feature=40, n_hidden=64, n_class=20), lambda: (torch.rand(1, 1, 12, 40),)
    if name == "ConvTasNet":
        model = tm.ConvTasNet(num_sources=2, enc_kernel_size=16, enc_num_feats=32, msk_kernel_size=3, msk_num_feats=16,
                              msk_num_hidden_feats=32, msk_num_layers=2, msk_num_stacks=1)
        return model, lambda: (torch.rand(1, 1, 800),)
    if name == "Conformer":
        model = tm.Conformer(input_dim=32, num_heads=4, ffn_dim=64, num_layers=2, depthwise_conv_kernel_size=7)
        return model, lambda: (torch.rand(2, 20, 32), torch.tensor([20, 15]))
    if name == "Emformer":
        model = tm.Emformer(input_dim=32, num_heads=4, ffn_dim=64, num_layers=2, segment_length=4,
                            right_context_length=1)
        return model, lambda: (torch.rand(2, 21, 32), torch.tensor([20, 16]))
    if name.startswith("Wav2Vec2"):
        model = tm.wav2vec2_model(
            extractor_mode="group_norm", extractor_conv_layer_config=[(32, 10, 5), (32, 3, 2), (32, 2, 2)],
            extractor_conv_bias=False, encoder_embed_dim=64, encoder_projection_dropout=0.0,
            encoder_pos_conv_kernel=16, encoder_pos_conv_groups=4, encoder_num_layers=2, encoder_num_heads=4,
            encoder_attention_dropout=0.0, encoder_ff_interm_features=128, encoder_ff_interm_dropout=0.0,
            encoder_dropout=0.0, encoder_layer_norm_first=False, encoder_layer_drop=0.0, aux_num_out=20)
        if name.endswith("_lengths"):
            return model, lambda: (torch.rand(2, 1600), torch.tensor([1600, 1200]))
        return model, lambda: (torch.rand(1, 1600),)
    if name == "Tacotron2":
        model = tm.Tacotron2(n_mels=16, n_symbol=20, symbol_embedding_dim=32, encoder_embedding_dim=32,
                             decoder_rnn_dim=32, attention_rnn_dim=32, attention_hidden_dim=16, prenet_dim=16,
                             postnet_embedding_dim=16, attention_location_n_filter=4, decoder_max_step=20)
        return model, lambda: (torch.randint(0, 20, (2, 6)), torch.tensor([6, 4]), torch.rand(2, 16, 8),
                               torch.tensor([8, 6]))
    if name == "WaveRNN":
        model = tm.WaveRNN(upsample_scales=[2, 2], n_classes=16, hop_length=4, n_res_block=1, n_rnn=16, n_fc=16,
                           n_freq=8, n_hidden=8, n_output=8)
        return model, lambda: (torch.rand(1, 1, 4 * 6), torch.rand(1, 1, 8, 10))
    if name == "HDemucs":
        model = tm.HDemucs(sources=["a", "b"], audio_channels=1, channels=8, nfft=1024, depth=4)
        return model, lambda: (torch.rand(1, 1, 4096),)
    raise KeyError(name)


def _lightly(name: str):
    import torch
    from lightly import loss
    from lightly.models import modules

    pair = lambda: (torch.rand(8, 16), torch.rand(8, 16))  # noqa: E731
    if name == "SimCLRProjectionHead":
        return modules.SimCLRProjectionHead(32, 32, 16), lambda: (torch.rand(8, 32),)
    if name == "SwaVPrototypes":
        return modules.SwaVPrototypes(16, n_prototypes=8), lambda: (torch.rand(8, 16),)
    if name == "DINOProjectionHead":
        return modules.DINOProjectionHead(32, 32, 16, 16), lambda: (torch.rand(8, 32),)
    if name == "NTXentLoss_memory_bank":
        return loss.NTXentLoss(memory_bank_size=(32, 16)), pair
    if name == "SwaVLoss":
        return loss.SwaVLoss(), lambda: ([torch.rand(8, 8), torch.rand(8, 8)], [torch.rand(8, 8)])
    if name == "DINOLoss":
        return loss.DINOLoss(output_dim=16), lambda: ([torch.rand(8, 16)], [torch.rand(8, 16), torch.rand(8, 16)])
    if name == "KoLeoLoss":
        return loss.KoLeoLoss(), lambda: (torch.rand(8, 16),)
    if name == "MSNLoss":
        return loss.MSNLoss(), lambda: (torch.rand(8, 16), torch.rand(4, 16), torch.rand(6, 16))
    if name == "MMCRLoss":
        return loss.MMCRLoss(), lambda: (torch.rand(8, 16, 4), torch.rand(8, 16, 4))
    if name == "NNMemoryBankModule":
        return modules.NNMemoryBankModule(size=(32, 16)), lambda: (torch.rand(8, 16),)
    return getattr(loss, name)(), pair


def _peft(name: str):
    import peft
    import torch
    import transformers as tf

    family, _, method = name.partition("_")
    if family == "bert":
        config = tf.BertConfig(vocab_size=64, hidden_size=32, num_hidden_layers=2, num_attention_heads=2,
                               intermediate_size=64, max_position_embeddings=32)
        base, targets, task = tf.BertForSequenceClassification(config), ["query", "value"], "SEQ_CLS"
    else:
        config = tf.LlamaConfig(vocab_size=64, hidden_size=32, num_hidden_layers=2, num_attention_heads=2,
                                num_key_value_heads=2, intermediate_size=64, max_position_embeddings=32)
        base, targets, task = tf.LlamaForCausalLM(config), ["q_proj", "v_proj"], "CAUSAL_LM"
    if method == "lora":
        adapter = peft.LoraConfig(r=4, lora_alpha=8, target_modules=targets, task_type=task)
    elif method == "ia3":
        adapter = peft.IA3Config(target_modules=targets + ["down_proj"], feedforward_modules=["down_proj"],
                                 task_type=task)
    elif method == "prefix":
        adapter = peft.PrefixTuningConfig(num_virtual_tokens=4, task_type=task)
    else:
        adapter = peft.AdaLoraConfig(init_r=4, target_r=2, target_modules=targets, total_step=10, task_type=task)
    model = peft.get_peft_model(base, adapter)
    return model, lambda: (torch.randint(0, 64, (1, 8)),)


# Three more, never used for compile (pytorch-crf 0.7.2, torchsde 0.2.6, ncps 1.0.1, `--no-deps` with trampoline
# 0.1.2), configurations written from each library's documentation before any run: the CRF's likelihood (with and
# without a mask, batch-first) and Viterbi decoding; torchsde's `sdeint` of a small neural SDE (Ito and
# Stratonovich, diagonal noise, fixed and adaptive steps, the adjoint); ncps' CfC (modes, mixed memory, a wiring,
# timespans) and LTC (units and a wiring).
CRF = ["CRF", "CRF_mask", "CRF_batch_first", "CRF_decode", "CRF_decode_mask"]
TORCHSDE = ["ito_euler", "ito_milstein", "ito_srk", "strat_midpoint", "strat_reversible_heun", "ito_euler_adaptive",
            "adjoint_ito_euler"]
NCPS = ["CfC", "CfC_pure", "CfC_no_gate", "CfC_mixed_memory", "CfC_AutoNCP", "CfC_timespans", "LTC", "LTC_AutoNCP"]


def _torchcrf(name: str):
    import torch
    import torchcrf

    batch_first = name == "CRF_batch_first"
    crf = torchcrf.CRF(5, batch_first=batch_first)
    seq, batch = 6, 3
    shape = (batch, seq) if batch_first else (seq, batch)
    mask = lambda: torch.tensor([[1] * seq, [1] * 4 + [0] * 2, [1] * 5 + [0]], dtype=torch.uint8).T  # noqa: E731
    if name.startswith("CRF_decode"):
        class Decode(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.crf = crf

            def forward(self, emissions, mask=None):
                return self.crf.decode(emissions, mask)

        if name == "CRF_decode_mask":
            return Decode(), lambda: (torch.rand(seq, batch, 5), mask())
        return Decode(), lambda: (torch.rand(seq, batch, 5),)
    tags = lambda: torch.randint(0, 5, shape)  # noqa: E731
    if name == "CRF_mask":
        return crf, lambda: (torch.rand(seq, batch, 5), tags(), mask())
    return crf, lambda: (torch.rand(*shape, 5), tags())


def _torchsde(name: str):
    import torch
    import torchsde

    adjoint = name.startswith("adjoint_")
    kind, method, *rest = name.removeprefix("adjoint_").split("_", 2)
    if method == "reversible":
        method = "reversible_heun"
        rest = []
    adaptive = rest == ["adaptive"]

    class SDE(torch.nn.Module):
        noise_type = "diagonal"
        sde_type = "ito" if kind == "ito" else "stratonovich"

        def __init__(self):
            super().__init__()
            self.mu = torch.nn.Linear(4, 4)
            self.sigma = torch.nn.Linear(4, 4)

        def f(self, t, y):
            return self.mu(y)

        def g(self, t, y):
            return torch.sigmoid(self.sigma(y))

    class Block(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.sde = SDE()
            self.register_buffer("ts", torch.linspace(0.0, 1.0, 3))

        def forward(self, y0):
            solve = torchsde.sdeint_adjoint if adjoint else torchsde.sdeint
            return solve(self.sde, y0, self.ts, method=method, dt=0.25, adaptive=adaptive)[-1]

    return Block(), lambda: (torch.rand(2, 4),)


def _ncps(name: str):
    import torch
    from ncps import torch as nt, wirings

    if name.startswith("LTC"):
        units = wirings.AutoNCP(12, 3) if name == "LTC_AutoNCP" else 8
        return nt.LTC(6, units), lambda: (torch.rand(2, 5, 6),)
    if name == "CfC_AutoNCP":
        return nt.CfC(6, wirings.AutoNCP(12, 3)), lambda: (torch.rand(2, 5, 6),)
    kwargs = {"CfC_pure": dict(mode="pure"), "CfC_no_gate": dict(mode="no_gate"),
              "CfC_mixed_memory": dict(mixed_memory=True)}.get(name, {})
    model = nt.CfC(6, 8, **kwargs)
    if name == "CfC_timespans":
        # one sequence: the cell multiplies the (batch,) step sizes with its (batch, units) state
        return model, lambda: (torch.rand(1, 5, 6), None, torch.rand(1, 5))
    return model, lambda: (torch.rand(2, 5, 6),)



# A fourth, since ncps' models all compile in one graph: pytorch-tabnet 4.1.0 (`--no-deps`; the network module needs
# only torch and NumPy), TabNet as `TabNetClassifier` builds it (a group matrix of one feature per group), with and
# without categorical features, entmax masks, several outputs, and the pretraining network.
TABNET = ["TabNet", "TabNet_categorical", "TabNet_entmax", "TabNet_multi_task", "TabNetPretraining",
          "TabNetPretraining_categorical"]


def _tabnet(name: str):
    import torch
    from pytorch_tabnet import tab_network as tn

    features, rows = 6, 16
    group = torch.eye(features)
    categorical = name.endswith("_categorical")
    # the embedding sizes as the list TabNetClassifier passes
    cats = dict(cat_idxs=[1, 4], cat_dims=[3, 5], cat_emb_dim=[2, 2]) if categorical else {}

    def inputs():
        x = torch.rand(rows, features)
        if categorical:
            x[:, 1] = torch.randint(0, 3, (rows,)).float()
            x[:, 4] = torch.randint(0, 5, (rows,)).float()
        return (x,)

    if name.startswith("TabNetPretraining"):
        return tn.TabNetPretraining(features, group_attention_matrix=group, **cats), inputs
    output = [2, 3] if name == "TabNet_multi_task" else 2
    mask = "entmax" if name == "TabNet_entmax" else "sparsemax"
    return tn.TabNet(features, output, mask_type=mask, group_attention_matrix=group, **cats), inputs


# Four more, never used in a record before (2026-11-29d), builders written from each library's documentation before
# any run: zuko 1.6.0 (normalizing flows: a flow called with a context gives a distribution; its log-density and
# samples, as a training step and a sampler call them), geomloss 0.3.1 (SamplesLoss on point clouds, the tensorized
# backend the documentation names for small clouds, and "auto"), pytorch-msssim 1.0.0 (SSIM and MS-SSIM modules) and
# geoopt 0.5.1 (the stereographic hyperplane layer, manifold maps called from a user module).
ZUKO = ["MAF_log_prob", "MAF_sample", "NSF_log_prob", "NSF_sample", "NCSF_log_prob", "RealNVP_log_prob",
        "NAF_log_prob", "UNAF_log_prob", "SOSPF_log_prob", "BPF_log_prob", "GF_log_prob", "CNF_log_prob",
        "GMM_log_prob", "MAF_no_context_sample"]
GEOMLOSS = ["sinkhorn", "sinkhorn_weights", "sinkhorn_unbalanced", "sinkhorn_no_debias", "hausdorff", "energy",
            "gaussian", "laplacian", "sinkhorn_auto", "sinkhorn_batched"]
MSSSIM = ["SSIM", "SSIM_no_average", "MS_SSIM", "ssim_function_nonnegative"]
GEOOPT = ["Distance2StereographicHyperplanes", "PoincareMLR", "SphereProjection", "LorentzDistance",
          "StiefelProjection", "SPDDistance"]


def _zuko(name: str):
    import torch
    import zuko

    kind, _, use = name.partition("_")
    features, context = 3, 0 if "no_context" in use else 2
    if kind == "GMM":
        flow = zuko.flows.GMM(features, context, components=3)
    else:
        flow = getattr(zuko.flows, kind)(features, context, **({} if kind in ("CNF", "GF") else {"transforms": 2}))

    class LogProb(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.flow = flow

        def forward(self, x, c):
            return self.flow(c).log_prob(x)

    class Sample(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.flow = flow

        def forward(self, c):
            return self.flow(c).rsample((4,))

    class SampleNoContext(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.flow = flow

        def forward(self, x):
            return self.flow().rsample((4,)) + x

    if use == "no_context_sample":
        return SampleNoContext(), lambda: (torch.rand(4, features),)
    if use == "sample":
        return Sample(), lambda: (torch.rand(5, context),)
    return LogProb(), lambda: (torch.randn(5, features), torch.rand(5, context))


def _geomloss(name: str):
    import torch
    from geomloss import SamplesLoss

    loss = name.split("_")[0]
    kwargs = {"loss": loss, "backend": "auto" if name.endswith("auto") else "tensorized"}
    if loss == "sinkhorn":
        kwargs.update(p=2, blur=0.05)
    if name.endswith("unbalanced"):
        kwargs["reach"] = 0.5
    if name.endswith("no_debias"):
        kwargs["debias"] = False
    model = SamplesLoss(**kwargs)
    if name.endswith("weights"):
        def inputs():
            a, b = torch.rand(20), torch.rand(30)
            return a / a.sum(), torch.rand(20, 3), b / b.sum(), torch.rand(30, 3)
        return model, inputs
    if name.endswith("batched"):
        return model, lambda: (torch.rand(2, 20, 3), torch.rand(2, 30, 3))
    return model, lambda: (torch.rand(20, 3), torch.rand(30, 3))


def _msssim(name: str):
    import torch
    import pytorch_msssim as pm

    if name == "MS_SSIM":
        return pm.MS_SSIM(data_range=1.0, channel=3), lambda: (torch.rand(1, 3, 176, 176), torch.rand(1, 3, 176, 176))
    if name == "ssim_function_nonnegative":
        class Loss(torch.nn.Module):
            def forward(self, x, y):
                return 1 - pm.ssim(x, y, data_range=1.0, nonnegative_ssim=True, win_size=7)
        return Loss(), lambda: (torch.rand(2, 3, 32, 32), torch.rand(2, 3, 32, 32))
    model = pm.SSIM(data_range=1.0, channel=3, size_average=name == "SSIM")
    return model, lambda: (torch.rand(2, 3, 32, 32), torch.rand(2, 3, 32, 32))


def _geoopt(name: str):
    import torch
    import geoopt
    import geoopt.layers.stereographic

    if name == "Distance2StereographicHyperplanes":
        ball = geoopt.Stereographic(-1)
        model = torch.nn.Sequential(geoopt.layers.stereographic.Distance2StereographicHyperplanes(2, 10, ball=ball),
                                    torch.nn.Linear(10, 4))
        return model, lambda: (ball.random_normal(8, 2),)

    class PoincareMLR(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.ball = geoopt.PoincareBall(c=1.0)
            self.weight = torch.nn.Parameter(torch.randn(3, 4) * 0.1)
            self.points = geoopt.ManifoldParameter(self.ball.expmap0(torch.randn(5, 3) * 0.1), manifold=self.ball)

        def forward(self, x):
            h = self.ball.expmap0(x)
            h = self.ball.mobius_matvec(self.weight, h)
            return self.ball.dist(h.unsqueeze(1), self.points)

    class SphereProjection(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.sphere = geoopt.Sphere()
            self.linear = torch.nn.Linear(4, 4)

        def forward(self, x):
            y = self.sphere.projx(self.linear(x))
            return self.sphere.dist(y, self.sphere.projx(x))

    class LorentzDistance(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.manifold = geoopt.Lorentz()

        def forward(self, u, v):
            x = self.manifold.expmap0(u)
            y = self.manifold.expmap0(v)
            return self.manifold.dist(x, y)

    class StiefelProjection(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.manifold = geoopt.Stiefel()
            self.weight = geoopt.ManifoldParameter(self.manifold.random(4, 3), manifold=self.manifold)

        def forward(self, x):
            return x @ self.manifold.projx(self.weight)

    class SPDDistance(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.manifold = geoopt.SymmetricPositiveDefinite()

        def forward(self, a, b):
            x = self.manifold.projx(a @ a.transpose(-1, -2))
            y = self.manifold.projx(b @ b.transpose(-1, -2))
            return self.manifold.dist(x, y)

    if name in ("LorentzDistance", "SPDDistance"):
        shape = (6, 4) if name == "LorentzDistance" else (2, 3, 3)
        if name == "LorentzDistance":
            def inputs():
                u, v = torch.randn(*shape) * 0.1, torch.randn(*shape) * 0.1
                u[:, 0] = 0
                v[:, 0] = 0
                return u, v
            return LorentzDistance(), inputs
        return SPDDistance(), lambda: (torch.rand(*shape), torch.rand(*shape))
    model = {"PoincareMLR": PoincareMLR, "SphereProjection": SphereProjection,
             "StiefelProjection": StiefelProjection}[name]()
    return model, lambda: (torch.rand(6, 4) * 0.3,)


BUILDERS = {"torchvision": _torchvision, "timm": _timm, "transformers": _transformers,
            "efficientnet_pytorch": _efficientnet, "vit_pytorch": _vit_pytorch, "pytorchcv": _pytorchcv,
            "perceiver_pytorch": _perceiver, "x_transformers": _x_transformers, "whisper": _whisper,
            "denoising_diffusion_pytorch": _ddpm, "torchdiffeq": _torchdiffeq, "facenet_pytorch": _facenet,
            "encodec": _encodec, "pretrainedmodels": _pretrainedmodels, "torchaudio": _torchaudio,
            "lightly": _lightly, "peft": _peft,
            "torchcrf": _torchcrf, "torchsde": _torchsde, "ncps": _ncps,
            "pytorch_tabnet": _tabnet, "zuko": _zuko, "geomloss": _geomloss, "pytorch_msssim": _msssim,
            "geoopt": _geoopt}
MODELS = {"torchvision": TORCHVISION_DETECTION + TORCHVISION_OTHER, "timm": TIMM, "transformers": TRANSFORMERS,
          "efficientnet_pytorch": EFFICIENTNET, "vit_pytorch": list(VIT_PYTORCH), "pytorchcv": PYTORCHCV,
          "perceiver_pytorch": list(PERCEIVER), "x_transformers": list(X_TRANSFORMERS), "whisper": list(WHISPER),
          "denoising_diffusion_pytorch": DDPM, "torchdiffeq": TORCHDIFFEQ, "facenet_pytorch": FACENET,
          "encodec": ENCODEC, "pretrainedmodels": PRETRAINEDMODELS, "torchaudio": TORCHAUDIO, "lightly": LIGHTLY,
          "peft": PEFT, "torchcrf": CRF, "torchsde": TORCHSDE, "ncps": NCPS,
          "pytorch_tabnet": TABNET, "zuko": ZUKO, "geomloss": GEOMLOSS, "pytorch_msssim": MSSSIM, "geoopt": GEOOPT}


def _executed(model, args, package: str) -> set[tuple[str, int]]:
    lines: set[tuple[str, int]] = set()

    def tracer(frame, event, arg):
        file = frame.f_code.co_filename
        if not file.startswith(package):
            return None
        if event == "line" or event == "call":
            lines.add((os.path.relpath(file, package), frame.f_lineno))
        return tracer

    sys.settrace(tracer)
    try:
        model(*args)
    finally:
        sys.settrace(None)
    return lines


def measure(lib: str, name: str, child, package: str) -> dict:
    import torch

    def fresh():
        """The model as built (its first call may set state: torchvision's poolers set their scales)."""
        torch.manual_seed(0)
        built, inputs = BUILDERS[lib](name)
        return built.eval(), inputs

    model, make_inputs = fresh()
    is_user = lambda file: os.path.realpath(file).startswith(package)  # noqa: E731

    def where(frames):
        return [[os.path.relpath(os.path.realpath(file), package), line] for file, line in frames]

    started = time.time()
    with torch.no_grad():
        executed = _executed(model, make_inputs(), package)
    record = {"model": name, "executed": sorted([file, line] for file, line in executed)}
    for mode, options in (("default", {}), ("fullgraph", {"fullgraph": True})):
        model, make_inputs = fresh()
        calls = [make_inputs() for _ in range(2 if mode == "default" else 1)]
        with torch.no_grad(), contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            seen = child.observe(torch, model, calls, is_user_file=is_user, **options)
        if mode == "default":
            record["graphs"] = seen["graphs"]
            record["breaks"] = [{"frames": where(item["frames"]), "id": item["id"], "reason": item["reason"],
                                 "eager": item["eager"]} for item in seen["breaks"] if not item["repeat"]]
            record["recompiles"] = [{"frames": where(item["frames"]), "guard": item["guard"]}
                                    for item in seen["recompiles"]]
            record["limit"] = seen["limit"]
            record["error"] = seen["error"] and {**seen["error"], "frames": where(seen["error"]["frames"])}
        else:
            error = seen["error"]
            record["fullgraph"] = error and {**error, "frames": where(error["frames"])}
    record["seconds"] = round(time.time() - started, 1)
    return record


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lib", required=True, choices=sorted(BUILDERS))
    parser.add_argument("--models", default="")
    parser.add_argument("--out", required=True)
    options = parser.parse_args()
    warnings.simplefilter("ignore")
    if options.lib in ("torchvision", "facenet_pytorch"):
        sys.path.insert(0, str(ROOT / "bench"))
        import compile_torchvision_kernels

        compile_torchvision_kernels.install()
    if options.lib == "whisper":
        _numba_stub()
    if options.lib == "encodec":
        _torchaudio_stub()
    module = importlib.import_module(options.lib)
    # a namespace package (no `__init__.py`: pytorch_tabnet) has no `__file__`, only its one folder
    package = os.path.realpath(os.path.dirname(module.__file__) if module.__file__ else list(module.__path__)[0])
    child = _load_child()
    names = [name for name in options.models.split(",") if name] or MODELS[options.lib]
    out = Path(options.out)
    done = json.loads(out.read_text()) if out.exists() else {}
    for name in names:
        if name in done:
            continue
        try:
            done[name] = measure(options.lib, name, child, package)
            item = done[name]
            print(f"{name}: {len(item['breaks'])} break(s), {len(item['recompiles'])} recompile(s), fullgraph "
                  f"{'ok' if not item['fullgraph'] else item['fullgraph']['frames'][-1:]}, {item['seconds']}s",
                  flush=True)
        except Exception as error:  # a model that does not build or run here: recorded, not measured
            done[name] = {"model": name, "failed": f"{type(error).__name__}: {error}"[:500],
                          "trace": traceback.format_exc()[-1500:]}
            print(f"{name}: failed: {type(error).__name__}: {str(error)[:200]}", flush=True)
        out.write_text(json.dumps(done, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
