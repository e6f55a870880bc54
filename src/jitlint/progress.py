"""A split run's progress: each worker's reports (`Teller`, in the worker) and what the parent shows of them
(`WorkersProgress`)."""

from __future__ import annotations

import time
from pathlib import Path


class WorkersProgress:
    """The run's progress from the workers' reports."""

    def __init__(self, progress, shares: list[list[Path]]) -> None:
        self.progress = progress
        self.total = sum(len(share) for share in shares)
        self.sizes = [len(share) for share in shares]
        self.states = [("start", 0, size) for size in self.sizes]

    def __call__(self, index: int, phase: str, done: int, total: int) -> None:
        self.states[index] = (phase, done, total or self.sizes[index])
        count = sum({"start": 0, "parse": done, "lint": size + done, "done": 2 * size}.get(phase, size)
                    for (phase, done, _total), size in zip(self.states, self.sizes))
        detail = " | ".join(f"{phase} {done}/{total}" if phase in ("parse", "lint") else phase
                            for phase, done, total in self.states)
        self.progress(min(count, 2 * self.total), 2 * self.total, detail)


class Teller:
    """A worker's progress reports to the parent: a few a second at most."""

    def __init__(self, connection) -> None:
        self.connection = connection
        self.last = 0.0

    def __call__(self, phase: str, done: int, total: int) -> None:
        now = time.monotonic()
        if now - self.last >= 0.2 or phase not in ("parse", "lint"):
            self.last = now
            self.connection.send(("progress", (phase, done, total)))
