"""The meaning index's file table (gitroute/indexes/meaning/storage.py): each file's first node id and each node's
lengths, kept once a node; it round-trips, refuses what it does not write, and gives BM25 the very lengths the
postings held when they carried them."""
from __future__ import annotations

from bisect import bisect_right

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gitroute.bundle.validate import BadValue
from gitroute.indexes import meaning
from gitroute.indexes.meaning.postings import BODY_BIT, encode_posting
from gitroute.indexes.meaning.ranking import prepare_body, prepare_postings
from gitroute.indexes.meaning.storage import (
    FILES_MAGIC,
    WIDE_FILES_MAGIC,
    FileTable,
    MeaningPairs,
    dump_file_table,
    load_file_starts,
    load_file_table,
    split_file_table,
)
from gitroute.model import Node


@st.composite
def file_tables(draw):
    """Files with ascending first ids, each its nodes' (offset, length, body length), offsets ascending and below
    the next file's first id."""
    count = draw(st.integers(0, 12))
    gaps = draw(st.lists(st.integers(1, 70_000), min_size=count, max_size=count))
    starts = [sum(gaps[:k + 1]) for k in range(count)]
    files = []
    for k, first in enumerate(starts):
        room = (starts[k + 1] - first) if k + 1 < count else 70_000
        offsets = sorted(draw(st.sets(st.integers(0, room - 1), max_size=6)))
        files.append((first, [(offset, draw(st.integers(0, 300) | st.integers(0, 16383))) for offset in offsets]))
    return files


@settings(max_examples=200)
@given(file_tables())
def test_the_file_table_round_trips_each_node_s_lengths(files):
    table = load_file_table(dump_file_table(files))
    assert list(table) == [first for first, _ in files]
    for k, (first, nodes) in enumerate(files):
        for offset, length in nodes:
            node = first + offset
            assert bisect_right(table, node) - 1 == k
            assert table.lengths[table.slot(k, node)] == length


@settings(max_examples=100)
@given(file_tables(), st.integers(1, 2**14 - 1))
def test_files_whose_node_ids_pass_32_bits_round_trip_in_the_wide_table(files, bucket):
    """A graph of more than 262,144 nodes has 4,096 buckets or more: its ids pass 32 bits (linux-core's reach 2 ** 34),
    which the table then holds 8 bytes each; under that, the very bytes it always wrote."""
    wide = [(first + (bucket << 20) + (1 << 32), nodes) for first, nodes in files]
    data = dump_file_table(wide)
    assert data[:4] == (WIDE_FILES_MAGIC if wide else FILES_MAGIC)
    table = load_file_table(data)
    assert list(table) == [first for first, _ in wide]
    for k, (first, nodes) in enumerate(wide):
        for offset, length in nodes:
            assert table.lengths[table.slot(k, first + offset)] == length
    assert dump_file_table(files)[:4] == FILES_MAGIC
    for bad in (data[:-1], data + b"\0", FILES_MAGIC + data[4:]) if wide else ():
        with pytest.raises(BadValue):
            load_file_table(bad)


@settings(max_examples=200)
@given(file_tables(), st.booleans())
def test_the_file_table_split_in_two_blobs_joins_back_and_its_first_gives_the_files_alone(files, wide):
    """`files.bin` (up to the spans) and `lengths.bin` (the rest) joined are the table's blob; the first alone gives
    the files' first ids a reader of the whole table gives, and is refused when cut or grown."""
    if wide:
        files = [(first + (1 << 32), nodes) for first, nodes in files]
    data = dump_file_table(files)
    head, rest = split_file_table(data)
    assert head + rest == data
    assert load_file_starts(head) == load_file_table(head + rest).starts == [first for first, _ in files]
    for bad in (head[:-1], head + b"\0", head[:4]):
        with pytest.raises(BadValue):
            load_file_starts(bad)
    # Read from its two blobs as a reader has them (the first's ids parsed already, or not), the table is the same.
    whole = load_file_table(data)
    for table in (load_file_table(head, rest), load_file_table(head, rest, load_file_starts(head))):
        assert (table.starts, table.spans, table.base) == (whole.starts, whole.spans, whole.base)
        assert [table.lengths[k] for k in range(len(table.lengths))] == [
            whole.lengths[k] for k in range(len(whole.lengths))]
    for bad_rest in (rest + b"\0", *([rest[:-1]] if rest else [])):
        with pytest.raises(BadValue):
            load_file_table(head, bad_rest)


