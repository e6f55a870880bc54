"""Capture chains: how each captured function is reached from a root (`finding.CaptureStep`s), built from a
`jitlint.capture.CaptureMap` the same way whatever the number of processes of the run."""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

from jitlint.project import FunctionInfo

if TYPE_CHECKING:
    from jitlint.capture import CallSite, CapturedFunction, CaptureMap

# -- why a function is captured ---------------------------------------------------------------------------------------
_CALLED = ("called from ", "stored in ", "captured from ")


class Chains:
    """The capture chain of each captured function (`finding.CaptureStep`s: the root, then each call down to the
    function), built from what every process of a run has alike, so that any number of jobs gives the same chain:
    the calls recorded to the function and to the callers in its own file (all of which the process that lints a
    file receives), each call's line found in its caller's text. A caller in another file ends the chain: it is
    named, with the line of its call, and the chain of that file's findings goes on from there."""

    def __init__(self, captured: "CaptureMap") -> None:
        self.captured = captured
        self._chains: dict[int, tuple] = {}
        self._texts: dict[str, str] = {}

    def of(self, entry: CapturedFunction) -> tuple:
        found = self._chains.get(id(entry.info.node))
        if found is None:
            found = self._chains[id(entry.info.node)] = self._build(entry.info)
        return found

    def _build(self, start: FunctionInfo) -> tuple:
        from jitlint.finding import CaptureStep

        calls = []  # (callee, the site that calls it), innermost first
        node = start
        seen = {id(start.node)}
        outer = None  # (caller file, caller name, its call's row) when the chain leaves the file
        while True:
            entry = self.captured.entry(node)
            sites = self.captured.calls_to(node.node)
            if entry is None or not sites or not entry.reason.startswith(_CALLED):
                break
            site = sites[0]
            filename, caller_name = site.caller_key
            row = self._call_row(filename, caller_name, node.name, sites, site)
            calls.append((node, filename, row))
            caller = self._local(filename, caller_name) if _same_file(filename, node.module.path) else None
            if caller is None or id(caller.node) in seen:
                outer = (filename, caller_name)
                break
            seen.add(id(caller.node))
            node = caller
        steps = []
        if outer is not None:
            filename, caller_name = outer
            steps.append(CaptureStep(caller_name, self._shown(filename), self._def_row(filename, caller_name),
                                     "its caller, in another file" if not _same_file(filename, start.module.path)
                                     else "its caller"))
        else:
            entry = self.captured.entry(node)
            filename = str(node.module.path)
            steps.append(CaptureStep(node.display_name, self._shown(filename),
                                     self._def_row(filename, node.display_name),
                                     _root_reason(entry, node), self._shown(filename),
                                     self._def_row(filename, node.display_name)))
        for callee, filename, row in reversed(calls):
            caller_step = steps[-1]
            where = str(callee.module.path)
            steps.append(CaptureStep(callee.display_name, self._shown(filename), row,
                                     f"called from `{caller_step.function}`", self._shown(where),
                                     self._def_row(where, callee.display_name)))
        return tuple(steps)

    def _local(self, filename: str, display_name: str) -> FunctionInfo | None:
        """The function `display_name` ("f" or "Cls.m") of a file this process has, or None."""
        from jitlint.names import module_name_for

        path = Path(filename)
        module = self.captured.project.module_at(module_name_for(path)[0], path)
        if module is None:
            return None
        owner, _, name = display_name.rpartition(".")
        if owner:
            cls = module.classes.get(owner)
            return cls.methods.get(name) if cls is not None else None
        return module.functions.get(name)

    # -- lines, from the text -------------------------------------------------------------------------------------
    def _text(self, filename: str) -> str:
        found = self._texts.get(filename)
        if found is None:
            try:
                found = Path(filename).read_text(encoding="utf-8", errors="replace")
            except OSError:
                found = ""
            module = self._module(filename)
            if module is not None and isinstance(module.text, str):
                found = module.text  # what was linted (a buffer may differ from the disk)
            self._texts[filename] = found
        return found

    def _module(self, filename: str):
        from jitlint.names import module_name_for

        path = Path(filename)
        try:
            return self.captured.project.module_at(module_name_for(path)[0], path)
        except (OSError, ValueError):
            return None

    @staticmethod
    def _shown(filename: str) -> str:
        import os

        return os.path.relpath(filename) if os.path.isabs(filename) else filename

    def _def_offset(self, filename: str, display_name: str) -> int:
        """The offset of `def <name>` of "f" or "Cls.m" in the file's text; -1 if not found."""
        text = self._text(filename)
        owner, _, name = display_name.rpartition(".")
        start = 0
        if owner:
            found = re.search(rf"^[ \t]*class[ \t]+{re.escape(owner)}\b", text, re.M)
            if found is None:
                return -1
            start = found.end()
        match = re.compile(rf"^[ \t]*(?:async[ \t]+)?def[ \t]+{re.escape(name)}\b", re.M).search(text, start)
        return match.start() if match else -1

    def _def_row(self, filename: str, display_name: str) -> int:
        offset = self._def_offset(filename, display_name)
        return self._text(filename).count("\n", 0, offset) + 1 if offset >= 0 else 0

    def _call_row(self, filename: str, caller_name: str, callee: str, sites: list, site: CallSite) -> int:
        """The line of the call: the k-th `callee(` after the caller's `def`, k its place among that caller's calls
        of the callee (0 when the text does not show it: a function called through an attribute of another name)."""
        offset = self._def_offset(filename, caller_name)
        if offset < 0:
            return 0
        text = self._text(filename)
        earlier = sum(1 for other in sites if other.caller_key == site.caller_key and other.ordinal < site.ordinal)
        pattern = re.compile(rf"\b{re.escape(callee)}\s*\(")
        position = offset
        match = None
        for _ in range(earlier + 1):
            match = pattern.search(text, position)
            if match is None:
                return 0
            position = match.end()
        return text.count("\n", 0, match.start()) + 1


def _same_file(filename: str, path: Path) -> bool:
    from jitlint.paths import resolved

    return filename == str(path) or resolved(Path(filename)) == resolved(path)


def _root_reason(entry: "CapturedFunction | None", function: FunctionInfo) -> str:
    """Why a root is captured, the same whichever process explored it first: the least reason it was enqueued with
    (`capture.reason_order`), or for
    a method captured for several classes, the first of them by file and name (`CaptureMap.finalize`'s order)."""
    if entry is None:
        return ""
    if entry.owners and entry.reason.startswith("forward of "):
        return f"forward of {entry.owners[0].name}"
    return entry.reason
