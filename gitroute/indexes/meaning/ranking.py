"""Ranking files for a question in plain words: BM25 over the postings of its words (and their alternatives),
each file its best nodes, and the no_match rule over what the best file covers (docs/decisions/0010)."""
from __future__ import annotations

import math
import sys
from bisect import bisect_right
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from operator import itemgetter

from gitroute.indexes.meaning.arrays import PostingArrays, file_columns, numpy_for, prepare, score_and_rank
from gitroute.indexes.meaning.postings import BODY_BIT, BODY_PREFIX, FIELD_NAMES, FIELDS
from gitroute.indexes.meaning.storage import FileTable
from gitroute.rank import BM25_B, BM25_K1, bm25_idf

EXPANDED = 0.3  # measured 0.3, 0.5, 0.8: docs/decisions/0011
NODE_TOP = 3  # a file's score sums its best few nodes, each half the one before
NODE_DECAY = 0.5
SECONDARY = 0.5  # tests, examples, docs, built output: unless the question asks for them
# no_match when a share of the question's words occur nowhere in the repository (first) and the best file
# covers less than a share of the question's idf weight (second): the more words are unknown, the more the
# rest must hold together. Calibrated on the benches' meaning and negative questions: docs/decisions/0010; the
# second floor 0.26 -> 0.24 on the 1,398 plain-words and off-topic questions of every bench file (docs/decisions/0050:
# 17 more right answers kept, 4 more off-topic ones of 492 answered; 0.22 kept 29 and answered 16).
NO_MATCH_FLOORS = ((0.5, 0.5), (0.0, 0.24))
# A long sentence describes what it wants in more words than the code spells (a paraphrase's verbs and adjectives),
# and those words, unknown here, take the weight of the rarest: past FLOOR_WORDS words, both floors above scale by
# (FLOOR_WORDS / words) squared. Measured on the 790 meaning and off-topic sentences of every bench file then
# (`bench/gate_evidence.py`, docs/decisions/0054): 330 -> 374 right answers kept in the first three, 177 -> 165
# off-topic ones refused; any exponent from 2 to 4 and any FLOOR_WORDS from 8 to 11 gains 28 to 42 of them.
FLOOR_WORDS = 10
# A question written as a sentence (`is_sentence`) is judged instead by the odds against an answer, a logistic rule
# over what the ranking found (`gate_odds`), refused at GATE_ODDS or more. Fitted on the sentences among the
# plain-words and off-topic questions of every bench file (`python bench/gate_evidence.py --fit`, docs/decisions/0058)
# and judged by ten-fold cross-validation by corpus (each corpus by weights fitted without it), against the floors:
# the sentence files' 891 right answers in the first three, 772 -> 836 kept, and 494 off-topic sentences, 276 -> 280
# refused; the older files' questions 352 -> 334 of 392 kept, 311 -> 339 of 346 refused. A few words typed to `query`
# keep the floors: weights fitted on them too refused 142 more of their right answers. Weights per unit of feature:
GATE_WEIGHTS = (
    ("missing", 0.43),  # the share of the question's words no node holds ...
    ("missing_weight", 3.24),  # ... and their share of its idf weight: an unknown rare word counts, a verb less
    ("coverage", -2.20),  # the share of the question's weight the best file covers
    ("log_words", 0.36),  # ln(its words)
    ("log_length", -3.37),  # ln(all it writes, stop words too): a long sentence paraphrases in words the code lacks
    ("absent_term", 2.50),  # 1 when it names a term (`CSRF`, `TomlParser`) holding a word no node holds
    ("runner_up", 0.72),  # the second file's score over the best's: no file stands out
)
GATE_BIAS = 7.60
GATE_ODDS = 0.55
# What the words are looked up in: code (names, comments, strings) and what documents say where they name it; a word
# only a document's other sentences hold (pino's "nanosecond", in docs/api.md) is not, and a note must not say the
# repository lacks it.
WHERE_WORDS_ARE = "in the code or in the docs' sentences about it"
MIN_IDF = 1.0  # a best file that matches only words this common (idf below) routes nothing
COMMON_ONLY = "the best file matches only words that are common in this repository"
# A word the best file holds only in the comments inside its nodes covers this share of its weight in the
# coverage above (it stays unknown when no field of any node holds it). Measured: docs/decisions/0010, session 17.
BODY_EVIDENCE = 0.5

