"""meaning's postings decoded, weighed, summed and grouped by file over numpy arrays, for a question whose words hold
many postings: the same ints, the same floats in the same order, the same files in the same order as the Python walk
(`storage.MeaningPairs.decode`, `ranking.prepare_postings`, `ranking._score_nodes`, `ranking._rank_by_file`).

A kernel's common words hold hundreds of thousands of postings ("dev": 146,639); decoded and summed a posting at a
time in Python, they were most of a cold sentence (785,644 postings: 2.8 s a question). Here every step is a
whole-array operation; what stays sequential (a node's terms added in the question's order, an alternative counted
over the best before it) runs once per rank of a run, not once per posting. numpy costs a cold process about 80 ms of
CPU to import, so a question takes this path only past `MIN_POSTINGS` (fewer once a warm server has imported it). A
value that is not plainly one a build writes is left to the codec, which says what is wrong with it.
"""
from __future__ import annotations

import sys
from collections.abc import Iterator, Mapping, Sequence
from functools import partial

from gitroute.bundle.validate import BadValue
from gitroute.bundle.varint_arrays import decode_key as over_arrays
from gitroute.bundle.varint_arrays import import_numpy, node_id_array, varint_ints
from gitroute.bundle.varints import read_varint
from gitroute.indexes.meaning.postings import BODY_BIT
from gitroute.indexes.meaning.storage import _BIG, _FIELDS_SHIFT, _TF_MASK, MAX_LENGTH, TF_BITS, FileTable
from gitroute.rank import BM25_B, BM25_K1

TYPE_CHECKING = False
if TYPE_CHECKING:
    import numpy

    from gitroute.indexes.meaning.ranking import Prepared

MIN_POSTINGS = 30_000  # measured on the kernel: past it, the arrays save more than numpy costs to import
MIN_POSTINGS_IMPORTED = 5_000  # numpy already imported (a warm server, a second question)


def numpy_for(postings: int):  # -> the numpy module, or None
    """numpy when a walk of this many postings pays for importing it (and it is installed); else None."""
    if postings < (MIN_POSTINGS_IMPORTED if "numpy" in sys.modules else MIN_POSTINGS):
        return None
    return import_numpy()


class PostingArrays:
    """A word's postings as two arrays, node ids (ascending) and packed postings: `MeaningPairs`' pairs, unzipped."""

    __slots__ = ("nodes", "packed")

    def __init__(self, nodes: numpy.ndarray, packed: numpy.ndarray) -> None:
        self.nodes, self.packed = nodes, packed

    def __len__(self) -> int:
        return len(self.nodes)


def stored_count(raw: object) -> int:
    """The postings a stored value holds (its first varint: `GapPairs` spells the count first), 0 when unreadable."""
    try:
        return read_varint(raw, 0)[0] if isinstance(raw, bytes) else 0
    except BadValue:
        return 0


def decode_key(np, codec, stored: dict, key: str):  # -> PostingArrays | the codec's pairs | None
    """One key's postings from a stored shard: as arrays where `decode_pairs` reads them, else as the codec does
    (which says what is wrong with a value, if anything is)."""
    return over_arrays(codec, stored, key, partial(decode_pairs, np))


def decode_pairs(np, raw: bytes) -> PostingArrays | None:
    """`MeaningPairs.decode` over arrays: the varints, the node ids from their two columns (`varints.node_ids`), the
    term frequencies and the fields (a body word's length read back from the first: `storage._as_read`). None for any
    value that is not plainly one a build writes (cut short, a varint past eight bytes, a column past its bits, no
    postings): the codec's own decoding then reads it, and raises what it raises."""
    ints = varint_ints(np, raw)
    if ints is None:
        return None
    n = int(ints[0])
    if n <= 0 or len(ints) != 1 + 4 * n:
        return None
    moved, gaps, tf, fields = ints[1:1 + n], ints[1 + n:1 + 2 * n], ints[1 + 2 * n:1 + 3 * n], ints[1 + 3 * n:]
    if int(tf.max()) >> TF_BITS or int(fields.max()) >> 30:
        return None
    nodes = node_id_array(np, moved, gaps)
    if nodes is None:
        return None
    if fields[0] & BODY_BIT:  # a body word's: its length in its term frequency's place, read back
        if not bool((fields & BODY_BIT).all()):
            return None  # a body word's key with others' postings: the codec reads each as what it says
        packed = 1 | tf << TF_BITS | fields << _FIELDS_SHIFT
    else:
        packed = tf | fields << _FIELDS_SHIFT
    return PostingArrays(nodes, packed)


