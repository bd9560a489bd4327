"""The phrase tables' gates: a gated search finds what the whole pattern finds, and the gates are those of the
phrases as written (`pytest tests/test_phrases.py --update-golden` rewrites them after a phrase changes)."""
from __future__ import annotations

import pprint
import re
from pathlib import Path

import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from gitroute import phrases
from gitroute.phrases import Phrases, gate_key, necessary_words, phrase_tables

ROOT = Path(__file__).resolve().parent.parent
GATES_START = "_GATES: dict[int, Gate] = {"


def gates_of_the_phrases() -> dict[int, tuple]:
    return {gate_key(a): necessary_words(a) for table in phrase_tables().values() for a in table.alternatives}


def written_gates(gates: dict[int, tuple]) -> str:
    lines = [GATES_START]
    for key, gate in sorted(gates.items()):
        written = pprint.pformat(gate, width=104, compact=True).replace("\n", "\n" + " " * 16)
        lines.append(f"    {key}: {written},")
    return "\n".join(lines) + "\n}\n"


def test_the_gates_are_those_of_the_phrases_as_written(update_golden):
    gates = gates_of_the_phrases()
    if update_golden:
        path = ROOT / "gitroute" / "phrases.py"
        text = path.read_text(encoding="utf-8")
        start = text.index(GATES_START)
        path.write_text(text[:start] + written_gates(gates), encoding="utf-8")
        return
    assert phrases._GATES == gates, "stale gates: run pytest tests/test_phrases.py --update-golden"
    assert all(gates.values()), "a phrase no word gates is compiled for every question: give it a literal word"


def assert_same_search(table: Phrases, text: str) -> None:
    # the gated search as Phrases makes it (a subclass may add a condition of its own: `_AfterPage`)
    gated, whole = Phrases.search(table, text), table.pattern.search(text)
    assert (gated and (gated.span(), gated.group(0))) == (whole and (whole.span(), whole.group(0))), (text, table)


def bench_questions() -> list[str]:
    found = []
    for path in sorted((ROOT / "bench").glob("*.routing-bench.yaml")):
        document = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        found += [str(q["question"]) for q in document.get("questions", []) if isinstance(q, dict) and "question" in q]
    return found


def test_a_gated_search_finds_what_the_whole_pattern_finds_for_every_bench_question():
    questions = bench_questions()
    assert len(questions) > 1000
    for table in phrase_tables().values():
        for text in questions:
            assert_same_search(table, text)


# The words the phrases are made of, and a few others: texts made of them match many alternatives, and miss
# others by a letter.
_VOCABULARY = sorted({w for table in phrase_tables().values() for a in table.alternatives
                      for w in re.findall(r"[a-z]+(?: [a-z]+)?", a)} | {"url_for", "QuerySet", "it's", "X", "?"})


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(_VOCABULARY) | st.text(alphabet="abcdefghis '?.-_", max_size=6), max_size=14),
       st.sampled_from(sorted(phrase_tables())))
def test_a_gated_search_finds_what_the_whole_pattern_finds(words, name):
    text = " ".join(words)
    assert_same_search(phrase_tables()[name], text)
    assert_same_search(phrase_tables()[name], text.upper())


def test_a_question_beyond_ascii_is_searched_whole():
    # case folding matches the long s to an `s` and the Kelvin sign to a `k`: no ASCII word gate may drop them
    table = Phrases(r"\bchosen\b", r"\bkeep\b")
    assert table.search("was it cho\u017fen").group(0) == "cho\u017fen"
    assert table.search("why \u212aeep it").group(0) == "\u212aeep"
    assert table.search("was it chosen?").group(0) == "chosen"
    assert table.search("nothing here") is None


def test_necessary_words_reads_what_every_match_holds():
    assert necessary_words(r"\bwhy\b") == (("why",),)
    gate = necessary_words(r"\b(?:who|what)\s+calls?\b")
    assert gate == (("wh",), ("at", "o"), ("call",))
    assert necessary_words(r"[abc]+x?") == ()  # a class and an optional letter: nothing needed
    assert necessary_words(r"won[’']t") == (("won",), ("t",))  # the quote is a class: it needs nothing
    assert necessary_words(r"caf\u00e9s") == (("caf",), ("s",))  # a non-ASCII letter is no word
    assert necessary_words(r"(?=.*\bdocs\b)read") == (("docs",), ("read",))
    assert necessary_words(r"(?!tests)read") == (("read",),)


def test_a_warm_process_keeps_a_bounded_few_compiled_subsets():
    table = Phrases(*(rf"\bword{n}\b" for n in range(10)))
    table.gates = tuple(necessary_words(a) for a in table.alternatives)  # not in `_GATES`: gated by hand
    asked = set()
    for n in range(200):
        words = " ".join(f"word{k}" for k in range(10) if n >> k & 1)
        assert_same_search(table, words)
        asked.update(table._compiled)
    assert len(asked) == 199 and 0 < len(table._compiled) <= phrases._MOST_KEPT
