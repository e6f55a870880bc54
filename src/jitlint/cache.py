"""The static findings cache in `.jitlint_cache/` (ruff-style): a re-run over unchanged files reads its findings from
disk and never imports LibCST; after an edit, only the edited files are linted again when that is provably enough.

What a file's findings depend on
    jitlint's analysis crosses files: a helper is compiled because a `forward` in another linted file calls it, a
    container's kind comes from a base class in a third. Two kinds of dependency are recorded:

    - *What a file reads.* Its own text, and every file its names may lead to (`ProjectIndex.reads`: each prefix of
      each imported name, `import a` then `a.b.c`), directly or through those files' names: bases, callees,
      re-exports, modules read on demand. The run manifest keeps this graph for every module parsed.
    - *What other files put in its record.* Capture is reachability from roots, so the part of the capture maps
      that concerns a file (its captured functions, the classes each was captured for, the calls to them) is the
      union of what each root file's roots reach in it (`CaptureMap.contributions`); each entry keeps its parts by
      root file.

    What other files can see of a file is its *interface*: its tokens with their positions, without comments (but
    with `# type:` comments, which TorchScript reads), plus whether it is skipped (too large, generated). A comment,
    a `# noqa` or trailing blank lines change the file's content but not its interface.

    So a run with the same files as the last one: (1) nothing changed: findings from disk; (2) some files changed:
    the changed files and every file that reads a file whose interface changed (transitively) are *explored again*
    from their roots (`engine.lint_share`); a file whose part from those root files comes out different (a new call
    into it, a call that went), or whose record names a class of a file explored again (an inherited method is
    checked against the subclass), is linted too; each linted file receives the recorded parts of the root files
    not explored again, as a worker receives what the others found. Every other file's findings come from disk.
    (3) Files added to or removed from the run, and `__init__.py` files created or deleted anywhere (in the run or
    not): names may resolve differently. The manifest keeps each module's name and, for every module name the run
    looked up (the names of the modules it found, and those it found nothing for: `ProjectIndex.reads`'s
    `missing`), the file it resolved to; each run recomputes both from the directories (`Layout`, as
    `ProjectIndex` resolves them, without parsing). A new file is explored; a file whose module name changed is
    explored, and treated as an interface change (its readers too); a lookup that now finds another file (or one
    where it found nothing: an import of a module that did not exist, a prefix that is now a package) makes the
    files that looked it up, or that read the file it found before, explore again; a file that left the run is
    an interface change for its readers, and the files that received something from its roots are linted again
    without it. So a new file nothing imports is the only file linted. (4) A missing entry, another format, or a
    run of mostly other files: the whole run. `tests/test_cache.py` edits comments and code, adds and deletes
    files, re-runs and compares with a cold run.

Layout and eviction
    `static/<build>/<settings>/<file>.json` and `.../run-manifest` (the run's files in order with their content
    hashes, interfaces and the generation of their entries; the modules read on demand; the graph of reads):
    `<build>` is jitlint's version plus the size and mtime of its own files
    (an edited editable install never reads entries written by different code), `<settings>` the effective
    configuration and enabled rules. Writing a run removes the directories of other builds (each edit of jitlint
    used to orphan a whole generation) and keeps the `KEEP_SETTINGS` most recently used settings of this build.
    `summaries/<build>/` holds phase one's summaries of the files (`summaries.SummaryCache`, one per content, path
    and module name), which the full run writes and a partial run reads for the unchanged files its names lead to.

Robustness
    Entries are written to a temporary file and renamed into place, so two runs sharing the cache never see half an
    entry; an entry that does not parse or has the wrong shape counts as a miss, and an entry of another run than
    the manifest says (two runs interleaved) means a full run. A cache that cannot be written (read-only checkout)
    is skipped silently: caching is an optimisation, never a failure.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import re
import shutil
import stat
import tokenize
from dataclasses import dataclass, field
from pathlib import Path

from jitlint import __version__
from jitlint.atomic import write_atomically
from jitlint.codes import TARGET_OF
from jitlint.config import Config
from jitlint.finding import CaptureStep, Edit, Finding, FindingContext, Fix, Location
from jitlint.limits import generated_marker, structure_problem
from jitlint.methods import is_class_address, is_function_address
from jitlint.paths import has_init, is_project_root, module_name_of

FORMAT = 6  # 6: findings carry their capture chain; 4: per-file records by root file, the run manifest and its dependency graph; 5: module names, lookups
KEEP_SETTINGS = 8
MANIFEST = "run-manifest"  # not .json: the entries are the .json files
_PACKAGE = Path(__file__).resolve().parent


def _digest(*parts: str) -> str:
    hasher = hashlib.blake2b(digest_size=20)
    for part in parts:
        hasher.update(part.encode("utf-8", "surrogatepass"))
        hasher.update(b"\0")
    return hasher.hexdigest()


def content_hash(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=20).hexdigest()


def build_id() -> str:
    """jitlint's version plus the size and mtime of its own files, so an edited (editable) install never reads
    entries written by different code."""
    parts = [__version__, str(FORMAT)]
    for directory, dirnames, filenames in os.walk(_PACKAGE):
        dirnames[:] = sorted(name for name in dirnames if name != "__pycache__")
        for name in sorted(filenames):
            if name.endswith((".py", ".toml", ".md", ".json")):
                status = os.stat(os.path.join(directory, name))
                parts.append(f"{name}:{status.st_size}:{status.st_mtime_ns}")
    return _digest(*parts)


def settings_key(config: Config, enabled: set[str]) -> str:
    limits = config.limits()
    settings = {
        "format": FORMAT,
        "enabled": sorted(enabled),
        "per_file_ignores": {pattern: sorted(codes) for pattern, codes in sorted(config.per_file_ignores.items())},
        "root": str(config.root),
        "ignore_noqa": config.ignore_noqa, "module_bases": sorted(config.module_bases),
        "max_file_size": limits.max_file_size,
        "lint_generated": limits.lint_generated,
        # Every enabled target's settings, whatever they are (`TargetSettings.key`).
        "targets": {target: config.settings(target).key()
                    for target in sorted({TARGET_OF.get(code) for code in enabled} - {None})},
    }
    return _digest(json.dumps(settings, sort_keys=True))


_TYPE_COMMENT = re.compile(r"#\s*type:")
_LAYOUT_TOKENS = (tokenize.COMMENT, tokenize.NL, tokenize.ENDMARKER)


def interface(data: bytes, limits) -> str:
    """What other files' analysis can see of a file (see the module's docstring): its tokens and their positions,
    without comments other than `# type:` ones, and whether it is skipped. A file that does not tokenize is all
    interface (its content hash)."""
    if len(data) > limits.max_file_size:
        return "skipped:too-large"
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
        text = data.decode("utf-8-sig" if encoding == "utf-8-sig" else encoding)
        if not limits.lint_generated and generated_marker(text) is not None:
            return "skipped:generated"
        if "\x00" in text or structure_problem(text) is not None:  # not parsed, so not seen: any change may matter
            return "content:" + content_hash(data)
        hasher = hashlib.blake2b(digest_size=20)
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            kind = token.type
            if kind in _LAYOUT_TOKENS and not (kind == tokenize.COMMENT and _TYPE_COMMENT.match(token.string)):
                continue
            if kind in (tokenize.INDENT, tokenize.DEDENT, tokenize.NEWLINE):  # where a comment may move them
                hasher.update(f"{kind}\0".encode())
            else:
                hasher.update(f"{kind}\0{token.string}\0{token.start}{token.end}\0".encode("utf-8", "surrogatepass"))
        return "tokens:" + hasher.hexdigest()
    except (SyntaxError, UnicodeDecodeError, LookupError, ValueError, tokenize.TokenError):
        return "content:" + content_hash(data)


class Layout:
    """How the run's files resolve module names, computed as `ProjectIndex` computes it (`seed`, `module`) but
    without parsing anything: each file's module name and import root (`names.module_name_for`: up through the
    directories that hold an `__init__.py`), the roots in the run's order, the top-level packages, and which linted
    file holds each module name (the last one). `where(name)` is the file a lookup of a module name finds, or None.
    Two runs whose layouts give the same module names and the same answers to the same lookups resolve every name
    the same way; the cache records both (see `StaticCache.plan`)."""

    def __init__(self, files: list[Path]) -> None:
        self._real_dirs: dict[str, str] = {}
        self._package_dirs: dict[str, bool] = {}
        self._project_dirs: dict[str, bool] = {}
        self._found: dict[str, str | None] = {}
        self.names: dict[str, str] = {}
        self.roots: list[str] = []
        self.packages: set[str] = set()
        self.linted: dict[str, Path] = {}
        known_roots: set[str] = set()
        for path in files:
            name, root = self.module_name(path)
            self.names[str(path)] = name
            if root not in known_roots:
                known_roots.add(root)
                self.roots.append(root)
            self.packages.add(name.split(".", 1)[0])
            self.linted[name] = path

    def real(self, path: Path) -> str:
        """`paths.resolved(path)` as a string, resolving each directory once (a run has few)."""
        text = str(path)
        try:
            if os.path.islink(text):
                return str(Path(text).resolve())
            directory, base = os.path.split(os.path.abspath(text))
            real = self._real_dirs.get(directory)
            if real is None:
                real = self._real_dirs[directory] = str(Path(directory).resolve())
            return os.path.join(real, base)
        except (OSError, RuntimeError):
            return os.path.abspath(text)

    def _is_package(self, directory: str) -> bool:
        known = self._package_dirs.get(directory)
        if known is None:
            known = self._package_dirs[directory] = has_init(directory)
        return known

    def _is_project_root(self, directory: str) -> bool:
        known = self._project_dirs.get(directory)
        if known is None:
            known = self._project_dirs[directory] = is_project_root(directory)
        return known

    def module_name(self, path: Path) -> tuple[str, str]:
        """`names.module_name_for(path)`: the dotted module name and the import root (as a string)."""
        return module_name_of(self.real(path), self._is_package, self._is_project_root)

    def where(self, name: str) -> str | None:
        """The file `ProjectIndex.module(name)` reads (resolved), or None."""
        if name not in self._found:
            found = None
            linted = self.linted.get(name)
            if linted is not None:
                found = self.real(linted) if os.path.isfile(linted) else None
            elif name.split(".", 1)[0] in self.packages:
                relative = os.path.join(*name.split("."))
                for root in self.roots:
                    for candidate in (os.path.join(root, relative + ".py"), os.path.join(root, relative, "__init__.py")):
                        if os.path.isfile(candidate):
                            found = candidate
                            break
                    if found is not None:
                        break
            self._found[name] = found
        return self._found[name]


@dataclass
class Plan:
    """What a run must lint, given the cache: `full` when nothing can be reused; otherwise the files to explore
    again (`stale`: the edited and new files, those whose module name changed, and those whose names lead to a file
    whose interface changed or now resolve to another file), every file's recorded findings (`findings`, used for
    the files the partial run does not lint) and records (`records`, by str(path): root file -> policy -> the part
    of the capture maps that root file's roots put in that file; the parts of root files no longer in the run are
    left out). `changed` says whether the manifest must be written even if nothing is linted (files added or
    removed, module names or lookups that changed)."""

    full: bool
    stale: list[Path] = field(default_factory=list)
    findings: dict[Path, list[Finding]] = field(default_factory=dict)
    records: dict[str, dict] = field(default_factory=dict)
    manifest: dict = field(default_factory=dict)
    relint: list[Path] = field(default_factory=list)  # linted again, not explored (see `plan`)
    layout: "Layout | None" = None
    changed: bool = False

    @property
    def cached(self) -> list[Finding]:
        return [finding for findings in self.findings.values() for finding in findings]

    @property
    def work(self) -> bool:
        """Whether some file must be linted again."""
        return bool(self.stale or self.relint)


class StaticCache:
    """One JSON entry per linted file under `<directory>/static/<build>/<settings>/`, and `MANIFEST` there: the
    run's files (content hash, interface, the generation of the entry), the modules read on demand, what each
    module's names may lead to (the dependency graph), each module's name and what each module name looked up
    resolved to."""

    def __init__(self, directory: Path, config: Config, enabled: set[str]) -> None:
        self.directory = directory
        self.static = directory / "static"
        self.build = build_id()
        self.settings = settings_key(config, enabled)
        self.entries = self.static / self.build / self.settings
        self.summaries = directory / "summaries"  # phase one's (`summaries.SummaryCache`; see Layout above)
        self.limits = config.limits()
        self._data: dict[str, bytes | None] = {}
        self._hashes: dict[str, str | None] = {}
        self._interfaces: dict[str, str | None] = {}

    # -- hashing ------------------------------------------------------------------------------------------------
    def _read(self, path: Path) -> bytes | None:
        key = str(path)
        if key not in self._data:
            data = None
            try:
                # Only regular files: reading a named pipe would block, a device would never end.
                if stat.S_ISREG(path.stat().st_mode):
                    data = path.read_bytes()
            except OSError:
                pass
            self._data[key] = data
        return self._data[key]

    def file_hash(self, path: Path) -> str | None:
        """The content hash of a file (None if it cannot be read), computed once per run."""
        key = str(path)
        if key not in self._hashes:
            data = self._read(path)
            self._hashes[key] = None if data is None else content_hash(data)
            self._data.pop(key, None)  # hashes stay, contents go: a run's files may be large
        return self._hashes[key]

    def interface(self, path: Path, known: tuple[str, str] | None = None) -> str | None:
        """The file's interface; `known` = (content hash, interface) from an entry, reused if the content is."""
        key = str(path)
        if key not in self._interfaces:
            digest = self.file_hash(path)
            if digest is None:
                self._interfaces[key] = None
            elif known is not None and known[0] == digest:
                self._interfaces[key] = known[1]
            else:
                data = self._read(path)
                self._interfaces[key] = None if data is None else interface(data, self.limits)
                self._data.pop(key, None)
        return self._interfaces[key]

    def _entry_path(self, path: Path) -> Path:
        return self.entries / f"{_digest(str(path))}.json"

    # -- reading ------------------------------------------------------------------------------------------------
    def plan(self, files: list[Path]) -> Plan:
        """What this run can take from the cache (see the module's docstring)."""
        if not files:
            return Plan(full=True)
        try:
            manifest = json.loads((self.entries / MANIFEST).read_text(encoding="utf-8"))
            if manifest["format"] != FORMAT:
                return Plan(full=True)
            recorded = manifest["files"]
            present = {str(path) for path in files}
            if any(self.file_hash(path) is None for path in files):
                return Plan(full=True)
            removed = [path for path in manifest["order"] if path not in present]
            added = [path for path in files if str(path) not in recorded]
            if 2 * len(added) > len(files):
                return Plan(full=True)  # mostly other files (another directory, or paths spelled otherwise)
            changed = [path for path in files if self.file_hash(path) != recorded.get(str(path), (None,))[0]]
            moved = [path for path, (content, seen, _generation) in recorded.items()
                     if path in present and self.file_hash(Path(path)) != content
                     and self.interface(Path(path), (content, seen)) != seen]
            loaded = manifest["loaded"]
            for path, (content, seen) in loaded.items():
                if self.file_hash(Path(path)) != content and self.interface(Path(path), (content, seen)) != seen:
                    moved.append(path)
            # Files that leave the run, and files read on demand that join it, are seen differently by their readers
            # (a linted file's roots are explored; a file read on demand has none): like an interface change.
            layout = Layout(files)
            moved.extend(removed)
            if added and loaded:  # (a file read on demand is known by its absolute path, a linted one as given)
                joined = {layout.real(path) for path in added}
                moved.extend(path for path in loaded if layout.real(Path(path)) in joined)
            # Module names: a file whose name changed (an `__init__.py` added or removed above it) means something
            # else to itself (relative imports) and to its readers; it is explored again, like an edited file, and
            # what reads it too.
            names = manifest["modules"]
            renamed = {path for path, name in names.items()
                       if (layout.names[path] if path in present else layout.module_name(Path(path))[0]) != name}
            moved.extend(renamed)
            # Lookups: a module name that now resolves to another file, or to one where it found nothing (a new file,
            # a new `__init__.py`, another import root or top-level package, another file holding the name): its
            # readers (who looked it up and found nothing, or found the file it resolved to) explore again.
            via: dict[str, list[str]] = {}
            defs: dict[str, list[str]] = {}
            lookers: dict[str, list[str]] = {}
            for module, reads in manifest["graph"].items():
                for read in reads["via"]:
                    via.setdefault(read, []).append(module)
                for read in reads["defs"]:
                    defs.setdefault(read, []).append(module)
                for name in reads["missing"]:
                    lookers.setdefault(name, []).append(module)
            keys: dict[str, list[str]] = {}  # resolved path -> how the graph names that file
            for path in manifest["graph"]:
                keys.setdefault(layout.real(Path(path)), []).append(path)
            relooked: set[str] = set()
            for name, before in manifest["lookups"].items():
                if layout.where(name) != before:
                    relooked.update(lookers.get(name, ()))
                    for module in keys.get(before, ()) if before is not None else ():
                        relooked.update(via.get(module, ()))
                        relooked.update(defs.get(module, ()))
            # Who reads a file whose interface changed explores again: a file that re-exports a name from it (its
            # `via`), and, transitively, a file whose names are defined in a file explored again (its `defs`).
            reached = {str(path) for path in moved}
            reached |= {reader for path in list(reached) for reader in via.get(path, ())}
            reached |= relooked
            todo = list(reached)
            while todo:
                for reader in defs.get(todo.pop(), ()):
                    if reader not in reached:
                        reached.add(reader)
                        todo.append(reader)
            stale = [path for path in files if path in changed or str(path) in reached]
            # The entries: every file's findings; the records (what other files put in each file's record, on a large
            # library most of the cache) if something changed. A file edited only in a comment is explored all the same:
            # a class of it can be captured through code its own record does not hold (a `forward` inherited from
            # another file).
            every = bool(removed or reached or stale)
            findings: dict[Path, list[Finding]] = {}
            records: dict[str, dict] = {}
            shared = SharedRows() if changed or moved or relooked else None
            strings = shared.strings if shared is not None else None
            for path in files:
                if str(path) not in recorded:
                    continue  # a new file: explored
                content, seen, generation = recorded[str(path)]
                entry = json.loads(self._entry_path(path).read_text(encoding="utf-8"))
                if entry["file"] != str(path) or entry["content"] != content or entry["generation"] != generation:
                    return Plan(full=True)  # entries of another run (two runs interleaved): start afresh
                findings[path] = [_finding_from_json(item, path, strings) for item in entry["findings"]]
                if shared is not None and every:
                    records[str(path)] = shared.record(entry["contrib"])
            # What the roots of a file that left the run put in other files' records goes: those files are linted
            # again without it.
            relint = set()
            if removed:
                for path in files:
                    record = records.get(str(path))
                    if record is None:
                        continue
                    gone = [root for root in record if root not in present]
                    for root in gone:
                        if any(entries or sites for entries, sites in record.pop(root).values()):
                            relint.add(path)
            # A function captured for a class of another file (an inherited `forward`) is checked against that
            # class (its attributes, its bases): a file whose record names such a class where something changed
            # is linted again too, though what it captures is not.
            touched = reached  # the files whose interface changed, and what reads them (not a comment-only edit)
            relint.update(path for path in files if str(path) in records and any(
                owner is not None and owner[1] in touched
                for per_policy in records[str(path)].values() for entries, _sites in per_policy.values()
                for _address, owner, _reason in entries))
            stale_set = set(stale)
            relint_list = [path for path in files if path in relint and path not in stale_set]
            dirty = bool(removed or added or renamed or relooked)
            if (stale or relint_list) and not all(_well_formed(record) for record in records.values()):
                return Plan(full=True)  # a record of the wrong shape (valid JSON, but not written by this jitlint)
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            return Plan(full=True)  # missing, unreadable, corrupt or from another format: a miss, never an error
        return Plan(full=False, stale=stale, findings=findings, records=records, manifest=manifest, relint=relint_list,
                    layout=layout, changed=dirty)

    def load(self, files: list[Path]) -> list[Finding] | None:
        """Every file's cached findings if none needs linting again, else None."""
        plan = self.plan(files)
        return None if plan.full or plan.stale else plan.cached

    # -- writing ------------------------------------------------------------------------------------------------
    def store(self, files: list[Path], display_names: dict[Path, str], findings: list[Finding],
              dependencies: list[Path], contrib: dict[str, dict], graph: dict[str, list[str]],
              only: list[Path] | None = None, plan: Plan | None = None, interfaces: dict | None = None) -> None:
        """Write the entries of a run of `files` (of the files of `only` after a partial run planned by `plan`),
        and the run's manifest; `interfaces`: (content hash, interface) by str(path), as phase one computed them."""
        generation = os.urandom(10).hex()
        written = files if only is None else only
        previous = plan.manifest if plan is not None and only is not None else {}
        by_file: dict[str, list[dict]] = {display_names[path]: [] for path in written}
        for finding in findings:
            if finding.filename in by_file:
                by_file[finding.filename].append(_finding_to_json(finding))
        old_files = previous.get("files", {})
        manifest_files = {}
        for path in files:
            kept = old_files.get(str(path))
            self.interface(path, tuple(kept[:2]) if kept else (interfaces or {}).get(str(path)))
            manifest_files[str(path)] = [self.file_hash(path), self._interfaces.get(str(path)),
                                         generation if only is None or path in only or kept is None else kept[2]]
        present = {str(path) for path in files}
        layout = plan.layout if plan is not None and plan.layout is not None else Layout(files)
        linted = {layout.real(path) for path in files}
        loaded = {path: value for path, value in previous.get("loaded", {}).items()
                  if layout.real(Path(path)) not in linted}  # a file read on demand that joined the run
        for path in dependencies:
            loaded[str(path)] = None
        for path in list(loaded):
            known = previous.get("loaded", {}).get(path)
            loaded[path] = [self.file_hash(Path(path)), self.interface(Path(path), tuple(known) if known else None)]
        edited = {path for path, (content, _seen, _generation) in old_files.items() if content != manifest_files.get(
            path, [None])[0]}
        edited |= {path for path, known in previous.get("loaded", {}).items()
                   if known and path in loaded and known[0] != loaded[path][0]}
        merged = merge_graph(dict(previous.get("graph", {})), graph, edited)
        for path in [*previous.get("order", ()), *previous.get("loaded", ())]:
            if path not in present and path not in loaded:
                merged.pop(path, None)  # a file that left the run, or one read on demand that joined it
        # Module names and what each name looked up resolves to, to notice files added, removed or renamed.
        modules = {str(path): layout.names[str(path)] for path in files}
        modules.update((path, layout.module_name(Path(path))[0]) for path in loaded)
        wanted = set(modules.values())
        for reads in merged.values():
            wanted.update(reads.get("missing", ()))
        lookups = {name: layout.where(name) for name in sorted(wanted)}
        manifest = {"format": FORMAT, "generation": generation, "order": [str(path) for path in files],
                    "files": manifest_files,
                    "loaded": loaded, "graph": merged, "modules": modules, "lookups": lookups}
        try:
            self.entries.mkdir(parents=True, exist_ok=True)
            _mark_cache_directory(self.directory)
            for path in previous.get("order", ()):
                if path not in present:  # a file that left the run: its entry goes too
                    self._entry_path(Path(path)).unlink(missing_ok=True)
            for path in written:
                # A file the run could not parse has nothing in the capture maps: its record is empty.
                entry = {"file": str(path), "content": self.file_hash(path), "generation": generation,
                         "contrib": contrib.get(str(path), {}), "findings": by_file[display_names[path]]}
                write_atomically(self._entry_path(path), json.dumps(entry, separators=(",", ":")))
            write_atomically(self.entries / MANIFEST, json.dumps(manifest, separators=(",", ":")))
            self._evict()
        except OSError:
            pass  # a read-only or full disk: the run's results are still right, just not cached

    def _evict(self) -> None:
        """Remove the entries of other jitlint builds (and of the format-2 layout), and all but the most recently
        used settings of this build."""
        os.utime(self.entries)
        for child in self.static.iterdir():
            if child.name == self.build:
                continue
            if child.is_dir():
                shutil.rmtree(child, ignore_errors=True)
            elif child.suffix == ".json":
                child.unlink(missing_ok=True)
        generations = sorted((child for child in (self.static / self.build).iterdir() if child.is_dir()),
                             key=lambda child: child.stat().st_mtime_ns, reverse=True)
        for old in generations[KEEP_SETTINGS:]:
            shutil.rmtree(old, ignore_errors=True)


