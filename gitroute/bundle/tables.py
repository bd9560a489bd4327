"""The storage floor every index stores through: keyed values sharded by key into blobs, encoded by one codec,
built whole or brought up to date from the last build, and read back a few keys at a time.

An index declares each table it stores at module level: its folder inside the index's folder, how much a shard
holds on average, and its codec (what a key's value is in memory, and how a shard spells it):

    POSTINGS = PostingsTable("symbols", "postings", per_shard=1024, codec=FieldLists(3))

A shard is `<folder>/NNNNN.json`, a JSON object of key -> stored value, or `<folder>/NNNNN.bin` for a codec of
postings (`VarintPostings`: each key's ints as LEB128 varints, ids as gaps, in a binary shard of key -> bytes that
a reader splits without decoding the values, and checks as it goes: a bundle is untrusted input). A key's shard is
the CRC-32 of its UTF-8 bytes modulo the shard count, a power of two of shards holding `per_shard` on average (a
change of it moves every key): `gitroute.shards`, the one placement the graph's node buckets and the memo's
buckets use too. Answers read `table.read(view.read, keys, shards, corrupt)`: the shards of those keys, decoded;
a shard or value that is not what its codec writes is `corrupt(path)`, the damaged-bundle error. Rows by id
(decisions' section rows) go in a `ChunkTable`, `per_chunk` rows a blob, written whole.

A build hands `table.build` its units (a file, a document) in order, each with its record: everything that unit's
part of the table depends on (a blob id, a first node id...), and `fill(unit, into)`, which adds that part to a
dict of key -> value. With a memo table (`bundle.memo.MemoTable`) and the blobs of the bundle the ref holds
(`bundle.writer.StoredBlobs`), the table keeps its state in the memo (each unit's record, each shard's blob id),
and the next build writes only the shards that hold a key of a unit whose record changed, patched from the blobs
the last build wrote; every other shard is kept by id (`IndexBuild.kept`). A patch is exact or not made: when
something is not at hand (a shard the ref's bundle no longer stores, a unit's old part, a shard count that
moves) the table is built whole. Either way the blobs are byte for byte what a build with no memo writes.

Two ways to take a changed unit's old part out of a shard:
- `PostingsTable`: by content. `old(unit, record, into)` adds the part the unit had under its last record (the
  index keeps what it was made of in its own memo: a file's tokens); only the keys whose parts differ are patched.
- `RecordTable`: by owner. Each stored record names its unit (`Records.owner`), or the codec tells a unit's
  records otherwise (`Records.belongs`: impact's by the unit's span of node ids); the table remembers which shards
  each unit's keys fell in, and a changed unit's records are dropped from those shards. A build may also name
  keys whose records moved though no unit's record did (`remake`: doc_links' nodes whose line or centrality
  moved); their shards are made again from the parts of the units whose records are there.

docs/decisions/0018-storage-floor.md says why, and 0025-compact-encodings.md why postings are varints.
"""
from __future__ import annotations

from collections import defaultdict, namedtuple
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from itertools import accumulate
from operator import itemgetter, sub

from gitroute.bundle.validate import BadValue
from gitroute.bundle.varints import (
    decode_varints,
    dump_strings_shard,
    dump_varint_shard,
    encode_varints,
    load_strings_shard,
    load_varint_shard,
    node_gaps,
    node_ids,
)
from gitroute.shards import shard_count, shard_of

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing on the query path
if TYPE_CHECKING:
    from typing import Any

# A table built whole from more units than this fills them a batch at a time, each batch's postings set aside on
# disk in SPILL_BUCKETS buckets by key (`PostingsTable._batched`): the kernel's meaning index has 77,000 files, and
# its postings were gigabytes of tuples. Below it (django: 5,500 files) setting aside would cost more than it saves.
# Past it, a batch is BATCH_SIZE units: the batch being filled is what such a table's build holds.
BATCH_UNITS = 8192
BATCH_SIZE = 2048
SPILL_BUCKETS = 64
ReadBlobs = Callable[[Sequence[str]], dict[str, bytes]]
LoadBlobs = Callable[[Sequence[str]], Mapping[str, object]]  # paths -> the decoded JSON of those found
Corrupt = Callable[[str], Exception]
Fill = Callable[[str, dict], None]  # (unit, into): add the unit's part (key -> value) to `into`
FillOld = Callable[[str, object, dict], bool]  # (unit, its last record, into): False when not at hand

MOST_SHARDS = 1 << 20  # more shards than any table holds (the kernel's largest: 32,768)
STATE = "\0table "  # a table's state in the memo, by its folder: what the last build's shards were made of


# --- codecs: how a value is held and spelled (a change of encoding is made here) -------------------------


class Codec:
    """A value of a table as it is held while building and answering, and as a shard spells it. A shard is a
    JSON object (`suffix` ".json") unless the codec says otherwise (`load_shard`, `dump_shard`)."""

    suffix = ".json"

    def load_shard(self, data: bytes) -> dict:
        """A stored shard from its blob; raises ValueError (`BadValue`) when it is not one this codec writes."""
        from gitroute.bundle.validate import load_blob

        value = load_blob(data)  # not JSON, nested too deeply, NaN: BadValue
        if not isinstance(value, dict):
            raise BadValue("a shard is not a JSON object")
        return value

    def dump_shard(self, stored: Mapping[str, Any]) -> bytes:
        """A stored shard's blob: canonical, the same shard always the same bytes."""
        from gitroute.bundle.layout import dump_json

        return dump_json(stored)

    def empty(self) -> Any:
        return []

    def size(self, value: Any) -> int:
        """What the value weighs toward the shard count."""
        return len(value)

    def encode(self, value: Any) -> Any:
        return value

    def decode(self, stored: Any) -> Any:
        """A stored value back; raises ValueError or TypeError when it is not one this codec writes."""
        return stored

    def encode_shard(self, values: Mapping[str, Any]) -> dict:
        """A shard's JSON object: key -> value, each encoded (a codec may spell what keys share once)."""
        return {key: self.encode(value) for key, value in values.items()}

    def decode_shard(self, stored: dict) -> dict[str, Any]:
        return {key: self.decode(value) for key, value in stored.items()}

    def decode_key(self, stored: dict, key: str) -> Any:
        """One key's value from a stored shard, None when the shard does not hold it."""
        held = stored.get(key)
        return None if held is None else self.decode(held)


