"""How much `--fix` (and `--fix --unsafe-fixes`) makes script: rule pages, the peer suite, and real libraries.

    python bench/fix_share.py                                   # the rule pages' bad examples
    python bench/fix_share.py --peer-suite DIR   # and a peer suite's cases (a directory of defect/clean cases)
    python bench/fix_share.py --python /tmp/venv/bin/python --library /tmp/corpus/timm/timm/layers ...
    python bench/fix_share.py --no-pages --builders transformers --families bert gpt2 --library .../transformers/models

Needs torch. For each mode it prints:

- pages: of the bad examples of the script target's pages that torch rejects, how many script after the fix;
- peer suite: of the defect cases (torch rejects them), how many script after the fix (the fixed file is run, and
  its `torch.jit.script(...)` under `__main__` must pass), and how many clean cases the fix changed (it should
  change none, and a changed clean case must still script);
- libraries: the library's nn.Module classes, built the way the agreement builds them (its own builders:
  `timm.create_model`, torchvision's `get_model`, pytorchcv's model provider, transformers' `config_class()`, the
  README calls of vit-pytorch and x-transformers; and classes whose constructor needs no argument) by
  `bench/script_built.py`, each scripted in a fresh child process (one failure cannot poison the next), before and
  after fixing a copy of the library (`--python` names the interpreter that has the library's dependencies). Of the
  classes torch rejected, how many script after; of those it scripted, how many no longer do; how many files
  without any finding the fix changed (it must change none); and what still blocks, grouped by torch's first
  error. Only the classes of changed files, or rejected ones, are built and scripted again.

Nothing here is a pass/fail threshold.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "src"))

from jitlint import pages  # noqa: E402
from oracles.script import script_file  # noqa: E402

MODES = (("--fix", ["--fix"]), ("--fix --unsafe-fixes", ["--fix", "--unsafe-fixes"]))
ENV = dict(os.environ, PYTHONPATH=str(ROOT / "src") + os.pathsep + os.environ.get("PYTHONPATH", ""))


def jitlint_fix(flags: list[str], *paths: Path, cwd: Path | None = None) -> None:
    subprocess.run([sys.executable, "-m", "jitlint", "check", "-q", "--no-cache", *flags, *map(str, paths)],
                   capture_output=True, env=ENV, cwd=cwd)


def share(part: int, whole: int) -> str:
    return f"{part}/{whole} ({100 * part / whole:.0f}%)" if whole else "0/0"


def page_share(list_failing: bool = False) -> None:
    rejected = [page for page in pages.all_pages() if page.torch_verdict == "rejects" and page.target in ("script", "shared")]
    for label, flags in MODES:
        scripts, failing = [], []
        with tempfile.TemporaryDirectory() as directory:
            paths = []
            for page in rejected:
                path = Path(directory) / f"{page.code.lower()}.py"
                path.write_text(page.bad)
                paths.append((page, path))
            for page, path in paths:  # one file at a time: the pages are not one project
                jitlint_fix(flags, path)
                if path.read_text() == page.bad:
                    failing.append((page.code, "unchanged"))
                    continue
                result = script_file(path)
                if result.ok:
                    scripts.append(page.code)
                else:
                    failing.append((page.code, f"changed, still {result.describe()}"))
        print(f"pages {label}: {share(len(scripts), len(rejected))} rejected bad examples now script: {' '.join(scripts)}")
        if list_failing:
            for code, why in failing:
                print(f"    {code}: {why[:200]}")


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


def _script_built(python: str, root: Path, library: str, families: list[str], labels: list[str] | None = None,
                  modules: list[str] | None = None) -> dict[str, dict]:
    """Run bench/script_built.py: the library's classes, built by its own builders, scripted one by one."""
    command = [python, str(ROOT / "bench" / "script_built.py"), str(root), library]
    with tempfile.TemporaryDirectory() as directory:
        if labels is not None:
            command += ["--labels", str(Path(directory) / "labels.json")]
            (Path(directory) / "labels.json").write_text(json.dumps(labels))
        if modules is not None:
            command += ["--modules", *modules]
        if families:
            command += ["--families", *families]
        result = subprocess.run(command, capture_output=True, text=True, cwd=tempfile.gettempdir())
    try:
        return json.loads(result.stdout)
    except json.JSONDecodeError:
        raise SystemExit(f"fix_share: script_built failed: {result.stderr[-800:]}")


def _error_group(status: str) -> str:
    """torch's first error line with the names, numbers and types in it blanked, to group the rejections."""
    text = re.sub(r"'[^']*'|\"[^\"]*\"|`[^`]*`", "'_'", status)
    text = re.sub(r"\b\d+\b", "N", text)
    text = re.sub(r"\s*\(.*$", "", text) if text.startswith("rejected: RuntimeError: Module") else text
    return text[:140]