@settings(max_examples=300)
@given(st.binary(max_size=300))
def test_a_malformed_first_blob_of_the_file_table_is_a_bad_value_never_a_traceback(data):
    for blob in (data, FILES_MAGIC + data, WIDE_FILES_MAGIC + data):
        for read in (load_file_starts, split_file_table):
            try:
                read(blob)
            except BadValue:
                pass


def test_a_name_query_reads_the_file_table_s_first_blob_and_a_sentence_the_lengths_too(make_repo, route):
    """A real build writes the table as two blobs; the files' first ids are read from the first alone (what the
    symbol tiers' path bounds read), and a plain-words question then reads only the lengths: the same table and
    the same answer as a question that reads both at once."""
    from gitroute.bundle.store import BundleView

    repo = make_repo("split")
    repo.commit({"shop/" + path.split("/")[1]: text for path, text in SOURCE.items()}, "initial")
    assert route(["build", "-q"], repo.path).exit_code == 0
    answers = []
    for starts_first in (True, False):
        with BundleView(str(repo.path)) as view:
            index = view.index(meaning.NAME)
            reads: list[str] = []
            read = index.read
            def logged(paths, read=read, reads=reads):
                reads.extend(paths)
                return read(paths)

            index.read = logged  # type: ignore[method-assign]
            if starts_first:
                starts = meaning.file_starts(index)
                assert reads == [meaning.FILES] and starts == sorted(starts) and len(starts) == 2
            rows, _notes, _ = meaning.query_meaning(
                "the weight of a parcel for the courier", index.section, index.read, limit=5, explain=True,
                corrupt=index.corrupt, records=index.graph.records, memo=index.memo)
            assert meaning.LENGTHS in reads and reads.count(meaning.FILES) == 1
            assert index.memo["files"].starts == meaning.file_starts(index)
            answers.append(rows)
    assert answers[0] == answers[1] and answers[0][0].path == "shop/ship.py"


def test_a_node_past_its_file_s_span_or_before_the_first_file_has_no_length():
    table = load_file_table(dump_file_table([(10, [(0, 5), (2, 7)]), (20, [(0, 3)])]))
    assert table.lengths[table.slot(0, 12)] == 7
    for k, node in ((0, 13), (1, 21), (-1, 4)):
        with pytest.raises(BadValue):
            table.slot(k, node)


def test_a_length_the_table_cannot_hold_is_refused_when_written():
    with pytest.raises(BadValue):
        dump_file_table([(0, [(0, 16384)])])
    with pytest.raises(BadValue):
        dump_file_table([(0, [(1 << 20, 1)])])


@settings(max_examples=300)
@given(st.binary(max_size=300))
def test_a_malformed_file_table_is_a_bad_value_never_a_traceback(data):
    for blob in (data, FILES_MAGIC + data, WIDE_FILES_MAGIC + data):
        try:
            table = load_file_table(blob)
        except BadValue:
            continue
        for k in range(-1, len(table)):
            for node in (table[k] if k >= 0 else 0, (table[k] if k >= 0 else 0) + 3):
                try:
                    table.slot(k, node)
                except BadValue:
                    pass


def test_a_file_table_cut_short_out_of_order_or_overlapping_is_a_bad_value():
    data = dump_file_table([(10, [(0, 5), (2, 700)]), (20, [(0, 3)])])
    assert load_file_table(data).lengths[2] == 700  # a large length, among the exceptions (slot 1: no postings)
    swapped = data[:16] + data[20:24] + data[16:20] + data[24:]  # the two first ids, the other way round
    overlapping = dump_file_table([(10, [(0, 5), (2, 7)]), (11, [(0, 3)])])
    huge = FILES_MAGIC + (2**32 - 1).to_bytes(4, "little") * 3  # counts no blob holds: no allocation
    unlisted = data[:-8]  # a 255 whose value is not among the exceptions
    unlisted = unlisted[:12] + (0).to_bytes(4, "little") + unlisted[16:]
    moved = data[:-8] + (2).to_bytes(4, "little") + data[-4:]  # the exception's place is not a 255
    small = data[:-4] + (200).to_bytes(4, "little")  # an exception below 255
    for bad in (data[:-1], data + b"\0", data[:12], b"GRf0" + data[4:], swapped, huge, unlisted, moved, small):
        with pytest.raises(BadValue):
            load_file_table(bad)
    # A span that runs into the next file is read (the check would cost more than the read), and a node is only
    # ever looked up within the slots of the file a bisection gives it: wrong lengths, never out of the columns.
    table = load_file_table(overlapping)
    assert [table.slot(bisect_right(table, node) - 1, node) for node in (10, 11)] == [0, 3]


