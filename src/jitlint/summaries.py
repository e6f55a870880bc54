"""Phase one of a run: a summary of every file, read with `ast` in parallel and kept per file content.

A `Summary` holds what the rest of the run needs of a file before LibCST reads any: its index (`jitlint.summary`:
the module, its classes, functions, attributes and names, with their nodes parsed only when read), whether it is
plain readable source, which of the words the prefilter and the rules' text hints look for it holds, the dotted
names it spells (what its names read, for the cache), and where its top-level statements start (so that a file with
findings computes positions for the statements that hold them only). Summaries are kept on disk by the file's
content, path and module name (`SummaryCache`), so a run after an edit reads only the edited files with `ast`.
"""

from __future__ import annotations

import ast
import dataclasses
import hashlib
import io
import multiprocessing
import os
import pickle
import shutil
import stat
import warnings
from dataclasses import dataclass, field
from pathlib import Path

from jitlint import summary as summary_module
from jitlint.limits import generated_marker, structure_problem
from jitlint.names import module_name_for
from jitlint.paths import resolved
from jitlint.project import ModuleInfo, dotted_chains

FORMAT = 2


@dataclass(eq=False)
class Summary:
    """What phase one knows of one file (see the module's docstring). `module` is None for a file that is not
    plain source `ast` reads (`plain` False: it goes to LibCST, which reports what is wrong with it).

    A summary read in another process, or kept on disk, holds its module pickled (`pack`): a process unpickles the
    modules it reads only (a worker reads its share's and those its names lead to, not the whole run's: held as
    objects, the index of every file of a large library is most of a worker's memory)."""

    path: Path
    size: int
    _module: ModuleInfo | None
    plain: bool
    generated: bool = False
    words: frozenset[str] = frozenset()
    noqa: bool = False
    wrappers: bool = False
    chains: frozenset[str] = frozenset()
    lines: tuple[int, ...] = ()  # the first line of each top-level statement (LibCST's `Module.body`)
    seconds: float = field(default=0.0, compare=False)  # what reading it cost (phase one's share of the run)
    classes_with_bases: bool = False  # a top-level class derives from something (`pipeline.split` weighs it)
    stars: bool = False  # a module-level `from m import *` (the prefilter parses the file up front)
    _packed: bytes | None = None  # `module`, pickled, until first read
    # For the cache (`read_summary`'s `limits`): (content hash, `cache.interface`), what the run's cache writes for
    # every file, computed here in parallel rather than in the parent after the run.
    interface: tuple[str, str] | None = None

    @property
    def module(self) -> ModuleInfo | None:
        if self._packed is not None:
            self._module = PackedModule.unpack(self._packed)
            self._packed = None
        return self._module

    @module.setter
    def module(self, value: ModuleInfo | None) -> None:
        self._module = value
        self._packed = None
        self.classes_with_bases = value is not None and any(cls.base_names for cls in value.classes.values())

    def pack(self) -> "Summary":
        """The same summary with its module pickled (to send to another process, or to keep on disk)."""
        if self._packed is not None or self._module is None:
            return self
        return dataclasses.replace(self, _module=None, _packed=PackedModule.pack(self._module))


_BODY = ("classes", "functions", "globals")


class _Pickler(pickle.Pickler):
    """Pickles a part of a module, the module itself and its import table by reference (`_Unpickler`)."""

    def __init__(self, file, module: ModuleInfo, body: bool) -> None:
        super().__init__(file, protocol=pickle.HIGHEST_PROTOCOL)
        self.shared = {id(module): "module", id(module.imports): "imports"} if body else {id(module): "module"}

    def persistent_id(self, obj):
        return self.shared.get(id(obj))


class _Unpickler(pickle.Unpickler):
    def __init__(self, file, module: ModuleInfo) -> None:
        super().__init__(file)
        self.module = module

    def persistent_load(self, key):
        return self.module if key == "module" else self.module.imports


class PackedModule(ModuleInfo):
    """A summarized module unpickled in two parts: its name, path and import table first, its classes, functions
    and module-level values (`_BODY`) when one of them is first read. A module a worker reads only for its names
    (what a star import of it binds, a name it re-exports) never unpickles its classes."""

    @staticmethod
    def pack(module: ModuleInfo) -> bytes:
        head = {name: value for name, value in vars(module).items() if name not in _BODY and name != "_body"}
        parts = []
        for body, part in ((False, head), (True, {name: getattr(module, name) for name in _BODY})):
            stream = io.BytesIO()
            _Pickler(stream, module, body).dump(part)
            parts.append(stream.getvalue())
        return pickle.dumps(tuple(parts), protocol=pickle.HIGHEST_PROTOCOL)

    @classmethod
    def unpack(cls, packed: bytes) -> "PackedModule":
        head, body = pickle.loads(packed)
        module = cls.__new__(cls)
        fields = _Unpickler(io.BytesIO(head), module).load()
        module.__dict__.update(fields)
        module.__dict__["_body"] = body
        return module

    def __getattr__(self, name: str):
        body = self.__dict__.get("_body")
        if name not in _BODY or body is None:
            raise AttributeError(name)
        self.__dict__.update(_Unpickler(io.BytesIO(body), self).load())
        del self.__dict__["_body"]
        return self.__dict__[name]


