"""The editor server's lint path, in process (tests/test_integrations.py drives the real server over JSON-RPC)."""

import sys
import threading

from jitlint import server

# Many `not`, `is` and `in` operators: the rules and the compiled-code map ask `isinstance(x, cst.Not)` and the
# like all through the lint, and the file is long enough that parsing it takes a while.
BODY = "".join(f"        if not (x is None) and {i} not in y:\n            x = x + {i}\n" for i in range(150))
MODEL = ("import torch\nimport torch.nn as nn\n\n\nclass M(nn.Module):\n    def forward(self, x, y):\n"
         f"{BODY}        return x\n")


def test_documents_linted_at_once_do_not_see_each_others_parse(tmp_path):
    """A debounced change lints on the event loop while a save lints on a pool thread: a parse swaps LibCST's
    node classes for factories (layout.py), which a lint running beside it must never see."""
    problems: list = []

    def edit(name: str) -> None:
        try:
            for _ in range(3):
                found = server._findings(tmp_path / name, MODEL, False)
                problems.extend(f"{f.code}: {f.message}" for f in found if f.code == "JIT003")
        except Exception as error:  # the compiled-code map is not behind a rule's guard: it raises
            problems.append(repr(error))

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)  # switch threads often, so the two lints interleave on every run
    try:
        threads = [threading.Thread(target=edit, args=(name,)) for name in ("a.py", "b.py")]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        sys.setswitchinterval(interval)
    assert problems == []
