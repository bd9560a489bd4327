"""Ranking: the tiered, additive symbol scorer with a per-signal breakdown, and BM25 (idf and term score).

Tiers are sized so that a higher one outweighs everything below it in practice: an exact name
beats a phrase, a phrase beats scattered name tokens, and names beat paths and docstrings.
"""
from __future__ import annotations

import math
import re
from collections import defaultdict, namedtuple
from collections.abc import Callable, Iterable, Sequence

from gitroute.text import (
    ENTRY_WORDS,
    STOP_WORDS,
    LazyPattern,
    asks_for_entry,
    normalize_name,
    question_tokens,
    stem,
    stems,
    tokenize,
)
from gitroute.text import Question as Asked

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing on the query path
if TYPE_CHECKING:
    from typing import TypeVar

    from gitroute.model import Row

    _T = TypeVar("_T")

EXACT = 100.0
VERBATIM = 5.0  # the exact name as written, `$ZodType` over `ZodType` when asked for `$ZodType`
PHRASE = 40.0
NAME = 20.0
PATH = 8.0
DOC = 5.0
ENTRY = 30.0
ASKED_CONTEXT = 12.0
KIND_PRIOR = {"class": 1.0, "struct": 1.0, "interface": 1.0, "trait": 1.0, "enum": 0.8, "object": 1.0,
              "function": 0.6, "method": 0.4, "constant": 0.5, "file": 0.5}
DEMOTE = 0.4  # tests, fixtures, examples, vendored code and docs, unless the question asks for them
# The tier of each additive signal, the one table `text_scorer` scores with and `score_bounder` bounds with: a tier
# changed here changes the score and its bound together. owner_tokens and path_tokens share a tier, which the
# bound relies on (it bounds their sum as one share of the question).
TIERS: dict[str, float] = {
    "exact_name": EXACT, "verbatim": VERBATIM, "phrase": PHRASE, "name_tokens": NAME, "owner_tokens": PATH,
    "path_tokens": PATH, "doc_tokens": DOC, "entry_point": ENTRY, "asked_context": ASKED_CONTEXT,
}
assert TIERS["owner_tokens"] == TIERS["path_tokens"]

# Path parts that mark a file as secondary, and the question words that lift the demotion. A .NET solution names
# its test projects after the project they test (`Newtonsoft.Json.Tests/`, `Acme.UnitTests/`).
_SECONDARY_FOLDERS = ("tests?|testing|spec|specs|__tests__|fixtures?|examples?|samples|demos?|vendor|vendored|"
                      "third_party|thirdparty|external|node_modules|docs?|benchmarks?")
_SECONDARY_FILES = (r"(^|/)[^/]+\.(unit|integration|functional)?(tests?|specs?|benchmarks?)/|(^|/)(test_[^/]*|"
                    r"[^/]*_test\.[a-z]+|[^/]*\.test\.[a-z]+|[^/]*\.spec\.[a-z]+|conftest\.py|[^/]*\.d\.[cm]?ts|"
                    r"[^/]*\.min\.js)$")
_SECONDARY = re.compile(rf"(^|/)({_SECONDARY_FOLDERS}|dist)(/|$)|{_SECONDARY_FILES}")
_SECONDARY_BUT_DIST = re.compile(rf"(^|/)({_SECONDARY_FOLDERS})(/|$)|{_SECONDARY_FILES}")
ASKS_SECONDARY = frozenset({"test", "tests", "tested", "testing", "spec", "fixture", "fixtures", "example", "examples",
                            "sample", "demo", "vendor", "vendored", "doc", "docs", "documentation", "benchmark",
                            "conftest"})


class Question(namedtuple("Question", "text tokens identifier wants_entry wants_secondary asked_context")):
    """A question, tokenized once: what it matches and what it asks for.

    text: str; tokens: tuple[str, ...], content tokens, stemmed, deduplicated, in order;
    identifier: str | None, the normalized name when the question is one identifier;
    wants_entry: bool; wants_secondary: bool (it names tests, examples, docs, ...);
    asked_context: frozenset[str], those words stemmed ("test"), which a path may hold.
    """

    __slots__ = ()


_IDENTIFIER = LazyPattern(r"[A-Za-z_$][\w$]*")


def parse_question(text: str) -> Question:
    """What the symbol tiers take from a question (once per `text.Question`: a question handed down keeps it)."""
    if isinstance(text, Asked):
        return text.parsed(parse_question, lambda: _parse_question(text))
    return _parse_question(text)


