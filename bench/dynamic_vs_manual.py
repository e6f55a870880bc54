"""Wall time of `jitlint check --dynamic` over fixtures/ against doing it by hand, measured in one run.

"By hand" is one fresh interpreter that imports torch, imports every fixture module, builds each nn.Module class
with no arguments, and calls torch.jit.script on it once (so it sees one error per module, where jitlint reports
all of them). Usage: python bench/dynamic_vs_manual.py [--repeat N]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MANUAL = r'''
import importlib.util, inspect, sys, warnings
from pathlib import Path
warnings.filterwarnings("ignore")
import torch
root = Path(sys.argv[1])
sys.path.insert(0, str(root / "broken"))
count = failed = 0
for path in sorted(root.rglob("*.py")):
    if path.name == "__init__.py":
        continue
    if path.parent.name == "detector":
        import importlib; module = importlib.import_module("detector." + path.stem)
    else:
        spec = importlib.util.spec_from_file_location("fx_" + path.stem, path)
        module = importlib.util.module_from_spec(spec); sys.modules[spec.name] = module; spec.loader.exec_module(module)
    for value in list(vars(module).values()):
        if inspect.isclass(value) and issubclass(value, torch.nn.Module) and value.__module__ == module.__name__:
            count += 1
            try:
                torch.jit.script(value())
            except Exception:
                failed += 1
print(count, failed)
'''


def timed(command: list[str]) -> tuple[float, str]:
    started = time.perf_counter()
    result = subprocess.run(command, capture_output=True, text=True, cwd=ROOT)
    return time.perf_counter() - started, result.stdout


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    jitlint, manual = [], []
    for _ in range(args.repeat):
        seconds, _ = timed([sys.executable, "-m", "jitlint", "check", "--dynamic", "--no-cache", "-q", "fixtures/"])
        jitlint.append(seconds)
        seconds, out = timed([sys.executable, "-c", MANUAL, str(ROOT / "fixtures")])
        manual.append(seconds)
    modules, failing = out.split()
    print(f"fixtures: {modules} module classes, {failing} of which torch rejects")
    print(f"{'':34}{'median s':>10}{'min s':>8}")
    print(f"{'jitlint check --dynamic (no cache)':34}{statistics.median(jitlint):>10.2f}{min(jitlint):>8.2f}")
    print(f"{'import torch + script by hand':34}{statistics.median(manual):>10.2f}{min(manual):>8.2f}")
    print(f"ratio: {statistics.median(jitlint) / statistics.median(manual):.2f}x")


if __name__ == "__main__":
    main()
