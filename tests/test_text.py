"""Tokens: tokenizer invariants on any text, identifier splitting, the stemmer's folds and stop words."""
from __future__ import annotations

import string

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from gitroute.text import (
    STOP_WORDS,
    content_tokens,
    is_code_name,
    normalize_name,
    split_identifier,
    stem,
    stems,
    tokenize,
)

# U+0130 (İ) is the one character whose lowercase is two code points, the second a combining dot
# that is not alphanumeric; the properties below leave it to its own strict xfail.
DOTTED_CAPITAL_I = "\u0130"
any_text = st.text(st.characters(exclude_characters=DOTTED_CAPITAL_I))
identifier_like_text = st.text(alphabet=string.ascii_letters + string.digits + "_-./ ", max_size=40)
lowercase_words = st.text(alphabet=string.ascii_lowercase, min_size=1, max_size=14)


# --- tokenize --------------------------------------------------------------------------------


@given(st.text())
def test_tokenize_never_raises_on_any_text(text):
    assert isinstance(tokenize(text), list)


@given(any_text)
@example("OpenMeteoClient parseHTML5Doc ÜberCafé 天气预报 x²")
def test_tokenize_returns_lowercase_alphanumeric_tokens(text):
    for token in tokenize(text):
        assert token, text
        assert token.isalnum(), (text, token)
        assert token == token.lower(), (text, token)


@given(any_text)
@example("HTTPServer_open-meteo.client/ÉCOLEPrimaire")
def test_tokenize_is_idempotent_on_its_own_output(text):
    tokens = tokenize(text)
    assert tokenize(" ".join(tokens)) == tokens


@given(identifier_like_text)
def test_tokenize_agrees_with_splitting_each_identifier(text):
    """The ASCII fast path and the general path split alike."""
    expected = [part for word in text.replace("-", " ").replace(".", " ").replace("/", " ").replace("_", " ").split()
                for part in split_identifier(word)]
    assert tokenize(text) == expected
    assert tokenize(text + " é") == expected + ["é"]  # the same text through the non-ASCII path


@given(st.one_of(any_text, st.text(alphabet=string.ascii_letters + string.digits + " _-.,:'\"()\n", max_size=120)))
@example("HTTPServer parses JSONData2XML, getURL and v8")
def test_tokenize_finds_the_words_of_the_plain_alternation(text):
    # The word pattern starts with a lookahead that lets the regex engine skip what starts no word: the words it
    # finds must be what the alternation alone finds (the pattern before it).
    import re

    plain = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")
    if text.isascii():
        assert tokenize(text) == [part.lower() for part in plain.findall(text)]
    word = re.sub(r"[^A-Za-z0-9]", "", text)[:40]
    if word:
        assert split_identifier(word) == [part.lower() for part in plain.findall(word)]
        assert normalize_name(word) == "".join(plain.findall(word)).lower()


def test_tokenize_of_dotted_capital_i_is_alphanumeric_and_idempotent():
    tokens = tokenize("İstanbul")
    assert all(token.isalnum() for token in tokens)
    assert tokenize(" ".join(tokens)) == tokens


# --- split_identifier -----------------------------------------------------------------------


@pytest.mark.parametrize("identifier, parts", [
    ("OpenMeteoClient", ["open", "meteo", "client"]),
    ("HTTPServer", ["http", "server"]),
    ("snake_case", ["snake", "case"]),
    ("kebab-case", ["kebab", "case"]),
    ("parseHTML5Doc", ["parse", "html", "5", "doc"]),
    ("IOError", ["io", "error"]),
    ("XMLHttpRequest", ["xml", "http", "request"]),
    ("__init__", ["init"]),
    ("SCREAMING_SNAKE", ["screaming", "snake"]),
    ("ÜberCafé", ["über", "café"]),
    ("ÉCOLEPrimaire", ["école", "primaire"]),
    ("天气预报", ["天气预报"]),
])
def test_split_identifier_splits_humps_acronyms_digits_and_separators(identifier, parts):
    assert split_identifier(identifier) == parts


# --- stem ------------------------------------------------------------------------------------


