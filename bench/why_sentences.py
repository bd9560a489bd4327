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

import re
import sys
from pathlib import Path

from docs_sentences import headings, sample_main

TEMPLATES = ["why {}?", "what was the reasoning behind {}?", "why did the project decide on {}?",
             "what alternatives were considered to {}?", "is there a design record about {}?", "what motivated {}?"]
DEFAULT_CORPORA = ["tuf", "attrs", "click", "golang-x-tools", "networkx", "xarray"]
_RECORDS = re.compile(r"adr|decision|design|nxep|rfc|proposal|rationale|why", re.I)
_TEMPLATE_HEADINGS = re.compile(r"(?:context|decision|consequences|considered|pros|cons|links|status|abstract"
                                r"|motivation|alternatives)\b", re.I)


def record_headings(repo: Path) -> dict[str, set[str]]:
    """The headings of three to nine words of the documents that hold records or reasons, a template's left out."""
    found = headings(repo, (3, 9), lambda path: bool(_RECORDS.search(path)))
    return {heading: paths for heading, paths in found.items() if not _TEMPLATE_HEADINGS.match(heading)}


def main(argv: list[str] | None = None) -> int:
    return sample_main(argv, __doc__, DEFAULT_CORPORA, 8, 3, TEMPLATES, record_headings)


if __name__ == "__main__":
    sys.exit(main())
