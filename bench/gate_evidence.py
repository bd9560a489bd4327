"""The meaning index's no_match gate on every plain-words and off-topic sentence of the bench files, with the floors
as they are and scaled by sentence length: how many right answers each keeps and how many off-topic ones it refuses.

    python bench/gate_evidence.py [--dump FILE] [--load FILE] [--fit] [bench files...]

Each question is asked of the meaning index with the gate off (`query_meaning(..., gate=False)`), in
`bench/corpora/<corpus>` (built beforehand), and its evidence kept: words, words no node holds, the best file's
coverage and rarest word, the terms it writes as names. The rule is then applied offline to that evidence: the
floors of `ranking.NO_MATCH_FLOORS` scaled by min(1, pivot / words) ** exponent, for a grid of pivots and exponents
(docs/decisions/0054). With `--fit`, the fitted gate for sentences (`ranking.GATE_WEIGHTS`, docs/decisions/0058):
the older questions and each sentence's hand-picked argument are asked too, a logistic rule is fitted on the sentences
among them, its weights printed, and it is judged by ten-fold cross-validation by corpus (each corpus judged by
weights fitted without it) beside the floors, per group: the blind sentences, the older questions, the arguments.
Not a test: a measurement, on the corpora's own bundles.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

ALL_WORDS_MISSING = "all"


def dump(files: list[Path], arguments: bool = False) -> list[dict]:
    """Each plain-words (route meaning) and off-topic sentence's evidence, with the gate off; with `arguments`, each
    sentence's argument and the older meaning and negative questions too ("src": sent, arg or old)."""
    from gitroute.bench import read_bench
    from gitroute.bundle.layout import INDEX_META
    from gitroute.bundle.store import BundleView
    from gitroute.indexes.meaning import NAME, _asked_words, query_meaning
    from gitroute.indexes.meaning.ranking import gate_features

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
                if q.type == "sentence" and (q.expects_no_match or q.route == "meaning"):
                    texts = [("sent", q.question)] + ([("arg", q.argument)] if arguments and q.argument else [])
                elif arguments and q.type in ("meaning", "negative"):
                    texts = [("old", q.question)]
                else:
                    continue
                for source, text in texts:
                    rows, _notes, evidence = query_meaning(text, index.section, index.read, limit=10, explain=False,
                                                           corrupt=index.corrupt, records=index.graph.records,
                                                           memo=index.memo, gate=False)
                    if evidence is None:
                        continue
                    expected = [e.partition("#")[0] for e in q.expect]
                    rank = next((i + 1 for i, r in enumerate(rows) if r.path in expected), None)
                    words = len(_asked_words(text)[0])
                    found.append({"file": path.name, "id": q.id, "src": source,
                                  "off_topic": q.expects_no_match or q.type == "negative", "rank": rank,
                                  "words": words, "missing": len(evidence.missing), "coverage": evidence.coverage,
                                  "best_idf": evidence.best_idf, "absent_terms": list(evidence.absent_terms),
                                  "routed": bool(rows), "sentence": evidence.sentence,
                                  "features": gate_features(evidence, max(words, 1))})
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


def fit(evidence: list[dict], folds: int = 10, off_topic_weight: float = 1.5) -> None:
    """Fit the sentence gate's weights on the sentences' evidence and judge them by cross-validation by corpus."""
    import random

    import numpy as np

    from gitroute.indexes.meaning.ranking import FLOOR_WORDS, GATE_ODDS, GATE_WEIGHTS, MIN_IDF

    names = [name for name, _ in GATE_WEIGHTS]
    x = np.array([[e["features"][n] for n in names] for e in evidence])
    off = np.array([e["off_topic"] for e in evidence])
    right = np.array([not e["off_topic"] and e["rank"] is not None and e["rank"] <= 3 for e in evidence])
    # an off-topic sentence refused counts off_topic_weight; a right answer kept 1; a real one the ranking misses 0.2
    weight = np.where(off, off_topic_weight, np.where(right, 1.0, 0.2))
    sentence = np.array([e["sentence"] for e in evidence])
    hard = np.array([not e["routed"] or e["missing"] >= e["words"] or e["best_idf"] < MIN_IDF for e in evidence])

    def logistic(rows: np.ndarray) -> tuple[np.ndarray, float]:
        mean, spread = x[rows].mean(0), x[rows].std(0) + 1e-9
        z = np.hstack([(x[rows] - mean) / spread, np.ones((rows.sum(), 1))])
        b = np.zeros(z.shape[1])
        for _ in range(3000):  # gradient descent on the weighted log loss, a little L2
            p = 1 / (1 + np.exp(-z @ b))
            b -= 0.5 * (z.T @ ((p - off[rows]) * weight[rows]) / weight[rows].sum() + 1e-2 * np.r_[b[:-1], 0])
        return b[:-1] / spread, float(b[-1] - (b[:-1] * mean / spread).sum())

    weights, bias = logistic(sentence)
    print("fitted on every sentence: " + ", ".join(f"{n} {w:+.2f}" for n, w in zip(names, weights))
          + f", bias {bias:+.2f}")
    corpora = sorted({e["file"].split(".")[0] for e in evidence})
    random.Random(1).shuffle(corpora)
    odds = np.zeros(len(evidence))
    for k in range(folds):
        held = np.array([e["file"].split(".")[0] in corpora[k::folds] for e in evidence])
        w, b = logistic(sentence & ~held)
        odds[held] = 1 / (1 + np.exp(-(x[held] @ w + b)))
    floors = np.array([refused(e, FLOOR_WORDS, 2.0) for e in evidence])  # ranking.no_match_reason's scaling
    fitted = np.where(sentence, (odds >= GATE_ODDS) | hard, floors)
    for group in ("sent", "old", "arg"):
        rows = np.array([e["src"] == group for e in evidence])
        if not rows.any():
            continue
        cells = [f"{label}: {int((right & ~ref & rows).sum())} right kept in the first three, "
                 f"{int((off & ref & rows).sum())} off-topic refused" for label, ref in (("floors", floors),
                                                                                       ("fitted", fitted))]
        print(f"{group} ({int((right & rows).sum())} right in the first three ungated, {int((off & rows).sum())} "
              f"off-topic): " + "; ".join(cells))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument("--dump", type=Path, help="write the evidence here")
    parser.add_argument("--load", type=Path, help="read the evidence from an earlier --dump instead of asking")
    parser.add_argument("--fit", action="store_true", help="fit the sentence gate and cross-validate it")
    args = parser.parse_args(argv)
    if args.load:
        evidence = json.loads(args.load.read_text())
    else:
        files = args.files or sorted(HERE.glob("*.routing-bench.yaml"))
        evidence = dump(files, arguments=args.fit)
        if args.dump:
            args.dump.write_text(json.dumps(evidence))
    if args.fit:
        fit(evidence)
        return 0
    evidence = [e for e in evidence if e.get("src", "sent") == "sent"]
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
