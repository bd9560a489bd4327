"""`ranking._score_nodes` and `ranking._rank_by_file` over numpy arrays, for a question whose words hold many postings:
the same sums in the same order, so the same floats, and the same files in the same order.

A kernel's common words hold hundreds of thousands of postings ("dev": 146,639); summed and grouped a posting at a
time in Python, they were most of a cold sentence (785,644 postings: 1.9 s). Here every step is a whole-array
operation; what stays sequential (a node's terms added in the question's order, an alternative counted over the
best before it) runs once per posting rank, not once per posting. numpy costs a cold process about 80 ms of CPU to
import, so a question takes this path only past `MIN_POSTINGS` (fewer once a warm server has imported it).
"""
from __future__ import annotations

import os
import sys
from collections.abc import Iterator, Mapping, Sequence

TYPE_CHECKING = False
if TYPE_CHECKING:
    import numpy

    from gitroute.indexes.meaning.ranking import Prepared

MIN_POSTINGS = 60_000  # measured on the kernel: numpy's import then costs less than the Python walk it replaces
MIN_POSTINGS_IMPORTED = 5_000  # numpy already imported (a warm server, a second question)


def numpy_for(postings: int):  # -> the numpy module, or None
    """numpy when a walk of this many postings pays for importing it (and it is installed); else None."""
    if postings < (MIN_POSTINGS_IMPORTED if "numpy" in sys.modules else MIN_POSTINGS):
        return None
    # One thread: nothing here multiplies matrices, and OpenBLAS starting a thread per core doubles the import's CPU.
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    try:
        import numpy
    except ImportError:
        return None
    return numpy


def score_and_rank(np, prepared: list[tuple[str, Prepared]], alternates: Mapping[str, str], decays: Sequence[float],
                   ) -> tuple[FileNodes, list[tuple[float, int]]]:
    """(each file's scored nodes, files by score) as `_score_nodes` then `_rank_by_file` give them: every file's
    nodes best first (the Python walk sorts only the files a question reads), files best first, ties by id."""
    nodes, scores, files = _node_scores(np, prepared, alternates)
    # By file, then score (best first), then node id: a file's nodes are a run, in `_best_first`'s order.
    order = np.lexsort((nodes, -scores, files))
    nodes, scores, files = nodes[order], scores[order], files[order]
    starts = _run_starts(np, files)
    run = np.cumsum(starts) - 1  # each node's file, as the index of its run
    firsts = np.flatnonzero(starts)
    count = len(firsts)
    own_node = nodes == files
    own = np.zeros(count)
    own[run[own_node]] = scores[own_node]
    # A file's score: its own node's, plus its best other nodes', each `decays[i]` of its own (in that order).
    others = ~own_node
    seen = np.cumsum(others)
    place = seen - 1 - np.concatenate(([0], seen[firsts[1:] - 1]))[run]  # rank among the file's other nodes
    decayed = np.zeros(count)
    for i, decay in enumerate(decays):
        best = np.zeros(count)
        at = others & (place == i)
        best[run[at]] = scores[at]
        decayed = decayed + best * decay if i else best * decay
    sizes = np.diff(np.append(firsts, len(files)))
    file_scores = np.where(sizes == 1, scores[firsts], own + decayed)
    file_ids = files[firsts]
    ranked = np.lexsort((file_ids, -file_scores))
    ranked_pairs = list(zip(file_scores[ranked].tolist(), file_ids[ranked].tolist()))
    return FileNodes(file_ids.tolist(), firsts.tolist(), len(files), scores, nodes), ranked_pairs


def _node_scores(np, prepared: list[tuple[str, Prepared]], alternates: Mapping[str, str]):
    """(node ids, their scores, their files) of every node a token names: a token's terms added in the tokens' order;
    an alternative's only where it beats the best alternative of its word before it (by the difference), and taken
    back where the word itself names the node, in the order the Python walk takes them back."""
    held = [(token, ready) for token, ready in prepared if len(ready[0])]
    if not held:
        empty = np.zeros(0, dtype=np.int64)
        return empty, np.zeros(0), empty
    sizes = [len(ready[0]) for _, ready in held]
    nodes = np.concatenate([np.asarray(ready[0], dtype=np.int64) for _, ready in held])
    terms = np.concatenate([np.asarray(ready[1], dtype=np.float64) for _, ready in held])
    owners = np.concatenate([np.asarray(ready[3], dtype=np.int64) for _, ready in held])
    word_of = {word: i for i, word in enumerate(dict.fromkeys(alternates.values()))}
    # Each posting's question word when its token is an alternative (-1: a word of its own).
    words = np.repeat(np.array([word_of[alternates[token]] if token in alternates else -1 for token, _ in held],
                               dtype=np.int64), sizes)
    added, counted, taken_back = terms, None, None
    if word_of and (words >= 0).any():
        added, counted, taken_back = _alternatives(np, nodes, terms, words, held, word_of)
    # A node's additions in the tokens' order: postings sorted by node, stably, then added a rank at a time.
    order = np.argsort(nodes, kind="stable")
    by_node = nodes[order]
    starts = _run_starts(np, by_node)
    run = np.cumsum(starts) - 1
    firsts = np.flatnonzero(starts)
    scores = _sums_in_order(np, run, firsts, added[order], len(firsts))
    node_ids, files = by_node[firsts], owners[order][firsts]
    if counted is not None:  # a node only alternatives name, none above the one before it, is no node scored
        kept = np.zeros(len(firsts), dtype=bool)
        kept[run[counted[order]]] = True
        node_ids, scores, files = node_ids[kept], scores[kept], files[kept]
    if taken_back is not None:
        back_nodes, back_terms = taken_back  # sorted by node, then the order the walk took them back in
        at = np.searchsorted(node_ids, back_nodes)
        back_starts = _run_starts(np, back_nodes)
        rank = np.arange(len(back_nodes)) - np.flatnonzero(back_starts)[np.cumsum(back_starts) - 1]
        for k in range(int(rank.max()) + 1 if len(rank) else 0):
            these = rank == k
            scores[at[these]] -= back_terms[these]
    return node_ids, scores, files


