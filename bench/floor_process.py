"""The read + parse floor as a process of its own, as a build is one: start Python, import pygit2 and the grammars,
read every blob that has a language and parse it, with the build's number of worker processes.

    python bench/floor_process.py REPO [--jobs N]     (prints {"cpu": s, "wall": s, "files": n, "bytes": n})

`perf.floor_seconds` measures the same reading and parsing inside the bench's own process, which has imported
everything already: beside a `git route build` process, which starts Python and imports its own, that floor
leaves out what any tool that reads and parses pays before its first file (about 0.1 s of CPU here). On a
corpus of a few hundred small files that is as much as the parsing, so the benches print both floors.
The blob list (ids and languages) is worked out by the parent, so the process imports nothing of gitroute.
Like a build (`build.PARALLEL_MIN_BYTES`), it starts workers only for 2 MiB of files and more: below that a build
parses in its own process, and a floor that forked workers would be charged their start-up, which the build is not.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

# The child: nothing but the two libraries every build needs to read and parse (and a pool's, when it starts one).
_CHILD = r"""
import json, sys
import pygit2
from tree_sitter_language_pack import get_parser

repo_path, jobs = sys.argv[1], int(sys.argv[2])
items, size = json.load(sys.stdin)
store = []

def opened(path):
    store[:] = [pygit2.Repository(path)]

def read_parse(item):
    oid, lang = item
    data = store[0][pygit2.Oid(hex=oid)].data
    if b"\0" in data[:8000]:
        return 0
    get_parser(lang).parse(data)
    return len(data)

if jobs > 1 and size >= PARALLEL_MIN_BYTES and len(items) > 1:
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("fork"), initializer=opened,
                             initargs=(repo_path,)) as pool:
        sizes = list(pool.map(read_parse, items, chunksize=8))
else:
    opened(repo_path)
    sizes = list(map(read_parse, items))
print(json.dumps([sum(1 for n in sizes if n), sum(sizes)]))
"""


def parsed_blobs(repo: Path, documents: bool = False, sizes: list[int] | None = None) -> list[tuple[str, str]]:
    """(blob id, language) of every file of HEAD the floor parses, largest first (as `perf.floor_seconds`).

    With `documents`, the documents it leaves out instead (those with no pack language, `perf.floor_seconds`),
    each with its kind as `perf.DOCUMENT` spells it (`doc.txt`): `perf._read_parse` reads their format."""
    import pygit2

    from gitroute.parsing import language_for_path
    from gitroute.parsing.documents import document_kind

    store = pygit2.Repository(str(repo))
    items: list[tuple[int, str, str]] = []
    stack = [(store.head.peel(pygit2.Commit).tree, "")]
    while stack:
        tree, base = stack.pop()
        for entry in tree:
            if entry.type_str == "tree":
                stack.append((entry, base + entry.name + "/"))
            elif entry.type_str == "blob":
                lang = language_for_path(base + entry.name)
                if documents:  # the documents with no pack language: the floor's complement
                    kind = document_kind(base + entry.name) if lang is None else None
                    lang = "doc." + kind if kind else None
                size = store.odb.read_header(entry.id)[1] if lang else 0
                if lang and size <= 1024 * 1024:
                    items.append((size, str(entry.id), lang))
    items.sort(key=lambda item: -item[0])
    if sizes is not None:  # each blob's size, for a caller that decides on workers as a build does
        sizes[:] = [size for size, _oid, _lang in items]
    return [(oid, lang) for _size, oid, lang in items]


def floor_process(repo: Path, jobs: int, env: dict[str, str] | None = None) -> dict:
    """CPU and wall seconds of one floor process (and its workers), the files it parsed and their bytes."""
    from gitroute.build import PARALLEL_MIN_BYTES

    sizes: list[int] = []
    payload = json.dumps([parsed_blobs(repo, sizes=sizes), sum(sizes)]).encode()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    child = _CHILD.replace("PARALLEL_MIN_BYTES", str(PARALLEL_MIN_BYTES))
    done = subprocess.run([sys.executable, "-c", child, str(repo), str(jobs)], input=payload,
                          capture_output=True, check=True, env=env)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    files, parsed = json.loads(done.stdout)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {"cpu": cpu, "wall": wall, "files": files, "bytes": parsed}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("repo", type=Path)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args(argv)
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    print(json.dumps(floor_process(args.repo, args.jobs)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
