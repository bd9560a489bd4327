"""Haskell's special cases: a function's signature and equations are one definition, its doc is the haddock
(`-- |`, `{-| -}`) above the signature, and `import qualified X.Y as W` binds `W` (the query's import is the module)."""
from __future__ import annotations

import re
from typing import TYPE_CHECKING

from gitroute.parsing.families.base import Family
from gitroute.parsing.nodes import DOC_SCAN_BYTES, MAX_DOC, WHITESPACE, text

if TYPE_CHECKING:
    from tree_sitter import Node

_COMMENTS = frozenset(("haddock", "comment"))
# Where a definition is the first of a body whose haddock sits before the body (a class's first method).
_BODIES = frozenset(("declarations", "class_declarations", "instance_declarations"))
_HADDOCK_NEXT = re.compile(r"^\s*(?:--+|\{-)\s*\|", re.MULTILINE)
_MARKERS = re.compile(r"^\s*(?:\{-\s*[|^]?|--+\s*[|^*$]?)[ \t]?|-\}\s*$", re.MULTILINE)


class Haskell(Family):
    clauses = True

    def definition_name(self, name: Node) -> str:
        written = text(name)  # an operator's signature names it `(|||)`, its equations `a ||| b`
        return written[1:-1].strip() if name.type == "prefix_id" else written

    def docstring(self, node: Node) -> str:
        """The comment that ends on the line above the definition, wherever the grammar put it: before it, at the
        end of what precedes it (the import list), or before the class body it opens."""
        comment = _comment_before(node)
        if comment is None:
            return ""
        raw = (comment.text or b"")[:DOC_SCAN_BYTES].decode("utf-8", "replace")
        gap = node.start_point[0] - 1 - _last_row(comment)
        # Haddock gives a `-- |` comment to the declaration after it; xmonad leaves a blank line between the two.
        if gap != 0 and not (gap == 1 and _HADDOCK_NEXT.search(raw)):
            return ""
        return WHITESPACE.sub(" ", _MARKERS.sub(" ", raw)).strip()[:MAX_DOC]


def _comment_before(node: Node) -> Node | None:
    anchor = node
    for _ in range(3):  # bounded: a definition, its body, the class around it
        before = anchor.prev_sibling
        if before is None:
            parent = anchor.parent
            if parent is None or parent.type not in _BODIES:
                return None
            anchor = parent
            continue
        for _ in range(3):  # the comment may be the last node inside what precedes (`imports`)
            if before.type in _COMMENTS:
                return before
            last = before.child(before.child_count - 1) if before.child_count else None
            if last is None:
                return None
            before = last
        return None
    return None


def _last_row(node: Node) -> int:
    row, column = node.end_point
    return row - 1 if column == 0 and row > node.start_point[0] else row


FAMILIES = (Haskell(queries={"haskell": ("haskell",)}),)
