"""The words a decision record's rows are indexed and matched by: each token's stemmed form (`doc_tokens`) and each
word's normalised name (`normalize_name_all`), both memoised by token and word and read by `map` in C."""
from __future__ import annotations

import re
from collections.abc import Iterable

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
