"""Where a key falls among shards: one hash and one count for everything gitroute spreads over shards or buckets.

The storage floor's tables (`bundle.tables`: a key's shard), the graph's node buckets (`graph`: a file's bucket,
which its node ids start with) and the build memo's buckets (`bundle.memo`) all place a key by the CRC-32 of its
bytes modulo a power of two. It lives below `graph` so that all three use this one function; `bundle.tables`
re-exports it (docs/decisions/0018-storage-floor.md).
"""
from __future__ import annotations

import zlib


def shard_of(key: str | bytes, shards: int) -> int:
    """The shard that holds `key` among `shards`: the CRC-32 of its UTF-8 bytes (`surrogateescape`: a path may
    hold any bytes), or of the bytes given."""
    data = key if isinstance(key, bytes) else key.encode("utf-8", "surrogateescape")
    return zlib.crc32(data) % shards


def shard_count(size: int, per_shard: int, most: int | None = None) -> int:
    """How many shards hold `size` at about `per_shard` each: a power of two, at most `most` when given."""
    shards = 1
    while shards * per_shard < size and (most is None or shards < most):
        shards *= 2
    return shards
