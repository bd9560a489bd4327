"""Run inside a private mount namespace by tests/test_faults.py: builds on a small tmpfs filled to N KiB free.

    python tests/disk_full.py MOUNT SOURCE_REPO STEPS

MOUNT is an empty folder, SOURCE_REPO a repository outside it. The script mounts a tmpfs on MOUNT (it must
run as root of its namespace: `unshare --mount [--map-root-user]`), builds once with room to spare to learn
how much a build writes (NEED), then builds with no room, with half of NEED, and with NEED less 0, 4, 8, ...
KiB (STEPS of them: the last writes of a build are the trees, the commit and the ref's lock file, a page
each). Each time it clones the source into the tmpfs, fills the tmpfs to leave that much free, runs
`git route build` and prints one JSON line of what came of it (exit code, stderr, what git left behind in
.git, the bundle ref, git fsck's exit code), then removes both.
"""
from __future__ import annotations

import glob
import json
import os
import shutil
import subprocess
import sys

TMPFS_KIB = 8192


def free_kib(path: str) -> int:
    stat = os.statvfs(path)
    return stat.f_bavail * stat.f_frsize // 1024


def fill(path: str, leave_kib: int) -> None:
    """A file that takes all but `leave_kib` of the file system's free space."""
    with open(os.path.join(path, "filler"), "wb") as f:
        if leave_kib >= free_kib(path):
            return
        while free_kib(path) > leave_kib:
            f.write(b"\0" * min(64, free_kib(path) - leave_kib) * 1024)
            f.flush()
            os.fsync(f.fileno())


def build_with(mount: str, source: str, leave_kib: int) -> dict:
    repo = os.path.join(mount, "repo")
    subprocess.run(["git", "clone", "-q", "--no-hardlinks", source, repo], check=True)
    fill(mount, leave_kib)
    free_before = free_kib(mount)
    result = subprocess.run([sys.executable, "-m", "gitroute", "build"], cwd=repo, capture_output=True, text=True)
    used = free_before - free_kib(mount)
    git_dir = os.path.join(repo, ".git")
    report = {
        "free_kib": free_before,
        "used_kib": used,
        "exit": result.returncode,
        "stderr": result.stderr,
        "leftovers": sorted(os.path.relpath(p, git_dir) for pattern in
                            ("fast_import_crash_*", "objects/pack/tmp_*", "objects/*/tmp_*", "**/*.lock")
                            for p in glob.glob(os.path.join(git_dir, pattern), recursive=True)),
        "bundle": subprocess.run(["git", "for-each-ref", "--format=%(objectname)", "refs/marola/routing-bundle"],
                                 cwd=repo, capture_output=True, text=True).stdout.strip(),
        "fsck": subprocess.run(["git", "fsck", "--no-dangling", "--no-progress"], cwd=repo, capture_output=True,
                               text=True).returncode,
    }
    os.unlink(os.path.join(mount, "filler"))
    shutil.rmtree(repo)
    return report


def main(mount: str, source: str, steps: str) -> None:
    subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={TMPFS_KIB}k", "tmpfs", mount], check=True)
    roomy = build_with(mount, source, TMPFS_KIB)
    need = roomy["used_kib"]
    print(json.dumps(roomy), flush=True)
    for leave in [0, need // 2, *(need - 4 * k for k in range(int(steps)))]:
        print(json.dumps(build_with(mount, source, max(leave, 0))), flush=True)


if __name__ == "__main__":
    main(*sys.argv[1:])
