"""The symbol index: node records chunked by id and token postings sharded by hash, and the query over them.

Postings hold three lists per token (nodes whose name, doc or context has the token: a file's
folders, a symbol's enclosing symbols); a query
reads only the shards of its own tokens, bounds every candidate's score from postings alone
(`rank.score_bounder`), then reads records in the order of those bounds and ranks them with
`rank.score_node`, until no unread candidate can enter the top rows. Postings of common words are
looked up rather than walked, until the nodes only they hold could still rank. A cold sentence that its first
batch does not settle bounds each candidate's path by its file's postings (`FilePlaces`).
"""
from __future__ import annotations

import heapq
import sys
from bisect import bisect_left
from collections import defaultdict, namedtuple
from collections.abc import Callable, Iterable, Sequence
from functools import partial

from gitroute.bundle.layout import INDEX_META
from gitroute.bundle.tables import FieldLists, PostingsTable
from gitroute.indexes.symbols.bounds import (
    ENTRY_TOKEN,
    FACT_BITS,
    SECONDARY,
    WORD_COUNT,
    Bounds,
    bound_postings,
    left_out_bound,
    posting_bits,
    split_by_facts,
)
from gitroute.indexes.symbols.places import FilePlaces
from gitroute.model import Answer, Row
from gitroute.rank import (
    CONTENT_NAME,
    KIND_PRIOR,
    NodeText,
    Question,
    base_name,
    built_copies,
    idf,
    is_secondary,
    node_text,
    parse_question,
    path_words,
    text_parts,
    text_scorer,
)
from gitroute.text import STOP_WORDS, LazyPattern, name_parts, split_identifier, stem, stems, tokenize

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing on the query path
if TYPE_CHECKING:
    from typing import Any

    from gitroute.bundle.store import IndexView
    from gitroute.indexes import BuildInputs, IndexBuild

NAME = "symbols"
NEEDS: tuple[str, ...] = ()
EDGES = False  # builds from the graph's nodes only: may start while edges are resolved
QUESTION_TYPES: dict[str, dict] = {"symbol": {}}  # bench question type -> answer options

COMMON_POSTINGS = 2000  # a word with more postings is deferred: its nodes are looked up, not walked
MAX_TEXTS = 1 << 17  # node texts kept per pinned bundle (django: 51,239 nodes)
CANDIDATES = 40  # records read in a query's first batch
MAX_BATCH = 512  # records read at once, afterwards
# Nodes a cold query scores on postings' bounds alone (its first batch) before it reads the files' node ids to bound
# each candidate's path words (`FilePlaces`): many names need no more; a long sentence's bounds, path words unknown,
# let thousands in. A record read costs about what the kernel's file ids (134 KB) do to read ten.
COLD_BUDGET = CANDIDATES
# An identifier's bounds know its name, and its doc's words: what they leave loose is the question words a path may
# hold (`read_memoryview` on a kernel: thousands of `*_read` bounded as if their path said `memoryview`). Past this
# many nodes scored, its candidates too are bounded by their files' path words; most names need fewer.
NAME_BUDGET = 4 * CANDIDATES
MAX_DOC = 240  # as the graph's node records keep it (bundle.layout.MAX_RECORD_DOC)
# Token -> its name, doc and context postings, about 1024 a shard: small blobs to read and rewrite.
FIELDS = 3  # a token's name, doc and context postings
ARRAYS_MIN_BYTES = 4096  # a stored value this long is decoded over arrays, when numpy is already imported
# A question's stored postings past this many bytes are decoded over arrays, numpy imported for them: on the kernel,
# a megabyte of varints a byte at a time costs about 150 ms, the import about 70 (`bnx2x_q_fill_init_rx_data`, 1.7
# MB: 276 ms -> 84 ms and the import; `get_page`, 0.28 MB, stays below).
NUMPY_BYTES = 1 << 20
POSTINGS = PostingsTable(NAME, "postings", per_shard=1024, codec=FieldLists(FIELDS))

_NO_WORDS: frozenset[str] = frozenset()
ReadBlobs = Callable[[Sequence[str]], dict[str, bytes]]


class Filters(namedtuple("Filters", "kinds langs path_glob", defaults=((), (), None))):
    """What a query admits: kinds: tuple[str, ...]; langs: tuple[str, ...]; path_glob: str | None."""

    __slots__ = ()

    def active(self) -> bool:
        return bool(self.kinds or self.langs or self.path_glob)

    def admit(self, path: str, kind: str, lang: str) -> bool:
        return (
            (not self.kinds or kind in self.kinds)
            and (not self.langs or lang in self.langs)
            and (self.path_glob is None or _glob_match(path, self.path_glob))
        )

    def describe(self) -> str:
        parts = [f"--kind {','.join(self.kinds)}"] if self.kinds else []
        parts += [f"--lang {','.join(self.langs)}"] if self.langs else []
        parts += [f"--path {self.path_glob}"] if self.path_glob else []
        return " ".join(parts)


