"""Bundle codecs: extracts and postings survive a round trip, and canonical JSON does not depend on dict order."""
from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gitroute.bundle.layout import decode_extract, dump_json, encode_extract
from gitroute.indexes.symbols import decode_posting, encode_posting
from gitroute.model import NODE_KINDS, FileExtract, NameRef, Symbol

lines = st.integers(min_value=1, max_value=10**6)
parents = st.integers(min_value=-1, max_value=10**4)
texts = st.text(max_size=30)

symbols = st.builds(Symbol, name=texts, kind=st.sampled_from(NODE_KINDS[1:]), line=lines, end_line=lines,
                    signature=texts, doc=texts, parent=parents, entry=st.booleans())
name_refs = st.builds(NameRef, source=parents, name=texts, line=lines)
extracts = st.builds(
    FileExtract,
    lang=st.sampled_from(["python", "rust", "go", "typescript", "markdown", ""]),
    symbols=st.lists(symbols, max_size=5).map(tuple),
    calls=st.lists(name_refs, max_size=5).map(tuple),
    imports=st.lists(name_refs, max_size=5).map(tuple),
    references=st.lists(name_refs, max_size=5).map(tuple),
    entry=st.booleans(),
    warnings=st.lists(texts, max_size=3).map(tuple),
)

# What a bundle holds: 64-bit integers, text, and no non-finite floats (JSON has none).
json_scalars = (st.none() | st.booleans() | st.integers(min_value=-(2**63), max_value=2**63 - 1) | st.text()
                | st.floats(allow_nan=False, allow_infinity=False))
json_values = st.recursive(
    json_scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20,
)


def reversed_insertion_order(value: object) -> object:
    """The same value with every dict's keys inserted in the opposite order."""
    if isinstance(value, dict):
        return {key: reversed_insertion_order(value[key]) for key in reversed(list(value))}
    if isinstance(value, list):
        return [reversed_insertion_order(item) for item in value]
    return value


@given(extracts)
def test_extract_survives_encode_and_decode(extract):
    decoded = decode_extract(encode_extract(extract))
    assert decoded == extract
    assert all(type(s.entry) is bool for s in decoded.symbols)  # ints on disk, bools again in memory
    assert type(decoded.entry) is bool


@given(extracts)
def test_extract_survives_the_bundle_json_on_disk(extract):
    assert decode_extract(json.loads(dump_json(encode_extract(extract)))) == extract


@given(json_values)
def test_dump_json_gives_the_same_bytes_whatever_the_dict_order(value):
    reordered = reversed_insertion_order(value)
    assert dump_json(reordered) == dump_json(value)
    assert json.loads(dump_json(value)) == value


@given(st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-(2**63), max_value=2**63 - 1) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20,
))
def test_dump_json_writes_the_json_modules_canonical_text(value):
    """orjson writes the bundle; the text is the json module's, so either can read or write it."""
    canonical = json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    assert dump_json(value) == canonical


def test_dump_json_is_compact_sorted_utf8():
    assert dump_json({"b": 1, "a": ["é", None]}) == '{"a":["é",null],"b":1}'.encode()


@given(st.integers(min_value=0, max_value=10**7), st.booleans(), st.integers(min_value=0, max_value=7), st.booleans())
def test_posting_survives_encode_and_decode(node_id, secondary, name_tokens, stop_free):
    assert decode_posting(encode_posting(node_id, secondary, name_tokens, stop_free)) == (
        node_id, secondary, name_tokens, stop_free)


@given(st.integers(min_value=0, max_value=10**7), st.booleans(), st.integers(min_value=8, max_value=1000))
def test_posting_caps_the_name_word_count_at_seven(node_id, secondary, name_tokens):
    assert decode_posting(encode_posting(node_id, secondary, name_tokens)) == (node_id, secondary, 7, False)


@given(st.integers(min_value=0, max_value=10**7 - 1), st.booleans(), st.booleans(),
       st.integers(min_value=0, max_value=7), st.integers(min_value=0, max_value=7), st.booleans(), st.booleans())
def test_postings_sort_by_node_id_first(node_id, secondary_a, secondary_b, count_a, count_b, free_a, free_b):
    """Postings lists are stored sorted: a smaller node id sorts first whatever the other fields."""
    assert encode_posting(node_id, secondary_a, count_a, free_a) < encode_posting(node_id + 1, secondary_b, count_b,
                                                                                 free_b)


tree_entries = st.lists(st.tuples(st.sampled_from([b"100644", b"100755", b"40000", b"160000", b"", b"1 0"]),
                                  st.binary(max_size=12), st.binary(min_size=20, max_size=20)), max_size=12)


@settings(max_examples=400)
@given(entries=tree_entries, tail=st.binary(max_size=30), cut=st.integers(0, 40))
def test_a_tree_read_by_its_patterns_is_the_tree_parse_tree_reads(entries, tail, cut):
    # A bundle folder's tree is read by two regular expressions (`store.Tree`, thousands of entries in C); what it
    # finds, and what it refuses as malformed, is what the entry-by-entry reader (`parse_tree`) finds and refuses,
    # on well-formed trees, names with spaces or odd bytes, a tree cut short and bytes left over.
    from gitroute.bundle.store import Tree, parse_tree
    from gitroute.bundle.validate import BadValue

    raw = b"".join(mode + b" " + name.replace(b"\0", b"") + b"\0" + oid for mode, name, oid in entries)
    for data in (raw, raw + tail, raw[:max(len(raw) - cut, 0)]):
        try:
            expected = parse_tree(data)
        except BadValue:
            with pytest.raises(BadValue):
                Tree(data)
            continue
        tree = Tree(data)
        assert list(tree) == list(expected)
        assert all(tree.get(name) == entry for name, entry in expected.items())
        assert tree.get("absent name") is expected.get("absent name")
