"""The symbol index: node records chunked by id and token postings sharded by hash, and the query over them.

Postings hold three lists per token (nodes whose name, doc or context has the token: a file's
folders, a symbol's enclosing symbols); a query
reads only the shards of its own tokens, bounds every candidate's score from postings alone
(`rank.score_bounder`), then reads records in the order of those bounds and ranks them with
`rank.score_node`, until no unread candidate can enter the top rows. Postings of common words are
looked up rather than walked, until the nodes only they hold could still rank.
"""
from __future__ import annotations

import heapq
from collections import defaultdict, namedtuple
from collections.abc import Callable, Iterable, Sequence
from functools import partial

from gitroute.bundle.layout import GRAPH_NODES, INDEX_META
from gitroute.bundle.tables import FieldLists, PostingsTable
from gitroute.model import Answer, Row
from gitroute.rank import (
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
    score_bounder,
    text_parts,
    text_scorer,
)
from gitroute.text import STOP_WORDS, stem, stems, tokenize

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing on the query path
if TYPE_CHECKING:
    from typing import Any

    from gitroute.bundle.store import IndexView
    from gitroute.indexes import BuildInputs, IndexBuild

NAME = "symbols"
NEEDS: tuple[str, ...] = ()
EDGES = False  # builds from the graph's nodes only: may start while edges are resolved
QUESTION_TYPES: dict[str, dict] = {"symbol": {}}  # bench question type -> answer options

ENTRY_TOKEN = " entry"  # no real token has a space: the postings of entry-point nodes
COMMON_POSTINGS = 2000  # a word with more postings is deferred: its nodes are looked up, not walked
MAX_TEXTS = 1 << 17  # node texts kept per pinned bundle (django: 51,239 nodes)
CANDIDATES = 40  # records read in a query's first batch
MAX_BATCH = 512  # records read at once, afterwards
FEW = 4  # a group of at most this many nodes is bounded node by node when its turn comes, not split
MANY = 64  # a group of more nodes is split with sets worked out once for all candidates
MAX_DOC = 240  # as the graph's node records keep it (bundle.layout.MAX_RECORD_DOC)
# Token -> its name, doc and context postings, about 1024 a shard: small blobs to read and rewrite.
POSTINGS = PostingsTable(NAME, "postings", per_shard=1024, codec=FieldLists(3))

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


def _word_sets() -> Callable[[str, bool], frozenset[str]]:
    """Stemmed word sets of texts, memoised: names, owners and folders repeat across thousands of nodes."""
    memo: dict[tuple[str, bool], frozenset[str]] = {}

    def words(text: str, content_only: bool = False) -> frozenset[str]:
        found = memo.get((text, content_only))
        if found is None:
            tokens = tokenize(text)
            if content_only:
                tokens = [t for t in tokens if len(t) > 1 and t not in STOP_WORDS]
            found = memo[(text, content_only)] = frozenset(map(stem, tokens))
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


def encode_posting(node_id: int, secondary: bool, name_tokens: int) -> int:
    """A posting is one int: the node id, whether its path is secondary, and its name's word count.

    With those two facts the first, postings-only ranking already prefers short names that a
    question covers and main code over tests, so few records need reading to rank the rest.
    """
    return node_id << 4 | int(secondary) << 3 | min(name_tokens, 7)


def decode_posting(value: int) -> tuple[int, bool, int]:
    return value >> 4, bool(value & 8), value & 7


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
    # Built copies of sources (`v4/core/util.cjs` of `src/v4/core/util.ts`) get no postings: a query
    # would find each name twice or three times, the copy as often first as the source.
    built = built_copies(sorted({n.path for n in nodes}))
    keyed = memo is not None and file_blobs is not None
    files: dict[str, tuple[Sequence, list]] = {}  # path -> (its nodes, their tokens)
    # What a file's postings are made of besides its tokens: its blob, first id, node count and entry points.
    records: dict[str, tuple] = {}
    for path, group in _by_file(nodes):
        if path in built:
            continue
        blob = file_blobs.get(path, "") if file_blobs is not None else ""
        key = f"{path}\0{blob}\0{len(group)}" if keyed else None
        tokens = memo.get(key) if key is not None else None
        if tokens is None:
            tokens = [[sorted(field) for field in _node_tokens(node, words)] for node in group]
        if key is not None:
            memo.put(key, tokens)
        files[path] = (group, tokens)
        records[path] = (blob, group[0].id, len(group), tuple(i for i, node in enumerate(group) if node.entry))

    def fill(path: str, postings: Postings) -> None:
        group, tokens = files[path]
        _add_postings(postings, path, [n.id for n in group], [n.entry for n in group], tokens)

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