def _glob_match(path: str, pattern: str) -> bool:
    from fnmatch import fnmatchcase  # only filtered queries pay for it

    return fnmatchcase(path, pattern)


# --- build -----------------------------------------------------------------------------------


# Texts whose word sets are memoised, at most: names, owners and folders repeat, most docs are each their own, and
# a memo of every text of the Linux kernel was a good part of this index's worker (django's fit below it).
WORDS_MEMO_MAX = 1 << 19


def _word_sets() -> Callable[[str, bool], frozenset[str]]:
    """Stemmed word sets of texts, memoised: names, owners and folders repeat across thousands of nodes."""
    memo: dict[tuple[str, bool], frozenset[str]] = {}

    def words(text: str, content_only: bool = False) -> frozenset[str]:
        found = memo.get((text, content_only))
        if found is None:
            tokens = tokenize(text)
            if content_only:
                tokens = [t for t in tokens if len(t) > 1 and t not in STOP_WORDS]
            found = frozenset(map(stem, tokens))
            if len(memo) < WORDS_MEMO_MAX:
                memo[(text, content_only)] = found
        return found

    return words


def _node_tokens(node, words: Callable[[str, bool], frozenset[str]]) -> tuple[frozenset[str], ...]:
    """A node's name, doc and context words; context is a file's folders, or a symbol's owners.

    The doc is taken as the node record keeps it, so the postings and the final score see one text.
    """
    name = words(base_name(node.name, node.kind), False)
    if node.kind == "file":
        context = words(node.path.rsplit("/", 1)[0], False) if "/" in node.path else frozenset()
    else:
        context = words(node.owner, False) - name
    doc = words(node.doc[:MAX_DOC], True) - name if node.doc else frozenset()
    return name, doc, context


def encode_posting(node_id: int, secondary: bool, name_tokens: int, stop_free: bool = False) -> int:
    """A posting is one int: the node id, whether its name has no stop word, whether its path is secondary, and its
    name's word count.

    With those facts the first, postings-only ranking already prefers short names that a question covers and
    main code over tests, so few records need reading to rank the rest; a sentence's scored name drops stop
    words, so its coverage is bounded by the count only when the name has none (`rank.score_bounder`).
    """
    return (node_id << FACT_BITS | (CONTENT_NAME if stop_free else 0) | (SECONDARY if secondary else 0)
            | min(name_tokens, WORD_COUNT))


def decode_posting(value: int) -> tuple[int, bool, int, bool]:
    return value >> FACT_BITS, bool(value & SECONDARY), value & WORD_COUNT, bool(value & CONTENT_NAME)


def build(inputs: BuildInputs) -> IndexBuild:
    """The symbol index: token postings over the graph's nodes (whose records the graph stores)."""
    from gitroute.indexes import IndexBuild

    memo = inputs.memo.table(NAME) if inputs.memo is not None else None
    blobs, section, kept = build_symbol_index(inputs.graph.nodes, memo, {f.path: f.blob for f in inputs.files},
                                              inputs.previous)
    return IndexBuild(blobs, section, kept=kept)


Postings = dict[str, tuple[list[int], list[int], list[int]]]  # token -> name, doc and context postings