class SharedRows:
    """One object per distinct address and string in the records (`records.contributions_of`'s rows). The records
    repeat them (a base class's property is captured for each of its subclasses, in the part of each of their
    root files): a worker builds its records with one (pickle then sends each once), and a plan reads them with
    one, where JSON makes a new one for each occurrence, which held the records many times over in the parent of
    every cached run. A row of another shape is left as it is (`_well_formed` judges it when the record is
    used)."""

    def __init__(self) -> None:
        self.lists: dict[tuple, list] = {}
        self.strings: dict[str, str] = {}

    def string(self, value):
        return self.strings.setdefault(value, value) if type(value) is str else value

    def address(self, value):
        """The one list of an address (a tuple or a list of strings and None)."""
        if type(value) is not list and type(value) is not tuple:
            return value
        try:
            key = tuple(value)
            found = self.lists.get(key)
        except TypeError:  # (a list inside: not an address)
            return value
        if found is None:
            found = self.lists[key] = [self.string(part) for part in value]
        return found

    def record(self, record):
        """A record as JSON gave it, sharing what it repeats (in place)."""
        if not isinstance(record, dict):
            return record
        address, string = self.address, self.string
        for per_policy in record.values():
            for part in per_policy.values() if isinstance(per_policy, dict) else ():
                if not (isinstance(part, list) and len(part) == 2 and all(isinstance(rows, list) for rows in part)):
                    continue
                entries, sites = part
                for row in entries:
                    if type(row) is list and len(row) == 3:
                        row[0], row[1], row[2] = address(row[0]), address(row[1]), string(row[2])
                for row in sites:
                    if type(row) is list and len(row) == 2:
                        row[0] = address(row[0])
                        site = row[1]
                        if type(site) is list and len(site) >= 2:
                            site[0], site[1] = string(site[0]), string(site[1])
        return record


