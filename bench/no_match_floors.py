"""The no_match rule's coverage floor against every bench file's plain-words and off-topic questions.

    python bench/no_match_floors.py [--floor 0.26 --floor 0.24 ...] [bench files...]

For each plain-words question (`type: meaning`, or a sentence whose `route` is meaning) and each off-topic one
(`type: negative`, or `expect: [no_match]`) of the bench files, asked in its corpus (`bench/corpora/<corpus>`,
materialised and built) through BM25, records the evidence the no_match rule reads (the share of the question's
words no node holds, the best file's coverage, its idf, the absent terms) and whether the first three files hold an
expected one. Then, for each second floor tried, prints the right answers kept and the off-topic questions refused,
for the blind sets (`*.blind*`) and the other files apart: how decision 0050 chose 0.24.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from gitroute import api  # noqa: E402
from gitroute.indexes import meaning  # noqa: E402
from gitroute.indexes.meaning import ranking  # noqa: E402


def evidence_of(benches: list[Path]) -> list[dict]:
    """One record per asked question: its file, whether it is off-topic, whether BM25 put an expected file in the
    first three, and the evidence (missing share, coverage, best idf, absent terms)."""
    seen: dict = {}
    rule = ranking.no_match_reason

    def spy(evidence, tokens):
        seen["e"] = (len(evidence.missing) / max(1, len(tokens)), evidence.coverage, evidence.best_idf,
                     list(evidence.absent_terms))
        return None  # every question answered: what it would have been is judged below

    meaning.no_match_reason = spy
    found = []
    try:
        for bench in benches:
            corpus = HERE / "corpora" / bench.name.split(".", 1)[0]
            for q in yaml.safe_load(bench.read_text()).get("questions", []):
                if not (q.get("type") in ("meaning", "negative") or q.get("route") == "meaning"):
                    continue
                seen.clear()
                rows = api.meaning(q["question"], repo=str(corpus), limit=10, candidate="bm25").rows
                if "e" not in seen:
                    continue
                files = list(dict.fromkeys(r.path for r in rows))[:3]
                expected = q.get("expect") or []
                negative = expected == ["no_match"] or q.get("type") == "negative"
                share, coverage, idf, absent = seen["e"]
                found.append({"file": bench.name, "negative": negative, "share": share, "coverage": coverage,
                              "idf": idf, "absent": absent,
                              "right": not negative and any(e.split("#")[0] in files for e in expected)})
    finally:
        meaning.no_match_reason = rule
    return found


def refused(x: dict, floor: float) -> bool:
    """The rule of `ranking.no_match_reason` with `floor` as its second coverage floor."""
    if x["absent"] or x["idf"] < ranking.MIN_IDF or x["share"] >= 1.0:
        return True
    floors = (*ranking.NO_MATCH_FLOORS[:-1], (ranking.NO_MATCH_FLOORS[-1][0], floor))
    return any(x["share"] >= share and x["coverage"] < least for share, least in floors)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("benches", type=Path, nargs="*", help="bench files (default: every bench/*.routing-bench.yaml)")
    parser.add_argument("--floor", type=float, action="append", help="a second floor to try (default: a range)")
    args = parser.parse_args(argv)
    records = evidence_of(args.benches or sorted(HERE.glob("*.routing-bench.yaml")))
    floors = args.floor or [0.26, 0.25, 0.24, 0.23, 0.22, 0.20]
    print(f"{len(records)} questions: {sum(not x['negative'] for x in records)} answerable, "
          f"{sum(x['negative'] for x in records)} off-topic; current floor {ranking.NO_MATCH_FLOORS[-1][1]}")
    print(f"{'floor':>6} {'set':<6} {'right kept':>10} {'off-topic refused':>18}")
    for floor in floors:
        for name, blind in (("blind", True), ("other", False)):
            part = [x for x in records if ("blind" in x["file"]) == blind]
            kept = sum(1 for x in part if x["right"] and not refused(x, floor))
            refusals = sum(1 for x in part if x["negative"] and refused(x, floor))
            print(f"{floor:>6} {name:<6} {kept:>10} {refusals:>18}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
