"""The mixed bench of `git route ask`: every question of every corpus bench, through ask and its dedicated command.

    python bench/ask_table.py [--sentences] [-v] [bench/NAME.routing-bench.yaml ...]

Each bench file `bench/<corpus>[.<part>].routing-bench.yaml` is asked in `bench/corpora/<corpus>`, which
must be materialised (`python bench/corpora.py <corpus>`) and built (`git route build` there). Prints
right first per type, per file and in total, for the dedicated command and for ask; `ask` must be within
one right-first answer per type of the dedicated command. Sentence questions (issue 21: `type: sentence`,
`bench/<corpus>.sentences.routing-bench.yaml`) are kept per route (`sentence:docs`, and `sentence:negative`
for those whose answer is no_match), with a third column, plain BM25 over whole files asked with the
sentence; on a sentence type `ask` must be within 3 points of the dedicated command and at or above BM25.
`--sentences` takes only the sentence files; `-v` prints each sentence `ask` misses, with its first rows.
"""
from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from fractions import Fraction
from pathlib import Path

from gitroute import api
from gitroute.errors import GitrouteError

HERE = Path(__file__).resolve().parent
SENTENCE_TOLERANCE = Fraction(3, 100)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument("--sentences", action="store_true", help="only the sentence benches")
    parser.add_argument("-v", "--verbose", action="store_true", help="each sentence ask misses, with its rows")
    args = parser.parse_args(argv)
    files = args.files or sorted(HERE.glob("*.sentences.routing-bench.yaml" if args.sentences
                                           else "*.routing-bench.yaml"))
    totals: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    print(f"{'bench':<40} {'type':<18} {'questions':>9} {'dedicated':>9} {'ask':>5} {'whole-file bm25':>15}")
    for path in files:
        corpus = HERE / "corpora" / path.name.split(".")[0]
        if not corpus.is_dir():
            print(f"{path.name:<40} skipped: no corpus at {corpus}", file=sys.stderr)
            continue
        try:
            dedicated = api.bench(str(path), repo=str(corpus))
            through = api.bench(str(path), repo=str(corpus), through_ask=True)
            sentences = any(t.type.startswith("sentence:") for t in dedicated.types)
            baseline = api.bench(str(path), repo=str(corpus), whole_files=True) if sentences else None
        except GitrouteError as err:
            print(f"{path.name:<40} skipped: {err.message}", file=sys.stderr)
            continue
        asked = {t.type: t for t in through.types}
        files_right = {t.type: t.right_first for t in baseline.types if t.supported} if baseline else {}
        for t in dedicated.types:
            if not t.supported:
                continue
            a = asked[t.type].right_first
            f = files_right.get(t.type)
            print(f"{path.name:<40} {t.type:<18} {t.n:>9} {t.right_first:>9} {a:>5} {'' if f is None else f:>15}")
            total = totals[t.type]
            total[0] += t.n
            total[1] += t.right_first
            total[2] += a
            total[3] += f or 0
        if args.verbose:
            for r in through.questions:
                if r.question.type == "sentence" and not r.right_first:
                    answer, classification = api.ask(r.question.question, repo=str(corpus))
                    routes = ", ".join(f"{x.kind}:{x.text!r}" for x in classification.routes)
                    print(f"  miss {corpus.name}/{r.question.id} [{r.question.scored_as}] {r.question.question!r}\n"
                          f"    argument {r.question.argument!r}; asked {routes}; rank {r.rank}; "
                          f"{answer.status} {[row.path for row in answer.rows[:3]]}")
    failed = False
    for qtype, (n, d, a, f) in sorted(totals.items(), key=lambda kv: (kv[0].startswith("sentence:"), kv[0])):
        sentence = qtype.startswith("sentence:")
        print(f"{'total':<40} {qtype:<18} {n:>9} {d:>9} {a:>5} {f if sentence else '':>15}")
        if sentence:
            failed |= Fraction(d - a, n) > SENTENCE_TOLERANCE or a < f
        else:
            failed |= d - a > 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
