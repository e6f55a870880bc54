"""What torch.jit.trace does with real models: the ground truth behind the trace target's recall on real code (not
part of the product). Two steps:

    python bench/trace_truth.py collect LIBRARY OUT.json [--only NAME ...]   # an interpreter with torch + LIBRARY
    PYTHONPATH=src python bench/trace_truth.py compare OUT.json... --source ROOT [--findings F.json]

`collect` builds the library's models (torchvision: `torchvision.models.list_models()` without weights; timm: one
small model per family; transformers: tiny configurations of the families in `TRANSFORMERS`; a `more` library: the
builders in `MORE`), each in eval mode with random weights, traces it on an example input (`check_trace=False`) and
compares the traced module with eager on a second input of another batch size and resolution or length (falling
back to another batch only when eager rejects the new size). It records, per model:

- every TracerWarning with torch's default filter removed: the file and line it is attributed to, its module,
  whether that filter hides it, and the innermost line of the library on the stack when it was issued (a warning
  raised inside torch is attributed to torch's file: the library's line is where it called into torch);
- a trace error (with the library's lines in the traceback);
- "changes"/"breaks" when the traced module's output differs from eager's on the second input or it raises there,
  with the library lines that explain it: the first diverging operator of `check_inputs` (its source line) and,
  for "breaks", the lines of the TorchScript traceback.

`compare` lints the library's sources with `--target trace` (or reads the findings given) and reports the recall
of distinct warned lines (attributed to the library; and the library's call sites of warnings raised inside torch)
and of lines that explain a wrong result, and the error findings on lines of models that trace correctly.
"""

from __future__ import annotations

import argparse
import inspect
import json
import os
import re
import signal
import sys
import traceback
import warnings
from pathlib import Path

HIDDEN = re.compile(r"torch.(?!jit)")

# Tiny transformers configurations: (family, model class, config overrides, input kind).
_TEXT = {"hidden_size": 32, "num_hidden_layers": 2, "num_attention_heads": 4, "intermediate_size": 37,
         "vocab_size": 99, "max_position_embeddings": 128}
_AUDIO = {"hidden_size": 32, "num_hidden_layers": 2, "num_attention_heads": 4, "intermediate_size": 37,
          "conv_dim": (32, 32, 32), "conv_stride": (4, 4, 4), "conv_kernel": (8, 8, 8),
          "num_conv_pos_embeddings": 16, "num_conv_pos_embedding_groups": 2}
_VISION = {"hidden_size": 32, "num_hidden_layers": 2, "num_attention_heads": 4, "intermediate_size": 37,
           "image_size": 32, "patch_size": 8}
