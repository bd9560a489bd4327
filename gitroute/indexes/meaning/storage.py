"""What the meaning index stores besides the floor's: the file table (`files.bin`), each file's first node id and
the length of each of its nodes, kept once a node instead of once a posting, and the postings' codec
(`MeaningPairs`) that leaves that length out (docs/decisions/0025, session 23).

    b"GRf1", then little-endian: u32 file count F, u32 slot count S, u32 exception count E; the files' first node
    ids (u32 x F, ascending; b"GRf2" when one is 2 ** 32 or more, and u64 each: a graph of more than 262,144 nodes
    has 4,096 buckets or more, and ids past 32 bits); each file's span (u8 x F: one more than its last node offset
    that holds postings, 0 for none); each slot's node length (u8 x S); then the exceptions, E x (u32 place, u32
    value), ascending by place: a span or length of 255 or more is stored as 255 and its value here (its place
    counts the spans, then the lengths). A file's slots are its span's node offsets in order, after the slots of the
    files before it (`base`).

The bundle holds it in two blobs (`split_file_table`): `files.bin`, the table up to the spans, and `lengths.bin`,
the rest (the lengths and the exceptions); the two joined are the table. The symbol tiers' path bounds read the
files' first ids alone (`load_file_starts`): the kernel's first blob is 430 KB of the table's 4.6 MB, and git
inflating the whole table was 20 ms of CPU of each cold name in words ("page cache").

Fixed-width columns (`array`, `bytes`): a plain-words question reads the table whole, and a copy costs nothing
where varints cost a Python loop over tens of thousands of ints; a byte a value with the few large ones apart
(django: 5,500 files, 18,300 nodes, 3 % of them over 254 words). A body word's posting keeps its length (the
body's, at most BODY_CAP) in the place of its term frequency, which is always 1: the table holds none. A bundle
is untrusted input: every size is checked against the blob's, and a posting whose node has no slot is
`BadValue` where it is looked up.
"""
from __future__ import annotations

import sys
from array import array
from collections.abc import Sequence
from itertools import accumulate, repeat
from operator import and_, rshift

from gitroute.bundle.tables import GapPairs
from gitroute.bundle.validate import BadValue
from gitroute.bundle.varints import node_gaps
from gitroute.indexes.meaning.postings import BODY_BIT, POSTING_BITS

FILES_MAGIC = b"GRf1"
WIDE_FILES_MAGIC = b"GRf2"  # the same table, the files' first node ids 8 bytes each
_HEAD = len(FILES_MAGIC) + 12
MAX_LENGTH = (1 << POSTING_BITS[1]) - 1  # a posting's length bits
TF_BITS, LENGTH_BITS = POSTING_BITS
MAX_SPAN = (1 << 20) - 1  # a node ordinal's bits (`model.NODE_ORDINAL_BITS`)
_BIG = 255  # a byte that says "the value is among the exceptions"
_U32 = next(code for code in "IL" if array(code).itemsize == 4)
_U64 = next(code for code in "LQ" if array(code).itemsize == 8)


class Lengths:
    """Each slot's node length: the table's bytes as stored, a length of 255 or more apart (`big`, slot -> length).
    A plain-words question reads the table whole: the kernel's 3.7 million slots as a list of ints cost a cold
    question 40 ms of CPU to make (and more to free), where the bytes cost a copy."""

    __slots__ = ("small", "big")

    def __init__(self, small: bytes | memoryview, big: dict[int, int]) -> None:
        self.small, self.big = small, big

    def __getitem__(self, slot: int) -> int:
        value = self.small[slot]
        return self.big[slot] if value == _BIG else value

    def __len__(self) -> int:
        return len(self.small)


class FileTable:
    """The files' first node ids, ascending (`starts`, a list: the file of any node is a bisection), with each node's
    length: `lengths[slot(k, node)]` for a node of file k. `starts` is a list of its own, not this table: a
    bisection of a list is made in C item by item, of a list's subclass through a call an item (the kernel's
    sentences bisect it tens of thousands of times, the symbol tiers' path bounds too)."""

    __slots__ = ("starts", "spans", "base", "lengths")

    def __init__(self, starts: Sequence[int], spans: Sequence[int], lengths: Lengths) -> None:
        # a list given is kept, not copied: a reader's file ids (`load_file_starts`) are the table's, and no one
        # changes them
        self.starts: list[int] = (starts.tolist() if isinstance(starts, array) else starts if type(starts) is list
                                  else list(starts))
        self.spans = spans
        self.base = [0, *accumulate(spans)]
        self.lengths = lengths

    def __len__(self) -> int:
        return len(self.starts)

    def __getitem__(self, k: int) -> int:
        return self.starts[k]

    def slot(self, k: int, node: int) -> int:
        """The slot of `node` in file k (`bisect_right(self.starts, node) - 1`); BadValue when the table has none.
        (`ranking.prepare_postings` does the same inline: a call a posting would be most of its cost.)"""
        at = node - self.starts[k] if k >= 0 else -1
        if at < 0 or at >= self.spans[k]:
            raise BadValue("a posting names a node the file table has no length for")
        return self.base[k] + at


