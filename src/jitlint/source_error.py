"""Why a file yields no tree: a finding for that file, never an exception."""

from __future__ import annotations

import errno
import os
from dataclasses import dataclass
from pathlib import Path

from jitlint import pages
from jitlint.codes import CODES
from jitlint.finding import Finding, Location


@dataclass
class SourceError:
    path: Path
    display_name: str
    code: str  # JIT001 (cannot parse) or JIT002 (cannot read or decode)
    message: str
    row: int = 1
    column: int = 1

    def finding(self) -> Finding:
        name, severity = CODES[self.code][:2]
        location = Location(self.row, self.column)
        return Finding(self.code, name, self.message, severity, self.display_name, location, location,
                       url=pages.url(self.code))


def cannot_read(path: Path, error: OSError) -> str:
    """The one wording of why a file cannot be read, wherever it is found (named or walked)."""
    if error.errno == errno.ELOOP:
        return "cannot read: a symbolic link that loops"
    if error.errno == errno.ENOENT and os.path.islink(path):
        return "cannot read: a broken symbolic link (its target does not exist)"
    return f"cannot read: {error.strerror or error}"

