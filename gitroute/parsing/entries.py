"""Entry points inside a file: the symbols where a program starts, and a file that starts one when run,
each by its language family's convention."""
from __future__ import annotations

from typing import TYPE_CHECKING

from gitroute.model import Symbol

if TYPE_CHECKING:
    from gitroute.parsing.families import Family
    from gitroute.parsing.nodes import Scope


def mark_entries(family: Family, scopes: list[Scope], symbols: list[Symbol], data: bytes) -> list[Symbol]:
    """Set `entry` on the symbols where a program starts."""
    entries: set[int] = set()
    for scope in scopes:
        index = scope.symbol
        if index >= 0 and family.is_entry(scope, symbols[index], symbols, data):
            entries.add(index)
    if not entries:
        return symbols
    return [
        Symbol(s.name, s.kind, s.line, s.end_line, s.signature, s.doc, s.parent, True) if i in entries else s
        for i, s in enumerate(symbols)
    ]
