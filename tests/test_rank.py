"""The symbol scorer's pure parts: the phrase share against its plain definition, and node texts kept or not."""
from __future__ import annotations

from collections.abc import Sequence

from hypothesis import given
from hypothesis import strategies as st

from gitroute.rank import (
    PHRASE,
    _phrase_share,
    node_text,
    parse_question,
    score_bounder,
    score_node,
    score_text,
    text_scorer,
)

WORDS = st.sampled_from(["open", "session", "url", "pattern", "resolve", "get", "test", "a", "for"])


def _contiguous(needle: Sequence[str], hay: Sequence[str]) -> bool:
    n = len(needle)
    return any(tuple(hay[i:i + n]) == tuple(needle) for i in range(len(hay) - n + 1))


def _phrase_share_by_definition(q: Sequence[str], name: Sequence[str], owner: Sequence[str]) -> float:
    """Every slice of the name tried against every place in the question; every end of the owner, longest first."""
    best = 0.0
    if len(q) >= 2 and name:
        run = max((j - i for i in range(len(name)) for j in range(i + 1, len(name) + 1)
                   if _contiguous(name[i:j], q)), default=0)
        if run >= 2:
            best = run / len(name)
    for k in range(len(owner), 0, -1):
        qualified = list(owner[-k:]) + list(name)
        if len(qualified) >= 2 and _contiguous(qualified, q):
            best = max(best, len(qualified) / (len(owner) + len(name)))
            break
    return best


@given(q=st.lists(WORDS, max_size=6, unique=True), name=st.lists(WORDS, max_size=5), owner=st.lists(WORDS, max_size=4))
def test_phrase_share_is_its_definition(q, name, owner):
    assert _phrase_share(q, name, owner) == _phrase_share_by_definition(q, name, owner)


@given(question=st.lists(WORDS, min_size=1, max_size=4).map("_".join) | st.lists(WORDS, min_size=2, max_size=5).map(" ".join),
       name=st.lists(WORDS, min_size=1, max_size=4).map("_".join), owner=st.lists(WORDS, max_size=2).map("".join),
       doc=st.lists(WORDS, max_size=6).map(" ".join), kind=st.sampled_from(["function", "method", "file", "class"]),
       path=st.sampled_from(["src/url/open.py", "tests/test_session.py", "get.py"]), entry=st.booleans())
def test_a_node_text_kept_scores_as_the_node(question, name, owner, doc, kind, path, entry):
    q = parse_question(question)
    weights = {t: 1.0 + i for i, t in enumerate(q.tokens)}
    text = node_text(path=path, name=name, kind=kind, doc=doc, owner=owner)
    expected = score_node(q, weights, path=path, name=name, kind=kind, doc=doc, entry=entry, owner=owner)
    assert score_text(q, weights, text, entry) == score_text(q, weights, text, entry) == expected


NODES = st.tuples(st.lists(WORDS, min_size=1, max_size=4).map("_".join), st.lists(WORDS, max_size=2).map("".join),
                  st.lists(WORDS, max_size=6).map(" ".join), st.sampled_from(["function", "method", "file", "class"]),
                  st.sampled_from(["src/url/open.py", "tests/test_session.py", "get.py", "src/url"]), st.booleans())


@given(question=st.lists(WORDS, min_size=1, max_size=5).map(" ".join), nodes=st.lists(NODES, min_size=1, max_size=12))
def test_one_scorer_per_question_and_shared_path_words_score_as_each_node_alone(question, nodes):
    # A query scores many nodes with one text_scorer, and builds their texts with a dict of what nodes
    # share by path and owner (files and methods of one class repeat them): each scores as it would alone.
    q = parse_question(question)
    weights = {t: 1.0 + i for i, t in enumerate(q.tokens)}
    scorer, shared = text_scorer(q, weights), {}
    for name, owner, doc, kind, path, entry in nodes:
        kept = node_text(path=path, name=name, kind=kind, doc=doc, owner=owner, shared=shared)
        alone = node_text(path=path, name=name, kind=kind, doc=doc, owner=owner)
        assert kept == alone
        assert scorer(kept, entry) == score_node(q, weights, path=path, name=name, kind=kind, doc=doc, entry=entry,
                                                 owner=owner)


def test_a_name_whose_question_words_stand_apart_in_the_question_is_bounded_without_a_phrase():
    # A phrase is a run of the name's words side by side in the question: `key_session` holds two words of
    # "where is the session cookie secret key", but apart, so neither the score nor the bound has a phrase.
    question = parse_question("where is the session cookie secret key")
    weights = {t: 1.0 for t in question.tokens}
    bound = score_bounder(question, weights)
    apart = bound(2.0, 2, 2, 0.0, 0, False, False, adjacent=False)
    assert bound(2.0, 2, 2, 0.0, 0, False, False) - apart == PHRASE
    for name in ("key_session", "session_secret", "cookie_key"):
        score, signals = score_node(question, weights, path="web/app.py", name=name, kind="function", doc="", entry=False)
        assert "phrase" not in dict(signals) and score <= apart, name
    score, signals = score_node(question, weights, path="web/app.py", name="secret_key", kind="function", doc="", entry=False)
    assert "phrase" in dict(signals) and score > apart
