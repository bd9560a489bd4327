"""Hunt for documents that crash a tree-sitter grammar: random Markdown/rst-ish text, parsed in child processes.

    python bench/fuzz_documents.py [--inputs N] [--seed S] [--mode document|grammars] [--seconds T] [--out DIR]

A crash in a grammar's C scanner kills the process (SIGSEGV), so each batch of inputs is parsed by a fresh child,
which prints the index of each input before parsing it: when the child dies by a signal, the input it was parsing
is saved to DIR (default /tmp/gitroute-fuzz) and the hunt goes on with the rest of the batch. Modes:
`document` runs `parse_document` (guards included) on each input, as `.md` or `.rst`; `grammars` parses the whole
input with markdown_inline and rst too (rst only below its nesting limit) and markdown from `_block_safe`'s copy.
An input that takes more than T seconds (default 5) is killed by SIGALRM in the child (a grammar's C code cannot
be interrupted from Python) and saved as a slow one. Prints inputs parsed, seconds, crashes and slow inputs; a
crash found is the figure, not a failed test.

The generator follows tests/test_decisions.py (its `_PIECES` and random text) with what scanners trip on
added: every Unicode plane, surrogates (encoded with surrogatepass), NULs, CR, lone backticks, container
markers repeated on one line, long runs and deep indentation.
"""
from __future__ import annotations

import argparse
import os
import pickle
import random
import signal
import subprocess
import sys
import tempfile
import time
import types
from pathlib import Path

PIECES = [
    "# T\n", "## Decision\n", "## Considered Options\n", "## Status\n", "Superseded by [x](0002-y.md)\n",
    "- a: b\n", "* Good, because x\n", "### Option 1: a\n", 'Chosen option: "a", because b\n',
    "**Decided 2024-01-01:** x\n", ":Status: Final\n", "\n", "---\n", "status: x\n", "| Status | Accepted |\n",
    "|---|---|\n", "(D). x\n", "- (a) y\n", "## Alternatives\n", "  - nested\n", "```\ncode\n```\n",
    "Supersedes: ADR 1\n", "we decided to x\n",
]
SYNTAX = [
    "`", "``", "```", "~~~", "\r", "\r\n", "\t", "\x00", "\ud800", "\udfff", "> ", ">", "* ", "- ", "1. ", "[", "]",
    "(", ")", "<", "|", "\\", "*", "_", "!", "&amp;", "<!--", "-->", "<div>", "$$", ":", "..", ".. ", "::", "=",
    "    ", "  ", "\u2028", "\x85", "\ufeff", "\x0b", "\x0c", "#", "[^1]", "[x]: y", "- [ ] ", "+++",
]
PATHS = ["docs/adr/0001-x.md", "doc/proposals/nep-0001.rst"]


def text(rng: random.Random, size: int) -> str:
    chars = []
    for _ in range(rng.randint(0, size)):
        roll = rng.random()
        if roll < 0.5:
            chars.append(chr(rng.randint(0, 127)))
        elif roll < 0.7:
            chars.append(rng.choice(SYNTAX))
        elif roll < 0.85:
            chars.append(chr(rng.randint(0, 0xFFFF)))
        elif roll < 0.9:
            chars.append(chr(rng.randint(0xD800, 0xDFFF)))
        else:
            chars.append(chr(rng.randint(0, 0x10FFFF)))
    return "".join(chars)


def document(rng: random.Random) -> tuple[str, bytes]:
    parts = []
    for _ in range(rng.randint(0, rng.choice([30, 30, 100]))):
        roll = rng.random()
        if roll < 0.45:
            parts.append(rng.choice(PIECES))
        elif roll < 0.8:
            parts.append(text(rng, 20))
        elif roll < 0.9:
            parts.append(rng.choice(SYNTAX) * rng.randint(1, 40))
        elif roll < 0.95:
            marker = rng.choice(["- ", "> ", "1. ", "* "])
            parts.append("  " * rng.randint(0, 40) + marker * rng.randint(1, 40) + text(rng, 10) + "\n")
        else:
            parts.append(text(rng, 20) * rng.randint(1, 500))
    return rng.choice(PATHS), "".join(parts).encode("utf-8", "surrogatepass")


def child(batch_file: str, mode: str, seconds: str) -> None:
    from gitroute.parsing import documents

    with open(batch_file, "rb") as stream:
        batch = pickle.load(stream)
    for index, (path, data) in enumerate(batch):
        print(index, flush=True)
        signal.alarm(int(seconds))  # SIGALRM's default action ends the process, even inside a parse
        parse(documents, mode, path, data)
        signal.alarm(0)


def parse(documents: types.ModuleType, mode: str, path: str, data: bytes) -> None:
    if mode == "document":
        documents.parse_document(path, data)
        return
    documents._parser("markdown_inline").parse(data)
    if documents.nesting_depth(data, count_markers=True) <= documents.MAX_NESTING["markdown"]:
        documents._parser("markdown").parse(documents._block_safe(data))
    if documents.nesting_depth(data, count_markers=False) <= documents.MAX_NESTING["rst"]:
        documents._parser("rst").parse(data)


def main() -> int:
    options = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    options.add_argument("--inputs", type=int, default=20_000)
    options.add_argument("--seed", type=int, default=1)
    options.add_argument("--batch", type=int, default=2_000)
    options.add_argument("--mode", choices=("document", "grammars"), default="document")
    options.add_argument("--seconds", type=int, default=5, help="an input parsed longer is saved as slow")
    options.add_argument("--out", type=Path, default=Path(tempfile.gettempdir()) / "gitroute-fuzz")
    options.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    args = options.parse_args()
    if args.child:
        child(*args.child)
        return 0
    args.out.mkdir(parents=True, exist_ok=True)
    rng = random.Random(args.seed)
    batch_file = args.out / f"batch-{os.getpid()}.pkl"
    parsed = crashes = slow = 0
    start = time.perf_counter()
    pending: list[tuple[str, bytes]] = []
    while parsed < args.inputs:
        pending += [document(rng) for _ in range(args.batch - len(pending))]
        with open(batch_file, "wb") as stream:
            pickle.dump(pending, stream)
        result = subprocess.run([sys.executable, __file__, "--child", str(batch_file), args.mode, str(args.seconds)],
                                capture_output=True, text=True)
        done = [int(line) for line in result.stdout.split()]
        if result.returncode > 0:  # an exception, not a crash: the hunt itself is broken
            print(result.stderr, file=sys.stderr)
            return 2
        if result.returncode == 0:
            parsed += len(pending)
            pending = []
        else:
            index = done[-1] if done else 0
            path, data = pending[index]
            what = "slow" if result.returncode == -signal.SIGALRM else "crash"
            if what == "slow":
                slow += 1
            else:
                crashes += 1
            saved = args.out / f"{what}-{args.seed}-{parsed + index}{Path(path).suffix}"
            saved.write_bytes(data)
            print(f"{what} (exit {result.returncode}) on a {len(data)}-byte {path}: saved to {saved}", flush=True)
            parsed += index + 1
            pending = pending[index + 1:]
        print(f"{parsed} inputs  {time.perf_counter() - start:.0f} s  {crashes} crashes  {slow} slow", flush=True)
    batch_file.unlink(missing_ok=True)
    return 1 if crashes or slow else 0


if __name__ == "__main__":
    sys.exit(main())
