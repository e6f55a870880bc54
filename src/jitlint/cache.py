"""The static findings cache in `.jitlint_cache/` (ruff-style): a re-run over unchanged files reads its findings from
disk and never imports LibCST.

What a file's findings depend on
    jitlint's analysis crosses files: a helper is compiled because a `forward` in another linted file calls it, a
    container's kind comes from a base class in a third. So a file's entry is keyed by jitlint's build, the effective
    configuration and enabled rules, the file's own content, the content of every file linted with it (the *run
    fingerprint*), and the content of the modules the run read on demand outside the linted files (stored in the
    entry and re-hashed when it is read). Change any of them and the entry no longer matches.

    Because the run fingerprint covers every linted file, editing one file re-lints the whole run: one miss means a
    full run (which also refreshes every entry), since re-linting only the changed file would see a different project
    and could give different findings. Pre-commit passes only the changed files, so there the run is those files.

Robustness
    Entries are written to a temporary file and renamed into place, so two runs sharing the cache never see half an
    entry; an entry that does not parse or has the wrong shape counts as a miss. A cache that cannot be written
    (read-only checkout) is skipped silently: caching is an optimisation, never a failure.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
from pathlib import Path

from jitlint import __version__
from jitlint.atomic import write_atomically
from jitlint.config import Config
from jitlint.finding import Edit, Finding, FindingContext, Fix, Location

FORMAT = 2  # 2: contexts carry `scope` and `statement_text` (what a baseline matches on)
_PACKAGE = Path(__file__).resolve().parent


def _digest(*parts: str) -> str:
    hasher = hashlib.blake2b(digest_size=20)
    for part in parts:
        hasher.update(part.encode("utf-8", "surrogatepass"))
        hasher.update(b"\0")
    return hasher.hexdigest()


def content_hash(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=20).hexdigest()


def _build_id() -> str:
    """jitlint's version plus the size and mtime of its own files, so an edited (editable) install never reads
    entries written by different code."""
    parts = [__version__]
    for directory, dirnames, filenames in os.walk(_PACKAGE):
        dirnames[:] = sorted(name for name in dirnames if name != "__pycache__")
        for name in sorted(filenames):
            if name.endswith((".py", ".toml", ".md")):
                status = os.stat(os.path.join(directory, name))
                parts.append(f"{name}:{status.st_size}:{status.st_mtime_ns}")
    return _digest(*parts)


def settings_key(config: Config, enabled: set[str]) -> str:
    settings = {
        "format": FORMAT,
        "build": _build_id(),
        "enabled": sorted(enabled),
        "per_file_ignores": {pattern: sorted(codes) for pattern, codes in sorted(config.per_file_ignores.items())},
        "root": str(config.root),
        "ignore_noqa": config.ignore_noqa,
        "fx": [sorted(config.fx_leaf_modules), sorted(config.fx_autowrap_functions), config.fx_library_leaves],
    }
    return _digest(json.dumps(settings, sort_keys=True))


class StaticCache:
    """One JSON entry per linted file under `<directory>/static/`."""

    def __init__(self, directory: Path, config: Config, enabled: set[str]) -> None:
        self.directory = directory
        self.entries = directory / "static"
        self.settings = settings_key(config, enabled)
        self._hashes: dict[str, str | None] = {}

    # -- hashing ------------------------------------------------------------------------------------------------
    def file_hash(self, path: Path) -> str | None:
        """The content hash of a file (None if it cannot be read), computed once per run."""
        key = str(path)
        if key not in self._hashes:
            digest = None
            try:
                # Only regular files: reading a named pipe would block, a device would never end.
                if stat.S_ISREG(path.stat().st_mode):
                    digest = content_hash(path.read_bytes())
            except OSError:
                pass
            self._hashes[key] = digest
        return self._hashes[key]

    def fingerprint(self, files: list[Path]) -> str:
        return _digest(*(f"{path}\0{self.file_hash(path)}" for path in files))

    def _entry_path(self, path: Path) -> Path:
        return self.entries / f"{_digest(self.settings, str(path))}.json"

    def _entry_key(self, path: Path, fingerprint: str) -> str:
        return _digest(self.settings, str(path), str(self.file_hash(path)), fingerprint)

    # -- reading ------------------------------------------------------------------------------------------------
    def load(self, files: list[Path]) -> list[Finding] | None:
        """Every file's cached findings, or None if any file misses (then the caller lints the whole run)."""
        if not files:
            return None
        fingerprint = self.fingerprint(files)
        findings: list[Finding] = []
        for path in files:
            if self.file_hash(path) is None:
                return None
            try:
                entry = json.loads(self._entry_path(path).read_text(encoding="utf-8"))
                if entry["key"] != self._entry_key(path, fingerprint):
                    return None
                for dependency, digest in entry["dependencies"]:
                    if self.file_hash(Path(dependency)) != digest:
                        return None
                findings.extend(_finding_from_json(item, path) for item in entry["findings"])
            except (OSError, ValueError, KeyError, TypeError, AttributeError):
                return None  # missing, unreadable, corrupt or from another format: a miss, never an error
        return findings

    # -- writing ------------------------------------------------------------------------------------------------
    def store(self, files: list[Path], display_names: dict[Path, str], findings: list[Finding],
              dependencies: list[Path]) -> None:
        fingerprint = self.fingerprint(files)
        by_file: dict[str, list[dict]] = {display_names[path]: [] for path in files}
        for finding in findings:
            if finding.filename in by_file:
                by_file[finding.filename].append(_finding_to_json(finding))
        depends = [[str(path), self.file_hash(path)] for path in dependencies]
        try:
            self.entries.mkdir(parents=True, exist_ok=True)
            _mark_cache_directory(self.directory)
            for path in files:
                entry = {"key": self._entry_key(path, fingerprint), "file": str(path), "dependencies": depends,
                         "findings": by_file[display_names[path]]}
                write_atomically(self._entry_path(path), json.dumps(entry, separators=(",", ":")))
        except OSError:
            pass  # a read-only or full disk: the run's results are still right, just not cached


