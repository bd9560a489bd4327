"""LEB128 varints and the binary shards of key -> bytes they are stored in: the postings', the edges' and the
records' encoding (a records shard spells its strings once, in a table ahead of the values).

A bundle is untrusted input: every reader here checks each length against what is left and raises `BadValue` (a
`ValueError`), which the readers above turn into the damaged-bundle error. docs/decisions/0025 says why.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from itertools import accumulate
from operator import itemgetter, mul, not_, sub

from gitroute.bundle.validate import BadValue
from gitroute.model import NODE_ORDINAL_BITS

MAX_VARINT_BYTES = 10  # an int below 2 ** 70: what no posting holds
SHARD_MAGIC = b"GRv1"
STRINGS_MAGIC = b"GRs1"


def encode_varints(ints: Iterable[int]) -> bytes:
    """Non-negative ints as LEB128 varints (seven bits a byte, low first; the high bit: more to come)."""
    values = ints if isinstance(ints, list) else list(ints)
    try:  # every int below 128 (most columns of small gaps, counts and fields): one byte each, made in C
        data = bytes(values)
    except (ValueError, TypeError):  # an int past a byte, or a negative one: spelled below
        pass
    else:
        if data.isascii():
            return data
    if len(values) > 1:  # each int's spelling looked up, in C (itemgetter of several keys gives a tuple)
        try:
            return b"".join(itemgetter(*values)(_spellings()))
        except KeyError:  # an int past two bytes, or a negative one
            pass
    out = bytearray()
    append = out.append
    for n in values:
        if n < 0:
            raise BadValue("a varint is negative")
        while n > 127:
            append(n & 127 | 128)
            n >>= 7
        append(n)
    return bytes(out)


_SPELLINGS: dict[int, bytes] = {}
SPELLED_BELOW = 1 << 14  # the ints of one or two bytes: nine in ten of a django build's that are past one


def _spellings() -> dict[int, bytes]:
    """Each int below SPELLED_BELOW -> its varint (a dict: a negative int or a larger one is a KeyError, not another
    int's entry); made on the first encoding that needs it, never on the query path. A build spells millions of
    ints: looked up, django's postings and records took 36% fewer instructions than spelled by the loop."""
    if not _SPELLINGS:
        _SPELLINGS.update(enumerate(bytes((n,)) for n in range(128)))
        _SPELLINGS.update((n, bytes((n & 127 | 128, n >> 7))) for n in range(128, SPELLED_BELOW))
    return _SPELLINGS


def decode_varints(data: bytes) -> list[int]:
    """`encode_varints` undone; raises BadValue on a truncated or overlong varint."""
    if not data or max(data) < 128:
        return list(data)  # every int below 128: one byte each (most gaps and counts)
    out: list[int] = []
    append = out.append  # bound once: this loop is the decoding's cost (a record shard's ints are many)
    n = shift = 0
    for byte in data:
        if byte < 128:
            if shift:
                append(n | byte << shift)
                n = shift = 0
            else:
                append(byte)
        else:
            n |= (byte & 127) << shift
            shift += 7
            if shift >= 7 * MAX_VARINT_BYTES:
                raise BadValue("a varint is too long")
    if shift:
        raise BadValue("a varint is cut short")
    return out


NODE_ORDINAL_MASK = (1 << NODE_ORDINAL_BITS) - 1
def node_gaps(ids: Sequence[int]) -> list[int]:
    """Ascending node ids (`bucket << NODE_ORDINAL_BITS | ordinal`) as two columns of small ints: each id's bucket
    less the one before's, then each ordinal, less the one before's when the bucket is the same (whole when it is
    not). A bucket is a hash of a file's path, so a list's ids are spread over 2 ** 30 and their plain gaps take
    four or five bytes each where these take two (docs/decisions/0025, its second amendment). Any ascending
    non-negative ints round-trip (`node_ids`); raises BadValue when they do not ascend."""
    if not ids:  # a field no node holds the word in (symbols' doc and context lists, often)
        return []
    if len(ids) == 1:  # a word one node holds: most postings lists
        (only,) = ids
        if only < 0:
            raise BadValue("node ids are not ascending")
        return [only >> NODE_ORDINAL_BITS, only & NODE_ORDINAL_MASK]
    buckets = [i >> NODE_ORDINAL_BITS for i in ids]
    ordinals = [i & NODE_ORDINAL_MASK for i in ids]
    # The differences from the one before, in C (`map` over `operator`s): an ordinal's is taken from 0 where the
    # bucket moved (the ordinal before times `not moved`).
    bucket_gaps = list(map(sub, buckets, [0, *buckets[:-1]]))
    ordinal_gaps = list(map(sub, ordinals, map(mul, [0, *ordinals[:-1]], map(not_, bucket_gaps))))
    if min(bucket_gaps) < 0 or min(ordinal_gaps) < 0:
        raise BadValue("node ids are not ascending")
    return bucket_gaps + ordinal_gaps


def node_ids(ints: Sequence[int]) -> list[int]:
    """`node_gaps` undone (its two columns, of one length); raises BadValue when they are not what it writes
    (an odd count, an ordinal past its bits)."""
    n, odd = divmod(len(ints), 2)
    if odd:
        raise BadValue("node ids are not two columns")
    ids: list[int] = []
    append = ids.append
    bucket = ordinal = 0
    for moved, gap in zip(ints[:n], ints[n:]):
        if moved:
            if ordinal > NODE_ORDINAL_MASK:  # the bucket's last, and so its largest
                break
            bucket += moved << NODE_ORDINAL_BITS
            ordinal = gap
        else:
            ordinal += gap
        append(bucket | ordinal)
    if ordinal > NODE_ORDINAL_MASK:
        raise BadValue("a node id's ordinal is past its bits")
    return ids


def dump_varint_shard(stored: Mapping[str, bytes]) -> bytes:
    """A binary shard (`VarintPostings`) of key -> encoded value, keys ascending by their UTF-8 bytes."""
    keys = sorted((key.encode("utf-8", "surrogateescape"), key) for key in stored)
    head = bytearray(SHARD_MAGIC)
    head += encode_varints([len(keys)])
    for raw, key in keys:
        head += encode_varints([len(raw)]) + raw + encode_varints([len(stored[key])])
    return bytes(head) + b"".join(stored[key] for _, key in keys)


def load_varint_shard(data: bytes, at: int = 0) -> dict[str, bytes]:
    """`dump_varint_shard` undone (from `at`): key -> its value's bytes (decoded when asked for); raises BadValue
    when the shard is not one `dump_varint_shard` writes (a length past the end, keys out of order, bytes left)."""
    if not isinstance(data, bytes) or data[at:at + 4] != SHARD_MAGIC:
        raise BadValue("a shard is not a binary postings shard")
    at += 4
    count, at = read_varint(data, at)
    if count > len(data):
        raise BadValue("a shard counts more keys than it has bytes")
    heads: list[tuple[str, int]] = []
    last = b""
    end = len(data)
    for _ in range(count):
        # Lengths below 128 (nearly all) are one byte: read in line, a call each only for the others.
        length = data[at] if at < end else 128
        if length < 128:
            at += 1
        else:
            length, at = read_varint(data, at)
        raw = data[at:at + length]
        if len(raw) != length or (heads and raw <= last):
            raise BadValue("a shard's keys are cut short or out of order")
        last = raw
        at += length
        size = data[at] if at < end else 128
        if size < 128:
            at += 1
        else:
            size, at = read_varint(data, at)
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


def dump_strings_shard(strings: Sequence[str], shared: bytes, stored: Mapping[str, bytes]) -> bytes:
    """A binary shard of records (`tables.StringRecords`), in blocks a reader splits with a few calls, not a loop
    over its strings and keys:

        b"GRs1", then six blocks, each its byte length (a varint) and its bytes: the strings' lengths (varints, in
        code points), the strings one after the other (UTF-8, `surrogatepass`: any str a record holds), the
        shard's shared ints, the keys' lengths, the values' lengths (varints), the keys one after the other
        (keys ascending); then the values, in the keys' order.

    A value refers to the strings by their index."""
    keys = sorted(stored)  # code point order: the order of their UTF-8 bytes
    blocks = (encode_varints(map(len, strings)), "".join(strings).encode("utf-8", "surrogatepass"), shared,
              encode_varints(map(len, keys)), encode_varints(len(stored[key]) for key in keys),
              "".join(keys).encode("utf-8", "surrogatepass"))
    out = bytearray(STRINGS_MAGIC)
    for block in blocks:
        out += encode_varints([len(block)]) + block
    return bytes(out) + b"".join(stored[key] for key in keys)


def load_strings_shard(data: bytes) -> tuple[list[str], bytes, dict[str, bytes]]:
    """`dump_strings_shard` undone: (strings, shared ints' bytes, key -> value bytes); raises BadValue when the
    shard is not one it writes (a block or a length past the end, keys out of order, bytes left over)."""
    if not isinstance(data, bytes) or data[:4] != STRINGS_MAGIC:
        raise BadValue("a shard is not a binary records shard")
    at = 4
    blocks = []
    for _ in range(6):
        length, at = read_varint(data, at)
        if length > len(data) - at:
            raise BadValue("a shard's block runs past its end")
        blocks.append(data[at:at + length])
        at += length
    string_lengths, text, shared, key_lengths, value_lengths, key_text = blocks
    strings = _split_text(text, decode_varints(string_lengths))
    keys = _split_text(key_text, decode_varints(key_lengths))
    sizes = decode_varints(value_lengths)
    if len(sizes) != len(keys) or sum(sizes) != len(data) - at:
        raise BadValue("a shard's values are not what its lengths say")
    if any(a >= b for a, b in zip(keys, keys[1:])):
        raise BadValue("a shard's keys are out of order")
    ends = list(accumulate(sizes, initial=at))
    return strings, shared, {key: data[ends[k]:ends[k + 1]] for k, key in enumerate(keys)}


def _split_text(raw: bytes, lengths: list[int]) -> list[str]:
    """UTF-8 text cut into strings of these lengths (in code points); BadValue when they do not add up."""
    try:
        text = raw.decode("utf-8", "surrogatepass")
    except UnicodeDecodeError as err:
        raise BadValue("a shard's text is not UTF-8") from err
    if sum(lengths) != len(text):
        raise BadValue("a shard's text is not as long as its strings")
    ends = list(accumulate(lengths, initial=0))
    return [text[ends[k]:ends[k + 1]] for k in range(len(lengths))]


def read_varint(data: bytes, at: int) -> tuple[int, int]:
    """The varint at `at` and where the next starts; BadValue when it is cut short or too long."""
    n = shift = 0
    for k in range(at, min(at + MAX_VARINT_BYTES, len(data))):
        byte = data[k]
        n |= (byte & 127) << shift
        if byte < 128:
            return n, k + 1
        shift += 7
    raise BadValue("a shard's varint is cut short or too long")
