"""The BM25 walk over numpy arrays (`meaning.arrays`) against the Python walk it stands in for: the same files in the
same order, with the same floats, and each file's nodes best first."""
from __future__ import annotations

from bisect import bisect_right

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gitroute.bundle.store import BundleView, corrupt_blob
from gitroute.bundle.varints import decode_varints, encode_varints
from gitroute.indexes.meaning import arrays, query_meaning, ranking
from gitroute.indexes.meaning.postings import BODY_BIT
from gitroute.indexes.meaning.ranking import _DECAYS, _rank_by_file, _score_nodes, rank_files
from gitroute.indexes.meaning.storage import MeaningPairs, dump_file_table, load_file_table
from tests.test_meaning import SHOP_FILES, SHOP_QUESTIONS

# Terms from a few values, zero among them, so that nodes and files tie, and alternatives tie or lose to the best
# alternative before them (which then adds nothing, and alone makes no node scored).
TERMS = st.sampled_from([0.0, 0.5, 1.0, 1.0, 2.25, 0.1 + 0.2, 3.7, 1e-9])


@st.composite
def walks(draw):
    """(prepared, alternates): question words and alternatives of them, each token's postings over a few files."""
    # Without 0 among the files' first ids, a node before every file is the last file's (a damaged table; the
    # walk's `starts[-1]`): its nodes are then no run of their own.
    starts = sorted(draw(st.sets(st.integers(0, 60), min_size=1, max_size=8)) | ({0} if draw(st.booleans()) else set()))
    words = draw(st.lists(st.sampled_from(["cache", "folder", "size", "check"]), min_size=1, max_size=3, unique=True))
    alternates = {}
    for alt in draw(st.lists(st.sampled_from(["dir", "len", "length", "verify", "validat", "store"]), max_size=4,
                             unique=True)):
        alternates[alt] = draw(st.sampled_from(words))
    tokens = draw(st.permutations([w for w in words if draw(st.booleans()) or not alternates] + list(alternates)))
    prepared = []
    for token in tokens:
        nodes = sorted(draw(st.lists(st.integers(0, 70), max_size=25)))  # repeats: a word naming a node twice
        terms = [draw(TERMS) for _ in nodes]
        bits = [draw(st.integers(1, 7)) for _ in nodes]
        owners = [starts[bisect_right(starts, node) - 1] for node in nodes]
        prepared.append((token, (nodes, terms, bits, owners)))
    return prepared, alternates


@settings(max_examples=400, deadline=None)
@given(walk=walks())
def test_arrays_give_the_python_walks_files_scores_and_nodes(walk):
    prepared, alternates = walk
    node_score, node_file = _score_nodes(prepared, alternates)
    per_file, ranked = _rank_by_file(node_score, node_file)  # every file's nodes best first
    by_arrays, ranked_by_arrays = arrays.score_and_rank(np, prepared, alternates, _DECAYS)
    assert ranked_by_arrays == ranked  # the same floats: == on floats, not approximately
    assert dict(by_arrays) == dict(per_file)
    assert all(type(score) is float and type(fid) is int for score, fid in ranked_by_arrays)


def test_a_question_takes_the_arrays_only_past_its_postings_threshold(monkeypatch):
    monkeypatch.setattr(arrays, "MIN_POSTINGS", 100)
    monkeypatch.setattr(arrays, "MIN_POSTINGS_IMPORTED", 100)
    assert arrays.numpy_for(99) is None
    assert arrays.numpy_for(100) is np