def _parse_question(text: str) -> Question:
    words = text.split()
    single = len(words) == 1
    wants_entry = asks_for_entry(text) and not single
    if single:
        # One identifier: every part is part of a name, even `for` in `url_for`.
        tokens = list(question_tokens(text))
    else:
        tokens = []
        for word in words:
            parts = tokenize(word)
            # A letter alone is no word ("a", "x"), but one split off an identifier is part of its name (the `P`
            # of `additionalKeysP`, which names keep).
            keeps_letters = len(parts) > 1 and _IDENTIFIER.fullmatch(word) is not None
            tokens += [t for t in parts if t not in STOP_WORDS and (keeps_letters or not (len(t) == 1 and t.isalpha()))]
        if wants_entry:
            tokens = [t for t in tokens if t not in ENTRY_WORDS]
    if single and asks_for_entry(text) and tokens == ["main"]:
        wants_entry = True
    asked = set(question_tokens(text)) & ASKS_SECONDARY
    return Question(
        text=text,
        tokens=tuple(dict.fromkeys(stem(t) for t in tokens)),
        identifier=normalize_name(words[0]) if single else None,
        wants_entry=wants_entry,
        wants_secondary=bool(asked),
        asked_context=frozenset(stem(t) for t in asked),
    )


def base_name(name: str, kind: str) -> str:
    """The name a node is matched by: a file's without its extension (`sessions` for sessions.py)."""
    return name.rsplit(".", 1)[0] if kind == "file" else name


def idf(df: int, total: int) -> float:
    """BM25's idf of a word in `df` postings of `total` nodes, never negative: a word's name, doc and context
    postings together can outnumber the nodes (`rack` in rack, `django` in django), and a negative weight would
    make a name that holds the word score below one that does not."""
    return bm25_idf(min(df, total), total)


def bm25_idf(df: int, n: int) -> float:
    """BM25's idf of a term in `df` of `n` documents (Lucene's form, never negative)."""
    return math.log(1.0 + (n - df + 0.5) / (df + 0.5))


BM25_K1, BM25_B = 1.2, 0.75  # BM25's saturation and length normalisation (`meaning.ranking` inlines the term)


def bm25_term(tf: int, dl: int, avgdl: float, idf: float, k1: float = BM25_K1, b: float = BM25_B) -> float:
    """One term's BM25 contribution to a document of length `dl` where it occurs `tf` times."""
    if tf <= 0:
        return 0.0
    norm = k1 * (1.0 - b + b * dl / avgdl) if avgdl > 0 else k1
    return idf * tf * (k1 + 1.0) / (tf + norm)


_BUILT_EXT = re.compile(r"(\.d)?\.[cm]?js$|\.d\.[cm]?ts$|\.js\.map$")
_SOURCE_EXT = re.compile(r"\.(?:[cm]?ts|tsx)$")
_BUILT_DIR = re.compile(r"(^|/)(dist|build|out|lib-esm|esm|cjs|min)/|^browser/")  # browser/: a package's own build
_JS_SOURCE = re.compile(r"\.[cm]?js$")


def built_copies(paths: Sequence[str]) -> frozenset[str]:
    """Paths that are built output of another file here: `.js`/`.cjs`/`.d.ts` beside (or mirroring, under
    `src/`) the `.ts` they were compiled from, anything under `dist/` or `build/` when sources exist, minified files.

    `v4/core/util.cjs` is a copy of `src/v4/core/util.ts`; an index that ranks both shows the copy first half
    the time. A plain JavaScript project (no `.ts` of the same stem) keeps its `.js`, unless its sources are under
    `src/` and bundled into a built folder (Luxon's `build/es6/luxon.mjs` holds every module of `src/` again, five
    bundles that took the first five rows of its questions; Moment's `moment.js` and `locale/*.js` beside
    `src/moment.js` and `src/locale/*.js`, and `min/`); a `build/` with no `src/` beside it is the code (yargs).
    """
    bundled = any(path.startswith("src/") and _JS_SOURCE.search(path) for path in paths)
    every = frozenset(paths)
    sources: set[str] = set()
    for path in paths:
        if _SOURCE_EXT.search(path) and not path.endswith((".d.ts", ".d.cts", ".d.mts")):
            stem_ = _SOURCE_EXT.sub("", path)
            sources.add(stem_)
            if stem_.startswith("src/"):
                sources.add(stem_[4:])
    built: set[str] = set()
    for path in paths:
        if path.endswith((".min.js", ".min.css", ".min.mjs")):
            built.add(path)
            continue
        if not _BUILT_EXT.search(path):
            continue
        stem_ = _BUILT_EXT.sub("", path)
        in_built = in_built_folder(path)
        if stem_ in sources or (sources and in_built) or (bundled and in_built and not path.startswith("src/")):
            built.add(path)
            continue
        if bundled and f"src/{path}" in every:  # Moment's `moment.js` and `locale/af.js`: `src/`'s, bundled
            built.add(path)
            continue
        # `dist/v4/core/util.js` mirrors `src/v4/core/util.ts`
        parts = stem_.split("/")
        if len(parts) > 1 and parts[0] in ("dist", "build", "out", "lib") and "/".join(parts[1:]) in sources:
            built.add(path)
    return frozenset(built)


def is_secondary(path: str) -> bool:
    return _SECONDARY.search(path.lower()) is not None