# A node's body: the words of the comments inside it, a field of its own (postings under BODY_PREFIX + word,
# with their own lengths and idf) that adds BODY_WEIGHT of its BM25 to the node's score and is partial evidence
# for the no_match rule (BODY_EVIDENCE). Measured against identifiers too, whole files and other weights:
# docs/decisions/0011.
BODY_WEIGHT = 0.3

Postings = list[tuple[int, int]]  # a token's (node id, packed posting) pairs, ascending by node
Files = Sequence[int] | FileTable  # the files' first node ids: the file table, or (made in memory) a list


class Evidence:
    """What a ranking found, for the no_match rule and the notes: per word its idf and whether anything holds it."""

    __slots__ = ("weights", "missing", "coverage", "best_idf", "_node_coverage", "spelled", "alternates", "shares",
                 "absent_terms", "runner_up", "length", "sentence")

    def __init__(self, weights: dict[str, float], missing: list[str], coverage: float, best_idf: float) -> None:
        self.weights = weights  # question word -> idf (words no node holds get the idf of a one-node word)
        self.missing = missing  # question words no node holds
        self.coverage = coverage  # share of the question's idf weight that the best file's words cover
        self.best_idf = best_idf  # the highest idf among the best file's matched words
        # the largest share of the question's idf weight that one node holds: a float, or what works it out
        self._node_coverage: float | Callable[[], float] = 0.0
        self.spelled: dict[str, str] = {}  # stem -> the word as the question wrote it, for notes
        self.alternates: dict[str, str] = {}  # an expansion's stem -> the question word it stands for
        self.shares: Mapping[str, float] = {}  # an expansion's share of its word's weight, when not all of it
        self.absent_terms: Sequence[str] = ()  # terms written as names (`CSRF`) holding a word no node holds
        self.runner_up = 0.0  # the second file's score over the best file's (0 when one file or none scores)
        self.length = 0  # the words the question writes, stop words too
        self.sentence = False  # whether the question is written as a sentence (`is_sentence`)

    @property
    def node_coverage(self) -> float:
        """Worked out when first read (the benches' tables read it, no answer does): it walks every posting of
        every question word again, which a cold question on a kernel would pay for nothing."""
        if callable(self._node_coverage):
            self._node_coverage = self._node_coverage()
        return self._node_coverage

    def cover(self, scored: Sequence[tuple[float, int]], matched: dict[int, dict[str, int]]) -> None:
        """Coverage and best idf of one file, from its scored nodes: an alternative covers its question word (a
        neighbour its share), a word its nodes hold only in comments covers BODY_EVIDENCE of its weight (and is
        never the rarest)."""
        alternates, weights, shares = self.alternates, self.weights, self.shares
        tokens = {t for _, node in scored for t in matched[node]}
        covered = {alternates.get(t, t) for t in tokens
                   if not t.startswith(BODY_PREFIX) and t not in shares} & weights.keys()
        commented = {t[len(BODY_PREFIX):] for t in tokens if t.startswith(BODY_PREFIX)} & (weights.keys() - covered)
        partly: dict[str, float] = {}
        for t in tokens & shares.keys():
            word = alternates[t]
            if word not in covered and word not in commented:
                partly[word] = max(partly.get(word, 0.0), shares[t])
        total = sum(weights.values()) or 1.0
        self.coverage = (sum(weights[t] for t in covered) + BODY_EVIDENCE * sum(weights[t] for t in commented)
                         + sum(weights[t] * share for t, share in partly.items())) / total
        self.best_idf = max((weights[t] for t in covered), default=0.0)

    def weigh_nothing(self, words: set[str], scored: Sequence[tuple[float, int]],
                      matched: dict[int, dict[str, int]]) -> None:
        """Words no node holds that the best file need not hold either (`vocabulary.generic_absent`): no missing
        word, no weight in its coverage (`scored`: its nodes, as `cover` takes them)."""
        self.weights.update(dict.fromkeys(words, 0.0))
        self.missing = [t for t in self.missing if t not in words]
        self.cover(scored, matched)

    def asked(self, text: str, ranked: Sequence[tuple[float, int]]) -> None:
        """What the fitted gate reads of the question and the ranking besides the words: its length, whether it is a
        sentence, and the second file's score over the best's (`ranked`: (score, file id), best first)."""
        self.length, self.sentence = len(text.split()), is_sentence(text)
        if len(ranked) > 1 and ranked[0][0] > 0:
            self.runner_up = ranked[1][0] / ranked[0][0]

    def named(self, stems: Sequence[str]) -> str:
        return ", ".join(self.spelled.get(t, t) for t in stems)


