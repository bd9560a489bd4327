"""A build under Ctrl-C and kill -9: it stops promptly, prints no traceback, leaves no worker behind, keeps the bundle."""
from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import RepoBuilder

BUNDLE_REF = "refs/marola/routing-bundle"
PROJECT_ROOT = Path(__file__).resolve().parents[1]
ROUTE_BIN = os.path.dirname(sys.executable)

pytestmark = pytest.mark.skipif(not os.path.isdir("/proc/self/task"), reason="watches the build's workers in /proc")


def big_python_files(count: int, flavour: str) -> dict[str, str]:
    """`count` Python modules of ~12 KB each: well past the size at which the build starts its worker pool."""
    body = "".join(
        f"    def method_{j}(self, value):\n        total = value * {j}\n"
        f"        return self.helper_{j}(total) + len('{flavour}')\n\n" for j in range(80)
    )
    return {f"pkg{i % 20}/module_{i}.py": f"class Widget{i}:\n{body}\n" for i in range(count)}


def children(pid: int) -> set[int]:
    """Live (not zombie) child processes of `pid`."""
    kids: set[int] = set()
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return kids
    for task in tasks:
        try:
            with open(f"/proc/{pid}/task/{task}/children") as f:
                kids.update(int(k) for k in f.read().split())
        except OSError:
            continue
    return {k for k in kids if alive(k)}


def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            state = f.read().rpartition(")")[2].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")


def is_worker(pid: int) -> bool:
    """A forked Python worker (not a git child such as fast-import)."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return b"git" not in f.read().split(b"\0")[0].rsplit(b"/", 1)[-1]
    except OSError:
        return False


def wait_for_workers(proc: subprocess.Popen, main_pid_of, timeout: float = 60.0) -> set[int]:
    """Poll until the build's main process has forked parser workers; returns their ids."""
    deadline = time.monotonic() + timeout
    while proc.poll() is None and time.monotonic() < deadline:
        main = main_pid_of(proc)
        workers = {k for k in children(main) if is_worker(k)} if main else set()
        if len(workers) >= 2:
            return workers
        time.sleep(0.01)
    raise AssertionError(f"the build never started its workers (exit {proc.poll()})")


@pytest.fixture
def big_repo(make_repo) -> RepoBuilder:
    repo = make_repo("big")
    repo.commit(big_python_files(300, "old"), "old")
    return repo


def start_build(repo: RepoBuilder, *, through_git: bool) -> subprocess.Popen:
    env = dict(os.environ, PYTHONPATH=str(PROJECT_ROOT), PATH=ROUTE_BIN + os.pathsep + os.environ["PATH"])
    command = ["git", "route", "build", "-q", "-j", "2"] if through_git else \
        [sys.executable, "-m", "gitroute", "build", "-q", "-j", "2"]
    return subprocess.Popen(command, cwd=repo.path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, start_new_session=True)


def route_pid(proc: subprocess.Popen) -> int | None:
    """The Python process of `git route` (git's dashed-command wrapper runs it as its child)."""
    kids = children(proc.pid)
    return next(iter(kids), None)


def test_two_sigints_stop_the_build_with_130_quickly_and_keep_the_bundle(big_repo, route):
    built = route(["build", "-q", "-j", "2"], big_repo.path)
    assert built.exit_code == 0, built.stderr
    previous = big_repo.ref(BUNDLE_REF)
    big_repo.commit(big_python_files(300, "new"), "new")  # every blob changes: a full parse

    proc = start_build(big_repo, through_git=True)
    try:
        wait_for_workers(proc, route_pid)
        # Ctrl-C: the terminal signals the group, and git's wrapper forwards one more to its child.
        os.killpg(proc.pid, signal.SIGINT)
        time.sleep(0.05)
        os.killpg(proc.pid, signal.SIGINT)
        sent = time.monotonic()
        _, err = proc.communicate(timeout=10)
        took = time.monotonic() - sent
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
    # git waits for `git-route`, then dies of the SIGINT itself: a shell reports both as 130.
    assert proc.returncode in (130, -signal.SIGINT), err
    assert "Traceback" not in err, err
    assert err.strip().splitlines() == ["fatal: interrupted"], err
    assert took < 3.0, f"took {took:.1f} s to stop"
    assert big_repo.ref(BUNDLE_REF) == previous


def test_sigint_stops_every_worker(big_repo):
    proc = start_build(big_repo, through_git=False)
    try:
        workers = wait_for_workers(proc, lambda p: p.pid)
        os.kill(proc.pid, signal.SIGINT)
        _, err = proc.communicate(timeout=10)
        deadline = time.monotonic() + 5
        while any(alive(w) for w in workers) and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 130, err
    assert "Traceback" not in err, err
    assert not any(alive(w) for w in workers), "a worker outlived the interrupted build"
    assert big_repo.ref(BUNDLE_REF) is None


def test_workers_exit_when_the_build_is_killed(big_repo):
    proc = start_build(big_repo, through_git=False)
    try:
        workers = wait_for_workers(proc, lambda p: p.pid)
        os.kill(proc.pid, signal.SIGKILL)  # the main process only, as the OOM killer or a CI timeout does
        proc.communicate(timeout=10)
        deadline = time.monotonic() + 5
        while any(alive(w) for w in workers) and time.monotonic() < deadline:
            time.sleep(0.05)
        survivors = {w for w in workers if alive(w)}
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
    assert not survivors, f"workers {survivors} outlived their killed parent by 5 s"
    assert big_repo.ref(BUNDLE_REF) is None


@pytest.mark.parametrize("args", [["build", "-q"], ["build", "no-such-revision"]])
def test_a_finished_or_failed_build_gives_sigint_back(sample_repo, route, args):
    before = signal.getsignal(signal.SIGINT)

    route(args, sample_repo.path)

    assert signal.getsignal(signal.SIGINT) is before


def test_a_git_child_killed_by_the_users_ctrl_c_is_an_interrupt_not_a_git_failure(make_repo):
    """Ctrl-C reaches git children too (one process group): one that dies of it first must not turn the
    interrupt into `fatal: cannot read objects` (exit 128) before Python's own KeyboardInterrupt lands."""
    from gitroute.git.catfile import ObjectReader

    repo = make_repo()
    repo.commit({"a.txt": "a\n"})
    reader = ObjectReader(str(repo.path))
    reader.start()
    assert reader.read(["HEAD:a.txt"])[0][2] == b"a\n"
    os.kill(reader._process().pid, signal.SIGINT)
    reader._process().wait(timeout=10)
    with pytest.raises(KeyboardInterrupt):
        reader.read(["HEAD:a.txt"])