def prepare(np, values: PostingArrays, w: float, avgdl: float, table: FileArrays | None, starts, body: bool):
    """`ranking.prepare_postings` over arrays: each posting's BM25 term at idf `w`, its fields and its file; a node's
    length the file table's (`table`) unless the word is a body's. The same arithmetic in the same order."""
    nodes, packed = values.nodes, values.packed
    if len(nodes) > 1 and bool((nodes[1:] < nodes[:-1]).any()):
        raise ValueError("postings out of order")
    tf, fields = packed & _TF_MASK, packed >> _FIELDS_SHIFT
    k = np.searchsorted(starts, nodes, side="right") - 1
    owners = starts[k] if len(starts) else nodes  # k = -1 reads the last, as the Python walk's list does
    if table is not None and not body:
        at = nodes - owners
        if bool(((k < 0) | (at >= table.spans[k])).any()):
            raise ValueError("a posting names a node the file table has no length for")
        slots = table.base[k] + at
        dl = table.small[slots].astype(np.int64)
        wide = np.flatnonzero(dl == _BIG)  # `storage.Lengths`: kept apart
        if len(wide):
            dl[wide] = [table.big[slot] for slot in slots[wide].tolist()]
    else:
        dl = packed >> TF_BITS & MAX_LENGTH
    k1, b = BM25_K1, BM25_B
    saturated, kept = k1 + 1.0, 1.0 - b
    norm = k1 * (kept + b * dl / avgdl) if avgdl > 0 else k1
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(tf <= 0, 0.0, w * tf * saturated / (tf + norm))
    return nodes, terms, fields, owners


def file_columns(np, files, memo: dict | None):  # -> (FileArrays | None, the files' first ids as an array)
    """What `prepare` reads of the files (`ranking.Files`): a file table's columns (None for a list of first ids, or
    a table of no file, whose nodes' lengths are their postings'), kept in `memo` for the next question."""
    held = memo.get("file_columns") if memo is not None else None
    if held is not None and held[0] is files:
        return held[1:]
    starts = np.asarray(files.starts if isinstance(files, FileTable) else list(files), dtype=np.int64)
    table = FileArrays(np, files) if isinstance(files, FileTable) and len(starts) else None
    if memo is not None:
        memo["file_columns"] = (files, table, starts)
    return table, starts


class FileArrays:
    """A file table's columns as arrays, for `prepare`: the spans, each file's first slot, the lengths' bytes."""

    __slots__ = ("spans", "base", "small", "big")

    def __init__(self, np, table) -> None:
        self.spans = np.asarray(table.spans, dtype=np.int64)
        self.base = np.asarray(table.base, dtype=np.int64)
        self.small = np.frombuffer(table.lengths.small, dtype=np.uint8)
        self.big = table.lengths.big