def _ranking(monkeypatch, threshold: int):
    monkeypatch.setattr(arrays, "MIN_POSTINGS", threshold)
    monkeypatch.setattr(arrays, "MIN_POSTINGS_IMPORTED", threshold)
    # Three files (nodes 0-4, 5-9, 10-): "dir" stands for the question's "folder", taken back where "folder" is too.
    tf_len = 1 | 4 << 10 | 1 << 24
    postings = {"folder": [(1, tf_len), (6, tf_len), (11, 3 | 9 << 10 | 1 << 24)],
                "dir": [(1, 2 | 4 << 10 | 1 << 24), (2, 2 | 4 << 10 | 1 << 24), (10, tf_len)],
                "cache": [(2, tf_len), (5, tf_len), (7, tf_len), (10, 5 | 2 << 10 | 2 << 24)],
                "~cache": [(3, tf_len)]}
    section = {"documents": 12, "avgdl": 4.0, "body_documents": 3, "body_avgdl": 4.0}
    ranked, per_file, matched, evidence = rank_files(["folder", "cache"], postings, section, files=[0, 5, 10],
                                                     alternates={"dir": "folder"}, keep=2)
    # the files read further are the first `keep`: their nodes best first (the Python walk sorts no other file's)
    return (ranked, {fid: per_file[fid] for _, fid in ranked[:2]}, {n: matched[n] for n in range(12)},
            (evidence.weights, evidence.missing, evidence.coverage, evidence.best_idf, evidence.node_coverage))


def test_rank_files_answers_alike_through_either_walk(monkeypatch):
    by_arrays = _ranking(monkeypatch, 0)
    assert isinstance(ranking.rank_files(["cache"], {"cache": [(1, 1 | 1 << 10 | 1 << 24)]}, {"documents": 2},
                                         files=[0])[1], arrays.FileNodes)
    by_python = _ranking(monkeypatch, 10**9)
    assert by_arrays == by_python
    assert [fid for _, fid in by_python[0]] == [10, 5, 0]


PAIRS = st.lists(st.tuples(st.integers(0, 2**34), st.integers(0, 1023), st.integers(0, 16383), st.integers(0, 40)),
                 min_size=1, max_size=40)


def _pairs(rows, body: bool) -> list[tuple[int, int]]:
    """(node id, packed posting) pairs as a build makes them: ascending ids, a body word's term frequency 1."""
    bit = BODY_BIT if body else 0
    return sorted({node: (1 if body else tf) | length << 10 | (fields | bit) << 24
                   for node, tf, length, fields in rows}.items())


@settings(max_examples=300, deadline=None)
@given(rows=PAIRS, body=st.booleans())
def test_arrays_decode_what_the_codec_decodes(rows, body):
    codec = MeaningPairs()
    if body:
        rows = [(node, tf, min(length, 1023), fields) for node, tf, length, fields in rows]
    stored = codec.encode(_pairs(rows, body))
    decoded = arrays.decode_pairs(np, stored)
    assert decoded is not None
    assert list(zip(decoded.nodes.tolist(), decoded.packed.tolist())) == codec.decode(stored)


@pytest.mark.parametrize("damage", ["cut", "count", "ordinal", "tf", "long"])
def test_a_value_the_arrays_cannot_read_plainly_is_the_codecs_to_judge(damage):
    codec = MeaningPairs()
    stored = codec.encode([(5, 2 | 3 << 24), (1 << 20 | 7, 1 | 1 << 24)])
    ints = decode_varints(stored)
    if damage == "cut":
        stored = stored[:-1] + bytes([stored[-1] | 128])
    elif damage == "count":
        stored = encode_varints([ints[0] + 1, *ints[1:]])
    elif damage == "ordinal":  # an ordinal past its bits
        stored = encode_varints([ints[0], ints[1], ints[2], 1 << 21, *ints[4:]])
    elif damage == "tf":  # a term frequency past its bits
        stored = encode_varints([*ints[:5], 1 << 11, *ints[6:]])
    else:  # a varint of nine bytes
        stored = encode_varints([ints[0], ints[1], 1 << 60, *ints[3:]])
    assert arrays.decode_pairs(np, stored) is None
    shard = {"word": stored}
    try:
        expected = codec.decode_key(shard, "word")
    except ValueError as err:
        with pytest.raises(type(err)):
            arrays.decode_key(np, codec, shard, "word")
    else:
        assert arrays.decode_key(np, codec, shard, "word") == expected


