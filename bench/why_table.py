"""The why-section table: decision questions through `git route why`, section and record right in the top 3.

    python bench/why_table.py [--no-build] [--sentences DIR ...] [--ask-with argument|question] [-v] [corpora...]
    python bench/why_table.py --records [--no-build] [corpora...]

Decision questions come from `bench/<corpus>*.routing-bench.yaml` (type `decision`, the question asked as
written) and from the `<DIR>/*.sentences.yaml` files about the corpus (their `# corpus:` line, else their
name; type `sentence`, route `decision`: the `argument`, what
one would pass to `why` by hand, or with `--ask-with question` the whole sentence). Per corpus, over the
records the questions expect, split by whether the record has a status field (its status in the bundle is
not `unknown`; a file that is no record at all counts as without):

- section right: an expected `path#section` is among the first three rows (the bench's rule);
- record right: a row of an expected record is among the first three rows;
- repeated rows: answers in which two of the first ten rows share (record, section);
- negatives: questions expecting `no_match` that were routed;
- off-topic: the twelve off-topic questions the no_match rule was calibrated on (docs/decisions/0003),
  asked on every corpus, that were routed.

`--records` lists, per corpus, every file the decision index made a record (path, status, format, rows),
which is how a change to what counts as a record is checked for false positives.
Builds each corpus's bundle first (materialised under bench/corpora/) unless --no-build.
"""
from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH.parent))
sys.path.insert(0, str(BENCH))

import yaml  # noqa: E402
from corpora import CORPORA, DEFAULT_CACHE, DEFAULT_DEST, materialise  # noqa: E402

from gitroute import api  # noqa: E402
from gitroute.bench import row_matches  # noqa: E402
from gitroute.bundle.store import BundleView  # noqa: E402

NO_MATCH = "no_match"
# docs/decisions/0003's off-topic questions: everyday words, nothing any record discusses.
OFF_TOPIC = (
    "why is the coffee machine on the third floor always broken",
    "how do I reset my password for the company email",
    "why did the team move to a new office downtown",
    "what is the best way to cook rice without a rice cooker",
    "why do the build servers restart every night at midnight",
    "who won the football match last weekend",
    "why are the meeting rooms always booked on mondays",
    "when is the holiday party this year and who is organising it",
    "how should I format the release notes for marketing",
    "why does my laptop battery drain so fast",
    "why did marketing change the button colours on the landing page",
    "what are the support desk opening hours",
)


def decision_questions(name: str, sentence_dirs: list[Path], ask_with: str) -> list[tuple[str, str, list[str]]]:
    """(id, text asked, expectations) of every decision question about a corpus."""
    found: list[tuple[str, str, list[str]]] = []
    for path in sorted(BENCH.glob(f"{name}.*routing-bench.yaml")):
        for q in yaml.safe_load(path.read_text())["questions"]:
            if q["type"] == "decision":
                found.append((f"{path.name.split('.routing')[0]}/{q['id']}", q["question"], list(q["expect"])))
    for path in sorted(p for folder in sentence_dirs for p in folder.glob("*.sentences.yaml")):
        if sentences_corpus(path) != name:
            continue
        for q in yaml.safe_load(path.read_text())["questions"]:
            if q.get("route") == "decision":
                text = q["argument"] if ask_with == "argument" else q["question"]
                found.append((f"{path.name.split('.')[0]}/{q['id']}", text, list(q["expect"])))
    return found


def sentences_corpus(path: Path) -> str:
    """The corpus a sentence file asks about: its `# corpus: NAME …` line, else its name (`NAME.sentences.yaml`)."""
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            if line.startswith("# corpus:"):
                return line.split(":", 1)[1].split()[0].rstrip(",")
            if not line.startswith("#"):
                break
    return path.name.split(".")[0]


def records_of(repo: str) -> list[list]:
    with BundleView(repo) as view:
        index = view.index("decisions")
        if not index.section.get("counts", {}).get("records"):
            return []
        return list(index.read_json("records.json"))