TRANSFORMERS = [
    ("bert", "BertModel", _TEXT, "text"), ("roberta", "RobertaModel", _TEXT, "text"),
    ("distilbert", "DistilBertModel", {"dim": 32, "n_layers": 2, "n_heads": 4, "hidden_dim": 37, "vocab_size": 99}, "text"),
    ("albert", "AlbertModel", {**_TEXT, "embedding_size": 16}, "text"), ("electra", "ElectraModel", _TEXT, "text"),
    ("gpt2", "GPT2Model", {"n_embd": 32, "n_layer": 2, "n_head": 4, "vocab_size": 99, "n_positions": 128}, "text"),
    ("gpt_neo", "GPTNeoModel", {"hidden_size": 32, "num_layers": 2, "num_heads": 4, "vocab_size": 99,
                                "attention_types": [[["global", "local"], 1]], "max_position_embeddings": 128}, "text"),
    ("opt", "OPTModel", {**_TEXT, "ffn_dim": 37, "word_embed_proj_dim": 32}, "text"),
    ("bloom", "BloomModel", {"hidden_size": 32, "n_layer": 2, "n_head": 4, "vocab_size": 99}, "text"),
    ("llama", "LlamaModel", {**_TEXT, "num_key_value_heads": 2}, "text"),
    ("mistral", "MistralModel", {**_TEXT, "num_key_value_heads": 2}, "text"),
    ("mpnet", "MPNetModel", _TEXT, "text"), ("deberta", "DebertaModel", _TEXT, "text"),
    ("deberta_v2", "DebertaV2Model", _TEXT, "text"), ("funnel", "FunnelModel", {"d_model": 32, "n_head": 4,
     "d_head": 8, "d_inner": 37, "block_sizes": [1, 1], "vocab_size": 99}, "text"),
    ("longformer", "LongformerModel", {**_TEXT, "attention_window": 4}, "text"),
    ("big_bird", "BigBirdModel", {**_TEXT, "attention_type": "original_full"}, "text"),
    ("xlm_roberta", "XLMRobertaModel", _TEXT, "text"), ("camembert", "CamembertModel", _TEXT, "text"),
    ("squeezebert", "SqueezeBertModel", {**_TEXT, "embedding_size": 32}, "text"),
    ("convbert", "ConvBertModel", {**_TEXT, "embedding_size": 32}, "text"),
    ("mobilebert", "MobileBertModel", {**_TEXT, "embedding_size": 32, "intra_bottleneck_size": 32,
                                       "true_hidden_size": 32}, "text"),
    ("bart", "BartModel", {"d_model": 32, "encoder_layers": 2, "decoder_layers": 2, "encoder_attention_heads": 4,
                           "decoder_attention_heads": 4, "encoder_ffn_dim": 37, "decoder_ffn_dim": 37,
                           "vocab_size": 99}, "text"),
    ("vit", "ViTModel", _VISION, "image"), ("deit", "DeiTModel", _VISION, "image"),
    ("beit", "BeitModel", _VISION, "image"),
    ("swin", "SwinModel", {"embed_dim": 16, "depths": [1, 1], "num_heads": [2, 2], "image_size": 32,
                           "patch_size": 4, "window_size": 2}, "image"),
    ("convnext", "ConvNextModel", {"hidden_sizes": [16, 32], "depths": [1, 1], "num_stages": 2}, "image"),
    ("resnet", "ResNetModel", {"hidden_sizes": [16, 32], "depths": [1, 1], "embedding_size": 16}, "image"),
    ("mobilevit", "MobileViTModel", {"image_size": 64}, "image"),
    ("segformer", "SegformerModel", {"hidden_sizes": [16, 32], "depths": [1, 1], "num_encoder_blocks": 2,
                                     "sr_ratios": [2, 1], "num_attention_heads": [1, 2], "strides": [4, 2],
                                     "patch_sizes": [7, 3], "mlp_ratios": [2, 2], "decoder_hidden_size": 32}, "image"),
    ("wav2vec2", "Wav2Vec2Model", _AUDIO, "audio"), ("hubert", "HubertModel", _AUDIO, "audio"),
    ("wavlm", "WavLMModel", _AUDIO, "audio"), ("data2vec", "Data2VecAudioModel", _AUDIO, "audio"),
    ("sew", "SEWModel", {**_AUDIO, "squeeze_factor": 2}, "audio"),
    ("sew_d", "SEWDModel", {**_AUDIO, "squeeze_factor": 2}, "audio"),
    ("unispeech", "UniSpeechModel", _AUDIO, "audio"),
    ("whisper", "WhisperEncoder", {"d_model": 32, "encoder_layers": 2, "encoder_attention_heads": 4,
                                   "encoder_ffn_dim": 37, "num_mel_bins": 16, "max_source_positions": 64}, "mel"),
]


class _Timeout(Exception):
    pass


def _alarm(_signum, _frame):
    raise _Timeout()


class WarningLog:
    def __init__(self, torch, library_dir: str) -> None:
        self.torch = torch
        self.library_dir = library_dir
        self.seen: list[dict] = []

    def relative(self, path: str) -> str | None:
        real = os.path.realpath(path)
        return os.path.relpath(real, self.library_dir) if real.startswith(self.library_dir + os.sep) else None

    def hook(self, message, category, filename, lineno, file=None, line=None):
        if not issubclass(category, self.torch.jit.TracerWarning):
            return
        frame = sys._getframe(1)
        module = ""
        library = None
        while frame is not None:
            if frame.f_code.co_filename == filename and frame.f_lineno == lineno and not module:
                module = frame.f_globals.get("__name__", "")
            relative = self.relative(frame.f_code.co_filename)
            if relative is not None and library is None:
                library = [relative, frame.f_lineno]
            frame = frame.f_back
        attributed = self.relative(filename)
        self.seen.append({"message": str(message).splitlines()[0][:160], "file": attributed or filename,
                          "line": lineno, "in_library": attributed is not None, "module": module,
                          "hidden": bool(HIDDEN.match(module)), "library_line": library})


