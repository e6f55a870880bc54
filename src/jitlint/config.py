"""`[tool.jitlint]` in the nearest pyproject.toml, merged with the command line; rule selection by prefix."""

from __future__ import annotations

import fnmatch
import tomllib
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Mapping

from jitlint.settings import SettingsError, TargetSettings
from jitlint.targets import DEFAULT_TARGETS, all_targets

# The keys of [tool.jitlint] itself; each target that declares settings adds its table (`[tool.jitlint.<target>]`).
KNOWN_KEYS = frozenset(
    {"target", "select", "ignore", "extend-select", "per-file-ignores", "exclude", "extend-exclude", "dynamic",
     "baseline", "max-file-size", "lint-generated", "respect-gitignore", "module-bases"}
)
DYNAMIC_KEYS = frozenset({"enabled", "timeout", "factories", "python", "inputs"})

# Directories never worth linting (ruff's defaults, plus our cache).
DEFAULT_EXCLUDE = (
    ".bzr", ".direnv", ".eggs", ".git", ".git-rewrite", ".hg", ".ipynb_checkpoints", ".mypy_cache", ".nox",
    ".pants.d", ".pyenv", ".pytest_cache", ".pytype", ".ruff_cache", ".svn", ".tox", ".venv", ".vscode",
    "__pypackages__", "__pycache__", "_build", "buck-out", "build", "dist", "node_modules", "site-packages",
    "venv", ".jitlint_cache",
)


class ConfigError(Exception):
    """A configuration or usage problem: reported as one line, exit code 2."""


@dataclass
class Config:
    targets: list[str] = field(default_factory=lambda: list(DEFAULT_TARGETS))
    # None: the default selection, every rule of the enabled targets except those off by default (JIT900).
    select: list[str] | None = None
    extend_select: list[str] = field(default_factory=list)
    ignore: list[str] = field(default_factory=list)
    per_file_ignores: dict[str, list[str]] = field(default_factory=dict)
    exclude: list[str] = field(default_factory=list)
    root: Path = field(default_factory=Path.cwd)
    source: Path | None = None  # the pyproject.toml it came from
    dynamic_enabled: bool = False
    dynamic_timeout: float = 60.0
    dynamic_factories: dict[str, str] = field(default_factory=dict)
    dynamic_python: str | None = None
    # `[tool.jitlint.dynamic] inputs`: "pkg.mod:Class" -> "pkg.examples:make_inputs" (export needs example inputs).
    dynamic_inputs: dict[str, str] = field(default_factory=dict)
    baseline: Path | None = None  # `baseline = "..."`, relative to the pyproject.toml
    ignore_noqa: bool = False  # `--ignore-noqa` (command line only): no `# noqa` suppresses anything
    # Each target's `[tool.jitlint.<target>]`, by target name (see `settings`).
    target_settings: dict[str, TargetSettings] = field(default_factory=dict)
    max_file_size: int | None = None  # `max-file-size` in bytes (None: the default of jitlint.source); larger: JIT004
    lint_generated: bool = False  # `lint-generated`: lint files that declare themselves generated (else JIT005)
    respect_gitignore: bool = True  # `respect-gitignore`: discovery skips what `.gitignore` files ignore
    # `module-bases`: qualified names of classes outside the linted files taken for `torch.nn.Module` subclasses
    module_bases: frozenset[str] = frozenset()

    def limits(self):
        """What a run skips instead of linting (`jitlint.source.Limits`)."""
        from jitlint.limits import DEFAULT_MAX_FILE_BYTES, Limits

        return Limits(self.max_file_size if self.max_file_size is not None else DEFAULT_MAX_FILE_BYTES,
                      self.lint_generated)

    def settings(self, target: str) -> TargetSettings:
        """The typed settings of a target: its table as configured, or its defaults."""
        found = self.target_settings.get(target)
        return found if found is not None else all_targets()[target].settings_class()()

    # -- selection --------------------------------------------------------------------------------------------
    def enabled_codes(self, code_targets: Mapping[str, str | None], cli_select=None, cli_extend=(), cli_ignore=(),
                      cli_targets=None, default_off=None) -> set[str]:
        """The codes to run: those of the enabled targets (and the shared file codes) that the selection picks.
        `code_targets` maps every known code to its target (None for the shared ones). Selecting a code that only
        a target not enabled has is an error, never a silent no-op; ignoring one is allowed (a configuration may
        be shared by runs with different targets)."""
        targets = list(cli_targets) if cli_targets else list(self.targets)
        validate_targets(targets, {target for target in code_targets.values() if target is not None})
        codes = list(code_targets)
        active = [code for code in codes if code_targets[code] is None or code_targets[code] in targets]
        if default_off is None:
            from jitlint.codes import DEFAULT_OFF as default_off
        chosen = list(cli_select) if cli_select else (list(self.select) if self.select is not None else None)
        # What a selector names explicitly (not the default selection): the only way to enable a default-off code.
        explicit = (chosen or []) + list(self.extend_select) + list(cli_extend)
        select = (chosen if chosen is not None else ["ALL"]) + list(self.extend_select) + list(cli_extend)
        ignore = list(self.ignore) + list(cli_ignore)
        for selector in select + ignore:
            validate_selector(selector, codes)
        for selector in select:
            if selector != "ALL" and not any(code.startswith(selector) for code in active):
                owners = sorted({code_targets[code] for code in codes if code.startswith(selector)} - {None})
                raise ConfigError(
                    f"`{selector}` selects rules of the target{'s' if len(owners) > 1 else ''} "
                    f"{', '.join(f'`{owner}`' for owner in owners)}, which {'are' if len(owners) > 1 else 'is'} "
                    f"not enabled (enabled: {', '.join(targets)}; add it with `--target` or `target = [...]`)"
                )
        for pattern, selectors in self.per_file_ignores.items():
            for selector in selectors:
                # Matched as prefixes of the codes found (no `ALL`), so one that starts no code would ignore nothing.
                if not any(code.startswith(selector) for code in codes):
                    raise ConfigError(f"unknown rule selector in `per-file-ignores` for `{pattern}`: `{selector}`")
        enabled = set()
        for code in active:
            positive = _best_match(code, explicit if code in default_off else select)
            negative = _best_match(code, ignore)
            if positive > negative:
                enabled.add(code)
        return enabled

    def ignored_for(self, path: Path) -> list[str]:
        relative = _relative(path, self.root)
        ignored: list[str] = []
        for pattern, codes in self.per_file_ignores.items():
            if _matches(relative, pattern):
                ignored.extend(codes)
        return ignored

    def is_excluded(self, path: Path) -> bool:
        relative = _relative(path, self.root)
        return any(_matches(relative, pattern) for pattern in self.exclude)


