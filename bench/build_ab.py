"""Full build time of two gitroute checkouts on one corpus, interleaved: figures, not a test.

    python bench/build_ab.py --old /tmp/old [--new .] [--corpus django] [--runs 5] [--one-file | --one-document]

Each side runs `python -m gitroute build -q --full` with PYTHONPATH at its own checkout, in its own
clone of the corpus (so neither reads the other's bundle), alternating old, new, new, old, ... so
that a slow minute of a shared machine falls on both sides. Prints every time, the medians and the
ratio new / old (of the medians, and of each side's fastest build, the one a busy machine disturbed
least), for wall time and for CPU time (user + system of the build and its workers, which a busy machine
disturbs much less than wall time). With --one-file, each timed build is the incremental rebuild after a
one-file commit (a function appended to the file bench/perf.py changes, as a commit of its own), as
`bench/perf.py` times it; with --one-document, the rebuild after a one-document commit (a paragraph naming a
function appended to a document: doc_links links it anew, and the meaning index's anchor texts move).
"""
from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from corpora import materialise  # noqa: E402
from perf import _env, one_document_commit, one_file_commit  # noqa: E402


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)  # waited-for descendants: the build and its workers
    return usage.ru_utime + usage.ru_stime


def time_build(checkout: Path, repo: Path, full: bool = True) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of one build (full, or incremental) with `checkout`'s gitroute."""
    env = _env()
    env["PYTHONPATH"] = str(checkout)
    cpu = _children_cpu()
    start = time.perf_counter()
    result = subprocess.run([sys.executable, "-m", "gitroute", "build", "-q", *(["--full"] if full else [])],
                            cwd=repo, env=env, capture_output=True)
    elapsed = time.perf_counter() - start
    if result.returncode != 0:
        raise SystemExit(f"fatal: build with '{checkout}' failed: {result.stderr.decode(errors='replace').strip()}")
    return elapsed, _children_cpu() - cpu


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--old", required=True, help="the baseline checkout (a git worktree)")
    parser.add_argument("--new", default=str(HERE.parent), help="the checkout to compare (default: this one)")
    parser.add_argument("--corpus", default="django")
    parser.add_argument("--runs", type=int, default=5, help="builds per side")
    parser.add_argument("--cache", default=str(Path.home() / ".cache" / "gitroute-bench"))
    parser.add_argument("--one-file", action="store_true", help="time the rebuild after a one-file commit")
    parser.add_argument("--one-document", action="store_true", help="time the rebuild after a one-document commit")
    args = parser.parse_args(argv)
    if (args.one_file or args.one_document) and args.corpus != "django":
        parser.error("--one-file and --one-document change files of django, as bench/perf.py does: use --corpus django")
    if args.one_file and args.one_document:
        parser.error("--one-file or --one-document, not both")
    incremental = args.one_file or args.one_document

    sides = {"old": Path(args.old).resolve(), "new": Path(args.new).resolve()}
    times: dict[str, list[float]] = {"old": [], "new": []}
    cpus: dict[str, list[float]] = {"old": [], "new": []}
    with tempfile.TemporaryDirectory(prefix="gitroute-ab-") as tmp:
        source = materialise(args.corpus, HERE / "corpora", args.cache)
        repos = {}
        for side in sides:
            repos[side] = Path(tmp) / side
            subprocess.run(["git", "clone", "-q", "--no-local", str(source), str(repos[side])], check=True,
                           env=_env(), cwd=tmp)
            time_build(sides[side], repos[side])  # warm-up: page cache and .pyc files, not measured
            if incremental:  # and the memo of an incremental build
                one_file_commit(repos[side], "warm")
                time_build(sides[side], repos[side], full=False)
        for run in range(args.runs):
            order = ("old", "new") if run % 2 == 0 else ("new", "old")
            for side in order:
                if args.one_file:
                    one_file_commit(repos[side], str(run))
                elif args.one_document:
                    one_document_commit(repos[side])
                seconds, cpu = time_build(sides[side], repos[side], full=not incremental)
                times[side].append(seconds)
                cpus[side].append(cpu)
                print(f"run {run + 1} {side}: {seconds:.2f} s wall, {cpu:.2f} s CPU", flush=True)
    kind = "one-file rebuilds" if args.one_file else "one-document rebuilds" if args.one_document else "full builds"
    print(f"corpus {args.corpus}, {args.runs} {kind} per side, {os.cpu_count()} cores")
    for label, figures in (("wall", times), ("CPU", cpus)):
        old, new = statistics.median(figures["old"]), statistics.median(figures["new"])
        spread = {s: f"{min(t):.2f}-{max(t):.2f}" for s, t in figures.items()}
        best = min(figures["new"]) / min(figures["old"])  # the quietest build of each side: least disturbed
        print(f"{label}: old median {old:.2f} s ({spread['old']}), new median {new:.2f} s ({spread['new']}), "
              f"ratio new/old {new / old:.2f} (of the fastest builds {best:.2f})")
    print(f"old: {sides['old']}\nnew: {sides['new']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