# One token's postings made ready to sum: node ids, BM25 terms (at one weight), field bits, file ids.
Prepared = tuple[list[int], list[float], list[int], list[int]]


def prepare_postings(pairs: Sequence[tuple[int, int]], w: float, avgdl: float, files: Files,
                     body: bool = False) -> Prepared:
    """A token's postings (node id, packed posting) decoded, each with its `bm25_term` at idf `w`. A node's
    length is the file table's (`storage.FileTable`), when `files` is one and the word is not a body's; else the
    posting's own (a body word's posting keeps its body's length; postings made in memory carry it).

    The loop runs once a posting of every word a question asks (a kernel's common words: hundreds of thousands),
    so `decode_posting`, `bm25_term` and `FileTable.slot` are written out in it, the same arithmetic in the same
    order (the same floats), and a node's file is looked up only when the node has passed its file's last one
    (postings ascend: most of a file's postings follow one another)."""
    nodes: list[int] = []
    terms: list[float] = []
    bits: list[int] = []
    owners: list[int] = []
    held = files if isinstance(files, FileTable) else None
    table = held is not None and not body
    starts: Sequence[int] = files.starts if isinstance(files, FileTable) else files  # a list's bisection is C's
    lengths: Sequence[int] = held.lengths.small if held is not None and table else b""
    big: Mapping[int, int] = held.lengths.big if held is not None and table else {}
    spans: Sequence[int] = held.spans if held is not None and table else ()
    base: Sequence[int] = held.base if held is not None and table else ()
    # `bm25_term(tf, dl, avgdl, w)`: w * tf * (k1 + 1) / (tf + norm), norm = k1 * (1 - b + b * dl / avgdl)
    k1, b = BM25_K1, BM25_B
    saturated, kept = k1 + 1.0, 1.0 - b
    count = len(starts)
    k, start, after = -1, 0, -1  # the current file's index, its first node id, the next file's (-1: none yet)
    previous = 0
    for node, packed in pairs:
        if node < previous:  # node ids ascend (`_Matched` bisects them): a bundle that says otherwise is damaged
            raise ValueError("postings out of order")
        previous = node
        tf, dl, fields = packed & 1023, packed >> 10 & 16383, packed >> 24  # `postings.decode_posting`
        if count:
            if after < 0 or node >= after:  # past the current file: `bisect_right(files, node) - 1`
                k = bisect_right(starts, node, k + 1 if k >= 0 else 0) - 1
                start = starts[k]
                after = starts[k + 1] if k + 1 < count else _NO_NEXT
            owners.append(start)
            if table:  # `FileTable.slot`, inline
                at = node - start
                if k < 0 or at >= spans[k]:
                    raise ValueError("a posting names a node the file table has no length for")
                dl = lengths[base[k] + at]
                if dl == 255:  # `storage.Lengths`: a length of 255 or more is kept apart
                    dl = big[base[k] + at]
        else:
            owners.append(node)
        nodes.append(node)
        if tf <= 0:
            terms.append(0.0)
        else:
            norm = k1 * (kept + b * dl / avgdl) if avgdl > 0 else k1
            terms.append(w * tf * saturated / (tf + norm))
        bits.append(fields)
    return nodes, terms, bits, owners


def prepare_body(pairs: Sequence[tuple[int, int]], section: dict, files: Files) -> Prepared:
    """A body word's postings made ready: BM25 over bodies alone (their own lengths and idf), at BODY_WEIGHT."""
    n = int(section.get("body_documents") or 1)
    avgdl = float(section.get("body_avgdl") or 1.0)
    return prepare_postings(pairs, bm25_idf(len(pairs), n) * BODY_WEIGHT, avgdl, files, body=True)


