"""Whether torch's error at a finding's statement is that finding's rule's reason, another rule's, or neither known.

A rule's reasons are the errors its page quotes under "Why TorchScript rejects it" (each ```text block) and the
templates of `error_sites.toml` (torch 2.13's frontend messages, each verified on a case) that name the rule. A
message is another rule's when it is one of another rule's reasons and none of this rule's. A message torch raises
while matching a call against a schema ("Arguments for call are not valid.", "Expected a value of type ...", or the
callee's schema line `f(Tensor x) -> Tensor:` that heads a single schema's reasons) says only that some argument does
not fit: any rule about a type or an argument leads there, so it is no rule's own; nor is a message no page and no
site names. Those two stay evidence by place (torch rejects the statement) and are told apart from the rule's
own reason only in the detail.
"""

from __future__ import annotations

import re
import tomllib
from functools import lru_cache
from pathlib import Path

from jitlint import pages

OWN = "own"  # the rule's own reason
OTHER = "other"  # another rule's reason, none of this rule's
UNKNOWN = "unknown"  # a schema mismatch, or a message no page or site names

_SITES = Path(__file__).with_name("error_sites.toml")
# the first line of a single schema's mismatch: the callee's schema, `name(Type arg, ...) -> Type:` (read from its
# start: a detail may hold it cut short)
_SCHEMA_LINE = re.compile(r"^[\w.:<>]+\((?:\)|[\w.<>\[\], ?]+(?: \w+|\.\.\.))")


def _shape(text: str) -> str:
    """An error message with its variable parts (names, addresses, numbers) blanked, for comparing."""
    text = re.sub(r"__torch__(\.\w+)+", "__torch__.T", text)
    text = re.sub(r"<[^<>]*>", "<>", text)
    text = re.sub(r"'[^']*'", "''", text)
    text = re.sub(r"0x[0-9a-fA-F]+", "0x", text)
    return re.sub(r"\d+", "0", text).strip().rstrip(":").strip()


def _template_pattern(template: str) -> re.Pattern:
    """A site's template (`{placeholder}` for what varies, `{a|b}` for alternatives) as a pattern matching the start of
    torch's message."""
    parts = re.split(r"(\{[^{}]*\})", template.strip())
    pattern = "".join(".*?" if part.startswith("{") and part.endswith("}") else re.escape(part) for part in parts)
    return re.compile(pattern.rstrip(r"\:") if pattern.endswith(r"\:") else pattern, re.DOTALL)


@lru_cache(maxsize=1)
def _sites() -> tuple[tuple[str, "_Site", bool], ...]:
    """(rule, pattern, generic) for each error site of torch's frontend that names a rule, plus the generic ones
    that name none."""
    with _SITES.open("rb") as handle:
        table = tomllib.load(handle)
    found = []
    for site in table.get("site", []):
        generic = site.get("file", "").endswith("schema_matching.cpp")
        rule = site.get("rule", "no")
        if rule == "no" and not generic:
            continue
        if site.get("pattern"):
            pattern = re.compile(site["pattern"])
        elif "{any" in site.get("template", ""):
            continue
        else:
            pattern = _template_pattern(site.get("template", ""))
        found.append((rule, _Site(pattern, site.get("template", "").split("{")[0].strip()), generic))
    return tuple(found)


class _Site:
    """A site's pattern; its message also matches when torch's first line is the start of the template, up to its
    first placeholder ("Arguments for call are not valid." heads "... The following variants are available:", which
    torch puts on the next lines)."""

    def __init__(self, pattern: re.Pattern, head: str) -> None:
        self.pattern, self.head = pattern, head

    def match(self, message: str) -> bool:
        said = message.strip().rstrip(":").strip()
        return bool(self.pattern.match(message)) or (len(said) >= 20 and self.head.startswith(said))


def _page_errors(code: str) -> list[str]:
    """The errors rule `code`'s page quotes under its "Why ..." heading: every ```text block there."""
    text = pages.read(code)
    if not text:
        return []
    heading = re.search(r"^## Why .*$", text, re.MULTILINE)
    if heading is None:
        return []
    end = re.search(r"^## ", text[heading.end():], re.MULTILINE)
    section = text[heading.end(): heading.end() + end.start() if end else len(text)]
    return [block.strip().splitlines()[0] for block in re.findall(r"```text\n(.*?)```", section, re.DOTALL)
            if block.strip()]


@lru_cache(maxsize=None)
def _page_shapes(code: str) -> tuple[str, ...]:
    return tuple(shape for shape in (_shape(error) for error in _page_errors(code)) if shape)


@lru_cache(maxsize=1)
def _codes_with_pages() -> tuple[str, ...]:
    return tuple(page.code for page in pages.all_pages() if page.target == "script")


def _page_says(message: str, code: str) -> bool:
    """Whether the message is one rule `code`'s page quotes (up to names and numbers); a page may quote the part of
    the message after the type torch names first (`object has no attribute or method '__call__'`)."""
    shape = _shape(message)
    return any(shape.startswith(expected[:40]) or (expected[0].islower() and expected[:40] in shape)
               for expected in _page_shapes(code))


def _generic(message: str) -> bool:
    first = message.strip()
    return bool(_SCHEMA_LINE.match(first)) or any(generic and pattern.match(first) for _rule, pattern, generic in
                                                  _sites())


@lru_cache(maxsize=None)
def _own_patterns(code: str) -> tuple["_Site", ...]:
    """The site templates that are rule `code`'s reasons: those naming it, and those its page's quoted errors are
    instances of (a page quotes `undefined value torch`; the site's template is `undefined value {name}`)."""
    quoted = _page_errors(code)
    return tuple(pattern for rule, pattern, generic in _sites()
                 if rule == code or (not generic and any(pattern.match(error) for error in quoted)))


def reason(message: str, code: str) -> tuple[str, tuple[str, ...]]:
    """Whether torch's `message` is rule `code`'s reason (OWN), only other rules' (OTHER, with those rules), or
    neither known (UNKNOWN: a schema mismatch, or a message no page or site names)."""
    first = message.strip().splitlines()[0] if message.strip() else ""
    if _page_says(first, code) or any(pattern.match(first) for pattern in _own_patterns(code)):
        return OWN, ()
    if _generic(first):
        # a rule about a call's arguments (one torch's schema matching reports) owns every schema mismatch
        owns = any(generic and rule == code for rule, _site, generic in _sites())
        return (OWN, ()) if owns else (UNKNOWN, ())
    others = {rule for rule, pattern, _generic_site in _sites() if rule != "no" and pattern.match(first)}
    others |= {other for other in _codes_with_pages() if other != code and _page_says(first, other)}
    others.discard(code)
    return (OTHER, tuple(sorted(others))) if others else (UNKNOWN, ())