@given(st.lists(st.tuples(st.integers(0, 10**9), st.integers(1, 1023), st.integers(0, 16383),
                         st.sampled_from([1, 9, 40, 128, 256, 257])), unique_by=lambda p: p[0]).map(sorted))
def test_meaning_postings_keep_a_body_word_s_length_and_leave_the_others_to_the_file_table(rows):
    codec = MeaningPairs()
    body = bool(rows) and bool(rows[0][3] & BODY_BIT)  # a key's postings are all a body word's or none
    pairs = [(node, encode_posting(1, min(length, 1023), BODY_BIT) if body else encode_posting(tf, length, fields & ~BODY_BIT))
             for node, tf, length, fields in rows]
    read = codec.decode(codec.load_shard(codec.dump_shard({"k": codec.encode(pairs)}))["k"])
    assert read == [(node, payload if payload >> 24 & BODY_BIT else payload & ~(16383 << 10)) for node, payload in pairs]
    # a build patches what it read back with what it made: the bytes a whole build writes
    assert codec.encode(codec.patch(read, pairs[:1], pairs[:1])) == codec.encode(pairs)
    # a build holds a key's postings flat (node, payload, node, payload...): the same bytes, size and patch
    flat = [n for pair in pairs for n in pair]
    assert codec.encode(flat) == codec.encode(pairs) and codec.size(flat) == codec.size(pairs) == len(pairs)
    assert codec.patch(read, flat[:2], flat[:2]) == codec.patch(read, pairs[:1], pairs[:1])


def test_a_body_word_s_posting_that_is_not_a_count_of_one_is_refused_when_written():
    with pytest.raises(BadValue):
        MeaningPairs().encode([(1, encode_posting(2, 5, BODY_BIT))])


SOURCE = {
    "shop/cart.py": "class Cart:\n    def add(self, item):\n        # keep the basket sorted by price\n"
                    "        return item\n\n    def total(self):\n        '''Sum of the cart lines.'''\n"
                    "        return 0\n",
    "shop/ship.py": "RATE = 3\n\ndef weight(parcel):\n    # a parcel's weight in grams for the courier\n"
                    "    return parcel\n",
}


def _nodes() -> list[Node]:
    a, b = "shop/cart.py", "shop/ship.py"
    return [
        Node(0, a, "cart.py", "file", 1, 1, "python", "", "", False),
        Node(1, a, "Cart", "class", 1, 8, "python", "", "", False),
        Node(2, a, "add", "method", 2, 4, "python", "Cart", "", False),
        Node(3, a, "total", "method", 6, 8, "python", "Cart", "Sum of the cart lines.", False),
        Node(5 << 20, b, "ship.py", "file", 1, 1, "python", "", "", False),
        Node((5 << 20) + 1, b, "RATE", "constant", 1, 1, "python", "", "", False),
        Node((5 << 20) + 2, b, "weight", "function", 3, 5, "python", "", "", False),
    ]


def test_stored_postings_score_as_the_postings_the_build_made():
    """The lengths come back from the file table, not the postings: every word's BM25 terms, read from the blobs
    a build writes, are the very floats the postings it made in memory (lengths in each posting) give."""
    nodes = _nodes()
    blobs, section, _kept = meaning.build_meaning_index(nodes, lambda path: SOURCE[path].encode())
    table = load_file_table(blobs[meaning.FILES] + blobs[meaning.LENGTHS])
    groups, _built = meaning.kept_files(nodes)
    made: dict[str, list] = {}
    for group in groups:
        for offset, _length, tokens, packed, _body in meaning.files_postings(groups, lambda p: SOURCE[p].encode())[
                group[0].path]:
            for token, value in zip(tokens, packed):
                made.setdefault(token, []).append((group[0].id + offset, value))
    starts = sorted(group[0].id for group in groups)
    assert list(table) == starts
    codec = meaning.POSTINGS.codec
    stored: dict[str, list] = {}
    for path, data in blobs.items():
        if path.startswith("postings/"):
            stored.update(codec.decode_shard(codec.load_shard(data)))
    assert stored.keys() == made.keys() and any(t.startswith(meaning.BODY_PREFIX) for t in stored)
    for token, pairs in made.items():
        if token.startswith(meaning.BODY_PREFIX):
            assert prepare_body(stored[token], section, table) == prepare_body(sorted(pairs), section, starts)
        else:
            assert (prepare_postings(stored[token], 1.7, section["avgdl"], table)
                    == prepare_postings(sorted(pairs), 1.7, section["avgdl"], starts))
    assert isinstance(table, FileTable)
    assert all(value >> 10 & 16383 == 0 for t, v in stored.items() if not t.startswith(meaning.BODY_PREFIX)
               for _, value in v)


