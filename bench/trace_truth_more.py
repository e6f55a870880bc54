"""Builders of `bench/trace_truth.py collect` for libraries of /work/corpus/more nobody tuned the product on (speech
models first: whisper, torchaudio, encodec, asteroid; and efficientnet_pytorch). Each model is built with random
weights from the library's own constructors, small where the constructor allows it, with an example input and a
second input of another batch and length (or resolution): `(model, first, [second, ...])`.

Run with an interpreter where the library imports (`/work/venvs/trace-more`: torch 2.13 from the system site
packages, the corpus on `.pth` files). torchaudio's compiled extension does not load on torch 2.13: its Python
models do not need it, so it is marked missing before torchaudio is imported.
"""

from __future__ import annotations

import sys

sys.modules.setdefault("torchaudio.lib._torchaudio", None)  # the extension: `is_module_available` then says no


def _whisper():
    import torch
    from whisper.model import AudioEncoder, ModelDimensions, TextDecoder, Whisper

    dims = ModelDimensions(n_mels=80, n_audio_ctx=100, n_audio_state=64, n_audio_head=4, n_audio_layer=2,
                           n_vocab=100, n_text_ctx=32, n_text_state=64, n_text_head=4, n_text_layer=2)
    mel = (torch.randn(1, 80, 200),)
    yield "encoder", lambda: (AudioEncoder(80, 100, 64, 4, 2), mel, [(torch.randn(2, 80, 200),)])
    yield "decoder", lambda: (TextDecoder(100, 32, 64, 4, 2),
                              (torch.randint(0, 100, (1, 5)), torch.randn(1, 100, 64)),
                              [(torch.randint(0, 100, (2, 9)), torch.randn(2, 100, 64))])
    yield "whisper", lambda: (Whisper(dims), (torch.randn(1, 80, 200), torch.randint(0, 100, (1, 5))),
                              [(torch.randn(2, 80, 200), torch.randint(0, 100, (2, 9)))])


def _torchaudio():
    import torch
    import torchaudio.models as models

    wave = (torch.randn(1, 8000),)
    waves = [(torch.randn(2, 12000),)]
    small = {"encoder_num_layers": 2, "encoder_embed_dim": 64, "encoder_num_heads": 4, "encoder_ff_interm_features": 96,
             "encoder_projection_dropout": 0.0, "encoder_attention_dropout": 0.0, "encoder_ff_interm_dropout": 0.0,
             "encoder_dropout": 0.0, "encoder_layer_drop": 0.0, "encoder_layer_norm_first": False,
             "extractor_mode": "group_norm", "extractor_conv_layer_config": [(32, 10, 5), (32, 3, 2), (32, 2, 2)],
             "extractor_conv_bias": False, "encoder_pos_conv_kernel": 16, "encoder_pos_conv_groups": 4,
             "aux_num_out": None}
    yield "wav2vec2", lambda: (models.wav2vec2_model(**small), wave, waves)
    yield "hubert", lambda: (models.hubert_base(), wave, waves)
    yield "wavlm", lambda: (models.wavlm_base(), wave, waves)
    yield "conv_tasnet", lambda: (models.conv_tasnet_base(num_sources=2), (torch.randn(1, 1, 8000),),
                                  [(torch.randn(2, 1, 12000),)])
    yield "wav2letter", lambda: (models.Wav2Letter(num_classes=40, input_type="waveform", num_features=1),
                                 (torch.randn(1, 1, 8000),), [(torch.randn(2, 1, 12000),)])
    yield "deepspeech", lambda: (models.DeepSpeech(n_feature=40, n_hidden=64, n_class=30),
                                 (torch.randn(1, 1, 50, 40),), [(torch.randn(2, 1, 80, 40),)])
    yield "conformer", lambda: (models.Conformer(input_dim=40, num_heads=4, ffn_dim=64, num_layers=2,
                                                 depthwise_conv_kernel_size=7),
                                (torch.randn(1, 50, 40), torch.tensor([50])),
                                [(torch.randn(2, 80, 40), torch.tensor([80, 60]))])
    yield "hdemucs", lambda: (models.hdemucs_low(sources=["a", "b"]), (torch.randn(1, 2, 8192),),
                              [(torch.randn(2, 2, 12288),)])
    yield "squim_objective", lambda: (models.squim_objective_base(), wave, waves)