# A test folder's documents are fixtures its tests read (Mako's test/templates/internationalization.html, a Markdown
# parser's test cases), not the project's documentation; not its README, which says how the tests run.
_FIXTURE_FOLDER = LazyPattern(r"(?:^|/)(?:tests?|testing|specs?|__tests__|fixtures?|testdata)/")


def is_fixture(path: str) -> bool:
    """Whether a document is a test's fixture (libyaml's tests/ReadMe.md is not: it says how the tests run)."""
    lower = path.lower()
    return _FIXTURE_FOLDER.search(lower) is not None and not lower.rpartition("/")[2].startswith("readme")


def secondary_but_dist(path: str) -> bool:
    """`is_secondary` with `dist/` as code: for a repository whose code is all there (`meaning.postings.
    repository_secondary`)."""
    return _SECONDARY_BUT_DIST.search(path.lower()) is not None


def the_sources(paths: Sequence[str]) -> list[str]:
    """Of the files that define one name, those that are its source: the ones outside built folders when two or more
    are in them (Luxon's `build/amd/luxon.js`, `build/es6/luxon.mjs` beside `src/impl/util.js`; one there may be the
    code, kept); JavaScript's `src/` ones when the rest are the bundle at the top and built copies (Moment's
    `moment.js`, `min/`, `dist/`)."""
    built = {p for p in paths if in_built_folder(p)}
    twins = esm_cjs_twins(built)
    if twins and all(p in twins or ("/" not in p and _JS_SOURCE.search(p)) for p in paths):
        return [p for p in paths if p in twins]  # EJS's `lib/esm/` and `lib/cjs/`, bundled into `ejs.js` at the top
    kept = list(paths) if len(built) < 2 or len(built) == len(set(paths)) else [p for p in paths if p not in built]
    in_src = [p for p in kept if p.startswith("src/")]
    if in_src and any("/" not in p for p in kept) and all(
            _JS_SOURCE.search(p) and (p.startswith("src/") or "/" not in p or in_built_folder(p)) for p in kept):
        return in_src
    return kept


_DUAL = re.compile(r"(?:^|/)(esm|cjs|commonjs)/")
_JS_EXT = re.compile(r"\.(?:d\.)?[cm]?[jt]s$")  # and its declarations, built beside it (`index.d.ts`)


def esm_cjs_twins(paths: Iterable[str]) -> set[str]:
    """Of `paths`, those built twice from one source, the ES modules' and the CommonJS' copy both present: the same
    path but for its `esm`/`cjs`/`commonjs` folder and its extension (`lib/esm/utils.js`, `lib/cjs/utils.js`)."""
    keyed: dict[str, dict[str, str]] = {}
    for path in paths:
        found = _DUAL.search(path)
        if found is not None and _JS_EXT.search(path):
            key = _JS_EXT.sub("", path[:found.start(1)] + "*" + path[found.end(1):])
            keyed.setdefault(key, {})[found.group(1)[:3]] = path  # `commonjs` is `cjs` (minimatch's dist/commonjs)
    return {p for group in keyed.values() if len(group) == 2 for p in group.values()}


def in_built_folder(path: str) -> bool:
    """Under a folder builds are written to (`build/`, `out/`, `esm/`, `cjs/`, `dist/`): a copy when the source is
    beside it, the code itself when it is all there is (yargs as npm publishes it: `build/lib/`)."""
    return _BUILT_DIR.search(path) is not None


# A folder a project keeps one version of its documentation in (league/commonmark's docs/1.6 … docs/2.7, `v3/`).
_VERSION_FOLDER = LazyPattern(r"/v?(\d+(?:\.\d+)+|(?<=v)\d+)/")


def newest_copies_first(rows: list[_T], place: Callable[[_T], tuple[str, str]]) -> list[_T]:
    """`rows` with the copies of one page in several version folders (the same path but for that folder, the same
    section title: `place` gives both) answered by the newest version's where the first of them stands; the older
    ones after every other row. A reader asking how it works today means the newest."""
    found: dict[tuple[str, str], list[tuple[tuple[int, ...], int]]] = {}
    for i, row in enumerate(rows):
        path, title = place(row)
        where = "/" + path  # a version folder at the top has a slash before it too
        folder = _VERSION_FOLDER.search(where)
        if folder is not None:
            version = tuple(int(n) for n in folder.group(1).split("."))
            found.setdefault((where[:folder.start()] + "/*/" + where[folder.end():], title), []).append((version, i))
    newest_at: dict[int, int] = {}  # the first place of a page's copies -> its newest copy
    copies: set[int] = set()
    for group in found.values():
        if len(group) > 1:
            newest_at[min(i for _, i in group)] = max(group)[1]
            copies.update(i for _, i in group)
    if not copies:
        return rows
    ordered = [rows[newest_at[i]] if i in newest_at else rows[i] for i in range(len(rows))
               if i in newest_at or i not in copies]
    return ordered + [rows[i] for i in sorted(copies - set(newest_at.values()))]