def build_symbol_index(nodes: Sequence, memo=None, file_blobs: dict[str, str] | None = None, stored=None,
                       ) -> tuple[dict[str, bytes], dict, dict[str, str]]:
    """Blobs of the symbol index (path -> bytes, inside its folder), its manifest section, and the shards
    kept by id (path -> blob id).

    With a build memo (`bundle.memo.MemoTable`) and each file's blob id, a file's node tokens are taken
    from an earlier build when its path, blob and node count are the same (they come from its extract);
    with `stored` too (`bundle.writer.StoredBlobs`), the table patches the shards of the tokens whose
    postings changed (`bundle.tables.PostingsTable`)."""
    words = _word_sets()
    spelled: dict[frozenset[str], tuple[str, ...]] = {}  # a word set -> its words sorted, one tuple shared
    # Built copies of sources (`v4/core/util.cjs` of `src/v4/core/util.ts`) get no postings: a query
    # would find each name twice or three times, the copy as often first as the source.
    runs = _file_runs(nodes)
    built = built_copies(sorted({path for path, *_ in runs}))
    keyed = memo is not None and file_blobs is not None
    # path -> (its nodes' ids, which are entry points, their tokens): not the nodes, which a large build's graph
    # holds compactly (`graph.NodeTable`) and which, held here, would be made whole again (docs/decisions/0023)
    files: dict[str, tuple[range, tuple[int, ...], list]] = {}
    # What a file's postings are made of besides its tokens: its blob, first id, node count and entry points.
    records: dict[str, tuple] = {}
    for path, start, end, first, entries in runs:
        if path in built:
            continue
        blob = file_blobs.get(path, "") if file_blobs is not None else ""
        key = f"{path}\0{blob}\0{end - start}" if keyed else None
        tokens = memo.get(key) if key is not None else None
        if tokens is None:
            # Each field a sorted tuple shared by every node of the same words (names, owners and folders repeat;
            # most docs are none): a list a field was most of a kernel's symbols worker.
            tokens = [tuple([spelled.get(field) or spelled.setdefault(field, tuple(sorted(field)))
                             for field in _node_tokens(node, words)]) for node in nodes[start:end]]
        if key is not None:
            memo.put(key, tokens)
        files[path] = (range(first, first + end - start), entries, tokens)
        records[path] = (blob, first, end - start, entries)
    del words, spelled  # the memo of word sets: the tokens hold what they need of it

    def fill(path: str, postings: Postings) -> None:
        ids, entries, tokens = files[path]
        _add_postings(postings, path, ids, [i in entries for i in range(len(ids))], tokens)

    def fill_old(path: str, record: Any, postings: Postings) -> bool:
        """A file's postings as the last build made them (`record`: its blob, first id, count, entries)."""
        try:
            blob, first, count, entries = record
        except (TypeError, ValueError):
            return False
        tokens = memo.peek(f"{path}\0{blob}\0{count}") if memo is not None else None
        if tokens is None:
            return False
        _add_postings(postings, path, range(first, first + count), [i in entries for i in range(count)], tokens)
        return True

    table = POSTINGS.build(records, fill, memo=memo, stored=stored, old=fill_old)
    section = {"counts": {"nodes": len(nodes), "tokens": table.keys, "postings": table.size},
               "nodes": len(nodes), "postings_shards": table.shards}
    return table.blobs, section, table.kept


def _file_runs(nodes: Sequence) -> list[tuple[str, int, int, int, tuple[int, ...]]]:
    """(path, start, end, first id, which of them are entry points) per file, in id order, so that every postings
    list comes out sorted: a large graph's table (`graph.NodeTable`) gives them without making a node, which a
    one-file rebuild of the kernel spent most of this job on (3.8 million nodes, each file's tokens memoised)."""
    from gitroute.graph import file_spans

    table: Any = nodes
    flags = table.entries if hasattr(table, "entries") else bytes(bool(node.entry) for node in nodes)
    return [(path, start, end, first, tuple(i for i, flag in enumerate(flags[start:end]) if flag))
            for path, start, end, first in file_spans(nodes)]


def _add_postings(postings: Postings, path: str, ids: Sequence[int], entry: Sequence[bool], tokens: list) -> None:
    """One file's postings: each node's tokens, field by field, and the entry-point token."""
    secondary = is_secondary(path)
    for node_id, is_entry, fields in zip(ids, entry, tokens):
        name = fields[0]
        value = encode_posting(node_id, secondary, len(name), bool(name) and STOP_WORDS.isdisjoint(name))
        for field, field_tokens in enumerate(fields):
            for token in field_tokens:
                postings[token][field].append(value)
        if is_entry:
            postings[ENTRY_TOKEN][0].append(value)


# --- query -----------------------------------------------------------------------------------


