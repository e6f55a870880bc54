"""Scaffold a new rule: a class skeleton in its target's family module and a page skeleton (ruff's add_rule.py).

    python scripts/add_rule.py JIT709 loop-index-shadowing --family flow
    python scripts/add_rule.py JIT416 no-foo-call --family calls --severity warning --fix safe

The code's prefix names the target (JIT -> script). The class goes at the end of
`src/jitlint/targets/<target>/rules/<family>.py` (created if new), with its message, and with `--fix` its fix: a
function next to it in the same module that builds the `PendingFix` (shared rewriting helpers come from the
target's `rewrite` module; the analyses it reads are facts it declares in `facts = (...)` and reads with
`ctx.fact`). The page is `rules/<target>/<CODE>.md`, with the headings every page has and empty examples to fill
in. Then the generated tables are refreshed (`scripts/generate.py`). The new rule's tests fail until its page's
examples are written and torch agrees with them: that is the point.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from jitlint.targets import all_targets  # noqa: E402

CLASS = '''

class {cls}({base}):
    code = "{code}"
    name = "{name}"
    severity = "{severity}"
    summary = "TODO: what it flags, in one line (the README's rule table)"
    message = "TODO: what is wrong here, and what to write instead"
    # facts = (...)  # the analyses it reads with `ctx.fact(...)` (jitlint.facts, or the target's own)

    def visit_Call(self, node: cst.Call, ctx: RuleContext) -> None:
        """TODO: the node types to look at; `ctx.report(node)` once per problem."""
'''

CLASS_WITH_FIX = '''

class {cls}({base}):
    code = "{code}"
    name = "{name}"
    severity = "{severity}"
    fix = "{fix}"
    summary = "TODO: what it flags, in one line (the README's rule table)"
    message = "TODO: what is wrong here, and what to write instead"
    # facts = (...)  # the analyses it reads with `ctx.fact(...)` (jitlint.facts, or the target's own)

    def visit_Call(self, node: cst.Call, ctx: RuleContext) -> None:
        """TODO: the node types to look at; `ctx.report(node, fix=...)` once per problem."""
        ctx.report(node, fix={fixer}(node, ctx))


def {fixer}(node: cst.Call, ctx: RuleContext) -> PendingFix | None:
    """TODO: the rewrite, and why it keeps what the code does (None where that is not certain)."""
    return PendingFix("TODO: what the fix does", [PendingEdit(node, ctx.code(node))])
'''

MODULE = '''"""TODO: what this family of rules checks."""

from __future__ import annotations

import libcst as cst

from jitlint.rules.base import PendingEdit, PendingFix, RuleContext
from {base_module} import {base}
'''

PAGE = """# {code} `{name}`

- **Severity**: `{severity}`
- **Torch 2.13**: rejects

## What it does
TODO: what it flags, and the look-alikes it leaves alone.

## Why TorchScript rejects it
```text
TODO: the first line of torch's error for the example
```

## Example
```python
import torch
import torch.nn as nn


class Example(nn.Module):
    def forward(self, x):
        return x  # error: {code}
```

## Use instead
```python
import torch
import torch.nn as nn


class Example(nn.Module):
    def forward(self, x):
        return x
```

## Fix safety
{fix_safety}
"""


def class_name(name: str) -> str:
    return "".join(part.capitalize() for part in name.split("-"))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("code", help="the new code, e.g. JIT709")
    parser.add_argument("name", help="kebab-case name, e.g. loop-index-shadowing")
    parser.add_argument("--family", required=True, help="the module in the target's rules package, e.g. flow")
    parser.add_argument("--severity", default="error", choices=["error", "warning", "info"])
    parser.add_argument("--fix", choices=["safe", "unsafe"], help="the rule offers a fix, applied by --fix (safe) "
                        "or with --unsafe-fixes too (unsafe)")
    args = parser.parse_args()
    if not re.fullmatch(r"[A-Z]+[0-9]{3}", args.code):
        parser.error(f"a code is a prefix and three digits, not {args.code!r}")
    if not re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", args.name):
        parser.error(f"a name is kebab-case, not {args.name!r}")
    if not re.fullmatch(r"[a-z_]+", args.family):
        parser.error(f"a family is a module name, not {args.family!r}")
    target = next((t for t in all_targets().values() if re.fullmatch(rf"{t.prefix}[0-9]{{3}}", args.code)), None)
    if target is None:
        parser.error(f"no target has the prefix of {args.code}")
    from jitlint.rules import RULES_BY_CODE, RULES_BY_NAME

    if args.code in RULES_BY_CODE or args.name in RULES_BY_NAME:
        parser.error(f"{args.code} or {args.name} exists already")
    package = ROOT / "src" / "jitlint" / "targets" / target.name / "rules"
    module = package / f"{args.family}.py"
    base = f"{target.name.capitalize()}Rule"
    base_module = f"jitlint.targets.{target.name}.rules"
    if not module.exists():
        module.write_text(MODULE.format(base=base, base_module=base_module), encoding="utf-8")
    text = module.read_text(encoding="utf-8").rstrip("\n") + "\n"
    if "PendingFix" not in text.split("\nclass ", 1)[0] and args.fix:
        text = text.replace("from jitlint.rules.base import RuleContext",
                            "from jitlint.rules.base import PendingEdit, PendingFix, RuleContext", 1)
    template = CLASS_WITH_FIX if args.fix else CLASS
    module.write_text(text + template.format(cls=class_name(args.name), base=base, code=args.code, name=args.name,
                                             severity=args.severity, fix=args.fix,
                                             fixer=args.name.replace("-", "_") + "_fix"), encoding="utf-8")
    page = ROOT / "rules" / target.name / f"{args.code}.md"
    page.parent.mkdir(parents=True, exist_ok=True)
    safety = (f"TODO: when the fix applies, and why it is {args.fix}." if args.fix else "No automatic fix.")
    page.write_text(PAGE.format(code=args.code, name=args.name, severity=args.severity, fix_safety=safety),
                    encoding="utf-8")
    print(f"wrote {module.relative_to(ROOT)} (class {class_name(args.name)})")
    print(f"wrote {page.relative_to(ROOT)}")
    return subprocess.call([sys.executable, str(ROOT / "scripts" / "generate.py")])


if __name__ == "__main__":
    raise SystemExit(main())
