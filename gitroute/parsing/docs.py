"""A definition's doc: the family's own (Python docstrings), else the comments directly above it, cleaned."""
from __future__ import annotations

import re
from typing import TYPE_CHECKING

from gitroute.parsing.nodes import DOC_SCAN_BYTES, MAX_DOC

if TYPE_CHECKING:
    from tree_sitter import Node

    from gitroute.parsing.families import Family

# Nodes that wrap a definition without being one; a leading comment sits before the wrapper.
_WRAPPERS = frozenset(
    (
        "decorated_definition", "export_statement", "template_declaration", "ambient_declaration",
        "type_declaration", "field_declaration", "lexical_declaration",
        "variable_declaration", "variable_declarator", "public_field_definition", "field_definition",
        "property_declaration", "annotated_definition", "body_statement", "const_declaration", "var_declaration",
        "var_spec_list",
    )
)
# Siblings allowed between a doc comment and its definition (attributes, decorators, annotations).
_SKIPPABLE_BEFORE = frozenset(("attribute_item", "decorator", "annotation", "marker_annotation", "attribute"))
MAX_DOC_COMMENTS = 512  # a doc in line comments is followed up to where it starts (its head is its summary)
MAX_DOC_BYTES = 32_000
_LINE_MARKER = re.compile(r"^\s*(?:///?|//!|#+:?|--+|;+|%+|\*+)[ \t]?", re.MULTILINE)


def doc(family: Family, node: Node) -> str:
    docstring = family.docstring(node)
    if docstring:
        return docstring
    anchor = family.doc_anchor(node)
    for _ in range(4):  # bounded climb out of wrappers (decorators, export, template<...>, Go type ( ... ))
        comments, blocked = _leading_comments(anchor, family)
        if comments:
            return _head(comments, family)
        parent = anchor.parent
        # Climb only when nothing but keywords/decorators precede the node inside its wrapper.
        if blocked or parent is None or parent.type not in _WRAPPERS:
            break
        anchor = parent
    return ""


def _head(comments: list[str], family: Family) -> str:
    """The first MAX_DOC characters of a doc written as `comments` (nearest first): its summary comes first."""
    parts: list[str] = []
    size = 0
    for text in reversed(comments):
        cleaned = _clean_comment(text, family)
        parts.append(cleaned)
        size += len(cleaned)
        if size > 2 * MAX_DOC:  # enough text: what follows would be cut off
            break
    return " ".join(" ".join(parts).split())[:MAX_DOC]  # whitespace collapsed: `\s+` -> " ", stripped


def _leading_comments(anchor: Node, family: Family) -> tuple[list[str], bool]:
    """The comments directly above `anchor` (nearest first), skipping attributes and decorators,
    and whether a named node other than those stopped the scan. The nearest comment may be separated
    from the anchor by one blank line where the family says it still documents it (JSDoc, Ruby's)."""
    comments: list[str] = []
    expected_row = anchor.start_point[0]
    sibling = anchor.prev_sibling
    total = 0
    # Bounded: a doc is a few comments, perhaps after a few attributes; one in line comments (Rust's `///`,
    # Ruby's `#`) is a comment per line, followed up to where it starts so that its head is kept.
    for _ in range(MAX_DOC_COMMENTS):
        if sibling is None or total >= MAX_DOC_BYTES:
            break
        if sibling.type in _SKIPPABLE_BEFORE:
            expected_row = sibling.start_point[0]
            sibling = sibling.prev_sibling
            continue
        comment = sibling if "comment" in sibling.type else _last_comment_inside(sibling)
        if comment is None:
            return comments, sibling.is_named
        end_row = comment.end_point[0] - (1 if comment.end_point[1] == 0 else 0)
        if end_row < expected_row - 1 and not (
            not comments and end_row == expected_row - 2 and family.documents_across_blank_line(comment)
        ):
            break
        if _trails_code(comment):
            break
        text = (comment.text or b"")[:DOC_SCAN_BYTES].decode("utf-8", "replace")
        if text.startswith("#!"):  # a shebang line documents nothing
            break
        comments.append(text)
        total += len(text)
        expected_row = comment.start_point[0]
        if comment is not sibling:
            break  # what precedes a comment swallowed by the previous node belongs to that node
        sibling = sibling.prev_sibling
    return comments, False


def _last_comment_inside(node: Node) -> Node | None:
    """Some grammars (Kotlin) attach a comment that precedes a declaration to the end of the node before it."""
    for _ in range(3):
        last = node.child(node.child_count - 1) if node.child_count else None
        if last is None:
            return None
        if "comment" in last.type:
            return last
        node = last
    return None


def _trails_code(comment: Node) -> bool:
    """`x = 1  # note` is about x, not about the definition on the next line."""
    before = comment.prev_sibling
    if before is None or "comment" in before.type:
        return False
    row, column = before.end_point
    # A node that ends at a line's start (a C `#define` holds its newline) ended on the line above.
    return row == comment.start_point[0] and column > 0


def _clean_comment(text: str, family: Family) -> str:
    """One comment's text without its markers (`//`, `#`, `/** */`, ` * `, `--`), whitespace collapsed."""
    text = text.strip()
    if text.startswith("/*"):
        text = text[3:] if text.startswith(("/**", "/*!")) else text[2:]
        if text.endswith("*/"):
            text = text[:-2]
    elif text.startswith(("=begin", "<#")):  # Ruby/PowerShell block comments
        text = text.split("\n", 1)[-1].rsplit("\n", 1)[0]
    text = _LINE_MARKER.sub("", text)
    text = family.comment_words(text.replace("*/", " ").replace("/*", " "))
    return " ".join(text.split())[:MAX_DOC]