def _run_length(words: Sequence[str], at: int, position: dict[str, int]) -> int:
    """How many of `words[at:]` stand in a row in the question whose word positions are `position`."""
    start = position.get(words[at])
    if start is None:
        return 0
    n = 1
    while at + n < len(words) and position.get(words[at + n]) == start + n:
        n += 1
    return n


class NodeText(namedtuple("NodeText", "name_stem owner kind_prior secondary exact_keys all_words content_words "
                                       "path_tokens doc_tokens path_stems")):
    """What `score_node` reads from a node's text, whatever the question: tokenized once, kept by a warm server.

    name_stem, owner: str; kind_prior: float; secondary: bool (is_secondary(path));
    exact_keys: (the name's normalized form, the owner's and the name's);
    all_words, content_words: (name tokens, name set, owner tokens, owner set less the name's), the first
    with stop words (an identifier question keeps them), the second without;
    path_tokens, doc_tokens, path_stems: frozenset[str].
    """

    __slots__ = ()


def node_text(*, path: str, name: str, kind: str, doc: str, owner: str = "", shared: dict | None = None,
              doc_words: frozenset[str] | None = None) -> NodeText:
    """`shared`: what a node's path, name and owner give it, by path, name and owner, kept across calls (a warm
    server's): a file's nodes share their path, a class's methods their owner, and names repeat (`__init__`).
    `doc_words`: `stems(doc)` as a set, when the caller has it (a warm server decoded every node's)."""
    name_stem = base_name(name, kind)
    by_path, by_name, by_owner = text_parts(path, name_stem, kind, owner, shared)
    secondary, in_path, path_stems = by_path
    short = by_name[0]
    return NodeText(
        name_stem, owner, KIND_PRIOR.get(kind, 0.0), secondary,
        (short, by_owner[0] + short),
        _words(by_name[1], by_owner[1]), _words(by_name[2], by_owner[2]),
        in_path, doc_words if doc_words is not None else frozenset(stems(doc)) if doc else frozenset(), path_stems,
    )


def text_parts(path: str, name_stem: str, kind: str, owner: str, shared: dict | None) -> tuple:
    """What `node_text` takes from a node's path, name and owner (kept in `shared`): a warm server works them
    out for every node when it pins, so a question's new nodes tokenize nothing."""
    by_path = shared.get((path, kind == "file")) if shared is not None else None
    if by_path is None:
        by_path = (is_secondary(path), path_words(path, kind), frozenset(stems(path)))
        if shared is not None:
            shared[(path, kind == "file")] = by_path
    # A question drops its stop words, so the name must too: `test_open_session_with_endpoint`
    # stands in "test open session with endpoint" as a whole phrase.
    return by_path, _name_words(name_stem, True, shared), _name_words(owner, False, shared)


def _name_words(text: str, is_name: bool, shared: dict | None) -> tuple:
    """A name's (or an owner's) normalized form, and (its words, their set) with stop words and without:
    without, a name keeps them all rather than none."""
    key = ("name" if is_name else "owner", text)
    found = shared.get(key) if shared is not None else None
    if found is None:
        tokens = stems(text) if text else []
        content = [t for t in tokens if t not in STOP_WORDS] or (tokens if is_name else [])
        words = (tuple(tokens), frozenset(tokens))
        # Most names have no stop word: one pair serves both (a warm server keeps one per name and owner).
        found = (normalize_name(text), words, words if len(content) == len(tokens) else
                 (tuple(content), frozenset(content)))
        if shared is not None:
            shared[key] = found
    return found


def path_words(path: str, kind: str) -> frozenset[str]:
    """The words a node's path gives it: a file's folders; a symbol's folders and its file's name (`string`
    in `coerce.ts`)."""
    folder, _, base = path.rpartition("/")
    return frozenset(stems(folder)) | (frozenset(stems(base.split(".", 1)[0])) if kind != "file" else frozenset())


def _words(name: tuple[tuple[str, ...], frozenset[str]], owner: tuple[tuple[str, ...], frozenset[str]]) -> tuple:
    """(name tokens, name set, owner tokens, owner set less the name's)."""
    return name[0], name[1], owner[0], owner[1] if owner[1].isdisjoint(name[1]) else owner[1] - name[1]


def score_node(
    question: Question,
    weights: dict[str, float],
    *,
    path: str,
    name: str,
    kind: str,
    doc: str,
    entry: bool,
    owner: str = "",
) -> tuple[float, tuple[tuple[str, float], ...]]:
    """Score one node; returns the total and each signal's contribution (zero signals left out)."""
    return score_text(question, weights, node_text(path=path, name=name, kind=kind, doc=doc, owner=owner), entry)