def _returns_wrapper(function: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """A nested function (directly in the body) with a variable signature: what JIT632 may report (a superset)."""
    for statement in function.body:
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)):
            args = statement.args
            if args.vararg is not None or args.kwarg is not None or any(d is not None for d in args.kw_defaults):
                return True
    return False


def statement_lines(tree: ast.Module) -> tuple[int, ...]:
    """The first line of each statement of LibCST's `Module.body` for this module: a compound statement (from its
    first decorator), or a line of simple statements (`a = 1; b = 2` is one)."""
    lines: list[int] = []
    previous_end = None
    for statement in tree.body:
        compound = isinstance(statement, summary_module.COMPOUND)
        if not compound and previous_end is not None and statement.lineno == previous_end:
            previous_end = statement.end_lineno  # `;`: the same statement line
            continue
        lines.append(summary_module.first_line(statement))
        previous_end = None if compound else statement.end_lineno
    return tuple(lines)


def summarize(path: Path, data: bytes, words: tuple[str, ...], name: str | None = None) -> Summary:
    """The summary of a file's bytes (never raises: a file that is not plain source gets `plain` False)."""
    import time

    start = time.process_time()
    try:
        from jitlint.source import decode

        text = decode(data)
    except (UnicodeDecodeError, SyntaxError, LookupError):
        return Summary(path, len(data), None, False)
    result = Summary(path, len(data), None, False, generated=generated_marker(text) is not None,
                     words=frozenset(word for word in words if word in text), noqa="noqa" in text.lower())
    if "\x00" in text or structure_problem(text) is not None:
        return result
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            tree = ast.parse(text)
        module = summary_module.build_module(path, str(path), text, tree, name)
    except (SyntaxError, ValueError, RecursionError, MemoryError, OverflowError):
        return result
    if module is None:  # (a star import: LibCST indexes it, as a file `ast` cannot read)
        return result
    result.module = module
    result.plain = True
    result.wrappers = any(_returns_wrapper(statement) for statement in tree.body
                          if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)))
    result.chains = dotted_chains(text)
    result.stars = any(isinstance(statement, ast.ImportFrom) and any(alias.name == "*" for alias in statement.names)
                       for statement in summary_module.module_level(tree.body))
    result.lines = statement_lines(tree)
    result.seconds = time.process_time() - start
    return result