_TF_MASK = (1 << TF_BITS) - 1
_LENGTH_SHIFT = TF_BITS
_FIELDS_SHIFT = TF_BITS + LENGTH_BITS


def _as_stored(payload: int) -> int:
    """A packed posting as `MeaningPairs` stores it: a body word's length in its term frequency's place (always
    1), every other posting's length left for the file table."""
    if payload >> _FIELDS_SHIFT & BODY_BIT:
        length = payload >> _LENGTH_SHIFT & MAX_LENGTH
        if payload & _TF_MASK != 1 or length > _TF_MASK:
            raise BadValue("a body word's posting is not a count of one and a body's length")
        return length | payload >> _FIELDS_SHIFT << _FIELDS_SHIFT
    return payload & ~(MAX_LENGTH << _LENGTH_SHIFT)


def _as_read(payload: int) -> int:
    """`_as_stored` undone: a body word's posting whole, any other without its length (the file table's)."""
    if payload >> _FIELDS_SHIFT & BODY_BIT:
        return 1 | (payload & _TF_MASK) << _LENGTH_SHIFT | payload >> _FIELDS_SHIFT << _FIELDS_SHIFT
    return payload


class MeaningPairs(GapPairs):
    """meaning's postings: (node id, packed posting) pairs as `GapPairs` stores them with the length field unstored,
    a body word's length kept in its term frequency's column (`_as_stored`). What a key reads back is what a build
    made, less the length of a posting that is not a body word's.

    A build holds a key's postings flat, `[node, payload, node, payload, ...]` (`_add_postings`): both ints are
    shared with the node's other postings, where a pair was a tuple a posting, most of a kernel's meaning worker.
    What a reader reads (`from_ints`), and what `patch` gives, are pairs; `encode` and `size` take either."""

    def __init__(self) -> None:
        super().__init__(bits=POSTING_BITS, unstored=1)

    def size(self, value) -> int:
        return len(value) if not value or isinstance(value[0], tuple) else len(value) >> 1

    # A key's postings are all a body word's or none (its key starts with `~` or not): the first says which, and
    # the others' are passed as they are (a call a posting would be most of a question's decoding).

    def to_ints(self, value) -> list[int]:
        if value and isinstance(value[0], tuple):
            ids, payloads = [node for node, _ in value], [payload for _, payload in value]
        else:
            ids, payloads = value[::2], value[1::2]
            if len(ids) != len(payloads):
                raise BadValue("flat postings are not (node, payload) pairs")
        if payloads and payloads[0] >> _FIELDS_SHIFT & BODY_BIT:
            payloads = [_as_stored(payload) for payload in payloads]
        # As `GapPairs.to_ints` spells them: the count, the ids, then the term frequencies and the fields (the
        # length, POSTING_BITS' second field, is the file table's: not stored).
        n = len(ids)  # the columns by `map` over `operator`s, in C: a Python loop a posting was a third of this
        return [n, *node_gaps(ids), *map(and_, payloads, repeat(_TF_MASK, n)),
                *map(rshift, payloads, repeat(_FIELDS_SHIFT, n))]

    def from_ints(self, ints: list[int]) -> list[tuple[int, int]]:
        pairs = super().from_ints(ints)
        if pairs and pairs[0][1] >> _FIELDS_SHIFT & BODY_BIT:
            return [(node, _as_read(payload)) for node, payload in pairs]
        return pairs

    def patch(self, before, gone, added) -> list[tuple[int, int]]:
        # `before` was read back as `from_ints` gives it: take out and put in the same way
        out = {(node, _as_read(_as_stored(payload))) for node, payload in _pairs(gone)}
        return sorted([p for p in before if p not in out]
                      + [(node, _as_read(_as_stored(payload))) for node, payload in _pairs(added)])


def _pairs(value) -> list[tuple[int, int]]:
    """A key's postings as pairs, whether held flat (a build's) or as pairs (a reader's)."""
    if value and not isinstance(value[0], tuple):
        return list(zip(value[::2], value[1::2]))
    return list(value)


