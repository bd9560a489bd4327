"""The storage floor (gitroute/bundle/tables.py): codecs round-trip, and a table patched from the last build's
blobs and memo state holds, byte for byte, what a table built whole holds, whatever the units did between."""
from __future__ import annotations

import json
from operator import itemgetter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gitroute.bundle.memo import MemoTable, blob_id
from gitroute.bundle.tables import (
    ChunkTable,
    FieldLists,
    GapPairs,
    IdRows,
    Ints,
    PostingsTable,
    Records,
    RecordTable,
    StringRecords,
    Strings,
    StringShard,
    gaps,
    shard_count,
    shard_of,
    shifts,
)
from gitroute.bundle.validate import BadValue
from gitroute.bundle.varints import (
    SHARD_MAGIC,
    STRINGS_MAGIC,
    decode_varints,
    dump_strings_shard,
    encode_varints,
    load_strings_shard,
)
from gitroute.indexes.meaning.storage import MeaningPairs

WORDS = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa", "pi", "rho"]


class Stored(dict):
    """What `bundle.writer.StoredBlobs` is to a table: bundle path -> blob id, and a blob read by that id."""

    def __init__(self, blobs: dict[str, bytes]) -> None:
        super().__init__({path: blob_id(data) for path, data in blobs.items()})
        self.data = {blob_id(data): data for data in blobs.values()}

    def read(self, path: str, oid: str) -> bytes | None:
        return self.data.get(oid) if self.get(path) == oid else None


def test_shard_of_is_crc32_of_the_key_bytes_and_paths_of_any_bytes_shard():
    import zlib

    assert shard_of("QuerySet", 64) == zlib.crc32(b"QuerySet") % 64
    assert 0 <= shard_of("caf\udce9.py", 8) < 8  # a path that is not UTF-8 (surrogateescape)