class PostingsCodec(Codec):
    """A codec of postings: a key's value is patched by taking out the postings `gone` and putting in `added`."""

    def patch(self, before: Any, gone: Any, added: Any) -> Any:
        raise NotImplementedError


class VarintPostings(PostingsCodec):
    """Postings spelled as non-negative ints in LEB128 varints, in a binary shard (`suffix` ".bin"):

        b"GRv1", varint key count, then per key (ascending by its UTF-8 bytes): varint key length, the key's
        bytes, varint value length; then every value's bytes, in the keys' order.

    A value is `to_ints(value)`: ids as gaps from the one before (ascending lists: gaps >= 0), columns one after
    the other, so the numbers are small and alike and zlib (git's) finds them again. Reading a key decodes that
    key's bytes only. Every length is checked against what is left, and a shard must end where its last value
    does: a bundle is untrusted input (`BadValue`, which readers turn into a damaged bundle)."""

    suffix = ".bin"

    def to_ints(self, value: Any) -> list[int]:
        raise NotImplementedError

    def from_ints(self, ints: list[int]) -> Any:
        """`to_ints` undone; raises BadValue when `ints` is not what `to_ints` makes."""
        raise NotImplementedError

    def encode(self, value: Any) -> bytes:
        return encode_varints(self.to_ints(value))

    def decode(self, stored: object) -> Any:
        if not isinstance(stored, bytes):
            raise BadValue("a posting value is not bytes")
        return self.from_ints(decode_varints(stored))

    def load_shard(self, data: bytes) -> dict[str, bytes]:
        return load_varint_shard(data)

    def dump_shard(self, stored: Mapping[str, Any]) -> bytes:
        return dump_varint_shard(stored)


class FieldLists(VarintPostings):
    """Postings as `fields` lists of node ids, each ascending (symbols: a token's name, doc and context postings);
    stored as each list's length, then its ids as `node_gaps` spells them."""

    def __init__(self, fields: int) -> None:
        self.fields = fields

    def empty(self) -> tuple[list[int], ...]:
        return tuple([] for _ in range(self.fields))

    def size(self, value) -> int:
        return sum(map(len, value))

    def to_ints(self, value) -> list[int]:
        if len(value) != self.fields:
            raise BadValue("postings have the wrong number of fields")
        ints: list[int] = []
        for field in value:
            ints.append(len(field))
            ints += node_gaps(field)
        return ints

    def from_ints(self, ints: list[int]) -> list[list[int]]:
        fields: list[list[int]] = []
        at = 0
        for _ in range(self.fields):
            if at >= len(ints) or 2 * ints[at] > len(ints) - at - 1:
                raise BadValue("postings end before their fields do")
            n = ints[at]
            fields.append(node_ids(ints[at + 1:at + 1 + 2 * n]))
            at += 1 + 2 * n
        if at != len(ints):
            raise BadValue("postings run past their fields")
        return fields

    def patch(self, before, gone, added) -> list[list[int]]:
        return [sorted({*held} - set(out) | set(into)) for held, out, into in zip(before, gone, added)]


class GapPairs(VarintPostings):
    """Postings as (id, payload) pairs ascending by id (meaning: node id, packed posting); stored as the pair
    count, the ids as `node_gaps` spells them, then each payload split into the bit fields `bits` gives (low bits
    first, the rest last: meaning's term frequency, length and fields), one column each. The field `unstored`
    (an index into `bits`) is not stored and reads back as 0: meaning keeps a node's length once, in its file
    table, not in each of the node's postings."""

    def __init__(self, bits: Sequence[int] = (), unstored: int | None = None) -> None:
        self.bits = tuple(bits)
        self.unstored = unstored
        shift = sum(self.bits[:unstored]) if unstored is not None else 0
        width = self.bits[unstored] if unstored is not None else 0
        self.keep = ~(((1 << width) - 1) << shift)  # a payload as stored: the unstored field cleared

    def to_ints(self, pairs: Iterable[tuple[int, int]]) -> list[int]:
        pairs = list(pairs)
        ints = [len(pairs), *node_gaps([node_id for node_id, _ in pairs])]
        payloads = [payload for _, payload in pairs]
        for k, width in enumerate(self.bits):
            mask = (1 << width) - 1
            if k != self.unstored:
                ints += [p & mask for p in payloads]
            payloads = [p >> width for p in payloads]
        ints += payloads
        return ints

    def from_ints(self, ints: list[int]) -> list[tuple[int, int]]:
        stored = len(self.bits) - (self.unstored is not None)
        if not ints or len(ints) != 1 + ints[0] * (3 + stored):
            raise BadValue("postings are not (id, payload) pairs")
        n, bits = ints[0], self.bits
        ids = node_ids(ints[1:1 + 2 * n])
        at = 1 + 2 * n
        shift = sum(bits)
        payloads = [p << shift for p in ints[at + n * stored:]]
        shift = 0
        for k, width in enumerate(bits):
            if k != self.unstored:
                column = ints[at:at + n]
                at += n
                if column and max(column) >> width:
                    raise BadValue("a posting's field is out of its bits")
                payloads = [p | v << shift for p, v in zip(payloads, column)]
            shift += width
        return list(zip(ids, payloads))

    def patch(self, before, gone, added) -> list[tuple[int, int]]:
        keep = self.keep  # `before` was read back without the unstored field: take out and put in likewise
        out = {(node, payload & keep) for node, payload in gone}
        return sorted([p for p in before if p not in out] + [(node, payload & keep) for node, payload in added])