def _library_lines(text: str, library_dir: str) -> list:
    found = []
    for path, line in re.findall(r'(/[^\s"\'():]+\.py)"?(?:, line |:)(\d+)', text):
        real = os.path.realpath(path)
        if real.startswith(library_dir + os.sep):
            item = [os.path.relpath(real, library_dir), int(line)]
            if item not in found:
                found.append(item)
    return found


def _same(torch, eager, traced) -> str:
    if isinstance(eager, dict):  # an OrderedDict comes back as a dict (strict=False): compare the values
        eager = tuple(eager.values())
        traced = tuple(traced.values()) if isinstance(traced, dict) else traced
    if isinstance(eager, torch.Tensor) and isinstance(traced, torch.Tensor):
        if eager.shape != traced.shape:
            return f"shape {tuple(eager.shape)} vs {tuple(traced.shape)}"
        if eager.dtype != traced.dtype:
            return f"dtype {eager.dtype} vs {traced.dtype}"
        if not torch.allclose(eager.double(), traced.double(), rtol=1e-3, atol=1e-4, equal_nan=True):
            return f"values differ (max abs diff {float((eager.double() - traced.double()).abs().max()):.3g})"
        return ""
    if isinstance(eager, (tuple, list)) and isinstance(traced, (tuple, list)):
        eager = [e for e in eager if e is not None]
        traced = [t for t in traced if t is not None]
        if len(eager) != len(traced):
            return f"length {len(eager)} vs {len(traced)}"
        for a, b in zip(eager, traced):
            found = _same(torch, a, b)
            if found:
                return found
        return ""
    if hasattr(eager, "to_tuple"):
        return _same(torch, eager.to_tuple(), traced)
    return "" if type(eager) is type(traced) else f"type {type(eager).__name__} vs {type(traced).__name__}"


# -- models and inputs ------------------------------------------------------------------------------------------
def _timm_models(only):
    import timm

    small = ("tiny", "small", "nano", "pico", "femto", "atto", "xxs", "mobile", "b0", "18", "lite", "s0", "xs")
    for family in sorted(timm.list_modules()):
        names = timm.list_models(module=family)
        if not names:
            continue
        name = next((n for n in names if any(word in n for word in small)), names[0])
        if not only or name in only or family in only:
            yield family, name


def _build_timm(name):
    import timm
    import torch

    model = timm.create_model(name, pretrained=False)
    cfg = getattr(model, "pretrained_cfg", {}) or {}
    channels, height, width = cfg.get("input_size", (3, 224, 224))
    first = (torch.randn(1, channels, height, width),)
    second = [(torch.randn(2, channels, height + 32, width + 32),), (torch.randn(2, channels, height, width),)]
    return model, first, second


def _torchvision_models(only):
    import torchvision.models as models

    for name in sorted(models.list_models()):
        if name.startswith("quantized") or (only and name not in only):
            continue
        yield "models", name


def _build_torchvision(name):
    import torch
    import torchvision.models as models

    try:
        model = models.get_model(name, weights=None, weights_backbone=None)
    except TypeError:
        model = models.get_model(name, weights=None)
    if name in models.list_models(module=models.video) and name.startswith(("mvit", "s3d")):
        # built for 16 frames of 224 px (mvit's positional embeddings; s3d's final pooling)
        first = (torch.randn(1, 3, 16, 224, 224),)
        second = [(torch.randn(2, 3, 16, 224, 224),)]
    elif name in models.list_models(module=models.video):
        first = (torch.randn(1, 3, 8, 112, 112),)
        second = [(torch.randn(2, 3, 8, 128, 128),), (torch.randn(2, 3, 8, 112, 112),)]
    elif name in models.list_models(module=models.optical_flow):
        first = (torch.randn(1, 3, 128, 128), torch.randn(1, 3, 128, 128))
        second = [(torch.randn(2, 3, 160, 160), torch.randn(2, 3, 160, 160)),
                  (torch.randn(2, 3, 128, 128), torch.randn(2, 3, 128, 128))]
    elif name in models.list_models(module=models.detection):
        first = ([torch.rand(3, 128, 128)],)
        second = [([torch.rand(3, 160, 160), torch.rand(3, 160, 160)],)]
    else:
        size = 128 if not name.startswith(("inception", "googlenet")) else 299
        fixed = getattr(model, "image_size", None) or (224 if name.startswith("maxvit") else None)
        if fixed:  # a model built for one resolution (its positional embeddings): another batch only
            first = (torch.randn(1, 3, fixed, fixed),)
            return model, first, [(torch.randn(2, 3, fixed, fixed),)]
        first = (torch.randn(1, 3, size, size),)
        second = [(torch.randn(2, 3, size + 32, size + 32),), (torch.randn(2, 3, size, size),)]
    return model, first, second