@pytest.mark.parametrize("words, root", [
    (["signed", "signing", "sign", "signs"], "sign"),
    (["classes", "class"], "class"),
    (["matched", "matching", "match", "matches"], "match"),
    (["sessions", "session"], "session"),
    (["applied", "applies", "apply"], "apply"),
    (["sent", "send", "sends"], "send"),
    (["stopped", "stopping", "stop"], "stop"),
    (["resolved", "resolving", "resolve"], "resolv"),
])
def test_stem_folds_plurals_past_tense_and_gerunds(words, root):
    assert {word: stem(word) for word in words} == dict.fromkeys(words, root)


@pytest.mark.parametrize("word", ["status", "bus", "analysis", "class", "data", "is"])
def test_stem_leaves_words_that_only_look_plural(word):
    assert stem(word) == word


@given(lowercase_words)
@example("settings")
def test_stem_never_empties_or_much_lengthens_a_word(word):
    stemmed = stem(word)
    assert 0 < len(stemmed) <= len(word) + 1  # only an irregular form grows: met -> meet


@pytest.mark.parametrize("family", [
    "parse parsed parses parsing",
    "setting settings set",
    "resolve resolved resolves resolving",
    "sign signed signing signs",
    "register registered registering registers",
    "parameter parameters param params",
    "request requests req",
    "initialize initialized init",
    "error errors err",
])
def test_stem_folds_a_family_of_forms_together(family):
    assert len({stem(word) for word in family.split()}) == 1, {word: stem(word) for word in family.split()}


def test_stems_stems_every_token_in_order():
    assert stems("SignedSessions matched") == ["sign", "session", "match"]


# --- normalize_name and content_tokens --------------------------------------------------------


@pytest.mark.parametrize("spelling", ["open_meteo_client", "OpenMeteoClient", "open-meteo-client",
                                      "OPEN_METEO_CLIENT", "openMeteoClient"])
def test_normalize_name_folds_case_and_separators(spelling):
    assert normalize_name(spelling) == normalize_name("OpenMeteoClient") == "openmeteoclient"


def test_normalize_name_keeps_different_names_apart():
    assert normalize_name("OpenMeteoClient") != normalize_name("OpenMeteoClients")


def test_content_tokens_drops_stop_words_and_keeps_order():
    assert content_tokens("where is the entry point of the HTTPServer") == ["entry", "point", "http", "server"]
    assert content_tokens("what does it do") == []


@given(any_text)
def test_content_tokens_are_the_tokens_that_are_not_stop_words(text):
    assert content_tokens(text) == [t for t in tokenize(text) if t not in STOP_WORDS]


def _normalize_name_as_before(name: str) -> str:
    return "".join(split_identifier(name))  # normalize_name before its memo and ASCII fast path


@given(st.one_of(any_text, st.text(alphabet=string.ascii_letters + string.digits + "_$.-:", max_size=40)))
@example("HTTPServer_v2.url_for")
@example("İstanbul_Client")
def test_normalize_name_is_what_joining_the_identifier_parts_gives_and_stays_so(name):
    # Twice: the second call is answered by the memo, which must hold the same key.
    assert normalize_name(name) == _normalize_name_as_before(name) == normalize_name(name)


@given(st.lists(st.one_of(any_text, st.sampled_from(["url_for", "URLFor", "$", "_", "a.b", "İx"])), max_size=8))
def test_normalize_names_is_the_set_of_each_words_normalised_name(words):
    from gitroute.text import normalize_names

    assert normalize_names(words) == {_normalize_name_as_before(w) for w in words}


@pytest.mark.parametrize("word, code", [
    ("Urllib3Fetcher", True), ("utf8Decode", True), ("Base64Encoder", True), ("SessionInterface", True),
    ("H2O", False), ("Python3", False), ("Session", False), ("GitHub", True),
])
def test_a_hump_after_digits_is_code_and_a_product_name_is_not(word, code):
    assert is_code_name(word) is code


@given(st.text(alphabet=string.ascii_letters + string.digits + "_$.- :", max_size=24))
@example("__init__")
@example("HTTPServer_2v")
@example("_")
def test_normalize_name_of_an_ascii_name_is_its_letters_and_digits_lowered(name):
    """An identifier's shortcut (`_` dropped, lowered) and any other ASCII name's (`_WORD`) give the same key."""
    import re

    from gitroute import text

    text._normal_memo.pop(name, None)
    assert normalize_name(name) == "".join(re.findall(r"[A-Za-z0-9]", name)).lower()
