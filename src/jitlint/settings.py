"""A target's typed settings: the `[tool.jitlint.<target>]` table of pyproject.toml, as a frozen dataclass.

A target declares its settings class (`Target(settings="jitlint.targets.export.settings:ExportSettings")`), a
subclass of `TargetSettings` whose fields are the table's keys (field `leaf_modules` <-> key `leaf-modules`).
`jitlint.config` loads and checks the table generically from the field annotations; the run's cache key holds
every enabled target's settings (`key()`); rules read their target's instance as `ctx.settings`, capture policies
as `self.settings`. This module imports no LibCST and no target.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from dataclasses import dataclass
from typing import Any


class SettingsError(ValueError):
    """A key of a settings table is unknown (`expect` None), or its value is not what `expect` says."""

    def __init__(self, key: str, expect: str | None = None) -> None:
        super().__init__(f"unknown key: `{key}`" if expect is None else f"`{key}` must be {expect}")
        self.key = key
        self.expect = expect


@dataclass(frozen=True)
class TargetSettings:
    """The base of each target's settings (a target that declares none has this empty one). A field may be typed
    `X | None` (default None): the key is then optional, and when present holds an X."""

    @classmethod
    def keys(cls) -> dict[str, dataclasses.Field]:
        """The TOML keys of the table, each with its field."""
        return {field.name.replace("_", "-"): field for field in dataclasses.fields(cls)}

    @classmethod
    def from_table(cls, table: dict[str, Any]) -> "TargetSettings":
        """The settings a TOML table gives (keys absent keep their defaults); SettingsError names what is wrong.
        A field may say what its values are (`metadata={"expect": "a list of qualified names"}`) and refuse empty
        strings in a list (`metadata={"nonempty": True}`)."""
        keys = cls.keys()
        unknown = sorted(set(table) - set(keys))
        if unknown:
            raise SettingsError(unknown[0])
        hints = typing.get_type_hints(cls)
        values = {}
        for key, value in table.items():
            field = keys[key]
            values[field.name] = _convert(key, value, hints[field.name], field.metadata)
        return cls(**values)

    def key(self) -> dict[str, Any]:
        """The settings as plain JSON values, sets sorted: what the cache key holds."""
        return {field.name: _plain(getattr(self, field.name)) for field in dataclasses.fields(self)}


def _plain(value: Any) -> Any:
    if isinstance(value, (set, frozenset)):
        return sorted(value)
    if isinstance(value, tuple):
        return list(value)
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in sorted(value.items())}
    return value


_WORDS = {bool: "true or false", int: "an integer", float: "a number", str: "a string"}


def _convert(key: str, value: Any, annotation: Any, metadata) -> Any:
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    expect = metadata.get("expect")
    if origin in (typing.Union, types.UnionType) and len(args) == 2 and type(None) in args:
        # `X | None`: TOML has no null, so the key is absent for None and holds an X otherwise.
        inner = args[0] if args[1] is type(None) else args[1]
        return _convert(key, value, inner, metadata)
    if annotation in _WORDS:
        ok = (isinstance(value, bool) if annotation is bool else not isinstance(value, bool) and (
            isinstance(value, (int, float)) if annotation is float else isinstance(value, annotation)))
        if not ok:
            raise SettingsError(key, expect or _WORDS[annotation])
        return float(value) if annotation is float else value
    if origin in (list, tuple, frozenset, set) and (args[:1] == (str,)):
        if not (isinstance(value, list) and all(isinstance(item, str) and (item or not metadata.get("nonempty"))
                                                for item in value)):
            raise SettingsError(key, expect or "a list of strings")
        return origin(value)
    if origin is dict and args == (str, str):
        if not (isinstance(value, dict) and all(isinstance(k, str) and isinstance(v, str) for k, v in value.items())):
            raise SettingsError(key, expect or "a table of strings")
        return dict(value)
    raise TypeError(f"a settings field of type {annotation!r} cannot be read from TOML")