def _by_file(nodes: Sequence) -> Iterable[tuple[str, Sequence]]:
    """(path, its nodes) per file, in id order, so that every postings list comes out sorted."""
    start = 0
    while start < len(nodes):
        path = nodes[start].path
        end = start + 1
        while end < len(nodes) and nodes[end].path == path:
            end += 1
        yield path, nodes[start:end]
        start = end


def _add_postings(postings: Postings, path: str, ids: Sequence[int], entry: Sequence[bool], tokens: list) -> None:
    """One file's postings: each node's tokens, field by field, and the entry-point token."""
    secondary = is_secondary(path)
    for node_id, is_entry, fields in zip(ids, entry, tokens):
        value = encode_posting(node_id, secondary, len(fields[0]))
        for field, field_tokens in enumerate(fields):
            for token in field_tokens:
                postings[token][field].append(value)
        if is_entry:
            postings[ENTRY_TOKEN][0].append(value)


# --- query -----------------------------------------------------------------------------------


def _split_by_facts(values: Iterable[int]) -> dict[int, frozenset[int]]:
    """Posting values by their facts (the low four bits: secondary, the name's word count)."""
    split: dict[int, list[int]] = defaultdict(list)
    for value in values:
        split[value & 15].append(value)
    return {facts: frozenset(held) for facts, held in split.items()}


