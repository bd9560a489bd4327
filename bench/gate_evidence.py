"""The meaning index's no_match gate on every plain-words and off-topic sentence of the bench files, with the floors
as they are and scaled by sentence length: how many right answers each keeps and how many off-topic ones it refuses.

    python bench/gate_evidence.py [--dump FILE] [--load FILE] [bench files...]

Each question is asked of the meaning index with the gate off (`query_meaning(..., gate=False)`), in
`bench/corpora/<corpus>` (built beforehand), and its evidence kept: words, words no node holds, the best file's
coverage and rarest word, the terms it writes as names. The rule is then applied offline to that evidence: the
floors of `ranking.NO_MATCH_FLOORS` scaled by min(1, pivot / words) ** exponent, for a grid of pivots and exponents
(docs/decisions/0054). Not a test: a measurement, on the corpora's own bundles.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

ALL_WORDS_MISSING = "all"


def dump(files: list[Path]) -> list[dict]:
    """Each plain-words (route meaning) and off-topic sentence's evidence, with the gate off."""
    from gitroute.bench import read_bench
    from gitroute.bundle.layout import INDEX_META
    from gitroute.bundle.store import BundleView
    from gitroute.indexes.meaning import NAME, _asked_words, query_meaning

    found: list[dict] = []
    for path in files:
        corpus = HERE / "corpora" / path.name.split(".")[0]
        if not corpus.exists():
            continue
        with BundleView(str(corpus)) as view:
            index = view.index(NAME)
            if not index.read([INDEX_META]):
                continue
            for q in read_bench(str(path)).questions:
                if q.type != "sentence" or not (q.expects_no_match or q.route == "meaning"):
                    continue
                rows, _notes, evidence = query_meaning(q.question, index.section, index.read, limit=10,
                                                       explain=False, corrupt=index.corrupt,
                                                       records=index.graph.records, memo=index.memo, gate=False)
                if evidence is None:
                    continue
                expected = [e.partition("#")[0] for e in q.expect]
                rank = next((i + 1 for i, r in enumerate(rows) if r.path in expected), None)
                found.append({"file": path.name, "id": q.id, "off_topic": q.expects_no_match, "rank": rank,
                              "words": len(_asked_words(q.question)[0]), "missing": len(evidence.missing),
                              "coverage": evidence.coverage, "best_idf": evidence.best_idf,
                              "absent_terms": list(evidence.absent_terms), "routed": bool(rows)})
    return found


def refused(x: dict, pivot: float, exponent: float) -> bool:
    """`ranking.no_match_reason`'s rule on dumped evidence, its floors scaled by min(1, pivot / words) ** exponent."""
    from gitroute.indexes.meaning.ranking import MIN_IDF, NO_MATCH_FLOORS

    if not x["routed"] or not x["words"] or x["missing"] >= x["words"] or x["absent_terms"] or x["best_idf"] < MIN_IDF:
        return True
    scale = min(1.0, pivot / x["words"]) ** exponent
    share = x["missing"] / x["words"]
    return any(share >= at_least and x["coverage"] < floor * scale for at_least, floor in NO_MATCH_FLOORS)


def score(evidence: list[dict], pivot: float, exponent: float) -> tuple[int, int]:
    """(right answers kept in the first three, off-topic sentences refused)."""
    kept = sum(1 for x in evidence if not x["off_topic"] and x["rank"] is not None and x["rank"] <= 3
               and not refused(x, pivot, exponent))
    return kept, sum(1 for x in evidence if x["off_topic"] and refused(x, pivot, exponent))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument("--dump", type=Path, help="write the evidence here")
    parser.add_argument("--load", type=Path, help="read the evidence from an earlier --dump instead of asking")
    args = parser.parse_args(argv)
    if args.load:
        evidence = json.loads(args.load.read_text())
    else:
        files = args.files or sorted(HERE.glob("*.sentences.routing-bench.yaml"))
        evidence = dump(files)
        if args.dump:
            args.dump.write_text(json.dumps(evidence))
    plain = sum(not x["off_topic"] for x in evidence)
    print(f"{len(evidence)} sentences: {plain} plain-words, {len(evidence) - plain} off-topic")
    kept, refused_ = score(evidence, 1.0, 0.0)
    print(f"floors unscaled: {kept} right kept in the first three, {refused_} off-topic refused, {kept + refused_}")
    for exponent in (1.0, 2.0, 3.0, 4.0):
        cells = []
        for pivot in (8, 9, 10, 11, 12):
            kept, refused_ = score(evidence, pivot, exponent)
            cells.append(f"{pivot}: {kept}+{refused_}={kept + refused_}")
        print(f"(pivot / words) ** {exponent:g}   " + "   ".join(cells))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