def _well_formed(record) -> bool:
    """Whether a file's record (root file -> policy -> [entries, sites], `records.contributions_of`'s lists) has the
    shape a partial run reads: entries [function address, class address or None, reason], sites [function address,
    [file, display name, ordinal, bound, positional, keywords, star]]."""
    if not isinstance(record, dict):
        return False
    for per_policy in record.values():
        if not isinstance(per_policy, dict):
            return False
        for part in per_policy.values():
            if not (isinstance(part, list) and len(part) == 2 and isinstance(part[0], list)
                    and isinstance(part[1], list)):
                return False
            for entry in part[0]:
                if not (isinstance(entry, list) and len(entry) == 3 and is_function_address(entry[0])
                        and (entry[1] is None or is_class_address(entry[1])) and isinstance(entry[2], str)):
                    return False
            for site in part[1]:
                if not (isinstance(site, list) and len(site) == 2 and is_function_address(site[0])
                        and isinstance(site[1], list) and len(site[1]) == 7 and isinstance(site[1][5], list)
                        and all(isinstance(keyword, str) for keyword in site[1][5])):
                    return False
    return True


def merge_graph(graph: dict, more: dict, replace: "set[str]" = frozenset()) -> dict:
    """`more` into `graph`: a module's reads are the union of what each process saw its names lead to (a process
    follows only the names its own analysis asked for), except for the modules of `replace` (edited since)."""
    for path, reads in more.items():
        known = graph.get(path)
        if known is None or path in replace:
            graph[path] = reads
        else:
            graph[path] = {kind: sorted(set(known.get(kind, ())) | set(reads.get(kind, ())))
                           for kind in ("via", "defs", "missing")}
    return graph


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


def _finding_from_json(data: dict, path: Path, strings: dict[str, str] | None = None) -> Finding:
    """A finding from its JSON; what many findings repeat (file, code, name, page, scope) is one string per value of
    `strings`."""
    one = (lambda value: value) if strings is None else (lambda value: strings.setdefault(value, value))  # noqa: E731
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
        context = FindingContext(path, (int(first), int(last)), None, str(raw["line_text"]), one(str(raw["scope"])),
                                 str(raw["statement_text"]))
    if data["severity"] not in ("error", "warning", "info"):
        raise ValueError(f"not a severity: {data['severity']!r}")
    url = data.get("url")
    chain = tuple(CaptureStep(one(str(step["function"])), one(str(step["filename"])), int(step["row"]),
                              one(str(step["reason"])), one(str(step["defined_at"]["filename"])),
                              int(step["defined_at"]["row"]))
                  for step in data.get("captured_from") or ())
    return Finding(
        one(str(data["code"])), one(str(data["name"])), str(data["message"]), one(data["severity"]),
        one(str(data["filename"])), _location(data["location"]), _location(data["end_location"]), fix=fix,
        url=one(url) if isinstance(url, str) else url, context=context, captured_from=chain,
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