def _alternatives(np, nodes, terms, words, held, word_of):
    """(what each posting adds, whether it counts its node, (nodes, terms) to take back): an alternative's posting
    adds its term less the best term of the same word's alternatives before it on that node, or nothing (and does
    not make its node one scored) when it is not above it; where the word itself names the node, the best is taken
    back after every token is added (`ranking._score_nodes`)."""
    added = terms.copy()
    counted = words < 0
    alt = np.flatnonzero(words >= 0)  # in the tokens' order
    # Postings of one (node, word), in the tokens' order: each one's best before it is a running maximum.
    order = alt[np.lexsort((words[alt], nodes[alt]))]  # stable: ties keep the tokens' order
    pair_starts = _run_starts(np, nodes[order]) | _run_starts(np, words[order])
    pair = np.cumsum(pair_starts) - 1
    pair_firsts = np.flatnonzero(pair_starts)
    rank = np.arange(len(order)) - pair_firsts[pair]
    best = np.zeros(len(pair_firsts))
    first_added = np.full(len(pair_firsts), len(terms))  # where the walk first keeps a best: its place in its dict
    for k in range(int(rank.max()) + 1):
        these = np.flatnonzero(rank == k)
        at, term = pair[these], terms[order[these]]
        before = best[at]
        beats = term > before
        added[order[these]] = np.where(beats, term - before, 0.0)
        kept = these[beats]
        counted[order[kept]] = True
        first_added[pair[kept]] = np.minimum(first_added[pair[kept]], order[kept])
        best[at] = np.where(beats, term, before)
    # Taken back where the word itself (a token of the question) names the node.
    pair_nodes, pair_words = nodes[order[pair_firsts]], words[order[pair_firsts]]
    back = np.zeros(len(pair_firsts), dtype=bool)
    own_nodes = {word_of[token]: np.asarray(ready[0], dtype=np.int64) for token, ready in held if token in word_of}
    for word, its_nodes in own_nodes.items():
        mine = np.flatnonzero((pair_words == word) & (best > 0.0))
        if len(mine) and len(its_nodes):
            found = np.searchsorted(its_nodes, pair_nodes[mine])
            found[found >= len(its_nodes)] = len(its_nodes) - 1
            back[mine[its_nodes[found] == pair_nodes[mine]]] = True
    back_order = np.flatnonzero(back)
    back_order = back_order[np.lexsort((first_added[back_order], pair_nodes[back_order]))]
    return added, counted, (pair_nodes[back_order], best[back_order])


def _sums_in_order(np, run, firsts, values, count):
    """Each run's values added left to right from 0.0, one rank of every run at a time (as a Python loop adds)."""
    rank = np.arange(len(run)) - firsts[run]
    sums = np.zeros(count)
    for k in range(int(rank.max()) + 1 if len(rank) else 0):
        these = rank == k
        sums[run[these]] += values[these]
    return sums


def _run_starts(np, values):
    """Where each run of equal neighbours starts (the first is always one)."""
    starts = np.empty(len(values), dtype=bool)
    if len(values):
        starts[0] = True
        np.not_equal(values[1:], values[:-1], out=starts[1:])
    return starts


class FileNodes(Mapping):
    """file id -> its scored nodes [(score, node id)], best first: made from the sorted arrays when asked (a question
    reads a few files' of tens of thousands)."""

    def __init__(self, file_ids: list[int], firsts: list[int], end: int, scores: numpy.ndarray,
                 nodes: numpy.ndarray) -> None:
        self._at = {fid: (first, after) for fid, first, after in zip(file_ids, firsts, [*firsts[1:], end])}
        self._scores, self._nodes = scores, nodes
        self._made: dict[int, list[tuple[float, int]]] = {}

    def __getitem__(self, file_id: int) -> list[tuple[float, int]]:
        made = self._made.get(file_id)
        if made is None:
            first, after = self._at[file_id]
            made = self._made[file_id] = list(zip(self._scores[first:after].tolist(),
                                                  self._nodes[first:after].tolist()))
        return made

    def __iter__(self) -> Iterator[int]:
        return iter(self._at)

    def __len__(self) -> int:
        return len(self._at)