class IdRows(VarintPostings):
    """Postings as rows of ints led by an id, one row per id, ascending by it (decisions: [row id, tf, paragraph
    mask], and [row id, 1] under a symbol's key); stored as the row width and count, the ids' gaps, then each
    other column."""

    def to_ints(self, rows: Sequence[Sequence[int]]) -> list[int]:
        width = len(rows[0]) if rows else 0
        if (rows and width < 1) or any(map(width.__ne__, map(len, rows))):
            raise BadValue("postings rows differ in width")
        # Column by column with `map` and `itemgetter`, in C: a Python loop a row was most of decisions' encoding.
        ints = [width, len(rows), *_gaps(list(map(itemgetter(0), rows)))]
        for k in range(1, width):
            ints += map(itemgetter(k), rows)
        return ints

    def from_ints(self, ints: list[int]) -> list[list[int]]:
        if len(ints) < 2 or ints[0] > MAX_ROW_WIDTH or len(ints) != 2 + ints[0] * ints[1] or (ints[1] and not ints[0]):
            raise BadValue("postings are not rows of one width")
        width, n = ints[0], ints[1]
        if not n:
            return []
        columns = [list(accumulate(ints[2:2 + n]))]
        columns += [ints[2 + k * n:2 + (k + 1) * n] for k in range(1, width)]
        return [list(row) for row in zip(*columns)]

    def patch(self, before, gone, added) -> list[list[int]]:
        out = {tuple(row) for row in gone}
        return sorted([row for row in before if tuple(row) not in out] + list(added), key=itemgetter(0))


MAX_ROW_WIDTH = 16
def _gaps(ascending: Sequence[int]) -> list[int]:
    """Each int less the one before (the first less 0); raises BadValue when the ints are not ascending."""
    gaps = list(map(sub, ascending, [0, *ascending[:-1]]))
    if gaps and min(gaps) < 0:
        raise BadValue("postings are not ascending")
    return gaps


class Records(Codec):
    """Records (JSON lists) under each key, each naming the unit it came from (`owner`), in `order`; a shard
    spells a key's records as a list. `weigh`: what a key's records weigh toward the shard count (their
    number; `lambda records: 1` to count keys). A codec whose records do not name their unit (`owner` None)
    says how else a record is told to be a unit's (`belongs`)."""

    def __init__(self, owner: Callable[[Any], str] | None, order: Callable[[Any], Any],
                 weigh: Callable[[list], int] = len) -> None:
        self.owner = owner
        self.order = order
        self.weigh = weigh

    def size(self, value: Any) -> int:
        return self.weigh(value)

    def belongs(self, gone: Mapping[str, object]) -> Callable[[Any], bool]:
        """Whether a stored record is of one of the units `gone` (unit -> its record at the last build, None when
        it had none): by the unit the record names."""
        owner = self.owner
        if owner is None:
            raise NotImplementedError("a codec without owners says which records are a unit's")
        return lambda record: owner(record) in gone

    def decode(self, stored: object) -> list:
        if not isinstance(stored, list) or not all(isinstance(record, list) for record in stored):
            raise ValueError("records are not a list of lists")
        return stored


class StringRecords(Records):
    """Records in a binary shard (`suffix` ".bin") that spells each string once, in a table ahead of the values
    (`varints.dump_strings_shard`): a key's records are non-negative ints in LEB128 varints, a string the index of
    its entry, so a path or a section title named by a hundred records is stored once a shard. A codec says how
    its records are ints (`to_ints`, `from_ints`, with `Strings` and `Ints` to spell them) and, when its records
    refer to a table of the shard's own (doc_links' nodes), how that is spelled once after every key
    (`shared_to_ints`, `shared_from_ints`). Decoding is strict: an index, a count or a length out of range, or
    ints left over, raise `BadValue`."""

    suffix = ".bin"

    def to_ints(self, key: str, records: list, strings: Strings) -> list[int]:
        raise NotImplementedError

    def from_ints(self, key: str, ints: Ints, shard: StringShard) -> list:
        """`to_ints` undone from a reader over the ints; raises BadValue when they are not what it writes."""
        raise NotImplementedError

    def prepare(self, values: Mapping[str, list], strings: Strings) -> None:
        """Before any key is spelled: note in `strings.shared` what the shard's own table holds (its records'
        nodes, each given its place), so that records can refer to it by place."""

    def shared_to_ints(self, strings: Strings) -> list[int]:
        """The shard's own table, after every key's records were spelled (`strings.shared` holds what they noted)."""
        return []

    def shared_from_ints(self, ints: Ints, shard: StringShard) -> object:
        ints.done()
        return None

    def encode_shard(self, values: Mapping[str, list]) -> StringShard:
        strings = Strings()
        self.prepare(values, strings)
        stored = {key: encode_varints(self.to_ints(key, values[key], strings)) for key in sorted(values)}
        return StringShard(stored, strings.spelled, encode_varints(self.shared_to_ints(strings)))

    def dump_shard(self, stored: Mapping[str, Any]) -> bytes:
        if not isinstance(stored, StringShard):
            stored = self.encode_shard(stored)
        return dump_strings_shard(stored.strings, stored.shared_bytes, stored)

    def load_shard(self, data: bytes) -> StringShard:
        strings, shared, stored = load_strings_shard(data)
        return StringShard(stored, strings, shared)

    def decode_shard(self, stored: dict) -> dict[str, Any]:
        return {key: self.decode_key(stored, key) for key in stored}

    def decode_key(self, stored: dict, key: str) -> list | None:
        held = stored.get(key)
        if held is None:
            return None
        if not isinstance(stored, StringShard) or not isinstance(held, bytes):
            raise BadValue("a records shard is not one this codec writes")
        if stored.shared is _UNREAD:
            stored.shared = self.shared_from_ints(Ints(decode_varints(stored.shared_bytes)), stored)
        ints = Ints(decode_varints(held))
        records = self.from_ints(key, ints, stored)
        ints.done()
        return records


