"""Swift's special case: a type marked `@main` is where the program starts."""
from __future__ import annotations

import re
from typing import TYPE_CHECKING

from gitroute.model import TYPE_KINDS
from gitroute.parsing.families.base import Family
from gitroute.parsing.nodes import head

if TYPE_CHECKING:
    from gitroute.model import Symbol
    from gitroute.parsing.nodes import Scope

_TYPE_KINDS = frozenset(TYPE_KINDS)
_MAIN_ATTRIBUTE = re.compile(rb"@main\b")


class Swift(Family):
    def is_entry(self, scope: Scope, symbol: Symbol, symbols: list[Symbol], data: bytes) -> bool:
        return symbol.kind in _TYPE_KINDS and _MAIN_ATTRIBUTE.search(head(data, scope)) is not None


FAMILIES = (Swift(queries={"swift": ("swift",)}),)
