"""The table of Python and torch APIs torch.jit.script rejects (`data/unsupported.toml`), by kind."""

from __future__ import annotations

import tomllib
from functools import lru_cache
from pathlib import Path

_TABLE = Path(__file__).parent / "data" / "unsupported.toml"


@lru_cache(maxsize=1)
def _load() -> dict[str, tuple[frozenset[str], tuple[str, ...]]]:
    with _TABLE.open("rb") as handle:
        entries = tomllib.load(handle)["api"]
    return {entry["kind"]: (frozenset(entry["names"]), tuple(entry["verified"])) for entry in entries}


def unsupported(kind: str) -> frozenset[str]:
    return _load()[kind][0]


def listed(kind: str, qualified: str) -> str | None:
    """The entry of the `kind` table a qualified name falls under (a name, or a prefix ending in `.`), if any."""
    return next((name for name in unsupported(kind)
                 if qualified == name or (name.endswith(".") and qualified.startswith(name))), None)


def verified_on(kind: str) -> tuple[str, ...]:
    return _load()[kind][1]