_UNREAD = object()


class StringShard(dict):
    """A records shard as stored: key -> its value's bytes, with the shard's strings and its shared ints (decoded
    by the codec on the first key read, kept in `shared`)."""

    def __init__(self, stored: Mapping[str, bytes], strings: list[str], shared_bytes: bytes) -> None:
        super().__init__(stored)
        self.strings = strings
        self.shared_bytes = shared_bytes
        self.shared: Any = _UNREAD

    def string(self, index: int) -> str:
        if index >= len(self.strings):
            raise BadValue("a record names a string its shard does not hold")
        return self.strings[index]


class Strings(dict):
    """A shard's strings while it is spelled: each string's index (`strings(text)`), in the order first named;
    `shared` is the codec's scratch for its own table (doc_links: the nodes the records name). A string named
    again is a dict lookup in C, with no Python call: a shard's records name a million strings on django."""

    def __init__(self) -> None:
        super().__init__()
        self.spelled: list[str] = []
        self.shared: dict = {}

    __call__ = dict.__getitem__

    def __missing__(self, text: str) -> int:
        if not isinstance(text, str):
            raise BadValue("a record's text is not a string")
        at = self[text] = len(self.spelled)
        self.spelled.append(text)
        return at


class Ints:
    """A reader over a value's ints that checks each count against what is left (`BadValue` past the end)."""

    __slots__ = ("ints", "at")

    def __init__(self, ints: list[int]) -> None:
        self.ints = ints
        self.at = 0

    def one(self) -> int:
        if self.at >= len(self.ints):
            raise BadValue("a record ends early")
        self.at += 1
        return self.ints[self.at - 1]

    def take(self, n: int) -> list[int]:
        if n > len(self.ints) - self.at:
            raise BadValue("a record's column runs past its value")
        self.at += n
        return self.ints[self.at - n:self.at]

    def ascending(self, n: int) -> list[int]:
        """`n` ints stored as gaps (`gaps`), summed back."""
        return list(accumulate(self.take(n)))

    def nodes(self, n: int) -> list[int]:
        """`n` ascending node ids stored as `node_gaps` spells them."""
        return node_ids(self.take(2 * n))

    def shifted(self, n: int) -> list[int]:
        """`n` non-negative ints (lines) stored as zigzagged differences from the one before (`shifts`)."""
        column = list(accumulate((v >> 1) ^ -(v & 1) for v in self.take(n)))
        if column and min(column) < 0:
            raise BadValue("a record's line is negative")
        return column

    def strings(self, n: int, shard: StringShard) -> list[str]:
        held = shard.strings
        column = self.take(n)
        if column and max(column) >= len(held):
            raise BadValue("a record names a string its shard does not hold")
        return [held[i] for i in column]

    def done(self) -> None:
        if self.at != len(self.ints):
            raise BadValue("a value has ints past its records")


def gaps(ascending: Sequence[int]) -> list[int]:
    """Ascending ints as gaps from the one before (`Ints.ascending` undoes it)."""
    return _gaps(ascending)


def shifts(ints: Sequence[int]) -> list[int]:
    """Any ints as differences from the one before, zigzagged (0, -1, 1, -2 -> 0, 1, 2, 3): small for lines."""
    return [d * 2 if d >= 0 else -d * 2 - 1 for d in (b - a for a, b in zip((0, *ints), ints))]


# --- tables ----------------------------------------------------------------------------------------------


class Built(namedtuple("Built", "blobs kept shards keys size")):
    """A table's build: blobs: dict[str, bytes], path -> the shards written; kept: dict[str, str], path -> blob id
    of the shards kept as the last build wrote them; shards: int, the shard count; keys: int, how many keys;
    size: int, their total weight toward the shard count."""

    __slots__ = ()