def _mark_cache_directory(directory: Path) -> None:
    """What ruff does: keep the cache out of git and out of backups."""
    for name, text in ((".gitignore", "# Automatically created by jitlint.\n*\n"),
                       ("CACHEDIR.TAG", "Signature: 8a477f597d28d172789f06886806bc55\n"
                                        "# This file is a cache directory tag created by jitlint.\n")):
        marker = directory / name
        if not marker.exists():
            write_atomically(marker, text)


def _location(data: dict) -> Location:
    return Location(int(data["row"]), int(data["column"]))


def _finding_to_json(finding: Finding) -> dict:
    data = finding.to_json()
    context = finding.context
    if isinstance(context, FindingContext):
        data["context"] = {"statement_lines": list(context.statement_lines), "line_text": context.line_text,
                           "scope": context.scope, "statement_text": context.statement_text}
    return data


def _finding_from_json(data: dict, path: Path) -> Finding:
    fix = None
    if data.get("fix"):
        raw = data["fix"]
        edits = tuple(Edit(edit["content"], _location(edit["location"]), _location(edit["end_location"]))
                      for edit in raw["edits"])
        fix = Fix(raw["applicability"], raw["message"], edits)
    context = None
    if "context" in data:
        raw = data["context"]
        first, last = raw["statement_lines"]
        context = FindingContext(path, (int(first), int(last)), None, str(raw["line_text"]), str(raw["scope"]),
                                 str(raw["statement_text"]))
    return Finding(
        str(data["code"]), str(data["name"]), str(data["message"]), data["severity"], str(data["filename"]),
        _location(data["location"]), _location(data["end_location"]), fix=fix, url=data.get("url"), context=context,
    )


def clean(directory: Path) -> bool:
    """Remove a jitlint cache directory. Anything that does not look like one (no jitlint CACHEDIR.TAG and not
    named `.jitlint_cache`) is refused with ValueError: `--cache-dir ~` must not delete a home directory.
    True if something was removed."""
    import shutil

    if not directory.is_dir():
        return False
    tag = directory / "CACHEDIR.TAG"
    ours = directory.name == ".jitlint_cache" or (tag.is_file() and "jitlint" in tag.read_text(errors="replace"))
    if not ours:
        raise ValueError(f"{directory} does not look like a jitlint cache (no CACHEDIR.TAG written by jitlint)")
    shutil.rmtree(directory)
    return True