def _transformers_models(only):
    for family, cls, overrides, kind in TRANSFORMERS:
        if not only or family in only:
            yield family, f"{family}:{cls}"


def _build_transformers(label):
    import importlib

    import torch

    family, cls_name = label.split(":")
    entry = next(item for item in TRANSFORMERS if item[0] == family)
    module = importlib.import_module(f"transformers.models.{family}.modeling_{family}")
    cls = getattr(module, cls_name)
    config = cls.config_class(**entry[2])
    config.torchscript = True  # tuples, not ModelOutput dicts
    model = cls(config)
    parameters = inspect.signature(model.forward).parameters
    if "return_dict" in parameters:
        model = _Tuples(model, "use_cache" in parameters)
    kind = entry[3]
    if kind == "text":
        vocab = getattr(config, "vocab_size", 99)
        first = (torch.randint(0, vocab, (1, 7)),)
        second = [(torch.randint(0, vocab, (2, 11)),)]
    elif kind == "image":
        size = getattr(config, "image_size", 32)
        size = size if isinstance(size, int) else size[0]
        channels = getattr(config, "num_channels", 3)
        first = (torch.randn(1, channels, size, size),)
        second = [(torch.randn(2, channels, size * 2, size * 2),), (torch.randn(2, channels, size, size),)]
    elif kind == "mel":
        first = (torch.randn(1, config.num_mel_bins, 2 * config.max_source_positions),)
        second = [(torch.randn(2, config.num_mel_bins, 2 * config.max_source_positions),)]
    else:
        first = (torch.randn(1, 4000),)
        second = [(torch.randn(2, 5600),)]
    return model, first, second


def _tuples_class():
    import torch.nn as nn

    class Tuples(nn.Module):
        """A transformers model called with `return_dict=False` (and without a cache): tuple outputs, as tracing
        needs (decoders ignore `config.torchscript` for their cache outputs)."""

        def __init__(self, model, cache):
            super().__init__()
            self.model = model
            self.cache = cache

        def forward(self, *args):
            if self.cache:
                return self.model(*args, return_dict=False, use_cache=False)
            return self.model(*args, return_dict=False)

    return Tuples


def _Tuples(model, cache):
    return _tuples_class()(model, cache)


MORE: dict = {}  # filled by `more_builders` for the libraries of /work/corpus/more (bench/trace_truth_more.py)


def _models(library, only):
    if library == "timm":
        return _timm_models(only), _build_timm
    if library == "torchvision":
        return _torchvision_models(only), _build_torchvision
    if library == "transformers":
        return _transformers_models(only), _build_transformers
    import importlib

    sys.path.insert(0, str(Path(__file__).parent))
    more = importlib.import_module("trace_truth_more")
    return more.models(library, only), more.build