class Table:
    """One table of an index: key -> value, in shards `<folder>/NNNNN<codec suffix>` of the index's folder."""

    codec: Codec

    def __init__(self, index: str, folder: str, *, per_shard: int, codec: Codec, digits: int = 5,
                 most: int | None = None) -> None:
        self.index = index  # the index's folder in the bundle: where the blobs of the bundle the ref holds are
        self.folder = folder
        self.per_shard = per_shard
        self.codec = codec
        self.digits = digits
        self.most = most

    def path(self, shard: int) -> str:
        return f"{self.folder}/{shard:0{self.digits}d}{self.codec.suffix}"

    def load_shard(self, data: bytes) -> dict:
        """A shard's blob as stored (key -> stored value); raises ValueError when it is not one this table writes:
        an index that keeps decoded blobs itself (decisions' `blob_loader`) loads them through this."""
        return self.codec.load_shard(data)

    def key_path(self, key: str, shards: int) -> str:
        return self.path(shard_of(key, shards))

    def stored_values(self, stored: Mapping[str, Any], keys: Iterable[str], shards: int) -> Iterator[Any]:
        """Each key's value as stored, from shards read (`read_shards`), before it is decoded: what a reader weighs
        before choosing how to decode (a shard not read, or not a dict, and a key it lacks give nothing)."""
        for key in keys:
            shard = stored.get(self.key_path(key, shards))
            if isinstance(shard, dict) and (value := shard.get(key)) is not None:
                yield value

    def shards_for(self, size: int) -> int:
        return shard_count(size, self.per_shard, self.most)

    # --- reading

    def read(self, read: ReadBlobs, keys: Iterable[str], shards: int, corrupt: Corrupt,
             cache: dict[str, dict] | None = None, decode: Callable[[dict, str], Any] | None = None,
             ) -> dict[str, Any]:
        """The values of these keys, decoded (by `decode(shard, key)` when given: the codec's `decode_key` or one
        that reads the same values another way); a key no shard holds is left out. `cache` (path -> stored shard)
        keeps the shards read for the next call (a warm server's view)."""
        keys = list(keys)
        cache = self.read_shards(read, {self.key_path(k, shards) for k in keys}, corrupt, cache)
        found: dict[str, Any] = {}
        decode = decode or self.codec.decode_key
        for key in keys:
            path = self.key_path(key, shards)
            try:
                value = decode(cache[path], key)
            except (TypeError, ValueError, KeyError, IndexError) as err:
                raise corrupt(path) from err
            if value is not None:
                found[key] = value
        return found

    def read_all(self, read: ReadBlobs, shards: int, corrupt: Corrupt,
                 cache: dict[str, dict] | None = None) -> dict[str, dict]:
        """Every shard (path -> key -> stored value): what a warm server decodes ahead. A shard count no build
        writes (not a power of two, or past MOST_SHARDS: a forged section) is `corrupt`, not a list of every path
        up to it (a billion, a MemoryError)."""
        if not 0 < shards <= MOST_SHARDS or shards & (shards - 1):
            raise corrupt(self.folder)
        return self.read_shards(read, [self.path(n) for n in range(shards)], corrupt, cache)

    def read_every(self, read: ReadBlobs, shards: int, corrupt: Corrupt) -> dict[str, Any]:
        """Every key's value, decoded: what a warm server holds."""
        found: dict[str, Any] = {}
        for path, shard in self.read_all(read, shards, corrupt).items():
            try:
                found.update(self.codec.decode_shard(shard))
            except (TypeError, ValueError, KeyError, IndexError) as err:
                raise corrupt(path) from err
        return found

    def read_shards(self, read: ReadBlobs, paths: Iterable[str], corrupt: Corrupt,
                    cache: dict[str, dict] | None = None) -> dict[str, dict]:
        cache = {} if cache is None else cache
        wanted = sorted(set(paths) - cache.keys())
        if wanted:
            blobs = read(wanted)
            for path in wanted:
                cache[path] = _load_shard(self.codec, blobs[path], path, corrupt) if path in blobs else {}
        return cache

    def lookup(self, load: LoadBlobs, keys: Iterable[str], shards: int, corrupt: Corrupt | None = None,
               ) -> dict[str, Any]:
        """As `read`, from the shards `load` hands decoded (an index that keeps its decoded blobs itself, as
        decisions does in a warm server's view); raises `corrupt(path)` (without it, ValueError) when one is
        not what this table writes."""
        paths = {key: self.key_path(key, shards) for key in keys}
        loaded = load(sorted(set(paths.values())))
        decode = self.codec.decode_key
        found: dict[str, Any] = {}
        for key, path in paths.items():
            shard = loaded.get(path, {})
            try:
                if not isinstance(shard, dict):
                    raise ValueError(f"'{path}' is not a shard of key -> value")
                value = decode(shard, key)
            except (TypeError, ValueError) as err:
                if corrupt is None:
                    raise
                raise corrupt(path) from err
            if value is not None:
                found[key] = value
        return found

    # --- building

    def build(self, records: Mapping[str, object], fill: Fill, *, memo=None, stored=None, old: FillOld | None = None,
              last: object = None, changed: Iterable[str] = (), remake: Iterable[str] = (),
              also: Iterable[str] = ()) -> Built:
        """The table's shards from `records` (unit -> record, in the order the units' parts join each key) and
        `fill`; with `memo` and `stored`, patched from the last build's where that is exact (see the module's
        docstring). `last`: the state to patch from, when not the memo's (`state`); `changed`: units whose part
        may differ though their record is the same. A record table also takes `remake`, keys whose shards are
        made again from the parts of every unit whose records are there, and `also`, units whose records may
        have moved to such a key though their record is the same."""
        from gitroute.bundle.memo import blob_id

        state = None
        if memo is not None and stored is not None:
            state = _valid_state(last if last is not None else memo.get(self.memo_key))
        hints = _Hints(set(changed), set(remake), set(also))
        patched = self._patch(state, records, fill, stored, old, hints) if state is not None else None
        built, placed, tallies = patched if patched is not None else self._whole(records, fill)
        if memo is not None:
            ids = {**built.kept, **{path: blob_id(data) for path, data in built.blobs.items()}}
            memo.put(self.memo_key, (built.shards, dict(records), ids, (built.keys, built.size), placed, tallies))
        return built

    @property
    def memo_key(self) -> str:
        return STATE + self.folder

    def state(self, memo) -> tuple | None:
        """The last build's state in `memo`, when it is one."""
        return _valid_state(memo.get(self.memo_key))

    def _whole(self, records: Mapping[str, object], fill: Fill) -> tuple[Built, dict, dict]:
        """The table built from every unit: (built, unit -> shard numbers, shard path -> (keys, size))."""
        raise NotImplementedError

    def _patch(self, state: tuple, records: Mapping[str, object], fill: Fill, stored, old: FillOld | None,
               hints: _Hints) -> tuple[Built, dict, dict] | None:
        """As `_whole`, patched from the last build's `state`; None when that cannot be done exactly."""
        raise NotImplementedError

    def _read_stored(self, stored, ids: Mapping[str, str], paths: Iterable[str]) -> dict[str, dict] | None:
        """The last build's shards at these paths (empty where it wrote none), as stored; None when one is not
        at hand, or not a JSON object."""
        shards: dict[str, dict] = {}
        for path in paths:
            if path not in ids:
                shards[path] = {}
                continue
            data = stored.read(f"{self.index}/{path}", ids[path])
            if data is None:
                return None
            try:
                shards[path] = self.codec.load_shard(data)
            except (TypeError, ValueError):
                return None
        return shards

    def _kept(self, stored, ids: Mapping[str, str], written: Iterable[str]) -> dict[str, str] | None:
        """Path -> blob id of the last build's shards not written again; None when the ref's bundle lacks one."""
        skip = set(written)
        kept = {path: oid for path, oid in ids.items() if path not in skip}
        if any(stored.get(f"{self.index}/{path}") != oid for path, oid in kept.items()):
            return None
        return kept


