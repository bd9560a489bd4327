"""The meaning table: meaning, negative and symbol questions asked three ways; top 1/3/5 and no_match errors.

    python bench/meaning_table.py [--no-build] [corpora...]

Modes: `symbol` (the symbol tiers alone), `bm25` (`git route query --meaning`), `combined` (plain
`git route query`, which decides the mix) and `files`, the baseline issue 10 measured: plain BM25 over whole
file texts (every text blob of the commit, its path and content as lowercase words, k1 1.2, b 0.75), which
always answers. Builds each corpus's bundle first unless --no-build.
Held-out questions (ids `h*`, written after the last ranking change) are scored apart, per type: the
`held-out` columns (meaning and symbol top 3, meaning answered no_match, negative routed). "false no_match"
is the rate of real questions answered no_match, "negative routed" the rate of off-topic ones answered with a
guess: the rule's two error rates. Corpora whose bench has no meaning questions are left out.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH.parent))
sys.path.insert(0, str(BENCH))

from corpora import CORPORA, DEFAULT_CACHE, DEFAULT_DEST, materialise  # noqa: E402

from gitroute import api  # noqa: E402
from gitroute.bench import WholeFiles, read_bench, row_matches  # noqa: E402
from gitroute.bundle.store import BundleView, corrupt_blob  # noqa: E402
from gitroute.model import Answer  # noqa: E402


def whole_files(repo: str) -> WholeFiles:
    """The baseline over the files of the repository's HEAD (the corpus's one commit)."""
    import pygit2

    from gitroute.git.repository import regular_files

    git = pygit2.Repository(repo)
    return WholeFiles(regular_files(git, str(git.head.peel(pygit2.Commit).id)))


_whole_files: dict[str, WholeFiles] = {}


def ask(mode: str, repo: str, text: str, limit: int = 10) -> Answer:
    if mode == "files":
        if repo not in _whole_files:
            _whole_files[repo] = whole_files(repo)
        return _whole_files[repo].answer(text, limit)
    if mode == "bm25":
        return api.query(text, repo=repo, limit=limit, meaning=True)
    if mode == "combined":
        return api.query(text, repo=repo, limit=limit)
    return api.answer("symbols", text, repo=repo, limit=limit)


def rank_of(answer: Answer, expect: tuple[str, ...]) -> int | None:
    if answer.status == "no_match":
        return None
    for i, row in enumerate(answer.rows[:10], 1):
        if any(row_matches(row, e) for e in expect):
            return i
    return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("names", nargs="*")
    parser.add_argument("--no-build", action="store_true")
    parser.add_argument("--verbose", "-v", action="store_true")
    parser.add_argument("--calibrate", action="store_true", help="print the no_match evidence per question")
    args = parser.parse_args(argv)
    names = args.names or [n for n in CORPORA if (BENCH / f"{n}.routing-bench.yaml").exists()]
    if args.calibrate:
        if not args.no_build:
            for name in names:
                api.build(repo=str(materialise(name, DEFAULT_DEST, DEFAULT_CACHE)))
        calibrate(names)
        return 0
    print("| corpus | mode | meaning top1 | top3 | top5 | false no_match | negative routed | symbol top3 "
          "| held-out meaning top3 | held-out false no_match | held-out symbol top3 | held-out negative routed |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for name in names:
        bench = read_bench(str(BENCH / f"{name}.routing-bench.yaml"))
        if not any(q.type == "meaning" for q in bench.questions):
            continue
        # --no-build asks the bundles as they are, in corpora already materialised (or copied) here
        built = Path(DEFAULT_DEST) / name
        repo = str(built if args.no_build and built.is_dir() else materialise(name, DEFAULT_DEST, DEFAULT_CACHE))
        if not args.no_build:
            api.build(repo=repo)
        meaning = [q for q in bench.questions if q.type == "meaning" and not q.id.startswith("h")]
        held = [q for q in bench.questions if q.type == "meaning" and q.id.startswith("h")]
        negative = [q for q in bench.questions if q.type == "negative" and not q.id.startswith("h")]
        symbol = [q for q in bench.questions if q.type == "symbol" and not (q.kind or q.lang or q.path)
                  and not q.id.startswith("h")]
        held_symbol = [q for q in bench.questions if q.type == "symbol" and q.id.startswith("h")]
        held_negative = [q for q in bench.questions if q.type == "negative" and q.id.startswith("h")]
        for mode in ("symbol", "bm25", "combined", "files"):
            ranks = []
            false_nm = 0
            for q in meaning:
                answer = ask(mode, repo, q.question)
                false_nm += answer.status == "no_match"
                ranks.append(rank_of(answer, q.expect))
                if args.verbose and mode in ("bm25", "combined") and (ranks[-1] is None or ranks[-1] > 3):
                    got = [r.path for r in answer.rows[:3]]
                    print(f"  miss {name}/{q.id} [{mode}] {q.question!r}: {answer.status} {got} {answer.notes[:1]}")
            routed = 0
            for q in negative:
                answer = ask(mode, repo, q.question)
                routed += answer.status != "no_match"
                if args.verbose and mode in ("bm25", "combined") and answer.status != "no_match":
                    print(f"  routed {name}/{q.id} [{mode}] {q.question!r}: {[r.path for r in answer.rows[:2]]}")

            def top3(questions: list, mode: str = mode, repo: str = repo) -> int:
                return sum(1 for q in questions if (r := rank_of(ask(mode, repo, q.question), q.expect)) and r <= 3)

            sym, kept, kept_symbol = top3(symbol), top3(held), top3(held_symbol)
            held_routed = sum(1 for q in held_negative if ask(mode, repo, q.question).status != "no_match")
            held_nm = sum(1 for q in held if ask(mode, repo, q.question).status == "no_match")
            n = len(meaning)

            def top(k: int, ranks: list = ranks, n: int = n) -> str:
                return f"{sum(1 for r in ranks if r is not None and r <= k)}/{n}"

            print(f"| {name} | {mode} | {top(1)} | {top(3)} | {top(5)} | {false_nm}/{n} | {routed}/{len(negative)} "
                  f"| {sym}/{len(symbol)} | {kept}/{len(held)} | {held_nm}/{len(held)} "
                  f"| {kept_symbol}/{len(held_symbol)} "
                  f"| {held_routed}/{len(held_negative)} |", flush=True)
    return 0




def calibrate(names: list[str]) -> None:
    """TSV of the no_match evidence of every meaning and negative question, the gate off."""
    from gitroute.indexes.meaning import NAME, query_meaning

    print("corpus\tid\ttype\trank\tcoverage\tnode_cov\tbest_idf\tmissing\twords\tunknown")
    for name in names:
        repo = str(materialise(name, DEFAULT_DEST, DEFAULT_CACHE))
        bench = read_bench(str(BENCH / f"{name}.routing-bench.yaml"))
        with BundleView(repo) as bundle:
            view = bundle.index(NAME)
            section, read, records = view.section, view.read, view.graph.records

            for q in bench.questions:
                if q.type not in ("meaning", "negative"):
                    continue
                rows, _, ev = query_meaning(q.question, section, read, limit=10, explain=False,
                                            corrupt=corrupt_blob, records=records, gate=False)
                rank = next((i for i, r in enumerate(rows, 1) if any(row_matches(r, e) for e in q.expect)), None)
                if ev is None:
                    print(f"{name}\t{q.id}\t{q.type}\t{rank}\t0\t0\t0\t0\t0\t")
                    continue
                print(f"{name}\t{q.id}\t{q.type}\t{rank}\t{ev.coverage:.3f}\t{ev.node_coverage:.3f}\t{ev.best_idf:.2f}\t"
                      f"{len(ev.missing)}\t{len(ev.weights)}\t{ev.named(ev.missing)}")


if __name__ == "__main__":
    sys.exit(main())
