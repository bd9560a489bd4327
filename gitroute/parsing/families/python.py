"""Python's special cases: docstrings, and `if __name__ == "__main__":` as an entry point."""
from __future__ import annotations

import re
from typing import TYPE_CHECKING

from gitroute.parsing.families.base import MainFunction
from gitroute.parsing.nodes import MAX_DOC

if TYPE_CHECKING:
    from tree_sitter import Node

_PREFIX_LETTERS = frozenset("rRuUbBfF")
_QUOTES = ('"""', "'''", '"', "'")  # the longest first
_PY_MAIN_GUARD = re.compile(
    r"""^if\s*\(?\s*(?:__name__\s*==\s*(['"])__main__\1|(['"])__main__\2\s*==\s*__name__)\s*\)?\s*:"""
)


class Python(MainFunction):
    def docstring(self, node: Node) -> str:
        """The string that is a def's or class's first statement, without quotes or prefixes."""
        body = node.child_by_field_name("body")
        if body is None:
            return ""
        first = body.named_child(0)
        index = 0
        while first is not None and first.type == "comment" and index < 64:  # comments are not statements
            index += 1
            first = body.named_child(index)
        if first is not None and first.type == "expression_statement" and first.named_child_count:
            first = first.named_child(0)
        if first is None or first.type not in ("string", "concatenated_string"):
            return ""
        raw = (first.text or b"")[: MAX_DOC * 8].decode("utf-8", "replace")
        content = string_content(raw.strip())
        return " ".join((raw if content is None else content).split())[:MAX_DOC]

    def file_entry(self, root: Node, data: bytes) -> bool:
        """A module-level `if __name__ == "__main__":` (either quote style, either operand order)."""
        if b"__main__" not in data:
            return False
        for child in root.named_children:
            if child.type == "if_statement":
                condition = child.child_by_field_name("condition")
                if condition is not None and b"__main__" in (condition.text or b""):
                    head = data[child.start_byte : (condition.end_byte + 4)].decode("utf-8", "replace")
                    if _PY_MAIN_GUARD.match(head):
                        return True
        return False


def string_content(literal: str) -> str | None:
    """A string literal's text without its prefix (at most two of `rRuUbBfF`) and quotes; the closing quote may be
    missing (the literal was cut short). None when `literal` does not open as a string.

    What `^[rRuUbBfF]{0,2}(\"\"\"|'''|\"|')(.*?)(?:\\1)?$` (DOTALL) matches as its second group, without the regex,
    whose lazy group tried the closing quote at each character of a docstring (2 % of extracting django's code)."""
    start = 0
    while start < 2 and start < len(literal) and literal[start] in _PREFIX_LETTERS:
        start += 1
    quote = next((q for q in _QUOTES if literal.startswith(q, start)), None)
    if quote is None:
        return None
    start += len(quote)
    end = len(literal) - len(quote)
    return literal[start:end] if end >= start and literal.endswith(quote) else literal[start:]


FAMILIES = (Python(queries={"python": ("python",)}),)
