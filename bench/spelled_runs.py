"""Whether `evidence.may_name_symbol` rules out only runs of words that name no symbol: for every two- to
four-word run of the bench questions (and, with `--kernel`, of the Linux corpus's `bench/mcp_latency.py` questions),
wherever the name postings rule the run out, the full query (`symbol_named` without the prefilter) must find no name.

    PYTHONPATH=<checkout> python bench/spelled_runs.py [--corpus NAME ...] [--kernel] [--all-runs]

By default only the runs with a stop word (docs/decisions/0036: once left to the query) are checked; `--all-runs`
checks every run. Prints per corpus the runs checked, those ruled out, and any ruled out that the query finds a name
for (none is the claim), with the seconds the full queries of the ruled-out runs took. Not a test: a check for a
decision record, against the corpora `bench/corpora.py` materialises.
"""
from __future__ import annotations

import argparse
import glob
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent)]

KERNEL_QUESTIONS = ("how does the page cache write back dirty pages", "where are signals delivered to a process",
                    "where is DevNoodleWriteIrq handled", "how does the scheduler pick the next task to run",
                    "where is the code that read the mapfile and generate the struct from",
                    "Is there a page in the docs about reset?", "which function copies data to user space",
                    "where is the memory of a process freed when it exits")


def runs(text: str):
    """The runs of two to four words of a question, its words trimmed as `ask` trims them."""
    from gitroute.ask import _POSSESSIVE, _TRIM

    words = [w for w in (_POSSESSIVE.sub("", w.strip(_TRIM)) for w in text.split()) if w]
    for size in range(2, 5):
        for start in range(len(words) - size + 1):
            yield " ".join(words[start:start + size])


def full_symbol_named(view, words: str) -> str | None:
    """`evidence.symbol_named` without its prefilter: the full query's answer."""
    from gitroute.query import evidence, query
    from gitroute.text import normalize_name

    found = query(words, limit=3, bundle=view)
    names = [(row.kind not in evidence._TYPE_KINDS, (row.name or "").rpartition(".")[2]) for row in found.rows
             if row.kind != "file" and normalize_name((row.name or "").rpartition(".")[2]) == normalize_name(words)]
    return min(names, key=lambda n: n[0])[1] if names else None


def check(repo: Path, questions: list[str], all_runs: bool) -> tuple[int, int, list[tuple[str, str]], float]:
    """(runs checked, runs ruled out, those the full query finds a name for, seconds of those full queries)."""
    from gitroute.bundle.store import BundleView
    from gitroute.query import evidence
    from gitroute.rank import prose_share
    from gitroute.text import without_request

    checked = ruled_out = 0
    wrong: list[tuple[str, str]] = []
    seconds = 0.0
    seen: set[str] = set()
    with BundleView(str(repo)) as view:
        for text in questions:
            for run in runs(text):
                asked = without_request(run)
                if run in seen or len(asked.split()) < 2 or not run.isascii():
                    continue
                seen.add(run)
                if not all_runs and prose_share(asked) == 0.0:
                    continue
                checked += 1
                if evidence.may_name_symbol(view, run):
                    continue
                ruled_out += 1
                start = time.perf_counter()
                name = full_symbol_named(view, run)
                seconds += time.perf_counter() - start
                if name is not None:
                    wrong.append((run, name))
    return checked, ruled_out, wrong, seconds


def main(argv: list[str] | None = None) -> int:
    from gitroute.bench import read_bench

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", action="append", default=[], help="only these bench corpora")
    parser.add_argument("--kernel", action="store_true", help="the Linux corpus too (bench/corpora/linux)")
    parser.add_argument("--all-runs", action="store_true", help="every run, not only those with a stop word")
    args = parser.parse_args(argv)
    by_corpus: dict[str, list[str]] = {}
    for path in sorted(glob.glob(str(HERE / "*.routing-bench.yaml"))):
        corpus = Path(path).name.split(".")[0]
        if not args.corpus or corpus in args.corpus:
            by_corpus.setdefault(corpus, []).extend(q.question for q in read_bench(path).questions)
    if args.kernel:
        from mcp_latency import corpus_questions, named_sentences

        names, sentences = corpus_questions(HERE / "corpora" / "linux", 40)
        by_corpus["linux"] = [*named_sentences(names), *sentences, *KERNEL_QUESTIONS]
    total = [0, 0, 0]
    for corpus, questions in by_corpus.items():
        checked, ruled_out, wrong, seconds = check(HERE / "corpora" / corpus, questions, args.all_runs)
        total = [total[0] + checked, total[1] + ruled_out, total[2] + len(wrong)]
        print(f"{corpus}: {checked} runs, {ruled_out} ruled out ({seconds:.1f} s of full queries), "
              f"{len(wrong)} of them name a symbol{': ' + repr(wrong) if wrong else ''}", flush=True)
    print(f"all: {total[0]} runs, {total[1]} ruled out, {total[2]} of them name a symbol")
    return 1 if total[2] else 0


if __name__ == "__main__":
    raise SystemExit(main())
