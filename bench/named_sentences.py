"""Names asked the way agents ask for them: a sample of a corpus's definitions, each in one sentence to `ask`.

    python bench/named_sentences.py [CORPUS ...] [--names 20] [--seed 33] [--templates first|second]
                                    [--save FILE] [--compare FILE]

For each corpus (materialised and built: `python bench/corpora.py NAME`, then `git route build` in
bench/corpora/NAME), `--names` names are drawn (`--seed`) from the definitions of its most common language, found
by a regex over `git grep` (not by gitroute: the sample does not depend on what the indexes hold), and each is asked
in one sentence of the template set in turn ("find X", "what does X do?", "I need to change X, what else should I
look at?", ...), through `ServerTools.call("ask")` as the MCP server answers. A first row is "about X" when its name
holds X (the definition) or it is an impact row (X's users: impact was asked about X); else it is another name's, or
the answer is no_match. Prints a line per question and the three counts. `--save` writes the answers; `--compare`
prints the questions whose first row changed against a saved run (of another checkout: PYTHONPATH=/that/checkout).
Figures, not a test: the templates are general English, not the bench's phrasings; no answer is checked by hand.
"""
from __future__ import annotations

import argparse
import json
import random
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent

# A definition's name, by file extension: what a reader calls the thing's name in each language.
DEFINITIONS = {
    ".py": r"^\s*def ([a-z_]\w{3,})\(",
    ".go": r"^func (?:\([^)]*\) )?([A-Za-z_]\w{3,})\(",
    ".js": r"function ([A-Za-z_]\w{3,})\s*\(",
    ".ts": r"(?:function|const) ([A-Za-z_]\w{3,})\s*[=(]",
    ".rs": r"fn ([a-z_]\w{3,})",
    ".php": r"function ([a-zA-Z_]\w{3,})\(",
    ".rb": r"def (?:self\.)?([a-z_]\w{3,})",
    ".java": r"(?:public|private|protected|static)[\w<>\[\], ]* ([a-z]\w{3,})\(",
    ".cs": r"(?:public|private|internal|protected)[\w<>\[\], ]* ([A-Z]\w{3,})\(",
    ".c": r"^\w[\w\s\*]* \**([a-z_]\w{3,})\(",
    ".lua": r"function (?:[\w.]+[.:])?([a-z_]\w{3,})\s*\(",
}
TEMPLATES = {
    "first": ["where is {} defined?", "what does {} do?", "how is {} used?", "show me the {} function",
              "who uses {}?", "callers of {}", "I need to change {}, what else should I look at?",
              "explain {} to me", "is {} tested anywhere?", "find {}"],
    "second": ["which file has {}?", "Where is the code for {}?", "what tests cover {}?", "what calls {}",
               "can you explain what {} is for?", "{} - where does it live?", "give me {}", "who depends on {}?",
               "look up {} for me", "what happens in {}?"],
}
DEFAULT_CORPORA = ["flask", "django", "gin", "clap", "zod", "monolog", "jsoup", "golang-x-tools", "rack", "express"]


def _git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=repo, capture_output=True, check=True).stdout.decode("utf-8", "replace")


def draw_names(repo: Path, count: int, seed: int) -> list[str]:
    """`count` names defined in the repository's most common language with a definition regex (tests' `test...`
    functions left out: nothing calls them), drawn at random with `seed`."""
    extensions = Counter(Path(p).suffix for p in _git(repo, "ls-files").splitlines())
    extension = max((e for e in extensions if e in DEFINITIONS), key=lambda e: extensions[e])
    pattern = re.compile(DEFINITIONS[extension])
    lines = _git(repo, "grep", "-h", "-e", ".", "HEAD", "--", f"*{extension}").splitlines()
    names = sorted({m for line in lines for m in pattern.findall(line) if not m.lower().startswith("test")})
    return random.Random(seed).sample(names, min(count, len(names)))


def verdict(name: str, row: dict | None) -> str:
    if row is None:
        return "no_match"
    if name.lower() in (row.get("name") or "").lower() or row.get("type") == "impact":
        return "about"
    return "other"


def ask_corpus(corpus: str, count: int, seed: int, templates: list[str]) -> list[dict]:
    from gitroute.cli.mcp import ServerTools

    repo = HERE / "corpora" / corpus
    tools = ServerTools(str(repo))
    answers = []
    for i, name in enumerate(draw_names(repo, count, seed)):
        question = templates[(i + seed) % len(templates)].format(name)
        doc, _error = tools.call("ask", {"text": question})
        rows = doc.get("rows") or []
        first = rows[0] if rows else None
        answers.append({"corpus": corpus, "question": question, "verdict": verdict(name, first),
                        "first": [first.get("type"), first.get("path"), first.get("name")] if first else None})
    return answers


def _counts(answers) -> str:
    counts = Counter(a["verdict"] for a in answers)
    return f"about the name {counts['about']}, another name's row {counts['other']}, no_match {counts['no_match']}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpora", nargs="*", default=DEFAULT_CORPORA)
    parser.add_argument("--names", type=int, default=20)
    parser.add_argument("--seed", type=int, default=33)
    parser.add_argument("--templates", choices=sorted(TEMPLATES), default="first")
    parser.add_argument("--save", type=Path)
    parser.add_argument("--compare", type=Path)
    args = parser.parse_args()
    templates = TEMPLATES[args.templates]
    answers = [a for corpus in args.corpora for a in ask_corpus(corpus, args.names, args.seed, templates)]
    for a in answers:
        print(f"{a['verdict']:8s} {a['corpus']:15s} {a['question'][:60]:60s} {a['first']}")
    print(f"{len(answers)} questions: {_counts(answers)}")
    if args.compare:
        before = {(a["corpus"], a["question"]): a for a in json.loads(args.compare.read_text())}
        print(f"saved run: {_counts(before.values())}")
        for a in answers:
            b = before.get((a["corpus"], a["question"]))
            if b is not None and b["first"] != a["first"]:
                print(f"changed  {a['question'][:60]}: {b['first']} ({b['verdict']}) -> {a['first']} ({a['verdict']})")
    if args.save:
        args.save.write_text(json.dumps(answers, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
