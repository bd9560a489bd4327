"""Varints and node ids (`varints`) decoded over numpy arrays, for the postings of a word that many nodes hold: the
same ints the Python decoding gives, whole-array steps instead of a step a byte. The caller holds numpy already
(importing it costs a cold process about 80 ms of CPU: `meaning.arrays.numpy_for` decides when that pays). Any value
that is not plainly one a build writes gives None: the codec's own decoding then reads it, and says what is wrong.
"""
from __future__ import annotations

from gitroute.bundle.varints import NODE_ORDINAL_MASK
from gitroute.model import NODE_ORDINAL_BITS

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing on the query path
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any


def import_numpy():  # -> the numpy module, or None when it is not installed
    """numpy with one OpenBLAS thread: nothing here multiplies matrices, and OpenBLAS starting a thread per core
    doubles the import's CPU."""
    import os

    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    try:
        import numpy
    except ImportError:
        return None
    return numpy


def decode_key(codec, stored: dict, key: str, read: Callable[[bytes], Any], min_bytes: int = 0) -> Any:
    """One key's value from a stored shard: `read` over arrays for a value of `min_bytes` or more, the codec's where
    that gives None or the value is no bytes (the codec then says what is wrong with it); None for a key not held."""
    raw = stored.get(key)
    if raw is None:
        return None
    if isinstance(raw, bytes) and len(raw) >= min_bytes:
        found = read(raw)
        if found is not None:
            return found
    return codec.decode_key(stored, key)


def varint_ints(np, raw: bytes):  # -> an int64 array, or None
    """The varints of `raw` as an int64 array; None when it is cut short, empty, or holds a varint past eight bytes
    (past 56 bits: the codec's ints, not int64's). Nearly every varint of a postings value is one byte (the
    kernel's "struct": 2,558 of 2.8 million are longer), so each varint's last byte is taken as it is, and only the
    longer ones are put together from their bytes: a few passes over the bytes, where shifting and summing every
    byte took several times as long (and a cold process as much again, faulting in arrays of eight bytes a byte)."""
    data = np.frombuffer(raw, dtype=np.uint8)
    if not len(data) or data[-1] >= 128:
        return None
    last = data < 128
    ends = np.flatnonzero(last)
    ints = data[ends].astype(np.int64)
    if len(ends) == len(data):
        return ints
    more = np.flatnonzero(~last)  # the bytes before a varint's last: few
    k = np.searchsorted(ends, more)  # the varint each belongs to (ascending)
    starts = np.where(k > 0, ends[k - 1] + 1, 0)
    firsts = np.flatnonzero(np.diff(k, prepend=-1))  # where each longer varint's bytes begin in `more`
    longer = k[firsts]
    sizes = ends[longer] - starts[firsts]  # its bytes before the last
    if int(sizes.max()) >= 8:
        return None
    low = np.add.reduceat((data[more] & 127).astype(np.int64) << (7 * (more - starts)), firsts)  # bits apart
    ints[longer] = ints[longer] << (7 * sizes) | low
    return ints


def node_id_array(np, moved, gaps):  # -> an int64 array, or None
    """`varints.node_ids` over arrays: ascending ids from their two columns (each id's bucket step, its ordinal's
    gap); None where the codec's ints could pass int64 or an ordinal passes its bits (the codec then raises)."""
    n = len(gaps)
    if not n:
        return np.zeros(0, dtype=np.int64)
    # Within int64 throughout: each bucket step under 2 ** 40 and fewer than 2 ** 22 of them sum below 2 ** 62.
    if n >> 22 or int(moved.max()) >> 40 or int(moved.sum()) >> 40 or int(gaps.max()) > NODE_ORDINAL_MASK:
        return None
    # An id's ordinal is its gap plus the ones before it since its bucket last moved.
    summed = np.cumsum(gaps)
    moves = np.flatnonzero(moved)
    ordinals = summed
    if len(moves):
        segment = np.cumsum(moved != 0) - 1  # the last move at or before each id
        ordinals = summed - np.where(segment >= 0, (summed - gaps)[moves][segment], 0)
    if int(ordinals.max()) > NODE_ORDINAL_MASK:
        return None
    return np.cumsum(moved) << NODE_ORDINAL_BITS | ordinals


def field_lists(np, raw: bytes, fields: int) -> list[list[int]] | None:
    """`tables.FieldLists.decode` over arrays: `fields` lists of ascending ids, each its length then its two columns;
    None for any value that is not plainly one a build writes."""
    ints = varint_ints(np, raw)
    if ints is None:
        return None
    found: list[list[int]] = []
    at, total = 0, len(ints)
    for _ in range(fields):
        if at >= total:
            return None
        n = int(ints[at])
        if 2 * n > total - at - 1:
            return None
        ids = node_id_array(np, ints[at + 1:at + 1 + n], ints[at + 1 + n:at + 1 + 2 * n])
        if ids is None:
            return None
        found.append(ids.tolist())
        at += 1 + 2 * n
    return found if at == total else None
