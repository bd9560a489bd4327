"""Cold `git route query` against `git grep` for the same words, interleaved, in CPU time of each process and its
children (a shared machine disturbs CPU time far less than wall time).

    python bench/cold_query.py REPO "QUESTION" [--runs 15] [--code DIR ...] [--command ask]

Each round runs `python -m gitroute query QUESTION` (`--command ask`: what agents call) once per `--code` checkout
(PYTHONPATH=DIR; the one this script sits in when none is named, each against its own bundle ref if `--ref` names
one per checkout) and `git grep -n -i` for the question's words (bench/scale.py's `grep_command`), and the medians
are printed. Not a test: figures, for a decision record.
"""
from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent)]

from scale import grep_command  # noqa: E402


def cpu_ms(cmd: list[str], cwd: str, env: dict[str, str]) -> tuple[float, float]:
    """(CPU ms, wall ms) of one run of `cmd` and its children."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=False)
    if done.returncode not in (0, 1):  # git grep: 1 is no match
        raise SystemExit(f"{' '.join(cmd[:4])}: exit {done.returncode}: {done.stderr.decode(errors='replace')}")
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu * 1000, wall * 1000


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("repo")
    parser.add_argument("question")
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--code", action="append", default=[], help="a gitroute checkout (PYTHONPATH)")
    parser.add_argument("--command", default="query", choices=("query", "ask"), help="the command asked")
    args = parser.parse_args(argv)
    codes = args.code or [str(HERE.parent)]
    # bytecode written once and read after, as an installed package has it (not compiled by every process)
    base = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    commands = {f"{args.command} ({code})": ([sys.executable, "-m", "gitroute", args.command, args.question],
                                    {**base, "PYTHONPATH": code}) for code in codes}
    commands["git grep"] = (grep_command(args.question), base)
    times: dict[str, list[tuple[float, float]]] = {name: [] for name in commands}
    for _ in range(args.runs):
        for name, (cmd, env) in commands.items():
            times[name].append(cpu_ms(cmd, args.repo, env))
    for name, runs in times.items():
        cpu, wall = statistics.median(c for c, _ in runs), statistics.median(w for _, w in runs)
        print(f"{name}: CPU {cpu:.0f} ms, wall {wall:.0f} ms (median of {len(runs)})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
