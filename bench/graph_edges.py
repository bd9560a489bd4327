"""The code graph's edges of a repository as stable text lines, to compare two gitroute checkouts' graphs.

    PYTHONPATH=CHECKOUT python bench/graph_edges.py REPO > edges.txt
    python bench/graph_edges.py --diff OLD.txt NEW.txt
    PYTHONPATH=CHECKOUT python bench/graph_edges.py --work REPO

Builds the graph in process (no bundle is written: the extraction runs as a build's does) and prints one
line per edge, `kind<TAB>how<TAB>source<TAB>target`, a node named by its path, owner, name and kind (not by
its id, which moves with any symbol added before it), sorted. With --diff, prints the lines only one side
has, grouped by edge kind and resolution, with counts. With --work, the resolution's work counters
(`CodeGraph.work`; {} from a checkout that has none) and the CPU seconds of `build_graph`, as JSON. Not a
test: what differs needs a reason, given by a person.
"""
from __future__ import annotations

import argparse
import gc
import json
import sys
import time
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from gitroute.graph import CodeGraph


def graph_of(repo: str) -> CodeGraph:
    """The code graph of a repository's HEAD, built in process as a full build builds it (no memo); the CPU
    seconds `build_graph` took are left in `graph_of.seconds`."""
    from gitroute.build import _collect_sources, _extract_blob, _extract_key
    from gitroute.config import CONFIG_PATH, parse_config
    from gitroute.git import repository as git
    from gitroute.graph import build_graph

    store = git.open_repository(repo)
    commit = git.resolve_commit(store, "HEAD")
    config = parse_config(git.read_commit_file(store, commit, CONFIG_PATH))
    snap = git.snapshot_at(store, commit, max_file_bytes=config.max_file_bytes, excluded=config.is_excluded)
    keys = {e.path: _extract_key(e.oid, e.path) for e in snap.entries}
    # Each blob extracted in this process, as a build's workers extract it (the build's own loop also spills
    # and caches, which a graph measurement has no use for).
    todo = {keys[e.path]: e for e in snap.entries}
    results = {key: _extract_blob(key, snap.read(entry)) for key, entry in todo.items()}
    sources = _collect_sources(snap, keys, results)
    collecting = gc.isenabled()
    gc.disable()  # as a build does (`run_build`): the collector would rescan what only grows
    try:
        start = time.process_time()
        graph = build_graph(sources.files, sources.declared)
        graph_of.seconds = time.process_time() - start  # type: ignore[attr-defined]
    finally:
        if collecting:
            gc.enable()
    return graph


def edge_lines(repo: str) -> list[str]:
    graph = graph_of(repo)
    sys.stderr.write(f"{repo}: resolution work {dict(sorted(graph.work.items()))}\n")
    by_id = {n.id: n for n in graph.nodes}

    def label(node_id: int) -> str:
        n = by_id[node_id]
        if n.kind == "file":
            return n.path
        return f"{n.path}:{n.owner + '.' if n.owner else ''}{n.name}({n.kind})"

    return sorted({f"{e.kind}\t{e.how}\t{label(e.source)}\t{label(e.target)}" for e in graph.edges})


def diff(old: Path, new: Path) -> None:
    before = set(old.read_text().splitlines())
    after = set(new.read_text().splitlines())
    for sign, lines in (("-", sorted(before - after)), ("+", sorted(after - before))):
        groups = Counter("\t".join(line.split("\t")[:2]) for line in lines)
        counts = ", ".join(f"{k.replace(chr(9), '/')} {n}" for k, n in groups.most_common())
        print(f"{sign} {len(lines)} edges: {counts}")
        for line in lines:
            print(f"{sign} {line}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("repo", nargs="?")
    parser.add_argument("--diff", nargs=2, metavar=("OLD", "NEW"))
    parser.add_argument("--work", action="store_true", help="print the resolution's work counters as JSON instead")
    args = parser.parse_args(argv)
    if args.work:
        work = dict(sorted(getattr(graph_of(args.repo), "work", {}).items()))
        print(json.dumps({"work": work, "graph_cpu": graph_of.seconds}))  # type: ignore[attr-defined]
        return 0
    if args.diff:
        diff(Path(args.diff[0]), Path(args.diff[1]))
        return 0
    if not args.repo:
        parser.error("a repository, or --diff OLD NEW")
    sys.stdout.write("".join(line + "\n" for line in edge_lines(args.repo)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