class SummaryCache:
    """Summaries on disk, one file each, keyed by the file's content, path and module name, under a directory of
    this build of jitlint (another build's summaries are never read, and go when this one writes)."""

    def __init__(self, directory: Path, words: tuple[str, ...]) -> None:
        from jitlint.cache import build_id

        self.root = directory
        self.words = words
        self.directory = directory / hashlib.blake2b(
            f"{build_id()}\0{FORMAT}\0{' '.join(words)}".encode(), digest_size=12).hexdigest()
        self.writable = True

    def _entry(self, path: Path, data: bytes, name: str) -> Path:
        key = hashlib.blake2b(data, digest_size=20)
        key.update(f"\0{resolved(path)}\0{name}".encode("utf-8", "surrogatepass"))
        digest = key.hexdigest()
        return self.directory / digest[:2] / digest[2:]

    def get(self, path: Path, data: bytes, name: str) -> Summary | None:
        entry = self._entry(path, data, name)
        try:
            with open(entry, "rb") as stream:
                found = pickle.load(stream)
            if self.writable:
                os.utime(entry)  # (in use: `evict_unused` keeps it)
        except (OSError, pickle.UnpicklingError, EOFError, AttributeError, ImportError, TypeError, ValueError):
            return None
        if not isinstance(found, Summary):
            return None
        found.path = path
        found.seconds = 0.0  # (what reading it cost was the run's that kept it: this run paid the unpickling)
        return found

    def put(self, path: Path, data: bytes, name: str, found: Summary) -> None:
        if not self.writable:
            return
        entry = self._entry(path, data, name)
        try:
            entry.parent.mkdir(parents=True, exist_ok=True)
            temporary = entry.with_name(f"{entry.name}.{os.getpid()}.tmp")
            with open(temporary, "wb") as stream:
                pickle.dump(found.pack(), stream, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(temporary, entry)
        except OSError:
            self.writable = False

    def evict_unused(self, since: float) -> None:
        """After a full run (which read or wrote the entry of every file): remove the entries it did not use, those
        of contents the files no longer have (each edit would otherwise leave one behind)."""
        try:
            for shard in self.directory.iterdir():
                for entry in shard.iterdir():
                    if entry.stat().st_mtime < since:
                        entry.unlink()
        except OSError:
            pass

    def evict_other_builds(self) -> None:
        try:
            for other in self.root.iterdir():
                if other != self.directory and other.is_dir():
                    shutil.rmtree(other, ignore_errors=True)
        except OSError:
            pass


def read_summary(path: Path, words: tuple[str, ...], cache: SummaryCache | None,
                 max_size: int | None = None, limits=None) -> Summary:
    """A file's summary, from the cache or read now (and kept). What is not a regular file (a directory, a named
    pipe: reading it would block), or is larger than `max_size`, is not read: not plain, it goes to LibCST's reading,
    which reports it."""
    try:
        status = path.stat()
        if not stat.S_ISREG(status.st_mode):
            return Summary(path, 0, None, False)
        if max_size is not None and status.st_size > max_size:
            return Summary(path, status.st_size, None, False)
        data = path.read_bytes()
    except OSError:
        return Summary(path, 0, None, False)
    name = module_name_for(path)[0]
    found = cache.get(path, data, name) if cache is not None else None
    if found is None:
        found = summarize(path, data, words, name)
        if cache is not None:
            found = found.pack()  # (pickled once: for the cache, and for the parent when read in a forked reader)
            cache.put(path, data, name, found)
    if limits is not None:  # (`limits`: the run's `Limits`, on which a file's interface depends)
        from jitlint.cache import content_hash, interface

        found.interface = (content_hash(data), interface(data, limits))
    return found


class OnDemand:
    """The summaries of a run's files, each read when first asked for, by resolved path (`get`, `[]`): a partial
    run (`engine.lint_share`) reads the few files its names lead to, where reading every file of a large library
    with `ast` was most of the cost of a one-file edit. With a `SummaryCache` (the one the last full run filled), a
    file is read with `ast` only where its content changed: a name that leads through a package's star imports asks
    for thousands of summaries, each unpickled instead of parsed again. Iterating gives the summaries read so far."""

    def __init__(self, files: list[Path], words: tuple[str, ...], max_size: int | None = None,
                 cache: SummaryCache | None = None) -> None:
        self.paths = {resolved(path): path for path in files}
        self.words = words
        self.max_size = max_size
        self.cache = cache
        self.read: dict[Path, Summary] = {}

    def get(self, key: Path, default=None):
        found = self.read.get(key)
        if found is None:
            path = self.paths.get(key)
            if path is None:
                return default
            found = self.read[key] = read_summary(path, self.words, self.cache, self.max_size)
        return found

    def __getitem__(self, key: Path) -> Summary:
        found = self.get(key)
        if found is None:
            raise KeyError(key)
        return found

    def __iter__(self):
        return iter(list(self.read.values()))


def by_resolved_path(found: "list[Summary] | OnDemand") -> "dict[Path, Summary] | OnDemand":
    """A run's summaries by resolved path (`OnDemand` is that already)."""
    return found if isinstance(found, OnDemand) else {resolved(item.path): item for item in found}


def summaries(files: list[Path], words: tuple[str, ...], cache: SummaryCache | None, jobs: int,
              max_size: int | None = None, limits=None) -> list[Summary]:
    """The summaries of `files`, in their order, read by up to `jobs` forked processes (`max_size`: see
    `read_summary`)."""
    if jobs <= 1 or len(files) < 2 * jobs or "fork" not in multiprocessing.get_all_start_methods():
        return [read_summary(path, words, cache, max_size, limits) for path in files]
    shares: list[list[int]] = [[] for _ in range(jobs)]
    for index in range(len(files)):  # interleaved: neighbours (of similar size) spread across the processes
        shares[index % jobs].append(index)
    context = multiprocessing.get_context("fork")
    pipes = [context.Pipe(duplex=False) for _ in shares]
    processes = []
    for share, (receiver, sender) in zip(shares, pipes):
        process = context.Process(target=_summarize_share, args=(files, share, words, cache, max_size, limits, sender),
                                  daemon=True)
        try:
            process.start()
        except OSError:
            break
        processes.append(process)
        sender.close()
    results: list[Summary | None] = [None] * len(files)
    for share, (receiver, _sender), process in zip(shares, pipes, processes):
        try:
            for index, found in zip(share, pickle.loads(receiver.recv_bytes())):
                found.path = files[index]
                results[index] = found
        except (EOFError, OSError, pickle.UnpicklingError):
            pass
        receiver.close()
        process.join()
    return [found if found is not None else read_summary(path, words, cache, max_size, limits)
            for path, found in zip(files, results)]


def _summarize_share(files, share, words, cache, max_size, limits, connection) -> None:
    try:
        found = [read_summary(files[index], words, cache, max_size, limits).pack() for index in share]
        connection.send_bytes(pickle.dumps(found, protocol=pickle.HIGHEST_PROTOCOL))
    except BaseException:
        pass
    finally:
        connection.close()
        os._exit(0)