def score_text(
    question: Question, weights: dict[str, float], node: NodeText, entry: bool
) -> tuple[float, tuple[tuple[str, float], ...]]:
    """`score_node` of a node's text tokenized beforehand (`node_text`)."""
    return text_scorer(question, weights)(node, entry)


def text_scorer(
    question: Question, weights: dict[str, float]
) -> Callable[[NodeText, bool], tuple[float, tuple[tuple[str, float], ...]]]:
    """`score_text` for one question: what it takes from the question alone is worked out once, not per node."""
    q = question.tokens
    weighted, total_weight = question_weights(question, weights)
    q_set = set(q)
    position = {t: i for i, t in enumerate(q)}
    identifier = question.identifier
    text = question.text.strip()
    wants_entry, asked_context, wants_secondary = question.wants_entry, question.asked_context, question.wants_secondary
    exact_tier, verbatim_tier, phrase_tier, name_tier, owner_tier, path_tier, doc_tier, entry_tier, context_tier = (
        TIERS[s] for s in ("exact_name", "verbatim", "phrase", "name_tokens", "owner_tokens", "path_tokens",
                           "doc_tokens", "entry_point", "asked_context"))

    def score(node: NodeText, entry: bool) -> tuple[float, tuple[tuple[str, float], ...]]:
        signals: list[tuple[str, float]] = []
        name_tokens, name_set, owner_tokens, owner_set = (
            node.all_words if identifier is not None else node.content_words)

        # An exact name spells the question with the same words (`open_meteo` for `OpenMeteo`): the
        # name's words, or the owner's and the name's, are the question's, which `score_bounder` can see.
        if identifier is not None and name_set <= q_set <= name_set | set(owner_tokens) and (
            identifier in node.exact_keys
        ):
            signals.append(("exact_name", exact_tier))
            if text in (node.name_stem, f"{node.owner}.{node.name_stem}"):
                signals.append(("verbatim", verbatim_tier))
        # A text that holds no question word adds nothing: most scored nodes match in one or two places, and
        # the sums below walk the question only where there is something to add (in its order, as always).
        elif not name_tokens or not q_set.isdisjoint(name_set):
            phrase = _phrase_share(q, name_tokens, owner_tokens, position)
            if phrase:
                signals.append(("phrase", round(phrase_tier * phrase, 3)))

        in_name = not q_set.isdisjoint(name_set)
        matched_name = sum(w for t, w in weighted if t in name_set) if in_name else 0
        if matched_name:
            coverage = len(name_set & q_set) / len(name_set)
            signals.append(("name_tokens", round(name_tier * matched_name / total_weight * (0.5 + 0.5 * coverage), 3)))

        in_owner = not q_set.isdisjoint(owner_set)
        matched_owner = sum(w for t, w in weighted if t in owner_set) if in_owner else 0
        if matched_owner:
            signals.append(("owner_tokens", round(owner_tier * matched_owner / total_weight, 3)))

        if not q_set.isdisjoint(node.path_tokens):
            # the name's and the owner's words count there, not here
            matched_path = _path_weight(weighted, node.path_tokens, name_set, owner_set, in_name or in_owner)
            if matched_path:
                signals.append(("path_tokens", round(path_tier * matched_path / total_weight, 3)))

        if node.doc_tokens and not q_set.isdisjoint(node.doc_tokens):
            matched_doc = _doc_weight(weighted, node, name_set)
            if matched_doc:
                signals.append(("doc_tokens", round(doc_tier * matched_doc / total_weight, 3)))

        if wants_entry and entry:
            signals.append(("entry_point", entry_tier))

        if asked_context and signals and node.secondary and asked_context & node.path_stems:
            # "test sessions": the tests of sessions, not the sessions code the tests share words with.
            signals.append(("asked_context", context_tier))

        if not signals:
            return 0.0, ()
        signals.append(("kind_prior", node.kind_prior))
        total = sum([value for _, value in signals])
        if not wants_secondary and node.secondary:
            demoted = round(total * (DEMOTE - 1.0), 3)
            signals.append(("secondary_path", demoted))
            total += demoted
        return round(total, 3), tuple(signals)

    return score


def question_weights(question: Question, weights: dict[str, float]) -> tuple[list[tuple[str, float]], float]:
    """(each question word with its weight, in the question's order; their sum, or 1.0 for none): the shares
    `text_scorer` scores and `score_bounder` bounds are of this one total."""
    weighted = [(t, weights.get(t, 1.0)) for t in question.tokens]  # in the question's order: sums add up alike
    return weighted, sum(w for _, w in weighted) or 1.0


def _path_weight(weighted: Sequence[tuple[str, float]], path_tokens: frozenset[str], name_set: frozenset[str],
                 owner_set: frozenset[str], named: bool) -> float:
    """The weight of the question words a node's path holds, less its name's and owner's when they match."""
    if named:
        return sum(w for t, w in weighted if t in path_tokens and t not in name_set and t not in owner_set)
    return sum(w for t, w in weighted if t in path_tokens)


