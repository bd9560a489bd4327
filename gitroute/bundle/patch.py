"""Patching a token index's shards from the ones the last build wrote: a one-file change rewrites the
shards of the tokens it changes, and keeps the others by id.

An index records in its memo, per file, what its postings were made from (a blob, a first node id...),
and each shard's blob id. This build's files whose record differs give the tokens whose postings moved;
their shards are read back by the id the memo recorded, when the bundle the ref holds still has that
blob (`bundle.writer.StoredBlobs`: a bundle proves what is stored, the memo says what it should be),
and patched; every other shard is kept by id. Each helper returns None when something is not at hand:
the index then builds every shard, as without a memo.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping

from gitroute.bundle.layout import load_json


def shard_count(items: int, per_shard: int) -> int:
    """How many shards hold `items` at about `per_shard` each: a power of two (a change of it moves every item)."""
    shards = 1
    while shards * per_shard < items:
        shards *= 2
    return shards


def changed_files(old: Mapping[str, object], now: Mapping[str, object]) -> list[str]:
    """The paths whose record differs from the last build's: changed or added (in `now`'s order), then removed."""
    return [path for path, record in now.items() if old.get(path) != record] + sorted(old.keys() - now.keys())


def read_shards(stored, folder: str, ids: Mapping[str, str], paths: Iterable[str]) -> dict[str, dict] | None:
    """The last build's shards at these paths (empty for a path it wrote nothing at); None when one is not
    at hand, or not a JSON object."""
    shards: dict[str, dict] = {}
    for path in paths:
        if path not in ids:
            shards[path] = {}
            continue
        data = stored.read(f"{folder}/{path}", ids[path])
        if data is None:
            return None
        try:
            value = load_json(data)
        except ValueError:
            return None
        if not isinstance(value, dict):
            return None
        shards[path] = value
    return shards


def moved_tokens(old: Mapping[str, object], new: Mapping[str, object], stored, folder: str,
                 ids: Mapping[str, str], shard_path) -> tuple[set[str], dict[str, dict]] | None:
    """The tokens whose postings from the changed files differ (`old`: then, `new`: now; token -> postings),
    and the last build's shards that hold them, by path (`shard_path(token)`); None when one is not at hand."""
    dirty = {t for t in old.keys() | new.keys() if old.get(t) != new.get(t)}
    read = read_shards(stored, folder, ids, {shard_path(t) for t in dirty})
    return None if read is None else (dirty, read)


def kept_shards(stored, folder: str, ids: Mapping[str, str], written: Iterable[str]) -> dict[str, str] | None:
    """Path -> blob id of the last build's shards not written again; None when the bundle at the ref lacks one."""
    skip = set(written)
    kept = {path: oid for path, oid in ids.items() if path not in skip}
    if any(stored.get(f"{folder}/{path}") != oid for path, oid in kept.items()):
        return None
    return kept


def shard_record(value: object, size: int) -> tuple | None:
    """A memo's shard record when it is a tuple of `size` whose second and third items are dicts (the
    files, the shard ids), else None."""
    if isinstance(value, tuple) and len(value) == size and isinstance(value[1], dict) and isinstance(value[2], dict):
        return value
    return None
