"""What a routing bundle weighs, by subtree: raw bytes and packed bytes (as git sends them in a fetch).

    python bench/bundle_weight.py REPO [--ref refs/marola/routing-bundle] [--depth 2] [--json]

Each subtree (to `--depth` path parts: `impact/names`, `graph/nodes`, `extract`) is packed by itself with
`git pack-objects --stdout` (its blobs and trees; deltas only within it), so the subtrees' packed sizes add up to a
little more than the whole bundle packed (the last line, which `bench/perf.py`'s `packed_mb` measures the same way
with the bundle commit). Not a test: figures, for a decision record.
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
from collections import defaultdict
from pathlib import Path


def _git(repo: Path, *args: str, data: bytes | None = None) -> bytes:
    return subprocess.run(["git", *args], cwd=repo, input=data, capture_output=True, check=True).stdout


def packed(repo: Path, oids: list[str]) -> int:
    """Bytes of these objects packed as git sends them (deltas and zlib)."""
    if not oids:
        return 0
    return len(_git(repo, "pack-objects", "--stdout", "-q", data="\n".join(oids).encode() + b"\n"))


def weigh(repo: Path, ref: str, depth: int) -> dict:
    listing = _git(repo, "ls-tree", "-r", "-t", "-l", "-z", ref).split(b"\0")
    groups: dict[str, list[str]] = defaultdict(list)
    raw: dict[str, int] = defaultdict(int)
    count: dict[str, int] = defaultdict(int)
    every: list[str] = []
    for entry in filter(None, listing):
        meta, _, path = entry.partition(b"\t")
        _mode, kind, oid, size = meta.split()
        parts = path.decode("utf-8", "surrogateescape").split("/")
        if kind == b"tree" and len(parts) < depth:
            continue
        # a blob counts toward its folder (to `depth` parts); a blob at the top toward itself
        name = "/".join(parts[:-1][:depth] if kind == b"blob" and len(parts) > 1 else parts[:depth])
        groups[name].append(oid.decode())
        every.append(oid.decode())
        if kind == b"blob":
            raw[name] += int(size)
            count[name] += 1
    rows = [{"subtree": name, "blobs": count[name], "raw": raw[name], "packed": packed(repo, oids)}
            for name, oids in groups.items()]
    rows.sort(key=lambda row: -row["packed"])
    commit = _git(repo, "rev-parse", ref).decode().strip()
    tree = _git(repo, "rev-parse", ref + "^{tree}").decode().strip()
    whole = packed(repo, [commit, tree, *every])
    return {"ref": ref, "tree": tree, "rows": rows, "total_raw": sum(raw.values()), "total_packed": whole}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("repo", type=Path)
    parser.add_argument("--ref", default="refs/marola/routing-bundle")
    parser.add_argument("--depth", type=int, default=2)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    result = weigh(args.repo, args.ref, args.depth)
    if args.json:
        json.dump(result, sys.stdout, indent=1)
        print()
        return 0
    print(f"{'subtree':<28} {'blobs':>6} {'raw MB':>8} {'packed MB':>10}")
    for row in result["rows"]:
        print(f"{row['subtree']:<28} {row['blobs']:>6} {row['raw'] / 1e6:>8.2f} {row['packed'] / 1e6:>10.2f}")
    print(f"{'bundle (one pack)':<28} {'':>6} {result['total_raw'] / 1e6:>8.2f} {result['total_packed'] / 1e6:>10.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
