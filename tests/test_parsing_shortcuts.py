"""Extraction's shortcuts against what they stand for: a pattern's role read from the query's text, not from its
matches; the role-only captures left out of matches; a Python string literal's content without a regex."""
from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gitroute.parsing import captures, extract, grammars
from gitroute.parsing.families import QUERY_FILES
from gitroute.parsing.families.python import string_content

_ROLE = re.compile(r"@((?:definition|reference)\.\w+|impl)\b")


@pytest.mark.parametrize("lang", sorted(QUERY_FILES))
def test_each_pattern_has_one_role_and_its_facts_name_it(lang: str) -> None:
    """`run_query` takes a pattern's role from its text: every shipped pattern must name exactly one."""
    query = grammars.tag_query(lang)
    assert query is not None
    source = grammars.query_source(lang).encode("utf-8")
    facts = captures._pattern_facts(lang, query)
    for pattern in range(query.pattern_count):
        text = source[query.start_byte_for_pattern(pattern):query.end_byte_for_pattern(pattern)].decode("utf-8")
        code = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith(";"))
        roles = set(_ROLE.findall(code))
        assert len(roles) == 1, (lang, pattern, roles)
        key = roles.pop()
        assert facts.roles[pattern] == (key.partition(".")[2] or key, key), (lang, pattern)


def test_matches_leave_out_role_only_captures_and_keep_definitions() -> None:
    from tree_sitter import QueryCursor

    src = b"import os\nclass A(B):\n    def f(self) -> T:\n        os.path.join(g())\n"
    query = grammars.tag_query("python")
    assert query is not None
    root = grammars.parser("python").parse(src).root_node
    keys = {key for _pattern, found in QueryCursor(query).matches(root) for key in found}
    assert not any(key.startswith(grammars.ROLE_ONLY_CAPTURES) for key in keys), keys
    assert {"definition.class", "definition.function", "name", "callee"} <= keys
    result = extract(src, "python")
    assert [(c.name, c.receiver) for c in result.calls] == [("join", "os.path"), ("g", "")]
    assert [r.name for r in result.imports] == ["os"]
    assert {r.name for r in result.references} == {"B", "T"}


_PY_STRING = re.compile(r"^[rRuUbBfF]{0,2}(\"\"\"|'''|\"|')(.*?)(?:\1)?$", re.DOTALL)  # what string_content replaces
_LITERAL_PARTS = st.lists(st.sampled_from(['"""', "'''", '"', "'", "r", "b", "F", "u", "x", " ", "\n", "\\", "é"]),
                          max_size=14).map("".join)


@given(st.one_of(_LITERAL_PARTS, st.text(max_size=40)))
def test_string_content_is_what_the_regex_matched(text: str) -> None:
    literal = text.strip()  # as `docstring` hands it over
    match = _PY_STRING.match(literal)
    assert string_content(literal) == (match.group(2) if match else None)


@given(st.text(alphabet=st.sampled_from("ab \t\n\r\x0b\x0c\x1c\x85\xa0\u2028\u3000"), max_size=30))
def test_split_and_join_is_the_whitespace_collapse_it_replaces(text: str) -> None:
    assert " ".join(text.split()) == re.sub(r"\s+", " ", text).strip()
