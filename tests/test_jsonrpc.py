"""The JSON-RPC 2.0 checks `git route mcp` answers bad lines with: the iterative reader and the error chosen."""
from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gitroute.cli.jsonrpc import (
    ARRAY,
    INVALID_PARAMS,
    INVALID_REQUEST,
    OBJECT,
    PARSE_ERROR,
    NotJSON,
    rejection,
    scan_members,
)

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=4),
    max_leaves=20)


def top_level(value):
    """What scan_members gives for a value: containers as markers, an object's members one level down."""
    def marker(v):
        return OBJECT if isinstance(v, dict) else ARRAY if isinstance(v, list) else v
    return {k: marker(v) for k, v in value.items()} if isinstance(value, dict) else marker(value)


def depth(value) -> int:
    if isinstance(value, dict):
        return 1 + max(map(depth, value.values()), default=0)
    if isinstance(value, list):
        return 1 + max(map(depth, value), default=0)
    return 0


@given(JSON_VALUES, st.sampled_from([None, 0, 2]))
def test_scan_members_reads_what_json_reads(value, indent):
    text = json.dumps(value, indent=indent)
    assert scan_members(text) == (top_level(value), depth(value))


@given(st.text(max_size=40))
def test_scan_members_refuses_what_json_refuses(text):
    try:
        expected = json.loads(text, parse_constant=lambda name: pytest.fail("not JSON"))
    except (ValueError, RecursionError, pytest.fail.Exception):
        with pytest.raises(NotJSON):
            scan_members(text)
        return
    assert scan_members(text) == (top_level(expected), depth(expected))


def test_a_line_nested_far_past_any_recursion_limit_is_read_to_its_id():
    line = '{"jsonrpc": "2.0", "id": 42, "method": "m", "params": {"x": ' + "[" * 200_000 + "]" * 200_000 + "}}"
    members, levels = scan_members(line)
    assert members["id"] == 42 and levels == 200_002


def never(line: str) -> None:
    return None


@pytest.mark.parametrize("line, expected", [
    ('{"jsonrpc": "2.0", "id": 1}', (1, INVALID_REQUEST)),
    ('{"jsonrpc": "2.0", "id": "a", "method": 5}', ("a", INVALID_REQUEST)),
    ('{"jsonrpc": "2.0", "id": 2, "method": "m", "params": "x"}', (2, INVALID_REQUEST)),
    ('{"jsonrpc": "2.0", "id": 3, "method": "m", "params": [1]}', (3, INVALID_PARAMS)),
    ('{"jsonrpc": "1.0", "id": 4, "method": "m"}', (4, INVALID_REQUEST)),
    ('{"jsonrpc": "2.0", "id": 1.5, "method": "m"}', (None, INVALID_REQUEST)),
    ('{"jsonrpc": "2.0", "id": true, "method": "m"}', (None, INVALID_REQUEST)),
    ('{"jsonrpc": "2.0", "method": 1, "params": "bar"}', (None, INVALID_REQUEST)),  # the spec's own example
    ('[]', (None, INVALID_REQUEST)),
    ('7', (None, INVALID_REQUEST)),
    ('{"jsonrpc": "2.0", "id": 5, "method": "m", "params": {"a": NaN}}', (None, PARSE_ERROR)),
    ('{"jsonrpc": "2.0", "method"', (None, PARSE_ERROR)),
    ('{"jsonrpc": "2.0", "id": 6, "result": 1}', None),  # a response: never answered
    ("   ", None),
])
def test_rejection_names_the_error_and_the_id(line, expected):
    found = rejection(line, never)
    assert (found.id, found.code) == expected if expected else found is None


class Notification:  # what the SDK makes of a message with a method and no valid id
    method = "m"


class Request(Notification):
    id = 1


def test_a_request_the_server_reads_is_never_rejected():
    assert rejection('{"jsonrpc": "2.0", "id": 1, "method": "m"}', lambda line: Request()) is None
    assert rejection('{"jsonrpc": "2.0", "method": "m", "params": {"id": 1}}', lambda line: Notification()) is None


@pytest.mark.parametrize("request_id", ["null", "true", '{"a": 1}', "[1]", "1.5"])
def test_a_request_whose_id_the_sdk_ignores_is_refused_not_taken_for_a_notification(request_id):
    line = f'{{"jsonrpc": "2.0", "id": {request_id}, "method": "tools/list"}}'
    found = rejection(line, lambda line: Notification())
    assert (found.id, found.code) == (None, INVALID_REQUEST)