def _encodec():
    import torch
    from encodec.model import EncodecModel

    yield "encodec_24khz", lambda: (EncodecModel.encodec_model_24khz(pretrained=False), (torch.randn(1, 1, 8000),),
                                    [(torch.randn(2, 1, 12000),)])
    yield "encodec_48khz", lambda: (EncodecModel.encodec_model_48khz(pretrained=False), (torch.randn(1, 2, 16000),),
                                    [(torch.randn(2, 2, 24000),)])


def _asteroid():
    import torch
    from asteroid import models

    wave = (torch.randn(1, 8000),)
    waves = [(torch.randn(2, 12000),)]
    yield "conv_tasnet", lambda: (models.ConvTasNet(n_src=2, n_blocks=2, n_repeats=1), wave, waves)
    yield "dprnn_tasnet", lambda: (models.DPRNNTasNet(n_src=2, n_repeats=1), wave, waves)
    yield "dptnet", lambda: (models.DPTNet(n_src=2, n_repeats=1), wave, waves)
    yield "sudormrf", lambda: (models.SuDORMRFNet(n_src=2, num_blocks=2), wave, waves)
    yield "lstm_tasnet", lambda: (models.LSTMTasNet(n_src=2), wave, waves)
    yield "dccrnet", lambda: (models.DCCRNet("DCCRN-CL"), wave, waves)
    yield "dcunet", lambda: (models.DCUNet("DCUNet-10"), wave, waves)
    yield "demask", lambda: (models.DeMask(), wave, waves)


def _efficientnet():
    import torch
    from efficientnet_pytorch import EfficientNet

    for name in ("efficientnet-b0", "efficientnet-b3"):
        yield name, (lambda name=name: (EfficientNet.from_name(name), (torch.randn(1, 3, 128, 128),),
                                        [(torch.randn(2, 3, 160, 160),)]))


