"""Read-only access to the object database through `git cat-file --batch`, for the answering path.

A cold query is a process start: importing pygit2 alone costs more than a whole `git cat-file`
round trip, so answers read the bundle through one long-lived `cat-file` process instead.
Every git process here runs under `env.git_env`: no replace refs, no grafts.
"""
from __future__ import annotations

import os
from collections.abc import Sequence

from gitroute.errors import GitrouteError, NotARepository
from gitroute.git.env import GitProcess, read_git, run_git, spawn_git, stop_if_interrupted

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing on the query path
if TYPE_CHECKING:
    import threading

__all__ = ["ObjectReader", "ObjectTooLarge", "ahead_behind", "current_branch", "ref_target", "run_git",
           "work_tree_top"]

# A request this short fits in any pipe's buffer, so writing it whole cannot block on git (Linux: 64 KiB).
_PIPE_SAFE_BYTES = 4096


class ObjectTooLarge(Exception):
    """An object larger than the caller allowed: `index` is its spec's place in the request, `size` its size."""

    def __init__(self, index: int, size: int) -> None:
        super().__init__(f"object {index} has {size} bytes")
        self.index = index
        self.size = size


class ObjectReader:
    """One `git cat-file --batch` process (`env.spawn_git`); objects are read by spec (`<commit>:<path>`, an id, a
    ref)."""

    def __init__(self, cwd: str) -> None:
        self.cwd = cwd
        self._proc: GitProcess | None = None

    def start(self) -> None:
        self._process()

    def _process(self) -> GitProcess:
        if self._proc is None:
            self._proc = spawn_git(["cat-file", "--batch"], self.cwd)
        return self._proc

    def read(self, specs: Sequence[str],
             most: Sequence[int | None] | None = None) -> list[tuple[str, str, bytes] | None]:
        """(object id, type, content) per spec, None where the object is missing.

        `most`: per spec, the most bytes its object may have (None: any). A larger one raises ObjectTooLarge
        before its content is read: git says the size first, and the process is stopped rather than drained."""
        if not specs:
            return []
        proc = self._process()
        assert proc.stdin is not None and proc.stdout is not None
        for spec in specs:
            if "\n" in spec:
                raise GitrouteError(f"cannot read an object named with a newline: {spec!r}")
        request = "".join(f"{spec}\n" for spec in specs).encode("utf-8", "surrogateescape")
        writer = None
        if len(request) <= _PIPE_SAFE_BYTES:
            self._write(request, proc)
        else:
            # A long request written whole before any answer is read deadlocks once git's answers fill its
            # stdout pipe: git stops reading, and the write blocks (a warm server pinning a kernel-sized bundle).
            import threading

            writer = threading.Thread(target=self._write, args=(request, proc), daemon=True)
            writer.start()
        results: list[tuple[str, str, bytes] | None] = []
        for n, _ in enumerate(specs):
            header = proc.stdout.readline()
            if not header:
                self._fail()
            fields = header.split()
            if len(fields) >= 2 and fields[-1] in (b"missing", b"ambiguous"):
                results.append(None)
                continue
            oid, kind, size = fields[0].decode(), fields[1].decode(), int(fields[2])
            if most is not None and most[n] is not None and size > most[n]:  # type: ignore[operator]
                self._stop(writer)
                raise ObjectTooLarge(n, size)
            content = proc.stdout.read(size)
            proc.stdout.read(1)  # the newline after the content
            results.append((oid, kind, content))
        if writer is not None:
            writer.join()
        return results

    def _write(self, request: bytes, proc: GitProcess) -> None:
        assert proc.stdin is not None
        try:
            proc.stdin.write(request)
            proc.stdin.flush()
        except (BrokenPipeError, ValueError):  # ValueError: the stream closed by `_stop`
            pass  # git has stopped: the reader sees its stdout end, and fails with its exit status

    def _fail(self) -> None:
        assert self._proc is not None
        stop_if_interrupted(self._proc.wait())
        stderr = self._proc.stderr.read().decode("utf-8", "replace") if self._proc.stderr else ""
        self._proc = None
        if "not a git repository" in stderr:
            raise NotARepository(f"not a git repository: '{os.path.abspath(self.cwd)}'")
        last = stderr.strip().splitlines()[-1] if stderr.strip() else "git cat-file stopped"
        raise GitrouteError(f"cannot read objects: {last.removeprefix('fatal: ')}")

    def _stop(self, writer: threading.Thread | None) -> None:
        """Stop git mid-answer (what it has still to say is not wanted); the next read starts another."""
        proc, self._proc = self._proc, None
        if proc is None:
            return
        proc.kill()
        proc.wait()
        if writer is not None:
            writer.join()  # its write ends with a broken pipe
        for stream in (proc.stdin, proc.stdout, proc.stderr):
            if stream:
                try:
                    stream.close()
                except OSError:  # a request still buffered for a process that is gone
                    pass

    def close(self) -> None:
        if self._proc is not None:
            if self._proc.stdin:
                self._proc.stdin.close()
            self._proc.wait()
            for stream in (self._proc.stdout, self._proc.stderr):
                if stream:
                    stream.close()
            self._proc = None

    def __enter__(self) -> ObjectReader:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def current_branch(cwd: str) -> str | None:
    """The branch HEAD is on (None when detached); raises NotARepository outside a repository."""
    result = read_git(["symbolic-ref", "-q", "--short", "HEAD"], cwd)
    if result.returncode == 0:
        return result.stdout.decode("utf-8", "replace").strip()
    stderr = result.stderr.decode("utf-8", "replace")
    if "not a git repository" in stderr:
        raise NotARepository(f"not a git repository: '{os.path.abspath(cwd)}'")
    return None


def ref_target(cwd: str, ref: str) -> str | None:
    """The object id a ref holds, whether or not that object exists; None when there is no such ref."""
    result = read_git(["rev-parse", "-q", "--verify", "--end-of-options", ref], cwd)
    return result.stdout.decode("ascii", "replace").strip() or None if result.returncode == 0 else None


def ahead_behind(cwd: str, base: str, head: str) -> tuple[int, int] | None:
    """(commits `head` has that `base` has not, commits `base` has that `head` has not); None if git cannot tell.

    Both are object ids, one of them read from a bundle: `--end-of-options` keeps any value from
    being taken as an option, whatever the caller checked.
    """
    result = read_git(["rev-list", "--left-right", "--count", "--end-of-options", f"{base}...{head}"], cwd)
    if result.returncode != 0:
        return None
    try:
        only_base, only_head = (int(n) for n in result.stdout.split())
    except ValueError:
        return None
    return only_head, only_base


def work_tree_top(cwd: str) -> str:
    """The top folder of the work tree; raises NotARepository outside one."""
    result = read_git(["rev-parse", "--show-toplevel"], cwd)
    if result.returncode != 0:
        raise NotARepository(f"not a git work tree: '{os.path.abspath(cwd)}'")
    return result.stdout.decode("utf-8", "surrogateescape").strip()