class PostingsTable(Table):
    """token -> postings, patched by content: a changed unit's old part (`old`) is taken out of its keys' values
    and its part now put in, on the keys where the two differ."""

    codec: PostingsCodec

    def _whole(self, records: Mapping[str, object], fill: Fill) -> tuple[Built, dict, dict]:
        codec = self.codec
        if len(records) > BATCH_UNITS:
            return self._batched(records, fill)
        values: dict[str, object] = defaultdict(codec.empty)
        for unit in records:
            fill(unit, values)
        return self._encoded(values.items(), sum(map(codec.size, values.values())))

    def _encoded(self, values: Iterable[tuple[str, object]], size: int) -> tuple[Built, dict, dict]:
        """The shards of every key's whole value (`size`: what they weigh together)."""
        codec = self.codec
        shards = self.shards_for(size)
        sharded: dict[int, dict] = defaultdict(dict)
        encode = codec.encode
        keys = 0
        for key, value in values:
            sharded[shard_of(key, shards)][key] = encode(value)
            keys += 1
        blobs = {}
        for n in list(sharded):  # each shard's encoded values let go once dumped: the table is not held twice
            blobs[self.path(n)] = codec.dump_shard(sharded.pop(n))
        return Built(blobs, {}, shards, keys, size), {}, {}

    def _batched(self, records: Mapping[str, object], fill: Fill) -> tuple[Built, dict, dict]:
        """`_whole` for many units, in bounded memory: the units' parts, BATCH_SIZE units at a time, set aside on
        disk by key bucket (marshal's bytes), then each bucket's keys joined, batch after batch (a key's value is
        its units' parts in their order, whichever batch each fell in), and encoded. What is held at once is one
        batch's postings and one bucket's, not the table's: a kernel's meaning postings were gigabytes of tuples."""
        import marshal

        from gitroute.bundle.spill import Scratch

        codec = self.codec
        size = 0
        with Scratch() as scratch:
            spots: dict[int, list[tuple[int, int]]] = defaultdict(list)  # bucket -> its batches, in order
            values: dict[str, object] = defaultdict(codec.empty)
            for done, unit in enumerate(records, 1):
                fill(unit, values)
                if done % BATCH_SIZE and done != len(records):
                    continue
                size += sum(map(codec.size, values.values()))
                buckets: dict[int, list] = defaultdict(list)
                for item in values.items():  # this process's own str hash: the buckets never leave it
                    buckets[hash(item[0]) % SPILL_BUCKETS].append(item)
                for bucket, items in buckets.items():
                    spots[bucket].append(scratch.put(marshal.dumps(items, 2)))  # 2: no sharing to track
                values = defaultdict(codec.empty)
                del buckets

            def joined() -> Iterator[tuple[str, object]]:
                for bucket in sorted(spots):
                    whole: dict[str, Any] = {}
                    for where in spots[bucket]:
                        for key, part in marshal.loads(scratch.get(where)):
                            held = whole.get(key)
                            if held is None:
                                whole[key] = part
                            elif isinstance(held, tuple):  # a value of fields (FieldLists): each field joined
                                for into, more in zip(held, part):
                                    into.extend(more)
                            else:
                                held.extend(part)
                    yield from whole.items()

            return self._encoded(joined(), size)

    def _patch(self, state: tuple, records: Mapping[str, object], fill: Fill, stored, old: FillOld | None,
               hints: _Hints) -> tuple[Built, dict, dict] | None:
        codec = self.codec
        shards, old_records, ids, (keys, size), _placed, _tallies = state
        gone: dict[str, object] = defaultdict(codec.empty)
        added: dict[str, object] = defaultdict(codec.empty)
        for unit in _changed(old_records, records, hints.changed):
            if unit in old_records and (old is None or not old(unit, old_records[unit], gone)):
                return None
            if unit in records:
                fill(unit, added)
        dirty = {k for k in gone.keys() | added.keys() if gone.get(k) != added.get(k)}
        read = self._read_stored(stored, ids, {self.key_path(k, shards) for k in dirty})
        if read is None:
            return None
        try:
            for key in dirty:
                shard = read[self.key_path(key, shards)]
                held = shard.get(key)
                before = codec.decode(held) if held is not None else codec.empty()
                after = codec.patch(before, gone.get(key) or codec.empty(), added.get(key) or codec.empty())
                weight = codec.size(after)
                size += weight - codec.size(before)
                keys += bool(weight) - (held is not None)
                if weight:
                    shard[key] = codec.encode(after)
                else:
                    shard.pop(key, None)
        except (TypeError, ValueError):  # a stored value this codec did not write: build it whole
            return None
        kept = self._kept(stored, ids, read)
        if kept is None or self.shards_for(size) != shards:
            return None
        blobs = {path: codec.dump_shard(shard) for path, shard in read.items() if shard}
        return Built(blobs, kept, shards, keys, size), {}, {}


