"""Which bundle commits this repository's own builds wrote: the only bundles whose extractions a build reuses.

A fetch can put anything under `refs/marola/*`; it cannot touch `<common git dir>/gitroute/`. A
build reuses per-file extraction results only from a bundle commit named here, so a fetched
bundle never decides what a later build believes. Each id is recorded with the salt of the code that
wrote it (the memo's: gitroute's source, the grammars, Python), so a build by changed code (a parser
query edited, an upgrade) extracts again rather than reuse what the old code made.
"""
from __future__ import annotations

import contextlib
import os

from gitroute.bundle.memo import code_salt

MAX_OWN_BUNDLES = 16  # enough for a few refs and worktrees; older bundles are rebuilt, not trusted
OWN_BUNDLES = os.path.join("gitroute", "own-bundles")


def _record_path(common_dir: str) -> str:
    return os.path.join(common_dir, OWN_BUNDLES)


def read_own_bundles(common_dir: str) -> list[str]:
    """The bundle commit ids this code recorded, oldest first; an unreadable record trusts nothing."""
    salt = code_salt()
    try:
        with open(_record_path(common_dir), encoding="ascii") as f:
            lines = f.read().splitlines()
    except (OSError, ValueError):
        return []
    return [commit for commit, _, by in (line.partition(" ") for line in lines)
            if by == salt and commit and commit.strip("0123456789abcdef") == ""]


def is_own_bundle(common_dir: str, commit_id: str) -> bool:
    return commit_id in read_own_bundles(common_dir)


def remember_own_bundle(common_dir: str, commit_id: str) -> None:
    """Add a bundle this build wrote, keeping the newest MAX_OWN_BUNDLES; written whole, then renamed.

    Two builds at once may each drop the other's id: that costs a re-extraction, never trust.
    """
    ids = [i for i in read_own_bundles(common_dir) if i != commit_id][-(MAX_OWN_BUNDLES - 1):] + [commit_id]
    path = _record_path(common_dir)
    tmp = f"{path}.{os.getpid()}.tmp"
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(tmp, "w", encoding="ascii") as f:
            f.write("".join(f"{i} {code_salt()}\n" for i in ids))
        os.replace(tmp, path)
    except OSError:
        # A build that cannot record its bundle still succeeds; the next one extracts everything.
        with contextlib.suppress(OSError):
            os.unlink(tmp)