def _files_with_findings(paths: list[Path], cwd: Path) -> set[Path]:
    result = subprocess.run([sys.executable, "-m", "jitlint", "check", "--no-cache", "--output-format", "json",
                             *map(str, paths)], capture_output=True, text=True, env=ENV, cwd=cwd)
    return {(cwd / f["filename"]).resolve() for f in json.loads(result.stdout or "[]")}


def library_share(python: str, library: str, directories: list[Path], families: list[str],
                  baseline_file: Path | None) -> None:
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
        before = _script_built(python, root, library, families)
        if baseline_file is not None:
            baseline_file.write_text(json.dumps(before, indent=1, sort_keys=True))
    # only the classes of the files jitlint looks at (the directories given)
    before = {name: value for name, value in before.items() if name.rsplit(".", 1)[0] in modules}
    rejected = {name for name, value in before.items() if value["status"] != "ok"}
    clean = {name for name, value in before.items() if value["status"] == "ok"}
    with_findings = _files_with_findings(directories, root)
    print(f"library {library} ({', '.join(str(d.relative_to(root)) for d in directories)}): {len(before)} classes "
          f"built by its builders, torch rejects {len(rejected)}; {len(with_findings)} of {len(modules)} files "
          "have findings")
    remaining: dict[str, str] = {}
    for label, flags in MODES:
        with tempfile.TemporaryDirectory() as directory:
            copy = Path(directory) / "src"
            copy.mkdir()
            for package in {Path(name.split(".")[0]) for name in modules}:
                shutil.copytree(root / package, copy / package)
            jitlint_fix(flags, *[copy / d.relative_to(root) for d in directories], cwd=copy)
            changed = {name for name, path in modules.items()
                       if (copy / path.relative_to(root)).read_bytes() != path.read_bytes()}
            clean_files_changed = sorted(name for name in changed if modules[name].resolve() not in with_findings)
            again = {name for name, value in before.items()
                     if value["status"] != "ok" or name.rsplit(".", 1)[0] in changed}
            after = dict(before)
            if again:
                labels = sorted({before[name]["built"] for name in again} - {"noargs"})
                found = _script_built(python, copy, library, families, labels,
                                      sorted({name.rsplit(".", 1)[0] for name in again}))
                for name in again:
                    after[name] = found.get(name, {"status": "not built after the fix", "built": ""})
        now_ok = sorted(name for name in rejected if after[name]["status"] == "ok")
        lost = sorted(name for name in clean if after[name]["status"] != "ok")
        print(f"  {label}: {share(len(now_ok), len(rejected))} rejected classes now script; {len(changed)} of "
              f"{len(modules)} files changed ({len(clean_files_changed)} without findings); {len(lost)} of "
              f"{len(clean)} classes that scripted no longer do" + (f": {' '.join(lost)}" if lost else ""))
        if now_ok:
            print("    now script: " + " ".join(now_ok))
        if lost:
            for name in lost:
                print(f"    lost {name}: {after[name]['status'][:200]}")
        remaining = {name: after[name]["status"] for name in rejected if after[name]["status"] != "ok"}
    groups: dict[str, list[str]] = {}
    for name, status in remaining.items():
        groups.setdefault(_error_group(status), []).append(name)
    print(f"  still rejected after --fix --unsafe-fixes, by torch's first error ({len(remaining)} classes):")
    for text, names in sorted(groups.items(), key=lambda item: (-len(item[1]), item[0])):
        print(f"    {len(names):4d}  {text}   e.g. {names[0]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--peer-suite", type=Path, help="the peer suite's directory (manifest.json, cases/)")
    parser.add_argument("--python", default=sys.executable, help="the interpreter that imports the libraries")
    parser.add_argument("--library", type=Path, action="append", default=[],
                        help="a package directory of a library (repeatable, one library per run)")
    parser.add_argument("--builders", help="whose builders build the classes (timm, torchvision, pytorchcv, "
                        "transformers, vit_pytorch, x_transformers, or any other package name: no-argument classes "
                        "only); default: the library's top package")
    parser.add_argument("--families", nargs="*", default=[], help="transformers model families to build")
    parser.add_argument("--baseline", type=Path, help="a JSON file keeping the libraries' unfixed results")
    parser.add_argument("--no-pages", action="store_true", help="skip the rule pages")
    parser.add_argument("--list-failing", action="store_true",
                        help="list the rejected pages that do not script after each mode, and why")
    args = parser.parse_args()
    if not args.no_pages:
        page_share(args.list_failing)
    if args.peer_suite:
        peer_share(args.peer_suite)
    if args.library:
        directories = [d.resolve() for d in args.library]
        library = args.builders or directories[0].relative_to(_package_root(directories[0])).parts[0]
        library_share(args.python, library, directories, args.families, args.baseline)


if __name__ == "__main__":
    main()