def _doc_weight(weighted: Sequence[tuple[str, float]], node: NodeText, name_set: frozenset[str]) -> float:
    """The weight of the question words a node's doc holds."""
    doc_tokens = node.doc_tokens
    if node.owner and node.owner.rpartition(".")[2] == node.name_stem:
        # A constructor (C#, Java, C++) carries its class's name, and its doc names the class again ("a new
        # instance of JValue"): words its name matched add nothing there, so the class comes first.
        return sum(w for t, w in weighted if t in doc_tokens and t not in name_set)
    return sum(w for t, w in weighted if t in doc_tokens)


_UNINDEXED_DOC_STEMS = frozenset(stem(w) for w in STOP_WORDS)
BOUND_SLACK = 0.01  # above the rounding of each signal (to 3 decimals) and of the total
# Added to a name's word count (`score_bounder`'s name_count) when none of its words is a stop word: a sentence's
# scored name, which drops stop words, then has that count too, so its coverage is known.
CONTENT_NAME = 16


def score_bounder(question: Question, weights: dict[str, float]) -> Callable[..., float]:
    """A function that bounds `score_node` from above for one node, from what its postings say.

    It takes, for a node: name_weight and name_matched (the weight and number of question words
    in its name postings), name_count (its name's word count, capped at 7, plus CONTENT_NAME when none of them is
    a stop word; a caller that does not know counts them as stop words), doc_weight (of the
    question words in its doc postings), context_matched (how many are in its context postings),
    secondary and entry; and, when the caller knows them (a warm server keeps every node record),
    context_weight (of those context words), path_weight (of the question words in `node_text`'s
    path_tokens), the node's kind_prior and the weight of the question words its doc holds. A caller that skips
    some postings counts their words as present. Names
    are cut at 200 characters in the records `score_node` reads; the bound holds for every name
    no longer than that. Each signal's bound is argued beside it; tests check it on real bundles.
    """
    q = question.tokens
    asked = len(q)
    _, total_weight = question_weights(question, weights)
    # Question words a doc's postings never hold: stop words and single characters are not indexed.
    unindexed = sum(weights.get(t, 1.0) for t in q if len(t) <= 1 or t in _UNINDEXED_DOC_STEMS)
    identifier = question.identifier is not None
    fixed = (TIERS["entry_point"] if question.wants_entry else 0.0,
             TIERS["asked_context"] if question.asked_context else 0.0)
    exact_tier, phrase_tier, name_tier, doc_tier = (TIERS["exact_name"] + TIERS["verbatim"], TIERS["phrase"],
                                                    TIERS["name_tokens"], TIERS["doc_tokens"])
    rest_tier = TIERS["owner_tokens"]  # = path_tokens' tier: their sum is bounded as one share
    demote = DEMOTE if not question.wants_secondary else 1.0
    kind_prior = max(KIND_PRIOR.values())

    def bound(name_weight: float, name_matched: int, name_count: int, doc_weight: float, context_matched: int,
              secondary: bool, entry: bool, context_weight: float | None = None, path_weight: float | None = None,
              node_prior: float | None = None, node_doc: float | None = None, adjacent: bool = True) -> float:
        name_count, content_name = name_count & 7, name_count & CONTENT_NAME
        share = min(name_weight / total_weight, 1.0)
        # A phrase is two or more distinct question words in a row: a run of the name's words (at
        # most name_matched of them), or the whole name after words of its owner (context postings).
        # A run needs two of the name's question words next to each other in the question (`adjacent`, when
        # the caller knows which words the name holds); without, a name of two question words or more
        # cannot stand whole after its owner's words either, so it makes no phrase at all.
        whole_name = name_matched >= name_count
        in_a_row = name_matched >= 2 and adjacent
        if identifier:
            # The scored name keeps its stop words, so its words are its postings' words: exact_name
            # needs all of them in the question, and the question's other words in the owner.
            exact = whole_name and name_matched + context_matched >= asked
            coverage = min(name_matched / name_count, 1.0) if name_count else 1.0
            phrase = 1.0 if whole_name and context_matched else (coverage if in_a_row else 0.0)
        else:
            exact = False
            # The scored name drops stop words, which the postings' count keeps: a name with none has the count's
            # words (at least 7 of them when the count stops there); one with some, as few as the matched ones.
            coverage = min(name_matched / name_count, 1.0) if content_name and name_count else 1.0
            phrase = 1.0 if in_a_row or (name_matched < 2 and context_matched and name_matched + context_matched >= 2
                                         ) else 0.0
        total = exact_tier if exact else (phrase_tier * phrase if asked >= 2 else 0.0)
        # name_tokens grows with the name's share of the question faster (NAME / 2 > PATH) than
        # owner_tokens and path_tokens, which share the rest, shrink: the largest share bounds all three.
        if name_weight:
            total += name_tier * share * (0.5 + 0.5 * coverage)
        # Or, known the weights, owner_tokens (its words are context words) plus path_tokens.
        rest = 1.0 - share
        if context_weight is not None and path_weight is not None:
            rest = min(rest, (context_weight + path_weight) / total_weight)
        total += rest_tier * rest
        # doc_tokens: the doc postings leave out the name's words and the unindexed ones; `node_doc` is the
        # weight of the question words in the words of the node's doc, as `node_text` takes them.
        total += doc_tier * (min((doc_weight + name_weight + unindexed) / total_weight, 1.0) if node_doc is None
                        else node_doc / total_weight)
        total += kind_prior if node_prior is None else node_prior
        if entry:
            total += fixed[0]
        if secondary:
            total = (total + fixed[1]) * demote
        return total + BOUND_SLACK

    return bound