class _Matched(dict):
    """node -> {token: fields} for the question's words, filled on first use from the prepared postings:
    a question reads it for a few nodes (the leading files'), and walks tens of thousands."""

    def __init__(self, prepared: list[tuple[str, Prepared]]) -> None:
        super().__init__()
        self._prepared = prepared

    def __missing__(self, node: int) -> dict[str, int]:
        held: dict[str, int] = {}
        for token, (nodes, _terms, bits, _owners) in self._prepared:
            at = bisect_right(nodes, node) - 1
            if at >= 0 and nodes[at] == node:
                held[token] = int(bits[at])  # an array's item is numpy's int
        self[node] = held
        return held


def _holds(nodes: list[int], node: int) -> bool:
    """Whether ascending `nodes` holds `node`: a word's postings asked about one node, not all words' (`_Matched`)."""
    at = bisect_right(nodes, node) - 1
    return at >= 0 and nodes[at] == node


_NO_NEXT = 1 << 64  # past every node id: the last file has no next file

_DECAYS = tuple(NODE_DECAY ** i for i in range(NODE_TOP))  # a file's i-th best node counts NODE_DECAY ** i
_FIRST, _SECOND = itemgetter(0), itemgetter(1)


def _best_first(pairs: list[tuple[float, int]]) -> None:
    """Sort (score, id) pairs in place, the best first, then the lower id: two stable sorts on C keys, not a
    Python key per pair (a question sorts a thousand files and their nodes)."""
    pairs.sort(key=_SECOND)
    pairs.sort(key=_FIRST, reverse=True)


def rank_files(
    tokens: Sequence[str], postings: dict[str, Postings], section: dict, files: Files = (),
    alternates: dict[str, str] | None = None, memo: dict | None = None, shares: Mapping[str, float] | None = None,
    keep: int | None = None,
) -> tuple[list[tuple[float, int]], Mapping[int, list[tuple[float, int]]], dict[int, dict[str, int]], Evidence]:
    """Files by score: [(score, file id)], each file's scored nodes [(score, node id)], matched fields per node.

    `files` holds the node ids of files, ascending (a node belongs to the last file at or before it).
    `alternates` maps an expansion's stem to the question word it stands for (`alternatives`): in a node,
    a question word scores its best form, an alternative at EXPANDED of its own BM25. `memo` (a pinned
    bundle's) keeps each token's prepared postings for the next question. `shares` gives the alternatives
    that are less than evidence of their word (neighbours): one whose share is 0 only ranks. `keep`: a file's
    scored nodes are best first for the first `keep` files only (None: every file), all a caller reads.

    A file's score is its own text's BM25 plus its best nodes', each counting half the one before.
    """
    n = int(section.get("documents") or 1)
    alternates = alternates or {}
    shares = shares or {}
    evident = {alt: word for alt, word in alternates.items() if shares.get(alt, 1.0) and alt in postings}
    idf = {t: bm25_idf(len(postings[t]) if t in postings else 0, n) for t in (*tokens, *alternates)}
    bodies = {BODY_PREFIX + t: t for t in tokens if BODY_PREFIX + t in postings}
    # A question word the repository lacks but an alternative holds weighs as that alternative.
    stand_in: dict[str, float] = {}
    for alt, word in evident.items():
        if word not in postings:
            stand_in[word] = max(stand_in.get(word, 0.0), idf[alt])
    weights = {t: stand_in.get(t, idf[t]) for t in tokens}
    # Postings read as arrays (`meaning.read_postings`, when they are many) are walked over arrays; else the
    # lists, over arrays too when they are many.
    np = (sys.modules.get("numpy") if any(isinstance(values, PostingArrays) for values in postings.values())
          else numpy_for(sum(map(len, postings.values()))))
    prepared = _prepared(postings, alternates, bodies, idf, section, files, memo, np)
    per_file: Mapping[int, list[tuple[float, int]]]
    if np is not None:  # many postings: the same sums over arrays
        per_file, ranked = score_and_rank(np, prepared, alternates, _DECAYS)
    else:
        node_score, node_file = _score_nodes(prepared, alternates)
        per_file, ranked = _rank_by_file(node_score, node_file, keep)
    matched = _Matched(prepared)
    found_words = set(postings) | set(evident.values())
    missing = [t for t in tokens if t not in found_words]  # a word held in a body only counts as missing
    evidence = Evidence(weights, missing, 0.0, 0.0)
    evidence.alternates = alternates
    evidence.shares = shares
    if ranked:
        evidence.cover(per_file[ranked[0][1]], matched)
    evidence._node_coverage = lambda: _node_coverage(prepared, tokens, alternates, bodies, weights)
    return ranked, per_file, matched, evidence