def collect(library: str, out: str, only: list[str], timeout: int) -> None:
    import copy
    import importlib

    import torch

    torch.set_num_threads(1)
    models, build = _models(library, set(only))  # first: a `more` library's builders may prepare its import
    package = importlib.import_module(library.split(".")[0] if "." in library else library)
    library_dir = os.path.realpath(os.path.dirname(package.__file__))
    rows = []
    signal.signal(signal.SIGALRM, _alarm)
    for family, name in models:
        row = {"library": library, "family": family, "model": name, "stage": None, "warnings": [], "verdict": "",
               "detail": "", "lines": [], "error": ""}
        rows.append(row)
        signal.alarm(timeout)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                torch.manual_seed(0)
                model, first, seconds = build(name)
                model.eval()
                eager = copy.deepcopy(model)
            row["stage"] = "trace"
            log = WarningLog(torch, library_dir)
            saved = warnings.showwarning
            with warnings.catch_warnings():
                warnings.resetwarnings()
                warnings.simplefilter("always")
                warnings.showwarning = log.hook
                try:
                    with torch.no_grad():
                        traced = torch.jit.trace(model, first, check_trace=False, strict=False)
                finally:
                    warnings.showwarning = saved
                    row["warnings"] = log.seen
            row["stage"] = "compare"
            with warnings.catch_warnings(), torch.no_grad():
                warnings.simplefilter("ignore")
                second = None
                for candidate in seconds:
                    try:
                        expected = eager(*candidate)
                        second = candidate
                        break
                    except Exception:
                        continue
                if second is None:
                    row["verdict"] = "n/a"
                    row["detail"] = "eager rejects every second input"
                    continue
                row["second"] = [list(t.shape) if isinstance(t, torch.Tensor) else "list" for t in second]
                try:
                    got = traced(*second)
                except Exception as error:
                    row["verdict"] = "breaks"
                    row["detail"] = f"{type(error).__name__}: {str(error).strip().splitlines()[0][:200]}"
                    row["lines"] = _library_lines(str(error), library_dir)
                else:
                    differs = _same(torch, expected, got)
                    row["verdict"] = "changes" if differs else "accepts"
                    row["detail"] = differs
                if row["verdict"] != "accepts":
                    try:
                        torch.jit.trace(copy.deepcopy(eager), first, check_inputs=[second], strict=False)
                    except Exception as error:
                        text = str(error)
                        marker = text.find("First diverging operator")
                        row["check"] = text[marker:marker + 600] if marker >= 0 else text[:300]
                        # the first node that differs between the two traces, and where each recorded it
                        for item in _library_lines(text[marker:] if marker >= 0 else "", library_dir):
                            if item not in row["lines"]:
                                row["lines"].append(item)
            row["stage"] = None
        except _Timeout:
            row["error"] = f"timeout after {timeout} s"
        except Exception as error:
            row["error"] = f"{type(error).__name__}: {str(error).strip().splitlines()[0][:200] if str(error).strip() else ''}"
            if row["stage"] == "trace":
                row["lines"] = _library_lines("".join(traceback.format_exception(error)), library_dir)
        finally:
            signal.alarm(0)
        print(f"{name}: {row['stage'] or 'done'} {row['verdict']} {row['detail'][:60]} {row['error'][:80]} "
              f"warnings={len(row['warnings'])}", file=sys.stderr, flush=True)
        _dump(out, library, library_dir, rows)  # after each model: a run cut short keeps what it did
    _dump(out, library, library_dir, rows)


def _dump(out: str, library: str, library_dir: str, rows: list) -> None:
    partial = out + ".part"
    with open(partial, "w", encoding="utf-8") as handle:
        json.dump({"library": library, "library_dir": library_dir, "rows": rows}, handle, indent=1)
    os.replace(partial, out)


# -- compare ------------------------------------------------------------------------------------------------------
def truth(rows: list) -> dict:
    """Distinct library lines: warned (attributed to the library), called into torch where torch warned, and
    explaining a wrong result; and the files of models that trace correctly."""
    warned, called, wrong, constant = set(), set(), set(), set()
    for row in rows:
        for warning in row["warnings"]:
            if "results are registered as constants" in warning["message"]:
                # `torch.tensor(...)`/`as_tensor`: torch warns on every call, constant or traced size alike
                if warning.get("library_line"):
                    constant.add(tuple(warning["library_line"]))
                continue
            if warning["in_library"]:
                warned.add((warning["file"], warning["line"]))
            elif warning.get("library_line"):
                called.add(tuple(warning["library_line"]))
        if row.get("verdict") in ("changes", "breaks"):
            for file, line in row.get("lines", []):
                wrong.add((file, line))
    return {"warned": warned, "called": called, "wrong": wrong, "constant": constant}


def _statement_lines(source_root: Path, findings: list) -> dict:
    """For each file with findings: finding row -> the rows of its statement (a finding on a multi-line statement
    covers torch's line inside it)."""
    import libcst as cst
    from libcst.metadata import MetadataWrapper, PositionProvider

    spans: dict[str, list] = {}
    for path in sorted({f["filename"] for f in findings}):
        try:
            tree = MetadataWrapper(cst.parse_module((source_root / path).read_text()))
        except Exception:
            continue
        positions = tree.resolve(PositionProvider)
        statements = []
        for node, position in positions.items():
            if isinstance(node, (cst.SimpleStatementLine, cst.If, cst.While, cst.For, cst.With)):
                end = position.end.line if isinstance(node, cst.SimpleStatementLine) else position.start.line
                if isinstance(node, (cst.If, cst.While, cst.For)):
                    header_end = positions[node.body].start.line
                    end = max(position.start.line, header_end)
                statements.append((position.start.line, end))
        spans[path] = statements
    return spans


