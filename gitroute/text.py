"""Tokens: identifier splitting, stop words and the entry-point intent of a question."""
from __future__ import annotations

import re

# Camel humps (HTTPServer -> HTTP Server), digits and any non-alphanumeric run split a word.
_WORD = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")
_RUN = re.compile(r"[^\W_]+")  # maximal alphanumeric runs; `_`, `-`, `.`, `/` and spaces separate

# Words that name nothing in a question about code.
STOP_WORDS = frozenset(
    """
    a about all an and any are as at be been by can could do does doing done find for from get
    got has have how i if in into is it its me my need of on or our show tell that the their them
    then there these they this those to under use used uses using want was we were what when where
    which who whom whose why will with would you your
    """.split()
)

# Words that ask for an entry point rather than name one.
ENTRY_WORDS = frozenset({"entry", "entrypoint", "start", "starts", "main", "launch", "startup", "point"})


def split_identifier(word: str) -> list[str]:
    """Split one identifier into lowercase parts: OpenMeteoClient -> open, meteo, client."""
    if word.isascii():
        return [part.lower() for part in _WORD.findall(word)]
    return [part.lower() for part in _split_unicode(word)]


def _split_unicode(word: str) -> list[str]:
    # The regex above knows ASCII case only; this walk applies the same rules to any script.
    parts: list[str] = []
    start = 0
    for i in range(1, len(word) + 1):
        if i < len(word) and word[i].isalnum():
            prev, cur = word[i - 1], word[i]
            nxt = word[i + 1] if i + 1 < len(word) else ""
            boundary = (
                (prev.isdigit() != cur.isdigit())
                or (prev.islower() and cur.isupper())
                or (prev.isupper() and cur.isupper() and nxt.islower())
            )
            if not boundary:
                continue
        if i < len(word) and not word[i].isalnum():
            if start < i:
                parts.append(word[start:i])
            start = i + 1
            continue
        if start < i:
            parts.append(word[start:i])
        start = i
    return parts


def tokenize(text: str) -> list[str]:
    """Every identifier part of a text, lowercase, in order, stop words kept."""
    tokens: list[str] = []
    for run in _RUN.findall(text):
        tokens.extend(split_identifier(run))
    return tokens


def content_tokens(text: str) -> list[str]:
    """Tokens that can name something: stop words dropped, order kept, duplicates kept."""
    return [t for t in tokenize(text) if t not in STOP_WORDS]


def normalize_name(name: str) -> str:
    """The key an exact-name match compares: case and separators folded (open_meteo == OpenMeteo)."""
    return "".join(split_identifier(name))


def asks_for_entry(text: str) -> bool:
    """True when a question asks where something starts (entry, start, main, ...)."""
    return any(t in ENTRY_WORDS for t in tokenize(text))