def validate_targets(targets: list[str], known: set[str]) -> None:
    if not targets:
        raise ConfigError("no target enabled: `target` needs at least one of " + ", ".join(sorted(known)))
    for target in targets:
        if target not in known:
            raise ConfigError(f"unknown target: `{target}` (known: {', '.join(sorted(known))})")


def validate_selector(selector: str, codes: list[str]) -> None:
    if selector == "ALL":
        return
    if not any(code.startswith(selector) for code in codes):
        raise ConfigError(f"unknown rule selector: `{selector}`")


def _best_match(code: str, selectors: list[str]) -> int:
    best = -1
    for selector in selectors:
        if selector == "ALL":
            best = max(best, 0)
        elif code.startswith(selector):
            best = max(best, len(selector))
    return best


def _relative(path: Path, root: Path) -> PurePosixPath:
    from jitlint.paths import resolved

    try:
        return PurePosixPath(resolved(path).relative_to(resolved(root)).as_posix())
    except ValueError:
        return PurePosixPath(resolved(path).as_posix())


def _matches(relative: PurePosixPath, pattern: str) -> bool:
    """A glob against the path relative to the project root, or against any one of its components
    (`build` excludes every directory named build; `tests/*.py` a path)."""
    pattern = pattern.rstrip("/")
    text = relative.as_posix()
    if fnmatch.fnmatchcase(text, pattern) or fnmatch.fnmatchcase(text, pattern + "/*"):
        return True
    if "/" not in pattern:
        return any(fnmatch.fnmatchcase(part, pattern) for part in relative.parts)
    return text.startswith(pattern + "/")


def find_pyproject(start: Path) -> Path | None:
    """The nearest pyproject.toml with a [tool.jitlint] table, from `start` upwards."""
    directory = start.resolve()
    for candidate_dir in (directory, *directory.parents):
        candidate = candidate_dir / "pyproject.toml"
        if candidate.is_file():
            try:
                data = tomllib.loads(candidate.read_text(encoding="utf-8"))
            except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
                raise ConfigError(f"{candidate}: cannot read configuration: {error}") from None
            if "jitlint" in data.get("tool", {}):
                return candidate
    return None


