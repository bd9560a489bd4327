"""The one environment policy for every git process gitroute starts, and `run_git`.

Replace refs and grafts are off, so an answer is exactly what the pinned commit holds; git never
prompts (hooks and CI have no terminal) and runs no external diff. Given a git dir, the process is
pinned to it and every other GIT_* variable that could point it elsewhere is dropped; without one,
the caller's environment finds the repository exactly as git does (GIT_DIR, GIT_WORK_TREE, -C).
"""
from __future__ import annotations

import os
from collections.abc import Sequence
from stat import S_ISDIR

from gitroute.errors import GitrouteError, NotARepository

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing on the query path
if TYPE_CHECKING:
    import subprocess
    from typing import BinaryIO

NO_GRAFTS = os.devnull + "/none"  # a graft file that cannot exist: no grafts


def git_env(git_dir: str | None = None) -> dict[str, str]:
    if git_dir is None:
        env = dict(os.environ)
    else:
        env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
        env["GIT_DIR"] = git_dir
    env.update(GIT_NO_REPLACE_OBJECTS="1", GIT_GRAFT_FILE=NO_GRAFTS, GIT_TERMINAL_PROMPT="0")
    env.pop("GIT_EXTERNAL_DIFF", None)
    return env


def stop_if_interrupted(returncode: int | None) -> None:
    """A git child killed by SIGINT got the user's Ctrl-C (it shares our process group): stop as an
    interrupt (exit 130), never as a git failure (exit 128) reported before Python's own interrupt."""
    if returncode is not None and returncode < 0:
        import signal

        if returncode == -signal.SIGINT:
            raise KeyboardInterrupt


def run_git(args: Sequence[str], cwd: str, *, git_dir: str | None = None,
            stdin: bytes | None = None) -> subprocess.CompletedProcess:
    """`git ARGS` in `cwd` under the policy above; its output captured, never raised on a non-zero exit."""
    import subprocess

    try:
        result = subprocess.run(["git", *args], cwd=cwd, input=stdin, capture_output=True, env=git_env(git_dir))
    except FileNotFoundError as err:
        raise GitrouteError("git is not on PATH") from err
    except NotADirectoryError as err:
        raise NotARepository(f"not a git repository: '{cwd}'") from err
    stop_if_interrupted(result.returncode)
    return result


# --- the answering path's git processes, without `subprocess` ---------------------------------------------------
# A cold answer is a process start: `subprocess` imports threading, signal, selectors, locale and contextlib, ~7 ms
# of CPU of a ~65 ms name query. An answer starts two git processes, each with pipes and no shell: posix_spawn does
# that (as subprocess does on Linux), and `git -C` takes the place of a working directory it cannot set.


class GitProcess:
    """A git process started by `spawn_git`: its pid, its stdin, stdout and stderr pipes (buffered, as `Popen`'s
    are), and `wait`, `kill` and `returncode` as `subprocess.Popen` has them."""

    __slots__ = ("pid", "stdin", "stdout", "stderr", "returncode")

    def __init__(self, pid: int, stdin: BinaryIO, stdout: BinaryIO, stderr: BinaryIO) -> None:
        self.pid, self.stdin, self.stdout, self.stderr = pid, stdin, stdout, stderr
        self.returncode: int | None = None

    def wait(self, timeout: float | None = None) -> int:
        """The exit code (minus a signal's number when one ended it); raises TimeoutError after `timeout` s."""
        if self.returncode is None:
            if timeout is None:
                self.returncode = os.waitstatus_to_exitcode(os.waitpid(self.pid, 0)[1])
            else:
                import time

                end = time.monotonic() + timeout
                while True:
                    pid, status = os.waitpid(self.pid, os.WNOHANG)
                    if pid:
                        self.returncode = os.waitstatus_to_exitcode(status)
                        break
                    if time.monotonic() > end:
                        raise TimeoutError(f"git process {self.pid} still running after {timeout} s")
                    time.sleep(0.005)
        return self.returncode

    def kill(self) -> None:
        if self.returncode is None:
            import signal

            try:
                os.kill(self.pid, signal.SIGKILL)
            except ProcessLookupError:  # ended already; `wait` reaps it
                pass


def spawn_git(args: Sequence[str], cwd: str, *, git_dir: str | None = None) -> GitProcess:
    """`git ARGS` started in `cwd` under the policy above, with pipes for its stdin, stdout and stderr. Raises what
    `subprocess.Popen` raises: FileNotFoundError for no git on PATH or no folder at `cwd`, NotADirectoryError
    for a `cwd` that is not a folder."""
    from _signal import SIGPIPE, SIGXFSZ  # type: ignore[import-not-found]  # `signal` builds enums: ~1 ms

    if not S_ISDIR(os.stat(cwd).st_mode):  # FileNotFoundError when there is nothing there
        raise NotADirectoryError(20, "Not a directory", cwd)
    pipes = [os.pipe() for _ in range(3)]  # made non-inheritable: only the ends dup'ed below reach git
    ends = (pipes[0][0], pipes[1][1], pipes[2][1])  # git's stdin, stdout, stderr
    try:
        pid = os.posix_spawnp("git", ["git", "-C", cwd, *args], git_env(git_dir),
                              file_actions=[(os.POSIX_SPAWN_DUP2, end, k) for k, end in enumerate(ends)],
                              setsigdef=(SIGPIPE, SIGXFSZ))  # as subprocess restores them: Python ignores both
    except BaseException:
        for read, write in pipes:
            os.close(read)
            os.close(write)
        raise
    for end in ends:
        os.close(end)
    return GitProcess(pid, open(pipes[0][1], "wb"), open(pipes[1][0], "rb"), open(pipes[2][0], "rb"))


class GitResult:
    """What `read_git` gives: `returncode`, `stdout` and `stderr`, as `run_git`'s CompletedProcess has them."""

    __slots__ = ("returncode", "stdout", "stderr")

    def __init__(self, returncode: int, stdout: bytes, stderr: bytes) -> None:
        self.returncode, self.stdout, self.stderr = returncode, stdout, stderr


def read_git(args: Sequence[str], cwd: str) -> GitResult:
    """`run_git` for a command whose output and errors are a few lines (a ref, a branch, two counts): read one
    after the other, which a pipe's buffer (64 KiB) holds, by a process `spawn_git` starts."""
    try:
        proc = spawn_git(args, cwd)
    except FileNotFoundError as err:
        raise GitrouteError("git is not on PATH") from err
    except NotADirectoryError as err:
        raise NotARepository(f"not a git repository: '{cwd}'") from err
    proc.stdin.close()
    with proc.stdout, proc.stderr:
        out, err_text = proc.stdout.read(), proc.stderr.read()
    returncode = proc.wait()
    stop_if_interrupted(returncode)
    return GitResult(returncode, out, err_text)
