"""Hands the C allocator's free pages back to the system while a run parses and lints many files.

LibCST's native parser allocates and frees large buffers for every file, and Python puts its larger objects on the
C heap too. glibc's `malloc` keeps what is freed in the middle of its heaps resident until `malloc_trim` is called,
so a process that parses and lints hundreds of files carries their garbage in its RSS; one `malloc_trim(0)` gives
a noticeable part of it back.

Pages handed back are faulted in again when the heap reuses them, so trimming costs more than the call itself:
trimming at every small growth multiplied the minor page faults and the system time, while a larger step lowered
the peak just as much (the figures are in bench/records/2026-11-24-figures-behind-code-choices.md). So `settle`, called after each file parsed or linted, trims only when the RSS has
grown `STEP_BYTES` since the last trim: at most once per step of growth, never while the process stays flat. Where
there is no `malloc_trim` or no `/proc/self/statm` (macOS, musl) this does nothing."""

from __future__ import annotations

import os

STEP_BYTES = 32 * 1024 * 1024
_STATM = "/proc/self/statm"

_trim = None  # the C function once looked up; False where there is none
_baseline = 0  # RSS in bytes after the last trim


def _function():
    global _trim
    if _trim is None:
        try:
            import ctypes

            function = ctypes.CDLL(None).malloc_trim
            function.argtypes = [ctypes.c_size_t]
            function.restype = ctypes.c_int
            _trim = function if os.path.exists(_STATM) else False
        except (OSError, AttributeError):
            _trim = False
    return _trim


def rss() -> int:
    """This process's resident set in bytes (0 where /proc is not there)."""
    try:
        with open(_STATM, "rb") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


def release() -> None:
    """Return the C heaps' free pages to the system now."""
    global _baseline
    function = _function()
    if function:
        function(0)
        _baseline = rss()


def settle() -> None:
    """After a file is parsed or linted: trim if the process has grown by `STEP_BYTES` since the last trim."""
    global _baseline
    if not _function():
        return
    now = rss()
    if now - _baseline >= STEP_BYTES:
        release()
    elif now < _baseline:  # freed since: growth counts from here
        _baseline = now