def test_node_ids_past_what_an_array_holds_are_the_codecs_to_read():
    # 512 buckets of 2 ** 55 each: their sum is 2 ** 64, which int64 wraps to 0; the codec reads them as Python ints.
    codec = MeaningPairs()
    n = 512
    shard = {"word": encode_varints([n, *[1 << 55] * n, *[0] * n, *[1] * n, *[1] * n])}
    assert arrays.decode_pairs(np, shard["word"]) is None
    assert arrays.decode_key(np, codec, shard, "word") == codec.decode_key(shard, "word")


@settings(max_examples=200, deadline=None)
@given(lengths=st.lists(st.lists(st.integers(0, 600), min_size=1, max_size=6), min_size=1, max_size=6),
       picks=st.lists(st.tuples(st.integers(0, 40), st.integers(0, 1023), st.integers(0, 20)), min_size=1,
                      max_size=30),
       body=st.booleans(), w=st.sampled_from([0.5, 1.7, 6.25]), avgdl=st.sampled_from([0.0, 3.5, 12.0]))
def test_arrays_weigh_each_posting_as_the_python_walk_does(lengths, picks, body, w, avgdl):
    # Files of a few nodes each (their lengths some past 255, kept apart), and postings of some of their nodes.
    starts, first = [], 0
    for nodes in lengths:
        starts.append(first)
        first += len(nodes) + 3  # ids a file leaves unused, as a graph's buckets do
    table = load_file_table(dump_file_table([(s, list(enumerate(nodes))) for s, nodes in zip(starts, lengths)]))
    chosen = {starts[k % len(starts)] + at % len(lengths[k % len(starts)]): (tf, fields)
              for k, (at, tf, fields) in enumerate(picks)}
    pairs = sorted((node, (1 if body else tf) | (tf if body else 0) << 10 | fields << 24)
                   for node, (tf, fields) in chosen.items())
    python = ranking.prepare_postings(pairs, w, avgdl, table, body=body)
    columns = arrays.file_columns(np, table, None)
    made = arrays.prepare(np, arrays.PostingArrays(np.array([n for n, _ in pairs]), np.array([p for _, p in pairs])),
                          w, avgdl, *columns, body)
    assert [a.tolist() for a in made] == [list(c) for c in python]


def test_a_posting_past_its_files_nodes_is_damage_either_way():
    table = load_file_table(dump_file_table([(0, [(0, 3), (1, 4)]), (10, [(0, 2)])]))
    pairs = [(1, 1 | 1 << 24), (4, 1 | 1 << 24)]  # node 4: file 0 holds nodes 0 and 1 only
    with pytest.raises(ValueError, match="no length"):
        ranking.prepare_postings(pairs, 1.0, 3.0, table)
    with pytest.raises(ValueError, match="no length"):
        arrays.prepare(np, arrays.PostingArrays(np.array([1, 4]), np.array([p for _, p in pairs])), 1.0, 3.0,
                       *arrays.file_columns(np, table, None), False)


@pytest.fixture
def shop(make_repo, route):
    repo = make_repo("shop")
    repo.commit(dict(SHOP_FILES), "initial")
    built = route(["build", "-q"], repo.path)
    assert built.exit_code == 0, built.stderr
    return repo


def _walk(monkeypatch, threshold: int) -> None:
    monkeypatch.setattr(arrays, "MIN_POSTINGS", threshold)
    monkeypatch.setattr(arrays, "MIN_POSTINGS_IMPORTED", threshold)


