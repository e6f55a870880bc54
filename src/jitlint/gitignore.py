""".gitignore files, as git reads them, for discovery (`--no-respect-gitignore` turns them off).

The patterns of a `.gitignore` apply to the paths below its directory, a deeper file's after a shallower one's, and
the last pattern that matches a path decides (`!pattern` re-includes). A pattern with a slash before its end is
anchored to the file's directory, one without matches a name at any depth; a trailing slash matches directories
only; `*` and `?` do not cross a slash, `**` does. The repository's `.git/info/exclude` counts as a `.gitignore` at
its root. Git's own rule that a file in an excluded directory cannot be re-included holds because discovery does
not walk into an excluded directory.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class _Pattern:
    regex: re.Pattern
    negated: bool
    directory_only: bool


def _translate(glob: str) -> str:
    """A gitignore glob (slashes kept) as a regular expression over a relative posix path."""
    out = []
    index = 0
    while index < len(glob):
        char = glob[index]
        if char == "*":
            if glob.startswith("**", index):
                before_ok = index == 0 or glob[index - 1] == "/"
                after = glob[index + 2:index + 3]
                if before_ok and after == "/":
                    out.append("(?:.*/)?")  # `**/`: any number of directories, none too
                    index += 3
                    continue
                if before_ok and after == "":
                    out.append(".*")  # a trailing `/**`: everything inside
                    index += 2
                    continue
            out.append("[^/]*")
        elif char == "?":
            out.append("[^/]")
        elif char == "[":
            end = glob.find("]", index + 1)
            if end < 0:
                out.append(re.escape(char))
            else:
                body = glob[index + 1:end]
                if body.startswith("!"):
                    body = "^" + body[1:]
                out.append(f"[{body}]")
                index = end + 1
                continue
        elif char == "\\" and index + 1 < len(glob):
            out.append(re.escape(glob[index + 1]))
            index += 2
            continue
        else:
            out.append(re.escape(char))
        index += 1
    return "".join(out)


def parse(text: str) -> list[_Pattern]:
    patterns = []
    for line in text.splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        line = re.sub(r"(?<!\\)\s+$", "", line)
        negated = line.startswith("!")
        if negated:
            line = line[1:]
        elif line.startswith("\\!") or line.startswith("\\#"):
            line = line[1:]
        directory_only = line.endswith("/")
        line = line.rstrip("/")
        if not line:
            continue
        anchored = "/" in line
        line = line.lstrip("/")
        body = _translate(line)
        regex = re.compile(("^" if anchored else "^(?:.*/)?") + body + "$")
        patterns.append(_Pattern(regex, negated, directory_only))
    return patterns


class GitIgnore:
    """The `.gitignore` files that apply to a walk from `top`: those of the directories walked, and in a repository
    those of the parents up to its root (the directory with `.git`), and its `.git/info/exclude`."""

    def __init__(self, top: Path) -> None:
        self.top = os.path.abspath(top)
        self._files: dict[str, list[_Pattern]] = {}
        self._chains: dict[str, list[str] | None] = {}
        self._applying: dict[str, list[tuple[str, list[_Pattern]]]] = {}

    def _load(self, directory: str) -> list[_Pattern]:
        found = self._files.get(directory)
        if found is None:
            found = []
            for name in (".gitignore", os.path.join(".git", "info", "exclude")):
                try:
                    with open(os.path.join(directory, name), encoding="utf-8", errors="replace") as file:
                        found.extend(parse(file.read()))
                except OSError:
                    continue
            self._files[directory] = found
        return found

    def _chain(self, directory: str) -> list[str] | None:
        """The directories whose `.gitignore` applies to entries of `directory`, outermost first, up to the root of
        the repository it is in; None outside a repository."""
        if directory not in self._chains:
            if os.path.exists(os.path.join(directory, ".git")):
                chain = [directory]
            else:
                parent = os.path.dirname(directory)
                above = None if parent == directory else self._chain(parent)
                chain = None if above is None else [*above, directory]
            self._chains[directory] = chain
        return self._chains[directory]

    def _applicable(self, directory: str) -> list[tuple[str, list[_Pattern]]]:
        """The directories with patterns that apply to entries of `directory`, outermost first, with them."""
        found = self._applying.get(directory)
        if found is None:
            chain = self._chain(directory)
            if chain is None:  # not in a repository: the `.gitignore` files of the walk's own directories
                chain = _upwards(directory, self.top)
            found = self._applying[directory] = [(base, self._load(base)) for base in chain if self._load(base)]
        return found

    def ignored(self, path: Path, is_dir: bool) -> bool:
        """Whether git ignores `path`, by the `.gitignore` files that apply to it (the last match decides)."""
        absolute = os.path.abspath(path)
        applicable = self._applicable(os.path.dirname(absolute))
        if not applicable:
            return False
        verdict = False
        for base, patterns in applicable:
            relative = os.path.relpath(absolute, base).replace(os.sep, "/")
            for pattern in patterns:
                if pattern.directory_only and not is_dir:
                    continue
                if pattern.regex.match(relative):
                    verdict = not pattern.negated
        return verdict


def _upwards(directory: str, top: str) -> list[str]:
    """`top` and the directories below it down to `directory` (just `directory` when it is not below `top`)."""
    if directory != top and not directory.startswith(top.rstrip(os.sep) + os.sep):
        return [directory]
    parts = []
    current = directory
    while current != top:
        parts.append(current)
        current = os.path.dirname(current)
    return [top, *reversed(parts)]