def query_symbols(
    text: str,
    section: dict,
    read: ReadBlobs,
    *,
    limit: int,
    filters: Filters,
    explain: bool,
    corrupt: Callable[[str], Exception],
    records: Callable[[Sequence[int]], dict[int, list]],
    exhaustive: bool = False,
    memo: dict | None = None,
    common_postings: int | None = None,
    file_starts: Callable[[], Sequence[int] | None] | None = None,
    cold_budget: int | None = None,
    floor: float = 0.0,
) -> tuple[list[Row], list[str]]:
    """Rank nodes for a question; returns rows and notes (empty rows: no_match, and the notes say why).

    The rows are the true top `limit` of scoring every candidate, which `exhaustive=True` does
    (for tests); otherwise records are read in the order of their bounds, only until no unread
    candidate can outscore the rows kept. `memo` keeps what a query decodes (postings, their sets,
    node texts) for the next one on the same pinned bundle: a warm server passes the view's. `floor`: only rows
    scoring at least that (the true top `limit` of them), which reads fewer records.
    """
    question = parse_question(text)
    tokens = list(question.tokens) + ([ENTRY_TOKEN] if question.wants_entry else [])
    if not tokens:
        return [], ["the question has no word that can name something (all stop words)"]
    try:
        shards = int(section["postings_shards"])
        total = int(section["nodes"])
    except (KeyError, TypeError, ValueError) as err:
        raise corrupt(INDEX_META) from err
    memo = {} if memo is None else memo
    found_lists = read_postings(read, tokens, shards, corrupt, memo)
    lists: dict[str, list[list[int]]] = {t: found_lists.get(t) or [[], [], []] for t in tokens}
    held = _Held(lists, memo)
    weights = {t: idf(sum(map(len, lists[t])), total) for t in question.tokens}
    weak = weak_words(question, lists)
    deferred = _deferred(question, lists, weak, COMMON_POSTINGS if common_postings is None else common_postings,
                         exhaustive)
    places = memo.get("places")
    # A sentence's words are spread over names and paths, which postings bound loosely until each candidate's file
    # is known; one identifier is ranked by its name, which they bound well, unless its words are common ones.
    if cold_budget is None:
        cold_budget = COLD_BUDGET if question.identifier is None else NAME_BUDGET
    budget = cold_budget if places is None and file_starts is not None and not exhaustive else None
    bound = partial(bound_postings, question, lists, weights, members=held.members, places=places,
                    path_postings=memo.get("path_postings"), bits=memo.get("posting_bits"),
                    name_facts=held.name_facts, doc_words=memo.get("doc_words"), kinds=memo.get("kinds"),
                    fact_bits=held.fact_bits, weak=frozenset(weak))
    found_bounds = bound(deferred)
    step = 1
    if not found_bounds.nodes and not found_bounds.groups and not found_bounds.left_out:
        return [], ["nothing in the bundle shares a word with the question"]
    scorer = _Scorer(question, weights, memo, filters, limit, explain, corrupt, records, floor)
    # The threshold algorithm: score candidates in the order of their bounds until the limit-th
    # best score beats the bound of every candidate not yet scored, and of the nodes left out.
    while True:
        if not _score_candidates(found_bounds, scorer, exhaustive, budget):
            # Postings alone bound loosely what a path may hold: past the budget, each candidate is bounded again
            # with its file's path words (`FilePlaces`), and the query goes on from what is scored.
            budget = None
            starts = file_starts() if file_starts is not None else None
            if starts:
                bound = partial(bound, places=FilePlaces(starts, lists, question.tokens))
            found_bounds = bound(deferred)
            continue
        left_out = found_bounds.left_out
        if not left_out or (scorer.full() and scorer.top[0] > left_out):
            break
        # The nodes left out could still rank: bring in deferred words, and go on from what is scored.
        deferred = deferred[_brought_in(question, weights, deferred, weak, step, scorer, places is not None):]
        step *= 2
        found_bounds = bound(deferred)
    return scorer.answer()


def _deferred(question: Question, lists: dict[str, list[list[int]]], weak: list[str], common: int,
              exhaustive: bool) -> list[str]:
    """The words whose postings are looked up, not walked: common ones wait, the least common first to come in,
    until the others cannot fill the rows; a name's function words and letters (`weak_words`) wait for good,
    behind them."""
    if exhaustive:
        return list(weak)
    return sorted((t for t in question.tokens if t not in weak and sum(map(len, lists[t])) > common),
                  key=lambda t: (sum(map(len, lists[t])), t)) + weak


def _brought_in(question: Question, weights: dict[str, float], deferred: list[str], weak: list[str], step: int,
                scorer: _Scorer, warm: bool) -> int:
    """How many deferred words the next round brings in, the least common first. Each round bounds every candidate
    again, so while the rows are not full a round brings in `step` (twice as many as the last: the kernel's
    `bnx2x_q_fill_init_rx_data` brought seven common words in one a round, 0.9 s of bounds); once they are, as many
    as the nodes still left out need to bound below the rows. Never a weak word."""
    strong = len(deferred) - len(weak)
    take = 1 if scorer.full() else min(step, strong)
    while take < strong and scorer.full() and left_out_bound(
            question, weights, deferred[take:], warm, frozenset(weak)) >= scorer.top[0]:
        take += 1
    return take


# Parts of a name that say nothing alone: `for` and `a` of `cmdfiles_for_a`, `to` of `copy_to_user`, `is` of
# `isPlainObject`.
WEAK_NAME_WORDS = frozenset("a an and as at by for from in into is it of on or the to with".split())
_SEPARATORS = LazyPattern(r"[^A-Za-z0-9]+")


def weak_words(question: Question, lists: dict[str, list[list[int]]]) -> list[str]:
    """An identifier's function words, its letters that stand alone between separators (the `t` of `strbuffer_t`,
    not the `c` of `W3CDom`) and its single digits (the `2` of `jffs2`, the `7` and `0` of `gfx_v7_0`), when another
    of its words is in the bundle: they count in the score of a node that holds another of its words, but hold no
    node up alone (a kernel's nodes named with `for` or an `a` split off a number are tens of thousands, and each
    was scored for the rows after the name's few: 1.4 s for `cmdfiles_for_a`; its nodes named with a `2` or a `0`
    are four hundred thousand each). A name of such words only (`do_it`, `for_a`), or a qualified name's own
    (`models.Q`), keeps them."""
    if question.identifier is None:
        return []
    weak: set[str] = set()
    strong: set[str] = set()
    segments = name_parts(question.text.strip())
    for k, segment in enumerate(segments):
        held: list[tuple[str, bool]] = []
        for word in _SEPARATORS.split(segment):
            parts = split_identifier(word)
            held += [(stem(part), part in WEAK_NAME_WORDS
                      or len(part) == 1 and (part.isdigit() or len(parts) == 1 and part.isalpha()))
                     for part in parts]
        if k and k == len(segments) - 1 and all(is_weak for _, is_weak in held):
            held = [(token, False) for token, _ in held]
        for token, is_weak in held:
            (weak if is_weak else strong).add(token)
    found = sorted((weak - strong) & set(question.tokens))
    if not found or not any(any(lists[t]) for t in question.tokens if t not in found):
        return []
    return found