def test_a_built_bundle_answers_alike_through_either_walk(shop, monkeypatch):
    answers = {}
    for threshold in (0, 10**9):
        _walk(monkeypatch, threshold)
        with BundleView(str(shop.path)) as bundle:
            view = bundle.index("meaning")
            found = []
            for text in SHOP_QUESTIONS:
                rows, notes, evidence = query_meaning(text, view.section, view.read, limit=5, explain=True,
                                                      corrupt=corrupt_blob, records=view.graph.records)
                found.append((rows, notes, evidence and (evidence.coverage, evidence.node_coverage, evidence.missing)))
            answers[threshold] = found
    assert answers[0] == answers[10**9]
    assert any(rows for rows, _, _ in answers[0])


@pytest.mark.parametrize("threshold", [0, 10**9])
def test_a_damaged_postings_value_is_a_damaged_bundle_through_either_walk(shop, route, monkeypatch, threshold):
    # A stored value cut short: the codec's error, whichever walk the question would take.
    _walk(monkeypatch, threshold)
    real = MeaningPairs.decode

    def cut(self, stored):
        return real(self, stored[:-1] + bytes([stored[-1] | 128]) if isinstance(stored, bytes) else stored)

    monkeypatch.setattr(MeaningPairs, "decode", cut)
    real_pairs = arrays.decode_pairs
    monkeypatch.setattr(arrays, "decode_pairs",
                        lambda np_, raw: real_pairs(np_, raw[:-1] + bytes([raw[-1] | 128])))
    result = route(["query", "--meaning", "shipping weight"], shop.path)
    assert result.exit_code != 0 and "damaged" in result.stderr.lower(), result.stderr


@settings(max_examples=500, deadline=None)
@given(rows=PAIRS, body=st.booleans(), edits=st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 255)),
                                                        max_size=4), cut=st.integers(0, 3))
def test_a_damaged_value_reads_as_the_codec_reads_it_or_fails_as_it_fails(rows, body, edits, cut):
    # A value a build wrote, then bytes overwritten and its end cut: the arrays give the codec's pairs, or the
    # codec's own error (they leave every value they cannot read plainly to it).
    codec = MeaningPairs()
    if body:
        rows = [(node, tf, min(length, 1023), fields) for node, tf, length, fields in rows]
    raw = bytearray(codec.encode(_pairs(rows, body)))
    for at, byte in edits:
        raw[at % len(raw)] = byte
    shard = {"word": bytes(raw[:len(raw) - cut] or b"\x00")}
    try:
        expected = codec.decode_key(shard, "word")
    except ValueError as err:
        with pytest.raises(type(err)):
            arrays.decode_key(np, codec, shard, "word")
        return
    found = arrays.decode_key(np, codec, shard, "word")
    pairs = list(zip(found.nodes.tolist(), found.packed.tolist())) if isinstance(found, arrays.PostingArrays) else found
    assert pairs == expected


def test_a_pinned_bundles_later_question_of_few_postings_walks_lists(monkeypatch):
    # The first question reads "cache" as arrays and keeps it made ready; the second, under the threshold, walks the
    # Python lists: plain floats, the same as with nothing kept.
    codec = MeaningPairs()
    pairs = [(node, 1 | 1 << 24) for node in range(1, 40, 3)]
    section = {"documents": 50, "avgdl": 1.0}
    memo: dict = {}
    as_arrays = arrays.decode_pairs(np, codec.encode(pairs))
    _walk(monkeypatch, 0)
    first = rank_files(["cache"], {"cache": as_arrays}, section, files=[0, 20], memo=memo)[0]
    _walk(monkeypatch, 10**9)
    later = rank_files(["cache", "folder"], {"cache": pairs, "folder": [(2, 1 | 1 << 24)]}, section, files=[0, 20],
                       memo=memo)[0]
    fresh = rank_files(["cache", "folder"], {"cache": pairs, "folder": [(2, 1 | 1 << 24)]}, section, files=[0, 20])[0]
    assert later == fresh and first
    assert all(type(score) is float for score, _ in later)


