"""The mixed bench of `git route ask`: every question of every corpus bench, through ask and its dedicated command.

    python bench/ask_table.py [bench/NAME.routing-bench.yaml ...]

Each bench file `bench/<corpus>[.<part>].routing-bench.yaml` is asked in `bench/corpora/<corpus>`, which
must be materialised (`python bench/corpora.py <corpus>`) and built (`git route build` there). Prints
right first per type, per file and in total, for the dedicated command and for ask; `ask` must be within
one right-first answer per type of the dedicated command.
"""
from __future__ import annotations

import sys
from collections import defaultdict
from pathlib import Path

from gitroute import api
from gitroute.errors import GitrouteError

HERE = Path(__file__).resolve().parent


def main(argv: list[str]) -> int:
    files = [Path(a) for a in argv] or sorted(HERE.glob("*.routing-bench.yaml"))
    totals: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    print(f"{'bench':<28} {'type':<9} {'questions':>9} {'dedicated':>9} {'ask':>5}")
    for path in files:
        corpus = HERE / "corpora" / path.name.split(".")[0]
        if not corpus.is_dir():
            print(f"{path.name:<28} skipped: no corpus at {corpus}", file=sys.stderr)
            continue
        try:
            dedicated = api.bench(str(path), repo=str(corpus))
            asked = {t.type: t for t in api.bench(str(path), repo=str(corpus), through_ask=True).types}
        except GitrouteError as err:
            print(f"{path.name:<28} skipped: {err.message}", file=sys.stderr)
            continue
        for t in dedicated.types:
            if not t.supported:
                continue
            a = asked[t.type].right_first
            print(f"{path.name:<28} {t.type:<9} {t.n:>9} {t.right_first:>9} {a:>5}")
            total = totals[t.type]
            total[0] += t.n
            total[1] += t.right_first
            total[2] += a
    worst = 0
    for qtype, (n, d, a) in totals.items():
        print(f"{'total':<28} {qtype:<9} {n:>9} {d:>9} {a:>5}")
        worst = max(worst, d - a)
    return 1 if worst > 1 else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
