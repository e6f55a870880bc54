"""The rule pages in `rules/<target>/` (`rules/shared/` for the file codes every target reports): each rule's
documentation and executable specification.

Installed from a wheel they live in `jitlint/_pages/<target>/`; in a source checkout (editable install) in `rules/`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path


@lru_cache(maxsize=1)
def pages_dir() -> Path:
    installed = Path(__file__).parent / "_pages"
    if installed.is_dir():
        return installed
    return Path(__file__).resolve().parents[2] / "rules"


def missing() -> str | None:
    """What is wrong, in one line, when the rule pages are not where this jitlint reads them (a copy of `src/`
    without `rules/`); None when they are. Every finding names its rule's page, so a run needs them."""
    if pages_dir().is_dir():
        return None
    return (f"the rule pages are missing: no directory {pages_dir()} (a source checkout needs `rules/` beside "
            f"`src/`; an installed jitlint, `jitlint/_pages/`)")


@lru_cache(maxsize=None)
def page_path(code: str) -> Path:
    """The page of a rule, found among the targets' folders (no rule table needed: a cached run has none). Without
    the pages' directory (`missing`), where the page would be."""
    if not pages_dir().is_dir():
        return pages_dir() / f"{code}.md"
    for folder in sorted(path for path in pages_dir().iterdir() if path.is_dir()):
        candidate = folder / f"{code}.md"
        if candidate.is_file():
            return candidate
    return pages_dir() / f"{code}.md"  # no page: where it would be, for the message that says so


def url(code: str) -> str:
    return page_path(code).resolve().as_uri()


def read(code: str) -> str | None:
    try:
        return page_path(code).read_text(encoding="utf-8")
    except OSError:
        return None


@dataclass
class Page:
    code: str
    name: str
    severity: str
    torch_verdict: str  # "rejects", "accepts", or "n/a" for what the engine itself reports
    bad: str
    good: str
    text: str
    torch_error: str = ""  # the first line of the error text the page quotes
    target: str = ""  # the folder it lives in: a target's name, or "shared"


_TITLE = re.compile(r"^# (?P<code>[A-Z]+\d{3}) `(?P<name>[a-z0-9-]+)`", re.MULTILINE)
_FIELD = re.compile(r"^- \*\*(?P<key>[A-Za-z0-9. ]+)\*\*: (?P<value>.+)$", re.MULTILINE)


def _code_block_after(text: str, heading: str) -> str:
    start = text.find(f"\n## {heading}\n")
    if start < 0:
        return ""
    match = re.search(r"```python\n(.*?)```", text[start:], re.DOTALL)
    return match.group(1) if match else ""


def parse(text: str, target: str = "") -> Page:
    title = _TITLE.search(text)
    if title is None:
        raise ValueError("a rule page starts with '# CODE `rule-name`' (CODE: a prefix and three digits)")
    fields = {m.group("key").lower(): m.group("value").strip() for m in _FIELD.finditer(text)}
    verdict_text = fields.get("torch 2.13", "")
    verdict = next((v for v in ("rejects", "accepts", "n/a") if verdict_text.startswith(v)), "")
    return Page(
        title.group("code"),
        title.group("name"),
        fields.get("severity", "").strip("`"),
        verdict,
        _code_block_after(text, "Example"),
        _code_block_after(text, "Use instead"),
        text,
        _torch_error(text),
        target,
    )


def _torch_error(text: str) -> str:
    # The first ```text block under the "## Why <the capture> rejects it" heading (TorchScript, torch.fx, ...).
    heading = re.search(r"^## Why .*$", text, re.MULTILINE)
    start = heading.start() if heading else -1
    match = re.search(r"```text\n(.*?)\n", text[start:], re.DOTALL) if start >= 0 else None
    return match.group(1).strip() if match else ""


@lru_cache(maxsize=None)
def torch_error(code: str) -> str:
    page = read(code)
    return _torch_error(page) if page else ""


_RULE_PAGE = re.compile(r"[A-Z]+\d{3}")


def all_pages() -> list[Page]:
    """The rule pages: `rules/<target>/<CODE>.md`. Other pages in those folders (a target's generated tables, such as
    `rules/script/error-sites.md`) are not rule pages."""
    paths = sorted((path for path in pages_dir().glob("*/*.md") if _RULE_PAGE.fullmatch(path.stem)),
                   key=lambda path: path.name)
    return [parse(path.read_text(encoding="utf-8"), path.parent.name) for path in paths]
