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


def verified_on(kind: str) -> tuple[str, ...]:
    return _load()[kind][1]
