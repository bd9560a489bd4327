"""The hooks a language family may override; the defaults are what every language without special cases does."""
from __future__ import annotations

from typing import TYPE_CHECKING

from gitroute.model import TYPE_KINDS
from gitroute.parsing.nodes import clean_import, text

if TYPE_CHECKING:
    from tree_sitter import Node

    from gitroute.model import Symbol
    from gitroute.parsing.nodes import Scope


class Family:
    """One language family's special cases. A family module builds one instance per set of languages that
    behave alike: `queries` maps each language with hand-written tag queries to its .scm files under
    queries/ (run concatenated, in order: the earliest pattern claiming a node wins), `langs` names the
    others (the generic walk finds their definitions); `gitroute.parsing.families.family(lang)` finds it."""

    # The kinds of symbol whose functions are its methods.
    method_holders: frozenset[str] = frozenset(TYPE_KINDS)
    # Whether a function is written as several clauses in a row, one definition each (Elixir's `def f(0)` then
    # `def f(n)`, Haskell's signature then its equations): they are merged into the first, which keeps the doc.
    clauses = False

    def __init__(self, *langs: str, queries: dict[str, tuple[str, ...]] | None = None) -> None:
        self.queries = queries or {}
        self.langs = frozenset((*langs, *self.queries))

    def parsed_text(self, data: bytes) -> bytes:
        """The bytes the grammar parses: `data`, or a copy of the same length whose lines are where they were."""
        return data

    def piece_starts(self, data: bytes) -> list[int]:
        """Where a file that did not parse whole may be cut into pieces parsed one by one (byte offsets of line
        starts), so that one construct the grammar cannot read costs its piece, not the rest of the file; [] for
        languages whose files are kept whole."""
        return []

    def docstring(self, node: Node) -> str:
        """A doc the definition holds itself (Python's docstring); "" to fall back to leading comments."""
        return ""

    def doc_anchor(self, node: Node) -> Node:
        """The node whose leading comments document `node`."""
        return node

    def definition_name(self, name: Node) -> str:
        """The name a definition's @name capture gives it."""
        return text(name)

    def documents_across_blank_line(self, comment: Node) -> bool:
        """Whether `comment`, the nearest comment above a definition with one blank line between them, still
        documents it; by default a blank line ends a doc."""
        return False

    def comment_words(self, cleaned: str) -> str:
        """A comment's text after its markers are gone (C# drops its XML tags here)."""
        return cleaned

    def is_call(self, name: Node) -> bool:
        """Whether an @reference.call capture is a call (Elixir's `def f(x)` head and `@spec` look like calls)."""
        return True

    def import_text(self, node: Node) -> str:
        """The imported target an @reference.import capture names."""
        return clean_import(node.text or b"")

    def module_binding(self, module: str) -> str:
        """The local name `import <module>` binds (`import a.b` binds `a`)."""
        return module.split(".")[0]

    def is_entry(self, scope: Scope, symbol: Symbol, symbols: list[Symbol], data: bytes) -> bool:
        """Whether a program starts at this symbol, by the language's convention."""
        return False

    def file_entry(self, root: Node, data: bytes) -> bool:
        """Whether running the file itself starts a program (Python's `if __name__ == "__main__":`)."""
        return False


class MainFunction(Family):
    """Languages where a top-level function called `main` is where the program starts."""

    def is_entry(self, scope: Scope, symbol: Symbol, symbols: list[Symbol], data: bytes) -> bool:
        return symbol.name == "main" and symbol.kind == "function" and symbol.parent == -1