def repeated(rows: tuple) -> bool:
    keys = [(r.path, r.name) for r in rows[:10]]
    return len(keys) != len(set(keys))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("names", nargs="*")
    parser.add_argument("--no-build", action="store_true")
    parser.add_argument("--sentences", type=Path, action="append", default=[], metavar="DIR",
                        help="a folder of <corpus>.sentences.yaml files (default: bench/)")
    parser.add_argument("--ask-with", choices=("argument", "question"), default="argument")
    parser.add_argument("--records", action="store_true", help="list what becomes a record, per corpus")
    parser.add_argument("--verbose", "-v", action="store_true")
    parser.add_argument("--calibrate", action="store_true",
                        help="TSV of the no_match evidence of every question (the rule off): docs/decisions/0017")
    args = parser.parse_args(argv)
    dirs = args.sentences or [BENCH]
    if args.calibrate:
        return calibrate(args.names, dirs, args.ask_with, args.no_build)
    names = args.names or [n for n in CORPORA if decision_questions(n, dirs, args.ask_with)]
    if not args.records:
        print("| corpus | questions | with status: n | section top 3 | record top 3 | without status: n "
              "| section top 3 | record top 3 | repeated rows | negatives routed | off-topic routed |")
        print("|---|---|---|---|---|---|---|---|---|---|---|")
    totals: Counter[str] = Counter()
    for name in names:
        built = Path(DEFAULT_DEST) / name
        repo = str(built if args.no_build and built.is_dir() else materialise(name, DEFAULT_DEST, DEFAULT_CACHE))
        if not args.no_build:
            api.build(repo=repo)
        records = records_of(repo)
        if args.records:
            print(f"## {name}: {len(records)} records")
            for record in records:
                print(f"  {record[0]}\t{record[2]}\t{record[4] if len(record) > 4 else ''}\t{record[1][:70]}")
            continue
        status_of = {r[0]: r[2] for r in records}
        counts: Counter[str] = Counter()
        for qid, text, expect in decision_questions(name, dirs, args.ask_with):
            answer = api.answer("decisions", text, repo=repo, limit=10)
            top = answer.rows[:3] if answer.status != NO_MATCH else ()
            if expect == [NO_MATCH]:
                counts["negatives"] += 1
                counts["negatives_routed"] += answer.status != NO_MATCH
                if args.verbose and answer.status != NO_MATCH:
                    print(f"  routed {name}/{qid} {text!r}: {[(r.path, r.name) for r in top]}")
                continue
            paths = {e.partition("#")[0] for e in expect}
            group = "with" if any(status_of.get(p, "unknown") != "unknown" for p in paths) else "without"
            section_right = any(row_matches(r, e) for r in top for e in expect)
            record_right = any(r.path in paths for r in top)
            counts[f"{group}_n"] += 1
            counts[f"{group}_section"] += section_right
            counts[f"{group}_record"] += record_right
            counts["repeated"] += answer.status != NO_MATCH and repeated(answer.rows)
            if args.verbose and not section_right:
                got = [(r.path.rsplit("/", 1)[-1], r.name) for r in top] or answer.notes[:1]
                print(f"  miss {name}/{qid} {text!r}\n      want {expect}\n      got  {got}")
        for text in OFF_TOPIC:
            answer = api.answer("decisions", text, repo=repo, limit=10)
            counts["off_topic_routed"] += answer.status != NO_MATCH
            if args.verbose and answer.status != NO_MATCH:
                print(f"  off-topic routed {name} {text!r}: {[(r.path, r.name) for r in answer.rows[:3]]}")
        n = counts["with_n"] + counts["without_n"]
        print(f"| {name} | {n} | {counts['with_n']} | {counts['with_section']} | {counts['with_record']} "
              f"| {counts['without_n']} | {counts['without_section']} | {counts['without_record']} "
              f"| {counts['repeated']} | {counts['negatives_routed']}/{counts['negatives']} "
              f"| {counts['off_topic_routed']}/{len(OFF_TOPIC)} |", flush=True)
        totals.update(counts)
    if not args.records and len(names) > 1:
        n = totals["with_n"] + totals["without_n"]
        section = totals["with_section"] + totals["without_section"]
        print(f"| total | {n} | {totals['with_n']} | {totals['with_section']} | {totals['with_record']} "
              f"| {totals['without_n']} | {totals['without_section']} | {totals['without_record']} "
              f"| {totals['repeated']} | {totals['negatives_routed']}/{totals['negatives']} "
              f"| {totals['off_topic_routed']}/{len(OFF_TOPIC) * len(names)} |")
        print(f"\nsection right (top 3): {section}/{n} = {section / max(1, n):.0%}")
    return 0


def calibrate(names: list[str], dirs: list[Path], ask_with: str, no_build: bool) -> int:
    """Per question, on topic or off: the best of the first three rows' matched words and idf share."""
    from gitroute.indexes.decisions import NAME, blob_loader, parse_why, rank_rows

    print("corpus\tid\ttopic\trank\tquestion_words\tmatched\tcoverage\ttitle_coverage\titem_matched\titem_coverage")
    for name in names:
        repo = str(Path(DEFAULT_DEST) / name if no_build else materialise(name, DEFAULT_DEST, DEFAULT_CACHE))
        if not no_build:
            api.build(repo=repo)
        questions = [(i, t, e) for i, t, e in decision_questions(name, dirs, ask_with)]
        questions += [(f"off{k}", t, [NO_MATCH]) for k, t in enumerate(OFF_TOPIC, 1)]
        with BundleView(repo) as bundle:
            view = bundle.index(NAME)
            records = view.read_json("records.json") if view.section["counts"].get("rows") else []
            for qid, text, expect in questions:
                why = parse_why(text)
                scored, stored, idfs, _ = rank_rows(why, blob_loader(view), view.section, records)
                total = sum(idfs.values()) or 1.0
                top = scored[:3]
                from gitroute.indexes.decisions import _together

                runs = [g for r in top for g in _together(r.matched)]
                best = max(runs, key=lambda g: (len(g), sum(idfs[t] for t in g)), default=None)
                rank = None
                from gitroute.model import Row

                for k, r in enumerate(scored[:10], 1):
                    row = Row(records[stored[r.row_id][0]][0], None, stored[r.row_id][1], "decision")
                    if any(row_matches(row, e) for e in expect):
                        rank = k
                        break
                title_cov = 0.0
                item_best = (0, 0.0)
                for r in top:
                    title = set(doc_tokens_of(str(records[stored[r.row_id][0]][1])))
                    title_cov = max(title_cov, sum(idfs[t] for t in set(r.matched) & title) / total)
                    for item in stored[r.row_id][5]:
                        hit = set(why.tokens) & (set(doc_tokens_of(str(item[3]))) | title)
                        item_best = max(item_best, (len(hit), sum(idfs[t] for t in hit) / total))
                print(f"{name}\t{qid}\t{'off' if expect == [NO_MATCH] else 'on'}\t{rank}\t{len(why.tokens)}\t"
                      f"{len(best) if best else 0}\t"
                      f"{(sum(idfs[t] for t in best) / total) if best else 0:.3f}\t{title_cov:.3f}\t"
                      f"{item_best[0]}\t{item_best[1]:.3f}")
    return 0


def doc_tokens_of(text: str) -> list[str]:
    from gitroute.indexes.decisions import doc_tokens

    return doc_tokens(text)


if __name__ == "__main__":
    sys.exit(main())
