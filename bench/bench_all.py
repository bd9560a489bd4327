"""Every bench file, dedicated and through `ask`, one JSON per file and mode; and every rank that moved since a run.

    python bench/bench_all.py OUT [--code CHECKOUT] [--jobs 2] [--against EARLIER_OUT] [bench files...]
    python bench/bench_all.py --diff EARLIER_OUT LATER_OUT

Each `bench/<corpus>[.<part>].routing-bench.yaml` is run in `bench/corpora/<corpus>` (materialised and built:
`python bench/corpora.py`, then `git route build` there) twice, `git route bench --json` and `git route bench
--json --through-ask`, with the gitroute of `--code` (a checkout or a copy of one: bench a copy while you edit the
original). Prints the right-first totals; with `--against` (or `--diff`), every question whose rank changed, fall
or rise, so a change is judged on every file and not on a total that hides a fall behind a rise.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
MODES = ("dedicated", "ask")


def corpus_of(bench: Path) -> str:
    return bench.name.split(".", 1)[0]


def run_one(bench: Path, mode: str, code: Path, out: Path) -> str:
    """One bench file in one mode; returns an error line, or '' when the JSON was written."""
    corpus = HERE / "corpora" / corpus_of(bench)
    if not (corpus / ".git").exists():
        return f"{bench.name}: corpus {corpus.name} is not materialised"
    argv = [sys.executable, "-m", "gitroute", "bench", "--json", "-q", str(bench)]
    if mode == "ask":
        argv.insert(5, "--through-ask")
    env = dict(os.environ, PYTHONPATH=str(code))
    done = subprocess.run(argv, cwd=corpus, env=env, capture_output=True, text=True, check=False)
    try:
        json.loads(done.stdout)
    except ValueError:
        return f"{bench.name} ({mode}): no JSON (exit {done.returncode}): {done.stderr.strip()[-300:]}"
    (out / f"{bench.name}.{mode}.json").write_text(done.stdout)
    return ""


def ranks(out: Path) -> dict[tuple[str, str, str], int | None]:
    """(bench file, mode, question id) → rank (None: not in the rows)."""
    found: dict[tuple[str, str, str], int | None] = {}
    for path in sorted(out.glob("*.json")):
        name, mode, _ = path.name.rsplit(".", 2)
        for q in json.loads(path.read_text())["questions"]:
            found[(name, mode, q["id"])] = q["rank"]
    return found


def right_first(rank: int | None) -> bool:
    return rank is not None and rank <= 3


def totals(out: Path) -> str:
    got = ranks(out)
    parts = []
    for mode in MODES:
        mine = [r for (_, m, _), r in got.items() if m == mode]
        parts.append(f"{mode} {sum(map(right_first, mine))}/{len(mine)}")
    files = len({name for name, _, _ in got})
    return f"{files} files: " + ", ".join(parts)


def diff(earlier: Path, later: Path) -> list[str]:
    """Every question whose rank moved, falls first; then the files and modes only one run has, as new or gone."""
    before, after = ranks(earlier), ranks(later)

    def key(rank: int | None) -> int:
        return 10**6 if rank is None else rank

    falls, rises = [], []
    only: dict[tuple[str, str, str], int] = defaultdict(int)  # (gone or new, file, mode) -> questions
    for q in sorted(before.keys() | after.keys()):
        if q not in after or q not in before:
            only[("gone" if q not in after else "new", q[0], q[1])] += 1
            continue
        old, new = before[q], after[q]
        if key(old) != key(new):
            line = f"{' '.join(q)}: {old} -> {new}"
            (falls if key(new) > key(old) else rises).append(("fall " if key(new) > key(old) else "rise ") + line)
    return falls + rises + [f"{what}: {name} {mode} ({n} questions)" for (what, name, mode), n in sorted(only.items())]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path, nargs="?", help="folder for this run's JSON")
    parser.add_argument("benches", type=Path, nargs="*", help="bench files (default: every bench/*.routing-bench.yaml)")
    parser.add_argument("--code", type=Path, default=HERE.parent, help="the checkout whose gitroute answers")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--against", type=Path, help="an earlier run's folder: list every rank that moved")
    parser.add_argument("--diff", type=Path, nargs=2, metavar=("EARLIER", "LATER"), help="only compare two runs")
    args = parser.parse_intermixed_args(argv)
    if args.diff:
        print("\n".join(diff(*args.diff)) or "no rank moved")
        print(f"earlier {totals(args.diff[0])}\nlater   {totals(args.diff[1])}")
        return 0
    if args.out is None:
        parser.error("OUT is required unless --diff")
    args.out.mkdir(parents=True, exist_ok=True)
    benches = args.benches or sorted(HERE.glob("*.routing-bench.yaml"))
    jobs = [(bench.resolve(), mode) for bench in benches for mode in MODES]
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        errors = [e for e in pool.map(lambda job: run_one(*job, args.code.resolve(), args.out), jobs) if e]
    print("\n".join(errors), file=sys.stderr)
    print(totals(args.out))
    if args.against:
        print("\n".join(diff(args.against, args.out)) or "no rank moved")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