def read_postings(read: ReadBlobs, tokens: Iterable[str], shards: int, corrupt: Callable[[str], Exception],
                  memo: dict) -> dict[str, list[list[int]]]:
    """The postings of these tokens (a token no shard holds is left out), decoded once a pinned view: the words
    `ask` looks up a sentence's names by are its queries' words too (the kernel's 'page' decodes in 5 ms). The
    lists are shared: no reader changes them."""
    decoded: dict[str, list[list[int]] | None] = memo.setdefault("decoded", {})
    missing = [t for t in dict.fromkeys(tokens) if t not in decoded]
    if missing:
        # Once numpy is in the process (a warm server after its first plain-words question), a common word's
        # postings are decoded over arrays; it is imported for them only past NUMPY_BYTES (most names cost less
        # than the import).
        cache = POSTINGS.read_shards(read, {POSTINGS.key_path(t, shards) for t in missing}, corrupt,
                                     memo.setdefault("postings", {}))
        np = sys.modules.get("numpy")
        if np is None and sum(len(value) for value in POSTINGS.stored_values(cache, missing, shards)
                              if isinstance(value, bytes)) >= NUMPY_BYTES:
            from gitroute.bundle.varint_arrays import import_numpy

            np = import_numpy()
        decode = None
        if np is not None:
            from gitroute.bundle.varint_arrays import decode_key, field_lists

            decode = partial(decode_key, POSTINGS.codec, read=partial(field_lists, np, fields=FIELDS),
                             min_bytes=ARRAYS_MIN_BYTES)
        found = POSTINGS.read(read, missing, shards, corrupt, cache, decode=decode)
        decoded.update((t, found.get(t)) for t in missing)
    return {t: value for t in tokens if (value := decoded[t]) is not None}


class _Held:
    """A question's postings as sets, and each word's name postings split by their facts, kept in `memo` (a warm
    server's view keeps them for the next question)."""

    def __init__(self, lists: dict[str, list[list[int]]], memo: dict) -> None:
        self.lists = lists
        self.sets: dict[str, tuple[frozenset[int], ...]] = memo.setdefault("sets", {})
        self.by_facts: dict[str, dict[int, frozenset[int]]] = memo.setdefault("name_facts", {})
        self.bits: dict[str, tuple[frozenset[int], frozenset[int]]] = memo.setdefault("fact_bits", {})

    def members(self, token: str) -> tuple[frozenset[int], ...]:
        found = self.sets.get(token)
        if found is None:
            found = self.sets[token] = tuple(map(frozenset, self.lists[token]))
        return found

    def fact_bits(self, token: str) -> tuple[frozenset[int], frozenset[int]]:
        """Of the token's postings (name, doc, context), those of secondary nodes and of nodes whose name has no
        word: a cold query's bounds need the candidates' (`bounds._Bounder`), each round and each query again.
        Unions of the parts of the split by facts the name postings have anyway (and the others' split): no more
        passes over the postings (on the kernel's names, those passes were a third of a cold query's time)."""
        found = self.bits.get(token)
        if found is None:
            splits = (self.name_facts(token), *map(split_by_facts, self.lists[token][1:]))
            parts = [part for split in splits for part in split.items()]
            found = self.bits[token] = (frozenset().union(*(held for facts, held in parts if facts & SECONDARY)),
                                        frozenset().union(*(held for facts, held in parts if not facts & WORD_COUNT)))
        return found

    def name_facts(self, token: str) -> dict[int, frozenset[int]]:
        found = self.by_facts.get(token)
        if found is None:
            found = self.by_facts[token] = split_by_facts(self.lists[token][0])
        return found