def _node_coverage(prepared: list[tuple[str, Prepared]], tokens: Sequence[str], alternates: Mapping[str, str],
                   bodies: Mapping[str, str], weights: Mapping[str, float]) -> float:
    """The largest share of the question's idf weight that one node holds (`Evidence.node_coverage`)."""
    total = sum(weights.values()) or 1.0
    bit_of = {word: 1 << i for i, word in enumerate(tokens)}
    return max((sum(weights[w] for w in tokens if bit_of[w] & held) / total
                for held in set(_held_words(prepared, tokens, alternates, bodies).values())), default=0.0)


def _prepared(postings: dict[str, Postings], alternates: Mapping[str, str], bodies: Mapping[str, str],
              idf: Mapping[str, float], section: dict, files: Files, memo: dict | None, np=None,
              ) -> list[tuple[str, Prepared]]:
    """Each token's postings made ready (`prepare_postings`; an alternative at EXPANDED of its idf, a body word
    over bodies alone), kept in `memo` for the next question; postings read as arrays, over arrays."""
    avgdl = float(section.get("avgdl") or 1.0)
    # Kept apart from the lists: a later question of few postings on the same pinned bundle walks lists in Python.
    ready: dict[tuple, Prepared] = memo.setdefault("prepared", {}) if memo is not None else {}
    prepared: list[tuple[str, Prepared]] = []
    columns = None
    for token, values in postings.items():
        key = (token, token in alternates)
        found = ready.get(key)
        if found is None and np is not None:
            found = ready.get((*key, "arrays"))
        if found is None and isinstance(values, PostingArrays):
            if columns is None:
                columns = file_columns(np, files, memo)
            body = token in bodies
            n = int(section.get("body_documents" if body else "documents") or 1)
            w = bm25_idf(len(values), n) * BODY_WEIGHT if body else idf[token] * EXPANDED if key[1] else idf[token]
            found = ready[(*key, "arrays")] = prepare(
                np, values, w, float(section.get("body_avgdl") or 1.0) if body else avgdl, *columns, body)
        elif found is None:
            if token in bodies:
                found = ready[key] = prepare_body(values, section, files)
            else:
                w = idf[token] * EXPANDED if key[1] else idf[token]
                found = ready[key] = prepare_postings(values, w, avgdl, files)
        prepared.append((token, found))
    return prepared


def _score_nodes(prepared: list[tuple[str, Prepared]], alternates: Mapping[str, str],
                 ) -> tuple[dict[int, float], dict[int, int]]:
    """Each node's score (a question word at its best form: itself, else its best alternative) and its file.

    A word's postings are added to the scores as a dict of their own (`_add_terms`): a kernel's common words hold
    tens of thousands of nodes each, most of them no other word's."""
    node_score: dict[int, float] = defaultdict(float)
    node_file: dict[int, int] = {}
    best_alt: dict[tuple[int, str], float] = {}
    for token, (nodes, terms, _bits, owners) in prepared:
        stands_for = alternates.get(token)
        if stands_for is None:
            _add_terms(node_score, nodes, terms)
        else:  # the best alternative of a word, only where the word itself is absent (fixed below)
            for node, term in zip(nodes, terms):
                at = (node, stands_for)
                before = best_alt.get(at, 0.0)
                if term > before:
                    node_score[node] += term - before
                    best_alt[at] = term
        node_file.update(zip(nodes, owners))
    nodes_of = {token: nodes for token, (nodes, _terms, _bits, _owners) in prepared}
    for (node, word), term in best_alt.items():
        of_word = nodes_of.get(word)
        if of_word and _holds(of_word, node):  # the word itself is there: its alternatives add nothing
            node_score[node] -= term
    return node_score, node_file


