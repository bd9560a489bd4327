"""The BM25 walk over numpy arrays (`meaning.arrays`) against the Python walk it stands in for: the same files in the
same order, with the same floats, and each file's nodes best first."""
from __future__ import annotations

from bisect import bisect_right

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from gitroute.indexes.meaning import arrays, ranking
from gitroute.indexes.meaning.ranking import _DECAYS, _rank_by_file, _score_nodes, rank_files

# Terms from a few values, zero among them, so that nodes and files tie, and alternatives tie or lose to the best
# alternative before them (which then adds nothing, and alone makes no node scored).
TERMS = st.sampled_from([0.0, 0.5, 1.0, 1.0, 2.25, 0.1 + 0.2, 3.7, 1e-9])


@st.composite
def walks(draw):
    """(prepared, alternates): question words and alternatives of them, each token's postings over a few files."""
    starts = sorted(draw(st.sets(st.integers(0, 60), min_size=1, max_size=8)) | {0})
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