def _bound_postings(
    question: Question, lists: dict[str, list[list[int]]], weights: dict[str, float], deferred: Sequence[str],
    members: Callable[[str], tuple[frozenset[int], ...]], places: dict[int, tuple[frozenset[str], float]] | None,
    path_postings: dict[str, frozenset[int]] | None = None, bits: tuple[frozenset[int], frozenset[int]] | None = None,
    name_facts: Callable[[str], dict[int, frozenset[int]]] | None = None,
    doc_words: dict[int, frozenset[str]] | None = None,
    kinds: tuple[dict[float, frozenset[int]], frozenset[int]] | None = None,
) -> _Bounds:
    """Every candidate's upper bound (`rank.score_bounder`) from postings alone, and the bound of a node left out.

    A candidate is a node with a posting of a question word that is not deferred (or, for an
    entry-point question, an entry node). The postings of a deferred word (a common one: "test" in
    django names twenty thousand nodes) are not walked: each candidate is looked up in them
    (`members`), so its bound is exact, and the nodes found only there are left out, all bounded
    by the second value. `places` (node id -> the words of its path as `node_text` takes
    them, and its kind's prior; see `warm`) tightens the bound of the nodes it holds. With
    `path_postings` too (path word -> the postings of the nodes whose path has it), the nodes of a
    deferred word whose path holds a word that is not deferred become candidates, so the nodes left
    out match the question with deferred words alone, even in their owner and path: a lower bound.
    `bits` (see `warm`): the postings of secondary nodes, and of nodes whose name has no word.
    `name_facts` (token -> its name postings split by their low four bits, `_split_by_facts`): kept
    across questions by a warm server; so are `doc_words` (node id -> the words of its doc, as `node_text`
    takes them; with `places`, a node left out has none) and `kinds` (kind prior -> the postings of the nodes
    of that prior; and the postings of the nodes whose doc has words).

    Candidates are bounded by group, by set operations: the nodes with the same question words in
    their name and the same posting facts together, at first at their most (every doc and context
    word, the highest path weight and kind prior: the bound grows with each); a group is split by
    what its nodes' context and doc hold, and then bounded node by node, only when its turn comes.
    The candidates with no walked word in their name (most of them) are one group until then.
    """
    q = question.tokens
    walked = [t for t in q if t not in deferred]
    entries = frozenset(lists[ENTRY_TOKEN][0]) if ENTRY_TOKEN in lists else frozenset()
    found_candidates: list[set[int]] = []

    def candidate_set() -> set[int]:
        if not found_candidates:
            found_candidates.append(walked_postings(with_names=True) | entries)
        return found_candidates[0]

    def walked_postings(with_names: bool) -> set[int]:
        """The walked words' postings (with their names' or not: those are all named), and the nodes of a
        deferred word's postings whose path holds a walked word."""
        found: set[int] = set()
        for token in walked:
            in_name, in_doc, in_context = members(token)
            if with_names:
                found |= in_name
            found |= in_doc
            found |= in_context
        if path_postings is not None and deferred:
            for token in walked:
                in_path = path_postings.get(token)
                if in_path:
                    for lists_of_deferred in map(members, deferred):
                        for held in lists_of_deferred:
                            found |= held & in_path
        return found

    nameless_known = bits is not None  # the postings of every node whose name has no word, not the candidates'
    if bits is None:  # no warm view: from the candidates (the postings of secondary nodes, of names with no word)
        every = candidate_set()
        bits = (frozenset(v for v in every if v & 8), frozenset(v for v in every if not v & 7))
    index = {t: i for i, t in enumerate(q)}
    split_facts = name_facts if name_facts is not None else (lambda token: _split_by_facts(lists[token][0]))
    # Nodes with walked words in their name, by which words and the facts of their postings: one set
    # operation per word and part, not one step per posting. Deferred words refine the parts (their
    # nodes are candidates already); a node named by deferred words only is in the group of the rest.
    parts: dict[int, list[list]] = defaultdict(list)  # facts -> [[indexes of its name words, nodes]]
    named: set[int] = set()
    for token in walked:
        _refine(parts, index[token], split_facts(token))
        named |= members(token)[0]
    for token in deferred:
        in_name = members(token)[0]
        for rows in parts.values():
            for row in rows[:]:
                both = row[1] & in_name
                if both:
                    row[1] -= both
                    rows.append([(*row[0], index[token]), both])
    bound = score_bounder(question, weights)
    table: list[tuple[float, int, frozenset[int], frozenset[int], frozenset[int]]] = []
    for i, token in enumerate(q):  # a word's bit is its place in the question: a phrase needs two side by side
        in_name, in_doc, in_context = members(token)
        table.append((weights[token], 1 << i, in_name, in_doc, in_context))
    q_set = frozenset(q)
    memo: dict[tuple, float] = {}  # nodes share their facts by the hundred: bound each set of facts once
    path_weights: dict[frozenset[str], float] = {}  # by a path's words: a file's nodes share them
    get_place = places.get if places is not None else None
    get_doc_words = doc_words.get if doc_words is not None and places is not None else None

    def bound_each(values: Iterable[int]) -> dict[int, float]:
        bounds = {}
        for value in values:
            name_weight = doc_weight = context_weight = 0.0
            name_matched = context_matched = in_name_bits = 0
            for w, bit, in_name, in_doc, in_context in table:  # a candidate: a deferred word's postings count too
                if value in in_name:
                    name_weight += w
                    name_matched += 1
                    in_name_bits |= bit
                if value in in_doc:
                    doc_weight += w
                if value in in_context:
                    context_matched += 1
                    context_weight += w
            adjacent = name_matched < 2 or bool(in_name_bits & in_name_bits >> 1)
            # The bound's arguments, then `adjacent`: the memo's key, built once.
            place = get_place(value >> 4) if get_place is not None else None
            if place is None:
                key: tuple = (name_weight, name_matched, value & 7, doc_weight, context_matched, value & 8,
                              value in entries, adjacent)
            else:  # a warm server knows each node's path words and kind: a tighter bound
                path_words, prior = place
                path_weight = path_weights.get(path_words)
                if path_weight is None:
                    path_weight = path_weights[path_words] = sum(weights[t] for t in q if t in path_words)
                if get_doc_words is None:
                    key = (name_weight, name_matched, value & 7, doc_weight, context_matched, value & 8,
                           value in entries, context_weight, path_weight, prior, adjacent)
                else:  # and the words of its doc (most hold none of the question's)
                    doc_has = get_doc_words(value >> 4)
                    key = (name_weight, name_matched, value & 7, doc_weight, context_matched, value & 8,
                           value in entries, context_weight, path_weight, prior,
                           sum(weights[t] for t in q if t in doc_has) if doc_has and not q_set.isdisjoint(doc_has)
                           else 0.0, adjacent)
            found = memo.get(key)
            if found is None:
                found = memo[key] = bound(*key[:-1], adjacent=adjacent)
            bounds[value >> 4] = found
        return bounds

    def one_by_one(values: set[int]) -> list[tuple[float, int]]:
        """[(bound, posting value)] of a few nodes, each bounded on its own."""
        bounds = bound_each(values)
        return [(bounds[value >> 4], value) for value in values]

    most_doc = sum(weights[t] for t in q if lists[t][1])
    in_contexts = [weights[t] for t in q if lists[t][2]]
    most_context = len(in_contexts)
    every_weight, prior = sum(weights[t] for t in q), max(KIND_PRIOR.values())
    most_warm = (sum(in_contexts), every_weight, prior) if places is not None else ()

    held_sets: list[tuple[set[int], set[int], set[int]]] = []
    splits: list[int] = []

    def context_sets(same: set[int]) -> tuple[set[int], set[int], set[int]]:
        """Of `same`, or more: the nodes with one question word or more in their context, with two or more,
        and with any in their doc. Worked out for the group alone when it is small and among the first few
        split, else for every candidate once (a plain-words question splits many groups)."""
        splits.append(len(same))
        if len(same) > MANY or len(splits) > 4 or held_sets:
            if not held_sets:
                held_sets.append(context_sets_of(candidate_set()))
            return held_sets[0]
        return context_sets_of(same)

    def context_sets_of(same: set[int]) -> tuple[set[int], set[int], set[int]]:
        once: set[int] = set()
        twice: set[int] = set()
        in_docs: set[int] = set()
        for _w, _bit, _in_name, in_doc, in_context in table:
            held = same & in_context
            twice |= once & held
            once |= held
            in_docs |= same & in_doc
        return once, twice, in_docs

    def split(weight: float, matched: int, count: int, secondary: int, entry: bool, same: set[int],
              adjacent: bool) -> list:
        """A group's nodes by how many question words their context holds (none, one, more: then at most all
        of them: two can make a phrase with the name), and whether their doc holds any: [(bound, nodes or a
        function that splits them further)]; a group of a few nodes is bounded node by node at once:
        [(bound, posting value)]. `adjacent`: two of the group's name words stand side by side in the question."""
        if len(same) <= FEW:
            return one_by_one(same)
        once, twice, in_docs = context_sets(same)
        held_once = same & once
        found: list[tuple] = []
        for context_matched, by_context in ((0, same - held_once), (1, held_once - twice),
                                            (most_context, held_once & twice)):
            with_doc = by_context & in_docs
            for doc_weight, part in ((0.0, by_context - with_doc), (most_doc, with_doc)):
                if not part:
                    continue
                if places is None:
                    found.append((bound(weight, matched, count, doc_weight, context_matched, secondary, entry,
                                        adjacent=adjacent), part))
                    continue
                # The context weight at most, and the path weight of the words any has; then, with the words of
                # each node's doc known, by kind prior and by whether the doc has words (`kinds`), when its turn
                # comes: that spares bounding one by one the nodes neither a doc nor a kind prior can lift.
                context_weight = (0.0 if not context_matched else max(in_contexts) if context_matched == 1
                                  else sum(in_contexts))
                path_weight = every_weight if path_postings is None else sum(
                    weights[t] for t in q if not path_postings.get(t, frozenset()).isdisjoint(part))
                warm = (weight, matched, count, doc_weight, context_matched, secondary, entry, context_weight,
                        path_weight)
                most = bound(*warm, prior, adjacent=adjacent)
                if get_doc_words is None or kinds is None:
                    found.append((most, part))
                elif len(part) <= FEW:
                    found += one_by_one(part)
                else:
                    found.append((most, partial(by_kind, warm, part, adjacent)))
        return found

    def by_kind(warm: tuple, part: set[int], adjacent: bool) -> list:
        """`part` by kind prior and by whether the doc has words: [(bound, nodes)]."""
        found = []
        left = len(part)
        assert kinds is not None
        for node_prior, of_kind in kinds[0].items():
            held = part & of_kind
            if held:
                left -= len(held)
                documented = held & kinds[1]
                found += [(bound(*warm, node_prior, node_doc, adjacent=adjacent), nodes) for node_doc, nodes in
                          ((None, documented), (0.0, held - documented)) if nodes]
        if left:  # a node of no kind the view knows: at the highest prior (never, from `warm`)
            found.append((bound(*warm, prior, adjacent=adjacent), part.difference(*kinds[0].values())))
        return found

    def group(weight: float, matched: int, count: int, secondary: int, entry: bool, same: set[int],
              adjacent: bool = True) -> tuple:
        return (bound(weight, matched, count, most_doc, most_context, secondary, entry, *most_warm, adjacent=adjacent),
                partial(split, weight, matched, count, secondary, entry, same, adjacent))

    def grouped(parts: dict[int, list[list]]) -> list[tuple]:
        """The groups of the parts, one per set of name words: at the bound of its shortest name (the bound
        does not grow with the name's word count), split by the parts' facts when its turn comes."""
        by_words: dict[tuple[int, ...], list[tuple[int, set[int]]]] = defaultdict(list)
        for facts, rows in parts.items():
            for words, same in rows:
                if same:
                    by_words[words].append((facts, same))
        found = []
        for words, held in by_words.items():
            weight, matched = sum(weights[q[i]] for i in sorted(words)), len(words)
            adjacent = any(i + 1 in words for i in words)  # words: the places in the question of the name's words
            if len(held) == 1:
                found.append(group(weight, matched, held[0][0] & 7, held[0][0] & 8, False, held[0][1], adjacent))
                continue
            count = min(facts & 7 for facts, _ in held)
            most = max(bound(weight, matched, count, most_doc, most_context, secondary, False, *most_warm,
                             adjacent=adjacent) for secondary in {facts & 8 for facts, _ in held})
            found.append((most, partial(by_facts, weight, matched, held, adjacent)))
        return found

    def by_facts(weight: float, matched: int, rows: list[tuple[int, set[int]]], adjacent: bool) -> list[tuple]:
        return [group(weight, matched, facts & 7, facts & 8, False, same, adjacent) for facts, same in rows]

    groups: list[tuple[float, set[int] | Callable[[], list]]] = []
    alone: list[int] = []
    for rows in parts.values():
        for row in rows:
            held = row[1] & entries
            if held:  # an entry node, which an entry-point question adds, is bounded on its own
                row[1] -= held
                alone += held
    alone += entries - named
    groups += grouped(parts)
    # A name with no word (`_`) can be exact (`Owner._` for "Owner"): those few nodes are bounded one by one.
    # Given the view's, every one of them that holds a question word (a candidate, or a node of a deferred
    # word's postings) is, so no node left out is nameless; else they are the candidates' already.
    no_word = set(bits[1] - named - entries)
    if nameless_known and no_word:
        held_any: set[int] = set()
        for token in q:
            for held in members(token):
                held_any |= no_word & held
        no_word = held_any
    alone += no_word
    deferred_weights = sorted((weights[t] for t in deferred), reverse=True)

    def rest() -> list:
        """The other candidates: by the deferred words in their name, then the facts of their postings."""
        others = set(found_candidates[0]) if found_candidates else walked_postings(with_names=False)
        others -= named
        others -= entries
        others -= no_word
        by_deferred: dict[int, list[list]] = defaultdict(list)
        deferred_named: set[int] = set()
        for token in deferred:
            held = others & members(token)[0]
            if held:
                _refine(by_deferred, index[token], _split_by_facts(held))
                deferred_named |= held
        others -= deferred_named
        found = grouped(by_deferred)
        # With no question word matched, a name's word count does not change its bound (which needs every
        # word matched to count): the nodes with none are split by whether they are secondary.
        secondary_part = others & bits[0]
        found += [group(0.0, 0, 1, secondary, False, same)
                  for secondary, same in ((8, secondary_part), (0, others - secondary_part)) if same]
        return found

    # The rest at its most: m deferred words in the name (the m heaviest), as short a name as holds them.
    most = max(bound(sum(deferred_weights[:m]), m, min(max(m, 1), 7), most_doc, most_context, secondary, False,
                     *most_warm) for m in range(len(deferred_weights) + 1) for secondary in (0, 8))
    groups.append((most, rest))
    return _Bounds(bound_each(alone), groups, bound_each,
                   _left_out_bound(bound, [weights[t] for t in deferred], path_postings is not None,
                                   not nameless_known))