def load_config(path: Path | None, start: Path | None = None) -> Config:
    """Load `[tool.jitlint]` from `path`, or from the nearest pyproject.toml above `start` (default: cwd)."""
    if path is None:
        path = find_pyproject(start or Path.cwd())
        if path is None:
            return Config()
    try:
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ConfigError(f"{path}: configuration file not found") from None
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
        raise ConfigError(f"{path}: cannot read configuration: {error}") from None
    table = data.get("tool", {}).get("jitlint", {})
    settled = {name: target for name, target in all_targets().items() if target.settings}
    _check_table(table, "tool.jitlint", KNOWN_KEYS | set(settled), path)
    config = Config(root=Path(path).resolve().parent, source=Path(path))
    for key in ("target", "select", "ignore", "extend-select", "exclude", "extend-exclude", "module-bases"):
        if key in table:
            value = table[key]
            if not (isinstance(value, list) and all(isinstance(item, str) for item in value)):
                raise ConfigError(f"{path}: `{key}` in [tool.jitlint] must be a list of strings")
    if "target" in table:
        config.targets = table["target"]
    if "select" in table:
        config.select = table["select"]
    config.ignore = table.get("ignore", [])
    config.extend_select = table.get("extend-select", [])
    config.exclude = table.get("exclude", []) + table.get("extend-exclude", [])
    bases = table.get("module-bases", [])
    if any(not all(part.isidentifier() for part in name.split(".")) for name in bases):
        raise ConfigError(f"{path}: `module-bases` in [tool.jitlint] must be a list of qualified class names")
    config.module_bases = frozenset(bases)
    per_file = table.get("per-file-ignores", {})
    if not isinstance(per_file, dict) or not all(
        isinstance(codes, list) and all(isinstance(code, str) for code in codes) for codes in per_file.values()
    ):
        raise ConfigError(f"{path}: `per-file-ignores` must map glob patterns to lists of codes")
    config.per_file_ignores = per_file
    if "baseline" in table:
        if not isinstance(table["baseline"], str) or not table["baseline"]:
            raise ConfigError(f"{path}: `baseline` in [tool.jitlint] must be the path of a baseline file")
        config.baseline = config.root / table["baseline"]
    if "max-file-size" in table:
        size = table["max-file-size"]
        if isinstance(size, bool) or not isinstance(size, int) or size <= 0:
            raise ConfigError(f"{path}: `max-file-size` in [tool.jitlint] must be a positive number of bytes")
        config.max_file_size = size
    if "lint-generated" in table:
        if not isinstance(table["lint-generated"], bool):
            raise ConfigError(f"{path}: `lint-generated` in [tool.jitlint] must be true or false")
        config.lint_generated = table["lint-generated"]
    if "respect-gitignore" in table:
        if not isinstance(table["respect-gitignore"], bool):
            raise ConfigError(f"{path}: `respect-gitignore` in [tool.jitlint] must be true or false")
        config.respect_gitignore = table["respect-gitignore"]
    _load_dynamic(config, table.get("dynamic", {}), path)
    for name, target in settled.items():
        if name in table:
            config.target_settings[name] = _load_settings(target.settings_class(), table[name], f"tool.jitlint.{name}",
                                                          path)
    return config


def _check_table(table, name: str, keys: frozenset[str], path) -> None:
    """`[name]` is a table whose keys are all among `keys`, or a one-line ConfigError says what is wrong."""
    if not isinstance(table, dict):
        raise ConfigError(f"{path}: [{name}] must be a table")
    unknown = sorted(set(table) - keys)
    if unknown:
        raise ConfigError(f"{path}: unknown key in [{name}]: `{unknown[0]}`")


def _load_settings(cls: type[TargetSettings], table, name: str, path) -> TargetSettings:
    """A target's table, read into its settings class (`TargetSettings.from_table`), or a one-line ConfigError."""
    if not isinstance(table, dict):
        raise ConfigError(f"{path}: [{name}] must be a table")
    try:
        return cls.from_table(table)
    except SettingsError as error:
        if error.expect is None:
            raise ConfigError(f"{path}: unknown key in [{name}]: `{error.key}`") from None
        raise ConfigError(f"{path}: `{error.key}` in [{name}] must be {error.expect}") from None


def _load_dynamic(config: Config, table, path) -> None:
    """`[tool.jitlint.dynamic]`: enabled, timeout, factories ("pkg.mod:Class" = "pkg.factories:make"), python."""
    _check_table(table, "tool.jitlint.dynamic", DYNAMIC_KEYS, path)
    if not isinstance(table.get("enabled", False), bool):
        raise ConfigError(f"{path}: `enabled` in [tool.jitlint.dynamic] must be true or false")
    timeout = table.get("timeout", 60.0)
    if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or timeout <= 0:
        raise ConfigError(f"{path}: `timeout` in [tool.jitlint.dynamic] must be a positive number of seconds")
    factories = table.get("factories", {})
    if not isinstance(factories, dict) or not all(
        isinstance(k, str) and ":" in k and isinstance(v, str) and ":" in v for k, v in factories.items()
    ):
        raise ConfigError(f'{path}: `factories` in [tool.jitlint.dynamic] maps "module:Class" to "module:function"')
    inputs = table.get("inputs", {})
    if not isinstance(inputs, dict) or not all(
        isinstance(k, str) and ":" in k and isinstance(v, str) and ":" in v for k, v in inputs.items()
    ):
        raise ConfigError(f'{path}: `inputs` in [tool.jitlint.dynamic] maps "module:Class" to "module:function"')
    python = table.get("python")
    if python is not None and not isinstance(python, str):
        raise ConfigError(f"{path}: `python` in [tool.jitlint.dynamic] must be a path to an interpreter")
    config.dynamic_enabled = table.get("enabled", False)
    config.dynamic_timeout = float(timeout)
    config.dynamic_factories = factories
    config.dynamic_python = python
    config.dynamic_inputs = inputs


def is_default_excluded(name: str) -> bool:
    return name in DEFAULT_EXCLUDE or name.endswith(".egg-info")
