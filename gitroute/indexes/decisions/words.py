"""The words a decision record's rows are indexed and matched by: each token's stemmed form (`doc_tokens`) and each
word's normalised name (`normalize_name_all`), both memoised by token and word and read by `map` in C; and a
question's words as records may spell them (`split_compounds`, `words_spelled_apart`)."""
from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence

from gitroute.text import STOP_WORDS, normalize_name, stem, tokenize


def doc_tokens(text: str) -> list[str]:
    """The tokens BM25 counts: the symbol query's tokens, stemmed, stop words and single letters dropped."""
    tokens = tokenize(text)
    forms = list(map(_FORMS.get, tokens))
    if None in forms:
        forms = [_form(t) if f is None else f for t, f in zip(tokens, forms)]
    return list(filter(None, forms))


# Each token's form in `doc_tokens` (its stem, or "" when it is dropped), memoised: a build reads every word of
# every record's sections (django: about 1.4 million tokens, of some 25,000 kinds), and `stem` is Python.
_FORMS: dict[str, str] = {}


def _form(token: str) -> str:
    form = "" if token in STOP_WORDS or (len(token) == 1 and token.isalpha()) else stem(token)
    if len(_FORMS) < 1 << 18:
        _FORMS[token] = form
    return form


_IDENTIFIER = re.compile(r"[A-Za-z_$][\w$.]*")


def normalize_name_all(text: str) -> set[str]:
    """Normalised names of every identifier-looking word of a text (`url_for()` -> `urlfor`), a dotted one's
    last part too (`xarray.Variable` -> `variable`), as a question's symbol is its last part."""
    words = set(_IDENTIFIER.findall(text))
    names = _normalized(words)
    # A word with no dot inside is its own last part (a dot spells no part of a normalised name).
    names.update(_normalized([w.rstrip(".").rsplit(".", 1)[-1] for w in words if "." in w]))
    return names


# `normalize_name` of each word, memoised here and read by `map` (in C): a build names every word of every record's
# sections (django: 368,000 words, some 30,000 distinct), where a Python call per word was a tenth of the index.
_NAMES: dict[str, str] = {}


def _normalized(words: Iterable[str]) -> set[str]:
    words = list(words)
    names = list(map(_NAMES.get, words))
    if None in names:
        names = [_normal(w) if n is None else n for w, n in zip(words, names)]
    return set(names)  # type: ignore[arg-type]  # (no None is left)


def _normal(word: str) -> str:
    name = normalize_name(word)
    if len(_NAMES) < 1 << 18:
        _NAMES[word] = name
    return name


# A question word the records never spell may be two words they do: "dataclasses" and "Data Classes",
# "namedtuple" and "named tuple". Each part has at least COMPOUND_PART characters.
COMPOUND_PART = 4

ReadPostings = Callable[[Sequence[str]], dict[str, list]]  # more keys' postings, [] for a key no record holds


def split_compounds(tokens: Sequence[str], postings: dict[str, list], read: ReadPostings) -> list[str]:
    """The question's tokens, each one no record holds split in two that records hold, where it splits so."""
    unknown = [t for t in tokens if not postings[t] and len(t) >= 2 * COMPOUND_PART]
    if not unknown:
        return list(tokens)
    splits = {t: [(stem(t[:i]), stem(t[i:])) for i in range(COMPOUND_PART, len(t) - COMPOUND_PART + 1)]
              for t in unknown}
    parts = sorted({p for pairs in splits.values() for pair in pairs for p in pair} - set(postings))
    postings.update(read(parts))
    out: list[str] = []
    for token in tokens:
        pair = next((pair for pair in splits.get(token, ()) if postings[pair[0]] and postings[pair[1]]), None)
        out.extend(pair if pair else (token,))
    return list(dict.fromkeys(out))


def joined_words(apart: Mapping[str, Sequence[str]], tokens: Sequence[str]) -> dict[str, list[str]]:
    """Each word the question spells apart (`text.spelled_apart`: "start up", "JavaScript") as records would hold it
    as one -> its parts among the question's tokens."""
    wanted: dict[str, list[str]] = {}
    for whole, parts in apart.items():
        word, held = stem(whole), [stem(p) for p in parts if stem(p) in tokens]
        if held and word not in tokens:
            wanted[word] = held
    return wanted


def words_spelled_apart(apart: Mapping[str, Sequence[str]], tokens: Sequence[str], postings: dict[str, list],
                        read: ReadPostings) -> dict[str, list[str]]:
    """The joined words (`joined_words`) that records hold ("startup" in a section, for "start up"), those not
    already in `postings` read."""
    wanted = joined_words(apart, tokens)
    unread = [w for w in wanted if w not in postings]
    if unread:
        postings.update(read(unread))
    return {word: held for word, held in wanted.items() if postings[word]}


MAX_TITLED_WORDS = 3  # a heading the question says whole answers a docs question ("License", "Installation and Docs")
MIN_FORM = 3  # the shorter of two words one begins the other of, to be one word's forms ("doc", "documentation")


def titled_by(asked: Sequence[str], headings: Sequence[object]) -> bool:
    """Whether one of `headings` is a few words the question (its tokens, `asked`) all says, or longer or shorter forms
    of them (gorilla/handlers' "License" for "what license this package is distributed under", go-multierror's
    "Installation and Docs" for "how to install … where the full documentation is hosted"): asked for a section, a
    question that names one needs no more of its words in the section's text."""
    said = set(asked)
    for heading in headings:
        words = set(doc_tokens(str(heading)))
        if words and len(words) <= MAX_TITLED_WORDS and all(
                w in said or any(_one_form(w, a) for a in said) for w in words):
            return True
    return False


def _one_form(a: str, b: str) -> bool:
    """Two words one begins the other of (install/installation, doc/documentation)."""
    short, long = sorted((a, b), key=len)
    return _longer_form(long, short, MIN_FORM)


MIN_PREFIX = 4  # a heading word that begins with a question word this long is a form of it ("install", "installation")


def heading_holds(heading: set[str], words: set[str]) -> bool:
    """A heading holds one of `words`, or a longer form of one (`installation`)."""
    return not heading.isdisjoint(words) or any(_longer_form(h, w, MIN_PREFIX) for h in heading for w in words)


def _longer_form(long: str, short: str, least: int) -> bool:
    """`long` begins with `short`, at least `least` letters: a derived form the stemmer does not fold."""
    return len(short) >= least and long.startswith(short)