def _refine(parts: dict[int, list[list]], word: int, by_facts: dict[int, frozenset[int]]) -> None:
    """Add one question word's name postings (split by facts) to `parts`: facts -> [[word indexes, nodes]]."""
    for facts, held in by_facts.items():
        rows = parts[facts]
        fresh = set(held)
        for row in rows[:]:
            both = row[1] & held
            if both:
                row[1] -= both
                fresh -= both
                rows.append([(*row[0], word), both])
        if fresh:
            rows.append([(word,), fresh])


class _Bounds(namedtuple("_Bounds", "nodes groups bound_each left_out")):
    """A question's bounds from postings: node id -> bound; [(bound, posting values)] of the nodes bounded
    together (`bound_each` bounds them one by one) or, in place of the values, a function that splits them
    into such groups or into nodes ((bound, posting value)), each bounded no higher; the bound of any node
    left out (deferred words only)."""

    __slots__ = ()


def _left_out_bound(bound: Callable[..., float], deferred: list[float], alone: bool = False,
                    nameless: bool = True) -> float:
    """The bound of any node whose question words are all deferred words (of these weights), 0 when none are.

    Such a node has m of them in its name (at most the m heaviest), the others at most in its
    context and its doc; the bound grows with each weight and count, so the largest over m, the
    name's word count and secondary bounds them all. It is not an entry node: those are candidates.
    `alone`: its owner and path hold no other question word either (they are candidates), so
    owner_tokens and path_tokens count at most the deferred words outside its name. Not `nameless`:
    its name has a word (every node whose name has none is a candidate).
    """
    if not deferred:
        return 0.0
    heaviest = sorted(deferred, reverse=True)
    total = sum(heaviest)
    best = 0.0
    for m in range(len(heaviest) + 1):
        in_name = sum(heaviest[:m])
        for count in range(8):
            if count < m and count < 7 or (count == 0 and (m or not nameless)):
                continue  # a name holds at least the words matched in it (the count stops at 7)
            for secondary in (False, True):
                rest = (total - in_name, 0.0, None) if alone else ()
                best = max(best, bound(in_name, m, count, total - in_name, len(heaviest) - m, secondary, False, *rest))
    return best


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
) -> tuple[list[Row], list[str]]:
    """Rank nodes for a question; returns rows and notes (empty rows: no_match, and the notes say why).

    The rows are the true top `limit` of scoring every candidate, which `exhaustive=True` does
    (for tests); otherwise records are read in the order of their bounds, only until no unread
    candidate can outscore the rows kept. `memo` keeps what a query decodes (postings, their sets,
    node texts) for the next one on the same pinned bundle: a warm server passes the view's.
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
    found_lists = POSTINGS.read(read, tokens, shards, corrupt, memo.setdefault("postings", {}))
    lists: dict[str, list[list[int]]] = {t: found_lists.get(t) or [[], [], []] for t in tokens}
    sets: dict[str, tuple[frozenset[int], ...]] = memo.setdefault("sets", {})

    def members(token: str) -> tuple[frozenset[int], ...]:
        found = sets.get(token)
        if found is None:
            found = sets[token] = tuple(map(frozenset, lists[token]))
        return found

    by_facts: dict[str, dict[int, frozenset[int]]] = memo.setdefault("name_facts", {})

    def name_facts(token: str) -> dict[int, frozenset[int]]:
        found = by_facts.get(token)
        if found is None:
            found = by_facts[token] = _split_by_facts(lists[token][0])
        return found

    weights = {t: idf(sum(map(len, lists[t])), total) for t in question.tokens}
    # Common words wait, the least common first to come in, until the others cannot fill the rows.
    common = COMMON_POSTINGS if common_postings is None else common_postings
    deferred = [] if exhaustive else sorted(
        (t for t in question.tokens if sum(map(len, lists[t])) > common),
        key=lambda t: (sum(map(len, lists[t])), t))
    places, path_postings, bits = memo.get("places"), memo.get("path_postings"), memo.get("posting_bits")
    found_bounds = _bound_postings(question, lists, weights, deferred, members, places, path_postings, bits,
                                   name_facts, memo.get("doc_words"), memo.get("kinds"))
    if not found_bounds.nodes and not found_bounds.groups and not found_bounds.left_out:
        return [], ["nothing in the bundle shares a word with the question"]
    texts: dict[int, NodeText] = memo.setdefault("texts", {})
    shared: dict = memo.setdefault("text_parts", {})  # what node texts share by path and owner
    score_text = text_scorer(question, weights)
    doc_words: dict[int, frozenset[str]] | None = memo.get("doc_words")  # a warm view's: every node's doc words

    found: dict[int, list] = memo.get("records", {})  # node records read so far (a warm view: all of them)
    rows: list[Row] = []
    top: list[float] = []  # the best `limit` scores so far, a min-heap
    scored: set[int] = set()
    filtered_out = 0

    def score_one(node_id: int) -> None:
        nonlocal filtered_out
        scored.add(node_id)
        if node_id not in found:
            raise corrupt(f"graph node {node_id}")
        path, name, owner, kind, line, _end_line, lang, entry, doc = found[node_id]
        if not filters.admit(path, kind, lang):
            filtered_out += 1
            return
        node = texts.get(node_id)
        if node is None:
            node = node_text(path=path, name=name, owner=owner, kind=kind, doc=doc,
                             shared=shared if len(shared) < MAX_TEXTS else None,
                             doc_words=None if doc_words is None else doc_words.get(node_id, _NO_WORDS))
            if len(texts) < MAX_TEXTS:
                texts[node_id] = node
        score, signals = score_text(node, bool(entry))
        # A row below the limit-th score so far can never be shown (that score only grows): no row for it.
        if score > 0 and (len(top) < limit or score >= top[0]):
            rows.append(Row(path=path, line=line, name=f"{owner}.{name}" if owner else name, kind=kind,
                            score=score, signals=signals if explain else ()))
            if len(top) < limit:
                heapq.heappush(top, score)
            elif score > top[0]:
                heapq.heapreplace(top, score)

    # The threshold algorithm: score candidates in the order of their bounds until the limit-th
    # best score beats the bound of every candidate not yet scored, and of the nodes left out.
    while True:
        bounds, left_out = dict(found_bounds.nodes), found_bounds.left_out
        heap = [(-b, i) for i, b in bounds.items() if i not in scored]  # the best bound first, then the lower id
        heap += [(-b, -1 - k) for k, (b, _) in enumerate(found_bounds.groups)]  # a group: a negative id
        heapq.heapify(heap)
        while heap:
            if not exhaustive and len(top) == limit and top[0] > max(-heap[0][0], left_out):
                break
            if -heap[0][0] < left_out:
                break  # a node left out may outscore every candidate left: bring in a deferred word first
            if heap[0][1] < 0:  # a group's turn: split it, or bound its nodes one by one
                group = found_bounds.groups[-1 - heapq.heappop(heap)[1]][1]
                if callable(group):
                    for b, part in group():
                        if isinstance(part, int):  # a node (its posting value), bounded on its own
                            if part >> 4 not in scored:
                                bounds[part >> 4] = b
                                heapq.heappush(heap, (-b, part >> 4))
                            continue
                        found_bounds.groups.append((b, part))
                        heapq.heappush(heap, (-b, -len(found_bounds.groups)))
                    continue
                for node_id, b in found_bounds.bound_each(group).items():
                    if node_id not in scored:
                        bounds[node_id] = b
                        heapq.heappush(heap, (-b, node_id))
                continue
            # Read the chunks of the next candidates in one go: a first batch on speculation, then
            # those sure to be scored (a bound at or above the limit-th score so far), at most MAX_BATCH.
            sure = not exhaustive and len(top) == limit
            size = MAX_BATCH if sure else max(CANDIDATES, limit - len(top))
            batch = [heapq.heappop(heap)[1]]
            while (heap and len(batch) < size and not (sure and -heap[0][0] < top[0]) and -heap[0][0] >= left_out
                   and heap[0][1] >= 0):
                batch.append(heapq.heappop(heap)[1])
            missing = [i for i in batch if i not in found]
            if missing:
                found.update(records(missing))  # one blob per node bucket
            for k, node_id in enumerate(batch):
                if not exhaustive and len(top) == limit and top[0] > max(bounds[node_id], left_out):
                    for rest in batch[k:]:
                        heapq.heappush(heap, (-bounds[rest], rest))
                    break
                score_one(node_id)
        if not left_out or (len(top) == limit and top[0] > left_out):
            break
        # The nodes left out could still rank: bring in the next deferred word, and go on from what is scored.
        deferred = deferred[1:]
        found_bounds = _bound_postings(question, lists, weights, deferred, members, places, path_postings, bits,
                                   name_facts, memo.get("doc_words"), memo.get("kinds"))
    rows.sort(key=_row_order)
    notes: list[str] = []
    if not rows:
        if filtered_out:
            notes.append(f"{filtered_out} candidates matched, but none passes {filters.describe()}")
        else:
            notes.append("no candidate scored above zero")
    return rows[:limit], notes


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
    graph = view.graph
    records = graph.bucket_records(view.bundle.listing(GRAPH_NODES))
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
    # Path word -> the postings (as the lists hold them) of the nodes whose path has it.
    try:
        values = {value >> 4: value for shard in parsed.values() for lists in shard.values() for ids in lists
                  for value in ids}
    except TypeError as err:
        raise view.corrupt("postings") from err
    by_word: dict[str, list[int]] = defaultdict(list)
    for node_id, (found, _prior) in places.items():
        value = values.get(node_id)
        if value is not None:
            for word in found:
                by_word[word].append(value)
    memo["path_postings"] = {word: frozenset(found) for word, found in by_word.items()}
    # The postings of secondary nodes, and of nodes whose name has no word: `_bound_postings` groups by them.
    memo["posting_bits"] = (frozenset(v for v in values.values() if v & 8),
                            frozenset(v for v in values.values() if not v & 7))
    by_prior: dict[float, list[int]] = defaultdict(list)
    for node_id, (_found, prior) in places.items():
        value = values.get(node_id)
        if value is not None:
            by_prior[prior].append(value)
    memo["kinds"] = ({prior: frozenset(held) for prior, held in by_prior.items()},
                     frozenset(values[node_id] for node_id in doc_words if node_id in values))
    memo["doc_words"] = doc_words
    # Each word's name postings split by their facts (`_bound_postings` starts from them), all at once.
    by_facts = memo.setdefault("name_facts", {})
    try:
        for shard in parsed.values():
            for token, (in_name, _in_doc, _in_context) in shard.items():
                if in_name and token not in by_facts:
                    by_facts[token] = _split_by_facts(in_name)
    except (TypeError, ValueError) as err:
        raise view.corrupt("postings") from err
    # What node texts share (path, name and owner words), for every node: a question tokenizes none of them.
    shared = memo.setdefault("text_parts", {})
    for path, name, owner, kind, *_rest in records.values():
        if len(shared) >= MAX_TEXTS:
            break
        if isinstance(name, str) and isinstance(owner, str):  # else `score_one` reports the record, if scored
            text_parts(path, base_name(name, kind), kind, owner, shared)
    memo["places"] = places
    memo["records"] = records  # every one checked (`GraphView.records`): a query reads none


def _row_order(row: Row) -> tuple:
    return (-row.score, row.path, row.name or "", row.line or 0)


def answer(view: IndexView, question: str, *, limit: int = 10, explain: bool = False, kinds: Sequence[str] = (),
           langs: Sequence[str] = (), path_glob: str | None = None, **_options: object) -> Answer:
    """Which files, types and functions a question names."""
    rows, notes = query_symbols(
        question, view.section, view.read, limit=limit, explain=explain, corrupt=view.corrupt,
        filters=Filters(tuple(kinds), tuple(langs), path_glob), records=view.graph.records, memo=view.memo,
    )
    return Answer("routed" if rows else "no_match", view.source, tuple(rows), tuple(notes))
