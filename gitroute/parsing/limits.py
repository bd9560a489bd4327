"""What one file may cost to extract, whatever the repository's configuration says: the ceilings and their reasons.

The byte ceiling (`config.SAFE_MAX_FILE_BYTES`, which a committed `.gitroute.toml` cannot raise) bounds what a file
costs on ordinary input: tree-sitter's trees take 50-250 bytes of memory per byte of source (a run of open
parentheses is the worst measured) and 0.15-0.3 s of CPU per MiB. Some input costs far more time: unbalanced quotes
9 s per MiB (error recovery), and comment lines after an indented Python block are quadratic (the grammar's scanner
looks past all of them for each one: 1 MiB of them took 49 s). The guards here hold whatever bytes get through, the
command line's `--max-file-bytes` included:

- a code file whose lines average more than `MINIFIED_MEAN_LINE` bytes is minified or generated: parsing it costs
  as much as any file of its size and yields mangled names, so it is skipped as "minified";
- a parse whose memory grows past `PARSE_MEMORY_CEILING`, or whose CPU time passes `PARSE_SECONDS` plus
  `PARSE_SECONDS_PER_MIB` per MiB of the file, is cancelled from tree-sitter's progress callback, and the file is
  skipped as "parse-limit". The time ceiling is ten times what an ordinary file takes; it is the one limit whose
  outcome depends on the machine, for a file near it.
"""
from __future__ import annotations

import contextlib
import os
import resource
import time

# Hand-written code averages 20-40 bytes a line; the longest lines of any bench corpus file average 1,767 bytes
# (jsoup's EntitiesData.java, a table in string literals); django's vendored `*.min.js` average 9,000-40,000.
MINIFIED_MEAN_LINE = 4096
MINIFIED_MIN_BYTES = 64 * 1024  # below this a file costs little to parse, whatever its lines
PARSE_MEMORY_CEILING = 1 << 30  # bytes one file's parse may add to the process's memory
# Below this a parse cannot come near either ceiling (at 250 bytes a byte, 16 MiB; quadratic comment lines, 0.2 s),
# and it runs unguarded: the guarded parse costs a tenth more (5 % of django's build, most of whose files are small).
GUARDED_MIN_BYTES = 64 * 1024
PARSE_SECONDS = 5.0  # CPU seconds any parse may take, plus:
PARSE_SECONDS_PER_MIB = 2.0
_CHECK_EVERY = 8  # progress calls (about 100 parser steps each) between two checks
_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096

MINIFIED = "minified"
PARSE_LIMIT = "parse-limit"


class ExtractLimit(Exception):
    """A file that passes a per-file ceiling: skipped with `reason` (a skip reason the build reports)."""

    def __init__(self, reason: str, detail: str) -> None:
        super().__init__(f"{reason}: {detail}")
        self.reason = reason
        self.detail = detail


def check_minified(data: bytes) -> None:
    """Raise ExtractLimit("minified") when `data` reads as minified or generated code."""
    if len(data) < MINIFIED_MIN_BYTES:
        return
    mean = len(data) // (data.count(b"\n") + 1)
    if mean > MINIFIED_MEAN_LINE:
        raise ExtractLimit(MINIFIED, f"lines average {mean} bytes (more than {MINIFIED_MEAN_LINE})")


def resident_bytes() -> int:
    """The process's resident memory now (Linux), else its peak so far."""
    try:
        with open("/proc/self/statm", "rb") as statm:
            return int(statm.read().split()[1]) * _PAGE
    except (OSError, ValueError, IndexError):
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        return peak * 1024 if os.uname().sysname == "Linux" else peak


class ParseWatch:
    """tree-sitter's progress callback for one parse of `size` bytes: True (cancel) once the process has grown by the
    memory ceiling or the parse has used its CPU seconds; `exceeded` then says which. `close` when the parse is over.

    The process's memory is read from /proc/self/statm kept open for the parse (one `pread` a check): opening it
    at every check was a fifth of a guarded parse's time. (Opened here, not once per process: a forked worker's
    inherited descriptor would read its parent's memory.)"""

    def __init__(self, size: int) -> None:
        self.memory_ceiling = PARSE_MEMORY_CEILING
        try:
            self.statm: int | None = os.open("/proc/self/statm", os.O_RDONLY)
        except OSError:
            self.statm = None
        self.memory_limit = self.resident() + self.memory_ceiling
        self.seconds = PARSE_SECONDS + PARSE_SECONDS_PER_MIB * size / (1 << 20)
        self.deadline = time.process_time() + self.seconds
        self.calls = 0
        self.exceeded = ""

    def resident(self) -> int:
        """As `resident_bytes`, through the descriptor held open."""
        if self.statm is not None:
            try:
                return int(os.pread(self.statm, 128, 0).split()[1]) * _PAGE
            except (OSError, ValueError, IndexError):
                pass
        return resident_bytes()

    def close(self) -> None:
        if self.statm is not None:
            with contextlib.suppress(OSError):
                os.close(self.statm)
            self.statm = None

    def __call__(self, offset: int, has_error: bool) -> bool:
        self.calls += 1
        if self.calls % _CHECK_EVERY == 0 and not self.exceeded:
            if self.resident() > self.memory_limit:
                self.exceeded = f"parsing took more than {self.memory_ceiling >> 20} MiB"
            elif time.process_time() > self.deadline:
                self.exceeded = f"parsing took more than {self.seconds:.1f} s of CPU"
        return bool(self.exceeded)
