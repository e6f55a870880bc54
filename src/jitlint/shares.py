"""A run's files in shares of about the same cost, one per worker (`jitlint.pipeline` runs them)."""

from __future__ import annotations

from pathlib import Path


def split(job, workers: int, costs: dict[str, float] | None = None) -> list[list[Path]]:
    """The files of `job` (a `pipeline.Job`) in `workers` shares of about the same cost, each in the run's order: a
    file's cost is what it cost the last time it was linted (`costs`), else its size (a file with no class and
    nothing a rule looks for is likely never parsed: a tenth)."""
    weights = {}
    for item in job.summaries:
        if costs and str(item.path) in costs:
            weights[item.path] = costs[str(item.path)] * 100_000 + 1
            continue
        likely = not item.plain or item.words or item.classes_with_bases
        weights[item.path] = (item.size if likely else item.size // 10) + 2048
    shares: list[list[Path]] = [[] for _ in range(workers)]
    totals = [0.0] * workers
    for path in sorted(job.files, key=lambda path: (-weights.get(path, 0), str(path))):
        smallest = totals.index(min(totals))
        shares[smallest].append(path)
        totals[smallest] += weights.get(path, 0)
    order = {path: number for number, path in enumerate(job.files)}
    return [sorted(share, key=order.__getitem__) for share in shares]