def dump_file_table(files: Sequence[tuple[int, Sequence[tuple[int, int]]]]) -> bytes:
    """The table's blob from each file's first node id (ascending) and its nodes' (offset, length), ascending by
    offset."""
    starts = array(_U64)
    spans: list[int] = []
    lengths: list[int] = []
    for first, nodes in files:
        starts.append(first)
        span = nodes[-1][0] + 1 if nodes else 0
        spans.append(span)
        slots = [0] * span
        for offset, length in nodes:
            if not 0 <= length <= MAX_LENGTH:
                raise BadValue("a node length is out of the file table's range")
            slots[offset] = length
        lengths += slots
    if max(spans, default=0) > MAX_SPAN:
        raise BadValue("a file's span is out of the file table's range")
    small = bytes(min(value, _BIG) for value in (*spans, *lengths))
    exceptions = array(_U32, [n for place, value in enumerate((*spans, *lengths)) if value >= _BIG
                              for n in (place, value)])
    magic = WIDE_FILES_MAGIC
    if max(starts, default=0) < 1 << 32:
        magic, starts = FILES_MAGIC, array(_U32, starts)  # what every graph under 262,144 nodes writes
    if sys.byteorder != "little":
        starts.byteswap()
        exceptions.byteswap()
    head = magic + b"".join(n.to_bytes(4, "little") for n in (len(starts), len(lengths), len(exceptions) // 2))
    return b"".join((head, starts.tobytes(), small, exceptions.tobytes()))


def load_file_table(files: bytes, lengths: bytes | None = None, starts: list[int] | None = None) -> FileTable:
    """`dump_file_table` undone, from its two blobs (`split_file_table`; `lengths` None: `files` is the whole table);
    BadValue when they are not what it writes (sizes, ascending starts, spans, the exceptions' places and values).
    `starts`: `load_file_starts(files)` when a reader has it already (the symbol tiers read the first blob first):
    not parsed again. Neither blob is joined nor copied: the lengths are read in place."""
    if lengths is None:
        files, lengths = split_file_table(files)
    _code, width, n, slots = _head(files)
    big = int.from_bytes(files[12:16], "little")
    if len(files) != _HEAD + n * (width + 1) or len(lengths) != slots + big * 8:
        raise BadValue("the file table's sizes do not add up")
    if starts is None:
        starts = load_file_starts(files)  # with its checks
    at = _HEAD + width * n
    spans = list(files[at:])  # a byte each, as ints (a list of bytes is made in C)
    small = memoryview(lengths)[:slots]  # read in place
    big_lengths: dict[int, int] = {}
    exceptions = array(_U32)
    exceptions.frombytes(lengths[slots:])
    if sys.byteorder != "little":
        exceptions.byteswap()
    places = exceptions[::2].tolist()
    if (files.count(_BIG, at) + lengths.count(_BIG, 0, slots) != big
            or any((spans[place] if place < n else small[place - n]) != _BIG for place in places if place < n + slots)
            or places != sorted(set(places))):
        raise BadValue("the file table's exceptions are not its large values")
    for place, value in zip(places, exceptions[1::2]):
        if place < n and _BIG <= value <= MAX_SPAN:
            spans[place] = value
        elif n <= place < n + slots and _BIG <= value <= MAX_LENGTH:
            big_lengths[place - n] = value
        else:
            raise BadValue("a file table's exception is out of its range")
    table = FileTable(starts, spans, Lengths(small, big_lengths))
    if table.base[-1] != slots:
        raise BadValue("the file table's spans do not add up to its slots")
    return table


def _head(data: bytes) -> tuple[str, int, int, int]:
    """(array code, width, file count, slot count) from a table's header; BadValue when it has none."""
    if len(data) < _HEAD or data[:4] not in (FILES_MAGIC, WIDE_FILES_MAGIC):
        raise BadValue("the file table has no header")
    code = _U32 if data[:4] == FILES_MAGIC else _U64
    return code, array(code).itemsize, int.from_bytes(data[4:8], "little"), int.from_bytes(data[8:12], "little")


def split_file_table(data: bytes) -> tuple[bytes, bytes]:
    """A table's blob (`dump_file_table`) as the bundle stores it: (`files.bin`, `lengths.bin`), the header, the
    files' first ids and their spans; then the slots' lengths and the exceptions."""
    _code, width, n, _slots = _head(data)
    cut = _HEAD + n * (width + 1)
    if len(data) < cut:
        raise BadValue("the file table's sizes do not add up")
    return data[:cut], data[cut:]


def load_file_starts(files: bytes) -> list[int]:
    """The files' first node ids, ascending, from the first of the table's blobs (`split_file_table`) alone;
    BadValue when it is not one that writes (sizes, ascending ids)."""
    code, width, n, _slots = _head(files)
    if len(files) != _HEAD + n * (width + 1):
        raise BadValue("the file table's sizes do not add up")
    starts = array(code)
    starts.frombytes(files[_HEAD:_HEAD + width * n])
    if sys.byteorder != "little":
        starts.byteswap()
    found = starts.tolist()
    # Ascending, checked in C: a loop of comparisons would cost more than the rest of the read, and a set of node
    # ids (bucket << 20 | ordinal) hashes them into a few of its slots. A repeated first id, or a span that runs
    # past the next file's, is left unchecked: a node is looked up in the file a bisection finds, within that
    # file's own slots, so such a table gives wrong lengths but never reads out of its columns.
    if found != sorted(found):
        raise BadValue("the file table's files do not ascend")
    return found