def _phrase_share(q: Sequence[str], name: Sequence[str], owner: Sequence[str],
                  position: dict[str, int] | None = None) -> float:
    """How much of a name stands in the question as a phrase (two words or more, in order).

    The name alone counts (`open session` in `open_session`), and so does the name with the end
    of its owner before it (`url pattern resolve` for `URLPattern.resolve`), over the qualified length.
    A question's words are distinct, so a run of words stands in it only from the position of its first.
    """
    if position is None:  # `text_scorer` passes the question's, made once
        position = {t: i for i, t in enumerate(q)}
    best = 0.0
    whole = not name  # the name stands in the question in one piece (an empty name trivially)
    if name:
        run, i = 0, 0
        while i < len(name):  # the longest run: runs end where the question's order breaks
            n = _run_length(name, i, position)
            run = max(run, n)
            i += max(n, 1)
        if len(q) >= 2 and run >= 2:
            best = run / len(name)
        whole = run == len(name)
    if whole and owner:
        # The longest end of the owner that stands right before the name (or, with no name, in a row itself).
        start = position.get(name[0]) if name else None
        k = 0
        if name:
            while k < len(owner) and start is not None and position.get(owner[-1 - k]) == start - 1 - k:
                k += 1
        else:
            for j in range(len(owner)):  # owner[j:] in a row: the first such j is the longest end
                if _run_length(owner, j, position) == len(owner) - j:
                    k = len(owner) - j
                    break
        if k and k + len(name) >= 2:
            best = max(best, (k + len(name)) / (len(owner) + len(name)))
    return best


# --- one query for names and prose -----------------------------------------------------------

_IDENTIFIER_SHAPE = LazyPattern(r"[a-z][A-Z]|[A-Za-z0-9]_[A-Za-z0-9]|[.:$#]|\(\)|^[A-Z][a-z]+[A-Z]|^`")
STRONG_NAME_SIGNALS = frozenset({"exact_name", "phrase"})
# Words that ask for the entry point in so many words; "start" and "launch" are ordinary verbs in a sentence
# ("settings that start with a prefix"), which the symbol tiers' entry signal would take as the question.
ENTRY_ASKED = frozenset({"entry", "entrypoint", "main"})


ROWS_PER_FILE = 3  # in a blended answer
BLEND_SCALE = 100.0  # the best symbol row gets (1 - share) of it, the best meaning file share of it
BLEND_FLOOR = 10  # each list is scaled from the score of its 10th row (0) to its best (docs/decisions/0011)


def name_cover(text: str, row) -> tuple[int, int]:
    """(how many of the question's words the row's name and owner hold, how many words it has).

    The question's words are the symbol query's (stemmed, stop words and the words asking for an entry point
    dropped); a file's name is its base name: "where are url rules matched" against `url_rule` holds 2 of 3.
    """
    tokens = set(parse_question(text).tokens)
    if not tokens or row is None:
        return 0, len(tokens)
    owner, _, leaf = (row.name or "").rpartition(".") if row.kind != "file" else ("", "", row.name or "")
    held = set(stems(base_name(leaf, row.kind or ""))) | set(stems(owner))
    return len(tokens & held), len(tokens)


def asks_entry_in_words(text: str) -> bool:
    """A question that says "entry point", "entrypoint" or "main", not one that merely says "start"."""
    return any(t in ENTRY_ASKED for t in question_tokens(text))


def prose_share(text: str, cover: float = 0.0) -> float:
    """How much of an answer should come from BM25 over node text (the rest from the symbol tiers).

    One word, or up to four words with no stop word among them ("test open meteo client"), is a name
    lookup (0). A sentence is prose but for the share of its words that the symbol tiers' best name holds
    (`cover`, from `name_cover`) and its words shaped like identifiers (camelCase, snake_case, dotted, `()`):
    "where is the session cookie signed" is 1 before any name is seen, 1/3 when the best name is
    `session_cookie`; "where is url_for defined" 0.5 of that.
    """
    words = text.split()
    if len(words) <= 1:
        return 0.0
    lowered = [w.lower() for w in words]
    if len(words) <= 4 and not any(w in STOP_WORDS for w in lowered):
        return 0.0
    shaped = sum(1 for w in words if _IDENTIFIER_SHAPE.search(w))
    content = [w for w in lowered if w not in STOP_WORDS] or lowered
    return round((1.0 - min(max(cover, 0.0), 1.0)) * (1.0 - min(shaped / len(content), 1.0)), 3)


