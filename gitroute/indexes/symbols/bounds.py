"""Bounding a symbol question's candidates from postings alone, by group, with set operations: what lets the
query (`gitroute.indexes.symbols`) read the records of only the candidates that can still rank.

A posting is one int: the node id, whether its name has no stop word (bit 4), whether its path is secondary
(bit 3) and its name's word count (bits 0-2); see `symbols.encode_posting`. Every bound is
`rank.score_bounder`'s, so it is at least the node's score.
"""
from __future__ import annotations

from collections import defaultdict, namedtuple
from collections.abc import Callable, Iterable, Sequence
from functools import partial

from gitroute.rank import CONTENT_NAME, KIND_PRIOR, Question, score_bounder

ENTRY_TOKEN = " entry"  # no real token has a space: the postings of entry-point nodes
FEW = 4  # a group of at most this many nodes is bounded node by node when its turn comes, not split
MANY = 64  # a group of more nodes is split with sets worked out once for all candidates
# A posting's low bits (`symbols.encode_posting`): its facts, below the node id.
FACT_BITS = 5
FACTS = (1 << FACT_BITS) - 1
SECONDARY, WORD_COUNT = 8, 7
NAME_FACTS = WORD_COUNT | CONTENT_NAME  # what `rank.score_bounder` takes as a name's word count


def split_by_facts(values: Iterable[int]) -> dict[int, frozenset[int]]:
    """Posting values by their facts (the low bits: no stop word in the name, secondary, the name's word count)."""
    split: dict[int, list[int]] = defaultdict(list)
    for value in values:
        split[value & FACTS].append(value)
    return {facts: frozenset(held) for facts, held in split.items()}


def posting_bits(values: Iterable[int]) -> tuple[frozenset[int], frozenset[int]]:
    """Of posting values, those of secondary nodes and those of nodes whose name has no word (`bound_postings`
    groups by them)."""
    values = values if isinstance(values, (set, frozenset, list, tuple)) else list(values)
    return frozenset(v for v in values if v & SECONDARY), frozenset(v for v in values if not v & WORD_COUNT)