def plain_prepare_postings(pairs, w, avgdl, files, body=False):
    """`prepare_postings` as it was written before its loop was inlined: a bisection, `decode_posting`,
    `FileTable.slot` and `bm25_term` a posting. The reference the inlined loop must give float for float."""
    from gitroute.indexes.meaning.postings import decode_posting
    from gitroute.rank import bm25_term

    nodes, terms, bits, owners = [], [], [], []
    previous = 0
    for node, packed in pairs:
        if node < previous:
            raise ValueError("postings out of order")
        previous = node
        tf, dl, fields = decode_posting(packed)
        if files:
            k = bisect_right(files, node) - 1
            owners.append(files[k])
            if isinstance(files, FileTable) and not body:
                at = node - files[k]
                if k < 0 or at >= files.spans[k]:
                    raise ValueError("a posting names a node the file table has no length for")
                dl = files.lengths[files.base[k] + at]
        else:
            owners.append(node)
        nodes.append(node)
        terms.append(bm25_term(tf, dl, avgdl, w))
        bits.append(fields)
    return nodes, terms, bits, owners


def _outcome(prepare, *args):
    try:
        return prepare(*args)
    except ValueError as err:
        return str(err)


@settings(max_examples=300)
@given(file_tables(), st.data(), st.floats(0.01, 30.0), st.floats(0.0, 400.0), st.booleans(), st.booleans())
def test_the_inlined_postings_loop_gives_the_plain_loop_s_floats(files, data, w, avgdl, body, as_list):
    """Nodes of the table's files and nodes outside them (before the first file, past a span), ascending or not,
    every field of a packed posting: the same nodes, terms, bits and files, or the same error."""
    table = load_file_table(dump_file_table(files)) if files else []
    given = [first + offset for first, nodes in files for offset, _ in nodes]
    extra = data.draw(st.lists(st.integers(0, 2_000_000), max_size=8))
    chosen = sorted(set(given + extra)) if data.draw(st.booleans()) else given + extra
    pairs = [(node, data.draw(st.integers(0, (1 << 31) - 1))) for node in chosen]
    files_given = list(table) if as_list else table
    assert _outcome(prepare_postings, pairs, w, avgdl, files_given, body) == _outcome(
        plain_prepare_postings, pairs, w, avgdl, files_given, body)


def plain_score_nodes(prepared, tokens, alternates, bodies):
    """`ranking._score_nodes` as it was written before its sums were made a word at a time: a posting at a time.
    The reference its scores, files and held words must equal."""
    from collections import defaultdict

    node_score, node_file, held_by = defaultdict(float), {}, defaultdict(int)
    bit_of = {word: 1 << i for i, word in enumerate(tokens)}
    best_alt = {}
    for token, (nodes, terms, _bits, owners) in prepared:
        stands_for = alternates.get(token)
        bit = 0 if token in bodies else bit_of.get(stands_for or token, 0)
        for node, term in zip(nodes, terms):
            if stands_for is None:
                node_score[node] += term
                if bit:
                    held_by[node] |= bit
            else:
                before = best_alt.get((node, stands_for), 0.0)
                if term > before:
                    node_score[node] += term - before
                    best_alt[(node, stands_for)] = term
                held_by[node] |= bit
        node_file.update(zip(nodes, owners))
    for (node, word), term in best_alt.items():
        of_word = next((nodes for t, (nodes, *_rest) in prepared if t == word), None)
        if of_word and node in of_word:
            node_score[node] -= term
    return node_score, node_file, held_by


