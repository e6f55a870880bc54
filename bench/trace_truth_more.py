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


_LIBRARIES = {"whisper": _whisper, "torchaudio": _torchaudio, "encodec": _encodec, "asteroid": _asteroid,
              "efficientnet_pytorch": _efficientnet}
_BUILDERS: dict = {}


def models(library: str, only):
    for name, builder in _LIBRARIES[library]():
        if not only or name in only:
            _BUILDERS[name] = builder
            yield library, name


def build(name: str):
    return _BUILDERS[name]()