class _Scorer:
    """The rows of one question: each candidate scored from its node record (`rank.text_scorer`), the best
    `limit` scores so far (`top`, a min-heap), and the nodes scored."""

    def __init__(self, question: Question, weights: dict[str, float], memo: dict, filters: Filters, limit: int,
                 explain: bool, corrupt: Callable[[str], Exception],
                 records: Callable[[Sequence[int]], dict[int, list]], floor: float = 0.0) -> None:
        self.filters, self.limit, self.explain, self.corrupt, self.records = filters, limit, explain, corrupt, records
        self.texts: dict[int, NodeText] = memo.setdefault("texts", {})
        self.shared: dict = memo.setdefault("text_parts", {})  # what node texts share by path and owner
        self.score_text = text_scorer(question, weights)
        self.doc_words: dict[int, frozenset[str]] | None = memo.get("doc_words")  # a warm view's: every node's
        self.found: dict[int, list] = memo.get("records", {})  # node records read so far (a warm view: all)
        self.rows: list[Row] = []
        # Rows below `floor` are not wanted: as if `limit` rows of that score were in already, so that no candidate
        # bounded below it is read (a name's definitions score EXACT * DEMOTE at least).
        self.top: list[float] = [floor] * limit if floor > 0 else []
        self.scored: set[int] = set()
        self.filtered_out = 0

    def full(self) -> bool:
        return len(self.top) == self.limit

    def read(self, batch: Sequence[int]) -> None:
        missing = [i for i in batch if i not in self.found]
        if missing:
            self.found.update(self.records(missing))  # one blob per node bucket

    def score(self, node_id: int) -> None:
        self.scored.add(node_id)
        if node_id not in self.found:
            raise self.corrupt(f"graph node {node_id}")
        path, name, owner, kind, line, _end_line, lang, entry, doc = self.found[node_id]
        if not self.filters.admit(path, kind, lang):
            self.filtered_out += 1
            return
        texts, shared, doc_words = self.texts, self.shared, self.doc_words
        node = texts.get(node_id)
        if node is None:
            node = node_text(path=path, name=name, owner=owner, kind=kind, doc=doc,
                             shared=shared if len(shared) < MAX_TEXTS else None,
                             doc_words=None if doc_words is None else doc_words.get(node_id, _NO_WORDS))
            if len(texts) < MAX_TEXTS:
                texts[node_id] = node
        score, signals = self.score_text(node, bool(entry))
        # A row below the limit-th score so far can never be shown (that score only grows): no row for it.
        top, limit = self.top, self.limit
        if score > 0 and (len(top) < limit or score >= top[0]):
            self.rows.append(Row(path=path, line=line, name=f"{owner}.{name}" if owner else name, kind=kind,
                                 score=score, signals=signals if self.explain else ()))
            if len(top) < limit:
                heapq.heappush(top, score)
            elif score > top[0]:
                heapq.heapreplace(top, score)

    def answer(self) -> tuple[list[Row], list[str]]:
        rows = sorted(self.rows, key=_row_order)
        notes: list[str] = []
        if not rows:
            if self.filtered_out:
                notes.append(f"{self.filtered_out} candidates matched, but none passes {self.filters.describe()}")
            else:
                notes.append("no candidate scored above zero")
        return rows[:self.limit], notes


def _score_candidates(found_bounds: Bounds, scorer: _Scorer, exhaustive: bool, budget: int | None = None) -> bool:
    """Score the candidates of `found_bounds` in the order of their bounds, until none left (or none that is not
    left out) can enter the top rows: groups are split when their turn comes, records read in batches. False when
    it stopped short, `budget` nodes scored (None: no budget)."""
    bounds, left_out = dict(found_bounds.nodes), found_bounds.left_out
    scored, top = scorer.scored, scorer.top
    heap = [(-b, i) for i, b in bounds.items() if i not in scored]  # the best bound first, then the lower id
    heap += [(-b, -1 - k) for k, (b, _) in enumerate(found_bounds.groups)]  # a group: a negative id
    heapq.heapify(heap)
    while heap:
        if not exhaustive and scorer.full() and top[0] > max(-heap[0][0], left_out):
            break
        if -heap[0][0] < left_out:
            break  # a node left out may outscore every candidate left: bring in a deferred word first
        if heap[0][1] < 0:  # a group's turn: split it, or bound its nodes one by one
            _open_group(found_bounds, -1 - heapq.heappop(heap)[1], bounds, heap, scored)
            continue
        if budget is not None and len(scored) >= budget:
            return False
        # Read the chunks of the next candidates in one go: a first batch on speculation, then
        # those sure to be scored (a bound at or above the limit-th score so far), at most MAX_BATCH.
        sure = not exhaustive and scorer.full()
        size = MAX_BATCH if sure else max(CANDIDATES, scorer.limit - len(top))
        batch = [heapq.heappop(heap)[1]]
        while (heap and len(batch) < size and not (sure and -heap[0][0] < top[0]) and -heap[0][0] >= left_out
               and heap[0][1] >= 0):
            batch.append(heapq.heappop(heap)[1])
        scorer.read(batch)
        for k, node_id in enumerate(batch):
            if not exhaustive and scorer.full() and top[0] > max(bounds[node_id], left_out):
                for rest in batch[k:]:
                    heapq.heappush(heap, (-bounds[rest], rest))
                break
            scorer.score(node_id)
    return True


