"""What JSON-RPC 2.0 says to answer to a line that is no message the MCP server can take.

The SDK's stdio transport drops such a line without a word, so a client waiting on its id waits forever.
`rejection` names the error the spec gives each case: -32700 for text that is not JSON, -32600 for JSON
that is not a request (no method, `jsonrpc` other than "2.0", params neither object nor array, a batch,
nesting deeper than the SDK reads), -32602 for params MCP cannot take (an array), each with the
request's id when it has a valid one, else null. A malformed response (`result` or `error`, no `method`)
gets no answer: answering it could start an endless exchange.

The top level is read by `scan_members`, a loop with its own stack: a line nested 100,000 deep is
read to its id like any other, where a recursive parser stops at the interpreter's limit.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from json import JSONDecoder

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
INVALID_PARAMS = -32602
OBJECT, ARRAY = object(), object()  # what scan_members records for a value that is a container
_TOKEN = re.compile(r'[ \t\r\n]*(?:([{}\[\],:])|(")|(-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?)'
                    r"|(true|false|null))")
_LITERALS = {"true": True, "false": False, "null": None}
_STRINGS = JSONDecoder()  # reads one string at a time: no recursion


@dataclass(frozen=True)
class Rejection:
    id: int | str | None  # the request's id, None when it has no valid one (sent as null)
    code: int
    message: str


class NotJSON(ValueError):
    pass


def scan_members(text: str) -> tuple[object, int]:
    """(the value, its depth) of one JSON text; an object's top-level members as a dict whose containers are
    `OBJECT`/`ARRAY`, a top-level container as that marker. Raises NotJSON for text that is not JSON."""
    stack: list[str] = []
    members: dict[str, object] = {}
    top: object = None
    key: str | None = None
    depth = 0
    pos, expect = 0, "value"  # value, value or close, key, key or close, colon, comma or close
    while True:
        match = _TOKEN.match(text, pos)
        if match is None:
            if not stack and expect == "done" and not text[pos:].strip(" \t\r\n"):
                return (members if top is OBJECT else top), depth
            raise NotJSON(f"not JSON at character {pos}")
        pos = match.end()
        punct, quote, number, literal = match.groups()
        if expect == "done":
            raise NotJSON(f"text after the JSON value at character {match.start()}")
        if expect in ("key", "key or close"):
            if punct == "}" and expect == "key or close":
                expect = _close(stack)
            elif quote:
                name, pos = _string(text, pos)
                key = name if len(stack) == 1 else None
                expect = "colon"
            else:
                raise NotJSON(f"a member name expected at character {match.start()}")
            continue
        if expect == "colon":
            if punct != ":":
                raise NotJSON(f"':' expected at character {match.start()}")
            expect = "value"
            continue
        if expect == "comma or close":
            if punct == ",":
                expect = "key" if stack[-1] == "{" else "value"
            elif punct in ("}", "]") and {"{": "}", "[": "]"}[stack[-1]] == punct:
                expect = _close(stack)
            else:
                raise NotJSON(f"',' or the end of a container expected at character {match.start()}")
            continue
        # a value, or the end of an empty array
        if punct == "]" and expect == "value or close":
            expect = _close(stack)
            continue
        if punct in ("{", "["):
            value: object = OBJECT if punct == "{" else ARRAY
            stack.append(punct)
            depth = max(depth, len(stack))
            expect = "key or close" if punct == "{" else "value or close"
        elif quote:
            value, pos = _string(text, pos)
            expect = "done" if not stack else "comma or close"
        elif number:
            try:
                value = int(number) if number.lstrip("-").isdigit() else float(number)
            except ValueError:  # more digits than int() reads: no valid id in any case
                value = float("inf")
            expect = "done" if not stack else "comma or close"
        elif literal:
            value = _LITERALS[literal]
            expect = "done" if not stack else "comma or close"
        else:
            raise NotJSON(f"a value expected at character {match.start()}")
        opened = punct in ("{", "[")
        if len(stack) - opened == 0:
            top = value
        elif len(stack) - opened == 1 and stack[0] == "{" and key is not None:
            members[key] = value


def _string(text: str, pos: int) -> tuple[str, int]:
    """The string whose opening quote is at `pos - 1`, and where it ends."""
    try:
        value, end = _STRINGS.raw_decode(text, pos - 1)
    except ValueError as err:
        raise NotJSON(str(err)) from None
    return value, end


def _close(stack: list[str]) -> str:
    stack.pop()
    return "done" if not stack else "comma or close"


def rejection(line: str, read: Callable[[str], object | None]) -> Rejection | None:
    """The error to answer `line` with, or None when the server takes it or the spec wants no answer (a blank
    line, a malformed response). `read` is the SDK's reader: the message it makes of a line, None if none."""
    if not line.strip():
        return None
    message = read(line)
    if message is not None:
        # The SDK takes a request whose id is null or not a string or an integer for a notification, and
        # answers nothing; MCP wants such a request refused.
        members = None if hasattr(message, "id") else scan_members(line)[0]
        if not isinstance(members, dict) or "id" not in members:
            return None
        return Rejection(None, INVALID_REQUEST, "Invalid Request: 'id' must be a string or an integer")
    try:
        value, depth = scan_members(line)
    except NotJSON as err:
        return Rejection(None, PARSE_ERROR, f"Parse error: {err}")
    if value is ARRAY:
        return Rejection(None, INVALID_REQUEST, "Invalid Request: a batch (a JSON array); MCP takes one message a line")
    if not isinstance(value, dict):
        return Rejection(None, INVALID_REQUEST, "Invalid Request: not a JSON object")
    raw_id = value.get("id")
    valid_id = isinstance(raw_id, str) or (isinstance(raw_id, int) and not isinstance(raw_id, bool))
    request_id = raw_id if valid_id else None
    if "method" not in value and ("result" in value or "error" in value):
        return None  # a response, malformed: never answered
    if "id" in value and not valid_id:
        return Rejection(None, INVALID_REQUEST, "Invalid Request: 'id' must be a string or an integer")
    if value.get("jsonrpc") != "2.0":
        return Rejection(request_id, INVALID_REQUEST, "Invalid Request: 'jsonrpc' must be \"2.0\"")
    if not isinstance(value.get("method"), str):
        return Rejection(request_id, INVALID_REQUEST, "Invalid Request: 'method' must be a string")
    params = value.get("params", OBJECT)
    if not (params is OBJECT or params is ARRAY or params is None):
        return Rejection(request_id, INVALID_REQUEST, "Invalid Request: 'params' must be an object or an array")
    if params is ARRAY:
        return Rejection(request_id, INVALID_PARAMS, "Invalid params: MCP's params are an object, not an array")
    return Rejection(request_id, INVALID_REQUEST, f"Invalid Request: nested {depth} levels deep, more than the "
                                                  "server reads" if depth > 100 else "Invalid Request")
