"""Warm answer latency of `git route mcp`: questions timed in process through the server's answer function.

    python bench/mcp_latency.py [--corpus django] [--questions 200]

The corpus must be materialised and built (`python bench/corpora.py django`, then `git route build` in
bench/corpora/django). Symbol questions are names of classes and functions the corpus defines; plain-words
questions are the first words of its docstrings ("where is the code that ..."). Each question is asked through
`ServerTools.call` (what a tools/call runs: the warm bundle's ref check, the answer, the JSON document and its
byte bound), first once cold per question (the server warm, the question new), then again (answered from the
answers the server keeps per pinned bundle). `ask` is also asked the names inside sentences ("who calls X?",
"Which doc explains X?"). Prints medians and 90th percentiles in milliseconds; targets: symbol at most 2 ms,
plain words at most 10 ms (median). Figures, not a test: the machine is shared.
"""
from __future__ import annotations

import argparse
import random
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

from gitroute.cli.mcp import ServerTools

HERE = Path(__file__).resolve().parent
_DEF = re.compile(r"^\s*(?:class|def) ([A-Za-z_]\w{3,})")
_DOC = re.compile(r'^\s*"""([A-Z][a-z]+(?: [a-z]+){3,7})')
# C, for a corpus with no Python (the Linux kernel): a function defined at a line's start, and a kernel-doc
# summary (` * kmalloc - allocate kernel memory`).
_C_DEF = re.compile(r"^(?:static )?(?:inline )?(?:const )?(?:unsigned )?(?:struct )?[a-z_]\w* \**([a-z_]\w{3,})\(")
_C_DOC = re.compile(r"^ \* [a-z_]\w*(?:\(\))? - ([A-Za-z][a-z]+(?: [a-z]+){3,7})")


def corpus_questions(repo: Path, n: int) -> tuple[list[str], list[str]]:
    """(names, plain-words questions), n of each, drawn with a fixed seed from the corpus's committed Python (its
    C when it has no Python)."""
    grep = subprocess.run(["git", "grep", "-h", "-E", r'^\s*(class |def |""")', "HEAD", "--", "*.py"],
                          cwd=repo, capture_output=True, text=True).stdout.splitlines()
    definition, doc = _DEF, _DOC
    if not grep:
        grep = subprocess.run(["git", "grep", "-h", "-E", r"^([a-z]| \* [a-z_])", "HEAD", "--", "*.c"],
                              cwd=repo, capture_output=True, text=True, check=True).stdout.splitlines()
        definition, doc = _C_DEF, _C_DOC
    names = sorted({m.group(1) for line in grep if (m := definition.match(line))
                    and not m.group(1).startswith("test")})
    docs = sorted({m.group(1).lower() for line in grep if (m := doc.match(line))})
    rng = random.Random(12)
    return rng.sample(names, min(n, len(names))), [f"where is the code that {d}" for d in
                                                   rng.sample(docs, min(n, len(docs)))]


# Sentences that name a thing and ask one kind of question of it (issue 21): the phrases, the name's facts looked
# up in the bundle, then the dedicated command.
_SENTENCES = ("Which doc explains {}?", "who calls {}?", "Where is {} defined?", "What would break if I changed {}?",
              "Is there a page in the docs about {}?")


def named_sentences(names: list[str]) -> list[str]:
    return [_SENTENCES[i % len(_SENTENCES)].format(name) for i, name in enumerate(names)]


def time_calls(tools: ServerTools, tool: str, questions: list[str]) -> tuple[list[float], int]:
    """Milliseconds per call, and how many were routed (not no_match)."""
    times, routed = [], 0
    for text in questions:
        start = time.perf_counter()
        document, is_error = tools.call(tool, {"text": text})
        times.append((time.perf_counter() - start) * 1000)
        if is_error:
            raise SystemExit(f"error: {document['error']['message']}")
        routed += document["status"] == "routed"
    return times, routed


def describe(times: list[float]) -> str:
    ordered = sorted(times)
    return (f"median {statistics.median(ordered):6.2f} ms  p90 {ordered[int(len(ordered) * 0.9)]:6.2f} ms  "
            f"max {ordered[-1]:7.2f} ms")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", default="django")
    parser.add_argument("--questions", type=int, default=200)
    parser.add_argument("--repo", type=Path, help="a built repository elsewhere than bench/corpora/CORPUS")
    args = parser.parse_args(argv)
    repo = args.repo or HERE / "corpora" / args.corpus
    names, sentences = corpus_questions(repo, args.questions)
    tools = ServerTools(str(repo))
    try:
        start = time.perf_counter()
        tools.call("status", {})
        print(f"{repo.name if args.repo else args.corpus}: server ready (bundle pinned, status answered) in "
              f"{(time.perf_counter() - start) * 1000:.1f} ms")
        for label, tool, questions in (("symbol (query, a name)", "query", names),
                                       ("plain words (query)", "query", sentences),
                                       ("symbol (ask)", "ask", names),
                                       ("plain words (ask)", "ask", sentences),
                                       ("a name in a sentence (ask)", "ask", named_sentences(names))):
            cold, routed = time_calls(tools, tool, questions)
            warm, _ = time_calls(tools, tool, questions)
            print(f"{label:<24} n={len(questions):<4} routed {routed:<4} first {describe(cold)}")
            print(f"{'':<24} {'':<17} again {describe(warm)}  (the answer kept by the server)")
        print(f"bundle pinned {tools.warm.pins} time(s)")
    finally:
        tools.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
