"""Ctrl-C during a fresh django build, as a terminal sends it through `git route`: how often it ends in time.

    python bench/interrupt.py [--corpus django] [--tries 20] [--limit 2.0]

Each try deletes the bundle ref, starts `git route build` in its own process group, waits a
random share (up to 80 %) of a full build's time (a build that ends first is drawn again), then
sends SIGINT to the group twice, 50 ms apart (the terminal signals the group, and git's
dashed-command wrapper forwards one more to `git-route`).
A try passes when the build exits with 130 (git re-raises SIGINT on itself: the shell's 130)
within --limit seconds of the first signal, prints no traceback, and no process of the group is
left. Not a test: the machine is shared, so the figure is evidence, not a gate.
"""
from __future__ import annotations

import argparse
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from corpora import materialise  # noqa: E402

BUNDLE_REF = "refs/marola/routing-bundle"
SECOND_SIGNAL_GAP = 0.05


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    route = shutil.which("git-route") or shutil.which("git-route", path=os.path.dirname(sys.executable))
    if route is None:
        raise SystemExit("fatal: git-route is not installed (pip install -e .)")
    env["PATH"] = os.path.dirname(route) + os.pathsep + env.get("PATH", "")
    env["GIT_CONFIG_NOSYSTEM"] = "1"
    return env


def _group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    return True


def one_try(repo: Path, delay: float, limit: float, env: dict[str, str]) -> tuple[bool | None, str]:
    """One interrupted build: True when it ended in time and clean, None when it ended before the signal."""
    subprocess.run(["git", "update-ref", "-d", BUNDLE_REF], cwd=repo, env=env, check=False)
    proc = subprocess.Popen(["git", "route", "build", "-q"], cwd=repo, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)
    time.sleep(delay)
    if proc.poll() is not None:
        return None, f"finished before the signal ({delay:.2f} s)"
    os.killpg(proc.pid, signal.SIGINT)
    sent = time.monotonic()
    time.sleep(SECOND_SIGNAL_GAP)
    try:
        os.killpg(proc.pid, signal.SIGINT)
    except ProcessLookupError:
        pass
    try:
        _, err = proc.communicate(timeout=limit + 10)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        _, err = proc.communicate()
        return False, "hung: " + " | ".join(err.strip().splitlines()[:3])
    took = time.monotonic() - sent
    # A worker left behind keeps the group alive after the leader exits.
    deadline = time.monotonic() + 1.0
    while _group_alive(proc.pid) and time.monotonic() < deadline:
        time.sleep(0.02)
    leftover = _group_alive(proc.pid)
    if leftover:
        os.killpg(proc.pid, signal.SIGKILL)
    ok = proc.returncode in (130, -signal.SIGINT) and took <= limit and "Traceback" not in err and not leftover
    said = " | ".join(err.strip().splitlines()[:2])
    return ok, f"exit {proc.returncode} in {took:.2f} s{' traceback' if 'Traceback' in err else ''}" \
               f"{' leftover processes' if leftover else ''} (signal at {delay:.2f} s): {said}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", default="django")
    parser.add_argument("--tries", type=int, default=20)
    parser.add_argument("--limit", type=float, default=2.0, help="seconds from the first SIGINT to the exit")
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--cache", default=str(Path.home() / ".cache" / "gitroute-bench"))
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    env = _env()
    # A terminal's jobs take SIGINT; a shell's background job inherits it ignored, and then so would
    # git, which changes how it ends. Give the builds a terminal's disposition.
    signal.signal(signal.SIGINT, signal.SIG_DFL)

    with tempfile.TemporaryDirectory(prefix="gitroute-interrupt-") as tmp:
        source = materialise(args.corpus, Path(tmp) / "corpora", args.cache)
        repo = Path(tmp) / "work"
        subprocess.run(["git", "clone", "-q", "--no-local", str(source), str(repo)], env=env, check=True)
        started = time.monotonic()
        subprocess.run(["git", "route", "build", "-q"], cwd=repo, env=env, check=True)
        full = time.monotonic() - started
        print(f"full build: {full:.1f} s; signals sent between 0.3 s and {0.8 * full:.1f} s")
        passed = n = 0
        while n < args.tries:
            ok, note = one_try(repo, rng.uniform(0.3, 0.8 * full), args.limit, env)
            if ok is None:  # the machine got faster than the first build: not a try, draw again
                print(f"        skip {note}", flush=True)
                continue
            n += 1
            passed += ok
            print(f"try {n:2}: {'ok  ' if ok else 'FAIL'} {note}", flush=True)
    print(f"{passed} of {args.tries} tries exited 130 within {args.limit:.1f} s, with no traceback and no leftover")
    return 0 if passed == args.tries else 1


if __name__ == "__main__":
    raise SystemExit(main())