_AHEAD = r"""
import json, sys
from gitroute.indexes import symbols
from gitroute.indexes.meaning import arrays
from gitroute.query import query

arrays.MIN_POSTINGS = int(sys.argv[2])
real = symbols.read_postings
seen = []


def read_postings(*args, **kwargs):  # was numpy in the process when the symbol tiers decoded their postings?
    seen.append("numpy" in sys.modules)
    return real(*args, **kwargs)


symbols.read_postings = read_postings
assert "numpy" not in sys.modules
rows = [tuple(query(text, repo=sys.argv[1], explain=True).rows) for text in json.loads(sys.argv[3])]
print(json.dumps({"symbols_saw_numpy": seen, "numpy": "numpy" in sys.modules, "rows": repr(rows)}))
"""


def test_a_plain_words_question_imports_numpy_before_the_symbol_tiers_only_when_meaning_would(shop):
    """`meaning.numpy_ahead`: past the postings threshold numpy is in before the symbol tiers decode (they then
    decode over arrays), and the answers are the same; under it, no question imports numpy at all. A fresh process
    each, numpy not yet imported; a one-word question never asks the meaning index."""
    import json
    import subprocess
    import sys

    questions = json.dumps(["where is the reminder sent when the customer has not paid", "shipping weight"])
    runs = {threshold: json.loads(subprocess.run([sys.executable, "-c", _AHEAD, str(shop.path), str(threshold),
                                                  questions], capture_output=True, text=True, check=True).stdout)
            for threshold in (1, 10**9)}
    assert runs[1]["symbols_saw_numpy"] == [True, True] and runs[1]["numpy"]
    assert runs[10**9]["symbols_saw_numpy"] == [False, False] and not runs[10**9]["numpy"]
    assert runs[1]["rows"] == runs[10**9]["rows"]
    one_word = subprocess.run([sys.executable, "-c", _AHEAD, str(shop.path), "1", json.dumps(["invoice_total"])],
                              capture_output=True, text=True, check=True).stdout
    assert json.loads(one_word) | {"rows": ""} == {"symbols_saw_numpy": [False], "numpy": False, "rows": ""}


_NAME_ARRAYS = r"""
import json, sys
from gitroute.bundle import varint_arrays
from gitroute.indexes import symbols
from gitroute.query import query

symbols.NUMPY_BYTES = int(sys.argv[2])
real = varint_arrays.field_lists
over_arrays = []


def field_lists(*args, **kwargs):
    over_arrays.append(1)
    return real(*args, **kwargs)


varint_arrays.field_lists = field_lists
symbols.ARRAYS_MIN_BYTES = 0  # this shop's postings are short: each decoded over arrays once numpy is in
assert "numpy" not in sys.modules
rows = [tuple(query(text, repo=sys.argv[1], explain=True).rows) for text in json.loads(sys.argv[3])]
print(json.dumps({"numpy": "numpy" in sys.modules, "over_arrays": len(over_arrays), "rows": repr(rows)}))
"""


def test_a_name_imports_numpy_only_for_postings_past_the_threshold(shop):
    """`symbols.NUMPY_BYTES`: a name whose words' stored postings pass it (a kernel's `bnx2x_q_fill_init_rx_data`,
    1.7 MB) imports numpy and decodes them over arrays; under it, none is imported. The rows are the same. A fresh
    process each, numpy not yet imported."""
    import json
    import subprocess
    import sys

    names = json.dumps(["invoice_total", "send_reminder"])
    runs = {threshold: json.loads(subprocess.run([sys.executable, "-c", _NAME_ARRAYS, str(shop.path), str(threshold),
                                                  names], capture_output=True, text=True, check=True).stdout)
            for threshold in (1, 10**9)}
    assert runs[1]["numpy"] and runs[1]["over_arrays"] > 0
    assert not runs[10**9]["numpy"] and runs[10**9]["over_arrays"] == 0
    assert runs[1]["rows"] == runs[10**9]["rows"] and "invoice_total" in runs[1]["rows"]
