"""LEB128 varints and the binary shard of key -> bytes they are stored in: the postings' and the edges' encoding.

A bundle is untrusted input: every reader here checks each length against what is left and raises `BadValue` (a
`ValueError`), which the readers above turn into the damaged-bundle error. docs/decisions/0025 says why.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping

from gitroute.bundle.validate import BadValue

MAX_VARINT_BYTES = 10  # an int below 2 ** 70: what no posting holds
SHARD_MAGIC = b"GRv1"


def encode_varints(ints: Iterable[int]) -> bytes:
    """Non-negative ints as LEB128 varints (seven bits a byte, low first; the high bit: more to come)."""
    out = bytearray()
    for n in ints:
        if n < 0:
            raise BadValue("a varint is negative")
        while n > 127:
            out.append(n & 127 | 128)
            n >>= 7
        out.append(n)
    return bytes(out)


def decode_varints(data: bytes) -> list[int]:
    """`encode_varints` undone; raises BadValue on a truncated or overlong varint."""
    if not data or max(data) < 128:
        return list(data)  # every int below 128: one byte each (most gaps and counts)
    out: list[int] = []
    n = shift = 0
    for byte in data:
        if byte < 128:
            out.append(n | byte << shift)
            n = shift = 0
        else:
            n |= (byte & 127) << shift
            shift += 7
            if shift >= 7 * MAX_VARINT_BYTES:
                raise BadValue("a varint is too long")
    if shift:
        raise BadValue("a varint is cut short")
    return out


def dump_varint_shard(stored: Mapping[str, bytes]) -> bytes:
    """A binary shard (`VarintPostings`) of key -> encoded value, keys ascending by their UTF-8 bytes."""
    keys = sorted((key.encode("utf-8", "surrogateescape"), key) for key in stored)
    head = bytearray(SHARD_MAGIC)
    head += encode_varints([len(keys)])
    for raw, key in keys:
        head += encode_varints([len(raw)]) + raw + encode_varints([len(stored[key])])
    return bytes(head) + b"".join(stored[key] for _, key in keys)


def load_varint_shard(data: bytes) -> dict[str, bytes]:
    """`dump_varint_shard` undone: key -> its value's bytes (decoded when asked for); raises BadValue when the
    shard is not one `dump_varint_shard` writes (a length past the end, keys out of order, bytes left over)."""
    if not isinstance(data, bytes) or data[:4] != SHARD_MAGIC:
        raise BadValue("a shard is not a binary postings shard")
    at = 4
    count, at = _read_varint(data, at)
    if count > len(data):
        raise BadValue("a shard counts more keys than it has bytes")
    heads: list[tuple[str, int]] = []
    last = b""
    for _ in range(count):
        length, at = _read_varint(data, at)
        raw = data[at:at + length]
        if len(raw) != length or (heads and raw <= last):
            raise BadValue("a shard's keys are cut short or out of order")
        last = raw
        at += length
        size, at = _read_varint(data, at)
        heads.append((raw.decode("utf-8", "surrogateescape"), size))
    values: dict[str, bytes] = {}
    for key, size in heads:
        value = data[at:at + size]
        if len(value) != size:
            raise BadValue("a shard's values are cut short")
        values[key] = value
        at += size
    if at != len(data):
        raise BadValue("a shard has bytes past its last value")
    return values


def _read_varint(data: bytes, at: int) -> tuple[int, int]:
    n = shift = 0
    for k in range(at, min(at + MAX_VARINT_BYTES, len(data))):
        byte = data[k]
        n |= (byte & 127) << shift
        if byte < 128:
            return n, k + 1
        shift += 7
    raise BadValue("a shard's varint is cut short or too long")