@settings(max_examples=300)
@given(st.data())
def test_scores_summed_a_word_at_a_time_are_the_plain_loop_s_floats(data):
    """Words whose nodes overlap or not, a word naming a node twice, body words, alternatives: the same float per
    node (the same sums in the same order), the same files and the same words held (worked out apart, when the
    evidence's node_coverage is read)."""
    from gitroute.indexes.meaning.ranking import _held_words, _node_coverage, _score_nodes

    tokens = ["alpha", "beta", "gamma"]
    names = [*tokens, meaning.BODY_PREFIX + "alpha", meaning.BODY_PREFIX + "beta", "delta"]
    chosen = data.draw(st.lists(st.sampled_from(names), unique=True, max_size=6))
    prepared = []
    for token in chosen:
        nodes = sorted(data.draw(st.lists(st.integers(0, 40), max_size=25)))
        terms = data.draw(st.lists(st.floats(0.0, 20.0), min_size=len(nodes), max_size=len(nodes)))
        prepared.append((token, (nodes, terms, [0] * len(nodes), [n - n % 8 for n in nodes])))
    bodies = {name: name[len(meaning.BODY_PREFIX):] for name in chosen if name.startswith(meaning.BODY_PREFIX)}
    alternates = {"delta": "beta"} if data.draw(st.booleans()) else {}
    expected = plain_score_nodes(prepared, tokens, alternates, bodies)
    found = (*_score_nodes(prepared, alternates), _held_words(prepared, tokens, alternates, bodies))
    assert [dict(part) for part in found] == [dict(part) for part in expected]
    weights = {t: 1.0 + i for i, t in enumerate(tokens)}
    shares = [sum(weights[t] for i, t in enumerate(tokens) if held >> i & 1) / 6.0 for held in expected[2].values()]
    assert _node_coverage(prepared, tokens, alternates, bodies, weights) == max(shares, default=0.0)


def plain_rank_by_file(node_score, node_file):
    """`ranking._rank_by_file` as it was before a file's score was made from its scores alone: every file's nodes
    best first, its own node and best others read off them. The reference its files and scores must equal."""
    from collections import defaultdict

    from gitroute.indexes.meaning.ranking import _DECAYS, NODE_TOP, _best_first

    per_file = defaultdict(list)
    for node, score in node_score.items():
        per_file[node_file[node]].append((score, node))
    ranked = []
    for file_id, scored in per_file.items():
        if len(scored) == 1:
            ranked.append((scored[0][0], file_id))
            continue
        _best_first(scored)
        own = next((s for s, node in scored if node == file_id), 0.0)
        best = [s for s, node in scored if node != file_id][:NODE_TOP]
        ranked.append((own + sum([s * decay for s, decay in zip(best, _DECAYS)]), file_id))
    _best_first(ranked)
    return per_file, ranked


@settings(max_examples=300)
@given(st.data())
def test_files_ranked_from_their_scores_alone_are_the_plain_ranking_s(data):
    """Files of one node or many, with or without their own node, scores that tie (within a file and across files)
    and -0.0: the same files in the same order with the same floats, and the first `keep` files' nodes best first
    as the plain ranking has them (the others' the same nodes)."""
    from gitroute.indexes.meaning.ranking import _rank_by_file

    scores = st.sampled_from([0.0, -0.0, 0.5, 1.0, 1.25, 2.0, 3.75]) | st.floats(0.0, 30.0)
    nodes = sorted(data.draw(st.sets(st.integers(0, 60), max_size=40)))
    node_score = {node: data.draw(scores) for node in nodes}
    node_file = {node: node - node % data.draw(st.sampled_from([1, 4, 16])) for node in nodes}
    keep = data.draw(st.none() | st.integers(0, 12))
    per_file, ranked = _rank_by_file(node_score, node_file, keep)
    plain_files, plain_ranked = plain_rank_by_file(node_score, node_file)
    assert [(repr(s), f) for s, f in ranked] == [(repr(s), f) for s, f in plain_ranked]
    kept = {f for _, f in ranked[:keep]}
    assert per_file.keys() == plain_files.keys()
    for file_id, scored in per_file.items():
        assert (scored if file_id in kept else sorted(scored)) == (
            plain_files[file_id] if file_id in kept else sorted(plain_files[file_id]))
