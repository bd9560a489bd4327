"""Bytes a build sets aside on disk until it needs them again: extraction's encodings and the files' own bytes.

A build holds every file's result at once; its encodings (the JSON the bundle stores, the extraction cache's
bytes) are needed again only when the last file of their shard is done, and a file's bytes only when an index scans
its text. Held in memory, they were most of a kernel-sized build's (1.5 GB of source, as much again of JSON). Here
each process appends what it sets aside to a file of its own, in a folder of the build's under the memo's, and
hands back where it is; any process of the build reads it back by `pread`. The operating system's page cache keeps
what fits, and writes back the rest: none of it is in a process's memory.
"""
from __future__ import annotations

import contextlib
import os
import shutil
from typing import BinaryIO, NamedTuple

SPILL_DIR = os.path.join("gitroute", "spill")


class Spilled(NamedTuple):
    """Where bytes were set aside: the writing process's file, the offset and the length."""

    pid: int
    offset: int
    length: int


Spot = Spilled | bytes  # where bytes were set aside, or (no folder to write) the bytes themselves


class Spill:
    """One build's folder of set-aside bytes (`<common git dir>/gitroute/spill/<pid>/`), removed by `close`.

    Forked workers inherit it and write to files of their own (by pid), so no two processes ever write one file.
    Where the folder cannot be made or written (a repository the user may not write, a full disk), the bytes
    themselves stand for where they are: kept in memory, as a build without a spill kept them (which then fails, if
    it does, where it writes objects: that failure is named)."""

    def __init__(self, common_dir: str) -> None:
        parent = os.path.join(common_dir, SPILL_DIR)
        _remove_stale(parent)
        self.folder = os.path.join(parent, str(os.getpid()))
        try:
            os.makedirs(self.folder, exist_ok=True)
            self.on_disk = True
        except OSError:
            self.on_disk = False
        self._writer: tuple[int, BinaryIO] | None = None  # (pid, open file): a forked worker opens its own
        self._readers: dict[int, int] = {}  # writing pid -> a descriptor of its file, in this process
        self._reader_pid = os.getpid()
        self.failed: set[int] = set()  # processes that could not write their file

    def put(self, data: bytes) -> Spot:
        pid = os.getpid()
        if not self.on_disk or pid in self.failed:
            return data
        try:
            if self._writer is None or self._writer[0] != pid:
                self._writer = (pid, open(os.path.join(self.folder, str(pid)), "ab"))
            f = self._writer[1]
            offset = f.tell()
            f.write(data)
            f.flush()  # readable by the other processes as soon as its place is handed over
        except OSError:
            self.failed.add(pid)  # this process's file may end part-written: nothing more goes there
            return data
        return Spilled(pid, offset, len(data))

    def get(self, where: Spot) -> bytes:
        if isinstance(where, bytes):
            return where
        if self._reader_pid != os.getpid():  # forked: descriptors of its own (an inherited one's offset is shared)
            self._readers, self._reader_pid = {}, os.getpid()
        fd = self._readers.get(where.pid)
        if fd is None:
            fd = self._readers[where.pid] = os.open(os.path.join(self.folder, str(where.pid)), os.O_RDONLY)
        data = os.pread(fd, where.length, where.offset)
        if len(data) != where.length:
            raise OSError(f"set-aside bytes cut short in '{self.folder}'")
        return data

    def close(self) -> None:
        """Remove the folder (in the process that made it)."""
        if self._writer is not None and self._writer[0] == os.getpid():
            with contextlib.suppress(OSError):  # a full disk: what is left unwritten is removed anyway
                self._writer[1].close()
        self._writer = None
        for fd in self._readers.values():
            with contextlib.suppress(OSError):
                os.close(fd)
        self._readers = {}
        if self.on_disk and os.path.basename(self.folder) == str(os.getpid()):
            shutil.rmtree(self.folder, ignore_errors=True)

    def __enter__(self) -> Spill:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _remove_stale(parent: str) -> None:
    """The folders of builds that are gone (killed before they could remove their own)."""
    try:
        names = os.listdir(parent)
    except OSError:
        return
    for name in names:
        if name.isdigit() and not _alive(int(name)):
            shutil.rmtree(os.path.join(parent, name), ignore_errors=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


class Scratch:
    """Bytes one process sets aside for itself, in an anonymous temporary file: nothing to name or remove, and gone
    when it is closed or the process dies. For what a single step of one process sets aside and reads back before it
    ends (a table's postings, batch by batch: `bundle.tables`)."""

    def __init__(self) -> None:
        import tempfile

        self._file: BinaryIO = tempfile.TemporaryFile()
        self._end = 0

    def put(self, data: bytes) -> tuple[int, int]:
        """Where `data` now is: its offset and length."""
        self._file.write(data)
        where = (self._end, len(data))
        self._end += len(data)
        return where

    def get(self, where: tuple[int, int]) -> bytes:
        self._file.flush()
        data = os.pread(self._file.fileno(), where[1], where[0])
        if len(data) != where[1]:
            raise OSError("set-aside bytes cut short")
        return data

    def close(self) -> None:
        self._file.close()

    def __enter__(self) -> Scratch:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