class Part(dict):
    """A unit's part of a record table, as `fill` makes it: key -> records. `wanted(key)`, when not None: whether
    this build needs that key's records (it makes a few shards again); a fill may leave the others out."""

    def __init__(self, wanted: Callable[[str], bool] | None = None) -> None:
        super().__init__()
        self.wanted = wanted


class RecordTable(Table):
    """key -> records, patched by owner: the records of a changed unit are dropped from the shards its keys fell
    in at the last build, and its records now put in, in the codec's order. The shards of `remake` keys are made
    again from the parts of the units whose records are there instead (at the last build, or now). The state
    keeps each unit's shard numbers and each shard's (keys, size)."""

    codec: Records

    def _parts(self, fill: Fill, units: Iterable[str]) -> dict[str, dict]:
        parts: dict[str, dict] = {}
        for unit in units:
            part = Part()
            fill(unit, part)
            parts[unit] = part
        return parts

    def _placed(self, parts: Mapping[str, dict], shards: int,
                numbers: Mapping[str, int] | None = None) -> dict[str, tuple[int, ...]]:
        """unit -> the shard numbers its keys fall in (`numbers`: key -> its shard number, when at hand)."""
        if numbers is None:
            return {unit: tuple(sorted({shard_of(key, shards) for key in part})) for unit, part in parts.items()}
        number = numbers.__getitem__
        return {unit: tuple(sorted(set(map(number, part)))) for unit, part in parts.items()}

    def _tallies(self, sharded: Mapping[str, dict]) -> dict[str, tuple[int, int]]:
        size = self.codec.size
        return {path: (len(shard), sum(map(size, shard.values()))) for path, shard in sharded.items() if shard}

    def _whole(self, records: Mapping[str, object], fill: Fill) -> tuple[Built, dict, dict]:
        codec = self.codec
        parts = self._parts(fill, records)
        values: dict[str, list] = {}
        for part in parts.values():
            for key, held in part.items():
                values.setdefault(key, []).extend(held)
        size = sum(map(codec.size, values.values()))
        shards = self.shards_for(size)
        # Each key's shard hashed once, for its shard and for its units' places; a shard's path made once.
        numbers = {key: shard_of(key, shards) for key in values}
        by_number: dict[int, dict] = defaultdict(dict)
        for key, value in values.items():
            by_number[numbers[key]][key] = value
        sharded = {self.path(n): shard for n, shard in by_number.items()}
        blobs = {path: codec.dump_shard(codec.encode_shard(shard)) for path, shard in sharded.items()}
        return (Built(blobs, {}, shards, len(values), size), self._placed(parts, shards, numbers),
                self._tallies(sharded))

    def _patch(self, state: tuple, records: Mapping[str, object], fill: Fill, stored, old: FillOld | None,
               hints: _Hints) -> tuple[Built, dict, dict] | None:
        shards, old_records, ids, (keys, size), placed, tallies = state
        units = _changed(old_records, records, hints.changed)
        if any(unit in old_records and unit not in placed for unit in units) or ids.keys() - tallies.keys():
            return None
        parts = self._parts(fill, [u for u in (*units, *sorted(hints.also - set(units))) if u in records])
        remade = {shard_of(key, shards) for key in hints.remake}
        made = self._remade(remade, records, placed, parts, fill, shards)
        # The other shards a changed unit's keys fall in, then or now: patched by owner, from the stored blobs.
        numbers = {n for unit in units for n in placed.get(unit, ())}
        numbers.update(shard_of(key, shards) for unit in units if unit in parts for key in parts[unit])
        read = self._by_owner(stored, ids, numbers - remade, units, parts, shards, old_records)
        if read is None:
            return None
        written = {**read, **made}
        now = self._tallies(written)
        keys += sum(n for n, _ in now.values()) - sum(tallies.get(path, (0, 0))[0] for path in written)
        size += sum(w for _, w in now.values()) - sum(tallies.get(path, (0, 0))[1] for path in written)
        kept = self._kept(stored, ids, written)
        if kept is None or self.shards_for(size) != shards:
            return None
        blobs = {path: self.codec.dump_shard(self.codec.encode_shard(shard)) for path, shard in written.items()
                 if shard}
        placed_now = {unit: placed[unit] for unit in records if unit not in parts and unit in placed}
        placed_now.update(self._placed(parts, shards))
        tallies_now = {path: counts for path, counts in tallies.items() if path not in written}
        tallies_now.update(now)
        return Built(blobs, kept, shards, keys, size), placed_now, tallies_now

    def _remade(self, remade: set[int], records: Mapping[str, object], placed: Mapping[str, tuple[int, ...]],
                parts: Mapping[str, dict], fill: Fill, shards: int) -> dict[str, dict]:
        """The shards `remade` made again from every unit whose records are there: those whose part is at hand
        (`parts`), and those the last build placed there (their part for those shards only), in the units' order."""
        made: dict[str, dict] = {self.path(n): {} for n in remade}
        if not remade:
            return made

        def wanted(key: str) -> bool:
            return shard_of(key, shards) in remade

        for unit in records:
            part = parts.get(unit)
            if part is None:
                if remade.isdisjoint(placed.get(unit, ())):
                    continue
                part = Part(wanted)
                fill(unit, part)
            for key, held in part.items():
                number = shard_of(key, shards)
                if number in remade:
                    made[self.path(number)].setdefault(key, []).extend(held)
        return made

    def _by_owner(self, stored, ids: Mapping[str, str], numbers: set[int], units: list[str],
                  parts: Mapping[str, dict], shards: int, old_records: Mapping[str, object],
                  ) -> dict[str, dict] | None:
        """The stored shards `numbers`, decoded, less the records of `units` (`Records.belongs`, from their
        records at the last build, `old_records`), with their records now."""
        codec = self.codec
        raw = self._read_stored(stored, ids, {self.path(n) for n in numbers})
        if raw is None:
            return None
        try:
            read = {path: codec.decode_shard(shard) if shard else {} for path, shard in raw.items()}
        except (TypeError, ValueError, KeyError, IndexError):  # not what this codec writes: build it whole
            return None
        try:
            belongs = codec.belongs({unit: old_records.get(unit) for unit in units})
        except (TypeError, ValueError):  # a last record the codec cannot read: build it whole
            return None
        for shard in read.values():
            for key, held in list(shard.items()):
                kept_records = [r for r in held if not belongs(r)]
                if len(kept_records) < len(held):
                    shard[key] = kept_records
        new: dict[str, list] = {}
        for unit in units:
            for key, held in parts.get(unit, {}).items():
                if shard_of(key, shards) in numbers:
                    new.setdefault(key, []).extend(held)
        for key, held in new.items():
            shard = read[self.key_path(key, shards)]
            shard[key] = sorted([*shard.get(key, ()), *held], key=codec.order)
        for shard in read.values():
            for key in [k for k, held in shard.items() if not held]:
                del shard[key]
        return read


