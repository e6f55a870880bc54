"""How much `--fix` (and `--fix --unsafe-fixes`) makes script: rule pages, the peer suite, and real libraries.

    python bench/fix_share.py                                   # the rule pages' bad examples
    python bench/fix_share.py --peer-suite ../shared/peer-suite # and the peer suite's cases
    python bench/fix_share.py --python /tmp/venv/bin/python --library /tmp/corpus/timm/timm/layers ...

Needs torch. For each mode it prints:

- pages: of the bad examples of the script target's pages that torch rejects, how many script after the fix;
- peer suite: of the defect cases (torch rejects them), how many script after the fix (the fixed file is run, and
  its `torch.jit.script(...)` under `__main__` must pass), and how many clean cases the fix changed (it should
  change none, and a changed clean case must still script);
- libraries: every nn.Module class of the given package directories that `bench/script_classes.py` can build is
  scripted one by one, before and after fixing a copy of the library (`--python` names the interpreter that has
  the library's dependencies); of the classes torch rejected, how many script after, and of those it scripted,
  how many no longer do. Only the modules whose file the fix changed, or that hold a rejected class, are
  scripted again.

Nothing here is a pass/fail threshold.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "src"))

from jitlint import pages  # noqa: E402
from torch_oracle import script_file  # noqa: E402

MODES = (("--fix", ["--fix"]), ("--fix --unsafe-fixes", ["--fix", "--unsafe-fixes"]))
ENV = dict(os.environ, PYTHONPATH=str(ROOT / "src") + os.pathsep + os.environ.get("PYTHONPATH", ""))


def jitlint_fix(flags: list[str], *paths: Path, cwd: Path | None = None) -> None:
    subprocess.run([sys.executable, "-m", "jitlint", "check", "-q", "--no-cache", *flags, *map(str, paths)],
                   capture_output=True, env=ENV, cwd=cwd)


def share(part: int, whole: int) -> str:
    return f"{part}/{whole} ({100 * part / whole:.0f}%)" if whole else "0/0"


def page_share() -> None:
    rejected = [page for page in pages.all_pages() if page.torch_verdict == "rejects" and page.target in ("script", "shared")]
    for label, flags in MODES:
        scripts = []
        with tempfile.TemporaryDirectory() as directory:
            paths = []
            for page in rejected:
                path = Path(directory) / f"{page.code.lower()}.py"
                path.write_text(page.bad)
                paths.append((page, path))
            for page, path in paths:  # one file at a time: the pages are not one project
                jitlint_fix(flags, path)
                if path.read_text() != page.bad and script_file(path).ok:
                    scripts.append(page.code)
        print(f"pages {label}: {share(len(scripts), len(rejected))} rejected bad examples now script: {' '.join(scripts)}")


def _runs(path: Path, timeout: float = 120) -> bool:
    """The case file, run as a script (its `__main__` scripts what it defines), exits cleanly."""
    try:
        result = subprocess.run([sys.executable, path.name], capture_output=True, cwd=path.parent, timeout=timeout)
    except subprocess.TimeoutExpired:
        return False
    return result.returncode == 0


def peer_share(suite: Path) -> None:
    manifest = json.loads((suite / "manifest.json").read_text())
    for label, flags in MODES:
        with tempfile.TemporaryDirectory() as directory:
            cases = Path(directory) / "cases"
            shutil.copytree(suite / "cases", cases)
            jitlint_fix(flags, cases, cwd=Path(directory))
            fixed, defects, changed_clean, broken_clean, codes = [], 0, [], [], []
            for case in manifest:
                path = cases / case["file"]
                changed = path.read_bytes() != (suite / "cases" / case["file"]).read_bytes()
                if case["kind"] == "defect":
                    defects += 1
                    if changed and _runs(path):
                        fixed.append(case["file"])
                elif changed:
                    changed_clean.append(case["file"])
                    if not _runs(path):
                        broken_clean.append(case["file"])
        print(f"peer suite {label}: {share(len(fixed), defects)} defect cases now script; "
              f"{len(changed_clean)} clean cases changed ({len(broken_clean)} of them no longer script)"
              + (f": {' '.join(changed_clean)}" if changed_clean else ""))


def _package_root(directory: Path) -> Path:
    """The directory holding the top-level package that `directory` is part of."""
    root = directory
    while (root / "__init__.py").is_file():
        root = root.parent
    return root


def _modules(directory: Path, root: Path) -> dict[str, Path]:
    found = {}
    for path in sorted(directory.rglob("*.py")):
        if path.name == "__init__.py" or "test" in path.relative_to(root).parts[:-1]:
            continue
        found[".".join(path.relative_to(root).with_suffix("").parts)] = path
    return found


def _script_classes(python: str, root: Path, modules: list[str]) -> dict[str, str]:
    if not modules:
        return {}
    result = subprocess.run([python, str(ROOT / "bench" / "script_classes.py"), str(root), *modules],
                            capture_output=True, text=True, cwd=tempfile.gettempdir())
    try:
        return json.loads(result.stdout)
    except json.JSONDecodeError:
        raise SystemExit(f"fix_share: script_classes failed: {result.stderr[-800:]}")


def library_share(python: str, directories: list[Path], baseline_file: Path | None) -> None:
    roots = {_package_root(d) for d in directories}
    if len(roots) != 1:
        raise SystemExit("fix_share: give directories of one library per run")
    root = roots.pop()
    modules: dict[str, Path] = {}
    for directory in directories:
        modules.update(_modules(directory, root))
    if baseline_file is not None and baseline_file.is_file():
        before = json.loads(baseline_file.read_text())
    else:
        before = _script_classes(python, root, list(modules))
        if baseline_file is not None:
            baseline_file.write_text(json.dumps(before, indent=1, sort_keys=True))
    rejected = {name for name, status in before.items() if status != "ok"}
    clean = {name for name, status in before.items() if status == "ok"}
    for label, flags in MODES:
        with tempfile.TemporaryDirectory() as directory:
            copy = Path(directory) / "src"
            copy.mkdir()
            top = {Path(name.split(".")[0]) for name in modules}
            for package in top:
                shutil.copytree(root / package, copy / package)
            jitlint_fix(flags, *[copy / d.relative_to(root) for d in directories], cwd=copy)
            changed = {name for name, path in modules.items()
                       if (copy / path.relative_to(root)).read_bytes() != path.read_bytes()}
            again = sorted(changed | {name.rsplit(".", 1)[0] for name in rejected})
            after = dict(before)
            after.update(_script_classes(python, copy, again))
        now_ok = sorted(name for name in rejected if after.get(name) == "ok")
        lost = sorted(name for name in clean if after.get(name) != "ok")
        print(f"library {root.name}/{','.join(str(d.relative_to(root)) for d in directories)} {label}: "
              f"{share(len(now_ok), len(rejected))} rejected classes now script "
              f"({len(before)} classes built, {len(changed)} of {len(modules)} files changed); "
              f"{len(lost)} that scripted no longer do" + (f": {' '.join(lost)}" if lost else ""))
        if now_ok:
            print("  now script: " + " ".join(now_ok))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--peer-suite", type=Path, help="the peer suite's directory (manifest.json, cases/)")
    parser.add_argument("--python", default=sys.executable, help="the interpreter that imports the libraries")
    parser.add_argument("--library", type=Path, action="append", default=[],
                        help="a package directory of a library (repeatable, one library per run)")
    parser.add_argument("--baseline", type=Path, help="a JSON file keeping the libraries' unfixed results")
    parser.add_argument("--no-pages", action="store_true", help="skip the rule pages")
    args = parser.parse_args()
    if not args.no_pages:
        page_share()
    if args.peer_suite:
        peer_share(args.peer_suite)
    if args.library:
        library_share(args.python, [d.resolve() for d in args.library], args.baseline)


if __name__ == "__main__":
    main()