def _scaler(rows: Sequence, floor_rank: int) -> tuple[float, float]:
    """(floor, factor): a list's scores mapped so that its `floor_rank`-th row gets 0 and its best 1.

    A list whose best rows are near ties (eight names that hold the same two words) then tells its rows apart
    as much as a list with a clear winner, instead of lending all of them nearly the best row's weight.
    """
    scores = sorted((r.score for r in rows), reverse=True)
    if not scores:
        return 0.0, 0.0
    floor = scores[floor_rank - 1] if len(scores) >= floor_rank else 0.0
    span = scores[0] - floor
    if span <= 0:
        floor, span = 0.0, scores[0]
    return floor, (1.0 / span if span > 0 else 0.0)


def blend_rows(symbol_rows: Sequence, meaning_rows: Sequence, share: float, limit: int) -> list:
    """One ranking from both lists, each scaled from its BLEND_FLOOR-th row (0) to its best: a symbol row gets up
    to BLEND_SCALE * (1 - share), and a file's meaning score (up to BLEND_SCALE * share) goes once to the file's
    best symbol row above the floor; the file's other rows stand on their own symbol score. A meaning row stands by
    itself for a file the symbol rows lack, or hold only at or below the floor (toolz: `juxt`, a name that shares no
    word, had taken functoolz.py's meaning score from `memoize`, the node that holds the question's words). Signals
    stay additive and sum to the score (`below_floor` is the subtracted floor)."""
    s_floor, s_factor = _scaler(symbol_rows, BLEND_FLOOR)
    m_floor, m_factor = _scaler(meaning_rows, BLEND_FLOOR)
    symbol_weight, meaning_weight = BLEND_SCALE * (1.0 - share), BLEND_SCALE * share
    meaning_by_path = {r.path: round(meaning_weight * max(r.score - m_floor, 0.0) * m_factor, 3)
                       for r in meaning_rows}
    scaled = []
    for r in symbol_rows:
        f = symbol_weight * s_factor
        signals = tuple((n, round(v * f, 3)) for n, v in r.signals)
        below = round(-min(r.score, s_floor) * f, 3)
        if signals and below:
            signals = (*signals, ("below_floor", below))
        scaled.append(r._replace(score=round(max(r.score - s_floor, 0.0) * f, 3), signals=signals))
    scaled.sort(key=lambda r: -r.score)
    mixed = []
    lent: set[str] = set()
    for r in scaled:
        if r.score <= 0.0 and r.path not in lent:
            mixed.append(r)  # at or below the symbol floor: the file's meaning row names its own best node instead
            continue
        m = meaning_by_path.get(r.path, 0.0) if r.path not in lent else 0.0
        lent.add(r.path)
        signals = (*r.signals, ("meaning", m)) if r.signals and m else r.signals
        mixed.append(r._replace(score=round(r.score + m, 3), signals=signals))
    for r in meaning_rows:
        if r.path not in lent:
            m = meaning_by_path[r.path]
            mixed.append(r._replace(score=m, signals=(("meaning", m),) if r.signals else ()))
    mixed.sort(key=lambda r: (-r.score, r.path, r.name or "", r.line or 0))
    # A sentence asks for a place: a file's best rows, not a page of one file's methods.
    kept: list = []
    per_path: dict[str, int] = defaultdict(int)
    for r in mixed:
        per_path[r.path] += 1
        if per_path[r.path] <= ROWS_PER_FILE:
            kept.append(r)
    return kept[:limit]


RRF_K = 60  # reciprocal-rank fusion's constant (Cormack et al. 2009): damps the weight of the very first ranks


def fuse_reciprocal(rankings: Sequence[Sequence[Row]], limit: int, k: int = RRF_K) -> list[Row]:
    """Rows of several rankings fused by reciprocal rank, one per path: score = sum of 1 / (k + rank).

    Each path keeps the row of the first ranking that has it; ties go to the path, for a stable order.
    """
    scores: dict[str, float] = {}
    first: dict[str, Row] = {}
    signals: dict[str, list[tuple[str, float]]] = {}
    for number, rows in enumerate(rankings):
        for rank, row in enumerate(rows, 1):
            part = 1.0 / (k + rank)
            scores[row.path] = scores.get(row.path, 0.0) + part
            first.setdefault(row.path, row)
            signals.setdefault(row.path, []).append((f"rrf_{number + 1}", round(part, 5)))
    order = sorted(scores, key=lambda path: (-scores[path], path))[:limit]
    return [first[p]._replace(score=round(scores[p], 5), signals=tuple(signals[p]) if first[p].signals else ())
            for p in order]
