"""A process of its own for the files that would make a process parse many more than its share.

A function that a class inherits from another file is checked against that class, and several rules decide over
all the classes a function was captured for at once: so the process that lints the base class's file parses the
file of every subclass. In a large library, the properties of a base model file are captured for classes in hundreds
of files, and the process linting it parsed those files on top of everything else it held (the figures are in
bench/records/2026-11-24-figures-behind-code-choices.md). Such a file is linted here instead (`engine.lint_apart`): a process
forked before the run parses anything, which receives what the run found in the file and holds the trees of that
file and of the files its classes come from, nothing more.

It never imports LibCST before it is given work (a cached run that lints nothing does not pay for it), and a
failure here is a bug that the caller reports and recovers from by linting the files itself.
"""

from __future__ import annotations

import multiprocessing
import os
from contextlib import contextmanager

# A file whose captured functions name classes of more files than this (outside what its process lints) is linted
# apart. A base class of a few models is not worth a process; one of every model is.
HEAVY_OWNER_FILES = 32


class ApartFailed(Exception):
    pass


class Apart:
    """The forked process, waiting for its files (`send`), or for none."""

    def __init__(self, process, connection) -> None:
        self.process = process
        self.connection = connection
        self.sent = False

    @classmethod
    def start(cls, files: list, config, enabled: set[str], work) -> "Apart | None":
        """None for a run too small to have such a file, or where processes cannot be forked. `work(job, config,
        enabled)` is what the process does with the job it is sent (`engine.lint_apart_job`)."""
        if len(files) <= HEAVY_OWNER_FILES or "fork" not in multiprocessing.get_all_start_methods():
            return None
        context = multiprocessing.get_context("fork")
        parent, child = context.Pipe()
        try:
            process = context.Process(target=_main, args=(child, work, config, enabled), daemon=True)
            process.start()
        except OSError:
            parent.close()
            return None  # no process to spare: the run lints every file itself
        finally:
            child.close()
        return cls(process, parent)

    def send(self, job) -> bool:
        """Give the process its work (see `engine.lint_apart`); False if it cannot take it."""
        try:
            self.connection.send(job)
        except OSError:
            return False
        self.sent = True
        return True

    def result(self):
        """What `engine.lint_apart` returned; `ApartFailed` if the process failed or died."""
        try:
            message = self.connection.recv()
        except (EOFError, OSError) as error:
            raise ApartFailed(f"the process for the heaviest files stopped: {error}") from None
        if message[0] != "done":
            raise ApartFailed(f"the process for the heaviest files failed ({message[1]})")
        return message[1]

    def close(self) -> None:
        """Tell an idle process to exit, and reap it."""
        if not self.sent:
            try:
                self.connection.send(None)
            except OSError:
                pass
            self.sent = True
        self.connection.close()
        self.process.join(timeout=5)
        if self.process.is_alive():
            self.process.kill()


def _main(connection, work, config, enabled) -> None:
    with forked_child(connection):
        job = connection.recv()
        if job is None:
            return
        connection.send(("done", work(job, config, enabled)))


@contextmanager
def forked_child(connection):
    """The body of a forked process that reports to `connection`: an exception goes to the parent as ("failed",
    what), and the process then ends with `os._exit` (its trees die with it: freeing them one by one would take
    seconds)."""
    try:
        yield
    except BaseException as error:  # the parent lints these files itself
        try:
            connection.send(("failed", f"{type(error).__name__}: {error}"))
        except Exception:
            pass
    finally:
        connection.close()
        os._exit(0)
