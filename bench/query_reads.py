"""What one cold `git route query` reads from the bundle: every blob by path and its size, in read order.

    python bench/query_reads.py REPO [--] QUERY ARGS...

Runs the query in this process (the CLI's own entry point) with the bundle view's reads recorded, and prints each
blob read, its bytes, and the totals to stderr. Not a test: the evidence that a question reads the postings of its
own words and not a table proportional to the repository.
"""
from __future__ import annotations

import os
import sys

from gitroute.bundle import store


def main(argv: list[str]) -> int:
    repo, *args = argv
    reads: list[tuple[str, int]] = []
    original = store.BundleView.read

    def read(self, paths):
        found = original(self, paths)
        reads.extend((p, len(found[p])) for p in paths if p in found)
        return found

    store.BundleView.read = read  # type: ignore[method-assign]
    os.chdir(repo)
    from gitroute.cli import main as cli_main

    try:
        cli_main(["query", *args])
    finally:
        for path, size in reads:
            print(f"{size:>9}  {path}", file=sys.stderr)
        print(f"{sum(s for _, s in reads):>9}  total, {len(reads)} blobs", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