def bound_postings(
    question: Question, lists: dict[str, list[list[int]]], weights: dict[str, float], deferred: Sequence[str],
    members: Callable[[str], tuple[frozenset[int], ...]], places: dict[int, tuple[frozenset[str], float]] | None,
    path_postings: dict[str, frozenset[int]] | None = None, bits: tuple[frozenset[int], frozenset[int]] | None = None,
    name_facts: Callable[[str], dict[int, frozenset[int]]] | None = None,
    doc_words: dict[int, frozenset[str]] | None = None,
    kinds: tuple[dict[float, frozenset[int]], frozenset[int]] | None = None,
    fact_bits: Callable[[str], tuple[frozenset[int], frozenset[int]]] | None = None,
    weak: frozenset[str] = frozenset(),
) -> Bounds:
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
    `bits` (see `warm`): the postings of secondary nodes, and of nodes whose name has no word; without them,
    `fact_bits` (token -> those of its postings, kept across questions) gives the candidates' at the cost of a
    union a word. `weak`: deferred words that make no node a candidate (`symbols.weak_words`), not even by its
    path or as a nameless node: once only they are deferred, nothing is left out.
    `name_facts` (token -> its name postings split by their low four bits, `split_by_facts`): kept
    across questions by a warm server; so are `doc_words` (node id -> the words of its doc, as `node_text`
    takes them; with `places`, a node left out has none) and `kinds` (kind prior -> the postings of the nodes
    of that prior; and the postings of the nodes whose doc has words).

    Candidates are bounded by group, by set operations (`_Bounder`): the nodes with the same question words in
    their name and the same posting facts together, at first at their most (every doc and context
    word, the highest path weight and kind prior: the bound grows with each); a group is split by
    what its nodes' context and doc hold, and then bounded node by node, only when its turn comes.
    The candidates with no walked word in their name (most of them) are one group until then.
    """
    bounder = _Bounder(question, lists, weights, deferred, members, places, path_postings, bits, name_facts,
                       doc_words, kinds, fact_bits, weak)
    parts, named = bounder.name_parts()
    alone = bounder.entries_apart(parts, named)
    groups = bounder.grouped(parts)
    no_word = bounder.nameless(named)
    alone += no_word
    groups.append((bounder.most_of_rest(), partial(bounder.rest, named, no_word)))
    left_out = 0.0 if weak.issuperset(deferred) else _left_out_bound(
        bounder.bound, [weights[t] for t in deferred], path_postings is not None, not bounder.nameless_known)
    return Bounds(bounder.bound_each(alone), groups, bounder.bound_each, left_out)


class _Bounder:
    """What bounding one question's candidates shares (its words' weights and postings, the bound function, the
    bounds worked out so far), and each way of bounding a set of nodes as a step of its own (`bound_postings`).

    A group is (bound, nodes) or (bound, a function that splits it into groups, or into nodes as (bound,
    posting value)): a group's nodes are bounded one by one only when its turn comes."""

    def __init__(self, question: Question, lists: dict[str, list[list[int]]], weights: dict[str, float],
                 deferred: Sequence[str], members: Callable[[str], tuple[frozenset[int], ...]],
                 places: dict[int, tuple[frozenset[str], float]] | None,
                 path_postings: dict[str, frozenset[int]] | None,
                 bits: tuple[frozenset[int], frozenset[int]] | None,
                 name_facts: Callable[[str], dict[int, frozenset[int]]] | None,
                 doc_words: dict[int, frozenset[str]] | None,
                 kinds: tuple[dict[float, frozenset[int]], frozenset[int]] | None,
                 fact_bits: Callable[[str], tuple[frozenset[int], frozenset[int]]] | None = None,
                 weak: frozenset[str] = frozenset()) -> None:
        self.q = q = question.tokens
        self.weak = weak
        self.weights, self.deferred, self.members = weights, deferred, members
        self.places, self.path_postings, self.kinds = places, path_postings, kinds
        self.walked = [t for t in q if t not in deferred]
        self.entries = frozenset(lists[ENTRY_TOKEN][0]) if ENTRY_TOKEN in lists else frozenset()
        self.candidates: set[int] | None = None
        self.nameless_known = bits is not None  # the postings of every node whose name has no word, not the candidates'
        if bits is None and fact_bits is not None and path_postings is None:
            # no warm view: the candidates' (the walked words' postings and the entries), a word's worked out once
            held = [*map(fact_bits, self.walked), posting_bits(self.entries)]
            bits = (frozenset().union(*(h[0] for h in held)), frozenset().union(*(h[1] for h in held)))
        elif bits is None:  # from the candidates
            bits = posting_bits(self.candidate_set())
        self.bits = bits
        self.index = {t: i for i, t in enumerate(q)}
        self.split_facts = name_facts if name_facts is not None else (lambda token: split_by_facts(lists[token][0]))
        self.bound = score_bounder(question, weights)
        # A word's bit is its place in the question: a phrase needs two side by side.
        self.table: list[tuple[float, int, frozenset[int], frozenset[int], frozenset[int]]] = []
        for i, token in enumerate(q):
            in_name, in_doc, in_context = members(token)
            self.table.append((weights[token], 1 << i, in_name, in_doc, in_context))
        self.q_set = frozenset(q)
        self.memo: dict[tuple, float] = {}  # nodes share their facts by the hundred: bound each set of facts once
        self.path_weights: dict[frozenset[str], float] = {}  # by a path's words: a file's nodes share them
        self.get_place = places.get if places is not None else None
        self.get_doc_words = doc_words.get if doc_words is not None and places is not None else None
        self.most_doc = sum(weights[t] for t in q if lists[t][1])
        self.in_contexts = [weights[t] for t in q if lists[t][2]]
        self.most_context = len(self.in_contexts)
        self.every_weight, self.prior = sum(weights[t] for t in q), max(KIND_PRIOR.values())
        self.most_warm = (sum(self.in_contexts), self.every_weight, self.prior) if places is not None else ()
        self.held_sets: list[tuple[set[int], set[int], set[int]]] = []
        self.splits: list[int] = []

    # --- which nodes

    def candidate_set(self) -> set[int]:
        if self.candidates is None:
            self.candidates = self.walked_postings(with_names=True)
            self.candidates |= self.entries  # in place: the walked postings are most of a large question's nodes
        return self.candidates

    def walked_postings(self, with_names: bool) -> set[int]:
        """The walked words' postings (with their names' or not: those are all named), and the nodes of a
        deferred word's postings whose path holds a walked word."""
        found: set[int] = set()
        for token in self.walked:
            in_name, in_doc, in_context = self.members(token)
            if with_names:
                found |= in_name
            found |= in_doc
            found |= in_context
        if self.path_postings is not None and self.deferred:
            for token in self.walked:
                in_path = self.path_postings.get(token)
                if in_path:
                    for lists_of_deferred in map(self.members, [t for t in self.deferred if t not in self.weak]):
                        for held in lists_of_deferred:
                            found |= held & in_path
        return found

    def name_parts(self) -> tuple[dict[int, list[list]], set[int]]:
        """Nodes with walked words in their name, by which words and the facts of their postings (facts ->
        [[indexes of its name words, nodes]]): one set operation per word and part, not one step per posting.
        Deferred words refine the parts (their nodes are candidates already); a node named by deferred words
        only is in the group of the rest. And every node a walked word names."""
        parts: dict[int, list[list]] = defaultdict(list)
        named: set[int] = set()
        for token in self.walked:
            _refine(parts, self.index[token], self.split_facts(token))
            named |= self.members(token)[0]
        for token in self.deferred:
            in_name = self.members(token)[0]
            for rows in parts.values():
                for row in rows[:]:
                    both = row[1] & in_name
                    if both:
                        row[1] -= both
                        rows.append([(*row[0], self.index[token]), both])
        return parts, named

    def entries_apart(self, parts: dict[int, list[list]], named: set[int]) -> list[int]:
        """The entry nodes, taken out of `parts`: an entry-point question adds them, each bounded on its own."""
        alone: list[int] = []
        for rows in parts.values():
            for row in rows:
                held = row[1] & self.entries
                if held:
                    row[1] -= held
                    alone += held
        alone += self.entries - named
        return alone

    def nameless(self, named: set[int]) -> set[int]:
        """The nodes whose name has no word (`_`): it can be exact (`Owner._` for "Owner"), so those few are
        bounded one by one. Given the view's, every one of them that holds a question word (a candidate, or a
        node of a deferred word's postings) is, so no node left out is nameless; else they are the candidates'."""
        no_word = set(self.bits[1] - named - self.entries)
        if self.nameless_known and no_word:
            held_any: set[int] = set()
            for token in self.q:
                if token in self.weak:
                    continue
                for held in self.members(token):
                    held_any |= no_word & held
            no_word = held_any
        return no_word

    # --- bounds

    def bound_each(self, values: Iterable[int]) -> dict[int, float]:
        """Each node's own bound, by posting value."""
        weights, q, q_set, table, entries = self.weights, self.q, self.q_set, self.table, self.entries
        memo, path_weights, bound = self.memo, self.path_weights, self.bound
        get_place, get_doc_words = self.get_place, self.get_doc_words
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
            place = get_place(value >> FACT_BITS) if get_place is not None else None
            if place is None:
                key: tuple = (name_weight, name_matched, value & NAME_FACTS, doc_weight, context_matched,
                              value & SECONDARY, value in entries, adjacent)
            else:  # a warm server knows each node's path words and kind: a tighter bound
                path_words, prior = place
                path_weight = path_weights.get(path_words)
                if path_weight is None:
                    path_weight = path_weights[path_words] = sum(weights[t] for t in q if t in path_words)
                if get_doc_words is None:
                    key = (name_weight, name_matched, value & NAME_FACTS, doc_weight, context_matched,
                           value & SECONDARY, value in entries, context_weight, path_weight, prior, adjacent)
                else:  # and the words of its doc (most hold none of the question's)
                    doc_has = get_doc_words(value >> FACT_BITS)
                    key = (name_weight, name_matched, value & NAME_FACTS, doc_weight, context_matched,
                           value & SECONDARY, value in entries, context_weight, path_weight, prior,
                           sum(weights[t] for t in q if t in doc_has) if doc_has and not q_set.isdisjoint(doc_has)
                           else 0.0, adjacent)
            found = memo.get(key)
            if found is None:
                found = memo[key] = bound(*key[:-1], adjacent=adjacent)
            bounds[value >> FACT_BITS] = found
        return bounds

    def one_by_one(self, values: set[int]) -> list[tuple[float, int]]:
        """[(bound, posting value)] of a few nodes, each bounded on its own."""
        bounds = self.bound_each(values)
        return [(bounds[value >> FACT_BITS], value) for value in values]

    def context_sets(self, same: set[int]) -> tuple[set[int], set[int], set[int]]:
        """Of `same`, or more: the nodes with one question word or more in their context, with two or more,
        and with any in their doc. Worked out for the group alone when it is small and among the first few
        split, else for every candidate once (a plain-words question splits many groups)."""
        self.splits.append(len(same))
        if len(same) > MANY or len(self.splits) > 4 or self.held_sets:
            if not self.held_sets:
                self.held_sets.append(self.context_sets_of(self.candidate_set()))
            return self.held_sets[0]
        return self.context_sets_of(same)

    def context_sets_of(self, same: set[int]) -> tuple[set[int], set[int], set[int]]:
        once: set[int] = set()
        twice: set[int] = set()
        in_docs: set[int] = set()
        for _w, _bit, _in_name, in_doc, in_context in self.table:
            held = same & in_context
            twice |= once & held
            once |= held
            in_docs |= same & in_doc
        return once, twice, in_docs

    # --- groups

    def group(self, weight: float, matched: int, count: int, secondary: int, entry: bool, same: set[int],
              adjacent: bool = True) -> tuple:
        """A group of nodes at its most (every doc and context word, the highest path weight and prior)."""
        return (self.bound(weight, matched, count, self.most_doc, self.most_context, secondary, entry,
                           *self.most_warm, adjacent=adjacent),
                partial(self.split, weight, matched, count, secondary, entry, same, adjacent))

    def grouped(self, parts: dict[int, list[list]]) -> list[tuple]:
        """The groups of the parts, one per set of name words: at the highest bound of its parts' facts, split by
        those facts when its turn comes."""
        by_words: dict[tuple[int, ...], list[tuple[int, set[int]]]] = defaultdict(list)
        for facts, rows in parts.items():
            for words, same in rows:
                if same:
                    by_words[words].append((facts, same))
        found = []
        for words, held in by_words.items():
            weight, matched = sum(self.weights[self.q[i]] for i in sorted(words)), len(words)
            adjacent = any(i + 1 in words for i in words)  # words: the places in the question of the name's words
            if len(held) == 1:
                facts, same = held[0]
                found.append(self.group(weight, matched, facts & NAME_FACTS, facts & SECONDARY, False, same, adjacent))
                continue
            most = max(self.bound(weight, matched, part & NAME_FACTS, self.most_doc, self.most_context,
                                  part & SECONDARY, False, *self.most_warm, adjacent=adjacent)
                       for part in {facts for facts, _ in held})
            found.append((most, partial(self.by_facts, weight, matched, held, adjacent)))
        return found

    def by_facts(self, weight: float, matched: int, rows: list[tuple[int, set[int]]], adjacent: bool) -> list[tuple]:
        return [self.group(weight, matched, facts & NAME_FACTS, facts & SECONDARY, False, same, adjacent)
                for facts, same in rows]

    def split(self, weight: float, matched: int, count: int, secondary: int, entry: bool, same: set[int],
              adjacent: bool) -> list:
        """A group's nodes by how many question words their context holds (none, one, more: then at most all
        of them: two can make a phrase with the name), and whether their doc holds any: [(bound, nodes or a
        function that splits them further)]; a group of a few nodes is bounded node by node at once:
        [(bound, posting value)]. `adjacent`: two of the group's name words stand side by side in the question."""
        if len(same) <= FEW:
            return self.one_by_one(same)
        once, twice, in_docs = self.context_sets(same)
        held_once = same & once
        found: list[tuple] = []
        for context_matched, by_context in ((0, same - held_once), (1, held_once - twice),
                                            (self.most_context, held_once & twice)):
            with_doc = by_context & in_docs
            for doc_weight, part in ((0.0, by_context - with_doc), (self.most_doc, with_doc)):
                if not part:
                    continue
                if self.places is None:
                    found.append((self.bound(weight, matched, count, doc_weight, context_matched, secondary, entry,
                                             adjacent=adjacent), part))
                    continue
                warm = (weight, matched, count, doc_weight, context_matched, secondary, entry,
                        self.context_weight(context_matched), self.path_weight(part))
                found += self.split_warm(warm, part, adjacent)
        return found

    def context_weight(self, context_matched: int) -> float:
        """The context weight of nodes with this many question words in their context, at most."""
        in_contexts = self.in_contexts
        return 0.0 if not context_matched else max(in_contexts) if context_matched == 1 else sum(in_contexts)

    def path_weight(self, part: set[int]) -> float:
        """The weight of the question words any node of `part` has in its path."""
        if self.path_postings is None:
            return self.every_weight
        return sum(self.weights[t] for t in self.q if not self.path_postings.get(t, frozenset()).isdisjoint(part))

    def split_warm(self, warm: tuple, part: set[int], adjacent: bool) -> list[tuple]:
        """A part of a group, on a warm view: at its context and path weight and the highest kind prior; then,
        with the words of each node's doc known, by kind prior and by whether the doc has words (`kinds`), when
        its turn comes: that spares bounding one by one the nodes neither a doc nor a kind prior can lift."""
        most = self.bound(*warm, self.prior, adjacent=adjacent)
        if self.path_postings is None and self.get_place is not None and len(part) > FEW:
            return [(most, partial(self.by_path, warm, part, adjacent))]
        if self.get_doc_words is None or self.kinds is None:
            return [(most, part)]
        if len(part) <= FEW:
            return self.one_by_one(part)
        return [(most, partial(self.by_kind, warm, part, adjacent))]

    def by_path(self, warm: tuple, part: set[int], adjacent: bool) -> list:
        """`part` by the weight of the question words its nodes' paths hold (a cold query's `places`, by file: a
        path word is a file's), each at that path weight: [(bound, nodes)]. A large group of a long sentence
        (the nodes holding its words in their context only) is mostly nodes whose path holds fewer words than
        the group's bound allows: bounded by file, not node by node, they wait below the rows kept."""
        get_place, path_weights, weights, q = self.get_place, self.path_weights, self.weights, self.q
        assert get_place is not None

        def weight_of(place: tuple[frozenset[str], float] | None) -> float:
            if place is None:
                return self.every_weight
            known = path_weights.get(place[0])
            if known is None:
                known = path_weights[place[0]] = sum(weights[t] for t in q if t in place[0])
            return known

        by_path_weight = getattr(self.places, "by_path_weight", None)  # a cold query's `FilePlaces`: by file
        if by_path_weight is not None:
            by_weight = by_path_weight(part, weight_of)
        else:
            by_weight = defaultdict(set)
            for value in part:
                by_weight[weight_of(get_place(value >> FACT_BITS))].add(value)
        return [(self.bound(*warm[:-1], path_weight, self.prior, adjacent=adjacent), nodes)
                for path_weight, nodes in by_weight.items()]

    def by_kind(self, warm: tuple, part: set[int], adjacent: bool) -> list:
        """`part` by kind prior and by whether the doc has words: [(bound, nodes)]."""
        found = []
        left = len(part)
        kinds = self.kinds
        assert kinds is not None
        for node_prior, of_kind in kinds[0].items():
            held = part & of_kind
            if held:
                left -= len(held)
                documented = held & kinds[1]
                found += [(self.bound(*warm, node_prior, node_doc, adjacent=adjacent), nodes) for node_doc, nodes in
                          ((None, documented), (0.0, held - documented)) if nodes]
        if left:  # a node of no kind the view knows: at the highest prior (never, from `warm`)
            found.append((self.bound(*warm, self.prior, adjacent=adjacent), part.difference(*kinds[0].values())))
        return found

    def most_of_rest(self) -> float:
        """The bound of the rest at its most: m deferred words in the name (the m heaviest), as short a name
        as holds them."""
        heaviest = sorted((self.weights[t] for t in self.deferred), reverse=True)
        return max(self.bound(sum(heaviest[:m]), m, min(max(m, 1), 7), self.most_doc, self.most_context, secondary,
                              False, *self.most_warm) for m in range(len(heaviest) + 1) for secondary in (0, SECONDARY))

    def rest(self, named: set[int], no_word: set[int]) -> list:
        """The other candidates: by the deferred words in their name, then the facts of their postings."""
        others = set(self.candidates) if self.candidates is not None else self.walked_postings(with_names=False)
        others -= named
        others -= self.entries
        others -= no_word
        by_deferred: dict[int, list[list]] = defaultdict(list)
        deferred_named: set[int] = set()
        for token in self.deferred:
            held = others & self.members(token)[0]
            if held:
                _refine(by_deferred, self.index[token], split_by_facts(held))
                deferred_named |= held
        others -= deferred_named
        found = self.grouped(by_deferred)
        # With no question word matched, a name's word count does not change its bound (which needs every
        # word matched to count): the nodes with none are split by whether they are secondary.
        secondary_part = others & self.bits[0]
        found += [self.group(0.0, 0, 1, secondary, False, same)
                  for secondary, same in ((SECONDARY, secondary_part), (0, others - secondary_part)) if same]
        return found


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


class Bounds(namedtuple("Bounds", "nodes groups bound_each left_out")):
    """A question's bounds from postings: node id -> bound; [(bound, posting values)] of the nodes bounded
    together (`bound_each` bounds them one by one) or, in place of the values, a function that splits them
    into such groups or into nodes ((bound, posting value)), each bounded no higher; the bound of any node
    left out (deferred words only)."""

    __slots__ = ()


def left_out_bound(question: Question, weights: dict[str, float], deferred: Sequence[str], warm: bool,
                   weak: frozenset[str] = frozenset()) -> float:
    """`Bounds.left_out` of `bound_postings` with these words deferred, from their weights alone (no set operation):
    a query asks it of the words it may bring in next. `warm`: with a warm view's path postings and posting bits."""
    if weak.issuperset(deferred):
        return 0.0
    return _left_out_bound(score_bounder(question, weights), [weights[t] for t in deferred], warm, not warm)


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
