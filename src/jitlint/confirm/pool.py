"""The parent side of the confirmer host: a pool of child processes with time limits, and a result cache.

Each child is a long-lived interpreter that imported torch once and loaded one strategy's child side; it receives
one request at a time (a file, or one root of it). A request whose code hangs, crashes the interpreter, or exits,
costs only that child: it is killed and replaced, and the request's result says why it is unverified.

A request's time limit is in CPU seconds of its child (every thread's, user and system), not wall seconds: on a
machine other processes load, a file gets the same work done before its limit as on an idle one. The child holds
itself to it (`resource.RLIMIT_CPU`, and its deadlines read its own CPU clock); the parent reads the child's CPU
time where the system shows it (`/proc/<pid>/stat`) and ends a request whose child spent the limit, or spent no
CPU at all for as many wall seconds (it waits for something that does not come: a lock, the network, a sleep);
where the system does not show it, the limit is wall seconds.
"""

from __future__ import annotations

import hashlib
import json
import os
import queue
import selectors
import signal
import subprocess
import threading
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

from jitlint.atomic import write_atomically

CHILD = Path(__file__).with_name("child.py")
STARTUP_SECONDS = 180.0
# CPU seconds past a request's limit before the parent ends it (the two clocks are read at slightly different
# times); the child's own limit (`RLIMIT_CPU`, a little later) ends it where the parent cannot read its CPU time.
CPU_GRACE_SECONDS = 0.5
# How often the parent reads the child's CPU time while it waits for an answer (wall seconds).
POLL_SECONDS = 1.0
# A child that spends no CPU time for this long (wall seconds), or for the request's limit if that is longer, waits
# for something that does not come: the request is ended. Long enough for a short wait (a file, a small download).
IDLE_SECONDS = 30.0
# Part of every cache key: a new layout of requests or responses must not read an old entry.
PROTOCOL = 2


class ConfirmError(Exception):
    """The confirmer cannot run at all (no torch in the target interpreter): exit 2."""


@dataclass
class Root:
    """Something of a file to build and hand to the strategy's child side."""

    name: str
    kind: str = "class"  # "class": built (a factory, or a constructor whose arguments all have defaults); "function"
    inputs: str | None = None  # "module:function" returning its example inputs, for strategies that run the model
    options: dict = field(default_factory=dict)  # JSON for the strategy's child side (`ctx.options`)
    # the arguments the project builds the class with, tried when its defaults are missing or fail
    # (`constructions.py`): [{"args": [source], "kwargs": {name: source}, "refs": {name: qualified}?, "where"}]
    constructions: list = field(default_factory=list)
    # the classes that build it in their own code, nearest first, each with its construction sites: built when
    # nothing else builds the class, the instance found among its submodules is used
    # [{"class": qualified, "constructions": [...]}]
    hosts: list = field(default_factory=list)
    # other classes' construction sites (each with "class": the class it builds), tried last: the values a site gives
    # the parameters of the same names, when those are all the class's required ones
    borrowed: list = field(default_factory=list)


@dataclass
class FileRequest:
    path: Path
    module: str  # the dotted name it is imported as
    root: str  # the sys.path entry that import is relative to
    roots: list[Root]
    dependencies: list[Path] = field(default_factory=list)  # linted files it may import, for the cache key

    def only(self, root: Root) -> "FileRequest":
        return FileRequest(self.path, self.module, self.root, [root], self.dependencies)


@dataclass
class FileResult:
    request: FileRequest
    response: dict | None  # the child's answer, or None when the request could not be checked
    failure: str = ""  # why there is no answer (timeout, crash, exit)
    cached: bool = False


def probe_torch(python: str) -> str:
    """torch's version in the interpreter that will run the user's code; ConfirmError if it has none.

    Read from the package metadata, not by importing torch (that costs seconds, and the children import it anyway).
    """
    try:
        result = subprocess.run(
            [python, "-c", "import importlib.metadata as m, sys; sys.stdout.write(m.version('torch').split('+')[0])"],
            capture_output=True, text=True, timeout=STARTUP_SECONDS,
        )
    except (OSError, subprocess.TimeoutExpired) as error:
        raise ConfirmError(f"--dynamic cannot start {python}: {error}") from None
    if result.returncode != 0:
        raise ConfirmError(
            f"--dynamic needs the package `torch` in {python} (pip install 'jitlint[dynamic]'): "
            f"{(result.stderr.strip().splitlines() or ['torch is not installed'])[-1]}"
        )
    return result.stdout.strip()


