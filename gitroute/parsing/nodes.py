"""What every extraction stage shares: the Scope and Ref records, the limits, and reading a node's text."""
from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tree_sitter import Node

# A name longer than this is not an identifier anyone will search for (minified code, a parse gone wrong).
MAX_NAME = 200
# A doc's first characters kept: its summary first. 600 was measured (session 51): on the 52 blind corpora of sessions
# 50-51 ask gained 3 of 832, on every bench file it lost 5 of 4,079 (148 ranks fell, 108 rose): a longer doc's words
# outweigh a shorter one's name.
MAX_DOC = 300
DOC_SCAN_BYTES = 4_000  # how far back (and how much) a doc comment or entry-point marker is looked for

WHITESPACE = re.compile(r"\s+")

# (start byte, category, name, line, extra) with category one of "call", "import", "type", "base", "bind";
# extra is a call's receiver, a binding's (module, imported name), else "".
Ref = tuple[int, str, str, int, object]


class Scope:
    """A definition (or a Rust impl / Swift extension block) while a file is being extracted.

    A plain slotted class: `dataclasses` costs an import the build workers need not pay.
    """

    __slots__ = ("start", "end", "kind", "name", "node", "name_node", "more_names", "receiver", "owner", "lexical",
                 "symbol", "last")

    def __init__(
        self,
        start: int,
        end: int,
        kind: str,
        name: str,
        node: Node,
        name_node: Node,
        receiver: str = "",
        owner: str = "",
    ) -> None:
        self.start = start
        self.end = end
        self.kind = kind  # a symbol kind, or "impl" for a block that binds methods to a named type
        self.name = name
        self.node = node
        self.name_node = name_node
        # The other names one declaration defines beside `name` (`const A = 1, B = 2`): same kind, owner and doc.
        self.more_names: tuple[Node, ...] = ()
        self.receiver = receiver  # the type a method is bound to, from the definition itself
        self.owner = owner  # JS: the object a function is assigned onto (`X` in `X.prototype.m = function`)
        self.lexical = -1  # index into the scope list of the innermost enclosing scope
        self.symbol = -1  # index into the symbol tuple; -1 for impl blocks and definitions over the cap
        self.last: Node | None = None  # the last clause of a definition written in several (Elixir, Haskell)


def text(node: Node) -> str:
    raw = node.text or b""
    return raw[: MAX_NAME * 4].decode("utf-8", "replace")[:MAX_NAME]


def clean_import(raw: bytes) -> str:
    """An import target as written, without quotes or angle brackets (`"fmt"` -> fmt, `<stdio.h>` -> stdio.h)."""
    written = raw[: MAX_NAME * 4].decode("utf-8", "replace").strip()
    if len(written) >= 2 and written[0] in "\"'`<" and written[-1] in "\"'`>":
        written = written[1:-1]
    return WHITESPACE.sub("", written)[:MAX_NAME]


def head(data: bytes, scope: Scope) -> bytes:
    """The modifiers and attributes before a definition's name (`public static`, `@main`)."""
    return data[max(scope.start, scope.name_node.start_byte - DOC_SCAN_BYTES) : scope.name_node.start_byte]
