"""The mixed bench of `git route ask`: every question of every corpus bench, through ask and its dedicated command.

    python bench/ask_table.py [--sentences] [-v] [bench/NAME.routing-bench.yaml ...]

Each bench file `bench/<corpus>[.<part>].routing-bench.yaml` is asked in `bench/corpora/<corpus>`, which
must be materialised (`python bench/corpora.py <corpus>`) and built (`git route build` there). Prints
right first per type, per file and in total, for the dedicated command and for ask; `ask` must be within
one right-first answer per type of the dedicated command. Sentence questions (issue 21: `type: sentence`,
`bench/<corpus>.sentences.routing-bench.yaml`) are kept per route (`sentence:docs`, and `sentence:negative`
for those whose answer is no_match), with a third column, plain BM25 over whole files asked with the
sentence.

Levels: whole-file BM25's rows are files, so it can only be right about the file (a row of `docs/why.md` meets
`docs/why.md#Readability`). A sentence type's three columns are therefore all scored at the file level (for
`decision`: the right record), and two more columns give the dedicated command and `ask` at the expectations'
own level (the record's section, the symbol), the level `bench/why_table.py` reports for sections. Other types
are scored at their own level only. On a sentence type `ask` must be within 3 points of the dedicated command at
both levels and at or above BM25 at the file level. Totals are printed for all files, and apart for the
held-out files (`*.held*.sentences.*`) and the others (dev) when both are given.
`--sentences` takes only the sentence files; `-v` prints each sentence `ask` misses (at its own level), with
its first rows.
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
# questions; dedicated, ask, bm25 (file level for sentences); dedicated, ask (own level)
Counts = list[int]


def _split(path: Path) -> str:
    return "held" if ".held" in path.name or "-held." in path.name else "dev"


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument("--sentences", action="store_true", help="only the sentence benches")
    parser.add_argument("-v", "--verbose", action="store_true", help="each sentence ask misses, with its rows")
    args = parser.parse_args(argv)
    files = args.files or sorted(HERE.glob("*.sentences.routing-bench.yaml" if args.sentences
                                           else "*.routing-bench.yaml"))
    totals: dict[str, dict[str, Counts]] = defaultdict(lambda: defaultdict(lambda: [0] * 6))
    print(f"{'bench':<44} {'type':<18} {'questions':>9} {'dedicated':>9} {'ask':>5} {'whole-file bm25':>15}"
          f" {'section/symbol: dedicated':>25} {'ask':>5}")
    for path in files:
        corpus = HERE / "corpora" / path.name.split(".")[0]
        if not corpus.is_dir():
            print(f"{path.name:<44} skipped: no corpus at {corpus}", file=sys.stderr)
            continue
        try:
            dedicated = api.bench(str(path), repo=str(corpus))
            through = api.bench(str(path), repo=str(corpus), through_ask=True)
            sentences = any(t.type.startswith("sentence:") for t in dedicated.types)
            baseline = api.bench(str(path), repo=str(corpus), whole_files=True) if sentences else None
        except GitrouteError as err:
            print(f"{path.name:<44} skipped: {err.message}", file=sys.stderr)
            continue
        asked = {t.type: t for t in through.types}
        files_right = {t.type: t.right_first_file for t in baseline.types if t.supported} if baseline else {}
        for t in dedicated.types:
            if not t.supported:
                continue
            a = asked[t.type]
            if t.type.startswith("sentence:"):
                counts = [t.n, t.right_first_file, a.right_first_file, files_right.get(t.type, 0),
                          t.right_first, a.right_first]
            else:
                counts = [t.n, t.right_first, a.right_first, 0, t.right_first, a.right_first]
            print(_line(path.name, t.type, counts))
            for split in ("all", _split(path)):
                total = totals[split][t.type]
                for i, value in enumerate(counts):
                    total[i] += value
        if args.verbose:
            for r in through.questions:
                if r.question.type == "sentence" and not r.right_first:
                    answer, classification = api.ask(r.question.question, repo=str(corpus))
                    routes = ", ".join(f"{x.kind}:{x.text!r}" for x in classification.routes)
                    print(f"  miss {corpus.name}/{r.question.id} [{r.question.scored_as}] {r.question.question!r}\n"
                          f"    argument {r.question.argument!r}; asked {routes}; rank {r.rank} (file {r.file_rank});"
                          f" {answer.status} {[(row.path, row.name) for row in answer.rows[:3]]}")
    failed = False
    splits = ["all"] + (["dev", "held"] if {"dev", "held"} <= totals.keys() else [])
    for split in splits:
        order = sorted(totals[split].items(), key=lambda kv: (kv[0].startswith("sentence:"), kv[0]))
        for qtype, counts in order:
            print(_line("total" if split == "all" else f"total {split}", qtype, counts))
            if split != "all":
                continue
            n, d, a, f, d_fine, a_fine = counts
            if qtype.startswith("sentence:"):
                failed |= Fraction(d - a, n) > SENTENCE_TOLERANCE or Fraction(d_fine - a_fine, n) > SENTENCE_TOLERANCE
                failed |= a < f
            else:
                failed |= d - a > 1
    print("sentence types: dedicated, ask and whole-file bm25 at the file level (a decision: its record); "
          "then dedicated and ask at the expectations' own level (the section, the symbol)")
    return 1 if failed else 0


def _line(name: str, qtype: str, counts: Counts) -> str:
    n, d, a, f, d_fine, a_fine = counts
    sentence = qtype.startswith("sentence:")
    return (f"{name:<44} {qtype:<18} {n:>9} {d:>9} {a:>5} {f if sentence else '':>15}"
            f" {d_fine if sentence else '':>25} {a_fine if sentence else '':>5}")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