def compare(outs: list[str], source: str, findings_path: str | None, codes: str) -> None:
    source_root = Path(source)
    rows, library_dir = [], None
    by_model: dict = {}
    for out in outs:  # a later file's row for the same model replaces an earlier one (a re-run)
        data = json.loads(Path(out).read_text())
        for row in data["rows"]:
            by_model[(row["library"], row["model"])] = row
    rows = list(by_model.values())
    library = rows[0]["library"].split(".")[0] if rows else ""
    if findings_path:
        findings = json.loads(Path(findings_path).read_text())
    else:
        import subprocess

        done = subprocess.run([sys.executable, "-m", "jitlint", "check", "--no-cache", "--target", "trace",
                               "--select", codes, "--output-format", "json", "--exit-zero", library],
                              capture_output=True, text=True, cwd=source_root)
        findings = json.loads(done.stdout)
    for finding in findings:
        finding["filename"] = os.path.relpath(os.path.join(source_root, finding["filename"]),
                                              source_root / library)
    spans = _statement_lines(source_root / library, findings)
    found_at: dict[tuple, set] = {}
    for finding in findings:
        row = finding["location"]["row"]
        covered = {row}
        for start, end in spans.get(finding["filename"], []):
            if start <= row <= end:
                covered.update(range(start, end + 1))
        for line in covered:
            found_at.setdefault((finding["filename"], line), set()).add(finding["code"])
    gt = truth(rows)
    models = [row for row in rows if not row["error"]]
    print(f"{library}: {len(rows)} models, {len(models)} traced and compared "
          f"({sum(r['verdict'] == 'accepts' for r in models)} equal on the second input, "
          f"{sum(r['verdict'] in ('changes', 'breaks') for r in models)} wrong, "
          f"{sum(r['verdict'] == 'n/a' for r in models)} without a second input); "
          f"{sum(1 for r in rows if r['error'])} failed to build or trace")
    for key in ("warned", "called", "wrong", "constant"):
        lines = gt[key]
        hit = {line for line in lines if line in found_at}
        recall = len(hit) / len(lines) if lines else float("nan")
        print(f"  {key}: {len(hit)}/{len(lines)} found (recall {recall:.2f})")
        for line in sorted(lines - hit):
            print(f"    missed {line[0]}:{line[1]}")
    union = gt["warned"] | gt["wrong"]
    hit = {line for line in union if line in found_at}
    print(f"  warned or wrong (attributed): {len(hit)}/{len(union)} (recall {len(hit) / max(1, len(union)):.2f})")
    union_all = union | gt["called"]
    hit_all = {line for line in union_all if line in found_at}
    print(f"  with call sites of torch-internal warnings: {len(hit_all)}/{len(union_all)} "
          f"(recall {len(hit_all) / max(1, len(union_all)):.2f})")
    errors = [f for f in findings if f["severity"] == "error"]
    print(f"  error findings: {len(errors)}")
    for finding in errors:
        print(f"    {finding['filename']}:{finding['location']['row']} {finding['code']} {finding['message'][:90]}")
    by_code: dict[str, int] = {}
    for finding in findings:
        by_code[finding["code"]] = by_code.get(finding["code"], 0) + 1
    print(f"  findings by code: {dict(sorted(by_code.items()))}")


def main() -> None:
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="command", required=True)
    c = sub.add_parser("collect")
    c.add_argument("library")
    c.add_argument("out")
    c.add_argument("--only", nargs="*", default=[])
    c.add_argument("--timeout", type=int, default=240)
    m = sub.add_parser("compare")
    m.add_argument("outs", nargs="+")
    m.add_argument("--source", required=True)
    m.add_argument("--findings")
    m.add_argument("--select", default="TRC")
    args = parser.parse_args()
    if args.command == "collect":
        collect(args.library, args.out, args.only, args.timeout)
    else:
        compare(args.outs, args.source, args.findings, args.select)


if __name__ == "__main__":
    main()
