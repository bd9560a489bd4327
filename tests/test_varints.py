"""The varints (gitroute/bundle/varints.py): the fast paths of `encode_varints` and `node_gaps` spell what the
plain loops they replaced spelled, byte for byte: a bundle must not change with them."""
from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gitroute.bundle.validate import BadValue
from gitroute.bundle.varints import decode_varints, encode_varints, node_gaps, node_ids
from gitroute.model import NODE_ORDINAL_BITS


def _spelled_one_by_one(ints: list[int]) -> bytes:
    """LEB128 as the bundle's format spells it, an int at a time (the encoder before its fast paths)."""
    out = bytearray()
    for n in ints:
        while n > 127:
            out.append(n & 127 | 128)
            n >>= 7
        out.append(n)
    return bytes(out)


def _gaps_one_by_one(ids: list[int]) -> list[int]:
    """`node_gaps` as its docstring says it, an id at a time."""
    bucket_gaps, ordinal_gaps = [], []
    bucket = ordinal = 0
    for i in ids:
        b, o = i >> NODE_ORDINAL_BITS, i & ((1 << NODE_ORDINAL_BITS) - 1)
        bucket_gaps.append(b - bucket)
        ordinal_gaps.append(o if b != bucket else o - ordinal)
        bucket, ordinal = b, o
    return bucket_gaps + ordinal_gaps


# Mostly small ints, as postings' columns are, with a few past one byte, two bytes or anything.
_INTS = st.lists(st.one_of(st.integers(0, 127), st.integers(128, 255), st.integers(0, 2**14), st.integers(0, 2**64)))


@given(_INTS)
def test_encode_varints_spells_what_one_int_at_a_time_spells(ints):
    assert encode_varints(ints) == _spelled_one_by_one(ints)
    assert encode_varints(iter(ints)) == _spelled_one_by_one(ints)
    assert decode_varints(encode_varints(ints)) == ints


@given(st.lists(st.integers(0, 127), min_size=1))
def test_ints_below_128_are_a_byte_each(ints):
    assert encode_varints(ints) == bytes(ints)


@given(_INTS, st.integers(-2**40, -1), st.data())
def test_a_negative_int_anywhere_is_a_bad_value(ints, negative, data):
    at = data.draw(st.integers(0, len(ints)))
    with pytest.raises(BadValue):
        encode_varints([*ints[:at], negative, *ints[at:]])


# Node ids: a few buckets (files), several ordinals in each, as a postings list's ids are.
_IDS = st.lists(st.tuples(st.integers(0, 2**12), st.integers(0, (1 << NODE_ORDINAL_BITS) - 1)), unique=True).map(
    lambda pairs: sorted(b << NODE_ORDINAL_BITS | o for b, o in pairs))


@given(_IDS)
def test_node_gaps_are_what_one_id_at_a_time_gives_and_read_back(ids):
    assert node_gaps(ids) == _gaps_one_by_one(ids)
    assert node_ids(node_gaps(ids)) == ids


@given(_IDS.filter(lambda ids: len(ids) > 1), st.data())
def test_node_ids_out_of_order_are_a_bad_value(ids, data):
    at = data.draw(st.integers(1, len(ids) - 1))
    swapped = [*ids[:at - 1], ids[at], ids[at - 1], *ids[at + 1:]]
    with pytest.raises(BadValue):
        node_gaps(swapped)


def test_a_negative_node_id_is_a_bad_value():
    with pytest.raises(BadValue):
        node_gaps([-1])
    with pytest.raises(BadValue):
        node_gaps([-5, 3])


def test_ints_of_two_bytes_are_looked_up_and_larger_or_negative_ones_spelled_as_before():
    from gitroute.bundle.varints import SPELLED_BELOW

    for ints in ([128, 0], [SPELLED_BELOW - 1, 5, 200], [3, SPELLED_BELOW, 1], [SPELLED_BELOW * 128, 2**63], [300]):
        assert encode_varints(ints) == _spelled_one_by_one(ints)
    with pytest.raises(BadValue):
        encode_varints([200, -1])