def _vit_pytorch():
    import torch

    def image(size):
        # another resolution first (half as large again, then twice: window and patch sizes must divide it), then
        # another batch only
        return (torch.randn(1, 3, size, size),), [(torch.randn(2, 3, size + size // 2, size + size // 2),),
                                                   (torch.randn(2, 3, 2 * size, 2 * size),),
                                                   (torch.randn(2, 3, size, size),)]

    small = {"num_classes": 10, "dim": 64, "depth": 2, "heads": 4, "mlp_dim": 96}

    def vit(module, cls, size=32, **kwargs):
        def make():
            import importlib

            model = getattr(importlib.import_module(f"vit_pytorch.{module}"), cls)(**kwargs)
            return (model, *image(size))
        return make

    yield "vit", vit("vit", "ViT", image_size=32, patch_size=8, **small)
    yield "simple_vit", vit("simple_vit", "SimpleViT", image_size=32, patch_size=8, **small)
    yield "cait", vit("cait", "CaiT", image_size=32, patch_size=8, cls_depth=1, **small)
    yield "deepvit", vit("deepvit", "DeepViT", image_size=32, patch_size=8, **small)
    yield "local_vit", vit("local_vit", "LocalViT", image_size=32, patch_size=8, **small)
    yield "vit_small_dataset", vit("vit_for_small_dataset", "ViT", image_size=32, patch_size=8, **small)
    yield "parallel_vit", vit("parallel_vit", "ViT", image_size=32, patch_size=8, **small)
    yield "cross_vit", vit("cross_vit", "CrossViT", size=48, image_size=48, num_classes=10, sm_dim=32, lg_dim=64,
                           sm_patch_size=8, lg_patch_size=16, sm_enc_mlp_dim=64, lg_enc_mlp_dim=64, depth=1,
                           lg_enc_depth=1, cross_attn_depth=1)
    yield "t2t", vit("t2t", "T2TViT", size=64, image_size=64, num_classes=10, dim=64, depth=2, heads=4, mlp_dim=96)
    yield "levit", vit("levit", "LeViT", size=64, image_size=64, num_classes=10, stages=3, dim=(32, 64, 96),
                       depth=1, heads=(2, 4, 4), mlp_mult=2)
    yield "pit", vit("pit", "PiT", size=64, image_size=64, patch_size=8, num_classes=10, dim=32, depth=(1, 1, 1),
                     heads=4, mlp_dim=64)
    yield "cvt", vit("cvt", "CvT", size=64, num_classes=10)
    yield "mobile_vit", vit("mobile_vit", "MobileViT", size=64, image_size=(64, 64), dims=[32, 40, 48],
                            channels=[16, 16, 24, 24, 32, 32, 40, 40, 48, 48, 96], num_classes=10)
    yield "nest", vit("nest", "NesT", size=64, image_size=64, patch_size=4, num_classes=10, dim=32, heads=2,
                      num_hierarchies=3, block_repeats=(1, 1, 1))
    yield "max_vit", vit("max_vit", "MaxViT", size=64, num_classes=10, dim=32, depth=(1, 1), dim_conv_stem=16,
                         window_size=4)
    yield "twins_svt", vit("twins_svt", "TwinsSVT", size=64, num_classes=10)
    yield "regionvit", vit("regionvit", "RegionViT", size=64, dim=(16, 32, 48, 64), depth=(1, 1, 1, 1),
                           window_size=2, num_classes=10)
    yield "crossformer", vit("crossformer", "CrossFormer", size=64, dim=(16, 32, 48, 64), depth=(1, 1, 1, 1),
                             global_window_size=(2, 2, 1, 1), local_window_size=2, num_classes=10)
    yield "scalable_vit", vit("scalable_vit", "ScalableViT", size=64, num_classes=10, dim=32, depth=(1, 1, 1, 1),
                              heads=(1, 2, 2, 4), reduction_factor=(2, 2, 1, 1), window_size=(2, 2, None, None))
    yield "sep_vit", vit("sep_vit", "SepViT", size=64, num_classes=10, dim=32, depth=(1, 1, 1, 1),
                         heads=(1, 2, 2, 4), window_size=2)
    yield "cct", vit("cct", "CCT", size=32, img_size=32, embedding_dim=64, n_conv_layers=1, kernel_size=3, stride=1,
                     padding=1, pooling_kernel_size=3, pooling_stride=2, pooling_padding=1, num_layers=2, num_heads=4,
                     mlp_ratio=2.0, num_classes=10, positional_embedding="learnable")

    def seq():
        import vit_pytorch.vit_1d as v1

        model = v1.ViT(seq_len=64, patch_size=8, num_classes=10, dim=64, depth=2, heads=4, mlp_dim=96)
        return model, (torch.randn(1, 3, 64),), [(torch.randn(2, 3, 96),), (torch.randn(2, 3, 64),)]

    yield "vit_1d", seq


def _pytorchcv():
    import torch

    def make(name, size):
        def build():
            from pytorchcv.model_provider import get_model

            model = get_model(name, pretrained=False)
            # another resolution first: larger, then a smaller one that a final fixed 7x7 pooling still takes
            # (224 - 16 keeps the last feature map at 7 after five stride-2 stages), then another batch only
            return model, (torch.randn(1, 3, size, size),), [(torch.randn(2, 3, size + 32, size + 32),),
                                                               (torch.randn(2, 3, size - 16, size - 16),),
                                                               (torch.randn(2, 3, size, size),)]
        return build

    for name in ("resnet10", "preresnet10", "resnext14_16x4d", "seresnet10", "sepreresnet10", "densenet121",
                 "mobilenet_w1", "mobilenetv2_w1", "mobilenetv3_small_w1", "shufflenet_g1_w1", "shufflenetv2_w1",
                 "squeezenet_v1_1", "mnasnet_b1", "efficientnet_b0", "ghostnet", "hrnet_w18_small_v1",
                 "darknet_ref", "sknet50", "resnesta18", "regnetx002", "ibn_resnet50", "dla34", "pyramidnet101_a360",
                 "diracnet18v2", "fbnet_cb", "spnasnet", "peleenet", "vovnet27s", "selecsls42", "hardnet39ds",
                 "igcv3_w1", "condensenet74_c4_g4", "proxylessnas_mobile", "bagnet9", "menet108_8x1_g3",
                 "xception", "inceptionv3", "polynet", "nasnet_4a1056", "pnasnet5large", "drnc26", "dpn68",
                 "airnet50_1x64d_r2", "bamresnet18", "cbamresnet18", "resattnet56", "pyramidnet101_a360",
                 "alexnet", "vgg11", "zfnet", "channelnet", "fishnet99", "octresnet10_ad2", "espnetv2_w1"):
        size = 299 if name in ("xception", "inceptionv3") else 331 if name == "pnasnet5large" else 224
        yield name, make(name, size)


def _x_transformers():
    import torch

    def lm(n=16, m=24, **layers):
        def make():
            from x_transformers import Decoder, Encoder, TransformerWrapper

            kind = Encoder if layers.pop("encoder", False) else Decoder
            model = TransformerWrapper(num_tokens=50, max_seq_len=64,
                                       attn_layers=kind(dim=32, depth=2, heads=4, **layers))
            return model, (torch.randint(0, 50, (1, n)),), [(torch.randint(0, 50, (2, m)),),
                                                            (torch.randint(0, 50, (2, n)),)]
        return make

    yield "decoder", lm()
    yield "encoder", lm(encoder=True)
    yield "decoder_rotary", lm(rotary_pos_emb=True)
    yield "decoder_alibi", lm(alibi_pos_bias=True)
    yield "encoder_rel_pos", lm(encoder=True, rel_pos_bias=True)
    yield "decoder_dynamic_pos", lm(dynamic_pos_bias=True)
    yield "decoder_xpos", lm(rotary_xpos=True)
    yield "decoder_cope", lm(attn_use_cope=True)
    yield "encoder_sandwich", lm(encoder=True, sandwich_norm=True, ff_glu=True)
    yield "decoder_residual_attn", lm(residual_attn=True, macaron=True)

    def continuous():
        from x_transformers import ContinuousTransformerWrapper, Encoder

        model = ContinuousTransformerWrapper(dim_in=8, dim_out=8, max_seq_len=64,
                                             attn_layers=Encoder(dim=32, depth=2, heads=4))
        return model, (torch.randn(1, 16, 8),), [(torch.randn(2, 24, 8),), (torch.randn(2, 16, 8),)]

    yield "continuous", continuous

    def vit():
        from x_transformers import Encoder, ViTransformerWrapper

        model = ViTransformerWrapper(image_size=32, patch_size=8, num_classes=10,
                                     attn_layers=Encoder(dim=32, depth=2, heads=4))
        return model, (torch.randn(1, 3, 32, 32),), [(torch.randn(2, 3, 32, 32),)]

    yield "vit", vit

    def xtransformer():
        from x_transformers import XTransformer

        model = XTransformer(dim=32, enc_num_tokens=50, enc_depth=1, enc_heads=4, enc_max_seq_len=64,
                             dec_num_tokens=50, dec_depth=1, dec_heads=4, dec_max_seq_len=64)
        return model, (torch.randint(0, 50, (1, 12)), torch.randint(0, 50, (1, 10))), \
            [(torch.randint(0, 50, (2, 20)), torch.randint(0, 50, (2, 14))),
             (torch.randint(0, 50, (2, 12)), torch.randint(0, 50, (2, 10)))]

    yield "xtransformer", xtransformer


def _perceiver_pytorch():
    import torch

    def perceiver(module, **extra):
        def make():
            import importlib

            cls = importlib.import_module(f"perceiver_pytorch.{module}").Perceiver
            model = cls(input_channels=3, input_axis=2, num_freq_bands=4, max_freq=10.0, depth=2, num_latents=16,
                        latent_dim=32, latent_heads=4, cross_dim_head=16, latent_dim_head=16, num_classes=10,
                        **extra)
            return model, (torch.randn(1, 16, 16, 3),), [(torch.randn(2, 24, 20, 3),), (torch.randn(2, 16, 16, 3),)]
        return make

    yield "perceiver", perceiver("perceiver_pytorch")
    yield "perceiver_residual", perceiver("perceiver_pytorch", attn_residual=True, attn_residual_rank=8)
    yield "perceiver_experimental", perceiver("experimental")
    yield "perceiver_gated", perceiver("gated")
    yield "perceiver_mixed", perceiver("mixed_latents")

    def io():
        from perceiver_pytorch.perceiver_io import PerceiverIO

        model = PerceiverIO(dim=8, queries_dim=16, logits_dim=5, depth=2, num_latents=16, latent_dim=32,
                            latent_heads=4, cross_dim_head=16, latent_dim_head=16)
        return model, (torch.randn(1, 20, 8),), [(torch.randn(2, 30, 8),), (torch.randn(2, 20, 8),)]

    yield "perceiver_io", io

    def lm():
        from perceiver_pytorch.perceiver_io import PerceiverLM

        model = PerceiverLM(dim=16, num_tokens=50, max_seq_len=64, depth=2, num_latents=16, latent_dim=32,
                            latent_heads=4, cross_dim_head=16, latent_dim_head=16)
        return model, (torch.randint(0, 50, (1, 12)),), [(torch.randint(0, 50, (2, 20)),),
                                                         (torch.randint(0, 50, (2, 12)),)]

    yield "perceiver_lm", lm


def _pretrainedmodels():
    import torch

    def make(name, size):
        def build():
            import pretrainedmodels

            model = pretrainedmodels.__dict__[name](num_classes=1000, pretrained=None)
            return model, (torch.randn(1, 3, size, size),), [(torch.randn(2, 3, size + 32, size + 32),),
                                                               (torch.randn(2, 3, size - 16, size - 16),),
                                                               (torch.randn(2, 3, size, size),)]
        return build

    for name in ("fbresnet152", "bninception", "resnext101_32x4d", "inceptionv4", "inceptionresnetv2",
                 "nasnetamobile", "dpn68", "xception", "se_resnet50", "se_resnext50_32x4d", "cafferesnet101",
                 "polynet", "resnet18", "squeezenet1_0", "alexnet", "densenet121"):
        size = 299 if name in ("inceptionv4", "inceptionresnetv2", "xception") else 331 if name == "polynet" else 224
        yield name, make(name, size)


def _denoising_diffusion_pytorch():
    import torch

    def image(size, channels=3):
        time = torch.tensor([5.0])
        return (torch.randn(1, channels, size, size), time), \
            [(torch.randn(2, channels, size + size // 2, size + size // 2), torch.tensor([5.0, 9.0])),
             (torch.randn(2, channels, size, size), torch.tensor([5.0, 9.0]))]

    def seq(length, channels=2):
        return (torch.randn(1, channels, length), torch.tensor([5.0])), \
            [(torch.randn(2, channels, length + length // 2), torch.tensor([5.0, 9.0])),
             (torch.randn(2, channels, length), torch.tensor([5.0, 9.0]))]

    def unet(**kwargs):
        def make():
            from denoising_diffusion_pytorch import Unet

            return (Unet(dim=16, dim_mults=(1, 2), attn_dim_head=8, attn_heads=2, **kwargs), *image(16))
        return make

    yield "unet", unet()
    yield "unet_self_condition", unet(self_condition=True)
    yield "unet_learned_sinusoidal", unet(learned_sinusoidal_cond=True, learned_variance=True)

    def unet1d():
        from denoising_diffusion_pytorch import Unet1D

        return (Unet1D(dim=16, dim_mults=(1, 2), channels=2, attn_dim_head=8, attn_heads=2), *seq(32))

    yield "unet1d", unet1d

    def karras():
        from denoising_diffusion_pytorch import KarrasUnet

        model = KarrasUnet(image_size=16, dim=16, dim_max=32, channels=3, num_downsamples=2, num_blocks_per_stage=1,
                           attn_res=(4,), attn_dim_head=8)
        return (model, *image(16))

    yield "karras_unet", karras

    def karras1d():
        from denoising_diffusion_pytorch import KarrasUnet1D

        model = KarrasUnet1D(seq_len=32, dim=16, dim_max=32, channels=2, num_downsamples=2, num_blocks_per_stage=1,
                             attn_res=(8,), attn_dim_head=8)
        return (model, *seq(32))

    yield "karras_unet1d", karras1d

    def uvit():
        from denoising_diffusion_pytorch.simple_diffusion import UViT

        model = UViT(dim=16, dim_mults=(1, 2), vit_depth=1, attn_dim_head=8, attn_heads=2)
        return (model, *image(16))

    yield "uvit", uvit


def _facenet_pytorch():
    import torch
    from facenet_pytorch import InceptionResnetV1, ONet, PNet, RNet

    face = (torch.randn(1, 3, 160, 160),)
    yield "inception_resnet_v1", lambda: (InceptionResnetV1(), face, [(torch.randn(2, 3, 200, 200),),
                                                                    (torch.randn(2, 3, 160, 160),)])
    yield "inception_resnet_v1_classify", lambda: (InceptionResnetV1(classify=True, num_classes=10), face,
                                                   [(torch.randn(2, 3, 200, 200),), (torch.randn(2, 3, 160, 160),)])
    yield "pnet", lambda: (PNet(pretrained=False), (torch.randn(1, 3, 48, 64),), [(torch.randn(2, 3, 72, 96),)])
    yield "rnet", lambda: (RNet(pretrained=False), (torch.randn(1, 3, 24, 24),), [(torch.randn(3, 3, 24, 24),)])
    yield "onet", lambda: (ONet(pretrained=False), (torch.randn(1, 3, 48, 48),), [(torch.randn(3, 3, 48, 48),)])


def _audiocraft_package():
    """audiocraft's modules without its package `__init__` (which imports its data pipeline: `av`, `julius`...) and
    with `xformers` stood in by a module whose `ops.unbind` is `torch.unbind` (what its custom attention calls; the
    rest, `memory_efficient=True`, is not built here)."""
    import importlib.util
    import os
    import types

    if "audiocraft" in sys.modules:
        return
    root = list(importlib.util.find_spec("audiocraft").submodule_search_locations)
    package = types.ModuleType("audiocraft")
    package.__path__ = root
    package.__file__ = os.path.join(root[0], "__init__.py")
    sys.modules["audiocraft"] = package
    xformers = types.ModuleType("xformers")
    xformers.ops = types.ModuleType("xformers.ops")
    import torch

    xformers.ops.unbind = torch.unbind
    sys.modules.setdefault("xformers", xformers)
    sys.modules.setdefault("xformers.ops", xformers.ops)


def _audiocraft():
    import torch

    from audiocraft.modules import SEANetDecoder, SEANetEncoder, StreamingTransformer

    small = {"channels": 1, "dimension": 16, "n_filters": 4, "n_residual_layers": 1, "ratios": [4, 2]}
    wave = (torch.randn(1, 1, 800),)
    waves = [(torch.randn(2, 1, 1200),), (torch.randn(2, 1, 800),)]
    yield "seanet_encoder", lambda: (SEANetEncoder(**small), wave, waves)
    yield "seanet_encoder_lstm", lambda: (SEANetEncoder(**small, lstm=1), wave, waves)
    yield "seanet_encoder_causal", lambda: (SEANetEncoder(**small, causal=True), wave, waves)
    latent = (torch.randn(1, 16, 100),)
    latents = [(torch.randn(2, 16, 150),), (torch.randn(2, 16, 100),)]
    yield "seanet_decoder", lambda: (SEANetDecoder(**small), latent, latents)
    yield "seanet_decoder_causal", lambda: (SEANetDecoder(**small, causal=True, trim_right_ratio=0.5), latent, latents)
    tokens = (torch.randn(1, 20, 32),)
    more = [(torch.randn(2, 30, 32),), (torch.randn(2, 20, 32),)]
    yield "transformer", lambda: (StreamingTransformer(d_model=32, num_heads=4, num_layers=2, dim_feedforward=64),
                                  tokens, more)
    yield "transformer_causal_rope", lambda: (StreamingTransformer(d_model=32, num_heads=4, num_layers=2,
                                                                   dim_feedforward=64, causal=True, custom=True,
                                                                   positional_embedding="rope"), tokens, more)
    yield "transformer_sin_cross", lambda: (StreamingTransformer(d_model=32, num_heads=4, num_layers=1,
                                                                 dim_feedforward=64, causal=True, custom=True,
                                                                 positional_embedding="sin_rope",
                                                                 layer_scale=0.1), tokens, more)


def _e3nn():
    import torch
    from e3nn import nn as enn
    from e3nn import o3

    def batch(irreps, n):
        return (o3.Irreps(irreps).randn(n, -1),)

    irreps = "4x0e + 2x1o + 1x2e"
    yield "linear", lambda: (o3.Linear(irreps, "3x0e + 3x1o"), batch(irreps, 3), [batch(irreps, 5)])
    yield "fc_tensor_product", lambda: (o3.FullyConnectedTensorProduct(irreps, "1x0e + 1x1o", "2x0e + 2x1o"),
                                        batch(irreps, 3) + batch("1x0e + 1x1o", 3),
                                        [batch(irreps, 5) + batch("1x0e + 1x1o", 5)])
    yield "spherical_harmonics", lambda: (o3.SphericalHarmonics([0, 1, 2], normalize=True), (torch.randn(4, 3),),
                                          [(torch.randn(7, 3),)])
    yield "norm", lambda: (o3.Norm(irreps), batch(irreps, 3), [batch(irreps, 5)])
    yield "gate", lambda: (enn.Gate("2x0e", [torch.relu], "2x0e", [torch.sigmoid], "2x1o"),
                           batch("2x0e + 2x0e + 2x1o", 3), [batch("2x0e + 2x0e + 2x1o", 5)])
    yield "batch_norm", lambda: (enn.BatchNorm(irreps).eval(), batch(irreps, 3), [batch(irreps, 5)])
    yield "fully_connected_net", lambda: (enn.FullyConnectedNet([4, 16, 2], torch.relu), (torch.randn(3, 4),),
                                          [(torch.randn(5, 4),)])
    yield "extract", lambda: (enn.Extract(irreps, ["4x0e", "2x1o"], [(0,), (1,)]), batch(irreps, 3),
                              [batch(irreps, 5)])


_LIBRARIES = {"whisper": _whisper, "torchaudio": _torchaudio, "encodec": _encodec, "asteroid": _asteroid,
              "efficientnet_pytorch": _efficientnet,
              "vit_pytorch": _vit_pytorch, "pytorchcv": _pytorchcv,
              "x_transformers": _x_transformers, "perceiver_pytorch": _perceiver_pytorch,
              "pretrainedmodels": _pretrainedmodels, "denoising_diffusion_pytorch": _denoising_diffusion_pytorch,
              "facenet_pytorch": _facenet_pytorch, "audiocraft": _audiocraft, "e3nn": _e3nn}
_BUILDERS: dict = {}


_PREPARE = {"audiocraft": _audiocraft_package}


def models(library: str, only):
    if library in _PREPARE:  # before the collector imports the library's package
        _PREPARE[library]()
    return _models(library, only)


def _models(library: str, only):
    for name, builder in _LIBRARIES[library]():
        if not only or name in only:
            _BUILDERS[name] = builder
            yield library, name


def build(name: str):
    return _BUILDERS[name]()
