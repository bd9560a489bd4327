"""Pages asked for the way people ask for them: a sample of the section headings of a corpus's documents, each in one
sentence to `ask`.

    python bench/docs_sentences.py [CORPUS ...] [--headings 12] [--seed 7]

For each corpus (materialised and built: `python bench/corpora.py NAME`, then `git route build` in
bench/corpora/NAME), `--headings` headings of two to six words are drawn (`--seed`) from its Markdown (`##`, `###`)
and reStructuredText (underlined) documents, read by regular expressions (not by gitroute: the sample does not
depend on what the indexes hold; changelogs and licences left out), and each is asked in one of eight general
templates in turn ("which page explains X?", "where is X documented?", "I want to read about X", ...), lower-cased,
through `api.ask` as the MCP server answers. An answer is right when one of its first three rows is a document that
holds a heading of those words (a heading several documents share, "API changes" in release notes, is right in any
of them). Prints each miss and the count. Figures, not a test: the headings are the documents' own words, which
tests the routing of a docs question more than the ranking of its sections; no answer is checked by hand.
"""
from __future__ import annotations

import argparse
import random
import re
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
TEMPLATES = ["which page explains {}?", "where is {} documented?", "is there a doc about {}?",
             "I want to read about {}", "where can I learn about {}?", "docs for {}",
             "what does the documentation say about {}?", "point me to the guide on {}"]
DEFAULT_CORPORA = ["flask", "django", "click", "cobra", "attrs", "gin", "xarray", "pluggy", "networkx", "fastify",
                   "express", "jsoup", "rack", "monolog", "tuf", "spdlog"]
_LEFT_OUT = re.compile(r"change|history|license|licence", re.I)
_RST_UNDERLINE = re.compile(r"^[-~=^]{4,}$")


def headings(repo: Path, words: tuple[int, int] = (2, 6), kept=lambda path: True) -> dict[str, set[str]]:
    """Each heading of `words` (fewest, most) plain words, lower-cased -> the documents `kept` that hold it."""
    listed = subprocess.run(["git", "ls-files", "*.md", "*.rst"], cwd=repo, capture_output=True, text=True,
                            check=True).stdout.split()
    found: dict[str, set[str]] = defaultdict(set)
    for path in listed:
        if _LEFT_OUT.search(Path(path).name) or not kept(path):
            continue
        lines = (repo / path).read_text(encoding="utf-8", errors="replace").splitlines()
        for at, line in enumerate(lines):
            heading = None
            if path.endswith(".md") and re.match(r"^#{2,3} \w", line):
                heading = line.lstrip("#").strip()
            elif path.endswith(".rst") and at + 1 < len(lines) and _RST_UNDERLINE.match(lines[at + 1]) \
                    and len(lines[at + 1]) >= len(line) > 6 and re.match(r"^[A-Za-z]", line):
                heading = line.strip()
            if heading and words[0] <= len(heading.split()) <= words[1] and not re.search(r"[`()<>\[\]*:]", heading):
                found[heading.lower()].add(path)
    return found


def ask_headings(corpus: str, held: dict[str, set[str]], templates: list[str], count: int, draw: random.Random,
                 seed: int) -> tuple[int, int]:
    """(asked, right): `count` of the corpus's headings drawn, each asked in its turn's template; a miss printed."""
    from gitroute import api  # installed, or another checkout's by PYTHONPATH
    from gitroute.bundle.store import BundleView

    repo = HERE / "corpora" / corpus
    sample = sorted(held)
    draw.shuffle(sample)
    asked = right = 0
    with BundleView(str(repo)) as view:
        for n, heading in enumerate(sample[:count]):
            question = templates[(n + seed) % len(templates)].format(re.sub(r"^\d+[.:]?\s*", "", heading).rstrip("?"))
            answer, classification = api.ask(question, repo=str(repo), bundle=view)
            first = [row.path for row in answer.rows[:3]]
            asked += 1
            if held[heading].intersection(first):
                right += 1
                continue
            print(f"miss  {corpus:14} {question!r:72} want {sorted(held[heading])[0]}  got {first} via "
                  f"{[route.kind for route in classification.routes]}")
    return asked, right


def sample_main(argv: list[str] | None, doc: str, corpora: list[str], count: int, seed: int, templates: list[str],
                held_of) -> int:
    """A sampler's command line: its corpora, `--headings` per corpus, `--seed`; `held_of(repo)` its headings."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("corpora", nargs="*", default=corpora)
    parser.add_argument("--headings", type=int, default=count)
    parser.add_argument("--seed", type=int, default=seed)
    args = parser.parse_args(argv)
    draw = random.Random(args.seed)
    asked = right = 0
    for corpus in args.corpora:
        counts = ask_headings(corpus, held_of(HERE / "corpora" / corpus), templates, args.headings, draw, args.seed)
        asked, right = asked + counts[0], right + counts[1]
    print(f"{asked} questions: a document with the heading in the first three rows {right}")
    return 0


def main(argv: list[str] | None = None) -> int:
    return sample_main(argv, __doc__, DEFAULT_CORPORA, 12, 7, TEMPLATES, headings)


if __name__ == "__main__":
    sys.exit(main())
