"""The prose scanner's literal memo and the message words taken literal by literal: the same output as the plain
scan and the plain words of the joined text, on a first reading and on the next."""
from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from gitroute import prose
from gitroute.indexes.meaning.vocabulary import joined_words, words
from gitroute.prose import MAX_LITERAL, MAX_LITERALS, comment_family, php_comment_text, scan_prose

_ESCAPE = re.compile(r"\\(?:[nrt]|(.))")
_WORD = re.compile(r"[A-Za-z]{2,}")
_NOT_PROSE = re.compile(r"^\s*(?:https?://|[\w.-]*/[\w./-]*\s*$|[\w.-]+\.\w{1,4}\s*$)")


def _scan_as_before(text: str, lang: str) -> tuple[list[tuple[int, str]], list[tuple[int, str]]]:
    """`scan_prose` as it was before its literals were memoised (session 27), checks made on every literal."""
    messages: list[tuple[int, str]] = []
    found: list[tuple[int, str]] = []
    line, pos = 1, 0
    for match in prose._PROSE[comment_family(lang)].finditer(text):
        quoted = match.lastindex
        if quoted is None:
            comment = match.group(0)
        else:
            start, end = match.span(quoted)
            if not 12 <= end - start <= 400 or len(messages) >= MAX_LITERALS:
                continue
            value = match.group(quoted)
            if " " not in value or _NOT_PROSE.match(value):
                continue
            if "\\" in value:
                value = _ESCAPE.sub(lambda escape: escape.group(1) or " ", value)
            found_words = _WORD.findall(value)
            if len(found_words) < 3 or sum(map(len, found_words)) < 0.5 * len(value):
                continue
        line += text.count("\n", pos, match.start())
        pos = match.start()
        if quoted is None:
            found.append((line, php_comment_text(comment) if lang == "php" else comment))
        else:
            messages.append((line, value[:MAX_LITERAL]))
    return messages, found


# Pieces of source text: words, quotes and escapes, comment markers of every family, URLs and paths, non-ASCII.
_PIECES = st.sampled_from(["the", "parser", "Fails", "to", "open", "it", "x", " ", " ", "  ", "\n", "\t", '"', "'",
                           "`", "\\", '\\"', "\\n", "#", "#{", "#[", "//", "/*", "*/", "--", "http://a.io/x", "a/b.py",
                           "é", "日本", "ok.txt", "=", "(", ")", ";", "12345"])
_SOURCE = st.lists(_PIECES, max_size=120).map("".join)


@settings(max_examples=400, deadline=None)
@given(st.lists(_SOURCE, min_size=1, max_size=3), st.sampled_from(["python", "javascript", "sql", "php", "po"]))
def test_scan_prose_with_its_literal_memo_finds_what_the_plain_scan_found(texts, lang):
    for text in texts + texts:  # the second reading takes each literal's verdict from the memo
        assert scan_prose(text, lang) == _scan_as_before(text, lang)


def test_a_literal_repeated_across_files_is_judged_once_and_reads_the_same():
    text = 'msgid "the file could not be opened"\nmsgstr "le fichier n\'a pas pu être ouvert"\nx = "src/app/models/user.py"\n'
    prose._MESSAGES.clear()
    first = scan_prose(text, "po")
    assert "the file could not be opened" in prose._MESSAGES
    assert prose._MESSAGES["src/app/models/user.py"] == ""  # a path: no message, and remembered as none
    assert scan_prose(text, "po") == first == _scan_as_before(text, "po")
    assert first[0][0] == (1, "the file could not be opened")


_PART = st.lists(st.sampled_from(["Open", "the", "HTTPServer", "parse_json", "a", "B", "é", "日本", " ", "-", "x2",
                                  "URLs", "ran", "settings", "of", "9", "."]), max_size=20).map("".join)


@settings(max_examples=300, deadline=None)
@given(st.lists(_PART, max_size=6))
def test_joined_words_are_the_words_of_the_joined_text(parts):
    """No word spans the space between two parts, and one dropped letter outside ASCII joins no two."""
    assert joined_words(parts) == words(" ".join(parts))
    assert joined_words(parts) == words(" ".join(parts))  # from the memo