def _open_group(found_bounds: Bounds, at: int, bounds: dict[int, float], heap: list, scored: set[int]) -> None:
    """Group `at`'s turn: its parts (groups, or nodes with their own bound) join the heap, or its nodes one by one."""
    group = found_bounds.groups[at][1]
    if callable(group):
        for b, part in group():
            if isinstance(part, int):  # a node (its posting value), bounded on its own
                if part >> FACT_BITS not in scored:
                    bounds[part >> FACT_BITS] = b
                    heapq.heappush(heap, (-b, part >> FACT_BITS))
                continue
            found_bounds.groups.append((b, part))
            heapq.heappush(heap, (-b, -len(found_bounds.groups)))
        return
    for node_id, b in found_bounds.bound_each(group).items():
        if node_id not in scored:
            bounds[node_id] = b
            heapq.heappush(heap, (-b, node_id))


def warm(view: IndexView) -> None:
    """Decode the whole index and every node record now, into the view's memo (a warm server, when it pins).

    A question then decodes nothing and reads no record (`records`, all checked), and the bound of every
    candidate knows the node's path words and kind (`places`, `kinds`) and the words of its doc
    (`doc_words`), so fewer nodes are scored; every nameless node and each word's name postings split
    by their facts are known too. Node texts are still tokenized on first use: all of django's take
    seconds and 120 MB.
    """
    memo = view.memo
    if "places" in memo:
        return
    try:
        shards = int(view.section["postings_shards"])
    except (KeyError, TypeError, ValueError) as err:
        raise view.corrupt(INDEX_META) from err
    parsed = POSTINGS.read_all(view.read, shards, view.corrupt, memo.setdefault("postings", {}))
    records = view.bundle.node_records()
    words: dict[tuple[str, bool], frozenset[str]] = {}
    places: dict[int, tuple[frozenset[str], float]] = {}
    doc_words: dict[int, frozenset[str]] = {}  # the words of a node's doc, as `node_text` takes them
    for node_id, record in records.items():
        path, kind = record[0], record[3]
        if not isinstance(path, str) or not isinstance(kind, str):
            raise view.corrupt(f"graph node {node_id}")
        key = (path, kind == "file")
        found = words.get(key)
        if found is None:
            found = words[key] = path_words(path, kind)
        places[node_id] = (found, KIND_PRIOR.get(kind, 0.0))
        doc = record[8]
        if doc:  # checked in `score_one` too: a record's doc is a string
            if not isinstance(doc, str):
                raise view.corrupt(f"graph node {node_id}")
            doc_words[node_id] = frozenset(stems(doc))
    # Every token's postings, decoded once (`parsed` keeps the shards as stored, for `POSTINGS.read`).
    decoded: dict[str, list[list[int]]] = {}
    for path, shard in parsed.items():
        try:
            decoded.update(POSTINGS.codec.decode_shard(shard))
        except (TypeError, ValueError) as err:
            raise view.corrupt(path) from err
    # Path word -> the postings (as the lists hold them) of the nodes whose path has it.
    values = {value >> FACT_BITS: value for lists in decoded.values() for ids in lists for value in ids}
    by_word: dict[str, list[int]] = defaultdict(list)
    for node_id, (found, _prior) in places.items():
        value = values.get(node_id)
        if value is not None:
            for word in found:
                by_word[word].append(value)
    memo["path_postings"] = {word: frozenset(found) for word, found in by_word.items()}
    memo["posting_bits"] = posting_bits(values.values())
    by_prior: dict[float, list[int]] = defaultdict(list)
    for node_id, (_found, prior) in places.items():
        value = values.get(node_id)
        if value is not None:
            by_prior[prior].append(value)
    memo["kinds"] = ({prior: frozenset(held) for prior, held in by_prior.items()},
                     frozenset(values[node_id] for node_id in doc_words if node_id in values))
    memo["doc_words"] = doc_words
    # Each word's name postings split by their facts (`bound_postings` starts from them), all at once.
    by_facts = memo.setdefault("name_facts", {})
    for token, (in_name, _in_doc, _in_context) in decoded.items():
        if in_name and token not in by_facts:
            by_facts[token] = split_by_facts(in_name)
    # What node texts share (path, name and owner words), for every node: a question tokenizes none of them.
    shared = memo.setdefault("text_parts", {})
    for path, name, owner, kind, *_rest in records.values():
        if len(shared) >= MAX_TEXTS:
            break
        if isinstance(name, str) and isinstance(owner, str):  # else `score_one` reports the record, if scored
            text_parts(path, base_name(name, kind), kind, owner, shared)
    memo["places"] = places
    memo["records"] = records  # every one checked (`GraphView.records`): a query reads none


_OTHER_FACTS = (0, SECONDARY, CONTENT_NAME, SECONDARY | CONTENT_NAME)  # a posting's facts beside its word count


