"""The one environment policy for every git process gitroute starts, and `run_git`.

Replace refs and grafts are off, so an answer is exactly what the pinned commit holds; git never
prompts (hooks and CI have no terminal) and runs no external diff. Given a git dir, the process is
pinned to it and every other GIT_* variable that could point it elsewhere is dropped; without one,
the caller's environment finds the repository exactly as git does (GIT_DIR, GIT_WORK_TREE, -C).
"""
from __future__ import annotations

import os
import signal
import subprocess
from collections.abc import Sequence

from gitroute.errors import GitrouteError, NotARepository

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
    if returncode == -signal.SIGINT:
        raise KeyboardInterrupt


def run_git(args: Sequence[str], cwd: str, *, git_dir: str | None = None,
            stdin: bytes | None = None) -> subprocess.CompletedProcess:
    """`git ARGS` in `cwd` under the policy above; its output captured, never raised on a non-zero exit."""
    try:
        result = subprocess.run(["git", *args], cwd=cwd, input=stdin, capture_output=True, env=git_env(git_dir))
    except FileNotFoundError as err:
        raise GitrouteError("git is not on PATH") from err
    except NotADirectoryError as err:
        raise NotARepository(f"not a git repository: '{cwd}'") from err
    stop_if_interrupted(result.returncode)
    return result