@given(st.integers(min_value=0, max_value=100_000), st.integers(min_value=1, max_value=5000))
def test_shard_count_is_the_least_power_of_two_that_holds_the_size(size, per_shard):
    shards = shard_count(size, per_shard)
    assert shards & (shards - 1) == 0 and shards * per_shard >= size
    assert shards == 1 or (shards // 2) * per_shard < size
    assert shard_count(size, per_shard, most=4) <= 4


@given(st.lists(st.tuples(st.integers(0, 10**9), st.integers(0, 2**40)), unique_by=lambda p: p[0]).map(sorted),
       st.sampled_from([(), (10,), (10, 14)]))
def test_gap_pairs_survive_the_shard_on_disk(pairs, bits):
    codec = GapPairs(bits=bits)
    assert codec.decode(codec.load_shard(codec.dump_shard({"k": codec.encode(pairs)}))["k"]) == pairs


@given(st.lists(st.tuples(st.integers(0, 10**9), st.integers(0, 2**31)), unique_by=lambda p: p[0]).map(sorted))
def test_gap_pairs_leave_their_unstored_field_out_and_read_it_back_as_zero(pairs):
    codec, whole = GapPairs(bits=(10, 14), unstored=1), GapPairs(bits=(10, 14))
    cleared = [(node, payload & ~(16383 << 10)) for node, payload in pairs]
    stored = codec.encode(pairs)
    assert codec.decode(stored) == cleared == codec.decode(codec.encode(cleared))
    assert len(stored) <= len(whole.encode(pairs))


def test_gap_pairs_patch_what_they_read_back_without_the_unstored_field():
    """A build patches a key from its stored value (lengths cleared) with the postings it made (lengths in):
    what it stores is what a build of the whole table stores."""
    codec = GapPairs(bits=(10, 14), unstored=1)
    before = [(1, 3 | 40 << 10), (5, 2 | 7 << 10), (9, 1 | 12 << 10)]
    after = [(1, 3 | 40 << 10), (6, 4 | 8 << 10), (9, 1 | 12 << 10)]
    patched = codec.patch(codec.decode(codec.encode(before)), [(5, 2 | 7 << 10)], [(6, 4 | 8 << 10)])
    assert codec.encode(patched) == codec.encode(after)
    assert patched == codec.decode(codec.encode(after))


@given(st.lists(st.integers(0, 2**64)))
def test_varints_round_trip(ints):
    assert decode_varints(encode_varints(ints)) == ints


@given(st.dictionaries(st.text(max_size=12), st.lists(st.lists(st.integers(0, 2**40), unique=True).map(sorted),
                                                      min_size=3, max_size=3), max_size=20))
def test_a_binary_shard_round_trips_and_is_the_same_bytes_whatever_the_order(values):
    codec = FieldLists(3)
    stored = {key: codec.encode(value) for key, value in values.items()}
    data = codec.dump_shard(stored)
    assert data == codec.dump_shard(dict(reversed(list(stored.items()))))
    assert codec.decode_shard(codec.load_shard(data)) == {key: list(map(list, v)) for key, v in values.items()}


@settings(max_examples=300)
@given(st.binary(max_size=200), st.sampled_from([FieldLists(3), GapPairs(bits=(10, 14)),
                                                  GapPairs(bits=(10, 14), unstored=1), IdRows(), MeaningPairs()]))
def test_a_malformed_binary_shard_or_value_is_a_bad_value_never_a_traceback(data, codec):
    for blob in (data, SHARD_MAGIC + data):
        try:
            shard = codec.load_shard(blob)
        except BadValue:
            continue
        for value in shard.values():
            try:
                codec.decode(value)
            except BadValue:
                pass


def test_a_shard_cut_short_or_with_bytes_left_over_is_a_bad_value():
    codec = FieldLists(1)
    data = codec.dump_shard({"alpha": codec.encode([[1, 5, 9]]), "beta": codec.encode([[2]])})
    for bad in (data[:-1], data + b"\0", data[:6], b"GRv1\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff",
                data.replace(b"alpha", b"zzzzz"), b"{}"):
        with pytest.raises(BadValue):
            codec.load_shard(bad)
    with pytest.raises(BadValue):  # a value that is not three fields' lengths and gaps
        FieldLists(3).decode(codec.encode([[1, 5, 9]]))
    with pytest.raises(BadValue):  # postings must ascend: a gap is never negative
        codec.encode([[5, 1]])


class ToyRecords(StringRecords):
    """[id, unit, word, tag] records as columns, the unit and the word by their index in the shard's strings."""

    def __init__(self) -> None:
        super().__init__(owner=itemgetter(1), order=itemgetter(0))

    def to_ints(self, key: str, records: list, strings: Strings) -> list[int]:
        return [len(records), *gaps([r[0] for r in records]), *(strings(r[1]) for r in records),
                *(strings(r[2]) for r in records), *shifts([r[3] for r in records])]

    def from_ints(self, key: str, ints: Ints, shard: StringShard) -> list:
        n = ints.one()
        return [list(r) for r in zip(ints.ascending(n), ints.strings(n, shard), ints.strings(n, shard),
                                     ints.shifted(n))]


toy_records = st.lists(st.tuples(st.integers(0, 2**40), st.text(max_size=8), st.text(max_size=8),
                                 st.integers(0, 10**6)), max_size=6)


@given(st.dictionaries(st.text(min_size=1, max_size=12), toy_records.filter(bool)))
def test_a_records_shard_round_trips_and_is_the_same_bytes_whatever_the_order(values):
    codec = ToyRecords()
    values = {key: sorted([list(r) for r in records]) for key, records in values.items()}
    data = codec.dump_shard(codec.encode_shard(values))
    assert data[:4] == STRINGS_MAGIC
    assert codec.decode_shard(codec.load_shard(data)) == values
    assert codec.dump_shard(codec.encode_shard(dict(reversed(values.items())))) == data
    shard = codec.load_shard(data)
    for key in values:
        assert codec.decode_key(shard, key) == values[key]
    assert codec.decode_key(shard, "\0absent") is None


@given(st.lists(st.text()), st.binary(max_size=20), st.dictionaries(st.text(), st.binary(max_size=20)))
def test_the_records_shard_format_round_trips_any_text(strings, shared, stored):
    data = dump_strings_shard(strings, shared, stored)
    assert load_strings_shard(data) == (strings, shared, stored)


@settings(max_examples=300)
@given(st.binary(max_size=200), st.booleans())
def test_a_malformed_records_shard_is_a_bad_value_never_a_traceback(data, magic):
    codec = ToyRecords()
    try:
        shard = codec.load_shard(STRINGS_MAGIC + data if magic else data)
    except BadValue:
        return
    for key in shard:
        try:
            codec.decode_key(shard, key)
        except BadValue:
            pass


def test_a_records_shard_cut_short_or_naming_what_it_lacks_is_a_bad_value():
    codec = ToyRecords()
    data = codec.dump_shard(codec.encode_shard({"alpha": [[1, "u0", "alpha", 3]], "beta": [[2, "u1", "beta", 1]]}))
    for bad in (data[:-1], data + b"\0", data[:6], data.replace(b"alphabeta", b"zlphabeta"), b"{}",
                data.replace(b"u0", b"\xff\xfe")):
        with pytest.raises(BadValue):
            codec.load_shard(bad)
    strings, shared, stored = load_strings_shard(data)
    for value in (encode_varints([1, 1, 7, 0, 0]), encode_varints([1, 1, 0, 0, 0, 0]), encode_varints([2, 1])):
        shard = StringShard({"alpha": value}, strings, shared)  # a string it lacks, ints left over, cut short
        with pytest.raises(BadValue):
            codec.decode_key(shard, "alpha")
    with pytest.raises(BadValue):  # a line is never negative
        codec.decode_key(StringShard({"alpha": encode_varints([1, 1, 0, 0, 1])}, strings, shared), "alpha")


def test_a_damaged_shard_read_through_a_table_is_the_damaged_bundle_error(tmp_path):
    from gitroute.bundle.store import corrupt_blob
    from gitroute.errors import BundleDamaged

    table = _postings_table(4)
    built = _build(table, {"u0": ["alpha", "beta"]}, {})
    path = next(iter(built.blobs))
    blobs = {path: built.blobs[path][:-1]}
    with pytest.raises(BundleDamaged):
        table.read(lambda paths: {p: blobs[p] for p in paths if p in blobs}, ["alpha"], built.shards, corrupt_blob)
    assert table.read(lambda paths: {p: built.blobs[p] for p in paths}, ["alpha"], built.shards,
                      corrupt_blob) == {"alpha": [[0]]}


@given(st.lists(st.lists(st.integers(0, 2**40), unique=True).map(sorted), min_size=3, max_size=3))
def test_field_lists_patch_takes_out_and_puts_in(fields):
    codec = FieldLists(3)
    gone = [field[::2] for field in fields]
    assert codec.patch(fields, gone, [[], [], []]) == [field[1::2] for field in fields]
    assert codec.patch(codec.patch(fields, gone, [[], [], []]), [[], [], []], gone) == fields


@given(st.lists(st.tuples(st.integers(0, 10**6), st.integers(1, 50), st.integers(0, 2**16)),
                unique_by=lambda r: r[0]).map(sorted))
def test_id_rows_patch_takes_out_and_puts_in_by_id(rows):
    codec = IdRows()
    held = codec.decode(codec.load_shard(codec.dump_shard({"k": codec.encode([list(r) for r in rows])}))["k"])
    assert held == [list(r) for r in rows]
    gone, rest = held[::2], held[1::2]
    assert codec.patch(held, gone, []) == rest
    assert codec.patch(rest, [], gone) == held


@given(st.lists(st.integers(1, 5).flatmap(lambda width: st.lists(
    st.lists(st.integers(0, 2**40), min_size=width, max_size=width), max_size=12)), max_size=1).map(
    lambda found: found[0] if found else []))
def test_id_rows_spell_the_columns_a_row_at_a_time_gives(rows):
    # `IdRows.to_ints` reads its columns by `map` and `itemgetter`: what a loop over the rows spelled, column by column.
    rows = sorted(rows, key=itemgetter(0))
    width = len(rows[0]) if rows else 0
    ids = [row[0] for row in rows]
    expected = [width, len(rows), *[b - a for a, b in zip([0, *ids], ids)]]
    for k in range(1, width):
        expected += [row[k] for row in rows]
    assert IdRows().to_ints(rows) == expected
    if rows:
        assert IdRows().from_ints(expected) == [list(row) for row in rows]


def test_id_rows_of_two_widths_or_out_of_order_are_a_bad_value():
    with pytest.raises(BadValue):
        IdRows().to_ints([[1, 2], [3]])
    with pytest.raises(BadValue):
        IdRows().to_ints([[5, 1], [3, 1]])
    with pytest.raises(BadValue):
        IdRows().to_ints([[], []])


def test_a_chunk_table_reads_back_the_rows_it_wrote_by_id():
    table = ChunkTable("toy", "rows", per_chunk=3)
    rows = [[i, f"row {i}"] for i in range(8)]
    built = table.build(rows)
    assert sorted(built.blobs) == table.paths(8, 3) == ["rows/00000.json", "rows/00001.json", "rows/00002.json"]
    stored = {path: json.loads(data) for path, data in built.blobs.items()}
    assert table.lookup(lambda paths: {p: stored[p] for p in paths if p in stored}, [7, 0, 4, 9], 3) == {
        7: [7, "row 7"], 0: [0, "row 0"], 4: [4, "row 4"]}
    assert table.build([]).blobs == {} and table.paths(0, 3) == []


def _postings_table(per_shard: int) -> PostingsTable:
    return PostingsTable("toy", "words", per_shard=per_shard, codec=FieldLists(1))


def _record_table(per_shard: int, strings: bool = False) -> RecordTable:
    codec = ToyRecords() if strings else Records(owner=itemgetter(1), order=itemgetter(0))
    return RecordTable("toy", "names", per_shard=per_shard, codec=codec)


def _build(table, units: dict[str, list[str]], tags: dict[str, int], memo=None, stored=None, remake=(), also=()):
    """The table over `units` (name -> words, in order; a unit's id is its place): a postings table's
    postings are unit ids, a record table's records [id, unit, word, the word's tag]."""
    ids = {unit: number for number, unit in enumerate(units)}
    records = {unit: (tuple(words), ids[unit]) for unit, words in units.items()}

    def fill(unit: str, into: dict) -> None:
        for word in units[unit]:
            if isinstance(table, PostingsTable):
                into[word][0].append(ids[unit])
            elif getattr(into, "wanted", None) is None or into.wanted(word):  # a part for some shards only
                into.setdefault(word, []).append([ids[unit], unit, word, tags.get(word, 0)])

    def fill_old(unit: str, record: tuple, into: dict) -> bool:
        words, number = record
        for word in words:
            into[word][0].append(number)
        return True

    return table.build(records, fill, memo=memo, stored=stored, old=fill_old, remake=remake, also=also)


edits = st.lists(st.tuples(st.sampled_from(["set", "drop", "tag"]), st.integers(0, 7),
                           st.lists(st.sampled_from(WORDS), unique=True, max_size=5)), min_size=1, max_size=6)


@settings(max_examples=60, deadline=None)
@given(edits=edits, per_shard=st.sampled_from([1, 2, 5]), kind=st.sampled_from(["postings", "records", "strings"]))
def test_a_table_patched_from_the_last_build_holds_what_a_whole_build_holds(edits, per_shard, kind):
    table = _postings_table(per_shard) if kind == "postings" else _record_table(per_shard, kind == "strings")
    units = {f"u{n}": WORDS[n:n + 3] for n in range(6)}
    tags: dict[str, int] = {}
    memo = MemoTable("", "", {})
    built = _build(table, units, tags, memo, Stored({}))
    bundle = dict(built.blobs)
    for action, at, words in edits:
        unit = f"u{at}"
        remake: set[str] = set()
        if action == "set":
            units[unit] = words  # a new unit joins at the end: the ids of none move
        elif action == "drop":
            units.pop(unit, None)
        else:  # a word's tag moves: its records change though no unit's record does (a record table's `remake`)
            for word in words:
                tags[word] = tags.get(word, 0) + 1
            remake = set(words)
        stored = Stored({f"toy/{path}": data for path, data in bundle.items()})
        memo = MemoTable("", "", dict(memo.kept))
        patched = _build(table, units, tags, memo, stored, remake=remake)
        whole = _build(table, units, tags)
        bundle = {**{path: stored.data[oid] for path, oid in patched.kept.items()}, **patched.blobs}
        assert bundle == whole.blobs
        assert (patched.shards, patched.keys, patched.size) == (whole.shards, whole.keys, whole.size)


def test_a_patch_writes_only_the_shards_a_change_touches():
    table = _record_table(1)
    units = {f"u{n}": WORDS[n:n + 3] for n in range(6)}
    memo = MemoTable("", "", {})
    first = _build(table, units, {}, memo, Stored({}))
    units["u2"] = [*units["u2"][:2], "pi"]  # one word changes
    stored = Stored({f"toy/{path}": data for path, data in first.blobs.items()})
    second = _build(table, units, {}, MemoTable("", "", dict(memo.kept)), stored)
    touched = {table.key_path(word, first.shards) for word in (*WORDS[2:5], "pi")}
    assert set(second.blobs) <= touched and second.kept and set(second.kept).isdisjoint(second.blobs)


@settings(max_examples=60, deadline=None)
@given(units=st.lists(st.lists(st.sampled_from(WORDS), max_size=6), max_size=12), batch=st.integers(1, 4),
       codec=st.sampled_from(["fields", "pairs", "rows"]))
def test_a_table_built_batch_by_batch_on_disk_is_the_table_built_at_once(units, batch, codec):
    """Past BATCH_UNITS units, a table's parts are set aside BATCH_SIZE units at a time and joined key by key: the same
    blobs, key count and size as the table filled in memory, for every codec of postings."""
    import gitroute.bundle.tables as tables

    table = PostingsTable("toy", "words", per_shard=2, codec={"fields": FieldLists(2), "pairs": GapPairs(bits=(2,)),
                                                              "rows": IdRows()}[codec])
    records = {f"u{n}": n for n in range(len(units))}

    def fill(unit: str, into: dict) -> None:
        number = records[unit]
        for place, word in enumerate(units[number]):
            if codec == "fields":
                into[word][place % 2].append(number)
            elif codec == "pairs":
                into[word].append((number, place))
            else:
                into[word].append([number, place])

    whole = table.build(records, fill)  # fewer units than BATCH_UNITS: filled in memory
    held = tables.BATCH_UNITS, tables.BATCH_SIZE
    tables.BATCH_UNITS = tables.BATCH_SIZE = batch
    try:
        batched = table.build(records, fill)
    finally:
        tables.BATCH_UNITS, tables.BATCH_SIZE = held
    assert batched == whole


@given(st.lists(st.integers(0, 2**40), max_size=40).map(sorted))
def test_node_ids_round_trip_through_their_bucket_and_ordinal_columns(ids):
    from gitroute.bundle.varints import node_gaps, node_ids

    spelled = node_gaps(ids)
    assert len(spelled) == 2 * len(ids) and min(spelled, default=0) >= 0
    assert node_ids(spelled) == ids


@given(st.lists(st.integers(0, 2**25), max_size=20))
def test_node_id_columns_that_no_ids_give_are_a_bad_value_never_a_traceback(ints):
    from gitroute.bundle.varints import node_gaps, node_ids

    try:
        ids = node_ids(ints)
    except BadValue:
        return
    assert node_gaps(ids) == ints  # what decodes is what the ids spell: one spelling each