def score_and_rank(np, prepared: list[tuple[str, Prepared]], alternates: Mapping[str, str], decays: Sequence[float],
                   ) -> tuple[FileNodes, list[tuple[float, int]]]:
    """(each file's scored nodes, files by score) as `_score_nodes` then `_rank_by_file` give them: every file's
    nodes best first (sorted when a question reads them), files best first, ties by id."""
    nodes, scores, files = _node_scores(np, prepared, alternates)
    # The nodes ascend, and so do their files (a file's nodes are numbered from its own id): a file's are a run. A
    # file's score needs the best few of its other nodes' scores, not its nodes sorted (the kernel's "struct" holds
    # 700,000 nodes: sorting them all by file and score was a tenth of a second).
    if len(files) > 1 and bool((files[1:] < files[:-1]).any()):  # a node before every file: the last file's
        order = np.argsort(files, kind="stable")
        nodes, scores, files = nodes[order], scores[order], files[order]
    starts = _run_starts(np, files)
    run = np.cumsum(starts) - 1  # each node's file, as the index of its run
    firsts = np.flatnonzero(starts)
    count = len(firsts)
    own_node = nodes == files
    own = np.zeros(count)
    own[run[own_node]] = scores[own_node]
    # A file's score: its own node's, plus its best other nodes', each `decays[i]` of its own (in that order); the
    # i-th best is the most of what is left once the best before it are taken out (one node each: of equal scores,
    # which one is taken makes no difference to the sum).
    left = np.where(own_node, -np.inf, scores)
    decayed = np.zeros(count)
    for i, decay in enumerate(decays):
        most = np.maximum.reduceat(left, firsts) if count else np.zeros(0)
        best = np.where(most == -np.inf, 0.0, most)
        decayed = decayed + best * decay if i else best * decay
        if i + 1 < len(decays):
            at = np.flatnonzero((left == most[run]) & (left != -np.inf))
            left[at[_run_starts(np, run[at])]] = -np.inf  # the first of each file's best
    sizes = np.diff(np.append(firsts, len(files)))
    file_scores = np.where(sizes == 1, scores[firsts], own + decayed)
    file_ids = files[firsts]
    ranked = np.lexsort((file_ids, -file_scores))
    ranked_pairs = list(zip(file_scores[ranked].tolist(), file_ids[ranked].tolist()))
    return FileNodes(np, file_ids.tolist(), firsts.tolist(), len(files), scores, nodes), ranked_pairs


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
    sums = np.zeros(count)
    sums += values[firsts]  # each run's first (as `+=` adds it to 0.0)
    later = np.ones(len(run), dtype=bool)
    later[firsts] = False
    at = np.flatnonzero(later)  # most nodes hold one posting: the ranks after the first walk only the others
    run = run[at]
    rank = at - firsts[run]
    k = 1
    while len(rank):
        these = rank == k
        sums[run[these]] += values[at[these]]
        left = ~these
        at, run, rank = at[left], run[left], rank[left]
        k += 1
    return sums


def _run_starts(np, values):
    """Where each run of equal neighbours starts (the first is always one)."""
    starts = np.empty(len(values), dtype=bool)
    if len(values):
        starts[0] = True
        np.not_equal(values[1:], values[:-1], out=starts[1:])
    return starts


class FileNodes(Mapping):
    """file id -> its scored nodes [(score, node id)], best first (then the lower id): each file's sorted from the
    arrays when asked (a question reads a few files' of tens of thousands)."""

    def __init__(self, np, file_ids: list[int], firsts: list[int], end: int, scores: numpy.ndarray,
                 nodes: numpy.ndarray) -> None:
        self._np = np
        self._at = {fid: (first, after) for fid, first, after in zip(file_ids, firsts, [*firsts[1:], end])}
        self._scores, self._nodes = scores, nodes  # by node id
        self._made: dict[int, list[tuple[float, int]]] = {}

    def __getitem__(self, file_id: int) -> list[tuple[float, int]]:
        made = self._made.get(file_id)
        if made is None:
            first, after = self._at[file_id]
            scores, nodes = self._scores[first:after], self._nodes[first:after]
            order = self._np.lexsort((nodes, -scores))
            made = self._made[file_id] = list(zip(scores[order].tolist(), nodes[order].tolist()))
        return made

    def __iter__(self) -> Iterator[int]:
        return iter(self._at)

    def __len__(self) -> int:
        return len(self._at)
