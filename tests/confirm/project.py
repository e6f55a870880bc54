"""Helpers of the confirmer tests: write a project, run this checkout's `jitlint check --dynamic` on it; the project
the shared run (`conftest.shared_run`) checks."""

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

from jitlint import pages

ROOT = Path(__file__).resolve().parents[2]
HEADER = "import torch\nimport torch.nn as nn\n\n\n"


def write_project(root: Path, files: dict[str, str]) -> Path:
    """Write each file's text as it is (line numbers are what the tests assert)."""
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


def run_jitlint(*args, cwd: Path, timeout: float = 900) -> subprocess.CompletedProcess:
    """`jitlint check ARGS` of this checkout (whatever the editable install points to)."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT / "src"), os.environ.get("PYTHONPATH")]))}
    return subprocess.run([sys.executable, "-m", "jitlint", "check", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=timeout, env=env)


def dynamic_findings(root: Path, *paths: str, args=("--exit-zero",)) -> list[dict]:
    """The JSON findings of `jitlint check --dynamic --no-cache` on `paths` of the project at `root`."""
    result = run_jitlint("--dynamic", "--no-cache", "--output-format", "json", *args, *paths, cwd=root)
    return json.loads(result.stdout)


def by_file(findings, name):
    return [f for f in findings if f["filename"] == name]


def located(findings) -> set[tuple[str, int, str, str]]:
    """(file name, row, code, status) of each finding."""
    return {(Path(f["filename"]).name, f["location"]["row"], f["code"], f["confirmation"]["status"]) for f in findings}


SHARED_PROJECT = {
    "pyproject.toml": """
        [tool.jitlint.dynamic]
        timeout = 10
        factories = { "models.configurable:Gated" = "models.factories:make_gated" }
    """,
    "models/__init__.py": "",
    "models/factories.py": """
        from models.configurable import Gated

        def make_gated():
            return Gated(flag=False)
    """,
    # Needs arguments: unverified, naming them.
    "models/needs_args.py": HEADER + textwrap.dedent("""
        class Block(nn.Module):
            def __init__(self, in_ch, out_ch):
                super().__init__()
                self.lin = nn.Linear(in_ch, out_ch)

            def forward(self, x):
                return x.numpy()
    """),
    # Built by the configured factory with flag=False: torch prunes the Final branch, so the static error is
    # not reproduced (jitlint cannot know the flag without the factory).
    "models/configurable.py": HEADER + textwrap.dedent("""
        from typing import Final

        class Gated(nn.Module):
            flag: Final[bool]

            def __init__(self, flag):
                super().__init__()
                self.flag = flag

            def forward(self, x):
                if self.flag:
                    return getattr(self, "n" + "orm")(x)
                return x
    """),
    # No static rule sees this type error; torch does: a finding of its own (JIT000), confirmed.
    "models/compiler_only.py": HEADER + textwrap.dedent("""
        class Select(nn.Module):
            def forward(self, x):
                return torch.nn.utils.rnn.pad_sequence([x], "a")  # compiled from torch's source: untyped here
    """),
    # A flow rule's finding (JIT208, line 11) is confirmed only by an error at its own statement: torch's first
    # error is at line 8 of the same function, which no static rule explains (a JIT000 of its own); with line 8 left
    # out, torch's error at line 11 shows.
    "models/flow_elsewhere.py": HEADER + textwrap.dedent("""
        class Two(nn.Module):
            def forward(self, x) -> torch.Tensor:
                y = torch.nn.utils.rnn.pad_sequence([x], "a")
                if x.sum() > 0:
                    return x
                return None
    """),
    # Three errors in one model: torch stops at line 14 in Sub.forward, which the strategy ignores; Net then scripts,
    # and `Sub.extra` and `smooth` (another file), reached only through the ignored forward, were never compiled.
    # Sub needs an argument, so it is no root of its own: only scripting each on its own shows their errors.
    "models/masked.py": HEADER + textwrap.dedent("""
        from models.smoothing import smooth

        class Sub(nn.Module):
            def __init__(self, width):
                super().__init__()
                self.width = width

            def forward(self, x):
                y = x.numpy()
                return self.extra(x) + smooth(x)

            def extra(self, x):
                return x.tolist()

        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.sub = Sub(3)

            def forward(self, x):
                return self.sub(x)
    """),
    "models/smoothing.py": HEADER + textwrap.dedent("""
        def smooth(x):
            return x.numpy()
    """),
    # Torch refuses `forward(self, x, **kwargs)` at its signature and never reads its body; compiled again with
    # `**kwargs` left out of the signature, the body's error at line 7 shows; relaxing `Plain` adds no finding.
    "models/variadic.py": HEADER + textwrap.dedent("""
        class Attn(nn.Module):
            def forward(self, x, **kwargs):
                y = x.tolist()
                return x

        class Plain(nn.Module):
            def forward(self, x, *args):
                return x + 1
    """).lstrip("\n"),
    # Hostile code: each costs only its own file.
    "hostile/exits.py": HEADER + "import sys\nsys.exit(3)\n\nclass A(nn.Module):\n    def forward(self, x):\n        return x.numpy()\n",
    "hostile/crashes.py": HEADER + "import os\nos._exit(7)\n\nclass B(nn.Module):\n    def forward(self, x):\n        return x.numpy()\n",
    "hostile/hangs.py": HEADER + "while True:\n    pass\n\nclass C(nn.Module):\n    def forward(self, x):\n        return x.numpy()\n",
    "hostile/segfaults.py": HEADER + "import ctypes\nctypes.string_at(0)\n\nclass E(nn.Module):\n    def forward(self, x):\n        return x.numpy()\n",
    "hostile/moves.py": HEADER + textwrap.dedent("""
        import os
        import sys
        os.chdir("/")
        for name in [n for n in sys.modules if n.startswith(("json", "torch.jit._recursive"))]:
            del sys.modules[name]

        class F(nn.Module):
            def forward(self, x):
                return x.numpy()
    """),
    "hostile/chatty.py": HEADER + textwrap.dedent("""
        import os
        print("[1, 2, {not json", flush=True)
        os.write(1, b"raw bytes on fd 1\\n" * 200_000)
        os.write(2, b"raw bytes on fd 2\\n" * 200_000)

        class D(nn.Module):
            def __init__(self):
                super().__init__()
                print("building D " * 100)

            def forward(self, x):
                return x.numpy()
    """),
}

# The script confirmer verifies the pages of the script target (and the shared ones); other targets' pages have
# their own capture and confirmer.
SCRIPT_PAGES = [page for page in pages.all_pages() if page.target in ("script", "shared")]


def pages_files() -> dict[str, str]:
    files = {}
    for page in SCRIPT_PAGES:
        if page.torch_verdict in ("rejects", "accepts"):
            files[f"pages/{page.code.lower()}_bad.py"] = page.bad
            files[f"pages/{page.code.lower()}_good.py"] = page.good
    return files