def named_by_words(view: IndexView, spellings: Iterable[Sequence[str]]) -> list[int]:
    """The ids of the nodes whose name's words are exactly one of these spellings' (each a sequence of tokens, as
    `tokenize` gives them): the name postings of every word of the spelling, less the nodes whose name holds a word
    more (a posting's facts count its name's distinct words). Postings only, kept in the view's memo as a query
    keeps them (the query that may follow reads none again); what the names say is the caller's to check."""
    spellings = [tuple(dict.fromkeys(map(stem, spelling))) for spelling in spellings]
    wanted = sorted({token for spelling in spellings for token in spelling})
    if not wanted:
        return []
    found = _view_postings(view, wanted)
    by_facts = view.memo.setdefault("name_facts", {})
    ids: set[int] = set()
    for spelling in spellings:
        if not all(found.get(token, ((),))[0] for token in spelling):
            continue  # a word no name holds
        count = min(len(spelling), 7)
        held: set[int] | None = None
        for token in sorted(spelling, key=lambda t: len(found[t][0])):  # the fewest postings first
            facts = by_facts.get(token)
            if facts is None:
                facts = by_facts[token] = split_by_facts(found[token][0])
            # main code or secondary, with a stop word among its words or none
            these = frozenset().union(*(facts.get(count | bits, ()) for bits in _OTHER_FACTS))
            held = set(these) if held is None else held & these
            if not held:
                break
        ids.update(value >> FACT_BITS for value in held or ())
    return sorted(ids)


def may_name_exactly(view: IndexView, text: str) -> bool:
    """Whether some node could score `exact_name` for `text` (`rank.text_scorer`: its name's words are question
    words, and every question word is its name's or its owners'), by postings alone: a node holding every question
    word in its name or context postings (a symbol's context is its owners' words less its name's; a file has no
    owner), whose posting counts no name word the question lacks (its facts: the name's word count). False: no row
    of `text` is exact, and `query.evidence.definitions` need not rank its words (`ask` asks it of most words of a
    sentence, and on a kernel an undefined name's common words are thousands of candidates)."""
    question = parse_question(text)
    if question.identifier is None:
        return False  # the exact tier scores identifiers only
    words = sorted(set(question.tokens))
    found = _view_postings(view, words)
    if not words or any(word not in found for word in words):
        return False  # a word no name or owner holds: no node is exact
    # The rarest word's nodes whose names have no more words than the question, each looked up in the other words'
    # postings (ascending lists: a bisection each, no set of a common word's postings made).
    rarest, *others = sorted(words, key=lambda w: (len(found[w][0]) + len(found[w][2]), w))
    most = len(words)
    candidates = {value for held in (found[rarest][0], found[rarest][2]) for value in held
                  if value & WORD_COUNT <= most}
    for word in others:
        name, _doc, context = found[word]
        candidates = {value for value in candidates if _holds(name, value) or _holds(context, value)}
        if not candidates:
            return False
    for value in candidates:
        count, in_name = value & WORD_COUNT, sum(_holds(found[word][0], value) for word in words)
        if in_name == count or count == 7 and in_name > count:  # the count stops at 7 (`encode_posting`)
            return True
    return False


def _holds(values: Sequence[int], value: int) -> bool:
    """Whether ascending `values` holds `value`."""
    at = bisect_left(values, value)
    return at < len(values) and values[at] == value


def are_name_words(view: IndexView, tokens: Iterable[str]) -> bool:
    """Whether some name holds each of these tokens (as `tokenize` gives them) as a word of its own."""
    stems = sorted({stem(token) for token in tokens})
    found = _view_postings(view, stems)
    return all(found.get(token, ((),))[0] for token in stems)


def _view_postings(view: IndexView, tokens: list[str]) -> dict[str, list[list[int]]]:
    try:
        shards = int(view.section["postings_shards"])
    except (KeyError, TypeError, ValueError) as err:
        raise view.corrupt(INDEX_META) from err
    return read_postings(view.read, tokens, shards, view.corrupt, view.memo)


def _row_order(row: Row) -> tuple:
    return (-row.score, row.path, row.name or "", row.line or 0)


def answer(view: IndexView, question: str, *, limit: int = 10, explain: bool = False, kinds: Sequence[str] = (),
           langs: Sequence[str] = (), path_glob: str | None = None,
           file_starts: Callable[[], Sequence[int] | None] | None = None, floor: float = 0.0,
           **_options: object) -> Answer:
    """Which files, types and functions a question names. `file_starts`: the node ids of files, ascending, when the
    caller can give them (`FilePlaces`: fewer records read, the same rows). `floor`: rows scoring at least that."""
    rows, notes = query_symbols(
        question, view.section, view.read, limit=limit, explain=explain, corrupt=view.corrupt,
        filters=Filters(tuple(kinds), tuple(langs), path_glob), records=view.graph.records, memo=view.memo,
        file_starts=file_starts, floor=floor,
    )
    return Answer("routed" if rows else "no_match", view.source, tuple(rows), tuple(notes))
