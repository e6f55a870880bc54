#!/usr/bin/env bash
# Precision on real scriptable code: lint torchvision 0.28.0's sources (no install of its dependencies).
# Every torchvision model scripts with torch 2.13, so an error finding in code those models compile is a false
# positive. Usage: scripts/torchvision_check.sh [WORKDIR]
set -euo pipefail
work=${1:-$(mktemp -d)}
pip download --quiet --no-deps --dest "$work" torchvision==0.28.0
rm -rf "$work/src" && mkdir -p "$work/src"
python -m zipfile -e "$work"/torchvision-0.28.0-*.whl "$work/src"
cd "$work/src"
echo "files: $(find torchvision -name '*.py' | wc -l), lines: $(cat $(find torchvision -name '*.py') | wc -l)"
jitlint check --statistics torchvision/ || true
jitlint check torchvision/
