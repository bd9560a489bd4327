"""Cold `git route query` against `git grep` for the same words, interleaved, in CPU time of each process and its
children (a shared machine disturbs CPU time far less than wall time).

    python bench/cold_query.py REPO "QUESTION" [--also "QUESTION" ...] [--runs 15] [--code DIR ...] [--venv DIR ...]
                               [--command ask] [--no-grep]

Each round runs `git-route query QUESTION` (`--command ask`: what agents call) once per gitroute timed and `git grep
-n -i` for the question's words (bench/scale.py's `grep_command`), and the medians are printed. A `--code` checkout
(the one this script sits in when none is named) is timed as a user has it: installed by `pip install DIR` (the
README's command, not editable) into a scratch venv (under `--venvs`, else a temporary folder), its `git-route`
script run. An editable install puts a finder in every start (setuptools' `__editable__` hook: ~15 ms of CPU
before gitroute's first import) that an installed one does not have. `--venv DIR` times a venv's `git-route` as it
is; `--pythonpath` the old form, `python -m gitroute` with PYTHONPATH=DIR under this interpreter (and its site).
`--also` adds questions, asked in the same rounds (a kernel's several sentences, a median each); `--no-grep` leaves
`git grep` out (on a kernel it is seconds a run). Not a test: figures, for a decision record.
"""
from __future__ import annotations

import argparse
import contextlib
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent)]

from perf import installed_route  # noqa: E402
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
    parser.add_argument("--code", action="append", default=[], help="a gitroute checkout, installed (pip install)")
    parser.add_argument("--venv", action="append", default=[], type=Path, help="a venv with gitroute installed")
    parser.add_argument("--venvs", type=Path, help="where the checkouts' venvs are made and kept (default: a "
                                                   "temporary folder)")
    parser.add_argument("--pythonpath", action="store_true", help="run each checkout as `python -m gitroute` with "
                                                                  "PYTHONPATH, under this interpreter")
    parser.add_argument("--command", default="query", choices=("query", "ask"), help="the command asked")
    parser.add_argument("--also", action="append", default=[], help="a further question, timed in the same rounds")
    parser.add_argument("--no-grep", action="store_true", help="leave `git grep` out")
    args = parser.parse_args(argv)
    codes = args.code or ([] if args.venv else [str(HERE.parent)])
    # bytecode written once and read after, as an installed package has it (not compiled by every process)
    base = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    with contextlib.ExitStack() as stack:
        venvs = args.venvs or Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="gitroute-cold-")))
        routes: dict[str, tuple[list[str], dict[str, str]]] = {}
        for k, code in enumerate(codes):
            if args.pythonpath:
                routes[code] = ([sys.executable, "-m", "gitroute"], {**base, "PYTHONPATH": code})
            else:
                routes[f"{code}, installed"] = (installed_route(Path(code), venvs / f"{k}-{Path(code).resolve().name}"),
                                                base)
        for venv in args.venv:
            routes[str(venv)] = ([str(venv / "bin" / "git-route")], base)
        commands: dict[str, tuple[list[str], dict[str, str]]] = {}
        for question in (args.question, *args.also):
            quoted = "" if not args.also else f" {question!r}"
            for name, (route, env) in routes.items():
                commands[f"{args.command}{quoted} ({name})"] = ([*route, args.command, question], env)
            if not args.no_grep:
                commands[f"git grep{quoted}"] = (grep_command(question), base)
        return _measure(commands, args)


def _measure(commands: dict[str, tuple[list[str], dict[str, str]]], args: argparse.Namespace) -> int:
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
