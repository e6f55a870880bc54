#!/usr/bin/env bash
# Builds what the README's agreement rows (bench/agreement.py) were measured with, from package registries only:
#
#   bench/agreement_setup.sh [VENV] [CORPUS]      (defaults: bench/.work/agree-venv, bench/.work/corpus)
#
# - VENV: a virtualenv over this interpreter's site-packages (which must hold torch 2.13.0: it is never installed
#   here, so pip cannot pull a CUDA build), with timm 1.0.31, torchvision 0.28.0 and transformers 5.23.0 installed
#   --no-deps, the pinned packages they import, jitlint itself (editable), and bench/agreement_torchvision_ops.py
#   enabled by a .pth file (torchvision's registry wheel is a CUDA build whose _C.so does not load on the CPU torch).
# - CORPUS: the same three wheels unpacked (CORPUS/timm/timm, CORPUS/torchvision/torchvision,
#   CORPUS/transformers/transformers), the sources jitlint lints: the dynamic checker places torch's errors only in
#   files outside site-packages.
#
# Then, for example:
#   VENV/bin/python bench/agreement.py --path CORPUS/timm/timm --factories timm
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
venv=${1:-$here/bench/.work/agree-venv}
corpus=${2:-$here/bench/.work/corpus}
python=${PYTHON:-python3}

if ! "$python" -c 'import sys, torch; sys.exit(0 if torch.__version__.split("+")[0] == "2.13.0" else 1)' 2>/dev/null; then
    echo "agreement_setup: $python has no torch 2.13.0; install it first (pip install torch==2.13.0)" >&2
    exit 2
fi

libraries=(timm==1.0.31 torchvision==0.28.0 transformers==5.23.0)
# What `import transformers` / `import timm` need at import time, at the versions the README rows used.
imported=(huggingface_hub==2.4.0 safetensors==0.8.0 tokenizers==0.23.3 regex==2026.5.9 PyYAML==6.0.3
          tqdm==4.70.1 packaging==26.3 requests==2.34.2 pillow==13.0.0 numpy==2.4.6 typer==0.29.2)

"$python" -m venv --system-site-packages "$venv"
"$venv/bin/pip" install --quiet --no-deps "${libraries[@]}"
"$venv/bin/pip" install --quiet "${imported[@]}"
"$venv/bin/pip" install --quiet --no-deps -e "$here"
site=$("$venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
ln -sf "$here/bench/agreement_torchvision_ops.py" "$site/agreement_torchvision_ops.py"
echo "import agreement_torchvision_ops" > "$site/agreement_torchvision_ops.pth"

mkdir -p "$corpus/dl"
"$venv/bin/pip" download --quiet --no-deps --dest "$corpus/dl" "${libraries[@]}"
for spec in "${libraries[@]}"; do
    name=${spec%%==*}
    wheel=$(ls "$corpus/dl/$name-${spec##*==}-"*.whl)
    rm -rf "${corpus:?}/$name"
    "$venv/bin/python" -m zipfile -e "$wheel" "$corpus/$name"
done

"$venv/bin/python" -c 'import torch, timm, torchvision, transformers; print("agreement_setup: torch", torch.__version__,
"timm", timm.__version__, "torchvision", torchvision.__version__, "transformers", transformers.__version__)'
echo "agreement_setup: venv $venv, sources in $corpus/{timm/timm,torchvision/torchvision,transformers/transformers}"