class ChunkTable:
    """Rows by id, `per_chunk` a blob: `<folder>/NNNNN.json` is the JSON list of rows n * per_chunk up to the next
    chunk's first (decisions' section rows); an answer reads the chunks of the rows it wants. A build writes every
    chunk: its rows are made anew each build (a record's rows move with every record before it), and proving a
    chunk unchanged (a digest of its rows) costs what writing it does (its bytes are its id; the writer stores
    only the blobs the repository lacks)."""

    def __init__(self, index: str, folder: str, *, per_chunk: int, digits: int = 5) -> None:
        self.index = index
        self.folder = folder
        self.per_chunk = per_chunk
        self.digits = digits

    def path(self, chunk: int) -> str:
        return f"{self.folder}/{chunk:0{self.digits}d}.json"

    def row_path(self, row_id: int, per_chunk: int) -> str:
        """The chunk that holds `row_id`, `per_chunk` rows a chunk (as the index's section records it)."""
        return self.path(row_id // per_chunk)

    def paths(self, rows: int, per_chunk: int) -> list[str]:
        """Every chunk of `rows` rows, in id order."""
        return [self.path(n) for n in range(-(-rows // per_chunk))]

    def lookup(self, load: LoadBlobs, ids: Iterable[int], per_chunk: int, corrupt: Corrupt | None = None,
               ) -> dict[int, Any]:
        """Row id -> row, of the ids a chunk holds, from the chunks `load` hands decoded; a chunk that is not a
        list of rows raises `corrupt(path)` (without it, ValueError)."""
        ids = list(ids)
        loaded = load(sorted({self.row_path(i, per_chunk) for i in ids}))
        found: dict[int, Any] = {}
        for row_id in ids:
            path = self.row_path(row_id, per_chunk)
            rows = loaded.get(path)
            if rows is None:
                continue
            if not isinstance(rows, list) or not all(isinstance(row, list) for row in rows):
                if corrupt is None:
                    raise ValueError(f"'{path}' is not a chunk of rows")
                raise corrupt(path)
            if row_id % per_chunk < len(rows):
                found[row_id] = rows[row_id % per_chunk]
        return found

    def build(self, rows: Sequence) -> Built:
        """The chunks of `rows` (JSON values, in id order); `Built.shards` is the chunk count."""
        from gitroute.bundle.layout import dump_json

        size = self.per_chunk
        blobs = {self.path(start // size): dump_json(rows[start:start + size]) for start in range(0, len(rows), size)}
        return Built(blobs, {}, len(blobs), len(rows), len(rows))


class _Hints(namedtuple("_Hints", "changed remake also")):
    """What a build says of its units beyond their records (`Table.build`): changed, remake, also (sets)."""

    __slots__ = ()


def _changed(old: Mapping[str, object], now: Mapping[str, object], also: set[str]) -> list[str]:
    """The units whose record differs from the last build's, or that `also` names: changed or added (in `now`'s
    order), then removed."""
    return ([unit for unit, record in now.items() if unit in also or old.get(unit) != record]
            + sorted(old.keys() - now.keys()))


def _valid_state(value: object) -> tuple | None:
    """A table's state as `Table.build` puts it in the memo: (shards, unit -> record, path -> blob id,
    (keys, size), unit -> shard numbers, path -> (keys, size)); the last two only a record table's."""
    if (isinstance(value, tuple) and len(value) == 6 and isinstance(value[0], int) and isinstance(value[1], dict)
            and isinstance(value[2], dict) and isinstance(value[3], tuple) and len(value[3]) == 2
            and isinstance(value[4], dict) and isinstance(value[5], dict)):
        return value
    return None


def _load_shard(codec: Codec, data: bytes, path: str, corrupt: Corrupt) -> dict:
    try:
        return codec.load_shard(data)
    except (TypeError, ValueError) as err:
        raise corrupt(path) from err