def _held_words(prepared: list[tuple[str, Prepared]], tokens: Sequence[str], alternates: Mapping[str, str],
                bodies: Mapping[str, str]) -> dict[int, int]:
    """The question words each node holds (bit i: the i-th word; alternatives as their word, body words not at
    all: a word held in a body only is no evidence of what the node is about)."""
    held_by: dict[int, int] = defaultdict(int)
    bit_of = {word: 1 << i for i, word in enumerate(tokens)}
    for token, (nodes, _terms, _bits, _owners) in prepared:
        bit = 0 if token in bodies else bit_of.get(alternates.get(token) or token, 0)
        if bit:
            _add_bit(held_by, nodes, bit)
    return held_by


def _add_terms(node_score: dict[int, float], nodes: list[int], terms: list[float]) -> None:
    """`node_score[node] += term` for each posting: the postings as a dict (made in C), the sums made in Python
    only for the nodes already scored (`score + term`, in the loop's order: the same floats; a new node's `0.0 +
    term` is `term`, no term being -0.0); a word that names a node twice is added a posting at a time."""
    mine = dict(zip(nodes, terms))
    if len(mine) != len(nodes):
        for node, term in zip(nodes, terms):
            node_score[node] += term
        return
    for node in mine.keys() & node_score.keys():
        mine[node] = node_score[node] + mine[node]
    node_score.update(mine)


def _add_bit(held_by: dict[int, int], nodes: list[int], bit: int) -> None:
    """`held_by[node] |= bit` for each node: as `_add_terms`, in Python only for the nodes already holding a word."""
    mine = dict.fromkeys(nodes, bit)
    for node in mine.keys() & held_by.keys():
        mine[node] = held_by[node] | bit
    held_by.update(mine)


def _rank_by_file(node_score: Mapping[int, float], node_file: Mapping[int, int], keep: int | None = None,
                  ) -> tuple[dict[int, list[tuple[float, int]]], list[tuple[float, int]]]:
    """Each file's scored nodes, and files by score: its own text's plus its best nodes', each half the last.

    A file's score needs its nodes' scores in order, not its nodes: a sort of floats. Its nodes are put best first
    (`_best_first`) only for the first `keep` files (None: all), the ones a question reads them of."""
    per_file: dict[int, list[tuple[float, int]]] = defaultdict(list)
    for node, score in node_score.items():
        per_file[node_file[node]].append((score, node))
    ranked: list[tuple[float, int]] = []
    for file_id, scored in per_file.items():
        if len(scored) == 1:  # most files: one node, whose score is the file's (own or best, as below)
            ranked.append((scored[0][0], file_id))
            continue
        own, best = 0.0, []
        for s, node in scored:  # node ids are distinct: one node at most is the file's own
            if node == file_id:
                own = s
            else:
                best.append(s)
        best.sort(reverse=True)  # equal scores in any order: the same floats in the same places
        score = own + sum([s * decay for s, decay in zip(best, _DECAYS)])
        ranked.append((score, file_id))
    _best_first(ranked)
    for _, file_id in ranked[:keep]:
        if len(per_file[file_id]) > 1:
            _best_first(per_file[file_id])
    return per_file, ranked


def is_sentence(text: str) -> bool:
    """Whether a question is written as a sentence (eight words or more, a question mark or a question's or request's
    first word), which the fitted gate judges, rather than a few words typed to `query`."""
    words = text.split()
    return len(words) >= 8 and (text.rstrip().endswith("?") or words[0].lower().strip(",:") in SENTENCE_LEADS)


SENTENCE_LEADS = frozenset((
    "where", "which", "what", "how", "why", "when", "who", "is", "are", "does", "do", "can", "could", "would",
    "should", "i", "i'm", "we", "show", "find", "point", "give", "tell", "list", "help", "please", "looking", "in",
    "if", "for"))


def gate_features(evidence: Evidence, words: int) -> dict[str, float]:
    """The fitted gate's features (GATE_WEIGHTS) for a question of `words` words."""
    weights = evidence.weights
    total = sum(weights.values()) or 1.0
    return {"missing": len(evidence.missing) / words,
            "missing_weight": sum(weights.get(t, 0.0) for t in evidence.missing) / total,
            "coverage": evidence.coverage, "log_words": math.log(words),
            "log_length": math.log(max(evidence.length, 1)),
            "absent_term": 1.0 if evidence.absent_terms else 0.0, "runner_up": evidence.runner_up}