class Child:
    def __init__(self, python: str, log_path: Path, strategy_file: Path) -> None:
        self.process = subprocess.Popen(
            [python, str(CHILD), str(log_path), str(strategy_file)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        self._buffer = b""
        self.closed = False
        self.timed_out_on = ""  # why the last wait ended without an answer: "cpu", "idle" or "wall"
        ready = self._read_line(STARTUP_SECONDS)
        if ready is None or not json.loads(ready).get("ready"):
            self.kill()
            raise ConfirmError(f"the dynamic checker's worker did not start under {python}")

    def _read_line(self, timeout: float, cpu_limit: float | None = None) -> str | None:
        """One protocol line, or None if the time ran out or the child closed its end (`self.closed`). With
        `cpu_limit`, the time is the child's CPU seconds (see the module docstring): it ran out when the child spent
        `cpu_limit` more (and the grace), or spent none for `timeout` (at least `IDLE_SECONDS`) wall seconds; else
        `timeout` wall seconds."""
        start = cpu_seconds(self.process.pid) if cpu_limit is not None else None
        if start is not None:
            timeout = max(timeout, IDLE_SECONDS)
        wall_limit = time.monotonic() + timeout  # no CPU clock: the limit; with one: since the CPU last moved
        last_cpu = start
        self.timed_out_on = ""
        stdout = self.process.stdout
        with selectors.DefaultSelector() as selector:
            selector.register(stdout, selectors.EVENT_READ)
            while b"\n" not in self._buffer:
                remaining = wall_limit - time.monotonic()
                if remaining <= 0:
                    self.timed_out_on = "wall" if start is None else "idle"
                    return None
                if not selector.select(min(remaining, POLL_SECONDS) if start is not None else remaining):
                    if start is not None:
                        now = cpu_seconds(self.process.pid)
                        if now is None:  # the child is gone: its end of the pipe says so next
                            continue
                        if now - start > cpu_limit + CPU_GRACE_SECONDS:
                            self.timed_out_on = "cpu"
                            return None
                        if now > last_cpu:
                            last_cpu, wall_limit = now, time.monotonic() + timeout
                    continue
                chunk = os.read(stdout.fileno(), 1 << 16)
                if not chunk:
                    self.closed = True
                    return None
                self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        return line.decode("utf-8", errors="replace")

    def check(self, request: dict, timeout: float) -> tuple[dict | None, str]:
        """The child's answer to `request`, or None and why there is none; `timeout` is in CPU seconds of the
        child (see the module docstring)."""
        try:
            self.process.stdin.write((json.dumps(request) + "\n").encode())
            self.process.stdin.flush()
        except (BrokenPipeError, OSError):
            return None, self._death(timeout)
        line = self._read_line(timeout, cpu_limit=timeout if cpu_seconds(self.process.pid) is not None else None)
        if line is None:
            if self.closed:
                return None, self._death(timeout)
            if self.timed_out_on == "idle":
                return None, f"timed out: the checker process used no CPU for {max(timeout, IDLE_SECONDS):g} s " \
                             "(the file or the modules it builds wait for something)"
            unit = "s of CPU time" if self.timed_out_on == "cpu" else "s"
            return None, f"timed out after {timeout:g} {unit} (the file or the modules it builds kept running)"
        return json.loads(line), ""

    def _death(self, timeout: float) -> str:
        code = self.process.wait()
        xcpu = getattr(signal, "SIGXCPU", None)
        if xcpu is not None and code == -xcpu:
            # the child's own CPU limit (`RLIMIT_CPU`): SIGXCPU at the soft limit
            return f"timed out after {timeout:g} s of CPU time (the file or the modules it builds kept running)"
        if code < 0:
            return f"the user's code crashed the checker process (signal {-code})"
        return f"the user's code ended the checker process (exit status {code})"

    def kill(self) -> None:
        if self.process.poll() is None:
            try:
                os.killpg(self.process.pid, 9)
            except (ProcessLookupError, PermissionError):
                self.process.kill()
        self.process.wait()


def cpu_seconds(pid: int) -> float | None:
    """The CPU seconds (user and system, every thread) process `pid` has used, or None where the system does not
    show it (no `/proc`) or the process is gone."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            fields = stat.read().rpartition(b")")[2].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime, stime
    except (OSError, ValueError, IndexError):
        return None


def _roots_json(request: FileRequest) -> list[dict]:
    return [asdict(root) for root in request.roots]


def _cache_key(request: FileRequest, settings: dict) -> str:
    digest = hashlib.sha256(json.dumps(settings, sort_keys=True).encode())
    for path in [request.path, *sorted(request.dependencies)]:
        digest.update(str(path).encode())
        try:
            digest.update(path.read_bytes())
        except OSError:
            digest.update(b"<unreadable>")
    digest.update(json.dumps([request.module, _roots_json(request)], sort_keys=True).encode())
    return digest.hexdigest()


def _child_code_digest(strategy_file: Path) -> str:
    """A digest of the code a child runs (the host's child side, the strategy's child file and the `confirm*.py`
    modules beside it, which it may load by path): a cached answer is only reused by the code that gave it, so an
    edited checker (a development install, a patched release) never reads answers an older one wrote."""
    digest = hashlib.sha256()
    strategy_file = Path(strategy_file)
    files = {Path(__file__).with_name("child.py"), strategy_file, *strategy_file.parent.glob("confirm*.py")}
    for path in sorted(files):
        digest.update(path.name.encode())
        try:
            digest.update(path.read_bytes())
        except OSError:
            digest.update(b"<unreadable>")
    return digest.hexdigest()


def run_requests(
    requests: list[FileRequest],
    *,
    strategy: str,
    strategy_file: Path,
    options: dict,
    python: str,
    torch_version: str,
    jitlint_version: str,
    timeout: float,
    factories: dict[str, str],
    jobs: int,
    cache_dir: Path | None,
    log_path: Path,
    fresh_child: bool = False,
) -> list[FileResult]:
    """Each request answered by a child running `strategy_file`'s child side (or by the cache); with `fresh_child`,
    each in a child of its own."""
    settings = {
        "protocol": PROTOCOL, "jitlint": jitlint_version, "torch": torch_version, "python": os.path.realpath(python),
        "factories": factories, "timeout": timeout, "strategy": strategy, "options": options,
        "code": _child_code_digest(strategy_file),
    }
    user_roots = sorted({request.root for request in requests})
    results: list[FileResult] = []
    pending: "queue.Queue[FileRequest]" = queue.Queue()
    for request in requests:
        cached = _read_cache(cache_dir, _cache_key(request, settings)) if cache_dir else None
        if cached is not None:
            results.append(FileResult(request, cached, cached=True))
        else:
            pending.put(request)
    lock = threading.Lock()
    log_path.parent.mkdir(parents=True, exist_ok=True)

    def serve() -> None:
        child: Child | None = None
        try:
            while True:
                try:
                    request = pending.get_nowait()
                except queue.Empty:
                    return
                if child is None:
                    child = Child(python, log_path, strategy_file)
                message = {
                    "file": str(request.path), "module": request.module, "root": request.root,
                    "roots": _roots_json(request), "factories": factories, "user_roots": user_roots,
                    "options": options, "time_limit": timeout,
                }
                response, failure = child.check(message, timeout)
                if response is None or fresh_child:
                    child.kill()
                    child = None
                if response is not None and cache_dir is not None:
                    _write_cache(cache_dir, _cache_key(request, settings), response)
                with lock:
                    results.append(FileResult(request, response, failure))
        finally:
            if child is not None:
                child.kill()

    errors: list[BaseException] = []

    def guarded() -> None:
        try:
            serve()
        except BaseException as error:  # a child that cannot start: reported once, as a ConfirmError
            errors.append(error)

    threads = [threading.Thread(target=guarded, daemon=True) for _ in range(max(1, min(jobs, pending.qsize())))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if errors:
        raise errors[0] if isinstance(errors[0], ConfirmError) else ConfirmError(str(errors[0]))
    return results


def _read_cache(cache_dir: Path, key: str) -> dict | None:
    try:
        return json.loads((cache_dir / "dynamic" / f"{key}.json").read_text())
    except (OSError, ValueError):
        return None  # missing or corrupt: recompute


def _write_cache(cache_dir: Path, key: str, response: dict) -> None:
    directory = cache_dir / "dynamic"
    try:
        directory.mkdir(parents=True, exist_ok=True)
        # Atomic: two runs may share the cache. A new file's usual permissions, as `Path.write_text` gave.
        write_atomically(directory / f"{key}.json", json.dumps(response), create_mode=0o666)
    except OSError:
        pass  # a cache that cannot be written only costs time
