"""Varints and node ids decoded over numpy arrays (`bundle.varint_arrays`) against the codec's Python decoding: the
same ints for every value a build writes, and None (the codec's to judge) for any other."""
from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from gitroute.bundle.tables import FieldLists
from gitroute.bundle.varint_arrays import field_lists, varint_ints
from gitroute.bundle.varints import decode_varints, encode_varints
from gitroute.model import NODE_ORDINAL_BITS


@settings(max_examples=400, deadline=None)
@given(ints=st.lists(st.one_of(st.integers(0, 127), st.integers(0, (1 << 56) - 1)), min_size=1, max_size=60))
def test_varints_read_as_an_array_are_the_codecs_ints(ints):
    assert varint_ints(np, encode_varints(ints)).tolist() == ints


@settings(max_examples=400, deadline=None)
@given(raw=st.binary(max_size=40))
def test_bytes_read_as_an_array_are_the_codecs_ints_or_none(raw):
    """Any bytes: the codec's ints when every varint ends and has at most eight bytes, else None."""
    found = varint_ints(np, raw)
    ends = [at for at, byte in enumerate(raw) if byte < 128]
    plain = bool(raw) and raw[-1] < 128 and all(b - a <= 8 for a, b in zip([-1, *ends], ends))
    assert (found is not None) == plain
    if plain:
        assert found.tolist() == decode_varints(raw)


# Symbol posting values as a build writes them: a node id (a bucket of 30 bits, an ordinal) shifted past four bits of
# facts; many in one bucket, so that ordinals run on and buckets move.
VALUES = st.lists(st.tuples(st.integers(0, (1 << 30) - 1), st.integers(0, (1 << NODE_ORDINAL_BITS) - 1),
                            st.integers(0, 15)).map(lambda t: (t[0] << NODE_ORDINAL_BITS | t[1]) << 4 | t[2]),
                  max_size=40).map(lambda values: sorted(set(values)))


@settings(max_examples=300, deadline=None)
@given(lists=st.tuples(VALUES, VALUES, VALUES))
def test_field_lists_read_as_arrays_are_the_codecs(lists):
    codec = FieldLists(3)
    stored = codec.encode(list(lists))
    assert field_lists(np, stored, 3) == codec.decode(stored) == [list(values) for values in lists]


@settings(max_examples=400, deadline=None)
@given(lists=st.tuples(VALUES, VALUES, VALUES), edits=st.lists(st.tuples(st.integers(0, 400), st.integers(0, 255)),
                                                                min_size=1, max_size=3), cut=st.integers(0, 3))
def test_a_damaged_field_lists_value_is_the_codecs_or_none(lists, edits, cut):
    """Bytes changed or cut: the arrays give the codec's lists, or None (and the codec reads or refuses it)."""
    codec = FieldLists(3)
    damaged = bytearray(codec.encode(list(lists)))
    for at, byte in edits:
        if damaged:
            damaged[at % len(damaged)] = byte
    raw = bytes(damaged[:len(damaged) - cut])
    found = field_lists(np, raw, 3)
    if found is not None:
        assert found == codec.decode(raw)


def test_an_ordinal_past_its_bits_or_a_list_past_the_value_is_none():
    codec = FieldLists(1)
    assert field_lists(np, encode_varints([1, 0, 1 << NODE_ORDINAL_BITS]), 1) is None  # the codec raises
    assert field_lists(np, encode_varints([2, 0, 0, 5]), 1) is None  # two ids, three ints after the count
    assert field_lists(np, encode_varints([0, 7]), 1) is None  # an int past the last list
    assert field_lists(np, codec.encode([[]]), 1) == codec.decode(codec.encode([[]])) == [[]]
