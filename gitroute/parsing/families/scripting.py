"""Ruby and PHP: hand-written tag queries; Ruby's docs follow YARD's and RDoc's rules, PHP's docblocks lose the tags
that say nothing about the code; Lua has a tag query and no special case. Shell scripts: a file the grammar cannot
read whole is read function by function."""
from __future__ import annotations

import re
from typing import TYPE_CHECKING

from gitroute.parsing.families.base import Family
from gitroute.parsing.nodes import text
from gitroute.prose import RUBY_MAGIC_COMMENT, php_comment_text

if TYPE_CHECKING:
    from tree_sitter import Node

# RDoc directives and coverage markers (`# :nodoc:`, `# :stopdoc:`, `#:nocov:`): markup, not words about the code.
_DIRECTIVE = re.compile(
    r"(?:^:?|:)(?:nodoc|doc|stopdoc|startdoc|enddoc|notnew|not-new|call-seq|yields|args|section|category|nocov):"
    r"(?:\s*all\b)?"
)
_BLOCK_LINES = 256  # how far up a comment block is followed to find where it starts


# A shell function's first line at the start of a line (`name() {`, `function name {`), with the comments right above
# it (its doc; a bounded number, so that a long comment block is not scanned again from each of its lines).
_SHELL_FUNCTION = re.compile(
    rb"^(?:#[^\n]*\n){0,64}(?:function[ \t]+[^\s()]+|[^\s()#=$;&|<>]+[ \t]*\(\))", re.MULTILINE
)
_MAX_PIECES = 2_000


class Shell(Family):
    def piece_starts(self, data: bytes) -> list[int]:
        # bash's grammar cannot read every construct (extglob's `!(...)`, some heredocs): the rest of the file
        # became one error, and bash-completion's main script lost 80 of its 100 functions behind one extglob.
        starts = []
        for match in _SHELL_FUNCTION.finditer(data):
            starts.append(match.start())
            if len(starts) >= _MAX_PIECES:
                break
        return starts


class Php(Family):
    def comment_words(self, cleaned: str) -> str:
        return php_comment_text(cleaned)


class Ruby(Family):
    def definition_name(self, name: Node) -> str:
        # `attr_reader :apps` and `define_method(:go)` name their methods by a symbol: the name is without its colon.
        written = text(name)
        return written[1:] if name.type == "simple_symbol" else written

    def documents_across_blank_line(self, comment: Node) -> bool:
        # YARD attaches the comment that ends on the line above a definition or on the one before it: Ruby code
        # often leaves a blank line under a class's doc (rack does under most of its middleware). The comments
        # that open a file (magic comments, a license) are its header, not the doc of what follows.
        if RUBY_MAGIC_COMMENT.match((comment.text or b"").decode("utf-8", "replace")):
            return False
        first = comment
        for _ in range(_BLOCK_LINES):
            before = first.prev_sibling
            if before is None or before.type != "comment" or before.end_point[0] < first.start_point[0] - 1:
                break
            first = before
        if first.parent is None or first.parent.type != "program":
            return True
        before = first.prev_sibling
        for _ in range(_BLOCK_LINES):
            if before is None or before.type != "comment":
                break
            before = before.prev_sibling
        return before is not None

    def comment_words(self, cleaned: str) -> str:
        if RUBY_MAGIC_COMMENT.match("# " + cleaned):
            return ""
        return _DIRECTIVE.sub(" ", cleaned)


FAMILIES = (Ruby(queries={"ruby": ("ruby",)}), Php(queries={"php": ("php",)}), Shell("bash"),
            Family(queries={"lua": ("lua",)}))
