"""Design records asked for the way people ask why: a sample of the section headings of a corpus's design documents,
each in one why sentence to `ask`.

    python bench/why_sentences.py [CORPUS ...] [--headings 8] [--seed 3]

The documents are those whose path says they hold design records or reasons (adr, decision, design, nxep, rfc,
proposal, rationale, why); their headings of three to nine words are drawn (`--seed`) by `docs_sentences.headings`
(regular expressions, not gitroute), a record template's own headings left out ("Context", "Decision Drivers",
"Considered Options": every record has them), and each is asked in one of six templates ("why X?", "what was the
reasoning behind X?", "is there a design record about X?", "what motivated X?", ...). Right when one of the first
three rows is a document that holds that heading. Figures, not a test: no answer is checked by hand.
"""
from __future__ import annotations

import argparse
import random
import re
import sys
from pathlib import Path

from docs_sentences import headings

HERE = Path(__file__).resolve().parent
TEMPLATES = ["why {}?", "what was the reasoning behind {}?", "why did the project decide on {}?",
             "what alternatives were considered to {}?", "is there a design record about {}?", "what motivated {}?"]
DEFAULT_CORPORA = ["tuf", "attrs", "click", "golang-x-tools", "networkx", "xarray"]
_RECORDS = re.compile(r"adr|decision|design|nxep|rfc|proposal|rationale|why", re.I)
_TEMPLATE_HEADINGS = re.compile(r"(?:context|decision|consequences|considered|pros|cons|links|status|abstract"
                                r"|motivation|alternatives)\b", re.I)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpora", nargs="*", default=DEFAULT_CORPORA)
    parser.add_argument("--headings", type=int, default=8)
    parser.add_argument("--seed", type=int, default=3)
    args = parser.parse_args(argv)
    from gitroute import api  # installed, or another checkout's by PYTHONPATH
    from gitroute.bundle.store import BundleView

    draw = random.Random(args.seed)
    asked = right = 0
    for corpus in args.corpora:
        repo = HERE / "corpora" / corpus
        held = {h: paths for h, paths in headings(repo, (3, 9), lambda path: bool(_RECORDS.search(path))).items()
                if not _TEMPLATE_HEADINGS.match(h)}
        sample = sorted(held)
        draw.shuffle(sample)
        with BundleView(str(repo)) as view:
            for n, heading in enumerate(sample[:args.headings]):
                question = TEMPLATES[(n + args.seed) % len(TEMPLATES)].format(re.sub(r"^\d+[.:]?\s*", "", heading)
                                                                              .rstrip("?"))
                answer, classification = api.ask(question, repo=str(repo), bundle=view)
                first = [row.path for row in answer.rows[:3]]
                asked += 1
                if held[heading].intersection(first):
                    right += 1
                    continue
                print(f"miss  {corpus:14} {question!r:72} want {sorted(held[heading])[0]}  got {first} via "
                      f"{[route.kind for route in classification.routes]}")
    print(f"{asked} questions: a document with the heading in the first three rows {right}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