def gate_odds(evidence: Evidence, words: int) -> float:
    """The probability the fitted gate gives that the best file is no answer (refused at GATE_ODDS or more)."""
    features = gate_features(evidence, words)
    logit = GATE_BIAS + sum(weight * features[name] for name, weight in GATE_WEIGHTS)
    return 1.0 / (1.0 + math.exp(-logit))


def no_match_reason(evidence: Evidence, tokens: Sequence[str]) -> str | None:
    """Why the best file is no answer, or None when it is one (docs/decisions/0010 and 0058)."""
    if not tokens:
        return "the question has no word that can name something (all stop words)"
    if len(evidence.missing) == len(tokens):
        return f"no word of the question occurs {WHERE_WORDS_ARE}: " + evidence.named(evidence.missing)
    if evidence.sentence:
        return _sentence_reason(evidence, tokens)
    if evidence.absent_terms:
        return (f"the question names {', '.join(repr(t) for t in evidence.absent_terms)}, which nothing "
                f"{WHERE_WORDS_ARE} mentions")
    if evidence.best_idf < MIN_IDF:
        return COMMON_ONLY
    missing_share = len(evidence.missing) / len(tokens)
    scale = min(1.0, FLOOR_WORDS / len(tokens)) ** 2
    for share, floor in NO_MATCH_FLOORS:
        floor *= scale
        if missing_share >= share and evidence.coverage < floor:
            covers = f"the best file covers {evidence.coverage:.0%} of the question's weight (below {floor:.0%})"
            if not evidence.missing:
                return covers
            return (f"{len(evidence.missing)} of the question's {len(tokens)} words occur nowhere {WHERE_WORDS_ARE}"
                    f" ({evidence.named(evidence.missing)}), and {covers}")
    return None


def _sentence_reason(evidence: Evidence, tokens: Sequence[str]) -> str | None:
    """The fitted gate's verdict on a sentence, and what weighed in it."""
    if evidence.best_idf < MIN_IDF:
        return COMMON_ONLY
    odds = gate_odds(evidence, len(tokens))
    if odds < GATE_ODDS:
        return None
    said = []
    if evidence.absent_terms:
        said.append(f"it names {', '.join(repr(t) for t in evidence.absent_terms)}, which nothing {WHERE_WORDS_ARE}"
                    " mentions")
    if evidence.missing:
        said.append(f"{len(evidence.missing)} of its {len(tokens)} words occur nowhere {WHERE_WORDS_ARE}"
                    f" ({evidence.named(evidence.missing)})")
    said.append(f"the best file covers {evidence.coverage:.0%} of its weight")
    if evidence.runner_up:
        said.append(f"the next file scores {evidence.runner_up:.0%} of the best's")
    return f"the evidence weighs against an answer ({odds:.2f}, refused from {GATE_ODDS:.2f}): " + "; ".join(said)


def explain_signals(file_id: int, scored: list[tuple[float, int]], matched: dict[int, dict[str, int]],
             weights: dict[str, float]) -> tuple[tuple[str, float], ...]:
    signals: list[tuple[str, float]] = []
    own = next((s for s, node in scored if node == file_id), 0.0)
    if own:
        signals.append(("file_text", round(own, 3)))
    best = [s for s, node in scored if node != file_id][:NODE_TOP]
    for i, s in enumerate(best):
        signals.append((f"node_{i + 1}", round(s * NODE_DECAY ** i, 3)))
    return tuple(signals)


def matched_words(scored: list[tuple[float, int]], matched: dict[int, dict[str, int]]) -> dict[str, list[str]]:
    """word -> the fields that hold it, over the file's own text and its best nodes."""
    found: dict[str, int] = defaultdict(int)
    for _, node in scored[: NODE_TOP + 1]:
        for token, bits in matched[node].items():
            found[token.removeprefix(BODY_PREFIX)] |= bits
    return {t: [name for name in (*FIELD_NAMES, "body") if bits & (FIELDS[name][0] if name in FIELDS else BODY_BIT)]
            for t, bits in sorted(found.items())}


